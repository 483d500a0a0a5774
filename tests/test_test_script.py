"""The README's test command runs beside another PostgreSQL: scripts/test starts its
throwaway server on a free port by itself (scripts/postgres.sh), or on PGPORT_TEST when set.

Each test holds a port the way another PostgreSQL would (listening on 127.0.0.1) and starts the
script's server, as scripts/test does, in a shell of its own: the server must come up on
another port, answer, and be gone when the shell exits.
"""

from __future__ import annotations

import glob
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from support import unavailable

ROOT = Path(__file__).resolve().parent.parent
#: What would make the script use another server or port than the one under test.
SETTINGS = ("PGPORT_TEST", "COMPANION_TEST_POSTGRES_URL")


@pytest.fixture
def taken() -> Iterator[int]:
    """A port another server listens on."""
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        unavailable("PostgreSQL is not installed (apt-get install postgresql)")
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def _start(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Source the script as scripts/test does, say the URL, and check the server answers
    from inside that shell (it is stopped when the shell exits)."""
    run = 'set -euo pipefail; source scripts/postgres.sh; echo "$COMPANION_TEST_POSTGRES_URL"'
    base = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run(
        ["bash", "-c", run + '; "$PYTHON" -c "$ASK"'],
        cwd=ROOT,
        env={**base, **env, "PYTHON": sys.executable, "ASK": _ASK},
        capture_output=True,
        text=True,
        timeout=120,
    )


_ASK = """
import os
from sqlalchemy import create_engine, text
with create_engine(os.environ["COMPANION_TEST_POSTGRES_URL"]).connect() as c:
    print("answers", c.execute(text("select 1")).scalar())
"""


def test_scripts_test_starts_its_postgresql_through_the_shared_script() -> None:
    assert "source scripts/postgres.sh" in (ROOT / "scripts" / "test").read_text()


def test_without_PGPORT_TEST_the_server_takes_a_free_port_beside_another(taken: int) -> None:
    done = _start({})
    assert done.returncode == 0, done.stderr
    url = done.stdout.splitlines()[0]
    port = int(re.fullmatch(r"postgresql\+psycopg://postgres@127\.0\.0\.1:(\d+)/postgres", url)[1])
    assert port != taken
    assert "answers 1" in done.stdout
    # Gone with the shell that started it: nothing left listening there.
    with pytest.raises(Exception):  # noqa: B017 - any refusal will do
        with create_engine(url, connect_args={"connect_timeout": 2}).connect() as c:
            c.execute(text("select 1"))


def test_PGPORT_TEST_chooses_the_port_and_a_taken_one_is_said_in_words(taken: int) -> None:
    before = glob.glob("/tmp/companion-pg.*")
    done = _start({"PGPORT_TEST": str(taken)})
    assert done.returncode != 0
    assert f"did not start on port {taken} (PGPORT_TEST)" in done.stderr
    # and the cluster's folder is removed even so (another run's folders may come and go)
    left = set(glob.glob("/tmp/companion-pg.*")) - set(before)
    assert not [f for f in left if f"port {taken}" in _log(Path(f))], left


def _log(folder: Path) -> str:
    try:
        return (folder / "log").read_text(errors="replace")
    except OSError:  # not ours: another run's, or gone meanwhile
        return ""
