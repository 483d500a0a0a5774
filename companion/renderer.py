"""Score sheets rendered outside the request threads, once per match revision.

WeasyPrint needs a second or two of one core for a full sheet. Rendered in a request thread,
twenty downloads at once held every page of the table up (issue 9). So:

- Each server process renders in a small pool of its own worker processes
  (``SHEET_RENDERERS``, default 1, started on the first sheet, lowered in priority), so at
  most that many sheets per server process take a core, and a request thread only waits;
  the pages keep answering.
- A sheet is kept on disk in the instance folder (``sheets/``), named by a hash of what it
  shows: the match's read-only token and revision, the language, the paper and the
  address its QR code points to. Every server process finds it there: a second download of
  an unchanged match costs no render. A blank sheet is kept by its query the same way.
- Twenty requests for the same sheet at the same moment wait on one render.
- At most ``WAITING`` request threads of a server process wait for sheets; one more gets
  503 and "try again in a moment", so threads are always left for the pages.
- ``SHEET_RENDERERS=0`` renders in the request thread (a debugging aid).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

#: Sheets kept on disk per instance; the oldest go first beyond this.
KEEP = 2000
#: How much lower the renderers' priority is than the pages' (os.nice).
NICENESS = 10
#: A renderer process is replaced after this many sheets (WeasyPrint's caches grow).
TASKS_PER_RENDERER = 200


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


def _renderer_start() -> None:
    """A renderer gives way to the pages (lower priority), ignores Ctrl+C (the server stops
    it when it stops; Ctrl+C reaches every process of the terminal's group) and ends when
    the server process that started it is gone, however that went (even SIGKILL)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    try:  # NICENESS below the server (the server may have lowered it already: _give_way)
        target = os.getpriority(os.PRIO_PROCESS, parent) + NICENESS
        if os.getpriority(os.PRIO_PROCESS, 0) < target:
            os.setpriority(os.PRIO_PROCESS, 0, target)
    except OSError:
        pass

    def orphaned() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True, name="renderer-parent").start()


def render(kind: str, lang: str, arguments: Mapping[str, Any]) -> bytes:
    """Make a sheet (in a renderer process): ``match`` or ``blank``, in ``lang``."""
    from companion.catalogues import translator
    from companion.rules import EntryError
    from companion.sheets import blank_sheet, match_sheet

    tr = translator(lang)
    try:
        if kind == "match":
            return match_sheet(tr=tr, **arguments)
        return blank_sheet(tr=tr, **arguments)
    except EntryError as err:  # carried back as words: EntryError does not pickle
        raise SheetRefused(err.first.message(tr)) from None


class Renderer:
    """One server process's renderers and its sheets in flight."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._pool_size = 0
        self._pid = 0
        self._inflight: dict[Path, Future[bytes]] = {}
        self.renders = 0  # sheets this process had rendered (the benchmark and tests read it)
        self._waiting = threading.BoundedSemaphore(WAITING)
        self._lowered: set[int] = set()  # renderers already lowered in priority

    def _executor(self, size: int) -> ProcessPoolExecutor:
        """The pool (made on first use, in this process: a forked worker gets its own)."""
        if self._pool is None or self._pid != os.getpid() or self._pool_size != size:
            self._pool = ProcessPoolExecutor(
                max_workers=size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_renderer_start,
                max_tasks_per_child=TASKS_PER_RENDERER,
            )
            self._pid, self._pool_size = os.getpid(), size
        return self._pool

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
            done: Future[bytes] = Future()
            try:
                done.set_result(render(kind, lang, arguments))
            except SheetRefused as err:
                done.set_exception(err)
            return done
        try:
            future = self._executor(size).submit(render, kind, lang, dict(arguments))
        except BrokenProcessPool:  # a renderer died (killed, out of memory): start afresh
            self._pool = None
            future = self._executor(size).submit(render, kind, lang, dict(arguments))
        self._give_way()
        return future

    def _give_way(self) -> None:
        """Lower a renderer's priority from here as soon as it exists: its own ``os.nice`` runs
        only after it has imported WeasyPrint, which takes a core for half a second."""
        pids = set(getattr(self._pool, "_processes", None) or ())
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
        renderers: int = 1,
    ) -> bytes:
        """The sheet named by ``key``: from ``folder`` if made before, else rendered now.

        :raises SheetRefused: the sheet cannot be made (a blank sheet's bad names).
        :raises SheetsBusy: ``WAITING`` requests of this process already wait for sheets.
        """
        path = folder / (hashlib.sha256(key.encode()).hexdigest() + ".pdf")
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        if not self._waiting.acquire(blocking=False):
            raise SheetsBusy()
        try:
            return self._made(path, kind, lang, arguments, renderers)
        finally:
            self._waiting.release()

    def _made(
        self, path: Path, kind: str, lang: str, arguments: Mapping[str, Any], renderers: int
    ) -> bytes:
        with self._lock:
            future = self._inflight.get(path)
            owner = future is None
            if future is None:
                if path.exists():  # kept by a render that finished since this thread looked
                    return path.read_bytes()
                future = self._submit(renderers, kind, lang, arguments)
                self._inflight[path] = future
                self.renders += 1
        try:
            data = future.result()
            if owner:
                keep(path, data)  # kept before the render stops being in flight: no gap
        finally:
            if owner:
                with self._lock:
                    self._inflight.pop(path, None)
        return data


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
