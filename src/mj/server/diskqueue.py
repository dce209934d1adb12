"""Disk work off the event loop: worker threads write save files and sync the journal, in order.

A save is encoded in the loop (it is the table's state at that moment) and handed
over here; writing and ``fsync`` happen in the thread, so that no client waits on
the disk. A file queued again before it was written is written once, with the
latest data: however fast saves come, the queue holds at most one text per file
name, and the table bounds the names (:data:`mj.table.MAX_SAVE_NAMES`).

The journal writes in the loop (a killed process then loses nothing sent) and only
its ``fsync`` at the end of a hand, which waits on the disk, is handed to a
:class:`SyncQueue`.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

#: Writes ``data`` to ``path`` with ``mode`` (:func:`mj.server.saver.write_atomically`).
Write = Callable[[Path, bytes, int], None]


Item = TypeVar("Item")


class _Worker(Generic[Item]):
    """One worker thread doing queued disk work in order; :meth:`close` waits until all is done.

    Subclasses keep the queue: :meth:`_next` takes the next item (under the lock),
    :meth:`_do` does it (outside the lock, so the loop can queue more meanwhile).
    """

    def __init__(self, name: str) -> None:
        self._changed = threading.Condition()
        self._closing = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def close(self) -> None:
        """Do what is queued, then stop the thread."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        self._thread.join()

    def _queued(self) -> bool:
        raise NotImplementedError

    def _next(self) -> Item:
        raise NotImplementedError

    def _do(self, item: Item) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._queued() and not self._closing:
                    self._changed.wait()
                if not self._queued():
                    return
                item = self._next()
            self._do(item)


class DiskQueue(_Worker[tuple[Path, bytes, int]]):
    """Writes queued files, in the order of their last save."""

    def __init__(self, write: Write) -> None:
        super().__init__("mj-saves")
        self._write = write
        self._pending: dict[Path, tuple[bytes, int]] = {}
        self._thread.start()

    def write(self, path: Path, data: bytes, mode: int) -> None:
        """Queue ``data`` for ``path``, replacing what was queued for it and not yet written."""
        with self._changed:
            self._pending.pop(path, None)  # to the end: files are written in the order of their last save
            self._pending[path] = (data, mode)
            self._changed.notify()

    def _queued(self) -> bool:
        return bool(self._pending)

    def _next(self) -> tuple[Path, bytes, int]:
        path = next(iter(self._pending))
        data, mode = self._pending.pop(path)
        return path, data, mode

    def _do(self, item: tuple[Path, bytes, int]) -> None:
        path, data, mode = item
        try:
            self._write(path, data, mode)
        except OSError as exc:
            print(f"+W+ unable to save state to {path.name}: {exc}", file=sys.stderr, flush=True)


class SyncQueue(_Worker[int]):
    """Calls ``fsync``, in order.

    It is handed a duplicate of the descriptor, closed once synced, so the loop may
    close or replace its own meanwhile. A failure is one line on standard error,
    prefixed by ``what``.
    """

    def __init__(self, what: str) -> None:
        super().__init__("mj-syncs")
        self._what = what
        self._pending: list[int] = []
        self._thread.start()

    def sync(self, fd: int) -> None:
        """Queue an ``fsync`` of the file open as ``fd``; :class:`OSError` if it cannot be duplicated."""
        duplicate = os.dup(fd)
        with self._changed:
            self._pending.append(duplicate)
            self._changed.notify()

    def _queued(self) -> bool:
        return bool(self._pending)

    def _next(self) -> int:
        return self._pending.pop(0)

    def _do(self, item: int) -> None:
        try:
            os.fsync(item)
        except OSError as exc:
            print(f"+W+ {self._what}: {exc}", file=sys.stderr, flush=True)
        finally:
            os.close(item)
