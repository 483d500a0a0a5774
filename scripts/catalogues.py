"""Bring the translation catalogues up to date with the source, fill new entries, compile.

    .venv/bin/python scripts/catalogues.py [NEW.json]

1. extracts every translatable text (the same keywords as tests/test_catalogues.py);
2. updates companion/translations/{hu,de,bg}/LC_MESSAGES/messages.po (no fuzzy matching,
   texts no longer in the source dropped);
3. fills the translations given in NEW.json: ``{"msgid": {"hu": "…", "de": "…", "bg": "…"}}``;
   a plural text is keyed by its singular and gives a list per language (hu, de: 2 forms,
   bg: 2 forms); a text with a context is keyed ``"context\\u0004msgid"``;
4. compiles the .mo files so a running test sees them, and lists what is still untranslated.

Several people may run it at once: it holds a lock for the whole update.
"""

from __future__ import annotations

import fcntl
import json
import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "translations"
LANGUAGES = ("hu", "de", "bg")
BIN = Path(sys.executable).parent


def main(argv: list[str]) -> int:
    new: dict[str, dict[str, str | list[str]]] = {}
    if argv:
        new = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    with open("/tmp/companion-catalogues.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pot = TRANSLATIONS / "messages.pot"
        extract = [str(BIN / "pybabel"), "extract", "-F", "babel.cfg", "-k", "_l", "-k", "N_"]
        extract += ["-k", "NN_:1,2", "-k", "P_:1c,2", "-k", "NP_:1c,2,3", "-k", "gw:2"]
        extract += ["--sort-output", "--no-location", "-o", str(pot), "."]
        subprocess.run(extract, cwd=ROOT, check=True, capture_output=True)
        update = [str(BIN / "pybabel"), "update", "-i", str(pot), "-d", str(TRANSLATIONS)]
        update += ["--no-fuzzy-matching", "--ignore-obsolete"]
        subprocess.run(update, cwd=ROOT, check=True, capture_output=True)
        missing = 0
        for lang in LANGUAGES:
            po = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
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
            for message in catalogue:
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if message.id and not all(strings):
                    missing += 1
                    print(f"{lang}: untranslated: {message.id!r}")
        return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
