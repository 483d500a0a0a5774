"""The catalogues pass gettext's own checks, ``msgfmt -c --check-format``, as Weblate and
gettext's tools run them: every placeholder of a translation is one of its message id's.

A colour's form is asked for after the placeholder, ``{colour}[e]`` (messages.inflect), never
inside it: to ``msgfmt`` a ``{colour:e}`` is a placeholder the id does not have.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = sorted((ROOT / "companion" / "translations").glob("*/LC_MESSAGES/messages.po"))


def test_every_language_has_a_catalogue() -> None:
    assert [p.parent.parent.name for p in CATALOGUES] == ["bg", "de", "en", "hu"]


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_msgfmt_check_passes(po: Path, tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "msgfmt is missing: apt-get install gettext (scripts/test installs it)"
    done = subprocess.run(
        [msgfmt, "-c", "--check-format", "-o", str(tmp_path / "messages.mo"), str(po)],
        capture_output=True,
        text=True,
    )
    errors = [line for line in done.stderr.splitlines() if "warning:" not in line]
    assert done.returncode == 0 and errors == [], done.stderr


def test_a_form_is_asked_for_after_the_placeholder_and_brackets_elsewhere_stay_text() -> None:
    from companion.catalogues import translator
    from companion.rules.messages import MESSAGES, ask_forms, render

    german, bulgarian = translator("de"), translator("bg")
    assert render("joker-name-coloured", {"colour": "red"}, german) == "roter Joker"
    assert render("card-name", {"colour": "black", "value": "13"}, bulgarian) == "черна 13"
    assert "{colour}[er]" in german.gettext(MESSAGES["joker-name-coloured"])
    # A value that is no word of the game keeps the brackets after it as they are written.
    assert ask_forms("{field}[0] {colour}[e]", {"field": "rounds"}) == "{field}[0] {colour}[e]"
