"""The server's ``--logfile`` format (protocol.md §12.1): read it and write it byte for byte.

Each entry is ``<cnxK `` plus a received line, or ``>cnxK `` plus a sent message,
K being the connection slot. Texts are logged after unescaping, so a multi-line
message shows real line breaks and the log has no record separator other than the
next entry's prefix: an entry starts only at the beginning of a line that reads
``<cnxK `` or ``>cnxK ``, or right after the ``(null)`` that marks an end of file
(the original writes no newline after it). A text line of a message that itself
began with such a prefix would be misread; no message of the protocol does.

Logs are compared with the original's byte for byte, so files must be opened with
``newline=""`` (CR LF is part of the format) and the Latin-1 encoding of
:mod:`mj.protocol.framing`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from mj.protocol.framing import ENCODING

Direction = Literal["<", ">"]

#: The text of an end-of-file entry.
EOF_TEXT: Final = "(null)"

_HEAD: Final = re.compile(r"([<>])cnx([0-9]+) ")
_NEXT_HEAD: Final = re.compile(r"\n(?=[<>]cnx[0-9]+ )")


class LogFormatError(ValueError):
    """Data that does not start with a log entry where one must start."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One logged line: ``<`` received or ``>`` sent on connection slot ``connection``.

    ``text`` is None for an end of file, else the line without its terminator, with
    internal newlines as ``\\n``. ``terminator`` is what ended it in the log: CR LF
    for everything the server sends, but received lines keep the client's own
    ending (``\\n`` from LF-only clients; "" for a final entry cut short).
    """

    direction: Direction
    connection: int
    text: str | None
    terminator: str = "\r\n"


def format_entry(entry: LogEntry) -> str:
    """The entry exactly as the original server writes it."""
    head = f"{entry.direction}cnx{entry.connection} "
    if entry.text is None:
        return head + EOF_TEXT
    return head + entry.text + entry.terminator


def parse_log(data: str) -> list[LogEntry]:
    """All entries of a log, such that joining their :func:`format_entry` gives ``data`` back."""
    entries: list[LogEntry] = []
    pos = 0
    while pos < len(data):
        head = _HEAD.match(data, pos)
        if head is None:
            raise LogFormatError(f"no log entry at offset {pos}: {data[pos : pos + 20]!r}")
        direction: Direction = "<" if head.group(1) == "<" else ">"
        connection = int(head.group(2))
        start = head.end()
        after_eof = start + len(EOF_TEXT)
        if (
            direction == "<"
            and data.startswith(EOF_TEXT, start)
            and (after_eof == len(data) or _HEAD.match(data, after_eof))
        ):
            entries.append(LogEntry(direction, connection, None))
            pos = after_eof
            continue
        following = _NEXT_HEAD.search(data, start)
        pos = following.end() if following else len(data)
        body = data[start:pos]
        text = body.removesuffix("\n").removesuffix("\r")
        entries.append(LogEntry(direction, connection, text, body[len(text) :]))
    return entries


def read_log(path: Path) -> list[LogEntry]:
    """The entries of the log file at ``path``."""
    with path.open(encoding=ENCODING, newline="") as file:
        return parse_log(file.read())
