"""The Chinese Classical game of Unix Mah-Jong as a pure state machine.

``Game.apply(player, intent)`` checks an intent (a player message) against the
rules and returns the messages the table must deliver, or raises
:class:`IllegalMove` with the original server's error text and changes nothing.
There are no sockets, clocks or threads here: the claim timeout enters as
:meth:`Game.close_claim_window`, walls come from an injected :class:`WallSource`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any, ClassVar, Protocol

from mj import hand, tiles
from mj.game.seat import Seat
from mj.game.sends import IllegalMove, Send
from mj.game.wall import Wall
from mj.melds import KongOrigin, Meld, MeldKind, chow, kong, pair, pung, special
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import AfterClaim, Claim, Course, DeadWallPolicy, HandScore, SeatHand, Win, WinSource
from mj.rules.classical.moves import chow_partners, closed_set, may_add_to_pung, may_call, may_discard
from mj.rules.classical.rules import CLASSICAL
from mj.rules.options import END, GameOptions, OptionError
from mj.rules.ruleset import Ruleset
from mj.tiles import BLANK, Tile

WINDS = tiles.WINDS


class Phase(Enum):
    HAND_COMPLETE = "hand complete"
    DECLARING = "declaring specials"
    DISCARDING = "discarding"
    DISCARDED = "discarded"
    MAHJONGING = "mah-jonging"


class WallSource(Protocol):
    """Where each hand's wall and cosmetic dice come from (seeded RNG, wall file, a log)."""

    def next_hand(self, flowers: bool) -> tuple[list[Tile], int, int]: ...


@dataclass(frozen=True, slots=True)
class Config:
    """Server settings that change the rules' behaviour rather than the game options."""

    special_scores: bool = True
    debug: bool = False
    #: Reproduce the original's observable quirks (protocol.md §16) instead of fixing them.
    original_quirks: bool = False
    protocol: int = 1110
    #: The rule system deciding complete hands, scores, settlement and liability.
    rules: Ruleset = CLASSICAL


@dataclass(slots=True)
class PendingTile:
    """A discard, or the tile of a kong that may be robbed, waiting for answers."""

    tile: Tile
    serial: int
    seat: int
    #: None for a discard; the kong's origin while it may be robbed.
    kong: KongOrigin | None = None
    claims: dict[int, tuple[Claim, ChowPosition | None]] = field(default_factory=dict)
    #: The seat whose AnyPos chow won and who must now name the position.
    chow_position_from: int | None = None


_NO_ANSWER: tuple[Claim, ChowPosition | None] = (Claim.NO_CLAIM, None)


@dataclass(slots=True)
class Pause:
    exempt: int
    ready: set[int]


@dataclass(slots=True)
class Winning:
    seat: int
    tile: Tile
    source: WinSource
    #: The claimed or robbed tile the winner has not yet put into a set.
    pending: Tile | None
    discarder: int | None
    facts: Win | None = None


# The two commonest messages, made once each and reused (messages are immutable): a
# ``PlayerDraws`` for every tile dealt or drawn, real and hidden, and a ``PlayerDoesntClaim``
# for nearly every discard and player. A game needs a few hundred of each kind.


@cache
def _draws(player: int, tile: Tile) -> C.PlayerDraws:
    return C.PlayerDraws(player, tile)


@cache
def _doesnt_claim(player: int, serial: int, timed_out: bool) -> C.PlayerDoesntClaim:
    return C.PlayerDoesntClaim(player, serial, timed_out)


