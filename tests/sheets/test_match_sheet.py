"""The filled score sheet: every number from the rules core, one page, ≥ 8 pt."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import segno
from pdfcheck import A4, LETTER, font_sizes, page_sizes, reader, same_size, text
from sheet_samples import NAMES, sample_match

from companion.adapters.sheets import match_sheet, match_sheet_from_document, short_labels
from companion.domain import EntryError, get_game, match_document, score_document
from companion.domain.games.rummy17 import BONUS_CARDS

URL = "https://companion.example/v/Qx7kP2mZ9aLr4TbW"
HISTORY = [
    {"when": datetime(2024, 5, 1, 20, n, tzinfo=UTC), "what": f"Game {n} edited: Béla's hand"}
    for n in range(1, 5)
]


@pytest.fixture(scope="module")
def big() -> dict:
    return sample_match(6, 12, planned=12)


@pytest.fixture(scope="module")
def big_a4(big: dict) -> bytes:
    return match_sheet(big, readonly_url=URL, history=HISTORY, created=datetime(2024, 5, 1))


@pytest.fixture(scope="module")
def big_letter(big: dict) -> bytes:
    return match_sheet(big, paper="letter", readonly_url=URL, history=HISTORY)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def expected_rows(doc: dict) -> list[str]:
    """Each game's numbers as the sheet prints them, computed independently of the sheet."""
    result = match_document(doc)
    rows = []
    for raw, summary in zip(doc["rounds"], result["rounds"], strict=True):
        scored = score_document({"game": "rummy17", **raw})
        cells = [
            f"{p['penalty']} {p['bonus']} {signed(p['score'])} {summary['totals'][p['name']]}"
            for p in scored["players"]
        ]
        rows.append(" ".join(cells))
    return rows


def test_six_by_twelve_fits_one_a4_page(big_a4: bytes) -> None:
    assert len(reader(big_a4).pages) == 1
    assert same_size(page_sizes(big_a4)[0], A4)


def test_six_by_twelve_fits_one_letter_page(big_letter: bytes) -> None:
    assert len(reader(big_letter).pages) == 1
    assert same_size(page_sizes(big_letter)[0], LETTER)


@pytest.mark.parametrize("which", ["big_a4", "big_letter"])
def test_nothing_is_printed_below_8_points(which: str, request: pytest.FixtureRequest) -> None:
    sizes = font_sizes(request.getfixturevalue(which))
    assert sizes, "no text found"
    smallest = min(sizes)
    assert smallest[0] >= 7.99, f"{smallest[1]!r} is printed at {smallest[0]:.2f} pt"


def test_css_declares_no_font_size_below_8_points() -> None:
    css = (Path(__file__).parents[2] / "templates" / "sheets" / "sheet.css").read_text()
    sizes = [float(s) for s in re.findall(r"font(?:-size)?:[^;]*?(\d+(?:\.\d+)?)pt", css)]
    assert sizes and min(sizes) >= 8
    assert not re.search(r"font(?:-size)?:[^;]*\d(?:px|em|rem|%)", css), "sizes in pt only"


def test_names_with_accents_and_cyrillic_print_right(big_a4: bytes) -> None:
    got = text(big_a4)
    for name in NAMES:
        assert name in got
    assert "Пятница" in got  # the title


def test_every_game_row_holds_penalty_bonus_score_and_running_total(big: dict, big_a4: bytes):
    got = text(big_a4)
    for number, row in enumerate(expected_rows(big), start=1):
        assert row in got, f"game {number}: {row!r} not on the sheet"


def test_final_totals_and_shared_ranks_are_printed(big: dict, big_a4: bytes) -> None:
    got = text(big_a4)
    result = match_document(big)
    totals = " ".join(str(result["totals"][n]) for n in big["players"])
    assert f"Total {totals}" in got
    standings = " ".join(f"{s['rank']}. {s['name']} {s['total']}" for s in result["standings"])
    assert "Final standings " + standings in got


def test_tied_totals_share_a_rank() -> None:
    doc = {"game": "rummy17", "players": ["Ágnes", "Bence", "Csaba"], "first_dealer": "Ágnes"}
    doc["rounds"] = []  # no games yet: everyone on 0 shares rank 1 (D17-7)
    got = text(match_sheet(doc))
    assert "1. Ágnes 0 1. Bence 0 1. Csaba 0" in got


def test_rummy17_games_carry_the_doubling_mark(big: dict, big_a4: bytes) -> None:
    doubled = [r["number"] for r in match_document(big)["rounds"] if r["rummy17"]]
    assert doubled, "the sample should have RUMMY 17 games"
    got = text(big_a4)
    for number in doubled:
        assert re.search(rf"\b{number} ×2\b", got), f"game {number} lacks ×2"
    assert got.count("×2") == len(doubled) + 1  # plus the legend


