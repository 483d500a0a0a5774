"""Every table reads the words of its own box: Rummy 17 calls a deal a *game*
(hu *játék*, de *Spiel*, bg *игра*) on the scoreboard, round form, breakdown, history and
sheet, through the message context ``rummy17``; the tile games keep *round*."""

from __future__ import annotations

import html
import io
import json
import re

import flask_babel
import pytest
from pypdf import PdfReader
from support import load
from test_pages import NAMES, ROUNDS, form_data, revision, start

from companion.domain import EntryError, match_document
from companion.domain.messages import IN_CONTEXT, say
from companion.i18n.catalogues import translator

GAME_WORD = {"hu": "1. játék", "de": "Spiel 1", "bg": "Игра 1"}
ROUND_WORD = {"hu": "1. forduló", "de": "Runde 1", "bg": "Рунд 1"}


def played(client, game: str) -> str:
    edit = start(client, NAMES, first=1, game=game)
    answer = client.post(f"/m/{edit}/rounds/new", data=form_data(ROUNDS[game]))
    assert answer.status_code == 302, answer.get_data(as_text=True)[:500]
    return edit


@pytest.mark.parametrize("lang", ["hu", "de", "bg"])
def test_rummy17_says_game_where_rummikub_says_round(client, lang: str) -> None:
    r17 = played(client, "rummy17")
    rk = played(client, "rummikub")
    breakdown = html.unescape(client.get(f"/m/{r17}/rounds/1?lang={lang}").get_data(as_text=True))
    assert GAME_WORD[lang] in breakdown and ROUND_WORD[lang] not in breakdown
    other = html.unescape(client.get(f"/m/{rk}/rounds/1?lang={lang}").get_data(as_text=True))
    assert ROUND_WORD[lang] in other and GAME_WORD[lang] not in other
    board = html.unescape(client.get(f"/m/{r17}?lang={lang}").get_data(as_text=True))
    assert {"hu": "1. játék hozzáadva", "de": "Spiel 1 hinzugefügt", "bg": "Игра 1 е добавена"}[
        lang
    ] in board
    form = html.unescape(client.get(f"/m/{r17}/rounds/new?lang={lang}").get_data(as_text=True))
    assert {"hu": "2. játék", "de": "Spiel 2", "bg": "Игра 2"}[lang] in form


def test_the_rummy17_sheet_says_game_in_hungarian(client) -> None:
    edit = played(client, "rummy17")
    pdf = client.get(f"/m/{edit}/sheet.pdf?lang=hu").data
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Játék" in text


def test_every_round_text_of_rummy17_has_its_own_translation() -> None:
    # A deal is a game in Rummy 17 and a round elsewhere: the words differ in every language,
    # English included. (Set and run may share a word between editions: German Folge,
    # Bulgarian група, English set and run.)
    for lang in ("en", "hu", "de", "bg"):
        tr = translator(lang)
        for context, text in IN_CONTEXT:
            if "round" not in text.lower():
                continue
            own = say(tr, context, text)
            assert own != tr.gettext(text), (lang, context, text)


def test_english_says_game_for_rummy17_and_round_for_the_others() -> None:
    english = translator("en")
    assert say(english, "rummy17", "Round %(n)s") == "Game %(n)s"
    assert say(english, "rummikub", "Round %(n)s") == "Round %(n)s"
    assert say(english, None, "Round %(n)s") == "Round %(n)s"
    assert english.gettext("Round %(n)s") == "Round %(n)s"  # only the contexts are English's
    assert load("rummy17-round.json")["game"] == "rummy17"


def test_flask_babel_reads_the_english_catalogue_too(app) -> None:
    with app.test_request_context("/?lang=en"):
        assert flask_babel.pgettext("rummy17", "Round") == "Game"
        assert flask_babel.npgettext("rummy17", "%(num)d round", "%(num)d rounds", 3) == "3 games"
        assert flask_babel.gettext("Round") == "Round"


