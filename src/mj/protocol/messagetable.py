"""Each direction's messages by keyword, and the decoder that reads lines into them.

Compiled with mypyc (:mod:`mj.compiled`): the server and the robots decode every
line they receive, and most lines were read before (:meth:`MessageTable.decode`),
so this look-up is what a line usually costs. The codec itself, which writes out
methods per message class, is :mod:`mj.protocol.fields`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Generic

from mj.protocol.fields import M, ProtocolError, install_codecs, read_fields
from mj.protocol.framing import WHITESPACE
from mj.quoting import quoted

#: How many different lines :meth:`MessageTable.decode` remembers, per direction.
MAX_DECODED: Final = 4096
#: The longest line it remembers: a game's repeated lines are short, and long ones
#: (chat, up to a 64 KiB line) would let a client fill the server's memory.
MAX_REMEMBERED_LENGTH: Final = 128


class MessageTable(Generic[M]):
    """The messages of one direction, found by keyword or alias, and their decoder.

    ``keyword_chars`` are the characters keywords are made of: letters and digits,
    plus ``#`` (the comment message) on the controller side only.
    """

    def __init__(self, base: type[M], namespace: Iterable[object], keyword_chars: str) -> None:
        self.classes: tuple[type[M], ...] = tuple(
            obj for obj in namespace if isinstance(obj, type) and issubclass(obj, base) and obj is not base
        )
        self._classes: dict[str, type[M]] = {}
        for cls in self.classes:
            install_codecs(cls)
            for name in (cls.keyword, *cls.aliases):
                self._classes[name] = cls
        self._keyword_chars = keyword_chars
        #: Lines read lately and their messages (:meth:`decode`).
        self._decoded: dict[str, M] = {}

    def decode(self, line: str) -> M:
        """The message on ``line`` (one logical line, terminator optional).

        The keyword is the longest run of keyword characters at the very start; the
        one character after it is skipped whatever it is, as in the original.

        A game's lines are few: the four robots of a 21-hand game send 4,315 lines,
        of which 297 differ (``NoClaim 13`` comes 62 times). Messages are immutable,
        so a line read before gets the same message again without being read: the
        table remembers up to :data:`MAX_DECODED` lines of at most
        :data:`MAX_REMEMBERED_LENGTH` characters, and forgets them all when full.
        """
        decoded = self._decoded.get(line)
        if decoded is not None:
            return decoded
        decoded = self._read(line)
        if len(line) <= MAX_REMEMBERED_LENGTH:
            if len(self._decoded) >= MAX_DECODED:
                self._decoded.clear()
            self._decoded[line] = decoded
        return decoded

    def _read(self, line: str) -> M:
        line = line.rstrip(WHITESPACE)
        if not line:
            raise ProtocolError("empty line")
        keyword = line[: len(line) - len(line.lstrip(self._keyword_chars))]
        cls = self._classes.get(keyword)
        if cls is None:
            raise ProtocolError(f"unknown message keyword {quoted(keyword or line, 30)}")
        rest = line[len(keyword) + 1 :]
        pos = len(line) - len(rest.lstrip(WHITESPACE))
        try:
            return read_fields(cls, line, pos)
        except ProtocolError as exc:
            raise ProtocolError(f"{keyword} {exc}") from None
