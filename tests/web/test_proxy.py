"""Behind an HTTPS reverse proxy (COMPANION_PROXY): Secure cookies and HSTS, only over HTTPS.

security.py sets every security header; ProxyFix reads X-Forwarded-* only when told that a
proxy stands in front, since without one anybody can send those headers.
"""

from __future__ import annotations

import pytest
from flask import Flask, session

from companion.web.app import create_app
from companion.web.security import HSTS, proxies

HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "club.example"}


def with_session_route(app: Flask) -> Flask:
    @app.get("/_touch-session")
    def touch() -> str:
        session["seen"] = True
        return "ok"

    return app


def cookies(response) -> list[str]:
    return response.headers.getlist("Set-Cookie")


def test_behind_an_https_proxy_cookies_are_secure_and_hsts_is_sent(app_factory):
    app = with_session_route(app_factory(PROXY=1))
    client = app.test_client()
    response = client.get("/?lang=hu", headers=HTTPS)
    assert response.headers["Strict-Transport-Security"] == HSTS
    (lang,) = cookies(response)
    assert lang.startswith("companion_lang=hu") and "; Secure" in lang
    response = client.get("/_touch-session", headers=HTTPS)
    (cookie,) = cookies(response)
    assert cookie.startswith("session=") and "; Secure" in cookie
    assert cookie.count("Secure") == 1


def test_behind_the_proxy_a_plain_http_request_gets_no_hsts_and_no_secure_cookie(app_factory):
    app = with_session_route(app_factory(PROXY=1))
    response = app.test_client().get("/?lang=de", headers={"X-Forwarded-Proto": "http"})
    assert "Strict-Transport-Security" not in response.headers
    assert all("Secure" not in c for c in cookies(response))


def test_without_the_setting_forwarded_headers_are_not_believed(app_factory):
    app = with_session_route(app_factory())
    response = app.test_client().get("/?lang=bg", headers=HTTPS)
    assert "Strict-Transport-Security" not in response.headers
    assert all("Secure" not in c for c in cookies(response))
    assert "club.example" not in response.get_data(as_text=True)


def test_behind_the_proxy_links_use_the_address_the_browser_used(app_factory):
    app = app_factory(PROXY=1)
    client = app.test_client()
    response = client.post(
        "/start/rummikub",
        data={"names-0": "Anna", "names-1": "Béla", "first": "0", "games": "2"},
        headers={**HTTPS, "Origin": "https://club.example"},
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:400]
    device = [c for c in cookies(response) if c.startswith("companion_device=")]
    assert device and "; Secure" in device[0]
    board = client.get(response.headers["Location"], headers=HTTPS).get_data(as_text=True)
    assert "https://club.example/v/" in board


@pytest.mark.parametrize(
    ("value", "hops"), [("1", 1), ("2", 2), ("0", 0), ("true", 1), ("false", 0), ("", 0)]
)
def test_the_proxy_setting_comes_from_the_environment(tmp_path, monkeypatch, value, hops):
    monkeypatch.setenv("COMPANION_PROXY", value)
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite3'}",
            "SECRET_KEY": "k",
        }
    )
    assert proxies(app) == hops
    # Each proxy appends its own value; with two, the browser's is the second from the end.
    chain = {k: ", ".join([v] * max(hops, 1)) for k, v in HTTPS.items()}
    response = app.test_client().get("/", headers=chain)
    assert ("Strict-Transport-Security" in response.headers) == (hops > 0)
    app.extensions["companion_db"].dispose()
