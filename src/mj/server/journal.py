"""``mj-server --journal FILE``: the game kept on disk as it happens, so that ``kill -9`` loses no move.

The journal is at every moment the save file the table would write (``save_text``),
so ``--load-game FILE`` resumes from it at the last move and the players rejoin as
after ``--save-on-exit``. Within a hand only the history grows: the new items are
appended with one ``write`` per event (in the kernel at once, so a killed process
loses nothing; a write cut short by the kill leaves half a line, which the save-file
reader drops). When anything before the history changes (a new hand, a name, an
option) the file is rewritten whole, atomically. The file is synced to the disk
when it is rewritten, when a hand is settled and when the server stops, against a
power cut losing more than the hand in progress. The sync of a settled hand is a
worker thread's (:class:`~mj.server.diskqueue.SyncQueue`): the loop does not wait
on the disk for it, and the appends that follow go on meanwhile, in order. A
rewrite stays in the loop, its ``fsync`` before its rename: renaming first would
put the whole game at risk of a power cut on file systems that do not order a
rename after the data it brings.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from mj.outputfile import OutputFileError, check_replaceable
from mj.protocol import cmsg as C
from mj.protocol.framing import ENCODING
from mj.savefile import format_save
from mj.server.diskqueue import SyncQueue
from mj.server.saver import write_atomically
from mj.table import Table


class Journal:
    """The journal file of one table; :meth:`record` is the table's ``journal`` hook."""

    def __init__(self, path: Path, mode: int = 0o644) -> None:
        self.path = path
        self.mode = mode
        self._head = ""
        self._items = 0
        self._history: list[C.CMsg] | None = None
        self._fd: int | None = None
        self._failed = False
        #: What the head was made of when last compared (see :meth:`_head_changed`).
        self._key: tuple[object, ...] | None = None
        self._syncs = SyncQueue(f"cannot sync the journal {path}")

    @classmethod
    def start(cls, path: Path, table: Table) -> Journal:
        """The journal of ``table`` at ``path``, written now (empty until a game exists); :class:`OSError` if not.

        ``path`` must be a regular file or not exist (:class:`~mj.outputfile.OutputFileError`):
        it is replaced by renaming, which would put a file in the place of a FIFO or a device.
        """
        if str(path) == "-":
            raise OutputFileError("a journal is a file for --load-game to read, not the standard output")
        check_replaceable(path)
        journal = cls(path)
        journal._rewrite(table)
        table.journal = journal.record
        return journal

    def record(self, table: Table) -> None:
        """After an event: append the hand's new history items, or rewrite the file if more has changed."""
        game = table.game
        if game is None:
            return
        history = game.history if game.hands_started else []
        try:
            if self._head_changed(table) or history is not self._history or len(history) < self._items:
                self._rewrite(table)
            elif len(history) > self._items:
                added = history[self._items :]
                assert self._fd is not None
                os.write(self._fd, format_save(added).encode(ENCODING, errors="replace"))
                self._items = len(history)
                if any(isinstance(item, C.Settlement | C.WashOut) for item in added):
                    self._syncs.sync(self._fd)
            self._failed = False
        except OSError as exc:
            if not self._failed:  # once per run of failures, not once per move
                print(f"+W+ cannot write the journal {self.path}: {exc}", file=sys.stderr)
            self._failed = True
            self._head, self._key = "", None  # rewrite the whole file at the next event

    def close(self) -> None:
        """Sync and close the file (the server stops)."""
        self._syncs.close()
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None

    def _head_changed(self, table: Table) -> bool:
        """Whether what precedes the history in the save file changed since it was written.

        Within a hand that is told by what the head is made of, compared by identity
        first (a few hundred events a hand: formatting the head each time would double
        the server's CPU); before the first hand, by the head's text.
        """
        game = table.game
        assert game is not None
        if not game.hands_started:
            self._key = None
            return format_save(table.save_parts()[0]) != self._head
        key = (game.hand_start, game.completed_rounds, game.options.entries(), [(r.id, r.name) for r in table.players])
        if self._key is not None and key == self._key:
            return False
        self._key = key
        return format_save(table.save_parts()[0]) != self._head

    def _rewrite(self, table: Table) -> None:
        if table.game is None:
            head: list[C.CMsg] = []
            history: list[C.CMsg] = []
        else:
            head, history = table.save_parts()
        head_text = format_save(head)
        write_atomically(self.path, (head_text + format_save(history)).encode(ENCODING, errors="replace"), self.mode)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0))
        if self._fd is not None:
            os.close(self._fd)
        self._fd = fd
        self._head, self._history, self._items = head_text, history, len(history)
