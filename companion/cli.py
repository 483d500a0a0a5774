"""The ``companion`` command (contract: "Commands"). Exit 0 done, 1 illegal meld, 2 bad input.

Every command takes ``--lang LANG`` before or after its name (default ``COMPANION_LANG``,
else English); it changes the words of messages, never ids, keys or numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.domain import (
    ENGLISH,
    EntryError,
    Translator,
    all_games,
    check_meld,
    check_redeal,
    check_turn,
    get_game,
    knock,
    localize,
    match_document,
    score_document,
)
from companion.domain.documents import (
    Document,
    EventDocument,
    KnockBody,
    MatchDocument,
    Round,
    TurnBody,
    parse,
)
from companion.domain.messages import N_, register
from companion.i18n.catalogues import LANGUAGES
from companion.i18n.catalogues import translator as catalogue

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2

DEFAULT_LANGUAGE = "en"
LANG_ENV = "COMPANION_LANG"

register(
    {
        "cli-usage": N_("{message} (see companion --help)"),
        "cli-language": N_(
            "{variable}={value!r} is not a language the companion speaks; the languages are "
            "{languages}"
        ),
        "cli-cannot-read": N_("cannot read {path}: {reason}"),
        "cli-not-utf8": N_("{path} is not a UTF-8 text file"),
        "cli-not-json": N_("{path} is not valid JSON: {reason} at line {line}, column {column}"),
        "cli-input-not-json": N_(
            "the input is not valid JSON: {reason} at line {line}, column {column}"
        ),
        "cli-cannot-write": N_("cannot write {path}: {reason}"),
        "cli-players-names": N_("--players {players} but --names gives {count} names"),
        "cli-check-which-game": N_(
            "{card} is not a card of {game_name}, the game check assumes without --game; "
            "name the game with --game, one of {games}"
        ),
    }
)


def translator(lang: str) -> Translator:
    """The catalogue for ``lang`` (one of ``LANGUAGES``); anything else is bad input."""
    if lang not in LANGUAGES:
        raise EntryError(
            "cli-language", variable="--lang", value=lang, languages=", ".join(LANGUAGES)
        )
    return catalogue(lang)


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")


def read_document(source: str) -> object:
    """The JSON document in ``source`` (a path, or ``-`` for standard input)."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as err:
        raise EntryError("cli-cannot-read", path=source, reason=err.strerror or str(err)) from None
    except UnicodeDecodeError:
        raise EntryError("cli-not-utf8", path=source) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        code = "cli-input-not-json" if source == "-" else "cli-not-json"
        raise EntryError(
            code, path=source, reason=err.msg, line=err.lineno, column=err.colno
        ) from None


def typed(model: type[Document], doc: object) -> object:
    """The document as its typed model (``parse``) when it is one; as read otherwise, so that
    the rules say what is wrong with it, every problem at once, in the words the command has
    always given (the API's edge stops at the first shape it cannot read)."""
    try:
        return parse(model, doc)
    except EntryError:
        return doc


def _document_command(
    func: Callable[[object], dict[str, Any]], model: type[Document]
) -> Callable[..., int]:
    def run(args: argparse.Namespace) -> int:
        doc = read_document(args.file)
        game = doc.get("game") if isinstance(doc, dict) else None
        _emit(localize(func(typed(model, doc)), args.tr, game if isinstance(game, str) else None))
        return EXIT_OK

    return run


def _check(args: argparse.Namespace) -> int:
    first = all_games()[0]
    try:
        verdict = check_meld(args.game or first.id, args.cards)
    except EntryError as err:
        if args.game is not None or err.card is None:
            raise
        # AS 2S 3S without --game: say that the cards were read as the first game's.
        hint = EntryError(
            "cli-check-which-game",
            card=err.card,
            game_name=first.name,
            games=", ".join(g.id for g in all_games()),
        )
        raise EntryError.of([*hint.problems, *err.problems]) from None
    _emit(localize(verdict, args.tr, args.game or first.id))
    return EXIT_OK if verdict["valid"] else EXIT_ILLEGAL


