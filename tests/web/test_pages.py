"""The pages through the test client: every route for every game, CSRF, wrong links, inline
errors placed by their fields, revisions, the series' length, read-only."""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support import load, unlinked

from companion.adapters import store
from companion.adapters.db import get_session
from companion.domain import all_games, get_game, match_document, score_document

NAMES = ["Zsófi", "Márk", "Lili"]  # the players of tests/data/*-round.json
ROOT = Path(__file__).resolve().parents[2]
GAME_IDS = [g.id for g in all_games()]

# One valid round of each game for NAMES, entered as a table would (cards and counts).
ROUNDS: dict[str, dict[str, Any]] = {
    "rummy17": load("rummy17-round.json"),
    "rummikub": load("rummikub-round.json"),
    "rummy-o": {
        "game": "rummy-o",
        "went_out": None,  # the pool ran out: Zsófi and Márk tie for lowest (DO-4)
        "players": [
            {"name": "Zsófi", "rack": ["R1", "K2"]},
            {"name": "Márk", "rack": {"points": 12}},
            {"name": "Lili", "rack": ["G13", "*"]},
        ],
    },
    "manipulation": load("manipulation-round.json"),  # Zsófi undercuts Márk (MR-12)
}


def start(
    client: FlaskClient,
    names: list[str],
    first: int = 0,
    games: str = "",
    game: str = "rummy17",
) -> str:
    """Start a match through its game's start page; the edit token."""
    data = {f"names-{i}": n for i, n in enumerate(names)}
    data.update(first=str(first), games=games, title="")
    answer = client.post(f"/start/{game}", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    found = re.fullmatch(r"/m/([\w-]+)", answer.headers["Location"])
    assert found, answer.headers["Location"]
    return found.group(1)


def view_token(client: FlaskClient, edit: str) -> str:
    """The read-only token, as the scoreboard shows it."""
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    return re.search(r'id="view-link"[^>]*value="[^"]*/v/([\w-]+)"', page).group(1)


def revision(client: FlaskClient, path: str) -> str:
    """The revision a form was loaded at (its hidden field)."""
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="revision" type="hidden" value="(\d+)"', page).group(1)


def form_data(doc: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """What a player types into the round form for this round document (any game)."""
    desc = get_game(doc["game"]).descriptor()
    data: dict[str, Any] = {"save": "1"}
    if "bonus_cards" in desc:
        data["bonus_cards"] = list(doc["bonus_cards"])
    for ending in desc["endings"]:
        if ending["key"] in doc:
            data[ending["key"]] = doc[ending["key"]] or "-"
    if desc.get("last_card"):
        data["last_discard"] = doc.get("last_discard") or ""
    for i, player in enumerate(doc["players"]):
        if desc["melds"]:
            data[f"players-{i}-melds"] = "\n".join(" ".join(m) for m in player["melds"])
        held = player[desc["holding"]]
        if isinstance(held, dict):
            data.update({f"players-{i}-{k}": v for k, v in held.items()})
        else:
            data[f"players-{i}-{desc['holding']}"] = " ".join(held)
    data.update(extra)
    return data


def totals_shown(page: str) -> list[int]:
    """The totals row of a scoreboard, in seat order."""
    cells = re.findall(r'data-player="\d+">([^<]+)</td>', page)
    return [int(c.replace("−", "-")) for c in cells]


def near(page: str, marker: str, end: str = "</fieldset>") -> str:
    """The part of a page from ``marker`` to the next ``end``, unescaped."""
    return html.unescape(page.split(marker, 1)[1].split(end, 1)[0])


def stored_rounds(app: Flask, edit: str) -> list[dict[str, Any]]:
    with app.app_context():
        match = store.get_by_edit_token(get_session(), edit)
        return [r.document for r in match.rounds]


@pytest.fixture
def round_doc() -> dict[str, Any]:
    return copy.deepcopy(ROUNDS["rummy17"])


@pytest.fixture
def edit(client: FlaskClient) -> str:
    return start(client, NAMES, first=1)


@pytest.fixture
def played(client: FlaskClient, edit: str, round_doc: dict[str, Any]) -> str:
    """A Rummy 17 match with one round saved."""
    answer = client.post(f"/m/{edit}/rounds/new", data=form_data(round_doc))
    assert answer.status_code == 302
    return edit


# --- Choose a game, start a match ----------------------------------------------------------


def test_home_offers_every_game_first(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    for game in all_games():
        assert f'href="/start/{game.id}"' in page and game.name in page
    assert "No matches yet" in page
    assert "<form" not in page  # choosing the game is a link: it works without JavaScript


@pytest.mark.parametrize("game", GAME_IDS)
def test_start_page_asks_the_rulebook_question_for_its_seats(
    client: FlaskClient, game: str
) -> None:
    kind = get_game(game)
    page = unlinked(client.get(f"/start/{game}").get_data(as_text=True))
    low, high = kind.seats
    assert page.count('type="text" name="names-') == high  # R17-1, RK-1, RO-1, MR-1
    assert f"{low} to {high} players ({kind.seats_rule})" in page
    assert kind.first_question in page and kind.first_seat_rule in page
    # MR-1: a first dealer chosen at random, the button posting to its own address
    assert f'formaction="/start/{game}/random"' in page
    assert ('name="games"' in page) == (kind.default_length(high) is not None)


def test_an_unknown_game_has_no_start_page(client: FlaskClient) -> None:
    assert client.get("/start/chess").status_code == 404


def test_start_a_match_with_accents_and_cyrillic(client: FlaskClient) -> None:
    names = ["Zsófi", "Дмитрий", "Ørjan"]
    edit = start(client, names, first=2)
    cookie = client.get_cookie("companion_device")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    for name in names:
        assert name in page
    # D17-7: no number given, one game per player; Ørjan deals first, Zsófi starts (R17-6).
    assert "Game 1 of 3: Ørjan deals, Zsófi starts." in page  # Rummy 17 says game
    home = client.get("/").get_data(as_text=True)
    assert f"/m/{edit}" in home and "Дмитрий" in home and "Rummy 17" in home


def test_who_starts_is_asked_where_the_rulebook_asks_it(client: FlaskClient) -> None:
    # RK-2 the table chooses who starts; RO-3 whoever drew the highest tile starts.
    for game in ("rummikub", "rummy-o"):
        edit = start(client, NAMES, first=1, game=game)
        page = client.get(f"/m/{edit}").get_data(as_text=True)
        assert "Round 1 of 3: Márk starts." in page, game  # nobody deals here
        assert "deals" not in page.split('id="next"')[1].split("</p>")[0]


def test_manipulation_runs_to_150_and_has_no_number_of_rounds(client: FlaskClient) -> None:
    edit = start(client, NAMES, first=2, game="manipulation")
    page = unlinked(client.get(f"/m/{edit}").get_data(as_text=True))
    assert "Round 1: Lili deals, Zsófi starts." in page
    assert "reaches 150 (MR-16)" in page
    data = {f"names-{i}": n for i, n in enumerate(NAMES)} | {"first": "0", "games": "4"}
    answer = client.post("/start/manipulation", data=data)
    assert answer.status_code == 422  # MR-16: the rules core refuses a number of rounds
    assert "150" in html.unescape(answer.get_data(as_text=True))


def test_pick_at_random_without_javascript(client: FlaskClient) -> None:
    data = {f"names-{i}": "" for i in range(5)} | {"names-0": "Anna", "names-2": "Cili"}
    for _ in range(5):
        page = client.post("/start/manipulation/random", data=data).get_data(as_text=True)
        ticked = re.findall(r'name="first" value="(\d)"\s+checked', page)
        assert ticked in (["0"], ["2"])  # one of the named seats, never an empty one
        assert 'value="Anna"' in page and 'value="Cili"' in page


def test_matches_of_another_device_are_not_listed(app: Flask, edit: str) -> None:
    other = app.test_client()
    assert f"/m/{edit}" not in other.get("/").get_data(as_text=True)


def test_home_lists_progress_and_leader_and_a_device_can_forget_a_match(
    client: FlaskClient, played: str, round_doc: dict[str, Any]
) -> None:
    fresh = start(client, ["Ida", "Jan"], game="rummikub")
    home = html.unescape(client.get("/").get_data(as_text=True))
    doc = {"game": "rummy17", "players": NAMES, "first_dealer": NAMES[1], "rounds": [round_doc]}
    result = match_document(doc)
    leaders = [s["name"] for s in result["standings"] if s["rank"] == 1]
    total = result["totals"][leaders[0]]
    assert "1 of 3 games" in home  # Rummy 17's word
    assert f"{', '.join(leaders)} lead" in home and f"with {total:+d}".replace("-", "−") in home
    assert "Not started" in home and f"/m/{fresh}/forget" in home
    gone = client.post(f"/m/{fresh}/forget")
    assert gone.status_code == 302
    home = html.unescape(client.get("/").get_data(as_text=True))
    assert f"/m/{fresh}" not in home and f"/m/{played}" in home
    assert "no longer listed on this device" in home
    assert client.get(f"/m/{fresh}").status_code == 200  # the match itself is kept


@pytest.mark.parametrize(
    ("game", "names", "first", "message"),
    [
        ("rummy17", ["Anna"], 0, "2 to 6 players"),
        ("rummikub", ["Anna"], 0, "2 to 4 players"),
        ("rummy17", ["Anna", "Béla"], 3, "Tick the answer to “Who deals first?”"),
        ("rummy-o", ["Anna", "Béla"], 3, "Tick the answer to “Who drew the highest tile?”"),
        ("rummy17", ["Anna", "anna"], 0, "used twice"),
    ],
)
def test_start_errors_keep_the_names(
    client: FlaskClient, game: str, names: list[str], first: int, message: str
) -> None:
    data = {f"names-{i}": n for i, n in enumerate(names)} | {"first": str(first)}
    answer = client.post(f"/start/{game}", data=data)
    page = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 422
    assert message in page
    for name in names:
        assert f'value="{name}"' in page


def test_a_name_used_twice_is_marked_at_the_second(client: FlaskClient) -> None:
    data = {"names-0": "Anna", "names-1": "Béla", "names-2": "ANNA", "first": "0"}
    page = client.post("/start/rummy17", data=data).get_data(as_text=True)
    assert 'id="names-2-error"' in page and 'id="names-0-error"' not in page
    assert "ANNA" in page.split('id="names-2-error"')[1].split("</ul>")[0]


def test_number_of_rounds_can_be_set(client: FlaskClient) -> None:
    edit = start(client, NAMES, games="5", game="rummikub")
    assert "Round 1 of 5" in client.get(f"/m/{edit}").get_data(as_text=True)


# --- Entering rounds ---------------------------------------------------------------------------


def test_new_round_says_who_deals_and_starts(client: FlaskClient, edit: str) -> None:
    page = client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)
    assert "Márk deals, Lili starts" in page  # R17-2, R17-6
    assert page.count('type="checkbox" name="bonus_cards"') == 12
    assert 'data-draft="companion:' in page and 'data-restore="1"' in page
    assert 'name="revision" type="hidden" value="1"' in page


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_round_form_is_drawn_from_the_games_descriptor(client: FlaskClient, game: str) -> None:
    desc = get_game(game).descriptor()
    edit = start(client, NAMES, game=game)
    page = html.unescape(client.get(f"/m/{edit}/rounds/new").get_data(as_text=True))
    for ending in desc["endings"]:
        assert ending["question"] in page
        assert page.count(f'name="{ending["key"]}" value=') == len(NAMES) + 1
    for count in desc["counts"]:
        assert count["label"] in page and f'name="players-2-{count["key"]}"' in page
    assert f'name="players-2-{desc["holding"]}"' in page
    assert ('name="players-0-melds"' in page) == desc["melds"]
    assert ('name="last_discard"' in page) == bool(desc.get("last_card"))
    assert ('id="walker"' in page) == desc["melds"]
    picker = page.split('id="picker"')[1].split("</dialog>")[0]
    assert picker.count("data-c=") == len(desc["cards"]["colours"])
    assert picker.count("data-v=") == len(desc["cards"]["values"])
    for value in desc["cards"]["values"]:
        assert f">{value['text']}</button>" in picker
    if desc["melds"]:  # the walker's keys are the cards themselves: one per card
        walker = page.split('id="walker"')[1].split("</dialog>")[0]
        keys = re.findall(r'data-card data-c="(\w+)" data-v="(\d+)" aria-label="([^"]+)"', walker)
        assert len(keys) == len(desc["cards"]["colours"]) * len(desc["cards"]["values"])
        names = {c["code"]: c["name"] for c in desc["cards"]["colours"]}
        texts = {str(v["value"]): v["text"] for v in desc["cards"]["values"]}
        assert all(label == f"{names[c]} {texts[v]}" for c, v, label in keys)
        # One "All colours" key, a dot per colour of the game's own.
        key = walker.split("data-all")[1].split("</button>")[0]
        assert walker.count("data-all") == 1 and 'aria-label="All colours"' in key
        assert re.findall(r'<i data-c="(\w+)">', key) == list(names)
    assert "data-game='" in page  # the descriptor the picker reads


def test_rummy17_round_is_marked_doubled(client: FlaskClient) -> None:
    doc = load("rummy17-doubled.json")
    edit = start(client, [p["name"] for p in doc["players"]])
    client.post(f"/m/{edit}/rounds/new", data=form_data(doc))
    assert "×2" in client.get(f"/m/{edit}").get_data(as_text=True)
    breakdown = client.get(f"/m/{edit}/rounds/1").get_data(as_text=True)
    assert "RUMMY 17" in breakdown and "R17-15a" in breakdown


def test_a_17_shows_the_rummy17_notice_before_saving(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, last_discard="Y17")
    del data["save"]
    page = client.post(f"/m/{edit}/rounds/new/preview", data=data).get_data(as_text=True)
    assert re.search(r'<p class="notice" id="r17">', page)
    # preview.js asks the same question of the server while the card is typed (R17-15a).
    ask = {"went_out": "Zsófi", "last_discard": "y17"}
    json_headers = {"Accept": "application/json"}
    notice = f"/m/{edit}/rounds/new/notice"  # the form's data-notice-url
    assert f'data-notice-url="{notice}"' in page
    answer = client.post(notice, data=ask, headers=json_headers)
    assert answer.get_json() == {"doubles": True}
    ask |= {"went_out": "-"}  # R17-15b: nobody went out, nothing doubles
    answer = client.post(notice, data=ask, headers=json_headers)
    assert answer.get_json() == {"doubles": False}


def test_inline_error_next_to_the_meld_keeps_everything_typed(
    client: FlaskClient, app: Flask, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, **{"players-1-melds": "K2 K3 K4\nY5 Y7 Y9"})
    answer = client.post(f"/m/{edit}/rounds/new", data=data)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    marks = near(page, 'data-name="Márk"')
    assert "Meld 2:" in marks  # next to Márk's melds, in plain words
    assert "Márk, meld 2" not in marks  # the player and meld are not said twice
    assert "K2 K3 K4\nY5 Y7 Y9</textarea>" in page
    assert "G7 G8 G9 G10\nR16 B16 Y16</textarea>" in page  # another player's entry kept
    assert 'value="R1 G13"' in page
    for card in round_doc["bonus_cards"]:
        assert re.search(rf'value="{card}" data-name="[^"]*"\s+checked', page)
    assert stored_rounds(app, edit) == []


def test_every_problem_is_shown_at_once_each_at_its_field(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(
        round_doc,
        **{"players-1-melds": "K2 K3 K4\nY5 Y7 Y9", "players-2-hand": "B5 B6 *K"},
    )
    page = client.post(f"/m/{edit}/rounds/new", data=data).get_data(as_text=True)
    assert "Meld 2:" in near(page, 'data-name="Márk"')
    lili = near(page, 'data-name="Lili"')
    assert "*K" in lili.split("Cards left in hand")[1]  # the joker, next to Lili's hand


def test_inline_error_next_to_the_hand_and_the_last_card(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, **{"players-2-hand": "B5 B6 *K"})
    page = client.post(f"/m/{edit}/rounds/new", data=data).get_data(as_text=True)
    lili = near(page, 'data-name="Lili"')
    assert "joker" in lili.split("Cards left in hand")[1]
    assert 'id="players-2-hand-error"' in page

    data = form_data(round_doc, last_discard="G8")  # G8 lies in Zsófi's meld (D17-8)
    page = client.post(f"/m/{edit}/rounds/new", data=data).get_data(as_text=True)
    assert 'id="last_discard-error"' in page
    assert "G8" in near(page, 'id="last_discard-error"', "</ul>")


@pytest.mark.parametrize(
    ("game", "change", "field", "words"),
    [
        # DK-4: only the winner's rack is empty; Márk's is, though Lili went out.
        ("rummikub", {"players-1-rack": ""}, "players-1-rack", "Lili went out"),
        # A tile that is no tile, named next to that rack.
        ("rummikub", {"players-0-rack": "K1 X9"}, "players-0-rack", "X9"),
        # DM-6: a knock needs a hand worth 5 or less; shown at who knocked.
        ("manipulation", {"players-1-hand": "KD"}, "knocked", "5 or less"),
        ("rummy-o", {"players-2-rack": "G13 G14"}, "players-2-rack", "G14"),
    ],
)
def test_problems_of_other_games_are_placed_by_their_fields(
    client: FlaskClient, game: str, change: dict[str, str], field: str, words: str
) -> None:
    edit = start(client, NAMES, game=game)
    data = form_data(copy.deepcopy(ROUNDS[game]), **change)
    answer = client.post(f"/m/{edit}/rounds/new", data=data)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert words in near(page, f'id="{field}-error"', "</ul>")
    # preview.js gets the same placement as JSON, without a page.
    del data["save"]
    preview = f"/m/{edit}/rounds/new/preview"
    answer = client.post(preview, data=data, headers={"Accept": "application/json"})
    assert answer.status_code == 422
    assert any(words in w for w in answer.get_json()["errors"][field])


def test_both_cards_and_counts_for_a_hand_is_refused(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, **{"players-1-low": "2"})
    answer = client.post(f"/m/{edit}/rounds/new", data=data)
    assert answer.status_code == 422
    assert "not both" in near(answer.get_data(as_text=True), 'data-name="Márk"')


def test_four_bonus_cards_are_refused(
    client: FlaskClient, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, bonus_cards=round_doc["bonus_cards"][:4])
    page = client.post(f"/m/{edit}/rounds/new", data=data).get_data(as_text=True)
    assert "R17-3" in near(page, 'id="bonus_cards-error"', "</ul>")


def test_server_preview_scores_without_saving(
    client: FlaskClient, app: Flask, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc)
    del data["save"]
    page = client.post(f"/m/{edit}/rounds/new/preview", data=data).get_data(as_text=True)
    page = unlinked(page)
    assert "Preview (not saved)" in page
    expected = score_document(round_doc)
    for award in expected["awards"]:  # every award's reason and rule, as the core gives it
        assert award["reason"] in page and award["rule"] in page
    assert stored_rounds(app, edit) == []


def test_each_button_of_the_round_form_posts_to_its_own_address(
    client: FlaskClient, app: Flask, edit: str, round_doc: dict[str, Any]
) -> None:
    form = client.get(f"/m/{edit}/rounds/new").get_data(as_text=True)
    assert f'id="round-form" novalidate autocomplete="off" action="/m/{edit}/rounds/new"' in form
    for button in ("preview", "draw", "parts"):
        assert f'formaction="/m/{edit}/rounds/new/{button}"' in form
    # The save address saves whatever else the post carries: no field picks another action.
    data = form_data(round_doc, preview="1", draw="1", parts="open")
    assert client.post(f"/m/{edit}/rounds/new", data=data).status_code == 302
    assert len(stored_rounds(app, edit)) == 1
    edit_form = client.get(f"/m/{edit}/rounds/1/edit").get_data(as_text=True)
    assert f'formaction="/m/{edit}/rounds/1/edit/preview"' in edit_form
    assert 'formaction="/m/' + edit + '/rounds/1/edit/parts"' not in edit_form  # no parts here
    assert client.post(f"/m/{edit}/rounds/1/edit/parts", data={}).status_code == 404
    assert client.get(f"/m/{edit}/rounds/new/preview").status_code == 405


def test_json_preview_is_the_pages_own_preview(client: FlaskClient) -> None:
    edit = start(client, NAMES, game="rummy-o")
    data = form_data(copy.deepcopy(ROUNDS["rummy-o"]))
    del data["save"]
    preview = f"/m/{edit}/rounds/new/preview"
    answer = client.post(preview, data=data, headers={"Accept": "application/json"})
    assert answer.status_code == 200
    fragment = html.unescape(answer.get_json()["preview"])
    expected = score_document(ROUNDS["rummy-o"])
    for player in expected["players"]:
        score = f"{player['score']:+d}" if player["score"] else "0"  # as on the sheet
        assert f"<strong>{score}</strong>" in fragment
    assert fragment.count('class="won"') == len(expected["winners"]) == 2  # DO-4: a tie


def test_draw_at_random_without_javascript(
    client: FlaskClient, app: Flask, edit: str, round_doc: dict[str, Any]
) -> None:
    data = form_data(round_doc, bonus_cards=[])
    del data["save"]
    page = client.post(f"/m/{edit}/rounds/new/draw", data=data).get_data(as_text=True)
    drawn = re.findall(r'name="bonus_cards" value="[^"]+" data-name="[^"]*"\s+checked', page)
    assert len(drawn) == get_game("rummy17").descriptor()["bonus_cards"]["draw"]
    assert "K2 K3 K4" in page
    assert stored_rounds(app, edit) == []


# --- Breakdowns ----------------------------------------------------------------------------


def test_breakdown_shows_every_award_figure_rule_and_reason(
    client: FlaskClient, played: str, round_doc: dict[str, Any]
) -> None:
    page = unlinked(client.get(f"/m/{played}/rounds/1").get_data(as_text=True))
    for award in score_document(round_doc)["awards"]:
        assert award["rule"] in page and award["reason"] in page
    assert "Márk dealt, Lili started" in page
    # the last card is drawn as a card, named by its colour for a screen reader.
    assert "Zsófi went out; last card B11" in re.sub(r"<[^>]+>", "", page)
    assert 'role="img" aria-label="blue 11" data-card="B11"' in page
    assert page.count("<th>Player</th>") >= 6  # the scores, then one table per award
    assert "/rounds/1/edit" in page and "/rounds/1/delete" in page


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("rummikub", ["Lili emptied their rack", "RK-21", "K1", "O12"]),
        ("rummy-o", ["Zsófi, Márk tie for the lowest rack", "DO-4", "counted: 12"]),
        ("manipulation", ["Zsófi undercut Márk", "+10 (MR-12)", "Undercut", "AH"]),
    ],
)
def test_breakdowns_explain_the_rulebooks_way(
    client: FlaskClient, game: str, words: list[str]
) -> None:
    doc = copy.deepcopy(ROUNDS[game])
    edit = start(client, NAMES, game=game)
    assert client.post(f"/m/{edit}/rounds/new", data=form_data(doc)).status_code == 302
    page = unlinked(client.get(f"/m/{edit}/rounds/1").get_data(as_text=True))
    for word in words:
        assert word in page
    for column in get_game(game).descriptor()["columns"]:
        assert f'<th class="n">{column["label"]}</th>' in page
    scores = page.split('id="scores"')[1].split("</table>")[0]
    for player in score_document(doc)["players"]:
        score = f"{player['score']:+d}" if player["score"] else "0"  # with its sign, as the sheet
        assert f"<strong>{score}</strong>" in scores


def test_a_rummikub_pool_out_tie_scores_each_as_if_alone(client: FlaskClient) -> None:
    doc = {
        "game": "rummikub",
        "went_out": None,
        "players": [
            {"name": "Zsófi", "rack": ["R3", "K2"]},
            {"name": "Márk", "rack": ["B5"]},
            {"name": "Lili", "rack": ["O10", "O11"]},
        ],
    }
    edit = start(client, NAMES, game="rummikub")
    assert client.post(f"/m/{edit}/rounds/new", data=form_data(doc)).status_code == 302
    page = html.unescape(client.get(f"/m/{edit}/rounds/1").get_data(as_text=True))
    assert "The pool ran out" in page and "DK-2" in page
    board = client.get(f"/m/{edit}").get_data(as_text=True)
    assert totals_shown(board) == [16, 16, -16]  # RK-22, DK-2
    assert board.count(' won">') == 2


# --- Editing, deleting, revisions --------------------------------------------------------------


def test_edit_round_is_prefilled_and_recorded(
    client: FlaskClient, played: str, round_doc: dict[str, Any]
) -> None:
    page = client.get(f"/m/{played}/rounds/1/edit").get_data(as_text=True)
    assert "G7 G8 G9 G10\nR16 B16 Y16</textarea>" in page
    assert 'value="R1 G13"' in page and 'value="Zsófi" checked' in page
    assert 'name="revision" type="hidden" value="2"' in page
    changed = copy.deepcopy(round_doc)
    changed["players"][2]["hand"] = ["B5"]
    answer = client.post(f"/m/{played}/rounds/1/edit", data=form_data(changed, revision="2"))
    assert answer.status_code == 302
    board = html.unescape(client.get(f"/m/{played}").get_data(as_text=True))
    # the history draws the cards as cards; their letters and values read the same.
    assert "Game 1 edited: Lili's hand: B5 B6 K17 → B5" in re.sub(r"<[^>]+>", "", board)
    assert 'aria-label="black 17" data-card="K17"' in board
    expected = match_document(
        {"game": "rummy17", "players": NAMES, "first_dealer": "Márk", "rounds": [changed]}
    )
    assert totals_shown(board) == [expected["totals"][n] for n in NAMES]


@pytest.mark.parametrize("game", ["rummikub", "manipulation"])
def test_edit_and_delete_work_for_other_games(client: FlaskClient, app: Flask, game: str) -> None:
    doc = copy.deepcopy(ROUNDS[game])
    edit = start(client, NAMES, game=game)
    client.post(f"/m/{edit}/rounds/new", data=form_data(doc))
    client.post(f"/m/{edit}/rounds/new", data=form_data(doc))
    page = client.get(f"/m/{edit}/rounds/1/edit").get_data(as_text=True)
    holding = get_game(game).holding
    assert f'value="{" ".join(doc["players"][1][holding])}"' in page
    doc["players"][1][holding] = {"points": 2}
    answer = client.post(f"/m/{edit}/rounds/1/edit", data=form_data(doc))
    assert answer.status_code == 302
    assert stored_rounds(app, edit)[0]["players"][1][holding] == {"points": 2}
    assert client.post(f"/m/{edit}/rounds/2/delete").status_code == 302
    board = html.unescape(client.get(f"/m/{edit}").get_data(as_text=True))
    assert "Round 2 deleted" in board and "Round 1 edited" in board
    assert len(stored_rounds(app, edit)) == 1


def test_delete_asks_first_then_deletes(client: FlaskClient, played: str) -> None:
    page = client.get(f"/m/{played}/rounds/1/delete").get_data(as_text=True)
    assert "Delete game 1?" in page and '<form method="post"' in page
    assert 'name="revision" type="hidden" value="2"' in page
    assert client.post(f"/m/{played}/rounds/1/delete", data={"revision": "2"}).status_code == 302
    board = client.get(f"/m/{played}").get_data(as_text=True)
    assert "Game 1 deleted" in board and "Game 1 of 3" in board
    assert client.get(f"/m/{played}/rounds/1").status_code == 404


def test_a_deleted_round_comes_back_from_the_history_with_its_number_and_dealer(
    client: FlaskClient, app: Flask, played: str, round_doc: dict[str, Any]
) -> None:
    for _ in range(2):
        assert client.post(f"/m/{played}/rounds/new", data=form_data(round_doc)).status_code == 302
    with app.app_context():
        match = store.get_by_edit_token(get_session(), played)
        dealers = [r.dealer for r in sorted(match.rounds, key=lambda r: r.number)]
    assert client.post(f"/m/{played}/rounds/2/delete").status_code == 302
    board = client.get(f"/m/{played}").get_data(as_text=True)
    undo = re.search(rf'action="(/m/{played}/history/(\d+)/undo)"', board)
    assert undo, "the deletion offers Undo in the history"
    rev = re.findall(r'name="revision" type="hidden" value="(\d+)"', board)[0]
    answer = client.post(undo.group(1), data={"revision": rev})
    assert answer.status_code == 302
    board = html.unescape(client.get(f"/m/{played}").get_data(as_text=True))
    assert "Game 2 is back." in board and "Game 2 deleted earlier is back (undone)" in board
    assert len(stored_rounds(app, played)) == 3
    with app.app_context():
        match = store.get_by_edit_token(get_session(), played)
        kept = [r.dealer for r in sorted(match.rounds, key=lambda r: r.number)]
        assert kept == dealers  # every round is back with the dealer it was played with
        assert not store.undoable(get_session(), match)  # undone once: no more Undo
    assert f"/history/{undo.group(2)}/undo" not in board
    again = client.post(undo.group(1), data={"revision": str(int(rev) + 1)})
    assert "cannot be undone any more" in html.unescape(
        client.get(again.headers["Location"]).get_data(as_text=True)
    )


def test_a_save_on_an_older_revision_changes_nothing_and_keeps_the_form(
    client: FlaskClient, app: Flask, played: str, round_doc: dict[str, Any]
) -> None:
    loaded = revision(client, f"/m/{played}/rounds/new")
    # Meanwhile someone else corrects round 1 from another phone.
    other = copy.deepcopy(round_doc)
    other["players"][2]["hand"] = ["B5"]
    client.post(f"/m/{played}/rounds/1/edit", data=form_data(other, revision=loaded))
    mine = form_data(round_doc, revision=loaded, **{"players-0-melds": "R1 R2 R3"})
    answer = client.post(f"/m/{played}/rounds/new", data=mine)
    page = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 409
    assert "Someone else changed this match" in page
    assert "Game 1 edited: Lili's hand: B5 B6 K17 → B5" in page  # what changed
    assert "R1 R2 R3</textarea>" in page  # everything typed is kept
    assert len(stored_rounds(app, played)) == 1
    now = re.search(r'name="revision" type="hidden" value="(\d+)"', page).group(1)
    assert int(now) == int(loaded) + 1  # seen now: saving again goes through
    again = form_data(round_doc, revision=now)
    assert client.post(f"/m/{played}/rounds/new", data=again).status_code in (302, 422)
    # A delete on an older revision is refused the same way.
    answer = client.post(f"/m/{played}/rounds/1/delete", data={"revision": loaded})
    assert answer.status_code == 409 and "nothing was deleted" in answer.get_data(as_text=True)
    assert client.get(f"/m/{played}/rounds/1").status_code == 200


def test_two_phones_enter_the_same_round_keep_mine_replaces_it_never_adds_another(
    client: FlaskClient, app: Flask, played: str, round_doc: dict[str, Any]
) -> None:
    page = client.get(f"/m/{played}/rounds/new").get_data(as_text=True)
    loaded = re.search(r'name="revision" type="hidden" value="(\d+)"', page).group(1)
    assert 'name="intended" type="hidden" value="2"' in page
    theirs = form_data(round_doc, revision=loaded, intended="2")
    assert client.post(f"/m/{played}/rounds/new", data=theirs).status_code == 302
    typed = copy.deepcopy(round_doc)
    typed["players"][2]["hand"] = ["B5"]
    mine = form_data(typed, revision=loaded, intended="2")
    answer = client.post(f"/m/{played}/rounds/new", data=mine)
    page = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 409
    assert "Game 2 was saved on another phone" in page
    assert "Game 2 added" in page  # what the other phone saved
    assert 'id="players-2-hand" value="B5"' in page  # what was typed, kept
    assert f'href="/m/{played}/rounds/2" target="_blank"' in page  # their round, one tap away
    assert f'action="/m/{played}/rounds/2/edit"' in page  # keeping mine replaces round 2
    assert 'id="keep-mine"' in page and 'id="keep-theirs"' in page
    assert len(stored_rounds(app, played)) == 2
    now = re.search(r'name="revision" type="hidden" value="(\d+)"', page).group(1)
    kept = client.post(f"/m/{played}/rounds/2/edit", data={**mine, "revision": now})
    assert kept.status_code == 302
    rounds = stored_rounds(app, played)
    assert len(rounds) == 2 and rounds[1]["players"][2]["hand"] == ["B5"]
    with client.session_transaction() as cookie:
        drafts = cookie["clear_draft"].split()
    assert len(drafts) == 2 and any(d.endswith(":new") for d in drafts)


def test_keep_theirs_drops_what_was_typed_and_saves_nothing(
    client: FlaskClient, app: Flask, played: str, round_doc: dict[str, Any]
) -> None:
    loaded = revision(client, f"/m/{played}/rounds/1/edit")
    other = copy.deepcopy(round_doc)
    other["players"][2]["hand"] = ["B5"]
    client.post(f"/m/{played}/rounds/1/edit", data=form_data(other, revision=loaded))
    mine = form_data(round_doc, revision=loaded, **{"players-0-melds": "R1 R2 R3"})
    answer = client.post(f"/m/{played}/rounds/1/edit", data=mine)
    assert answer.status_code == 409
    assert "Keep theirs" in answer.get_data(as_text=True)
    dropped = client.post(f"/m/{played}/rounds/1/edit/theirs", data=mine)
    assert dropped.status_code == 302 and dropped.headers["Location"] == f"/m/{played}"
    board = html.unescape(client.get(f"/m/{played}").get_data(as_text=True))
    assert "Kept what the other phone saved" in board
    assert stored_rounds(app, played)[0]["players"][2]["hand"] == ["B5"]


def test_the_read_only_view_answers_304_until_the_match_changes(
    client: FlaskClient, played: str, round_doc: dict[str, Any]
) -> None:
    view = view_token(client, played)
    first = client.get(f"/v/{view}")
    tag = first.headers["ETag"]
    page = first.get_data(as_text=True)
    assert f"data-etag='{tag}'" in page and re.search(r"/js/live\.(\w+\.)?js", page)
    assert '<svg viewBox="0 0' in page  # the QR code of the read-only link, on screen
    assert first.headers["Cache-Control"] == "no-cache"
    same = client.get(f"/v/{view}", headers={"If-None-Match": tag})
    assert same.status_code == 304 and same.get_data() == b""
    client.post(f"/m/{played}/rounds/new", data=form_data(round_doc))
    changed = client.get(f"/v/{view}", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert "Game 2 added" in changed.get_data(as_text=True)
    other = client.get(f"/v/{view}?lang=hu", headers={"If-None-Match": changed.headers["ETag"]})
    assert other.status_code == 200  # another language is another page


# --- The series' length ------------------------------------------------------------------------


def test_finished_match_takes_no_new_round_but_one_more_or_a_rematch(
    client: FlaskClient, app: Flask, round_doc: dict[str, Any]
) -> None:
    edit = start(client, NAMES, games="1", first=1)
    client.post(f"/m/{edit}/rounds/new", data=form_data(round_doc))
    answer = client.get(f"/m/{edit}/rounds/new", follow_redirects=True)
    page = answer.get_data(as_text=True)
    assert "no further game can be entered" in page
    assert "The match is over." in page and "/rounds/new" not in page
    assert 'id="one-more"' in page and 'id="rematch"' in page
    # A further round is bad input, even posted directly (D17-7).
    answer = client.post(f"/m/{edit}/rounds/new", data=form_data(round_doc))
    assert answer.status_code == 302 and len(stored_rounds(app, edit)) == 1
    # One more round: the series grows by one, and the next round is entered.
    loaded = re.search(r'name="revision" type="hidden" value="(\d+)"', page).group(1)
    answer = client.post(f"/m/{edit}/lengthen", data={"revision": loaded})
    assert answer.headers["Location"] == f"/m/{edit}/rounds/new"
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "Game 2 of 2: Lili deals, Zsófi starts." in page
    assert "Match lengthened from 1 to 2 games" in page
    stale = client.post(f"/m/{edit}/lengthen", data={"revision": loaded})
    assert stale.status_code == 409 and "nothing was saved" in stale.get_data(as_text=True)
    # Rematch: same game and seats, the next player deals first, a match of its own.
    answer = client.post(f"/m/{edit}/rematch", data={"revision": loaded})
    again = answer.headers["Location"].rsplit("/", 1)[1]
    assert again != edit
    page = client.get(f"/m/{again}").get_data(as_text=True)
    assert "Game 1 of 2: Lili deals, Zsófi starts." in page
    assert f"/m/{again}" in client.get("/").get_data(as_text=True)


def test_manipulation_ends_at_150_with_end_bonuses_on_the_scoreboard(
    client: FlaskClient,
) -> None:
    edit = start(client, NAMES, game="manipulation")
    big = {
        "game": "manipulation",
        "knocked": None,
        "went_out": "Lili",
        "players": [
            {"name": "Zsófi", "hand": {"points": 60}},
            {"name": "Márk", "hand": {"points": 50}},
            {"name": "Lili", "hand": []},
        ],
    }
    rounds = [copy.deepcopy(ROUNDS["manipulation"]), big, big]
    for doc in rounds:
        assert client.post(f"/m/{edit}/rounds/new", data=form_data(doc)).status_code == 302
    page = html.unescape(client.get(f"/m/{edit}").get_data(as_text=True))
    expected = match_document(
        {"game": "manipulation", "players": NAMES, "first_dealer": "Zsófi", "rounds": rounds}
    )
    assert expected["finished"] and expected["end_bonus"]
    assert totals_shown(page) == [expected["totals"][n] for n in NAMES]
    cells = re.findall(r'data-bonus="\d+">([^<]+)</td>', page)
    assert cells == [
        f"+{expected['end_bonus'][n]}" if expected["end_bonus"][n] else "0" for n in NAMES
    ]
    assert "The match is over." in page and "MR-16" in page
    assert 'id="rematch"' in page and 'id="one-more"' not in page  # MR-16: no more rounds


# --- Links and the read-only view ----------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/m/{bad}",
        "/v/{bad}",
        "/m/{bad}/rounds/new",
        "/m/{bad}/rounds/1",
        "/v/{bad}/rounds/1",
        "/m/{bad}/rounds/1/edit",
        "/m/{bad}/rounds/1/delete",
        "/m/{edit}/rounds/7",
        "/m/{edit}/rounds/7/edit",
        "/m/{edit}/rounds/7/delete",
        "/v/{view}/rounds/7",
        "/v/{edit}",  # an edit token is not a read-only token
        "/m/{view}",  # and the read-only token never opens the edit pages
    ],
)
def test_wrong_links_are_404(client: FlaskClient, played: str, path: str) -> None:
    view = view_token(client, played)
    bad = played[:-1] + ("A" if played[-1] != "A" else "B")
    url = path.format(bad=bad, edit=played, view=view)
    answer = client.get(url)
    assert answer.status_code == 404
    assert "Not found" in answer.get_data(as_text=True)


