"""``companion read`` (contract "Photos"): one photo an object, several a list in the order
given, exit 0 when every photo could be read, 2 otherwise with the error object naming the
file; the card games refused in the players' words. Photos: tests/data/photos (CC BY 4.0,
ATTRIBUTION.md there)."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_main

PHOTOS = Path(__file__).resolve().parent / "data" / "photos"
RACK = str(PHOTOS / "rummy3-13_jpeg.rf.a9a2e6c584ee515ddc2051720cf5b4a8.jpg")
TABLE = str(PHOTOS / "rummy-12_jpeg.rf.685a46f7c57563efc63a5633102d66dd.jpg")


def run(*args: str) -> tuple[int, object]:
    proc = run_main("read", *args)
    return proc.returncode, json.loads(proc.stdout)


def test_one_photo_gives_one_object() -> None:
    code, out = run("--game", "rummikub", RACK)
    assert code == 0
    assert isinstance(out, dict)
    assert list(out) == ["game", "as", "tiles", "boxes", "unsure"]
    assert out["game"] == "rummikub" and out["as"] == "rack"
    assert len(out["tiles"]) == len(out["boxes"])


def test_several_photos_give_a_list_in_the_order_given_and_table_gives_melds(
    tmp_path: Path,
) -> None:
    code, out = run("--game", "rummy-o", "--as", "table", TABLE, RACK)
    assert code == 0
    assert isinstance(out, list) and len(out) == 2
    for item in out:
        assert item["game"] == "rummy-o" and item["as"] == "table"
        assert "melds" in item and "loose" in item
        assert not any(t.startswith("O") for t in item["tiles"])  # RO-1: green, not orange
    _, rack = run("--game", "rummy-o", RACK)
    assert isinstance(rack, dict)
    assert [t for t in out[1]["tiles"]] == rack["tiles"]


def test_a_photo_that_cannot_be_read_is_its_error_object_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "note.jpg"
    bad.write_text("not a photo")
    missing = tmp_path / "gone.jpg"
    code, out = run("--game", "rummikub", RACK, str(bad), str(missing))
    assert code == 2
    assert isinstance(out, list) and len(out) == 3
    assert "tiles" in out[0]
    assert out[1]["error"]["code"] == "photo-unreadable"
    assert str(bad) in out[1]["error"]["message"]
    assert out[2]["error"]["code"] == "cli-cannot-read"
    assert str(missing) in out[2]["error"]["message"]
    code, one = run("--game", "rummikub", str(bad))
    assert code == 2 and one["error"]["code"] == "photo-unreadable"


def test_the_card_games_are_not_read_yet_in_the_players_language() -> None:
    code, out = run("--game", "rummy17", RACK)
    assert code == 2 and out["error"]["code"] == "photo-game-not-read"
    code, de = run("--game", "manipulation", "--lang", "de", RACK)
    assert code == 2 and "Foto" in de["error"]["message"]


def test_game_and_photo_are_required() -> None:
    code, out = run(RACK)
    assert code == 2 and "error" in out
    code, out = run("--game", "rummikub")
    assert code == 2 and "error" in out