def _write(path: str, data: bytes) -> None:
    try:
        Path(path).write_bytes(data)
    except OSError as err:
        raise EntryError("cli-cannot-write", path=path, reason=err.strerror or str(err)) from None


def _pdf(args: argparse.Namespace) -> int:
    from companion.adapters.sheets import match_sheet_from_document

    doc = read_document(args.file)
    _write(args.output, match_sheet_from_document(doc, paper=args.paper, tr=args.tr))
    return EXIT_OK


def _blank(args: argparse.Namespace) -> int:
    from companion.adapters.sheets import blank_sheet, default_players

    players: int | list[str] = (
        args.players if args.players is not None else default_players(args.game)
    )
    if args.names is not None:
        names = [n.strip() for n in args.names.split(",")]
        if args.players is not None and args.players != len(names):
            raise EntryError("cli-players-names", players=args.players, count=len(names))
        players = names
    pdf = blank_sheet(players, args.games, paper=args.paper, game=args.game, tr=args.tr)
    _write(args.output, pdf)
    return EXIT_OK


def _read(args: argparse.Namespace) -> int:
    """Contract "Photos": one object for one photo, a list for several in the order given;
    a photo that cannot be opened or read is its error object, naming the file (exit 2)."""
    from companion.services import photos

    photos.inks(args.game)  # a game whose pieces cannot be read: one error, not one a photo
    out: list[dict[str, Any]] = []
    failed = False
    for path in args.photos:
        try:
            try:
                data = Path(path).read_bytes()
            except OSError as err:
                reason = err.strerror or str(err)
                raise EntryError("cli-cannot-read", path=path, reason=reason) from None
            out.append(photos.read(args.game, data, args.as_, file=path))
        except EntryError as err:
            failed = True
            out.append(err.to_json(args.tr))
    if len(out) == 1:
        _emit(out[0])
    else:
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _serve(args: argparse.Namespace) -> int:
    from companion.web.server import serve

    serve(host=args.host, port=args.port)
    return EXIT_OK


class _Parser(argparse.ArgumentParser):
    """Usage errors are bad input too: the error object on stdout, exit 2, no traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        _emit(EntryError("cli-usage", message=message).to_json())
        raise SystemExit(EXIT_BAD_INPUT)


def _lang(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default,
        help=f"language of messages: {', '.join(LANGUAGES)} (default ${LANG_ENV}, else en)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line: every command of the contract that this build has."""
    ids = [g.id for g in all_games()]
    parser = _Parser(prog="companion", description=__doc__)
    _lang(parser, None)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, text: str, run: Callable[[argparse.Namespace], int]) -> Any:
        p = sub.add_parser(name, help=text)
        _lang(p, argparse.SUPPRESS)  # after the name it overrides the one before
        p.set_defaults(run=run)
        return p

    p = command("score", "score one round: a round document → result JSON", _score)
    p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
    p = command("match", "score a whole match: a match document → result JSON", _match)
    p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
    p = command("standings", "an event of several tables → its standings JSON (EV-5)", _standings)
    p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
    p = command("check", "is this a legal meld? exit 0 legal, 1 illegal", _check)
    # No default here, so that an unreadable card can say --game was left out (ids[0] is used).
    p.add_argument(
        "--game", type=str.lower, choices=ids, help=f"one of {', '.join(ids)} (default {ids[0]})"
    )
    p.add_argument("cards", nargs="+", metavar="CARD")
    p = command("pdf", "a match document of any game → its filled score sheet as PDF", _pdf)
    p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p = command("blank", "a blank score sheet of a game for paper play, as PDF", _blank)
    p.add_argument(
        "--game", type=str.lower, choices=ids, default=ids[0], help=f"one of {', '.join(ids)}"
    )
    p.add_argument("--players", type=int, metavar="N", help="players (default 4, or fewer)")
    p.add_argument("--names", metavar="A,B,…", help="the players' names, comma-separated")
    p.add_argument(
        "--games",
        "--rounds",
        dest="games",
        type=int,
        metavar="M",
        help="rounds (default one per player; 8 rows for a game played to 150)",
    )
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    _referee(command, ids)
    p = command("rescue", "put the table back: lay these cards out in legal melds", _rescue)
    p.add_argument("--game", choices=ids, required=True, help=f"one of {', '.join(ids)}")
    p.add_argument("cards", nargs="+", metavar="CARD")
    p = command("read", "read the tiles off photos of a rack or the table → JSON", _read)
    p.add_argument(
        "--game", type=str.lower, choices=ids, required=True, help=f"one of {', '.join(ids)}"
    )
    p.add_argument("--as", dest="as_", choices=("rack", "table"), default="rack")
    p.add_argument("photos", nargs="+", metavar="PHOTO")
    p = command("serve", "run the web app (SQLite in the instance folder)", _serve)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    return parser


