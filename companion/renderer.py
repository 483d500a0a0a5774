"""Score sheets rendered outside the request threads, once per match revision, ready early.

WeasyPrint needs a second or two of one core for a full sheet. Rendered in a request thread,
twenty downloads at once held every page of the table up (issue 9). So:

- Each server process renders in a small pool of its own worker processes
  (``SHEET_RENDERERS``, default ``RENDERERS``, lowered in priority), so at most that many
  sheets per server process take a core, and a request thread only waits; the pages keep
  answering.
- ``companion serve`` starts them with the server process (``start``), each warming up as it
  starts: WeasyPrint imported, a tiny sheet of every game drawn in every language, so fonts,
  stylesheet and templates are loaded before the first table asks (issue 26: the first
  sheets of a fresh server took 2 s, the later ones 0.3 s). Elsewhere (tests, the command
  line) a pool starts cold on the first sheet.
- A sheet is kept on disk in the instance folder (``sheets/``), named by a hash of what it
  shows: the match's read-only token and revision, the language, the paper and the
  address its QR code points to. Every server process finds it there: a second download of
  an unchanged match costs no render. A blank sheet is kept by its query the same way.
- Twenty requests for the same sheet at the same moment wait on one render, in whichever
  server process they arrive: the process making it holds a lock file next to it, and
  another process waits for that lock and then reads the kept file.
- A saved round's sheet is made ahead, in the background (``ahead``), so the download that
  usually follows a save finds it made, or being made.
- A sheet may be made of parts drawn by several renderers at once and merged (an event's
  fifty tables: ``document``).
- At most ``WAITING`` request threads of a server process wait for sheets; one more gets
  503 and "try again in a moment", so threads are always left for the pages.
- ``SHEET_RENDERERS=0`` renders in the request thread (a debugging aid).
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.sharedctypes import SynchronizedArray
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Sheets kept on disk per instance; the oldest go first beyond this.
KEEP = 2000
#: How much lower the renderers' priority is than the pages' (os.nice).
NICENESS = 10
#: A renderer process is replaced after this many sheets (WeasyPrint's caches grow).
TASKS_PER_RENDERER = 200
#: Renderers per server process unless ``SHEET_RENDERERS`` says otherwise: two, so an
#: event's sheets are drawn on two cores, and a sheet made ahead leaves one free.
RENDERERS = 2
#: How long ``companion serve`` lets a server process wait for its renderers to warm up
#: before it takes requests anyway (seconds; an idle machine needs one or two).
WARM_WAIT = 15.0
#: Sheets made ahead that may wait for a renderer, per server process; beyond it the oldest
#: is dropped (it is made when asked for).
AHEAD = 32
#: Sheets a server process makes ahead: at most AHEAD_RATE a second on average, AHEAD_BURST
#: at once. A club night saves a round every few minutes a table (50 tables: about 0.3 a
#: second, every one made ahead); under a storm of saves (bench/event_load.py: 17 a second)
#: making each ahead would keep the renderers and the server busy and slow the pages, so
#: most are left to be made when asked for.
AHEAD_RATE = 0.25
AHEAD_BURST = 10.0
#: How long a server process waits for another one making the same sheet (seconds) before
#: it makes the sheet itself.
LOCK_WAIT = 60.0

#: A sheet's parts: what to render (``render``'s kind) and with what.
Parts = Sequence[tuple[str, Mapping[str, Any]]]


#: Request threads of one server process that may wait for a sheet at once; the others
#: stay free for the pages (companion.server.THREADS is 32). Beyond it: SheetsBusy.
WAITING = 24


class SheetsBusy(Exception):
    """So many sheets are being made that this request may not wait for one more."""


class SheetRefused(Exception):
    """The sheet cannot be made from what was asked; ``message`` says why, in words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _renderer_start(counts: SynchronizedArray[int] | None = None, size: int = 0) -> None:
    """A renderer gives way to the pages (lower priority), ignores Ctrl+C (the server stops
    it when it stops; Ctrl+C reaches every process of the terminal's group) and ends when
    the server process that started it is gone, however that went (even SIGKILL).

    With ``counts`` (``start``: [renderers started, renderers warm]) each of the first
    ``size`` renderers draws a tiny sheet of every game before it takes any work, at the
    server's priority (the server process takes no request until one is warm; the first
    sheet lowers the others, ``_give_way``), then gives way and counts itself warm. One that
    replaces a renderer later (``TASKS_PER_RENDERER``, or one killed) starts cold and lowered,
    so the sheet waiting for it does not wait for a warm-up too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    index = size
    if counts is not None:
        with counts.get_lock():
            index = counts[0]
            counts[0] += 1
    if index >= size:
        _lower(parent)

    def orphaned() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True, name="renderer-parent").start()
    if counts is not None and index < size:
        from companion.sheets.render import warm_up

        try:
            warm_up()
        except Exception:  # a renderer that could not warm up still renders, only slower
            log.exception("a sheet renderer could not warm up")
        _lower(parent)
        with counts.get_lock():
            counts[1] += 1


def _lower(parent: int) -> None:
    """NICENESS below the server (the server may have lowered it already: _give_way)."""
    try:
        target = os.getpriority(os.PRIO_PROCESS, parent) + NICENESS
        if os.getpriority(os.PRIO_PROCESS, 0) < target:
            os.setpriority(os.PRIO_PROCESS, 0, target)
    except OSError:
        pass


def _ready() -> int:
    """Nothing: ``start`` submits it, and the pool starts a renderer for it."""
    return os.getpid()


def render(kind: str, lang: str, arguments: Mapping[str, Any]) -> bytes:
    """Make a sheet (in a renderer process) in ``lang``: ``match``, ``blank``, ``tables``
    (several matches' sheets, an event's), ``cards`` (an event's table cards), or ``merge``
    (PDFs made in parts, one after the other)."""
    from companion.catalogues import translator
    from companion.rules import EntryError
    from companion.sheets import blank_sheet, match_sheet
    from companion.sheets.event import table_cards
    from companion.sheets.filled import match_sheets
    from companion.sheets.render import merge_pdfs

    tr = translator(lang)
    try:
        if kind == "match":
            return match_sheet(tr=tr, **arguments)
        if kind == "tables":
            return match_sheets(tr=tr, **arguments)
        if kind == "cards":
            return table_cards(tr=tr, **arguments)
        if kind == "merge":
            return merge_pdfs(arguments["parts"])
        return blank_sheet(tr=tr, **arguments)
    except EntryError as err:  # carried back as words: EntryError does not pickle
        raise SheetRefused(err.first.message(tr)) from None


class Renderer:
    """One server process's renderers, its sheets in flight and its sheets to make ahead."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._pool_size = 0
        self._pid = 0
        self._inflight: dict[Path, Future[bytes]] = {}
        self.renders = 0  # sheets (parts, merges) this process had made (benchmarks, tests)
        self._waiting = threading.BoundedSemaphore(WAITING)
        self._lowered: set[int] = set()  # renderers already lowered in priority
        self._warm = False  # renderers warm up as they start (``start``)
        self._counts: SynchronizedArray[int] | None = None  # renderers started, warm
        self._jobs: OrderedDict[Hashable, Callable[[], object]] = OrderedDict()
        self._wake = threading.Condition(self._lock)
        self._ahead_pid = 0
        self._running = False  # the background thread is making a sheet

    def _executor(self, size: int) -> ProcessPoolExecutor:
        """The pool (made on first use, in this process: a forked worker gets its own)."""
        if self._pool is None or self._pid != os.getpid() or self._pool_size != size:
            context = multiprocessing.get_context("spawn")
            warm = self._warm and self._pid in (0, os.getpid())  # not a forked copy's wish
            self._counts = context.Array("i", 2) if warm else None
            self._pool = ProcessPoolExecutor(
                max_workers=size,
                mp_context=context,
                initializer=_renderer_start,
                initargs=(self._counts, size),
                max_tasks_per_child=TASKS_PER_RENDERER,
            )
            self._pid, self._pool_size = os.getpid(), size
        return self._pool

    @property
    def warm(self) -> bool:
        """Were this process's renderers started warm (``start``: ``companion serve``)?"""
        return self._warm and self._pid in (0, os.getpid())

    def start(self, size: int, wait: float = WARM_WAIT) -> bool:
        """Start this process's ``size`` renderers now, warming up, and wait until one is
        warm, at most ``wait`` seconds: True when it is (``companion serve``, in each server
        process before it takes requests, so even its first sheets find a warm renderer: one
        still warming up takes no work). Each gives way to the pages once warm, or when the
        first sheet is asked for."""
        if size <= 0:
            return True
        with self._lock:
            self._warm = True  # this pool, and one replacing it (a renderer was killed)
            pool = self._executor(size)
            for _ in range(size):  # a pool starts a renderer for a task none is free for
                pool.submit(_ready)
            counts = self._counts
        deadline = time.monotonic() + wait
        while counts is not None and counts[1] < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        return counts is None or counts[1] >= 1

    def shutdown(self) -> None:
        """Stop this process's renderers (the server worker is exiting)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None and self._pid == os.getpid():
            pool.shutdown(wait=False, cancel_futures=True)

    def _submit(
        self, size: int, kind: str, lang: str, arguments: Mapping[str, Any]
    ) -> Future[bytes]:
        if size <= 0:
            self.renders += 1
            done: Future[bytes] = Future()
            try:
                done.set_result(render(kind, lang, arguments))
            except SheetRefused as err:
                done.set_exception(err)
            return done
        with self._lock:
            try:
                future = self._executor(size).submit(render, kind, lang, dict(arguments))
            except BrokenProcessPool:  # a renderer died (killed, out of memory): start afresh
                self._pool = None
                future = self._executor(size).submit(render, kind, lang, dict(arguments))
            self.renders += 1
            self._give_way()
        return future

    def _give_way(self) -> None:
        """Lower a renderer's priority from here as soon as it exists: its own ``os.nice`` runs
        only after it has imported WeasyPrint, which takes a core for half a second."""
        # This process's children of multiprocessing's making are its renderers.
        pids = {child.pid for child in multiprocessing.active_children() if child.pid}
        self._lowered &= pids  # a renderer replaced after TASKS_PER_RENDERER is forgotten
        for pid in pids:
            if pid not in self._lowered:
                self._lowered.add(pid)
                try:
                    os.setpriority(
                        os.PRIO_PROCESS, pid, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
                    )
                except OSError:  # gone already, or not allowed: its own nice still runs
                    pass

    def sheet(
        self,
        folder: Path,
        key: str,
        kind: str,
        lang: str,
        arguments: Mapping[str, Any],
        *,
        renderers: int = RENDERERS,
        waiting: bool = True,
    ) -> bytes:
        """The sheet named by ``key``: from ``folder`` if made before, else rendered now.

        :raises SheetRefused: the sheet cannot be made (a blank sheet's bad names).
        :raises SheetsBusy: ``WAITING`` requests of this process already wait for sheets.
        """
        return self.document(
            folder, key, lang, [(kind, arguments)], renderers=renderers, waiting=waiting
        )

    def document(
        self,
        folder: Path,
        key: str,
        lang: str,
        parts: Parts | Callable[[], Parts],
        *,
        renderers: int = RENDERERS,
        waiting: bool = True,
    ) -> bytes:
        """The PDF named by ``key``: from ``folder`` if made before, else its ``parts`` (or
        what ``parts()`` returns, asked only now) rendered at once, one renderer each, and
        merged in their order. ``waiting``: counts among the ``WAITING`` requests.

        :raises SheetRefused: the sheet cannot be made (a blank sheet's bad names).
        :raises SheetsBusy: ``WAITING`` requests of this process already wait for sheets.
        """
        path = folder / (hashlib.sha256(key.encode()).hexdigest() + ".pdf")
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        if not waiting:
            return self._made(path, lang, parts, renderers)
        if not self._waiting.acquire(blocking=False):
            raise SheetsBusy()
        try:
            return self._made(path, lang, parts, renderers)
        finally:
            self._waiting.release()

    def _made(
        self, path: Path, lang: str, parts: Parts | Callable[[], Parts], renderers: int
    ) -> bytes:
        with self._lock:
            future = self._inflight.get(path)
            owner = future is None
            if future is None:
                future = self._inflight[path] = Future()
        if not owner:
            return future.result()
        try:
            data = self._make(path, lang, parts, renderers)
            future.set_result(data)
            return data
        except BaseException as err:
            future.set_exception(err)
            raise
        finally:  # kept before the render stops being in flight: no gap
            with self._lock:
                self._inflight.pop(path, None)

    def _make(
        self, path: Path, lang: str, parts: Parts | Callable[[], Parts], renderers: int
    ) -> bytes:
        with _exclusive(path):  # another server process making it: wait, then read it
            try:
                return path.read_bytes()
            except FileNotFoundError:
                pass
            jobs = parts() if callable(parts) else parts
            futures = [self._submit(renderers, kind, lang, args) for kind, args in jobs]
            if not futures:
                raise SheetRefused("nothing to draw")
            pieces = [future.result() for future in futures]
            if len(pieces) == 1:
                data = pieces[0]
            else:
                data = self._submit(renderers, "merge", lang, {"parts": pieces}).result()
            keep(path, data)
            return data

    def ahead(self, ident: Hashable, job: Callable[[], object]) -> None:
        """Run ``job`` (which makes a sheet) soon, in this process's background thread, one
        job at a time (a sheet made ahead takes one renderer and leaves the others to the
        downloads) and at most ``AHEAD_RATE`` a second. A newer job for the same ``ident``
        (the match, in a language, on a paper) replaces one still waiting; beyond ``AHEAD``
        waiting, the oldest is dropped."""
        with self._wake:
            if self._ahead_pid != os.getpid():  # none yet, or a forked copy's
                self._jobs = OrderedDict()
                self._ahead_pid = os.getpid()
                threading.Thread(target=self._run_ahead, daemon=True, name="sheets-ahead").start()
            self._jobs.pop(ident, None)
            self._jobs[ident] = job
            while len(self._jobs) > AHEAD:
                self._jobs.popitem(last=False)
            self._wake.notify()

    def _run_ahead(self) -> None:
        tokens, then = AHEAD_BURST, time.monotonic()
        while True:
            with self._wake:
                self._running = False
                while not self._jobs:
                    self._wake.wait()
            now = time.monotonic()
            tokens, then = min(AHEAD_BURST, tokens + (now - then) * AHEAD_RATE), now
            if tokens < 1:  # AHEAD_RATE: the jobs wait (the newest per match), or are dropped
                time.sleep((1 - tokens) / AHEAD_RATE)
                continue
            with self._wake:
                _ident, job = self._jobs.popitem(last=False)
                self._running = True
            tokens -= 1
            try:
                job()
            except Exception:  # the download makes it, or says why
                log.warning("a sheet made ahead failed", exc_info=True)

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until no sheet is waiting to be made ahead or in flight (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._jobs and not self._running and not self._inflight:
                    return True
            time.sleep(0.02)
        return False


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold the lock file of the sheet at ``path`` while it is made, so that another server
    process asking for it waits and then reads it instead of rendering it a second time.
    Given up after ``LOCK_WAIT`` seconds (then the sheet is made twice, never wrong: a
    sheet is written whole or not at all)."""
    lock = path.with_name(f".{path.stem}.lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    held = False
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while not held:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
        yield
    finally:
        if held:  # the sheet is kept by now (or failed): the next asker reads it
            lock.unlink(missing_ok=True)
        os.close(fd)  # and the lock is released with it


def keep(path: Path, data: bytes) -> None:
    """Write a sheet where every server process finds it: whole or not at all, owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(partial, path)
    _prune(path.parent)


def _prune(folder: Path) -> None:
    """Forget the oldest sheets beyond ``KEEP`` (they are made again when asked for)."""
    sheets = list(folder.glob("*.pdf"))
    if len(sheets) <= KEEP:
        return
    sheets.sort(key=lambda p: p.stat().st_mtime if p.exists() else 0)
    for old in sheets[: len(sheets) - KEEP]:
        old.unlink(missing_ok=True)


#: This process's renderer (the server's worker processes each have their own after fork).
renderer = Renderer()