def test_bonus_cards_and_winners_of_each_game_are_listed(big: dict, big_a4: bytes) -> None:
    got = text(big_a4)
    labels = short_labels(big["players"])
    for raw in big["rounds"]:
        scored = score_document({"game": "rummy17", **raw})
        for award in scored["awards"]:
            who = ", ".join(labels[w] for w in award["winners"]) or "—"
            assert f"{BONUS_CARDS[award['card']].name}: {who}" in got


def test_dealer_of_each_game_is_printed() -> None:
    doc = sample_match(3, 3, planned=5)  # few players: full names, no short labels
    got = text(match_sheet(doc))
    result = match_document(doc)
    for r in result["rounds"]:
        assert f"{r['number']} {r['dealer']} " in got
    assert f"4 {result['next']['dealer']}" in got  # the games still to play, too


def test_header_house_rules_history_and_link(big_a4: bytes) -> None:
    got = text(big_a4)
    assert "2024-05-01" in got and "12 of 12 rounds" in got and "finished" in got
    decisions = get_game("rummy17").decisions
    assert [d.rule for d in decisions] == [f"D17-{n}" for n in range(2, 12)]
    for decision in decisions:
        assert f"{decision.rule} {decision.text}" in got
    for item in HISTORY:
        assert item["what"] in got
    assert URL in got


def test_the_qr_code_encodes_the_read_only_link(big_a4: bytes) -> None:
    images = reader(big_a4).pages[0].images
    assert len(images) == 1
    drawn = images[0].image.convert("L")
    matrix = segno.make(URL, error="m").matrix  # what a phone's camera must read back
    assert drawn.size == (len(matrix), len(matrix))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            assert (drawn.getpixel((x, y)) < 128) == bool(dark), f"module {x},{y}"


def test_no_qr_code_without_a_link() -> None:
    assert not reader(match_sheet(sample_match(2, 1))).pages[0].images


def test_three_player_match_in_progress_is_one_page_with_full_names() -> None:
    doc = sample_match(3, 4, planned=6)
    pdf = match_sheet(doc, readonly_url=URL, history=HISTORY[:2])
    got = text(pdf)
    assert len(reader(pdf).pages) == 1
    assert "in progress" in got and "4 of 6 rounds" in got and "Standings after round 4" in got
    assert "Most runs: Zsófi Őri, Márk Űrös, Jörg Weiß" in got


def test_short_labels_are_unique_prefixes() -> None:
    assert short_labels(["Anna", "Aladár", "Béla"]) == {"Anna": "An", "Aladár": "Al", "Béla": "B"}
    assert short_labels(["Ann", "Anna"]) == {"Ann": "Ann", "Anna": "Anna"}
    assert short_labels(["Дмитрий", "Дарья"]) == {"Дмитрий": "Дм", "Дарья": "Да"}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "a match must be a JSON object"),
        ({"game": "rummy17", "players": ["A"]}, "2 to 6 players"),
        ({"game": "rummy17", "players": ["A", "B"], "rounds": [{"players": []}]}, "round 1: "),
    ],
)
def test_bad_documents_raise_the_rules_cores_entry_error(doc: object, message: str) -> None:
    with pytest.raises(EntryError, match=message):
        match_sheet_from_document(doc)


def test_unknown_paper_is_bad_input() -> None:
    with pytest.raises(EntryError, match="a4 or letter"):
        match_sheet(sample_match(2, 1), paper="a5")


def test_text_is_set_in_dejavu_embedded_in_the_pdf(big_a4: bytes) -> None:
    # Fonts come from the system (fonts-dejavu-core) or static/fonts, never the network.
    fonts = reader(big_a4).pages[0]["/Resources"]["/Font"]
    names = {str(f.get_object()["/BaseFont"]) for f in fonts.values()}
    assert names and all("DejaVu" in n for n in names), names
    assert all(
        "/FontFile2" in f.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        for f in fonts.values()
        if "/DescendantFonts" in f.get_object()
    )


def test_column_heads_never_share_an_abbreviation_and_wrap_before_they_collide() -> None:
    from companion.adapters.sheets.render import column_heads, heads_fit
    from companion.domain import get_game
    from companion.i18n.catalogues import translator

    hungarian = translator("hu")
    heads = column_heads(get_game("rummy17").columns, hungarian)
    shorts = [h["short"] for h in heads]
    assert len(set(shorts)) == len(shorts) and shorts[:2] == ["Bü", "Bó"]  # Büntető-, Bónusz
    english = translator("en")
    three = column_heads(get_game("rummy17").columns, english)
    assert heads_fit(three, 3 * 4, english)  # "Penalty" fits among twelve columns
    assert not heads_fit(three, 4 * 4, english)  # among sixteen it would run into "Bonus"
    assert not heads_fit(heads, 3 * 4, hungarian)  # "Büntetőpont" does not fit even three
