"""Words a native reader graded (docs/glossary.md): Bulgarian counts with the counted form and
starts an error with a capital letter where German and Hungarian do; German hints speak as the
other hints do; the phrasings the readers struck out stay out of the catalogues and the rule
references."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import companion
from companion.domain.messages import IN_CONTEXT, MESSAGES, N_, PLAYER_FIELDS, TABLE_FIELDS, render
from companion.i18n.catalogues import translator

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "companion" / "i18n" / "reference"


def _catalogue(lang: str) -> Catalog:
    with (ROOT / "companion" / "i18n" / "translations" / lang / "LC_MESSAGES" / "messages.po").open(
        "rb"
    ) as f:
        return read_po(f, locale=lang)


def _texts(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


# --- After a number, a masculine noun takes the counted form ---------------------------------

NUMBER = r"(?:\d+|\{\w+\}|%\(\w+\)[sd])"
#: Masculine nouns and their counted forms: "от 2 до 4 играча" (rummy-o-bg.txt l.13).
COUNTED = {
    "играчи": "играча",
    "участници": "участника",
    "рундове": "рунда",
    "жокери": "жокера",
    "ходове": "хода",
    "листове": "листа",
    "чифтове": "чифта",
}
AFTER_A_NUMBER = re.compile(
    rf"{NUMBER}(?:\s*(?:–|-|до|или|,)\s*{NUMBER})*\s+({'|'.join(COUNTED)})\b"
)


def test_after_a_number_bulgarian_counts_with_the_counted_form() -> None:
    wrong = []
    for message in _catalogue("bg"):
        for text in _texts(message.string) if message.id else ():
            wrong += [(text, found.group(0)) for found in AFTER_A_NUMBER.finditer(text or "")]
    for page in sorted((REFERENCE / "bg").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        wrong += [(page.name, found.group(0)) for found in AFTER_A_NUMBER.finditer(text)]
    assert wrong == []


def test_the_counted_form_reads_as_the_box_writes_it() -> None:
    import companion.domain.documents  # noqa: F401  (registers the documents' codes)

    bg = translator("bg")
    said = bg.gettext("%(game)s is for %(low)s to %(high)s players.") % {
        "game": "Deluxe Rummy-O",
        "low": 2,
        "high": 4,
    }
    assert said == "Deluxe Rummy-O се играе от 2 до 4 играча."
    assert render("too-many-players", {"max": 6}, bg) == "на една маса има най-много 6 играча"


# --- An error starts with a capital letter where German and Hungarian do -----------------------


def _all_messages() -> None:
    """Every module's codes registered (the rules', the store's, the events', the shells')."""
    for found in pkgutil.walk_packages(companion.__path__, "companion."):
        if not found.name.endswith("__main__") and ".migrations" not in found.name:
            importlib.import_module(found.name)


#: The texts that begin an error: every problem's words, and the places a message starts with.
PLACES = [
    N_("round {round}: "),
    N_("{player}, meld {meld}: "),
    N_("session {session}, table {table}: "),
    N_("session {session}: "),
    *PLAYER_FIELDS.values(),
    *TABLE_FIELDS.values(),
]
#: Codes whose words are no error: explanations, the history's changes, fixes, card names.
NOT_ERRORS = ("award-", "change-", "fix-", "card-name", "joker-name")
NAMES = {"player", "owner", "name", "current", "winner", "winners", "dealer", "knocker"}


def _sample(text: str) -> str:
    """The text as a player reads it: a name for a name, a number for a number."""

    def value(found: re.Match[str]) -> str:
        name = found.group(1)
        if name in NAMES or name == "game_name":
            return "Лили" if name in NAMES else "Rummy 17"
        return "x" if name in ("field", "key", "path") else "2"

    text = re.sub(r"\{(\w+)(?:![rs])?\}(?:\[[\w-]+\])?", value, text)
    return re.sub(r"%\((\w+)\)[sd]", value, text)


def _starts_big(text: str) -> bool:
    first = _sample(text)[:1]
    return first.isupper() or first.isdigit()


def _errors() -> list[tuple[str | None, str]]:
    _all_messages()
    texts: list[str] = list(PLACES)
    for code, text in MESSAGES.items():
        if not code.startswith(NOT_ERRORS):
            texts += [text] if isinstance(text, str) else [text[0], text[1]]
    out: list[tuple[str | None, str]] = []
    for text in dict.fromkeys(texts):
        out.append((None, text))
        out += [(context, text) for context, said in IN_CONTEXT if said == text]
    return out


def test_a_bulgarian_error_starts_with_a_capital_letter_where_german_and_hungarian_do() -> None:
    catalogues = {lang: _catalogue(lang) for lang in ("hu", "de", "bg")}
    errors = _errors()
    assert len(errors) > 300
    small = []
    for context, text in errors:
        found = {lang: c.get(text, context) for lang, c in catalogues.items()}
        if any(m is None for m in found.values()):  # the plural form of a plural text
            continue
        for n, bulgarian in enumerate(_texts(found["bg"].string)):
            german = _texts(found["de"].string)[min(n, len(_texts(found["de"].string)) - 1)]
            hungarian = _texts(found["hu"].string)[min(n, len(_texts(found["hu"].string)) - 1)]
            if _starts_big(german) and _starts_big(hungarian) and not _starts_big(bulgarian):
                small.append((context, bulgarian))
    assert small == []


