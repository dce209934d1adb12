"""Player → controller messages (protocol.md §4), one frozen dataclass per message.

Conventions as in :mod:`mj.protocol.cmsg`. ``discard`` is the serial of the discard
or robbable kong a claim refers to; where the server ignores it (``Pung``,
``MahJong`` and ``Chow`` after mah-jong) clients send 0.
"""

from __future__ import annotations

from typing import ClassVar, Final

from mj.protocol.fields import (
    KEYWORD_CHARS,
    ChowPosition,
    PlayerOption,
    TileCode,
    WireMessage,
    Word,
    message,
)
from mj.protocol.messagetable import MessageTable


class PMsg(WireMessage):
    """A message sent by a player to the controller (server)."""

    __slots__ = ()


@message
class Connect(PMsg):
    """Join (``last_id`` 0) or rejoin a game under ``name`` speaking protocol ``pvers``."""

    pvers: int
    last_id: int
    name: str = ""


@message
class RequestReconnect(PMsg):
    """Ask to start over on the same socket; the server answers Reconnect."""


@message
class AuthInfo(PMsg):
    """Credentials answering AuthReqd (``basic``: the password)."""

    authtype: Word
    authdata: str = ""


@message
class NewAuthInfo(PMsg):
    """Ask to change the password; the original never supports it."""

    authtype: Word
    authdata: str = ""


@message
class Disconnect(PMsg):
    """Leave the game; the server closes the connection."""


@message
class SaveState(PMsg):
    """Save the game, in ``filename`` if given."""

    filename: str = ""


@message
class LoadState(PMsg):
    """Replace the game not yet dealt by the one saved in ``filename``."""

    filename: str = ""


@message
class DeclareSpecial(PMsg):
    """Expose a flower or season; BLANK: no more to declare."""

    aliases: ClassVar[tuple[str, ...]] = ("ds",)
    tile: TileCode


@message
class RequestPause(PMsg):
    """Ask everybody to confirm before play goes on, for ``reason``."""

    reason: str = ""


@message
class Ready(PMsg):
    """Answer to a Pause: ready to go on."""


@message
class Discard(PMsg):
    """Discard ``tile``, declaring Original Call with it if ``calling``."""

    aliases: ClassVar[tuple[str, ...]] = ("d",)
    tile: TileCode
    calling: bool


@message
class NoClaim(PMsg):
    """Pass on discard (or robbable kong) ``discard``."""

    aliases: ClassVar[tuple[str, ...]] = ("n",)
    discard: int


@message
class Pung(PMsg):
    """Claim ``discard`` for a pung, or after mah-jong use the discard in one."""

    aliases: ClassVar[tuple[str, ...]] = ("p",)
    discard: int


@message
class FormClosedPung(PMsg):
    """While scoring, declare a concealed pung of ``tile``."""

    tile: TileCode


@message
class Kong(PMsg):
    """Claim ``discard`` for a kong."""

    aliases: ClassVar[tuple[str, ...]] = ("k",)
    discard: int


@message
class DeclareClosedKong(PMsg):
    """Declare a concealed kong of ``tile``."""

    aliases: ClassVar[tuple[str, ...]] = ("ck",)
    tile: TileCode


@message
class AddToPung(PMsg):
    """Add ``tile`` to an exposed pung, making a kong."""

    tile: TileCode


@message
class QueryMahJong(PMsg):
    """Would ``tile`` (BLANK: none) give me mah-jong? Answered by CanMahJong."""

    tile: TileCode


@message
class Chow(PMsg):
    """Claim ``discard`` for a chow at ``cpos``, or name the position of a granted claim."""

    aliases: ClassVar[tuple[str, ...]] = ("c",)
    discard: int
    cpos: ChowPosition


@message
class FormClosedChow(PMsg):
    """While scoring, declare a concealed chow by its lowest tile."""

    tile: TileCode


@message
class DeclareWashOut(PMsg):
    """Ask to abandon the hand; the original always refuses."""


@message
class MahJong(PMsg):
    """Claim mah-jong on ``discard``, or declare it from the hand on one's turn (0)."""

    discard: int


@message
class Pair(PMsg):
    """After mah-jong, use the claimed discard for a pair."""


@message
class FormClosedPair(PMsg):
    """While scoring, declare a concealed pair of ``tile``."""

    tile: TileCode


@message
class ShowTiles(PMsg):
    """A loser reveals the remaining concealed tiles and gets scored."""


@message
class SpecialSet(PMsg):
    """After mah-jong, the discard and all concealed tiles form a special hand."""


@message
class FormClosedSpecialSet(PMsg):
    """After mah-jong, the concealed tiles form a special hand."""


@message
class SetPlayerOption(PMsg):
    """Set a player option, or acknowledge (``ack``) one the server ordered (§7.13)."""

    option: PlayerOption
    ack: bool
    value: int
    text: str = ""


@message
class SetGameOption(PMsg):
    """Set game option ``name`` to ``value`` (its text form); manager only."""

    name: Word
    value: str = ""


@message
class QueryGameOption(PMsg):
    """Ask for the GameOption line of option ``name``."""

    name: Word


@message
class ListGameOptions(PMsg):
    """Ask for every game option, ending with ``End``."""

    include_disabled: bool


@message
class ChangeManager(PMsg):
    """Make ``manager`` (0: anybody) the one who may change options."""

    manager: int


@message
class SendMessage(PMsg):
    """Chat to ``addressee`` (0: everybody)."""

    addressee: int
    text: str = ""


@message
class SwapTile(PMsg):
    """Debugging: replace ``oldtile`` in player ``id``'s hand by ``newtile`` from the wall."""

    aliases: ClassVar[tuple[str, ...]] = ("st",)
    id: int
    oldtile: TileCode
    newtile: TileCode


_TABLE: Final = MessageTable(PMsg, tuple(globals().values()), KEYWORD_CHARS)
#: Every player message class, in the order of §4.
MESSAGES: Final = _TABLE.classes

#: The player message on a line; :class:`~mj.protocol.fields.ProtocolError` if none
#: (:meth:`~mj.protocol.messagetable.MessageTable.decode`, called straight: every line received is read).
decode: Final = _TABLE.decode
