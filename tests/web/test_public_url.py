"""Share links come from ``COMPANION_PUBLIC_URL`` when it is set, never from the request's host.

A public server's links, QR codes (on the pages and on the score sheet) and redirects were
built from the request's ``Host`` header: ``Host: evil.example`` gave ``http://evil.example/m/…``
to whoever opened it. With the setting, every absolute address is the configured one; without
it (a server on the table's Wi-Fi), the address the phone used.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
import segno
from pypdf import PdfReader

from companion.app import create_app

PUBLIC = "https://club.example"
EVIL = "http://evil.example"
MATCH = {"game": "rummikub", "players": ["Anna", "Béla", "Cili"], "first_dealer": "Anna"}
START = {"names-0": "Anna", "names-1": "Béla", "first": "0"}
EVENT = {"game": "rummikub", "entrants": "Anna\nBéla\nCili\nDani"}


@pytest.fixture
def qr_codes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What every QR code made meanwhile says (pages, parts and sheets alike)."""
    made: list[str] = []
    real = segno.make

    def recording(content: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(str(content))
        return real(content, *args, **kwargs)

    monkeypatch.setattr(segno, "make", recording)
    return made


def everything(client: Any, **request: Any) -> list[Any]:
    """A match started on its page and over the API, its pages, players' links, sheet, and
    an event: every answer, each asked with ``request`` (the host it names)."""
    answers = []
    started = client.post("/start/rummikub", data=START, **request)
    assert started.status_code == 302
    edit = started.headers["Location"].rsplit("/", 1)[-1]
    made = client.post("/api/v1/matches", json=MATCH, **request)
    assert made.status_code == 201
    view = made.get_json()["view"]
    parts = client.post(f"/api/v1/matches/{made.get_json()['edit']}/parts", **request)
    assert parts.status_code in (200, 201), parts.get_json()
    answers += [started, made, parts]
    for path in (
        f"/m/{edit}",
        f"/v/{view}",
        f"/m/{made.get_json()['edit']}/parts.json",
        f"/m/{edit}/sheet.pdf",
    ):
        answer = client.get(path, **request)
        assert answer.status_code == 200, path
        answers.append(answer)
    event = client.post("/events/new", data=EVENT, **request)
    assert event.status_code == 302
    answers += [event, client.get(event.headers["Location"], **request)]
    return answers


def said(answer: Any) -> str:
    """All an answer says: its headers and body (a PDF's text)."""
    if answer.mimetype == "application/pdf":
        body = "".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.data)).pages)
    else:
        body = answer.get_data(as_text=True)
    return f"{answer.headers}\n{body}"


@pytest.mark.parametrize("proxy", [0, 1])
def test_with_a_public_url_nothing_is_built_from_the_requests_host(app_factory, qr_codes, proxy):
    app = app_factory(PUBLIC_URL=PUBLIC, SHEET_RENDERERS=0, PROXY=proxy)
    client = app.test_client()
    forwarded = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http"}
    answers = everything(client, base_url=EVIL, headers=forwarded if proxy else {})
    texts = [said(answer) for answer in answers]
    assert not [text for text in texts if "evil.example" in text]
    assert any(f"{PUBLIC}/v/" in text for text in texts)  # the links are there, and right
    assert any(f"{PUBLIC}/m/" in text for text in texts)
    assert qr_codes and all(code.startswith(PUBLIC + "/") for code in qr_codes), qr_codes
    sheet = next(a for a in answers if a.mimetype == "application/pdf")
    assert PUBLIC.split("//")[1] in said(sheet)  # the sheet's read-only link (and QR code)


def test_without_it_links_use_the_address_the_phone_used(app_factory, qr_codes):
    app = app_factory(SHEET_RENDERERS=0)
    table = "http://192.168.1.20:5000"
    texts = [said(answer) for answer in everything(app.test_client(), base_url=table)]
    assert any(f"{table}/v/" in text for text in texts)
    assert qr_codes and all(code.startswith(table + "/") for code in qr_codes)


@pytest.mark.parametrize(
    "wrong", ["club.example", "ftp://club.example", "https://club.example/companion", "https://"]
)
def test_a_public_url_that_is_not_an_address_stops_the_start(tmp_path, wrong):
    with pytest.raises(ValueError, match="COMPANION_PUBLIC_URL"):
        create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x", "PUBLIC_URL": wrong})
