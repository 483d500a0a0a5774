"""Security: headers, long random tokens, the secret key, CSRF, no edit token in read-only JSON."""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path

import pytest
from support import load

from companion.adapters import store
from companion.adapters.db import get_session
from companion.adapters.store import new_token
from companion.web.app import create_app
from companion.web.security import CONTENT_SECURITY_POLICY, secret_key


def make_match(app):
    doc = load("rummy17-match.json")
    with app.app_context():
        session = get_session()
        match = store.create_match(
            session,
            game=doc["game"],
            players=doc["players"],
            first_dealer=doc["first_dealer"],
            games=2,
        )
        for round_doc in doc["rounds"]:
            store.add_round(session, match, round_doc)
    return match


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/"),
        ("get", "/no/such/page"),
        ("get", "/api/v1/matches/nope"),
        ("post", "/api/v1/check"),
        ("get", "/static/app.css"),
    ],
)
def test_every_answer_has_the_security_headers(client, method, path):
    response = getattr(client, method)(path)
    csp = response.headers["Content-Security-Policy"]
    assert csp == CONTENT_SECURITY_POLICY
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no other origin
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"  # tokens are in URLs
    assert response.headers["X-Frame-Options"] == "DENY"


def test_tokens_have_at_least_128_bits():
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    alphabet = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    for token in tokens:
        assert set(token) <= alphabet
        assert len(token) * math.log2(len(alphabet)) >= 128


def test_match_tokens_differ_and_are_long(app):
    match = make_match(app)
    assert match.edit_token != match.view_token
    for token in (match.edit_token, match.view_token):
        assert len(token) * 6 >= 128


def test_read_only_json_never_contains_the_edit_token(app, client):
    match = make_match(app)
    for path in (f"/v/{match.view_token}.json", f"/api/v1/matches/{match.view_token}"):
        response = client.get(path)
        assert response.status_code == 200
        assert match.edit_token not in response.get_data(as_text=True)
        assert "edit_token" not in response.get_data(as_text=True)


def test_secret_key_is_generated_once_and_reused(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    path = tmp_path / "instance"
    first = secret_key(path)
    assert len(first) >= 32
    key_file = path / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert secret_key(path) == first
    assert secret_key(tmp_path / "elsewhere") != first


def test_app_uses_the_persisted_secret_key(app_factory, monkeypatch):
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    apps = [app_factory(SECRET_KEY=None) for _ in range(2)]
    keys = [a.config["SECRET_KEY"] for a in apps]
    assert keys[0] == keys[1]
    assert (Path(apps[0].instance_path) / "secret_key").read_text().strip() == keys[0]


def test_secret_key_from_the_environment_wins(app_factory, monkeypatch):
    monkeypatch.setenv("COMPANION_SECRET_KEY", "from the environment")
    app = app_factory(SECRET_KEY=None)
    assert app.config["SECRET_KEY"] == "from the environment"
    assert not (Path(app.instance_path) / "secret_key").exists()


def test_a_numeric_secret_key_from_the_environment_is_text(app_factory, monkeypatch):
    monkeypatch.setenv("COMPANION_SECRET_KEY", "123456789012345678901234567890")
    app = app_factory(SECRET_KEY=None)
    assert app.config["SECRET_KEY"] == "123456789012345678901234567890"


def test_a_form_post_without_csrf_token_is_refused(csrf_app):
    client = csrf_app.test_client()
    match = make_match(csrf_app)
    before = client.get(f"/v/{match.view_token}.json").json
    edit = match.edit_token
    for path in (
        "/start/rummy17",
        f"/m/{edit}/rounds/1/delete",
        f"/m/{edit}/rounds/new",
        f"/m/{edit}/rounds/1/edit",
        f"/m/{edit}/lengthen",
        f"/m/{edit}/rematch",
    ):
        response = client.post(path, data={"players": "Anna\nBéla", "number": "1", "revision": "3"})
        assert response.status_code == 400, path
        assert "Traceback" not in response.get_data(as_text=True)
    assert client.get(f"/v/{match.view_token}.json").json == before


def test_the_api_needs_no_csrf_token(csrf_app):
    response = csrf_app.test_client().post(
        "/api/v1/check", json={"game": "rummy17", "cards": ["R3", "R4", "R5"]}
    )
    assert response.status_code == 200


def test_errors_never_show_a_traceback(app_factory):
    app = app_factory(TESTING=False, PROPAGATE_EXCEPTIONS=False)

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    @app.get("/api/boom")
    def api_boom() -> str:
        raise RuntimeError("secret internals")

    client = app.test_client()
    page = client.get("/boom")
    assert page.status_code == 500
    assert "secret internals" not in page.get_data(as_text=True)
    assert "Traceback" not in page.get_data(as_text=True)
    api = client.get("/api/boom")
    assert api.status_code == 500
    assert api.is_json
    assert "secret internals" not in api.get_data(as_text=True)


def test_unknown_page_is_a_friendly_404(client):
    response = client.get("/m/not-a-token")
    assert response.status_code == 404
    assert "Traceback" not in response.get_data(as_text=True)
    assert response.headers["Content-Type"].startswith(("text/html", "text/plain"))


def test_instance_folder_and_database_are_created_on_first_run(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(tmp_path / "fresh"))
    app = create_app()
    try:
        assert Path(app.instance_path) == tmp_path / "fresh"
        assert (tmp_path / "fresh" / "companion.sqlite3").is_file()
        with app.app_context():
            assert store.matches_for_device(get_session(), "x") == []
    finally:
        app.extensions["companion_db"].dispose()


def test_upgrade_db_command(runner):
    result = runner.invoke(args=["upgrade-db"])
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output


def test_secret_key_file_is_not_world_readable_even_with_a_loose_umask(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    old = os.umask(0)
    try:
        secret_key(tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