class Game:
    """One table's game: seating, rounds, scores, and the hand in progress."""

    def __init__(
        self,
        seating: list[int],
        options: GameOptions,
        walls: WallSource,
        *,
        config: Config = Config(),
        manager: int = 0,
    ) -> None:
        self.options = options
        self.config = config
        self.rules = config.rules
        #: How the current hand runs (asked of the rules at each deal: options change between hands).
        self.course: Course = self.rules.course(options)
        self.walls = walls
        self.manager = manager
        self.seating = list(seating)
        self.firsteast = seating[0]
        self.round_wind: Tile = tiles.EAST_WIND
        self.hands_as_east = 0
        self.completed_rounds = 0
        self.scores = dict.fromkeys(seating, 0)
        self.game_over = False
        self.phase = Phase.HAND_COMPLETE
        self.pause: Pause | None = None
        self.info_tiles_wanted: set[int] = set()
        self.history: list[C.CMsg] = []
        self.hand_wall: list[Tile] = []
        self.last_winner: int | None = None
        self.hands_started = 0
        #: The hand before the current one was drawn.
        self.after_draw = False
        #: Hands the dealer had dealt in a row before the current one.
        self.banker_hands = 0
        #: The Game message as the current (or last) hand began, for hand-history files.
        self.hand_start = self.game_message(config.protocol)
        self._out: list[Send] = []
        self._new_hand_state()

    def _new_hand_state(self) -> None:
        self.seats = [Seat(pid, WINDS[i]) for i, pid in enumerate(self.seating)]
        self.wall = Wall.build([], DeadWallPolicy.NONE)
        self.turn = 0
        self.serial = 0
        self.pending: PendingTile | None = None
        self.after_claim = False
        self.just_punged: Tile | None = None
        self.last_draw: tuple[Tile, WinSource] | None = None
        self.kong_chain = 0
        self.winning: Winning | None = None
        #: Every tile discarded this hand, claimed or not (for the end-of-wall danger).
        self.discarded: Counter[Tile] = Counter()
        #: The wild indicator turned up after the deal (:attr:`Course.wild_indicator`).
        self.indicator: Tile | None = None
        #: Kongs made this hand (the end of the wall may depend on them).
        self.kongs = 0
        #: Every discard of the hand as (seat, tile, serial), claimed or not.
        self.timeline: list[tuple[int, Tile, int]] = []
        #: By seat: where in :attr:`timeline` the tiles it let pass begin (its last turn, or the last pung or kong).
        self.pass_from = [0, 0, 0, 0]
        #: The first discards of the hand while nobody has made a set; ``opening_open`` until somebody has.
        self.opening: list[Tile] = []
        self.opening_open = True

    # ------------------------------------------------------------------ queries

    def seat_index(self, player: int) -> int:
        try:
            return self.seating.index(player)
        except ValueError:
            raise IllegalMove("SwapTile: no such player") from None

    @property
    def east(self) -> int:
        return self.seating[0]

    def game_message(self, protocol: int) -> C.Game:
        e, s, w, n = self.seating
        sc = self.scores
        return C.Game(
            e, s, w, n, self.round_wind, self.hands_as_east, self.firsteast,
            sc[e], sc[s], sc[w], sc[n], protocol, self.manager,
        )  # fmt: skip

    @property
    def hand_in_progress(self) -> bool:
        return self.phase is not Phase.HAND_COMPLETE

    @property
    def mahjong_declared(self) -> bool:
        """Whether someone has gone out and the hands are being declared."""
        return self.phase is Phase.MAHJONGING

    @property
    def winner(self) -> int | None:
        """The player going out this hand, once declared."""
        return self.seats[self.winning.seat].player if self.winning is not None else None

    def has_declared(self, player: int) -> bool:
        """Whether ``player``'s hand has been scored this hand."""
        return self.seats[self.seat_index(player)].score is not None

    @property
    def claim_window(self) -> int | None:
        """The serial of the discard (or kong) open to claims, which a timer may close."""
        pending = self.pending
        if pending is None or pending.chow_position_from is not None or self.pause is not None:
            return None
        return pending.serial

    @property
    def round_ends_next(self) -> bool:
        """Between hands: whether the next deal starts a new round."""
        return self.rules.dealer_rotates(self.last_winner, self.hands_as_east) and self.seating[1] == self.firsteast

    def acting_player(self) -> int:
        """The id StartPlay names: who must act, or 0 when several may."""
        if self.phase in (Phase.DECLARING, Phase.DISCARDING) and self.pending is None:
            return self.seating[self.turn]
        return 0

    # ------------------------------------------------------------------ output

    def _broadcast(self, msg: C.CMsg, *, hist: bool = True) -> None:
        self._out.append(Send(None, msg, (self.east,)))
        if hist:
            self.history.append(msg)

    def _send(self, player: int, msg: C.CMsg, *, hist: bool = False) -> None:
        self._out.append(Send((player,), msg, (player,)))
        if hist:
            self.history.append(msg)

    def _take(self) -> list[Send]:
        out, self._out = self._out, []
        return out

    def _tile_to(self, seat: int, real: C.CMsg, hidden: C.CMsg) -> None:
        """A tile movement: the real tile to its owner first, ``--`` to the others."""
        pid = self.seating[seat]
        self._out.append(Send((pid,), real, (pid,)))
        others = tuple(p for p in self.seating if p != pid)
        self._out.append(Send(others, hidden, ()))
        self.history.append(real)

    def _info_tiles(self, seat: int) -> None:
        s = self.seats[seat]
        if s.player in self.info_tiles_wanted:
            self._send(s.player, C.InfoTiles(s.player, s.info_text(True)))
        for other in self.seating:
            if other != s.player and other in self.info_tiles_wanted:
                self._send(other, C.InfoTiles(s.player, s.info_text(False, self.course.hides_concealed_kongs)))

    # ------------------------------------------------------------------ pauses

    def _open_pause(self, reason: str, exempt: int = 0, requestor: int = 0) -> None:
        self.pause = Pause(exempt, {exempt} if exempt else set())
        self._broadcast(C.Pause(exempt, requestor, reason))

    def abandon_hand(self, reason: str) -> list[Send]:
        """The hand ends without a result because the table is closing (``WashOut reason``, no pause)."""
        self.pending = None
        self.winning = None
        self.phase = Phase.HAND_COMPLETE
        self.last_winner = None
        self._broadcast(C.WashOut(reason))
        return self._take()

    def end_game(self) -> list[Send]:
        """Game over now, whatever the rounds played (the table is closing)."""
        if not self.game_over:
            self.game_over = True
            self._broadcast(C.GameOver(), hist=False)
        return self._take()

    def start_announcement(self, protocol: int) -> list[Send]:
        """``Pause`` and ``StartPlay`` that begin (or resume) play once everyone is seated."""
        reason = "to start hand" if self.phase is Phase.HAND_COMPLETE else "to continue play"
        self._open_pause(reason)
        self._broadcast(C.StartPlay(self.acting_player()), hist=False)
        return self._take()

    # ------------------------------------------------------------------ dispatch

    def apply(self, player: int, intent: P.PMsg) -> list[Send]:
        handler = self._handlers.get(type(intent))
        if handler is None:
            raise IllegalMove("Protocol error")
        handler(self, player, intent)
        return self._take()

    def close_claim_window(self) -> list[Send]:
        """The claim timeout expired: everyone who has not answered passes (§7.5)."""
        pending = self.pending
        if pending is None or pending.chow_position_from is not None:
            return []
        for i in self._claimants(pending):
            if i not in pending.claims:
                pid = self.seating[i]
                pending.claims[i] = (Claim.NO_CLAIM, None)
                self._send(pid, _doesnt_claim(pid, pending.serial, True), hist=True)
        self._resolve()
        return self._take()

    # ------------------------------------------------------------------ handlers

    def _ready(self, player: int, _: P.Ready) -> None:
        pause = self.pause
        if pause is None or player in pause.ready:
            return
        pause.ready.add(player)
        self._broadcast(C.PlayerReady(player))
        if len(pause.ready) >= 4:
            self.pause = None
            if self.phase is Phase.HAND_COMPLETE and not self.game_over:
                self._start_hand()

    def _request_pause(self, player: int, msg: P.RequestPause) -> None:
        if self.phase not in (Phase.DISCARDING, Phase.HAND_COMPLETE):
            raise IllegalMove("Not reasonable to pause at this point")
        if self.config.original_quirks:
            self._broadcast(C.Pause(0, player, msg.reason))
        else:
            self._open_pause(msg.reason, 0, player)

    def _set_game_option(self, player: int, msg: P.SetGameOption) -> None:
        try:
            entry = self.options.set_from_text(msg.name, msg.value, self.config.protocol)
        except OptionError as exc:
            raise IllegalMove(str(exc)) from None
        if self.manager not in (0, player):
            announce = (Send(None, C.GameOption(player, entry), (self.east,)),)
            raise IllegalMove("Not authorized to set game options", announce if self.config.original_quirks else ())
        if msg.name != END:
            self.options.set_value(msg.name, entry.value)
        self._broadcast(C.GameOption(player, entry), hist=False)

    def _change_manager(self, player: int, msg: P.ChangeManager) -> None:
        if self.manager not in (0, player):
            raise IllegalMove("Not authorized to change the manager")
        self.manager = msg.manager
        self._broadcast(C.ChangeManager(player, msg.manager), hist=False)

    def _declare_washout(self, player: int, _: P.DeclareWashOut) -> None:
        raise IllegalMove("Can't declare a Wash-Out")

    def _query_mahjong(self, player: int, msg: P.QueryMahJong) -> None:
        """Whether the player could go out with ``msg.tile`` from another (BLANK: with the hand as it is):
        the rule system's answer, as to a real claim or Mah-Jong (wild tiles and their rules included)."""
        index = self.seat_index(player)
        seat = self.seats[index]
        if msg.tile != BLANK:
            pending = self.pending
            fed = pending is not None and pending.tile == msg.tile
            robbed = fed and pending is not None and pending.kong is not None
            source = WinSource.ROBBED_KONG if robbed else WinSource.DISCARD
            feeder = pending.seat if fed and pending is not None else None
            answer = self._goes_out(index, [*seat.concealed, msg.tile], msg.tile, source, feeder)
        else:
            tile = seat.concealed[-1] if seat.concealed else BLANK
            source = WinSource.WALL
            if self.last_draw is not None and index == self.turn:
                tile, source = self.last_draw
            answer = self._goes_out(index, seat.concealed, tile, source, None)
        self._send(player, C.CanMahJong(msg.tile, answer))

    def _swap_tile(self, player: int, msg: P.SwapTile) -> None:
        if not self.config.debug:
            raise IllegalMove("Debugging not enabled", logged=False)
        seat = self.seats[self.seat_index(msg.id)]
        index = next((i for i in self.wall.unused_from_end() if self.wall.tiles[i] == msg.newtile), None)
        if index is None:
            raise IllegalMove("No new tile in wall")
        if msg.oldtile not in seat.concealed:
            raise IllegalMove("player doesn't have old tile")
        self.wall.tiles[index] = msg.oldtile
        seat.concealed[seat.concealed.index(msg.oldtile)] = msg.newtile
        self._send(msg.id, C.SwapTile(msg.id, msg.oldtile, msg.newtile), hist=True)

    # -- specials and the deal

    def _declare_special(self, player: int, msg: P.DeclareSpecial) -> None:
        index = self.seat_index(player)
        seat = self.seats[index]
        tile = msg.tile
        if self.phase is Phase.DECLARING and self.pending is None:
            if index != self.turn:
                raise IllegalMove("Can only declare in turn")
            if tile == BLANK:
                self._broadcast(C.PlayerDeclaresSpecial(player, BLANK))
                self._next_declarer()
                return
        elif self.phase is Phase.DISCARDING and self.pending is None and index == self.turn:
            if tile == BLANK:
                raise IllegalMove("Can't declare blank special now")
            if self.after_claim:
                raise IllegalMove("Can't discard specials now")
        else:
            raise IllegalMove("Can only declare in turn")
        if not tiles.is_special(tile) or tile not in seat.concealed:
            raise IllegalMove("Don't have that special")
        seat.remove(tile)
        seat.specials.append(tile)
        self._broadcast(C.PlayerDeclaresSpecial(player, tile))
        if self.options.flag("FlowersLoose"):
            self._draw_loose(index)
        else:
            self._draw_live(index)

    def _next_declarer(self) -> None:
        self.turn += 1
        if self.turn < 4:
            return
        self.turn = 0
        self.phase = Phase.DISCARDING
        self.last_draw = None
        self._open_pause("to start play", exempt=self.east)

    def _start_hand(self) -> None:
        rotates = self.rules.dealer_rotates(self.last_winner, self.hands_as_east)
        if rotates:
            self._rotate()
        self.after_draw = self.hands_started > 0 and self.last_winner is None
        self.banker_hands = 0 if rotates or self.hands_started == 0 else self.banker_hands + 1
        self.last_winner = None
        wall_tiles, start_wall, start_stack = self.walls.next_hand(self.rules.flowers(self.options))
        self.hands_started += 1
        self.hand_wall = list(wall_tiles)
        self._new_hand_state()
        self.wall = Wall.build(wall_tiles, self.rules.dead_wall(self.options))
        self.history = []
        self.hand_start = self.game_message(self.config.protocol)
        self.course = self.rules.course(self.options)
        self._broadcast(C.NewHand(self.east, start_wall, start_stack))
        for seat in self.rules.deal_order():
            self._deal_one(seat)
        if self.course.wild_indicator:
            self._turn_indicator()
        for seat in range(4):
            self._info_tiles(seat)
        self.phase = Phase.DECLARING
        self.turn = 0
        if self.course.reveals_flowers:
            self._reveal_dealt_flowers()

    def _reveal_dealt_flowers(self) -> None:
        """The declaring turns played by the engine: each seat's flowers revealed and replaced, East first.

        The messages are those of players declaring (``PlayerDeclaresSpecial``, the loose
        draw, then the blank that passes the turn on), so every view follows the deal alike.
        East's last replacement, if it drew one, is the last tile it received: going out at
        once is winning on a loose tile (docs/rules-ims.md).
        """
        east_draw = None
        for index in range(4):
            seat = self.seats[index]
            while (flower := next((t for t in seat.concealed if tiles.is_special(t)), None)) is not None:
                if not self._reveal_flower(index, flower):
                    return  # the wall ran out (not with a full wall): the hand is washed out
            if index == 0:
                east_draw = self.last_draw
            self._broadcast(C.PlayerDeclaresSpecial(seat.player, BLANK))
            self._next_declarer()
        self.last_draw = east_draw

    def _reveal_flower(self, index: int, flower: Tile) -> bool:
        """A flower or season drawn under a system that reveals them: shown, then replaced by a loose tile."""
        seat = self.seats[index]
        seat.remove(flower)
        seat.specials.append(flower)
        self._broadcast(C.PlayerDeclaresSpecial(seat.player, flower))
        return self._draw_loose(index)

    def _turn_indicator(self) -> None:
        """The next live tile turned up for all to see: it names the wild tiles and is out of play."""
        tile = self.wall.draw_live()
        assert tile is not None, "a wall always holds a deal and an indicator"
        self.indicator = tile
        self._broadcast(C.WildIndicator(tile))

    def _deal_one(self, seat: int) -> None:
        tile = self.wall.draw_live()
        assert tile is not None, "a wall always holds a deal"
        self.seats[seat].concealed.append(tile)
        pid = self.seating[seat]
        self._tile_to(seat, _draws(pid, tile), _draws(pid, BLANK))

    def _rotate(self) -> None:
        new_east = self.seating[1]
        if new_east == self.firsteast:
            self.round_wind = WINDS[(WINDS.index(self.round_wind) + 1) % 4]
            self.completed_rounds += 1
            self._broadcast(C.NewRound(self.round_wind), hist=False)
        self.seating = self.seating[1:] + self.seating[:1]
        self.hands_as_east = 0

    # -- drawing

    def _wall_ends(self, *, loose: bool) -> bool:
        """Whether the rule system ends the hand before this draw (``loose``: a replacement)."""
        return self.rules.wall_ends(self.wall.tiles_left, self.kongs, self.options, loose=loose)

    def _draw_live(self, seat: int) -> bool:
        tile = None if self._wall_ends(loose=False) else self.wall.draw_live()
        if tile is None:
            self._wash_out("wall exhausted")
            return False
        self._receive(seat, tile, WinSource.WALL)
        pid = self.seating[seat]
        self._tile_to(seat, _draws(pid, tile), _draws(pid, BLANK))
        self._info_tiles(seat)
        if self.course.reveals_flowers and tiles.is_special(tile):
            return self._reveal_flower(seat, tile)
        return True

    def _draw_loose(self, seat: int) -> bool:
        tile = None if self._wall_ends(loose=True) else self.wall.draw_loose()
        if tile is None:
            self._wash_out("wall exhausted")
            return False
        self._receive(seat, tile, WinSource.LOOSE)
        pid = self.seating[seat]
        self._tile_to(seat, C.PlayerDrawsLoose(pid, tile), C.PlayerDrawsLoose(pid, BLANK))
        self._info_tiles(seat)
        if self.course.reveals_flowers and tiles.is_special(tile):
            return self._reveal_flower(seat, tile)
        return True

    def _receive(self, seat: int, tile: Tile, source: WinSource) -> None:
        self.seats[seat].concealed.append(tile)
        self.pass_from[seat] = len(self.timeline)
        self.last_draw = (tile, source)
        self.after_claim = False
        self.just_punged = None

    # -- the turn

    def _require_turn(self, player: int, error: str) -> tuple[int, Seat]:
        index = self.seat_index(player)
        if self.phase is not Phase.DISCARDING or self.pending is not None or index != self.turn:
            raise IllegalMove(error)
        return index, self.seats[index]

    def _discard(self, player: int, msg: P.Discard) -> None:
        index, seat = self._require_turn(player, "Can't discard now")
        if self.pause is not None:
            raise IllegalMove("Can't discard until everybody's ready")
        tile = msg.tile
        if msg.calling:
            if not self.course.original_call:
                raise IllegalMove("No calling in these rules")
            if not may_call(seat.calling, seat.has_discarded, len(seat.concealed)):
                if seat.calling:
                    raise IllegalMove("Already calling")
                if seat.has_discarded:
                    raise IllegalMove("Only Original Call declaration allowed")
                raise IllegalMove("Must have concealed hand to declare calling")
        elif not may_discard(tile, seat.calling, self.last_draw[0] if self.last_draw else None, self.after_claim):
            raise IllegalMove("Calling: can't discard that tile")
        if tile not in seat.concealed or tiles.is_special(tile):
            raise IllegalMove("You can't discard that tile")
        seat.remove(tile)
        seat.discards.append(tile)
        seat.thrown.append(tile)
        self.discarded[tile] += 1
        seat.has_discarded = True
        seat.calling = seat.calling or msg.calling
        self.serial += 1
        self.timeline.append((index, tile, self.serial))
        if self.opening_open and len(self.opening) < 4:
            self.opening.append(tile)
        self.kong_chain = 0
        self.pending = PendingTile(tile, self.serial, index)
        self.phase = Phase.DISCARDED
        self._broadcast(C.PlayerDiscards(player, tile, self.serial, msg.calling))
        self._info_tiles(index)

    def _declare_closed_kong(self, player: int, msg: P.DeclareClosedKong) -> None:
        index = self.seat_index(player)
        seat = self.seats[index]
        in_turn = self.pending is None and index == self.turn
        if not in_turn or self.phase not in (Phase.DISCARDING, Phase.DECLARING):
            raise IllegalMove("Can't declare a closed kong now")
        if self.after_claim and self.course.moves_after_claim is not AfterClaim.KONGS:
            raise IllegalMove("Can't declare a closed kong now")
        if not seat.holds(msg.tile, 4):
            raise IllegalMove("Don't have the tiles for that kong")
        self._check_forbidden(index, msg, msg.tile)
        seat.remove(msg.tile, 4)
        seat.melds.append(kong(msg.tile, KongOrigin.CONCEALED))
        seat.play_melds += 1
        self._set_made(MeldKind.KONG)
        if self.course.hides_concealed_kongs:
            self._hidden_kong(index, msg.tile)
            return
        self._open_kong_window(index, msg.tile, KongOrigin.CONCEALED)
        self._broadcast(C.PlayerDeclaresClosedKong(player, msg.tile, self.serial))
        self._info_tiles(index)

    def _hidden_kong(self, index: int, tile: Tile) -> None:
        """A concealed kong the others may not see: the blank to them, no robbing, the loose tile at once."""
        self.serial += 1
        self.after_claim = False
        self.just_punged = None
        player = self.seating[index]
        real = C.PlayerDeclaresClosedKong(player, tile, self.serial)
        self._tile_to(index, real, C.PlayerDeclaresClosedKong(player, BLANK, self.serial))
        self._info_tiles(index)
        self.kong_chain += 1
        self._draw_loose(index)

    def _add_to_pung(self, player: int, msg: P.AddToPung) -> None:
        index, seat = self._require_turn(player, "Can't make a kong now")
        tile = msg.tile
        after = self.course.moves_after_claim
        if self.after_claim and after is AfterClaim.DISCARD:
            raise IllegalMove("Can't make a kong now")
        if after is AfterClaim.ORIGINAL and not may_add_to_pung(
            tile, self.after_claim, self.just_punged, self.config.protocol
        ):
            raise IllegalMove("Can't make a kong now")
        position = next(
            (i for i, m in enumerate(seat.melds) if m.kind is MeldKind.PUNG and not m.concealed and m.tile == tile),
            None,
        )
        if position is None:
            raise IllegalMove("Can't make a kong now")
        if tile not in seat.concealed:
            raise IllegalMove("Don't have the tiles for that kong")
        self._check_forbidden(index, msg, tile)
        seat.remove(tile)
        seat.melds[position] = kong(tile, KongOrigin.ANNEXED)
        self._set_made(MeldKind.KONG)
        self._open_kong_window(index, tile, KongOrigin.ANNEXED)
        self._broadcast(C.PlayerAddsToPung(player, tile, self.serial))
        self._info_tiles(index)

    def _open_kong_window(self, index: int, tile: Tile, origin: KongOrigin) -> None:
        self.serial += 1
        self.after_claim = False
        self.just_punged = None
        self.pending = PendingTile(tile, self.serial, index, kong=origin)

    def _mahjong(self, player: int, msg: P.MahJong) -> None:
        if self.pending is not None:
            self._claim(player, Claim.MAHJONG, msg.discard, None)
            return
        index, seat = self._require_turn(player, "Don't have a complete hand")
        if self.after_claim and self.course.moves_after_claim is not AfterClaim.ORIGINAL:
            raise IllegalMove("Don't have a Mah Jong")
        if self.last_draw is not None:
            tile, source = self.last_draw
        else:
            tile, source = seat.concealed[-1], WinSource.WALL
        if not self._goes_out(index, seat.concealed, tile, source, None):
            raise IllegalMove("Don't have a Mah Jong")
        # The original takes a mah-jong it announces with a blank tile (East's on the
        # blank first hand of a wall file, §16 item 9) for one on a discard that no
        # loser supplied: DiscDoubles then doubles nobody's payment.
        blank_discard = tile == BLANK and self.config.original_quirks
        self.winning = Winning(index, tile, source, None, index if blank_discard else None)
        self.winning.facts = self._win_facts(index, tile, source)
        self.phase = Phase.MAHJONGING
        self._broadcast(C.PlayerMahJongs(player, tile))
        if not self.course.declares_hands:
            self._settle_at_once([self.winning])

    # -- claims

    def _claimants(self, pending: PendingTile) -> list[int]:
        return [(pending.seat + k) % 4 for k in (1, 2, 3)]

    def _no_claim(self, player: int, msg: P.NoClaim) -> None:
        index = self.seat_index(player)
        pending = self.pending
        live = (
            pending is not None
            and pending.serial == msg.discard
            and index != pending.seat
            and pending.chow_position_from is None
        )
        self._send(player, _doesnt_claim(player, msg.discard, False), hist=live)
        if live:
            assert pending is not None
            pending.claims[index] = (Claim.NO_CLAIM, None)
            self._resolve_if_answered()

    def _pung(self, player: int, msg: P.Pung) -> None:
        if self.phase is Phase.MAHJONGING:
            self._winner_uses(player, MeldKind.PUNG, None)
        else:
            self._claim(player, Claim.PUNG, msg.discard, None)

    def _kong(self, player: int, msg: P.Kong) -> None:
        self._claim(player, Claim.KONG, msg.discard, None)

    def _chow(self, player: int, msg: P.Chow) -> None:
        pending = self.pending
        if self.phase is Phase.MAHJONGING:
            self._winner_uses(player, MeldKind.CHOW, msg.cpos)
        elif pending is not None and pending.chow_position_from == self.seat_index(player):
            if msg.cpos is ChowPosition.ANYPOS:
                raise IllegalMove("Can't make that chow")
            self._implement_chow(pending.chow_position_from, msg.cpos)
        else:
            self._claim(player, Claim.CHOW, msg.discard, msg.cpos)

    def _claim(self, player: int, kind: Claim, serial: int, cpos: ChowPosition | None) -> None:
        index = self.seat_index(player)
        seat = self.seats[index]
        pending = self.pending
        word = {Claim.CHOW: "chow", Claim.PUNG: "pung", Claim.KONG: "kong", Claim.MAHJONG: "mah-jong"}[kind]
        if pending is None or pending.serial != serial:
            if pending is None and serial == self.serial:
                raise IllegalMove(f"Can't {word} now" if kind is not Claim.MAHJONG else "Nothing to claim")
            raise IllegalMove("Too late: next discard has been made")
        if pending.chow_position_from is not None:
            raise IllegalMove(f"Can't {word} now" if kind is not Claim.MAHJONG else "Somebody has claimed the discard")
        if index == pending.seat:
            raise IllegalMove("Can't claim own discard!" if pending.kong is None else "Can't rob own kong")
        tile = pending.tile
        if pending.kong is not None:
            if kind is not Claim.MAHJONG:
                raise IllegalMove(f"Can't {word} now")
            if not self.rules.may_rob(pending.kong, seat.melds, seat.concealed, tile):
                raise IllegalMove("Can only rob a closed kong for Thirteen Wonders")
        if seat.calling and kind is not Claim.MAHJONG:
            raise IllegalMove("Calling players can only claim Mah-Jong")
        if kind is Claim.CHOW:
            if index != (pending.seat + 1) % 4:
                raise IllegalMove("Can't chow out of turn")
            assert cpos is not None
            if cpos is ChowPosition.ANYPOS and not self.course.chow_any_position:
                raise IllegalMove("Can't make that chow")
            if not self._chow_possible(seat, tile, cpos):
                raise IllegalMove("Can't make that chow")
        elif kind is Claim.PUNG and not seat.holds(tile, 2):
            raise IllegalMove("Can't pung that tile")
        elif kind is Claim.KONG and not seat.holds(tile, 3):
            raise IllegalMove("Can't kong that tile")
        elif kind is Claim.MAHJONG:
            source = WinSource.DISCARD if pending.kong is None else WinSource.ROBBED_KONG
            if not self._goes_out(index, [*seat.concealed, tile], tile, source, pending.seat):
                raise IllegalMove("Can't mah-jong with that tile")
        if kind is not Claim.MAHJONG:
            move: P.PMsg
            if kind is Claim.CHOW:
                assert cpos is not None
                move = P.Chow(serial, cpos)
            else:
                move = P.Pung(serial) if kind is Claim.PUNG else P.Kong(serial)
            self._check_forbidden(index, move, tile)
        pending.claims[index] = (kind, cpos)
        announce: C.CMsg
        if kind is Claim.CHOW:
            assert cpos is not None
            announce = C.PlayerClaimsChow(player, serial, cpos)
        elif kind is Claim.PUNG:
            announce = C.PlayerClaimsPung(player, serial)
        elif kind is Claim.KONG:
            announce = C.PlayerClaimsKong(player, serial)
        else:
            announce = C.PlayerClaimsMahJong(player, serial)
        self._broadcast(announce)
        self._resolve_if_answered()

    def _chow_possible(self, seat: Seat, tile: Tile, cpos: ChowPosition) -> bool:
        if not tiles.is_suited(tile):
            return False
        positions = (
            [ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER] if cpos is ChowPosition.ANYPOS else [cpos]
        )
        return any(self._chow_tiles(seat, tile, p) is not None for p in positions)

    @staticmethod
    def _chow_tiles(seat: Seat, tile: Tile, cpos: ChowPosition) -> tuple[Tile, Tile] | None:
        """The two tiles from the hand that make a chow with ``tile`` at position ``cpos``."""
        return chow_partners(seat.concealed, tile, cpos)

    def _resolve_if_answered(self) -> None:
        pending = self.pending
        if pending is not None and all(i in pending.claims for i in self._claimants(pending)):
            self._resolve()

    def _resolve(self) -> None:
        pending = self.pending
        assert pending is not None
        answers = [pending.claims.get(i, _NO_ANSWER)[0] for i in range(4)]
        # Nobody claimed (most discards): no claim can succeed, whatever the rule system's precedence.
        passed = answers.count(Claim.NO_CLAIM) == 4
        winners = () if passed else self.rules.resolve_claims(pending.seat, answers, self.options)
        if winners and not self.course.declares_hands and answers[winners[0]] is Claim.MAHJONG:
            self._win_on_tile(pending, winners)
            return
        # With a declaration phase one claim succeeds at most (classical's rules grant no more).
        best = winners[0] if winners else None
        if pending.kong is not None:
            self._resolve_kong(pending, best)
            return
        if best is None:
            self.pending = None
            self.phase = Phase.DISCARDING
            self.turn = (pending.seat + 1) % 4
            self._draw_live(self.turn)
            return
        kind, cpos = pending.claims[best]
        if kind is not Claim.CHOW:
            self._deny_others(pending, best)
        player = self.seating[best]
        if kind is Claim.CHOW:
            assert cpos is not None
            if cpos is ChowPosition.ANYPOS:
                pending.chow_position_from = best
                self._send(player, C.PlayerChows(player, pending.tile, ChowPosition.ANYPOS), hist=True)
                return
            self._implement_chow(best, cpos)
        elif kind is Claim.PUNG:
            self._take_discard(pending, best)
            seat = self.seats[best]
            signals = self.rules.exposure(seat.exposed)
            seat.remove(pending.tile, 2)
            seat.melds.append(pung(pending.tile, False))
            seat.play_melds += 1
            self._set_made(MeldKind.PUNG)
            self.just_punged = pending.tile
            self._broadcast(C.PlayerPungs(player, pending.tile))
            self._info_tiles(best)
            self._check_danger(pending, best, signals)
        elif kind is Claim.KONG:
            self._take_discard(pending, best)
            seat = self.seats[best]
            seat.remove(pending.tile, 3)
            seat.melds.append(kong(pending.tile, KongOrigin.CLAIMED))
            seat.play_melds += 1
            self._set_made(MeldKind.KONG)
            self._broadcast(C.PlayerKongs(player, pending.tile))
            self.kong_chain = 1
            self._draw_loose(best)
        else:
            self.pending = None
            self.phase = Phase.MAHJONGING
            self.winning = Winning(best, pending.tile, WinSource.DISCARD, pending.tile, pending.seat)
            self.winning.facts = self._win_facts(best, pending.tile, WinSource.DISCARD, pending.seat)
            self._broadcast(C.PlayerMahJongs(player, BLANK))

    def _win_on_tile(self, pending: PendingTile, winners: tuple[int, ...]) -> None:
        """Every winner goes out on the discard (or robs the kong) at once, and the hand is settled.

        The tile stays where it lies (the discard in its pile, the robbed kong's fourth
        tile with the robber): several winners share the one tile.
        """
        self.pending = None
        for i in range(4):
            if i not in winners and pending.claims.get(i, _NO_ANSWER)[0] is not Claim.NO_CLAIM:
                pid = self.seating[i]
                self._send(pid, C.ClaimDenied(pid, "There was a prior claim"))
        if pending.kong is not None:
            konger = self.seats[pending.seat]
            position = next(i for i, m in enumerate(konger.melds) if m.kind is MeldKind.KONG and m.tile == pending.tile)
            konger.melds[position] = pung(pending.tile, pending.kong is KongOrigin.CONCEALED)
        source = WinSource.DISCARD if pending.kong is None else WinSource.ROBBED_KONG
        wins = []
        for index in winners:
            winning = Winning(index, pending.tile, source, pending.tile, pending.seat)
            winning.facts = self._win_facts(index, pending.tile, source, pending.seat, pending.kong)
            wins.append(winning)
            player = self.seating[index]
            if pending.kong is None:
                self._broadcast(C.PlayerMahJongs(player, BLANK))
            else:
                self._broadcast(C.PlayerRobsKong(player, pending.tile))
        self.winning = wins[0]
        self.phase = Phase.MAHJONGING
        self._settle_at_once(wins)

    def _deny_others(self, pending: PendingTile, winner: int) -> None:
        """Tell the other claimers they lost, in seat order from East as the original does
        (all 16 double denials in its logs of the corpus and 302 more games), not in turn
        from the discarder."""
        for i in range(4):
            if i != winner and pending.claims.get(i, (Claim.NO_CLAIM, None))[0] is not Claim.NO_CLAIM:
                pid = self.seating[i]
                self._send(pid, C.ClaimDenied(pid, "There was a prior claim"))

    def _take_discard(self, pending: PendingTile, claimer: int) -> None:
        """The claimed discard leaves the discarder's pile; play moves to the claimer."""
        self.seats[pending.seat].discards.pop()
        self.pending = None
        self.phase = Phase.DISCARDING
        self.turn = claimer
        self.pass_from[claimer] = len(self.timeline)
        self.after_claim = True
        self.just_punged = None
        self.last_draw = None

    def _implement_chow(self, index: int, cpos: ChowPosition) -> None:
        pending = self.pending
        assert pending is not None
        seat = self.seats[index]
        pair_tiles = self._chow_tiles(seat, pending.tile, cpos)
        if pair_tiles is None:
            raise IllegalMove("Can't make that chow")
        was_anypos = pending.chow_position_from is not None
        signals = self.rules.exposure(seat.exposed)
        self._take_discard(pending, index)
        for t in pair_tiles:
            seat.remove(t)
        seat.melds.append(chow(min(pending.tile, *pair_tiles), False))
        seat.play_melds += 1
        self._set_made(MeldKind.CHOW)
        player = self.seating[index]
        self._broadcast(C.PlayerChows(player, pending.tile, cpos))
        if not was_anypos:
            self._info_tiles(index)
        self._check_danger(pending, index, signals)

    def _resolve_kong(self, pending: PendingTile, robber: int | None) -> None:
        konger = self.seats[pending.seat]
        self.pending = None
        if robber is None:
            self.kong_chain += 1
            self._draw_loose(pending.seat)
            return
        self._deny_others(pending, robber)
        position = next(i for i, m in enumerate(konger.melds) if m.kind is MeldKind.KONG and m.tile == pending.tile)
        konger.melds[position] = pung(pending.tile, pending.kong is KongOrigin.CONCEALED)
        player = self.seating[robber]
        self.phase = Phase.MAHJONGING
        self.winning = Winning(robber, pending.tile, WinSource.ROBBED_KONG, pending.tile, None)
        self.winning.facts = self._win_facts(robber, pending.tile, WinSource.ROBBED_KONG, pending.seat, pending.kong)
        self._broadcast(C.PlayerRobsKong(player, pending.tile))

    # -- mah-jong declarations

    def _goes_out(self, index: int, concealed: list[Tile], tile: Tile, source: WinSource, feeder: int | None) -> bool:
        """Whether seat ``index`` may go out holding ``concealed`` (the winning ``tile`` among them)."""
        if any(t == BLANK for t in concealed):
            return self.config.original_quirks
        seat = self.seats[index]
        held = SeatHand(
            tuple(seat.melds), tuple(concealed), tuple(seat.specials), seat.wind, self.round_wind, self.indicator
        )
        pending = self.pending
        robbed = pending.kong if pending is not None and source is WinSource.ROBBED_KONG else None
        return self.rules.goes_out(held, self._win_facts(index, tile, source, feeder, robbed), self.options)

    def _passed(self, index: int) -> tuple[Tile, ...]:
        """The others' discards seat ``index`` let pass since its last turn or the last pung or kong."""
        later = self.timeline[self.pass_from[index] :]
        return tuple(t for who, t, serial in later if who != index and serial != self.serial)

    def _check_forbidden(self, index: int, move: P.PMsg, tile: Tile) -> None:
        """The rule system's own limits on making a set (Beijing: no wild tile in one)."""
        reason = self.rules.forbids(move, tile, self._seat_hand(index), self.options)
        if reason:
            raise IllegalMove(reason)

    def _set_made(self, kind: MeldKind) -> None:
        """A set was made: the hand's opening is over; after a pung or a kong nobody has let a tile pass."""
        self.opening_open = False
        if kind is not MeldKind.CHOW:
            self.pass_from = [len(self.timeline)] * 4
        if kind is MeldKind.KONG:
            self.kongs += 1

    def _can_finish(self, melds: list[Meld], concealed: list[Tile]) -> bool:
        """Can the winner still complete a hand after declaring ``melds``?"""
        if any(t == BLANK for t in concealed) or any(m.tile == BLANK for m in melds):
            return self.config.original_quirks
        return self.rules.can_finish(melds, concealed, self.options)

    def _winner_uses(self, player: int, kind: MeldKind, cpos: ChowPosition | None) -> None:
        """The winner says which set the claimed (or robbed) tile completes."""
        winning = self.winning
        index = self.seat_index(player)
        if winning is None or winning.seat != index:
            raise IllegalMove("Not going out" if kind is not MeldKind.CHOW else "Can't chow now")
        tile = winning.pending
        if tile is None:
            raise IllegalMove("No discard to use")
        seat = self.seats[index]
        word = {MeldKind.PUNG: "pung", MeldKind.CHOW: "chow", MeldKind.PAIR: "pair"}.get(kind, "")
        if kind is MeldKind.PUNG:
            if not seat.holds(tile, 2):
                raise IllegalMove("Can't pung that tile")
            meld, used = pung(tile, False), [tile, tile]
        elif kind is MeldKind.PAIR:
            if not seat.holds(tile):
                raise IllegalMove("Can't pair that tile")
            meld, used = pair(tile, False), [tile]
        elif kind is MeldKind.CHOW:
            assert cpos is not None
            if cpos is ChowPosition.ANYPOS:
                if not self._chow_possible(seat, tile, cpos):
                    raise IllegalMove("Can't make that chow")
                self._send(player, C.PlayerChows(player, tile, ChowPosition.ANYPOS))
                return
            found = self._chow_tiles(seat, tile, cpos)
            if found is None:
                raise IllegalMove("Can't make that chow")
            meld, used = chow(min(tile, *found), False), list(found)
        else:
            concealed = [*seat.concealed, tile]
            if not hand.is_thirteen_wonders(concealed):
                raise IllegalMove("Wrong number of tiles in special set")
            meld, used = special(tuple(concealed), False), list(seat.concealed)
        remaining = list(seat.concealed)
        for t in used:
            remaining.remove(t)
        if not self._can_finish([*seat.melds, meld], remaining):
            raise IllegalMove(f"Can't go out with that {word}")
        signals = self.rules.exposure(seat.exposed)
        seat.concealed = remaining
        seat.melds.append(meld)
        winning.pending = None
        message: C.CMsg
        if kind is MeldKind.PUNG:
            message = C.PlayerPungs(player, tile)
        elif kind is MeldKind.PAIR:
            message = C.PlayerPairs(player, tile)
        elif kind is MeldKind.CHOW:
            assert cpos is not None
            message = C.PlayerChows(player, tile, cpos)
        else:
            message = C.PlayerSpecialSet(player, tile, tiles.codes(used))
        self._broadcast(message)
        self._info_tiles(index)
        feeder = winning.discarder
        if feeder is None and winning.source is WinSource.ROBBED_KONG and winning.facts is not None:
            feeder = winning.facts.feeder  # the robbed kong's tile is judged as the konger's discard
        if kind is not MeldKind.SPECIAL and feeder is not None:
            self._check_danger(PendingTile(tile, self.serial, feeder), index, signals)
        self._after_declaration(index)

    def _pair(self, player: int, _: P.Pair) -> None:
        if self.phase is not Phase.MAHJONGING:
            raise IllegalMove("Not scoring now")
        self._winner_uses(player, MeldKind.PAIR, None)

    def _special_set(self, player: int, _: P.SpecialSet) -> None:
        if self.phase is not Phase.MAHJONGING:
            raise IllegalMove("Can't declare special set now")
        self._winner_uses(player, MeldKind.SPECIAL, None)

    def _form_closed(self, player: int, kind: MeldKind, tile: Tile) -> None:
        if self.phase is not Phase.MAHJONGING:
            raise IllegalMove("Not scoring now")
        index = self.seat_index(player)
        seat = self.seats[index]
        if seat.score is not None:
            raise IllegalMove("Hand already declared")
        word = kind.value  # "pung", "chow" or "pair": the word of the error texts
        used = closed_set(kind, tile, seat.concealed)
        if used is None:
            raise IllegalMove(f"Don't have that {word}")
        if kind is MeldKind.CHOW:
            meld = chow(tile, True)
        else:
            meld = pung(tile, True) if kind is MeldKind.PUNG else pair(tile, True)
        remaining = list(seat.concealed)
        for t in used:
            remaining.remove(t)
        winning = self.winning
        is_winner = winning is not None and winning.seat == index
        if is_winner and (
            (winning is not None and winning.pending is not None)
            or not self._can_finish([*seat.melds, meld], remaining)
        ):
            raise IllegalMove(f"Can't go out with that {word}")
        seat.concealed = remaining
        seat.melds.append(meld)
        message: C.CMsg
        if kind is MeldKind.PUNG:
            message = C.PlayerFormsClosedPung(player, tile)
        elif kind is MeldKind.CHOW:
            message = C.PlayerFormsClosedChow(player, tile)
        else:
            message = C.PlayerFormsClosedPair(player, tile)
        self._broadcast(message)
        self._info_tiles(index)
        self._after_declaration(index)

    def _form_closed_pung(self, player: int, msg: P.FormClosedPung) -> None:
        self._form_closed(player, MeldKind.PUNG, msg.tile)

    def _form_closed_chow(self, player: int, msg: P.FormClosedChow) -> None:
        self._form_closed(player, MeldKind.CHOW, msg.tile)

    def _form_closed_pair(self, player: int, msg: P.FormClosedPair) -> None:
        self._form_closed(player, MeldKind.PAIR, msg.tile)

    def _form_closed_special_set(self, player: int, _: P.FormClosedSpecialSet) -> None:
        if self.phase is not Phase.MAHJONGING:
            raise IllegalMove("Not scoring now")
        index = self.seat_index(player)
        seat = self.seats[index]
        winning = self.winning
        if winning is None or winning.seat != index or winning.pending is not None:
            raise IllegalMove("Can't declare special set now")
        if not hand.is_thirteen_wonders(seat.concealed):
            raise IllegalMove("No special hand to form")
        used = tuple(seat.concealed)
        seat.concealed = []
        seat.melds.append(special(used, True))
        self._broadcast(C.PlayerFormsClosedSpecialSet(player, tiles.codes(used)))
        self._info_tiles(index)
        self._after_declaration(index)

    def _show_tiles(self, player: int, _: P.ShowTiles) -> None:
        if self.phase is not Phase.MAHJONGING:
            raise IllegalMove("Can't reveal your tiles now!")
        index = self.seat_index(player)
        seat = self.seats[index]
        winning = self.winning
        assert winning is not None
        if seat.score is not None:
            raise IllegalMove("Hand already declared")
        if winning.seat == index:
            raise IllegalMove("Must finish making your sets")
        if not seat.concealed:
            return
        self._broadcast(C.PlayerShowsTiles(player, tiles.codes(seat.concealed)))
        self._score(index)

    def _after_declaration(self, index: int) -> None:
        seat = self.seats[index]
        winning = self.winning
        assert winning is not None
        if not seat.concealed and (winning.seat != index or winning.pending is None):
            self._score(index)

    # -- scoring, settlement, the end of a hand

    def _seat_hand(self, index: int) -> SeatHand:
        seat = self.seats[index]
        return SeatHand(
            tuple(seat.melds), tuple(seat.concealed), tuple(seat.specials), seat.wind, self.round_wind, self.indicator
        )

    def _score(self, index: int) -> None:
        seat = self.seats[index]
        winning = self.winning
        assert winning is not None
        facts = winning.facts if winning.seat == index else None
        result = self.rules.score(self._seat_hand(index), facts, self.options, self.config.special_scores)
        seat.score = result.score
        self._broadcast(C.HandScore(seat.player, result.score, result.text))
        if all(s.score is not None for s in self.seats):
            self._settle()

    def _settle(self) -> None:
        winning = self.winning
        assert winning is not None
        cannoneer = self._cannoneer(winning.seat)
        result = self.rules.settle(
            [s.score or 0 for s in self.seats],
            winning.seat,
            winning.discarder,
            cannoneer,
            self.options,
        )
        self._close_hand(result.changes, result.text, winning.seat)

    def _settle_at_once(self, wins: list[Winning]) -> None:
        """No declaration phase: hidden kongs and the winners' tiles shown, each winner scored, one settlement."""
        self._reveal_hidden_kongs()
        scored: list[tuple[int, HandScore, Win]] = []
        for winning in wins:
            seat = self.seats[winning.seat]
            held = [*seat.concealed, winning.tile] if winning.discarder is not None else list(seat.concealed)
            hand = SeatHand(
                tuple(seat.melds), tuple(held), tuple(seat.specials), seat.wind, self.round_wind, self.indicator
            )
            facts = winning.facts
            assert facts is not None
            result = self.rules.score(hand, facts, self.options, self.config.special_scores)
            seat.score = result.score
            self._broadcast(C.PlayerShowsTiles(seat.player, tiles.codes(seat.concealed)))
            self._broadcast(C.HandScore(seat.player, result.score, result.text))
            for name, value in result.figures:
                self._broadcast(C.ScoreFigure(seat.player, value, name))
            scored.append((winning.seat, result, facts))
        settlement = self.rules.settle_wins(scored, self.options)
        for payment in settlement.payments:
            self._broadcast(C.Payment(self.seating[payment.payer], self.seating[payment.payee], payment.amount))
        seats = [w.seat for w in wins]
        self._close_hand(settlement.changes, settlement.text, 0 if 0 in seats else seats[0])

    def _reveal_hidden_kongs(self) -> None:
        if self.course.hides_concealed_kongs:
            for seat in self.seats:
                for meld in seat.melds:
                    if meld.kind is MeldKind.KONG and meld.concealed:
                        self._broadcast(C.PlayerRevealsConcealedKong(seat.player, meld.tile))

    def _close_hand(self, changes: tuple[int, int, int, int], text: str, winner: int) -> None:
        """The settlement applied and announced; the dealer, the round and the game move on."""
        for seat, change in zip(self.seats, changes, strict=True):
            self.scores[seat.player] += change
        e, s, w, n = changes
        self._broadcast(C.Settlement(e, s, w, n, text))
        if winner == 0:
            self.hands_as_east += 1
        self.last_winner = winner
        rotates = self.rules.dealer_rotates(winner, self.hands_as_east)
        if self.rules.game_ends(self.completed_rounds, rotates, self.seating[1] == self.firsteast, self.options):
            self.game_over = True
            self._broadcast(C.GameOver(), hist=False)
        self.phase = Phase.HAND_COMPLETE
        self._open_pause("to start next hand")

    def _wash_out(self, reason: str) -> None:
        self.pending = None
        self.phase = Phase.HAND_COMPLETE
        self.last_winner = None
        self._broadcast(C.WashOut(reason))
        self._reveal_hidden_kongs()
        if self.course.show_on_washout:
            for seat in self.seats:
                if seat.concealed:
                    self._broadcast(C.PlayerShowsTiles(seat.player, tiles.codes(seat.concealed)))
        self._open_pause("to start next hand")

    # -- danger and the win facts

    def _check_danger(self, pending: PendingTile, claimer: int, signals: frozenset[Hashable]) -> None:
        """DangerousDiscard after a claim is implemented (§9.8).

        ``signals`` are the claimer's before this claim: the discard is judged by them, and so is
        whether the discarder had a choice (its other tiles, as the others' signals stood when it
        discarded).
        """
        reasons = self._danger_of(pending.tile, signals)
        if not reasons:
            return
        discarder = self.seats[pending.seat]
        others = [i for i in range(4) if i != pending.seat]
        shown = [signals if i == claimer else self.rules.exposure(self.seats[i].exposed) for i in others]
        no_choice = all(any(self._danger_of(t, s) for s in shown) for t in discarder.concealed)
        if not no_choice:
            for seat in self.seats:
                seat.liable_to.pop(claimer, None)
            discarder.liable_to[claimer] = reasons
        self._broadcast(C.DangerousDiscard(discarder.player, pending.serial, no_choice))

    def _danger_of(self, tile: Tile, signals: frozenset[Hashable]) -> frozenset[Hashable]:
        return self.rules.danger(tile, signals, self.wall.live_left, self.discarded[tile])

    def _cannoneer(self, winner: int) -> int | None:
        final = self.rules.achieved(self._seat_hand(winner))
        for i, seat in enumerate(self.seats):
            reasons = seat.liable_to.get(winner)
            if i != winner and reasons and reasons & final:
                return i
        return None

    def _win_facts(
        self, index: int, tile: Tile, source: WinSource, feeder: int | None = None, robbed: KongOrigin | None = None
    ) -> Win:
        seat = self.seats[index]
        visible = [0] * tiles.NUM_KINDS
        for s in self.seats:
            for t in s.discards:
                if tiles.is_valid(t) and not tiles.is_special(t):
                    visible[tiles.kind_index(t)] += 1
            for m in s.melds:
                for t in m.tiles:
                    if tiles.is_valid(t) and not tiles.is_special(t):
                        visible[tiles.kind_index(t)] += 1
        nobody_discarded = not any(s.has_discarded for s in self.seats)
        others_discarded = any(s.has_discarded for s in self.seats[1:])
        return Win(
            tile=tile,
            source=source,
            melds_before_win=seat.play_melds,
            visible=tuple(visible),
            last_tile=self.wall.live_left == 0 or self._wall_ends(loose=False),
            heavens_blessing=index == 0 and nobody_discarded and source is not WinSource.DISCARD,
            earths_blessing=index != 0 and source is WinSource.DISCARD and not others_discarded,
            kong_upon_kong=source is WinSource.LOOSE and self.kong_chain >= 2,
            original_call=seat.calling,
            hands_as_east=self.hands_as_east,
            winner_is_east=index == 0,
            feeder=feeder,
            robbed=robbed,
            discards=tuple(seat.thrown),
            passed=self._passed(index),
            opening=tuple(self.opening),
            after_draw=self.after_draw,
            banker_hands=self.banker_hands,
        )

    _handlers: ClassVar[dict[type, Callable[[Game, int, Any], None]]] = {}


Game._handlers = {
    P.Ready: Game._ready,
    P.RequestPause: Game._request_pause,
    P.SetGameOption: Game._set_game_option,
    P.ChangeManager: Game._change_manager,
    P.DeclareWashOut: Game._declare_washout,
    P.QueryMahJong: Game._query_mahjong,
    P.SwapTile: Game._swap_tile,
    P.DeclareSpecial: Game._declare_special,
    P.Discard: Game._discard,
    P.DeclareClosedKong: Game._declare_closed_kong,
    P.AddToPung: Game._add_to_pung,
    P.MahJong: Game._mahjong,
    P.NoClaim: Game._no_claim,
    P.Pung: Game._pung,
    P.Kong: Game._kong,
    P.Chow: Game._chow,
    P.Pair: Game._pair,
    P.SpecialSet: Game._special_set,
    P.FormClosedPung: Game._form_closed_pung,
    P.FormClosedChow: Game._form_closed_chow,
    P.FormClosedPair: Game._form_closed_pair,
    P.FormClosedSpecialSet: Game._form_closed_special_set,
    P.ShowTiles: Game._show_tiles,
}
