"""The server's ``--logfile`` format (protocol.md §12.1): read it and write it byte for byte.

Each entry is ``<cnxK `` plus a received line, or ``>cnxK `` plus a sent message,
K being the connection slot. Texts are logged after unescaping, so a multi-line
message shows real line breaks and the log has no record separator other than the
next entry's prefix: an entry starts only at the beginning of a line that reads
``<cnxK `` or ``>cnxK ``, or right after the ``(null)`` that marks an end of file
(the original writes no newline after it).

A text can come from a client (a received line, a chat message, a name) and could
then pass for the server's own entries: a line ``(null)>cnx1 Message ...`` or one
continued onto a line that starts ``>cnx1 ``. Only such texts, which no game of the
original's clients sends, are written escaped (:func:`escape`): :data:`ESCAPED` then
backslash escapes for backslashes and line breaks, so that the entry stays on one
line; every other entry is written as the original writes it, byte for byte.

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

#: The start of an escaped entry's text.
ESCAPED: Final = "(escaped) "
#: Texts starting so may be misread (``(null)`` ends an entry, and :data:`ESCAPED` marks one).
RISKY_STARTS: Final = (EOF_TEXT, ESCAPED)

_HEAD: Final = re.compile(r"([<>])cnx([0-9]+) ")
_NEXT_HEAD: Final = re.compile(r"\n(?=[<>]cnx[0-9]+ )")
_ESCAPES: Final = {"\\": "\\", "n": "\n", "r": "\r"}
_ESCAPE: Final = re.compile(r"\\(.)", re.DOTALL)


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


def needs_escape(text: str) -> bool:
    """Whether ``text`` written as it is could be read as more than one entry, or as another one."""
    return text.startswith(RISKY_STARTS) or ("\n" in text and _NEXT_HEAD.search(text) is not None)


def escape(text: str) -> str:
    """``text`` as an escaped entry's text: on one line, marked, read back by :func:`unescape`."""
    return ESCAPED + text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")


def unescape(logged: str) -> str:
    """The text an escaped entry's text stands for (a text without the mark is itself)."""
    if not logged.startswith(ESCAPED):
        return logged
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), logged[len(ESCAPED) :])


def format_entry(entry: LogEntry) -> str:
    """The entry exactly as the original server writes it (escaped if its text needs it)."""
    head = f"{entry.direction}cnx{entry.connection} "
    if entry.text is None:
        return head + EOF_TEXT
    text = escape(entry.text) if needs_escape(entry.text) else entry.text
    return head + text + entry.terminator


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
        entries.append(LogEntry(direction, connection, unescape(text), body[len(text) :]))
    return entries


def read_log(path: Path) -> list[LogEntry]:
    """The entries of the log file at ``path``."""
    with path.open(encoding=ENCODING, newline="") as file:
        return parse_log(file.read())
