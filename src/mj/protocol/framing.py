"""Lines on the wire: CR LF terminators and backslash continuation (protocol.md §1.2, §1.3).

Free-text fields (scores, settlements, chat) may hold newlines, so one message can
span several physical lines. Both directions use the original's exact escaping,
which must be reproduced byte for byte because the original clients parse it.

Text is ``str`` and bytes are mapped with Latin-1 in both directions. The protocol is
ASCII, but clients do send other bytes (names typed in a local encoding, the
garbage of the original's save files): Latin-1 maps every byte to one character and
back, so such bytes survive a round trip through the server unchanged instead of
turning into replacement characters. Characters beyond Latin-1 cannot be sent and
are written as ``?``.
"""

from __future__ import annotations

import re
from typing import Final

#: C ``isspace`` in the C locale: what the original strips and skips. Narrower than
#: ``str.isspace``, which would also eat Latin-1 characters such as NBSP.
WHITESPACE: Final = " \t\n\r\x0b\x0c"
ENCODING: Final = "latin-1"
#: Default bound on one logical line; the longest real message (a Settlement) is
#: well under a kilobyte.
MAX_LINE: Final = 64 * 1024

_ESCAPED: Final = re.compile(r"\\(.)", re.DOTALL)


class LineTooLong(ValueError):
    """A peer sent a logical line over the decoder's limit; the connection should be dropped."""


def encode_line(text: str) -> bytes:
    """The wire bytes of one message text (given without terminator).

    Backslashes are doubled and every newline of the text becomes backslash, CR, LF,
    so the reader can tell it from the CR LF that ends the message.
    """
    if "\\" in text or "\n" in text:  # rare: most messages are one plain line
        text = text.replace("\\", "\\\\").replace("\n", "\\\r\n")
    return (text + "\r\n").encode(ENCODING, errors="replace")


class LineDecoder:
    """Reassembles logical lines from the bytes of one connection as they arrive.

    Unlike the original server, which blocked on a half-sent line, it keeps partial
    lines between calls. A logical line longer than ``max_line`` bytes as received
    (escapes, continuations and terminators counted) raises :class:`LineTooLong`;
    the decoder is unusable afterwards, since the rest of that line is still to come.
    Bytes after the last newline when the peer closes are simply never returned, which
    is the original's "partial line dropped" rule.
    """

    __slots__ = ("_buffer", "_parts", "_size", "max_line")

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._parts: list[str] = []  # finished physical lines of the current logical line
        self._size = 0  # bytes received for those parts

    @property
    def partial(self) -> bool:
        """Whether a line has been started and not finished (the server gives it a deadline)."""
        return bool(self._buffer) or bool(self._parts)

    def feed(self, data: bytes) -> list[str]:
        """The logical lines completed by ``data``, ready for the message decoders.

        Trailing white space, terminator included, is removed (§1.3 reader step 5), so
        texts never end in a newline or a space after the trip.
        """
        return [line.rstrip(WHITESPACE) for line in self.feed_raw(data)]

    def feed_raw(self, data: bytes) -> list[str]:
        """Like :meth:`feed`, but each line keeps its trailing white space and terminator.

        This is what the server log records for received lines (§12.1).

        Most reads are one whole line without a backslash (robots send each answer in
        a packet of its own): such data is the line as it is, with nothing to keep.
        """
        buffer = self._buffer
        if data and not buffer and not self._parts and len(data) <= self.max_line:
            whole = data.decode(ENCODING)
            if whole.find("\n") == len(whole) - 1 and "\\" not in whole:
                return [whole]
        buffer += data
        lines: list[str] = []
        start = 0
        while (end := buffer.find(b"\n", start)) >= 0:
            physical = buffer[start : end + 1].decode(ENCODING)
            self._size += end + 1 - start
            start = end + 1
            if self._size > self.max_line:
                raise LineTooLong(f"line longer than {self.max_line} bytes")
            if physical.endswith("\\\r\n"):
                physical = physical[:-2] + "\n"
            if physical.endswith("\\\n") and _odd_backslashes_before_newline(physical):
                self._parts.append(physical[:-2] + "\n")
                continue
            self._parts.append(physical)
            lines.append(_unescape("".join(self._parts)))
            self._parts.clear()
            self._size = 0
        del buffer[:start]
        if self._size + len(buffer) > self.max_line:
            raise LineTooLong(f"line longer than {self.max_line} bytes")
        return lines


def _odd_backslashes_before_newline(physical: str) -> bool:
    """Whether the final backslash is a continuation mark rather than an escaped backslash."""
    body = physical[:-1]
    return (len(body) - len(body.rstrip("\\"))) % 2 == 1


def _unescape(line: str) -> str:
    """Drop each escaping backslash and keep the character after it literally."""
    return _ESCAPED.sub(r"\1", line) if "\\" in line else line
