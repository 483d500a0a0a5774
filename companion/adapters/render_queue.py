"""Score sheets drawn by one render queue that every server process shares: Huey on SQLite.

WeasyPrint needs a second or two of one core for a full sheet; drawn in a request thread,
twenty downloads at once held every page of the table up. So (docs/adr/0003-render-queue.md):

- The queue and the sheets it made live in one SQLite file in the instance folder
  (``sheets.sqlite3``, Huey's ``SqliteHuey``). A sheet is the result of the task named by a
  hash of what it shows (the match's read-only token and revision, the language, the paper,
  the addresses on it): every server process reads it there, and a second download of an
  unchanged match costs no drawing.
- ``companion serve`` starts one render process (``serving``: Huey's consumer) before its
  server processes: ``SHEET_RENDERERS`` worker processes (default ``RENDERERS``) draw, at a
  lower priority than the pages (``NICENESS``). So at most that many sheets take a core,
  whatever the number of server processes, and a request thread only waits.
- The render process warms up before it starts its workers (WeasyPrint imported, a tiny sheet
  of every game drawn in every language: fonts, stylesheet and templates loaded), and its
  workers are forked from it warm, also one replacing a worker after ``TASKS_PER_RENDERER``
  sheets. The server takes requests once it is warm (at most ``WARM_WAIT`` seconds).
- Twenty requests for the same sheet at once, in any server process, wait on one drawing: the
  first claims the sheet's name in the storage (``put_if_empty``, atomic there) and queues
  the task; the others find the claim and wait for the result. The claim goes when the task
  has stored its result (a Huey post-execute hook); the render process drops every claim as it
  starts, and a claim older than ``CLAIM_STALE`` (its worker was killed) is taken over.
- A saved round's sheet is queued at once at a lower priority than the downloads (``ahead``),
  at most ``AHEAD_LIMIT`` every ``AHEAD_PER`` seconds over all server processes (Huey's rate
  limit, counted in the storage), so a storm of saves does not keep the renderers busy.
- A sheet may be drawn in parts by several workers at once and merged with pypdf (an event's
  fifty tables): a Huey chord of the parts with the merge as its callback.
- The storage keeps the newest ``KEEP`` sheets: every ``TRIM_EVERY``-th drawing drops the older
  ones in one statement (no folder listed, no file unlinked).
- At most ``WAITING`` request threads of a server process wait for sheets; one more gets
  ``SheetsBusy`` (503 and "try again in a moment"), so threads are always left for the pages.
- Without a render process (``SHEET_RENDERERS=0``, a debugging aid, or an app not started by
  ``companion serve``: the tests, another WSGI server) the asking thread draws (Huey's
  immediate mode), with the same storage, names, claims and keeping.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import logging
import os
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from huey import SqliteHuey, group
from huey.consumer import ConsumerStopped
from huey.exceptions import RateLimitExceeded
from huey.utils import Error

log = logging.getLogger(__name__)

#: Worker processes of the render process unless ``SHEET_RENDERERS`` says otherwise: two, so
#: an event's sheets are drawn on two cores.
RENDERERS = 2
#: How much lower the renderers' priority is than the pages' (os.nice).
NICENESS = 10
#: A worker is replaced (forked again from the warm render process) after this many tasks.
TASKS_PER_RENDERER = 200
#: How long ``companion serve`` waits for the render process to warm up before it takes
#: requests anyway (seconds; an idle machine needs one or two).
WARM_WAIT = 15.0
#: Sheets the storage keeps; the oldest go first beyond this (they are drawn again if asked).
KEEP = 2000
#: Every this many drawings, the one that made it drops the sheets beyond ``KEEP``.
TRIM_EVERY = 50
#: Request threads of one server process that may wait for a sheet at once; the others stay
#: free for the pages (companion.web.server.THREADS is 32). Beyond it: SheetsBusy.
WAITING = 24
#: How long a request waits for its sheet before it says "try again" (seconds): an event's
#: fifty tables took 90 s on the shared machine under a load of 18, 128 s under 23.
RESULT_WAIT = 300.0
#: How often a waiting request looks for its sheet, and an idle worker for a task (seconds).
POLL = 0.05
#: A claim older than this whose sheet never came (its worker was killed) is taken over; the
#: render process drops every claim as it starts.
CLAIM_STALE = 300.0
#: Sheets made ahead: at most AHEAD_LIMIT every AHEAD_PER seconds over all server processes.
#: A club night saves a round every few minutes a table (50 tables: about 0.3 a second, every
#: one made ahead); under a storm of saves (bench/event_load.py: 17 a second) most are left
#: to be made when asked for.
AHEAD_LIMIT = 10
AHEAD_PER = 20
#: Priorities: a download before a sheet made ahead.
DOWNLOAD, AHEAD = 10, 0
#: The storage file, in the instance folder.
STORAGE = "sheets.sqlite3"

#: A sheet's parts: what to draw (``draw``'s kind) and with what.
Parts = Sequence[tuple[str, Mapping[str, Any]]]


class SheetsBusy(Exception):
    """So many sheets are being made that this request may not wait for one more."""


class SheetRefused(Exception):
    """The sheet cannot be made from what was asked; ``message`` says why, in words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SheetFailed(Exception):
    """The render process failed to draw the sheet (its log says why)."""