#: What a Rummy 17 match of 3 games shows after its first game, language by language: the flash
#: After saving, the scoreboard's next line and button, the history's first two entries, the
#: home page's progress. Then the same for a Rummikub match of 3 rounds.
RUMMY17 = {
    "en": ["Game 1 saved.", "Game 2 of 3: Lili deals, Zsófi starts.", "Enter game 2",
           "; 3 games", "Game 1 added", "1 of 3 games"],
    "hu": ["1. játék mentve.", "2. játék (összesen 3): Lili oszt, Zsófi kezd.", "2. játék beírása",
           "; 3 játék", "1. játék hozzáadva", "1 / 3 játék"],
    "de": ["Spiel 1 gespeichert.", "Spiel 2 von 3: Lili gibt, Zsófi beginnt.", "Spiel 2 eintragen",
           "; 3 Spiele", "Spiel 1 hinzugefügt", "1 von 3 Spielen"],
    "bg": ["Игра 1 е запазена.", "Игра 2 от 3: Lili раздава, Zsófi започва.", "Въведи игра 2",
           "; 3 игри", "Игра 1 е добавена", "1 от 3 игри"],
}  # fmt: skip
RUMMIKUB = {
    "en": ["Round 1 saved.", "Round 2 of 3: Lili starts.", "Enter round 2", "; 3 rounds",
           "Round 1 added", "1 of 3 rounds"],
    "hu": ["1. forduló mentve.", "2. forduló (összesen 3): Lili kezd.", "2. forduló beírása",
           "; 3 forduló", "1. forduló hozzáadva", "1 / 3 forduló"],
    "de": ["Runde 1 gespeichert.", "Runde 2 von 3: Lili beginnt.", "Runde 2 eintragen",
           "; 3 Runden", "Runde 1 hinzugefügt", "1 von 3 Runden"],
    "bg": ["Рунд 1 е запазен.", "Рунд 2 от 3: Lili започва.", "Въведи рунд 2", "; 3 рунда",
           "Рунд 1 е добавен", "1 от 3 рунда"],
}  # fmt: skip
#: The other game's word, which the page must not show.
NOT = {
    "rummy17": {"en": "Round 1", "hu": "forduló", "de": "Runde", "bg": "рунд"},
    "rummikub": {"en": "Game 1", "hu": "játék", "de": "Spiel 1", "bg": "игра"},
}


@pytest.mark.parametrize("lang", ["en", "hu", "de", "bg"])
@pytest.mark.parametrize(("game", "expected"), [("rummy17", RUMMY17), ("rummikub", RUMMIKUB)])
def test_each_game_says_its_own_word_after_a_save(client, game: str, expected, lang: str):
    edit = start(client, NAMES, first=1, games="3", game=game)
    saved = client.post(
        f"/m/{edit}/rounds/new?lang={lang}", data=form_data(ROUNDS[game]), follow_redirects=True
    )
    board = html.unescape(saved.get_data(as_text=True))
    flash, upcoming, button, started, added, progress = expected[lang]
    assert f'<p class="flash" role="status">{flash}</p>' in board
    assert upcoming in board and button in board
    history = board[board.index('id="history"') :]
    assert started in history and added in history
    assert NOT[game][lang] not in history
    home = html.unescape(client.get(f"/?lang={lang}").get_data(as_text=True))
    assert progress in home