def test_read_only_view_changes_nothing(client: FlaskClient, played: str) -> None:
    view = view_token(client, played)
    for path in (f"/v/{view}", f"/v/{view}/rounds/1"):
        answer = client.get(path)
        page = answer.get_data(as_text=True)
        assert answer.status_code == 200
        assert "<form" not in page and '<button type="submit"' not in page
        assert played not in page  # the edit token never appears
        assert "/m/" not in page
        assert client.post(path, data={}).status_code in (404, 405)
    page = client.get(f"/v/{view}").get_data(as_text=True)
    assert f"/v/{view}/sheet.pdf" in page and f"/v/{view}.json" in page
    for link in (f"/v/{view}/sheet.pdf", f"/v/{view}.json"):  # the links lead somewhere
        assert client.get(link).status_code == 200
    assert "Read-only" in page
    for path in ("/rounds/new", "/rounds/1/edit", "/rounds/1/delete", "/lengthen", "/rematch"):
        assert client.post(f"/v/{view}{path}", data={}).status_code in (404, 405)


def test_names_are_escaped(client: FlaskClient) -> None:
    edit = start(client, ["<b>Bold</b>", "Anna"])
    page = client.get(f"/m/{edit}").get_data(as_text=True)
    assert "<b>Bold</b>" not in page and "&lt;b&gt;Bold&lt;/b&gt;" in page


