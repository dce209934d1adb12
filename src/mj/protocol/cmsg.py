"""Controller → player messages (protocol.md §3), one frozen dataclass per message.

Fields are declared in wire order; :mod:`mj.protocol.fields` derives the codec from
the annotations. Tiles are :data:`mj.tiles.Tile` ints (``--`` is BLANK), winds are
the wind tiles, and a trailing ``str`` field is the free text running to the end of
the line (``""`` when absent). Ids are the small player numbers the server hands
out, serials (``discard``) the per-hand discard numbers.
"""

from __future__ import annotations

from typing import ClassVar, Final

from mj.protocol.fields import (
    KEYWORD_CHARS,
    ChowPosition,
    PlayerOption,
    TileCode,
    Wind,
    WireMessage,
    Word,
    message,
)
from mj.protocol.messagetable import MessageTable
from mj.rules.options import OptionEntry


class CMsg(WireMessage):
    """A message sent by the controller (server) to a player."""

    __slots__ = ()


@message
class Error(CMsg):
    """A line of the recipient was refused; ``seqno`` numbers it on that connection (0: none)."""

    seqno: int
    text: str = ""


@message
class InfoTiles(CMsg):
    """Human-readable view of a player's hand (§2.6), sent on request after each change."""

    id: int
    text: str = ""


@message
class StateSaved(CMsg):
    """The game requested by ``id`` has been saved in ``filename``."""

    id: int
    filename: str = ""


@message
class ConnectReply(CMsg):
    """Answer to Connect: ``id`` is the player's id, or 0 with the refusal ``reason``."""

    pvers: int
    id: int
    reason: str = ""


@message
class Reconnect(CMsg):
    """RequestReconnect granted: the client must send Connect again on the same socket."""


@message
class AuthReqd(CMsg):
    """The server wants credentials of type ``authtype`` (``basic``) in an AuthInfo."""

    authtype: Word
    authdata: str = ""


@message
class Redirect(CMsg):
    """Reconnect to ``dest`` (``host:port``) with the same id and name; never sent by 1.11."""

    dest: str = ""


@message
class Player(CMsg):
    """Announces a player or a new name; an empty name means the player was removed."""

    id: int
    name: str = ""


@message
class NewRound(CMsg):
    """The prevailing wind changes (sent just before the round's first NewHand)."""

    wind: Wind


@message
class Game(CMsg):
    """Seating, round and cumulative scores for a (re)joining player.

    ``hands_as_east`` counts the current East's consecutive wins; ``manager`` may
    change options (0 = anybody, -1 = nobody).
    """

    east: int
    south: int
    west: int
    north: int
    round: Wind
    hands_as_east: int
    firsteast: int
    east_score: int
    south_score: int
    west_score: int
    north_score: int
    protversion: int
    manager: int


@message
class NewHand(CMsg):
    """A hand starts with ``east`` as dealer; the wall position fields are cosmetic."""

    east: int
    start_wall: int
    start_stack: int


@message
class PlayerDeclaresSpecial(CMsg):
    """A flower or season is exposed; BLANK means the player has finished declaring."""

    id: int
    tile: TileCode


@message
class StartPlay(CMsg):
    """Play may (re)start; ``id`` must act next, or 0 if several may."""

    id: int


@message
class StopPlay(CMsg):
    """Play is suspended, for example because a player lost its connection."""

    reason: str = ""


@message
class Pause(CMsg):
    """Everybody but ``exempt`` must send Ready; ``reason`` is an infinitive phrase."""

    exempt: int
    requestor: int
    reason: str = ""


@message
class PlayerReady(CMsg):
    """The player has answered the current pause with Ready."""

    id: int


@message
class PlayerDraws(CMsg):
    """A tile from the live wall; other players see BLANK."""

    id: int
    tile: TileCode


@message
class PlayerDrawsLoose(CMsg):
    """A replacement tile from the dead wall; other players see BLANK."""

    id: int
    tile: TileCode


