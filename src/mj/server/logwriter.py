"""The ``--logfile`` protocol log, written in the original's format (protocol.md §12.1).

Entries are formatted by :mod:`mj.logfile`, so ``mj replay`` reads back exactly
what is written here and a log of our server can be replayed and compared with
the original's. The file is opened in append mode like the original's, ``-``
meaning standard output. A failing log (disk full) costs a warning, never the game.

A game logs a few hundred lines per hand, so each entry's head (``>cnx3 ``) is
formatted once per connection and reused, a sent message whose wire bytes are its
entry is not encoded again, and entries are gathered as bytes and written at each
:meth:`LogWriter.flush`, in one piece. The server flushes at the
end of each wake-up, before sending, so a harness that watches the log (to connect
robots in order) sees every line no later than its recipient does; whoever writes
entries must flush or close the writer at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO, Final

from mj.logfile import RISKY_STARTS, Direction, LogEntry, escape, format_entry, needs_escape
from mj.outputfile import open_appending
from mj.protocol.framing import ENCODING, encode_line

#: What ends each sent message in the log.
SENT_TERMINATOR: Final = LogEntry(">", 0, "").terminator
#: How many bytes the wire's terminator adds to a message's text.
_WIRE_TERMINATOR: Final = len(encode_line(""))
#: Pieces of entries (two each) gathered before they are written even without a flush: a bound on memory.
MAX_PENDING: Final = 2048


class LogWriter:
    """Appends entries to one log stream."""

    def __init__(self, stream: BinaryIO, owned: bool) -> None:
        self._stream = stream
        self._owned = owned
        self._failed = False
        #: The heads of each direction's entries, by connection.
        self._heads: dict[Direction, dict[int, bytes]] = {"<": {}, ">": {}}
        self._pending: list[bytes] = []

    @classmethod
    def open(cls, name: str) -> LogWriter:
        """The log named on the command line; ``-`` is standard output (left open at the end).

        Anything else must be a regular file (or the null device): :class:`~mj.outputfile.OutputFileError`.
        """
        if name == "-":
            sys.stdout.flush()
            return cls(sys.stdout.buffer, owned=False)
        return cls(open_appending(Path(name)), owned=True)

    def received(self, connection: int, raw: str) -> None:
        """A line as received, after unescaping, with its own terminator (CR LF, LF, or none at the end).

        A line that could pass for other entries is escaped (:mod:`mj.logfile`); the
        test for it looks at the whole line only if it starts so or holds a line break.
        """
        if raw.startswith(RISKY_STARTS) or raw.find("\n") != len(raw) - 1:
            text = raw.removesuffix("\n").removesuffix("\r")
            if needs_escape(text):
                raw = escape(text) + raw[len(text) :]
        self._write(self._head("<", connection), _encoded(raw))

    def end_of_file(self, connection: int) -> None:
        """The connection ended: ``<cnxK (null)`` with no newline, as the original writes it."""
        self._write(b"", _encoded(format_entry(LogEntry("<", connection, None))))

    def sent(self, connection: int, text: str, wire: bytes | None = None) -> None:
        """A message sent, as encoded before framing (real newlines, CR LF at the end).

        ``wire``, the message's bytes on the wire if at hand, are that very entry
        unless the framing escaped something, which always lengthens the text.
        """
        if wire is None or len(wire) != len(text) + _WIRE_TERMINATOR or text.startswith(RISKY_STARTS):
            wire = _encoded((escape(text) if needs_escape(text) else text) + SENT_TERMINATOR)
        self._write(self._head(">", connection), wire)

    def flush(self) -> None:
        """Write the entries gathered so far and flush the stream."""
        if self._failed:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        try:
            self._stream.write(data)
            self._stream.flush()
        except OSError as exc:
            self._fail(exc)

    def close(self) -> None:
        self.flush()
        if self._owned:
            try:
                self._stream.close()
            except OSError as exc:
                self._fail(exc)

    def _head(self, direction: Direction, connection: int) -> bytes:
        """The start of an entry, up to its text: :func:`format_entry` of an empty entry."""
        heads = self._heads[direction]
        head = heads.get(connection)
        if head is None:
            head = heads[connection] = _encoded(format_entry(LogEntry(direction, connection, "", "")))
        return head

    def _write(self, head: bytes, rest: bytes) -> None:
        if self._failed:
            return
        pending = self._pending
        pending.append(head)
        pending.append(rest)
        if len(pending) >= MAX_PENDING:
            self.flush()

    def _fail(self, exc: OSError) -> None:
        if not self._failed:
            print(f"+W+ log file write failed, logging stopped: {exc}", file=sys.stderr)
        self._failed = True


def _encoded(text: str) -> bytes:
    return text.encode(ENCODING, errors="replace")