@pytest.mark.parametrize("game", GAME_IDS)
def test_pages_use_no_inline_script_or_style(client: FlaskClient, game: str) -> None:
    edit = start(client, NAMES, game=game)
    client.post(f"/m/{edit}/rounds/new", data=form_data(copy.deepcopy(ROUNDS[game])))
    view = view_token(client, edit)
    for path in (
        "/",
        f"/start/{game}",
        f"/m/{edit}",
        f"/m/{edit}/rounds/new",
        f"/m/{edit}/rounds/1",
        f"/m/{edit}/rounds/1/edit",
        f"/m/{edit}/rounds/1/delete",
        f"/v/{view}",
        f"/v/{view}/rounds/1",
    ):
        answer = client.get(path)
        assert answer.status_code == 200, path
        page = answer.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), path
        assert " style=" not in page and "<style" not in page, path
        assert not re.search(r"\son[a-z]+=", page), path
        assert "http://" not in page.replace("http://localhost/", ""), path


def test_no_page_code_asks_which_game_it_is() -> None:
    """Game ids appear only in the rules core and under templates/games/<id>/ (the seam)."""
    shells = [
        *ROOT.joinpath("companion", "web").glob("*.py"),
        ROOT / "companion" / "web" / "pages" / "forms.py",
        ROOT / "companion" / "web" / "pages" / "tools.py",
        *ROOT.joinpath("templates").glob("*.html"),
        *ROOT.joinpath("templates", "games").glob("*.html"),
        *ROOT.joinpath("static").rglob("*.js"),
    ]
    found = [
        f"{path.relative_to(ROOT)}: {game}"
        for path in shells
        for game in GAME_IDS
        if re.search(rf"(?<![\w-]){re.escape(game)}(?![\w-])", path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_csrf_is_required_on_every_form(csrf_app: Flask, round_doc: dict[str, Any]) -> None:
    client = csrf_app.test_client()
    data = {"names-0": "Anna", "names-1": "Béla", "first": "0"}
    assert client.post("/start/rummy17", data=data).status_code == 400
    home = client.get("/start/rummy17").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', home).group(1)
    names = {f"names-{i}": n for i, n in enumerate(NAMES)}
    answer = client.post("/start/rummy17", data=names | {"first": "0", "csrf_token": token})
    assert answer.status_code == 302
    edit = answer.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/m/{edit}/rounds/new", data=form_data(round_doc)).status_code == 400
    answer = client.post(f"/m/{edit}/rounds/new", data=form_data(round_doc, csrf_token=token))
    assert answer.status_code == 302
    assert client.post(f"/m/{edit}/rounds/1/edit", data=form_data(round_doc)).status_code == 400
    assert client.post(f"/m/{edit}/rounds/1/delete").status_code == 400
    assert client.post(f"/m/{edit}/lengthen").status_code == 400
    assert client.post(f"/m/{edit}/rematch").status_code == 400
    assert client.get(f"/m/{edit}/rounds/1").status_code == 200  # still there
    # The JSON API is exempt: it takes no cookies, so fetch needs no token.
    assert client.post("/api/v1/score", json=round_doc).status_code == 200