@message
class PlayerDiscards(CMsg):
    """A discard numbered ``discard``; ``calling`` declares Original Call with it."""

    id: int
    tile: TileCode
    discard: int
    calling: bool


@message
class ClaimDenied(CMsg):
    """The recipient's claim failed, for ``reason``."""

    id: int
    reason: str = ""


@message
class PlayerDoesntClaim(CMsg):
    """The player passed on discard ``discard``, by NoClaim or (``timeout``) by silence."""

    id: int
    discard: int
    timeout: bool


@message
class DangerousDiscard(CMsg):
    """The claimed discard was dangerous (§9.8); ``nochoice``: the discarder had no other."""

    id: int
    discard: int
    nochoice: bool


@message
class PlayerClaimsPung(CMsg):
    """A pung claim on ``discard`` was lodged, not yet granted."""

    id: int
    discard: int


@message
class PlayerPungs(CMsg):
    """A pung of ``tile`` is made from the discard."""

    id: int
    tile: TileCode


@message
class PlayerFormsClosedPung(CMsg):
    """While scoring, a concealed pung is declared."""

    id: int
    tile: TileCode


@message
class PlayerClaimsKong(CMsg):
    """A kong claim on ``discard`` was lodged."""

    id: int
    discard: int


@message
class PlayerKongs(CMsg):
    """A claimed kong is made; a PlayerDrawsLoose follows."""

    id: int
    tile: TileCode


@message
class PlayerDeclaresClosedKong(CMsg):
    """A concealed kong; it gets a serial because it may be robbed."""

    id: int
    tile: TileCode
    discard: int


@message
class PlayerAddsToPung(CMsg):
    """An exposed pung becomes a kong; it gets a serial because it may be robbed."""

    id: int
    tile: TileCode
    discard: int


@message
class PlayerRobsKong(CMsg):
    """The kong just made was robbed by ``id``, who goes mah-jong with it."""

    id: int
    tile: TileCode


@message
class CanMahJong(CMsg):
    """Answer to QueryMahJong: would ``tile`` (BLANK: none) complete the hand?"""

    tile: TileCode
    answer: bool


@message
class PlayerClaimsChow(CMsg):
    """A chow claim on ``discard`` was lodged (the position may be ANYPOS)."""

    id: int
    discard: int
    cpos: ChowPosition


@message
class PlayerChows(CMsg):
    """A chow is made; with ANYPOS, sent to the claimer only: "say which chow"."""

    id: int
    tile: TileCode
    cpos: ChowPosition


@message
class PlayerFormsClosedChow(CMsg):
    """While scoring, a concealed chow is declared by its lowest tile."""

    id: int
    tile: TileCode


@message
class WashOut(CMsg):
    """The hand is abandoned (wall exhausted, lost a player)."""

    reason: str = ""


@message
class PlayerClaimsMahJong(CMsg):
    """A mah-jong claim on a discard or on a kong being made."""

    id: int
    discard: int


@message
class PlayerMahJongs(CMsg):
    """Mah-jong granted: ``tile`` was drawn from the wall, BLANK if the discard was claimed."""

    id: int
    tile: TileCode


@message
class PlayerPairs(CMsg):
    """While scoring, the winner makes a pair with the claimed discard."""

    id: int
    tile: TileCode


@message
class PlayerFormsClosedPair(CMsg):
    """While scoring, a concealed pair is declared."""

    id: int
    tile: TileCode


@message
class PlayerShowsTiles(CMsg):
    """The player's remaining concealed tiles, as codes in the server's hand order."""

    id: int
    tiles: str = ""


@message
class PlayerSpecialSet(CMsg):
    """The winner completes a special hand with the discard ``tile`` and all of ``tiles``."""

    id: int
    tile: TileCode
    tiles: str = ""


@message
class PlayerFormsClosedSpecialSet(CMsg):
    """The winner's concealed ``tiles`` form a special hand."""

    id: int
    tiles: str = ""