def draw(kind: str, lang: str, arguments: Mapping[str, Any]) -> bytes | dict[str, str]:
    """Draw a sheet in ``lang``: ``match``, ``blank``, ``tables`` (several matches' sheets, an
    event's) or ``cards`` (an event's table cards); or ``{"refused": words}`` when it cannot
    be made (a blank sheet's bad names: an EntryError, which does not travel whole)."""
    from companion.adapters.sheets import blank_sheet, match_sheet
    from companion.adapters.sheets.event import table_cards
    from companion.adapters.sheets.filled import match_sheets
    from companion.domain import EntryError
    from companion.i18n.catalogues import translator

    tr = translator(lang)
    try:
        if kind == "match":
            return match_sheet(tr=tr, **arguments)
        if kind == "tables":
            return match_sheets(tr=tr, **arguments)
        if kind == "cards":
            return table_cards(tr=tr, **arguments)
        return blank_sheet(tr=tr, **arguments)
    except EntryError as err:
        return {"refused": err.first.message(tr)}


def merge(parts: Sequence[Any]) -> bytes | dict[str, str]:
    """The parts one after the other in one PDF (pypdf); the first refusal if one was."""
    from companion.adapters.sheets.render import merge_pdfs

    for part in parts:
        if isinstance(part, dict):
            return part
        if isinstance(part, Error):
            raise SheetFailed(str(part.metadata.get("error")))
    return merge_pdfs(parts)