def test_an_error_placed_in_a_round_starts_with_a_capital_in_bulgarian() -> None:
    from companion.domain import EntryError

    def said(context: str | None) -> str:
        err = EntryError("turn17-joker-in-hand", rule="R17-13")
        err.at(round=2, player="Лили", field="hand", context=context)
        return err.problems[0].message(translator("bg"))

    assert said(None).startswith("Рунд 2: Ръката на Лили: "), said(None)
    assert said("rummy17").startswith("Игра 2: Ръката на Лили: ")


# --- German hints speak as the others do --------------------------------------------------------


@pytest.mark.parametrize("rank", ["K", "Q", "J", "A", "7"])
def test_german_hints_name_a_rank_without_an_article_and_never_say_du(rank: str) -> None:
    german = translator("de")
    fix = render("fix-turn-joker-renamed-rank", {"rank": rank}, german)
    assert fix == f"Den Joker wieder für {rank} stehen lassen oder {rank} an seine Stelle legen."
    error = render("turn-joker-renamed-rank", {"rank": rank}, german)
    assert f"eine {rank}" not in error and f"keine {rank}" not in error
    assert error.startswith(f"ein Joker hat vor dem Zug in einer Gruppe für {rank} gestanden")


def test_no_german_hint_speaks_to_the_player_as_du() -> None:
    _all_messages()
    german = translator("de")
    imperatives = re.compile(r"^(Lass|Nimm|Lege|Leg|Verwende|Setze|Setz|Gib|Tausche|Nehm)\b")
    spoken = [german.gettext(t if isinstance(t, str) else t[0]) for c, t in MESSAGES.items()]
    fixes = [s for (c, _), s in zip(MESSAGES.items(), spoken, strict=True) if c.startswith("fix-")]
    assert len(fixes) > 20
    assert [f for f in fixes if imperatives.match(f)] == []


def test_german_errors_tell_what_happened_in_the_perfect() -> None:
    # Spoken German: "hat … verlassen", "hat … eingenommen", not "verließ … nahm nicht … ein".
    _all_messages()
    german = _catalogue("de")
    narrative = re.compile(r"\b(verließ|nahm|kam|endete|erreichte|stimmte|lag)\b")
    wrong = []
    for code, text in MESSAGES.items():
        for said in (text,) if isinstance(text, str) else text[:2]:
            found = german.get(said)
            for translated in _texts(found.string) if found is not None else ():
                wrong += [(code, translated)] if narrative.search(translated) else []
    assert wrong == []
    said = render(
        "turn17-swap-card-missing",
        {"colour": "red", "owner": "Lili", "number": 2, "stand": "R5"},
        translator("de"),
    )
    assert said.startswith("der rote Joker hat Kombination 2 von Lili verlassen, und R5 hat ")


# --- The phrasings the native readers struck out ------------------------------------------------

STRUCK_OUT = [
    ("bg", "броят като обект", "the counted points: преброените точки"),
    ("bg", "по един на играч", "agrees with игри and рунда: колкото са играчите"),
    ("bg", "никога за група", "D17-10: никога в група"),
    ("bg", "въвеждам всичко", "the button speaks to the scorekeeper: въведи"),
    ("bg", "Позиция", "a seat is a place: Място %(n)d"),
    ("bg", "в същия ред на сядане", "по същия ред на местата"),
    ("bg", "пази картата си", "it keeps standing for the same card: продължава да замества"),
    ("bg", "запазва картата си", "it keeps standing for the same card: продължава да замества"),
    ("hu", "kiváltott", "one word for a freed joker, the box's: kiszabadított"),
    ("hu", "felszabadult", "one word for a freed joker, the box's: kiszabadított"),
    ("hu", "megtartja a lapját", "ugyanazt a lapot helyettesíti tovább"),
    ("de", "für eine {rank}", "eine K: the rank alone"),
    ("de", "sobald die Verbindung zurück ist", "one phrase on every page: wieder steht"),
    ("de", "Runden pro Tisch müssen", "die Zahl der Runden pro Tisch muss"),
]


@pytest.mark.parametrize(
    ("lang", "phrase", "why"), STRUCK_OUT, ids=[f"{s[0]}-{n}" for n, s in enumerate(STRUCK_OUT)]
)
def test_a_struck_out_phrasing_stays_out(lang: str, phrase: str, why: str) -> None:
    found = [
        text
        for message in _catalogue(lang)
        if message.id
        for text in _texts(message.string)
        if phrase in (text or "")
    ]
    found += [p.name for p in (REFERENCE / lang).glob("*.md") if phrase in p.read_text("utf-8")]
    assert found == [], why