@pytest.mark.parametrize("lang", ["en", "hu", "de", "bg"])
def test_rummy17_deletes_undoes_and_lengthens_in_its_own_word(client, lang: str) -> None:
    edit = start(client, NAMES, first=1, games="1")
    assert (
        client.post(f"/m/{edit}/rounds/new", data=form_data(ROUNDS["rummy17"])).status_code == 302
    )
    words = {
        "en": ("Delete game 1", "The game's entries are removed", "Game 1 deleted.",
               "Game 1 is back.", "One more game: the match now has 2 games."),
        "hu": ("1. játék törlése", "A játék bejegyzései törlődnek", "1. játék törölve.",
               "A törölt 1. játék visszakerült.",
               "Még egy játék: a mérkőzés most már 2 játékból áll."),
        "de": ("Spiel 1 löschen", "Die Einträge des Spiels werden entfernt",
               "Spiel 1 gelöscht.", "Spiel 1 ist wieder da.",
               "Noch ein Spiel: Die Serie hat jetzt 2 Spiele."),
        "bg": ("Изтрий игра 1", "Записите за играта се премахват", "Игра 1 е изтрита.",
               "Игра 1 е върната.", "Още една игра: серията вече е от 2 игри."),
    }[lang]  # fmt: skip
    asking = html.unescape(client.get(f"/m/{edit}/rounds/1/delete?lang={lang}").get_data(True))
    assert words[0] in asking and words[1] in asking
    confirm = {"revision": revision(client, f"/m/{edit}/rounds/1/delete")}
    deleted = client.post(f"/m/{edit}/rounds/1/delete", data=confirm, follow_redirects=True)
    board = html.unescape(deleted.get_data(as_text=True))
    assert words[2] in board
    change = re.search(r"/history/(\d+)/undo", board).group(1)
    confirm = {"revision": revision(client, f"/m/{edit}")}
    undone = client.post(f"/m/{edit}/history/{change}/undo", data=confirm, follow_redirects=True)
    assert words[3] in html.unescape(undone.get_data(as_text=True))
    confirm = {"revision": revision(client, f"/m/{edit}")}
    longer = client.post(f"/m/{edit}/lengthen", data=confirm, follow_redirects=True)
    assert words[4] in html.unescape(longer.get_data(as_text=True))


def test_a_problem_in_a_rummy17_match_says_where_in_its_word() -> None:
    doc = load("rummy17-match.json")
    doc["rounds"][1]["bonus_cards"] = doc["rounds"][1]["bonus_cards"][:4]
    with pytest.raises(EntryError) as caught:
        match_document(doc)
    problem = caught.value.first
    assert problem.message().startswith("round 2: ")  # the rules core's plain English
    said = {lang: problem.message(translator(lang)) for lang in ("en", "hu", "de", "bg")}
    assert said["en"].startswith("game 2: ") and said["hu"].startswith("2. játék: ")
    assert said["de"].startswith("Spiel 2: ") and said["bg"].startswith("Игра 2: ")
    assert "context" not in problem.to_json(translator("en"))  # not a place: the JSON is as it was


#: Each box's own word for its pieces on the referee's turn page (the hand's label
#: and the picker's name): tiles in Rummikub, cards in Rummy 17.
PIECES = {
    "en": (("The player's tiles before", 'aria-label="Tile picker"'),
           ("The player's cards before", 'aria-label="Card picker"')),
    "hu": (("A játékos játéklapjai a lépés előtt", 'aria-label="Játéklapválasztó"'),
           ("A játékos lapjai a lépés előtt", 'aria-label="Lapválasztó"')),
    "de": (("Steine des Spielers vor dem Zug", 'aria-label="Steinauswahl"'),
           ("Handkarten des Spielers vor dem Zug", 'aria-label="Kartenauswahl"')),
    "bg": (("Плочките на играча преди хода", 'aria-label="Избор на плочки"'),
           ("Картите на играча преди хода", 'aria-label="Избор на карти"')),
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "hu", "de", "bg"])
def test_the_turn_page_says_tiles_in_rummikub_and_cards_in_rummy17(client, lang: str) -> None:
    tiles, cards = PIECES[lang]
    rummikub = html.unescape(client.get(f"/referee/turn?game=rummikub&lang={lang}").get_data(True))
    rummy17 = html.unescape(client.get(f"/referee/turn?game=rummy17&lang={lang}").get_data(True))
    assert all(t in rummikub for t in tiles) and not any(c in rummikub for c in cards)
    assert all(c in rummy17 for c in cards) and not any(t in rummy17 for t in tiles)
    if lang == "de":
        assert "Karten oder Steine" not in rummikub + rummy17
    if lang == "bg":  # Undo beside Cancel: two words, not two ways of saying cancel
        assert ">Върни</button>" in rummikub and ">Отказ</button>" in rummikub
        assert "Отмени" not in rummikub


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The red joker would stand for R5"),
        ("hu", "A piros joker R5 lenne"),
        ("de", "Der rote Joker stünde für R5"),
        ("bg", "Червеният жокер би заместил R5"),
    ],
)
def test_the_referee_names_a_coloured_joker_by_the_languages_grammar(
    client, lang: str, said: str
) -> None:
    query = {
        "asked": "1", "game": "rummy17", "players": "Lili, Anna", "player": "Lili",
        "opened": "1", "before-0": "G1 G2 G3", "after-0": "G1 G2 G3\nR5 B5 *R",
        "hand": "R5 B5 Y9", "lang": lang,
    }  # fmt: skip
    page = html.unescape(client.get("/referee/turn", query_string=query).get_data(as_text=True))
    assert said in page
    assert "Joker (" not in page and "жокерът (" not in page


