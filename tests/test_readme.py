"""Every command-line example in the README runs as written.

Each line of a ``sh`` block that calls ``.venv/bin/companion`` (but ``serve``, which would
not return) is run from the repository's top, as a newcomer would paste it: it must exit 0,
or 1 where the answer is a "no" (an illegal meld or turn), print no traceback, and write a
file it says it writes. Files a line names must be in the repository.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from support import run_companion

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def examples() -> list[str]:
    """The README's command lines that run the command line tool, comments taken off."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            line = line.split("   #")[0].split("  #")[0].strip()
            if line.startswith(".venv/bin/companion ") and " serve" not in line:
                lines.append(line)
    return lines


def test_the_readme_shows_the_command_line() -> None:
    assert len(examples()) >= 8


@pytest.mark.parametrize("line", examples())
def test_every_readme_example_runs_as_written(line: str, tmp_path: Path, monkeypatch) -> None:
    args = shlex.split(line)[1:]
    monkeypatch.chdir(ROOT)
    written = []
    if "-o" in args:  # the file it writes goes to a temporary folder
        i = args.index("-o") + 1
        written.append(tmp_path / Path(args[i]).name)
        args[i] = str(written[-1])
    args = [a for a in args if not (a.startswith("[") or a.endswith("]"))]  # optional parts
    for arg in args:
        if arg.endswith(".json"):
            assert (ROOT / arg).is_file(), f"{arg} is not in the repository"
    proc = run_companion(*args)
    assert proc.returncode in (0, 1), (line, proc.stdout[-500:], proc.stderr[-500:])
    for path in written:
        assert path.stat().st_size > 0