class _Connection(sqlite3.Connection):
    """The storage's connection: in WAL mode (Huey's default) with ``synchronous=normal``,
    which SQLite keeps safe from corruption while it writes the log to disk at checkpoints
    only. A commit then costs 0.3 ms instead of an fsync (11 ms on the shared machine): a
    save queues its sheet in a few of them. A power cut may forget the last sheets; they are
    drawn again when asked for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.execute("pragma synchronous = normal")


def _name(key: str) -> str:
    """The task (and result) name of the sheet ``key`` describes: never a token in sight."""
    return "sheet:" + hashlib.sha256(key.encode()).hexdigest()


def _claim(name: str) -> str:
    return "claim:" + name


class RenderQueue:
    """The sheets of one instance folder: their queue, their results, their claims.

    ``inline``: drawn in the asking thread (no render process)."""

    def __init__(self, folder: Path, *, inline: bool) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / STORAGE
        self.inline = inline
        if not self.path.exists():  # sheets show names: the owner's only (SQLite gives its
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))  # -wal the same)
        self.huey = SqliteHuey(
            "sheets",
            filename=str(self.path),
            immediate=inline,
            immediate_use_memory=False,  # the same storage either way
            timeout=30,
            factory=_Connection,  # Huey hands it on to sqlite3.connect
        )
        huey = self.huey

        def drawn(task: Any) -> None:
            """Counted as it starts; every TRIM_EVERY-th trims once its sheet is stored."""
            task.trim = huey.storage.incr("renders") % TRIM_EVERY == 0

        def draw_task(kind: str, lang: str, arguments: Mapping[str, Any], task: Any) -> Any:
            drawn(task)
            return draw(kind, lang, arguments)

        def merge_task(parts: Sequence[Any], task: Any) -> Any:
            drawn(task)
            return merge(parts)

        self.draw = huey.task(name="draw", context=True)(draw_task)
        self.merge = huey.task(name="merge", context=True)(merge_task)

        def stored(task: Any, value: Any, exception: Exception | None) -> None:
            """The sheet is stored (or its failure): its claim goes, and the oldest sheets
            beyond KEEP with every TRIM_EVERY-th."""
            if task.id.startswith("sheet:"):
                huey.delete(_claim(task.id))
            if getattr(task, "trim", False):
                self.trim()

        huey.post_execute()(stored)

        self.rate = huey.rate_limit("ahead", AHEAD_LIMIT, AHEAD_PER, retry=False)

    @property
    def renders(self) -> int:
        """Parts and merges drawn so far, by any process (benchmarks, tests)."""
        count: int = self.huey.storage.incr("renders", 0)
        return count

    def kept(self, key: str) -> bool:
        """Is the sheet ``key`` describes made and kept?"""
        found: bool = self.huey.storage.has_data_for_key(_name(key))
        return found

    def document(
        self,
        key: str,
        lang: str,
        parts: Parts | Callable[[], Parts],
        *,
        waiting: bool = True,
    ) -> bytes:
        """The PDF ``key`` describes: kept, or its ``parts`` (or what ``parts()`` returns,
        asked only now) drawn by the renderers, several at once, merged in their order.

        :raises SheetRefused: the sheet cannot be made (a blank sheet's bad names).
        :raises SheetsBusy: ``WAITING`` requests of this process already wait for sheets,
            or the sheet did not come within ``RESULT_WAIT`` seconds.
        """
        name = _name(key)
        found = self._result(name, again=True)
        if found is not None:
            return found
        if waiting and not _waiting.acquire(blocking=False):
            raise SheetsBusy()
        try:
            self._ask(name, lang, parts, DOWNLOAD)
            if not self.huey.storage.wait_result(
                name, timeout=RESULT_WAIT, backoff=1.0, max_delay=POLL
            ):
                raise SheetsBusy()
            found = self._result(name)
            if found is None:  # dropped by a trim at this very moment: ask again
                raise SheetsBusy()
            return found
        finally:
            if waiting:
                _waiting.release()

    def ahead(self, key: str, lang: str, parts: Callable[[], Parts]) -> None:
        """Queue the sheet ``key`` describes at a lower priority than the downloads, unless it
        is kept or claimed already or ``AHEAD_LIMIT`` were queued in this ``AHEAD_PER``.
        A download asking for it meanwhile waits for it. Drawn inline without a render
        process."""
        name = _name(key)
        if self.huey.storage.has_data_for_key(name):
            return
        try:
            self.rate.acquire()
        except RateLimitExceeded:
            return
        self._ask(name, lang, parts, AHEAD)

    def _result(self, name: str, again: bool = False) -> bytes | None:
        """The kept sheet ``name``, None when there is none yet (``again``: nor a failed
        drawing, which is forgotten so that this request asks for it once more).

        :raises SheetRefused: what was asked cannot be drawn.
        :raises SheetFailed: the drawing failed (the requests that waited for it are told).
        """
        data = self.huey.get(name, peek=True)
        if data is None:
            return None
        if isinstance(data, Error):
            if again:
                self.huey.delete(name)
                return None
            raise SheetFailed(str(data.metadata.get("error")))
        if isinstance(data, dict):
            raise SheetRefused(data["refused"])
        assert isinstance(data, bytes)
        return data

    def _ask(
        self,
        name: str,
        lang: str,
        parts: Parts | Callable[[], Parts],
        priority: int,
    ) -> None:
        """Queue the drawing of ``name`` unless another request has (its claim)."""
        claim = _claim(name)
        if not self.huey.put_if_empty(claim, time.time()):
            since = self.huey.get(claim, peek=True)
            if since is None or time.time() - since < CLAIM_STALE:
                return  # being drawn (or just drawn): wait for it
            log.warning("a sheet's claim is %.0f s old: drawn again", time.time() - since)
            self.huey.delete(claim)  # its render process died with it
            if not self.huey.put_if_empty(claim, time.time()):
                return
        try:
            if self.huey.storage.has_data_for_key(name):  # stored just before the claim
                self.huey.delete(claim)
                return
            jobs = list(parts() if callable(parts) else parts)
            if not jobs:
                raise SheetRefused("nothing to draw")
            if len(jobs) == 1:
                ((kind, arguments),) = jobs
                task = self.draw.s(kind, lang, dict(arguments), id=name, priority=priority)
                self.huey.enqueue(task)
            else:
                pieces = [self.draw.s(k, lang, dict(a), priority=priority) for k, a in jobs]
                self.huey.enqueue(group(pieces).then(self.merge.s(id=name, priority=priority)))
        except BaseException:
            self.huey.delete(claim)
            raise

    def trim(self) -> None:
        """Drop the sheets beyond the newest ``KEEP``: one statement on the storage table's
        row ids (a result stored again is a new row: the row ids are the order of storing)."""
        self.huey.storage.sql(
            "delete from kv where queue = ? and key like 'sheet:%' and rowid <= ("
            "select rowid from kv where queue = ? and key like 'sheet:%' "
            "order by rowid desc limit 1 offset ?)",
            ("sheets", "sheets", KEEP),
            commit=True,
        )

    def idle(self, timeout: float = 60.0) -> bool:
        """Wait until nothing is queued or being drawn (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            claims = self.huey.storage.sql(
                "select count(*) from kv where queue = ? and key like 'claim:%'",
                ("sheets",),
                results=True,
            )[0][0]
            if not claims and not self.huey.pending_count():
                return True
            time.sleep(POLL)
        return False


#: Request threads of this process waiting for sheets (a forked server process has its own).
_waiting = threading.BoundedSemaphore(WAITING)

_queues: dict[tuple[int, Path, bool], RenderQueue] = {}
_queues_lock = threading.Lock()


def renderers(app: Flask) -> int:
    """The render process's workers: ``SHEET_RENDERERS``, else ``RENDERERS``."""
    return int(app.config.get("SHEET_RENDERERS", RENDERERS))


def queued(app: Flask) -> bool:
    """Does a render process draw this app's sheets (``serving``)?"""
    return bool(app.config.get("SHEET_QUEUE")) and renderers(app) > 0


def queue_for(app: Flask) -> RenderQueue:
    """This process's handle on the app's render queue (each process its own connection)."""
    folder = Path(app.instance_path)
    ident = (os.getpid(), folder, not queued(app))
    with _queues_lock:
        found = _queues.get(ident)
        if found is None:
            found = _queues[ident] = RenderQueue(folder, inline=ident[2])
        return found


@contextmanager
def serving(app: Flask) -> Iterator[None]:
    """Run the app's render process while the server runs (``companion serve``, before the
    server processes are forked: they inherit ``SHEET_QUEUE``). Waits until it is warm, at
    most ``WARM_WAIT`` seconds; stops it afterwards, however the server ended."""
    size = renderers(app)
    if size <= 0:
        yield
        return
    process = start(Path(app.instance_path), size)
    if process.poll() is not None:
        log.error("the sheets' render process ended at once: sheets are drawn inline")
        yield
        return
    app.config["SHEET_QUEUE"] = True
    try:
        yield
    finally:
        app.config["SHEET_QUEUE"] = False
        stop(process)


def start(folder: Path, size: int, wait: float = WARM_WAIT) -> subprocess.Popen[bytes]:
    """Start the render process of ``folder`` with ``size`` workers and wait until it is warm
    (at most ``wait`` seconds; it says so on a pipe)."""
    folder.mkdir(parents=True, exist_ok=True)
    RenderQueue(folder, inline=False).huey.storage.close()  # the tables, made once
    ready, told = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-m", __name__, str(folder), str(size), str(told)],
        pass_fds=(told,),
    )
    os.close(told)
    try:
        select.select([ready], [], [], wait)  # a byte when warm, or the end: it failed
    finally:
        os.close(ready)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the render process: a sheet being drawn is given up (the server has stopped)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _orphaned(parent: int) -> None:
    """End this process when ``parent`` is gone, however that went (even SIGKILL): a watch
    of its own in the render process and in every process it forks (Huey's scheduler and
    workers), so none is left behind."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="render-parent").start()


def _render_process(folder: Path, size: int, told: int) -> None:
    """The render process: warm up, give way to the pages, tell the server, and run Huey's
    consumer, whose workers are forked from this warm process."""
    from companion.adapters.sheets.warm import warm_up

    _orphaned(os.getppid())
    os.register_at_fork(after_in_child=lambda: _orphaned(os.getppid()))
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops it (Ctrl+C reaches all)
    try:
        warm_up()
    except Exception:  # a render process that could not warm up still draws, only slower
        log.exception("the sheet renderers could not warm up")
    os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
    # What the warm-up made is shared with the forked workers: kept out of their garbage
    # collections, which would otherwise write to (and so copy) every page of it.
    gc.freeze()
    queue = RenderQueue(folder, inline=False)
    queue.huey.storage.sql(  # claims of a render process that died: their sheets never come
        "delete from kv where queue = ? and key like 'claim:%'", ("sheets",), commit=True
    )
    consumer = queue.huey.create_consumer(
        workers=size,
        worker_type="process",
        periodic=False,
        initial_delay=POLL,
        backoff=1.0,
        max_delay=POLL,
        max_tasks=TASKS_PER_RENDERER,
        graceful_signal="INT",
    )
    consumer.start()  # forks the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Huey's graceful stop: the server stops it
    try:
        os.write(told, b"1")
        os.close(told)
    except OSError:  # the server is gone already: the watch ends this process
        pass
    checked = time.monotonic()
    while True:  # Huey's Consumer.run, with the signals above
        try:
            checked = consumer.loop(checked)
        except ConsumerStopped:
            break
    queue.huey.notify_interrupted_tasks()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.adapters.render_queue FOLDER WORKERS FD`` (``start`` runs it)."""
    parser = argparse.ArgumentParser(description="The sheets' render process.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("workers", type=int)
    parser.add_argument("told", type=int)
    args = parser.parse_args(argv)
    _render_process(args.folder, args.workers, args.told)
    return 0


if __name__ == "__main__":  # run as the module itself: its tasks are named by it
    from companion.adapters.render_queue import main as run

    raise SystemExit(run())