def test_a_woman_who_emptied_her_rack_has_no_masculine_possessive(client) -> None:
    edit = played(client, "rummikub")  # Lili went out (tests/data/rummikub-round.json)
    page = html.unescape(client.get(f"/m/{edit}/rounds/1?lang=de").get_data(as_text=True))
    assert "Lili hat alle Steine abgelegt und gewinnt die Runde (" in page  # (RK-20), linked
    assert "Wer hat alle Steine abgelegt?" in page and "seinen" not in page


@pytest.mark.parametrize(
    ("lang", "game_word", "round_word"),
    [
        ("en", "Games per table", "Rounds per table"),
        ("hu", "Játékok száma asztalonként", "Fordulók száma asztalonként"),
        ("de", "Spiele pro Tisch", "Runden pro Tisch"),
        ("bg", "Игри на маса", "Рундове на маса"),
    ],
)
def test_a_page_where_the_game_is_chosen_says_the_chosen_games_word(
    client, lang: str, game_word: str, round_word: str
) -> None:
    # The new event's and the blank sheet's forms: the chosen game's word, and every game's
    # for game-words.js to show when another game is chosen.
    new = html.unescape(client.get(f"/events/new?game=rummy17&lang={lang}").get_data(True))
    label = re.search(r'<label for="rounds"><span data-game-words=\'([^\']*)\'>([^<]*)<', new)
    assert label and label.group(2) == game_word
    words = json.loads(label.group(1))
    assert words["rummy17"] == game_word and words["rummikub"] == round_word
    other = html.unescape(client.get(f"/events/new?game=rummikub&lang={lang}").get_data(True))
    assert f">{round_word}<" in other
    blank = html.unescape(client.get(f"/sheets/blank?lang={lang}").get_data(True))  # Rummy 17
    assert f">{gw_rounds(lang)}<" in blank and "data-game-words" in blank


def gw_rounds(lang: str) -> str:
    return say(translator(lang), "rummy17", "Rounds")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "the match has 2 games, more than the 1 it was set to"),
        ("hu", "a mérkőzés 1 játékra volt beállítva, de 2 játéka van"),
        ("de", "die Serie ist auf eine Spielzahl von 1 angelegt, hat aber 2 Spiele"),
        ("bg", "броят игри в серията е определен на 1, а вече има 2"),
    ],
)
def test_the_api_says_game_to_rummy17(client, lang: str, said: str) -> None:
    doc = load("rummy17-match.json")  # two games
    doc["games"] = 1
    answer = client.post("/api/v1/match", json=doc, headers={"Accept-Language": lang})
    assert answer.status_code == 422
    assert answer.json["error"]["message"].startswith(said)
    assert answer.json["error"]["code"] == "series-too-long"


@pytest.mark.parametrize("lang", ["hu", "de", "bg"])
def test_local_pages_name_the_readme_section_in_their_language(client, lang: str) -> None:
    page = client.get(f"/?lang={lang}").get_data(as_text=True)
    assert "docs/server.md" in page and "Playing over HTTPS" not in page
    offline = html.unescape(client.get(f"/offline?lang={lang}").get_data(as_text=True))
    assert not re.search({"hu": "forduló", "de": "Runde", "bg": "[Рр]унд"}[lang], offline)
