"""Every problem and explanation the rules core can report, by code, in English.

One function, ``render``, turns a code and its parameters into words; the shells pass a
``Translator`` (Flask-Babel's, or a gettext catalogue on the command line) to have the same
sentence in the table's language. The English texts are the message ids: ``N_`` marks them
for ``pybabel extract`` without importing any translation library here.

A text is either one sentence, or ``(singular, plural, count)`` where ``count`` names the
parameter that chooses the plural form.

Parameters are plain JSON values, so a problem can travel to a shell and be rendered there:
a list reads ``A, B and C`` (``A, B or C`` for the parameters in ``ALTERNATIVES``; a list of
lists ``A and B or C and D``), an object ``R red, B blue`` (key, then value), and the values
of the parameters in ``TERMS`` are words of the game, translated too.

A word of the game is put into the sentence in the form the language needs there (
"der rote Joker", "червеният жокер", not "der Joker (rot)"). The parameter stays the English
word (``"red"``); a translation asks for a form by a tag in square brackets right after the
placeholder, ``{colour}[e]``, and the language's catalogue lists the forms of each word in the
message context ``forms`` (``F_``): German ``"rot; e=rote; en=roten; er=roter"``, Bulgarian
``"червен; m-def=червеният; …"``. Without a tag, or for a tag a word does not list, the word
reads as translated. The tag stays outside the braces so that the placeholder is the message
id's own, ``{colour}``: gettext's ``msgfmt -c`` and Weblate check every placeholder of a
translation against the id's, and a ``{colour:e}`` is another placeholder to them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol


class Translator(Protocol):
    """What ``render`` needs of a translation catalogue (gettext's calls, with contexts)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


ENGLISH: Translator = _English()


def N_(text: str) -> str:
    """Mark a text for extraction; it is translated when rendered."""
    return text


#: The message context of the words' forms tables (``F_``, ``inflect``).
FORMS = "forms"


def F_(context: str, word: str) -> str:
    """Mark a word of the game whose forms each language lists (context ``FORMS``): its
    translation is ``"base; tag=form; tag=form"``, the tags the language's own (German ``e``,
    ``en``, ``er`` for the adjective's ending; Bulgarian ``m-def``, ``m-def-short``, ``f``,
    ``pl``; Hungarian none), asked for as ``{colour}[tag]`` in a sentence (``ask_forms``)."""
    return word


class Word(str):
    """A translated word of the game that a sentence can ask in another form: ``{colour}[en]``
    gives the form tagged ``en`` (German "roten"), ``{colour}`` the word as translated."""

    forms: Mapping[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Word:
        word = super().__new__(cls, text)
        word.forms = dict(forms or {})
        return word

    def __format__(self, spec: str) -> str:
        return self.forms.get(spec, str(self)) if spec else str(self)


def forms_table(text: str) -> dict[str, str]:
    """The forms a ``FORMS`` translation lists: ``"rot; e=rote; en=roten"`` → ``{"e": "rote",
    "en": "roten"}`` (the first item, the word itself, is what ``gettext`` says)."""
    out = {}
    for item in text.split(";")[1:]:
        tag, sep, form = item.partition("=")
        if sep and tag.strip() and form.strip():
            out[tag.strip()] = form.strip()
    return out


def inflect(word: str, tr: Translator) -> Word:
    """``word`` translated through ``tr``, with the forms its language lists for it."""
    return Word(tr.gettext(word), forms_table(tr.pgettext(FORMS, word)))


#: A placeholder with the tag of the form it asks for: ``{colour}[en]`` (not ``{{colour}}``).
FORM_ASKED = re.compile(r"(?<!\{)\{([a-z_0-9]+)\}\[([a-z0-9-]+)\]")


def ask_forms(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with each ``{name}[tag]`` of a word of the game made a request
    ``str.format`` hands to the word, ``{name:tag}`` (``Word.__format__``); brackets after any
    other value are text and stay.

    >>> ask_forms("der {colour}[e] Joker, {field}[2]", {"colour": Word("rot"), "field": "x"})
    'der {colour:e} Joker, {field}[2]'
    """

    def asked(found: re.Match[str]) -> str:
        name, tag = found.groups()
        return f"{{{name}:{tag}}}" if isinstance(values.get(name), Word) else found.group(0)

    return FORM_ASKED.sub(asked, template)


#: (context, English text): the texts a game's edition says in words of its own. The context
#: is the game's id (its ``msgctxt``); elsewhere the text has one translation for every game.
IN_CONTEXT: set[tuple[str, str]] = set()


def P_(context: str, text: str) -> str:
    """Mark a text that the game ``context`` says in words of its own (Rummy 17 calls
    a deal a *game*, hu *játék*, where the tile games say *round*)."""
    IN_CONTEXT.add((context, text))
    return text


def NP_(context: str, singular: str, plural: str) -> str:
    """``P_`` for a text with a plural form (marked by its singular)."""
    IN_CONTEXT.add((context, singular))
    return singular


def say(tr: Translator, context: str | None, text: str) -> str:
    """``text`` through ``tr``, in the game's own words where its edition has them."""
    if context is not None and (context, text) in IN_CONTEXT:
        return tr.pgettext(context, text)
    return tr.gettext(text)


def nsay(tr: Translator, context: str | None, singular: str, plural: str, n: int) -> str:
    """``say`` for a text with a plural form."""
    if context is not None and (context, singular) in IN_CONTEXT:
        return tr.npgettext(context, singular, plural, n)
    return tr.ngettext(singular, plural, n)


def context_of(game: Any) -> str | None:
    """The message context of ``game``: a game, its descriptor, its JSON or its id."""
    if isinstance(game, str):
        return game
    if isinstance(game, Mapping):
        found = game.get("id")
        return found if isinstance(found, str) else None
    found = getattr(game, "id", None)
    return found if isinstance(found, str) else None


def game_words(tr: Translator) -> Callable[..., str]:
    """A template's ``gw(game, text, **values)``: ``text`` in the game's own words (``say``).

    ``game`` is a game, its descriptor or its id. With values the text comes filled in
    (``%(n)s``); without, as a template the caller fills (the sheets' ``|format``).
    """

    def gw(game: Any, text: str, **values: Any) -> str:
        said = say(tr, context_of(game), text)
        return said % values if values else said

    return gw


def game_plurals(tr: Translator) -> Callable[..., str]:
    """A template's ``ngw(game, singular, plural, n, **values)``: ``game_words`` for a text
    with a plural form (``nsay``), the form chosen by ``n``."""

    def ngw(game: Any, singular: str, plural: str, n: int, **values: Any) -> str:
        said = nsay(tr, context_of(game), singular, plural, n)
        return said % values if values else said

    return ngw


def NN_(singular: str, plural: str, count: str) -> tuple[str, str, str]:
    """Mark a text with a plural form, chosen by the parameter ``count``."""
    return (singular, plural, count)


Text = str | tuple[str, str, str]

#: Parameters whose values are words of the game (colour names, game names, bonus cards):
#: they are translated too, through the same catalogue.
TERMS = frozenset(
    {"colour", "colour2", "colours", "game_name", "bonus_name", "holding", "phrase", "nobody"}
)
#: List parameters that offer a choice, read ``A, B or C`` rather than ``A, B and C``.
ALTERNATIVES = frozenset({"could", "options"})

MESSAGES: dict[str, Text] = {}


def register(texts: Mapping[str, Text]) -> None:
    """Add a module's codes; a code is defined once (a module imported again may repeat its
    own words)."""
    clash = {code for code in texts if code in MESSAGES and MESSAGES[code] != texts[code]}
    if clash:
        raise ValueError(f"message codes defined twice: {sorted(clash)}")
    MESSAGES.update(texts)


def _value(key: str, value: Any, tr: Translator) -> Any:
    if key in TERMS:  # a word of the game, in the form the sentence asks for ({colour}[en])
        return inflect(value, tr) if isinstance(value, str) else Word(str(_plain(key, value, tr)))
    return _plain(key, value, tr)


def _plain(key: str, value: Any, tr: Translator) -> Any:
    if isinstance(value, Mapping):  # {"R": "red", "B": "blue"} → "R red, B blue"
        return ", ".join(f"{k} {_value(key, v, tr)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        word = "or" if key in ALTERNATIVES else "and"
        return join([_item(key, v, tr) for v in value], tr, word=word)
    return value


def _item(key: str, value: Any, tr: Translator) -> str:
    """One entry of a list parameter; an entry that is itself a list reads ``A and B``."""
    if isinstance(value, list | tuple):
        return join([str(_value(key, v, tr)) for v in value], tr)
    return str(_value(key, value, tr))


def join(items: Sequence[str], tr: Translator = ENGLISH, *, word: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C`` (``word`` may be ``or``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    last = tr.gettext(N_("{a} or {b}") if word == "or" else N_("{a} and {b}"))
    return last.format(a=", ".join(items[:-1]), b=items[-1])


def render(
    code: str, params: Mapping[str, Any], tr: Translator = ENGLISH, context: str | None = None
) -> str:
    """The sentence for ``code`` with ``params`` filled in, through ``tr``; ``context`` is the
    game whose own words it uses where its edition differs (``P_``)."""
    text = MESSAGES.get(code)
    if text is None:
        raise KeyError(f"no message for the code {code!r}")
    values = {k: _value(k, v, tr) for k, v in params.items()}
    if isinstance(text, tuple):
        singular, plural, count = text
        template = nsay(tr, context, singular, plural, int(params[count]))
    else:
        template = say(tr, context, text)
    return ask_forms(template, values).format(**values)


def location(
    round: int | None,
    player: str | None,
    meld: int | None,
    field: str | None,
    tr: Translator = ENGLISH,
    context: str | None = None,
) -> str:
    """Where a problem is, as the start of its message: ``"round 2: Béla, meld 2: "``, in the
    words of the game ``context`` (Rummy 17: ``"game 2: "``)."""
    out = ""
    if round is not None:
        out += say(tr, context, N_("round {round}: ")).format(round=round)
    if player is not None and meld is not None:
        out += tr.gettext(N_("{player}, meld {meld}: ")).format(player=player, meld=meld)
    elif player is not None and field in PLAYER_FIELDS:
        out += tr.gettext(PLAYER_FIELDS[field]).format(player=player)
    elif meld is not None and field in TABLE_FIELDS:  # a turn's table has no owners
        out += tr.gettext(TABLE_FIELDS[field]).format(meld=meld)
    return out


def event_location(session: int | None, table: int | None, tr: Translator = ENGLISH) -> str:
    """Where in an event a problem is: ``"session 2, table 3: "`` (EV-2)."""
    if session is not None and table is not None:
        return tr.gettext(N_("session {session}, table {table}: ")).format(
            session=session, table=table
        )
    if session is not None:
        return tr.gettext(N_("session {session}: ")).format(session=session)
    return ""


#: The fields of a player's entry a problem can be about: their leftover cards, their melds.
PLAYER_FIELDS = {
    "hand": N_("{player}'s hand: "),
    "rack": N_("{player}'s rack: "),
    "melds": N_("{player}'s melds: "),
}


#: The tables of a turn (contract ``turn``): where a meld lies when nobody owns it.
TABLE_FIELDS = {
    "before": N_("the table before the turn, meld {meld}: "),
    "after": N_("the table after the turn, meld {meld}: "),
}


def localize(value: Any, tr: Translator, context: str | None = None) -> Any:
    """A result or verdict with every ``reason`` said again through ``tr``, in the words of the
    game ``context`` where its edition has them (Rummikub's *tiles*).

    Results carry each reason as a code with parameters beside its English words
    (``reason_code``/``reason_params`` on awards and rulings, ``code``/``params`` on a
    ``check`` verdict, ``note_code``/``note_params`` for its note); ids, keys and numbers
    stay as they are.
    """
    if isinstance(value, list):
        return [localize(v, tr, context) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: localize(v, tr, context) for k, v in value.items()}
    if "reason_code" in out:
        out["reason"] = render(out["reason_code"], out.get("reason_params") or {}, tr, context)
    elif "reason" in out and isinstance(out.get("code"), str) and out["code"] in MESSAGES:
        out["reason"] = render(out["code"], out.get("params") or {}, tr, context)
    if "fix_code" in out:  # what would make a turn legal (rules/fixes.py)
        out["fix"] = render(out["fix_code"], out.get("fix_params") or {}, tr, context)
    if "note_code" in out:  # a remark beside a legal ``check`` verdict (R17-11)
        out["note"] = render(out["note_code"], out.get("note_params") or {}, tr, context)
    return out