@message
class PlayerOptionSet(CMsg):
    """A player option changed: acknowledges a request (``ack``) or orders the client."""

    option: PlayerOption
    ack: bool
    value: int
    text: str = ""


@message
class HandScore(CMsg):
    """The score of a player's hand with its multi-line explanation (§9)."""

    id: int
    score: int
    explanation: str = ""


@message
class Settlement(CMsg):
    """The change of each seat's score for the hand, in seat order, explained (§9.9)."""

    east: int
    south: int
    west: int
    north: int
    explanation: str = ""


@message
class GameOver(CMsg):
    """The game has ended."""


@message
class GameOption(CMsg):
    """A game option's value, as set by ``id`` (0: the server's report)."""

    id: int
    entry: OptionEntry


@message
class ChangeManager(CMsg):
    """At ``id``'s request, ``manager`` (0: anybody) may now change options."""

    id: int
    manager: int


@message
class Message(CMsg):
    """Chat from ``sender`` (0: the server) to ``addressee`` (0: everybody)."""

    sender: int
    addressee: int
    text: str = ""


@message
class Wall(CMsg):
    """The whole wall as space-separated codes; only in save and history files."""

    tiles: str = ""


@message
class Comment(CMsg):
    """A ``#`` comment line of save and history files."""

    keyword: ClassVar[str] = "#"
    aliases: ClassVar[tuple[str, ...]] = ("Comment",)
    text: str = ""


@message
class SwapTile(CMsg):
    """Debugging: ``oldtile`` in player ``id``'s hand was replaced by ``newtile``."""

    id: int
    oldtile: TileCode
    newtile: TileCode


# mj's extensions of the protocol (docs/protocol-extension.md), after the original's messages.


@message
class Rules(CMsg):
    """mj's extension: the table plays the rule system ``name`` (sent after ``ConnectReply``).

    Sent only at a table whose rules are not Chinese Classical, and only to a client that
    announced the extension (``Connect`` with :data:`~mj.protocol.connect.EXTENDED_PROTOCOL_VERSION`);
    the options follow as ``GameOption`` lines with that system's names.
    """

    name: Word


@message
class Payment(CMsg):
    """mj's extension: in the hand's settlement, player ``payer`` pays player ``payee`` ``amount`` points.

    Sent before the ``Settlement`` (whose changes are their sums by seat) by a system that
    settles payment by payment (IMS).
    """

    payer: int
    payee: int
    amount: int


@message
class ScoreFigure(CMsg):
    """mj's extension: one figure behind player ``id``'s ``HandScore``: ``value`` of ``name``.

    IMS sends ``fan`` and ``bonus``, then each element as ``fan:NAME`` or ``bonus:NAME``.
    """

    id: int
    value: int
    name: str = ""


@message
class PlayerRevealsConcealedKong(CMsg):
    """mj's extension (docs/protocol-extension.md): a concealed kong kept hidden until the hand ended.

    Under a rule system that hides concealed kongs (IMS), the other seats were sent
    ``PlayerDeclaresClosedKong`` with the blank; this names the tile once the hand is
    over, one message per kong in the order they were declared.
    """

    id: int
    tile: TileCode


@message
class WildIndicator(CMsg):
    """mj's extension (docs/protocol-extension.md): ``tile`` is turned up from the head of the wall after the deal.

    Under a rule system with wild tiles (Beijing) it names them, for the whole hand; the
    tile is out of play, and the live wall is one tile shorter.
    """

    tile: TileCode


_TABLE: Final = MessageTable(CMsg, tuple(globals().values()), KEYWORD_CHARS + "#")
#: Every controller message class, in the order of §3, then mj's extensions.
MESSAGES: Final = _TABLE.classes

#: The controller message on a line; :class:`~mj.protocol.fields.ProtocolError` if none
#: (:meth:`~mj.protocol.messagetable.MessageTable.decode`, called straight: every line received is read).
decode: Final = _TABLE.decode
