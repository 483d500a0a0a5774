"""``POST /api/v1/photos`` (contract "Photos"): the object, the errors (415, 422, 413, an
unreadable file, a decompression bomb), the game seam (RO-1: green where Rummikub has orange;
the card games refused in the players' words), and the body limits: 16 MiB for a photo, the
app's 1 MiB for everything else.

The photos are held-out validation photos of the Rummikub set (tests/data/photos/
ATTRIBUTION.md). No database is touched by the photo endpoint: one SQLite app per module.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image, ImageFile

from companion.domain.bounds import MAX_BODY, MAX_PHOTO
from companion.web.app import create_app

PHOTOS = Path(__file__).resolve().parent.parent / "data" / "photos"
RACK = PHOTOS / "rummy3-13_jpeg.rf.a9a2e6c584ee515ddc2051720cf5b4a8.jpg"
TABLE = PHOTOS / "rummy-12_jpeg.rf.685a46f7c57563efc63a5633102d66dd.jpg"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    tmp = tmp_path_factory.mktemp("photos")
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp / "instance"),
            "DATABASE_URL": f"sqlite:///{tmp / 'c.sqlite3'}",
            "SECRET_KEY": "test secret key",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    app.extensions["companion_db"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def post(client: FlaskClient, data: bytes, query: str = "game=rummikub", **headers: str):
    headers.setdefault("Content-Type", "image/jpeg")
    return client.post(f"/api/v1/photos?{query}", data=data, headers=headers)


def encode(im: Image.Image, fmt: str, **kw: object) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def test_a_rack_photo_gives_the_contract_object(client: FlaskClient) -> None:
    r = post(client, RACK.read_bytes())
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert list(body) == ["game", "as", "tiles", "boxes", "unsure"]
    assert body["game"] == "rummikub" and body["as"] == "rack"
    assert len(body["boxes"]) == len(body["tiles"])
    for tile in body["tiles"]:
        assert tile == "*" or (tile[0] in "KRBO" and 1 <= int(tile[1:]) <= 13)
    for box in body["boxes"]:
        assert len(box) == 4 and all(0 <= v <= 1 for v in box)
    assert all(0 <= i < len(body["tiles"]) for i in body["unsure"])
    assert r.headers["Cache-Control"] == "no-store"  # never cached, not even by the phone


def test_the_table_gives_melds_and_loose_tiles(client: FlaskClient) -> None:
    r = post(client, TABLE.read_bytes(), "game=rummikub&as=table")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert list(body) == ["game", "as", "tiles", "boxes", "unsure", "melds", "loose"]
    in_melds = sum(len(m) for m in body["melds"])
    assert in_melds + len(body["loose"]) == len(body["tiles"])
    assert all(len(m) >= 3 for m in body["melds"])


def test_png_and_webp_are_read_like_the_jpeg(client: FlaskClient) -> None:
    im = Image.open(TABLE).convert("RGB")
    webp = post(client, encode(im, "WEBP", lossless=True), **{"Content-Type": "image/webp"})
    png = post(client, encode(im, "PNG"), **{"Content-Type": "image/png"})
    assert webp.status_code == png.status_code == 200
    assert webp.get_json()["tiles"] == png.get_json()["tiles"]


def test_rummy_o_reads_green_where_rummikub_has_orange(client: FlaskClient) -> None:
    # RO-1: the same reader, the fourth ink written G; no Rummy-O tile is ever "O"
    kub = post(client, TABLE.read_bytes(), "game=rummikub").get_json()["tiles"]
    ro = post(client, TABLE.read_bytes(), "game=rummy-o").get_json()["tiles"]
    assert ro == [("G" + t[1:]) if t.startswith("O") else t for t in kub]
    assert not any(t.startswith("O") for t in ro)


@pytest.mark.parametrize("game", ["rummy17", "manipulation"])
def test_the_card_games_are_not_read_yet(client: FlaskClient, game: str) -> None:
    r = post(client, RACK.read_bytes(), f"game={game}")
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["code"] == "photo-game-not-read"
    assert "cannot be read from a photo yet" in error["message"]


def test_the_card_games_are_refused_in_the_players_language(client: FlaskClient) -> None:
    en = post(client, RACK.read_bytes(), "game=rummy17").get_json()["error"]["message"]
    for lang in ("hu", "de", "bg"):
        r = post(client, RACK.read_bytes(), "game=rummy17", **{"Accept-Language": lang})
        assert r.status_code == 422
        assert r.get_json()["error"]["message"] != en, lang


def test_an_unknown_game_or_way_is_refused(client: FlaskClient) -> None:
    assert post(client, RACK.read_bytes(), "game=chess").status_code == 422
    r = post(client, RACK.read_bytes(), "game=rummikub&as=hand")
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "photo-as"


@pytest.mark.parametrize("kind", ["text/plain", "application/json", "image/gif", ""])
def test_a_body_of_another_type_is_415(client: FlaskClient, kind: str) -> None:
    r = post(client, RACK.read_bytes(), **{"Content-Type": kind})
    assert r.status_code == 415
    assert "JPEG, PNG or WebP" in r.get_json()["error"]["message"]


@pytest.mark.parametrize(
    "data", [b"", b"not a photo at all", RACK.read_bytes()[:300], RACK.read_bytes()[:5000]]
)
def test_an_unreadable_photo_is_422(client: FlaskClient, data: bytes) -> None:
    r = post(client, data)
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["code"] == "photo-body-unreadable"
    assert "cannot be read as a photo" in error["message"]


def test_an_unreadable_photo_is_worded_in_the_phones_language(client: FlaskClient) -> None:
    r = post(client, b"nothing", **{"Accept-Language": "de"})
    assert r.status_code == 422
    assert "cannot be read" not in r.get_json()["error"]["message"]


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny valid PNG whose header then says it is width × height pixels."""
    data = bytearray(encode(Image.new("RGB", (1, 1)), "PNG"))
    data[16:24] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[12:29])) & 0xFFFFFFFF
    data[29:33] = struct.pack(">I", crc)
    return bytes(data)


