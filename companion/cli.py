"""The ``companion`` command (contract: "Commands"). Exit 0 done, 1 illegal meld, 2 bad input."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.rules import EntryError, check_meld, match_document, score_document

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT = 0, 1, 2


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")


def read_document(source: str) -> object:
    """The JSON document in ``source`` (a path, or ``-`` for standard input)."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as err:
        raise EntryError(f"cannot read {source}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise EntryError(f"{source} is not a UTF-8 text file") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise EntryError(
            f"{'the input' if source == '-' else source} is not valid JSON: {err.msg} "
            f"at line {err.lineno}, column {err.colno}"
        ) from None


def _document_command(func: Callable[[object], dict[str, Any]]) -> Callable[..., int]:
    def run(args: argparse.Namespace) -> int:
        _emit(func(read_document(args.file)))
        return EXIT_OK

    return run


def _check(args: argparse.Namespace) -> int:
    verdict = check_meld(args.game, args.cards)
    _emit(verdict)
    return EXIT_OK if verdict["valid"] else EXIT_ILLEGAL


def _write(path: str, data: bytes) -> None:
    try:
        Path(path).write_bytes(data)
    except OSError as err:
        raise EntryError(f"cannot write {path}: {err.strerror or err}") from None


def _pdf(args: argparse.Namespace) -> int:
    from companion.sheets import match_sheet_from_document

    pdf = match_sheet_from_document(read_document(args.file), paper=args.paper)
    _write(args.output, pdf)
    return EXIT_OK


def _blank(args: argparse.Namespace) -> int:
    from companion.sheets import blank_sheet

    players: int | list[str] = args.players if args.players is not None else 4
    if args.names is not None:
        names = [n.strip() for n in args.names.split(",")]
        if args.players is not None and args.players != len(names):
            raise EntryError(f"--players {args.players} but --names gives {len(names)} names")
        players = names
    _write(args.output, blank_sheet(players, args.games, paper=args.paper))
    return EXIT_OK


def _serve(args: argparse.Namespace) -> int:
    from companion.server import serve

    serve(host=args.host, port=args.port)
    return EXIT_OK


class _Parser(argparse.ArgumentParser):
    """Usage errors are bad input too: the error object on stdout, exit 2, no traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        _emit(EntryError(f"{message} (see companion --help)").to_json())
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("score", help="score one round: a round document → result JSON")
    p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
    p.set_defaults(run=_document_command(score_document))
    p = sub.add_parser("match", help="score a whole match: a match document → result JSON")
    p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
    p.set_defaults(run=_document_command(match_document))
    p = sub.add_parser("check", help="is this a legal meld? exit 0 legal, 1 illegal")
    p.add_argument("--game", default="rummy17")
    p.add_argument("cards", nargs="+", metavar="CARD")
    p.set_defaults(run=_check)
    p = sub.add_parser("pdf", help="a match document → its filled score sheet as PDF")
    p.add_argument("file", nargs="?", default="-")
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.set_defaults(run=_pdf)
    p = sub.add_parser("blank", help="a blank Rummy 17 score sheet for paper play, as PDF")
    p.add_argument("--players", type=int, metavar="N", help="2 to 6 players (default 4)")
    p.add_argument("--names", metavar="A,B,…", help="the players' names, comma-separated")
    p.add_argument("--games", type=int, metavar="M", help="games (default one per player)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.set_defaults(run=_blank)
    p = sub.add_parser("serve", help="run the web app (SQLite in the instance folder)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.set_defaults(run=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except EntryError as err:
        _emit(err.to_json())
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    raise SystemExit(main())
