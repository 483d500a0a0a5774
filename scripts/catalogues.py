"""Bring the translation catalogues up to date with the source, fill new entries, compile.

    .venv/bin/python scripts/catalogues.py [NEW.json]

1. extracts every translatable text (the same keywords as tests/test_catalogues.py);
2. updates companion/i18n/translations/{hu,de,bg}/LC_MESSAGES/messages.po (no fuzzy matching,
   texts no longer in the source dropped), and companion/i18n/translations/en/…/messages.po with
   the texts that have a message context only: English is the source language, and its
   catalogue holds just what a game says in words of its own (Rummy 17's "Game 3");
3. fills the translations given in NEW.json: ``{"msgid": {"hu": "…", "de": "…", "bg": "…"}}``;
   a plural text is keyed by its singular and gives a list per language (hu, de: 2 forms,
   bg: 2 forms); a text with a context is keyed ``"context\\u0004msgid"`` and may give its
   English too (``"en": "Game %(n)s"``);
4. compiles the .mo files so a running test sees them, and lists what is still untranslated.

Several people may run it at once: it holds a lock for the whole update.
"""

from __future__ import annotations

import fcntl
import json
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "i18n" / "translations"
LANGUAGES = ("hu", "de", "bg")
#: The source language: its catalogue has the texts with a message context, nothing else.
ENGLISH = "en"
KEYWORDS = ["-k", "_l", "-k", "N_", "-k", "NN_:1,2", "-k", "P_:1c,2", "-k", "NP_:1c,2,3"]
KEYWORDS += ["-k", "gw:2", "-k", "ngw:2,3", "-k", "F_:1c,2", "-k", "game_text:3"]
BIN = Path(sys.executable).parent


def main(argv: list[str]) -> int:
    new: dict[str, dict[str, str | list[str]]] = {}
    if argv:
        new = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    with open("/tmp/companion-catalogues.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pot = TRANSLATIONS / "messages.pot"
        extract = [str(BIN / "pybabel"), "extract", "-F", "babel.cfg", *KEYWORDS]
        extract += ["--sort-output", "--no-location", "-o", str(pot), "."]
        subprocess.run(extract, cwd=ROOT, check=True, capture_output=True)
        for lang in LANGUAGES:
            update = [str(BIN / "pybabel"), "update", "-i", str(pot), "-d", str(TRANSLATIONS)]
            update += ["-l", lang, "--no-fuzzy-matching", "--ignore-obsolete"]
            subprocess.run(update, cwd=ROOT, check=True, capture_output=True)
        _update_english(pot)
        missing = 0
        for lang in (ENGLISH, *LANGUAGES):
            missing += _fill(lang, new)
        return 1 if missing else 0


def _po(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def _update_english(pot: Path) -> None:
    """The English catalogue: the template's texts that have a context, their English kept."""
    with pot.open("rb") as source:
        template = read_po(source)
    po = _po(ENGLISH)
    if po.exists():
        with po.open("rb") as source:
            catalogue = read_po(source, locale=ENGLISH)
    else:
        po.parent.mkdir(parents=True, exist_ok=True)
        catalogue = Catalog(
            locale=ENGLISH, project="Companion", copyright_holder="Companion", fuzzy=False
        )
    catalogue.update(template, no_fuzzy_matching=True)
    for message in [m for m in catalogue if m.id and not m.context]:
        catalogue.delete(message.id)
    with po.open("wb") as target:
        write_po(target, catalogue, width=100, sort_output=True, ignore_obsolete=True)


def _fill(lang: str, new: dict[str, dict[str, str | list[str]]]) -> int:
    """Fill ``lang``'s catalogue from ``new``, compile it; the number still untranslated."""
    po = _po(lang)
    with po.open("rb") as source:
        catalogue = read_po(source, locale=lang)
    for key, texts in new.items():
        if lang not in texts:
            continue
        context, _, msgid = key.rpartition("\u0004")
        message = catalogue.get(msgid, context=context or None)
        if message is None:
            print(f"{lang}: not in the source (yet?): {key!r}", file=sys.stderr)
            continue
        text = texts[lang]
        message.string = tuple(text) if isinstance(text, list) else text
    with po.open("wb") as target:
        write_po(target, catalogue, width=100, sort_output=True, ignore_obsolete=True)
    with po.with_suffix(".mo").open("wb") as target:
        write_mo(target, catalogue, use_fuzzy=False)
    missing = 0
    for message in catalogue:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.id and not all(strings):
            missing += 1
            print(f"{lang}: untranslated: {message.id!r}")
    return missing


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