def test_a_decompression_bomb_is_422_before_decoding(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a few hundred bytes claiming 400 megapixels, and a real 51-megapixel PNG of a few kB
    bombs = [_png_claiming(20000, 20000), encode(Image.new("L", (8000, 6400)), "PNG")]

    def decode(self: ImageFile.ImageFile) -> None:
        raise AssertionError("the pixels were decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", decode)
    for data in bombs:
        assert len(data) < MAX_BODY
        r = post(client, data, **{"Content-Type": "image/png"})
        assert r.status_code == 422
        assert r.get_json()["error"]["code"] == "photo-body-too-many-pixels"


def test_a_full_size_phone_photo_is_taken_and_one_byte_more_is_413(client: FlaskClient) -> None:
    # a JPEG padded to 16 MiB (a comment after the image's end): within the photo's limit,
    # far past the app's own 1 MiB
    photo = RACK.read_bytes()
    padded = photo + b"\0" * (MAX_PHOTO - len(photo))
    assert len(padded) == MAX_PHOTO > 10 * MAX_BODY
    assert post(client, padded).status_code == 200
    r = post(client, padded + b"\0")
    assert r.status_code == 413
    assert "16" in r.get_json()["error"]["message"]


def test_every_other_body_keeps_the_apps_own_limit(client: FlaskClient) -> None:
    body = b'{"game": "rummikub", "players": [], "x": "' + b"a" * MAX_BODY + b'"}'
    r = client.post("/api/v1/score", data=body, content_type="application/json")
    assert r.status_code == 413


def test_a_photo_is_never_logged(client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    photo = RACK.read_bytes()
    with caplog.at_level("DEBUG"):
        post(client, photo)
        post(client, b"garbage")
    assert all(len(rec.getMessage()) < 1000 for rec in caplog.records)