# --- the referee at the table: turn, knock, redeal (contract "turn", "knock"; RK-3) ---------


def _turn(args: argparse.Namespace) -> int:
    doc = read_document(args.file)
    verdict = check_turn(typed(TurnBody, doc))
    _emit(localize(verdict, args.tr, doc.get("game") if isinstance(doc, dict) else None))
    return EXIT_OK if verdict["valid"] else EXIT_ILLEGAL


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _knock(args: argparse.Namespace) -> int:
    doc: dict[str, Any] = {
        "players": _names(args.players),
        "current": args.current,
        "knocks": _names(args.knocks),
    }
    if args.discarded_by is not None:
        doc["discarded_by"] = args.discarded_by or None  # "": turned up at the deal
    _emit(localize(knock(typed(KnockBody, doc), args.tr), args.tr))
    return EXIT_OK


def _redeal(args: argparse.Namespace) -> int:
    _emit(localize(check_redeal(args.game, args.tiles), args.tr, args.game))
    return EXIT_OK


def _referee(command: Callable[..., Any], ids: list[str]) -> None:
    p = command("turn", "is this turn legal? exit 0 legal, 1 illegal", _turn)
    p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
    p = command("knock", "who gets the face-up card? (Rummy 17, R17-8)", _knock)
    p.add_argument("--players", required=True, metavar="A,B,…", help="names in seat order")
    p.add_argument("--current", required=True, metavar="B", help="whose turn it is")
    p.add_argument("--knocks", default="", metavar="D,C", help="in the order people knocked")
    p.add_argument("--discarded-by", metavar="A", help="default: the player before --current")
    p = command("redeal", "may these first tiles be reshuffled? (Rummikub, RK-3)", _redeal)
    redeal_games = [g.id for g in all_games() if g.redeals]
    p.add_argument("--game", choices=ids, default=redeal_games[0] if redeal_games else None)
    p.add_argument("tiles", nargs="+", metavar="TILE")


_score = _document_command(score_document, Round)


def _rescue(args: argparse.Namespace) -> int:
    """RK-11: exit 0 when every card is placed, 1 when some cannot be (named)."""
    answer = get_game(args.game).rescue(args.cards)
    _emit(answer)
    return EXIT_OK if answer["solved"] else EXIT_ILLEGAL


_match = _document_command(match_document, MatchDocument)


def _event_standings(doc: object) -> dict[str, Any]:
    """The contract's ``standings`` (EV-5…EV-7); the events module loads only when asked."""
    from companion.domain.club import standings

    return standings(doc)


_standings = _document_command(_event_standings, EventDocument)


def _language(args: argparse.Namespace) -> str:
    """``--lang``, else ``$COMPANION_LANG``, else English; a bad environment value is refused."""
    if args.lang is not None:
        return str(args.lang)
    value = os.environ.get(LANG_ENV, "").strip().lower()
    if not value:
        return DEFAULT_LANGUAGE
    if value not in LANGUAGES:
        raise EntryError(
            "cli-language", variable=LANG_ENV, value=value, languages=", ".join(LANGUAGES)
        )
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code."""
    args = build_parser().parse_args(argv)
    tr: Translator = ENGLISH
    try:
        tr = args.tr = translator(_language(args))
        code: int = args.run(args)
        return code
    except EntryError as err:
        _emit(err.to_json(tr))
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    raise SystemExit(main())
