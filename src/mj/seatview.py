"""What one seat knows about the game, rebuilt from the controller messages it receives.

A robot must decide only from what a real client could know, so the view is fed
exclusively with the messages the server sends to this seat (protocol.md §3): its own
tiles arrive as real codes, everybody else's draws as ``--``. The same view serves the
socket client and the in-process arena, which is why it never touches I/O and never
looks at anything but :class:`~mj.protocol.cmsg.CMsg` values.

The view keeps the course of a hand as the client sees it (§7): dealing until East
holds 14 tiles and the others 13, the declaring turn passing on
``PlayerDeclaresSpecial id --``, turns and claim windows during play, the
declaration phase after mah-jong. It also counts the live wall the way the server
builds it (§7.9), so that strategies can tell how close the end of the wall is, and
keeps the hand's discards in table order with who claimed them (the timeline of
:class:`DiscardRecord`), from which defence reads what each player let pass.

It lives outside the robot because the browser gateway (:mod:`mj.web`) keeps the
same view for a person's seat. What the seat may do now is its rule system's
answer, :meth:`SeatView.legal_moves` (:meth:`mj.rules.ruleset.Ruleset.legal_moves`):
the robot chooses among those moves and the gateway offers them. The view also
asks its rule system how the deal goes and how the dead wall is built, so its
count of the live wall is the engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import chain
from typing import Any, Final, cast

from mj import tiles
from mj.hand import counts, wait_indices
from mj.melds import KongOrigin, Meld, MeldKind, chow, kong, pair, pung, special
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import Course, DeadWallPolicy, WinSource
from mj.rules.options import GameOptions
from mj.rules.ruleset import DrawsLeft, Ruleset
from mj.tiles import BLANK, Tile, kind_index

#: How far the claimed tile sits from the lowest tile of the chow, by position (§2.4).
CHOW_OFFSET: Final = {ChowPosition.LOWER: 0, ChowPosition.MIDDLE: 1, ChowPosition.UPPER: 2}


def chow_partners(tile: Tile, position: ChowPosition) -> tuple[Tile, Tile]:
    """The two tiles that make a chow with ``tile`` placed at ``position`` (whoever holds them)."""
    low = tile - CHOW_OFFSET[position]
    first, second = (t for t in (low, low + 1, low + 2) if t != tile)
    return first, second


_ClaimMessage = C.PlayerClaimsChow | C.PlayerClaimsPung | C.PlayerClaimsKong | C.PlayerClaimsMahJong


class Phase(Enum):
    """Where the hand stands, as far as a client can tell."""

    BETWEEN_HANDS = "between hands"
    DEALING = "dealing"
    DECLARING = "declaring specials"
    PLAYING = "playing"
    MAHJONGING = "declaring the hands"


@dataclass(slots=True, init=False)
class Pending:
    """A tile others may claim: a discard, or a kong being made (which may be robbed)."""

    who: int
    tile: Tile
    serial: int
    #: None for a discard; for a kong, how it is being made.
    kong: KongOrigin | None = None

    # Written out, not generated: see mj.compiled on value classes built per message.
    def __init__(self, who: int, tile: Tile, serial: int, kong: KongOrigin | None = None) -> None:
        self.who = who
        self.tile = tile
        self.serial = serial
        self.kong = kong


@dataclass(slots=True, init=False)
class DiscardRecord:
    """One discard of the current hand, in table order; claimed discards stay on record.

    The piles of :class:`PlayerState` lose a discard when it is claimed and do not say
    who discarded what before whom. Defence needs both: a player's hand only changes
    in its own turn (a draw or a claim, each followed by its discard), so every tile
    discarded after a player's last discard that it let pass is not a tile it waits
    for now, and its discards, claimed or not, are tiles it chose to give up.
    """

    who: int
    tile: Tile
    serial: int
    #: The player who claimed it (for a set or for mah-jong), None while nobody has.
    claimed_by: int | None = None

    # Written out, not generated: see mj.compiled on value classes built per message.
    def __init__(self, who: int, tile: Tile, serial: int, claimed_by: int | None = None) -> None:
        self.who = who
        self.tile = tile
        self.serial = serial
        self.claimed_by = claimed_by


@dataclass(slots=True)
class PlayerState:
    """What is public about one player (and, for the viewer, nothing more)."""

    id: int
    name: str = ""
    melds: list[Meld] = field(default_factory=list)
    #: Discards still lying on the table (a claimed discard moves into the claimer's set).
    discards: list[Tile] = field(default_factory=list)
    specials: list[Tile] = field(default_factory=list)
    #: Number of concealed tiles held.
    concealed: int = 0
    calling: bool = False
    #: Tiles revealed by ShowTiles (or on a wash-out), None until then.
    shown: tuple[Tile, ...] | None = None
    hand_score: int | None = None

    def new_hand(self) -> None:
        self.melds = []
        self.discards = []
        self.specials = []
        self.concealed = 0
        self.calling = False
        self.shown = None
        self.hand_score = None

    @property
    def sets(self) -> int:
        """Declared chows, pungs and kongs (pairs and special hands are not sets)."""
        if not self.melds:
            return 0  # most players most of the time: asked at every decision
        return sum(1 for m in self.melds if m.kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG))


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended, for statistics: who won, who fed the winning tile, the payments."""

    hand: int
    winner: int | None
    #: The player whose discard (or kong) gave the winning tile; None for a win from the wall.
    fed_by: int | None
    #: Change of each player's score (by id); empty for a wash-out.
    deltas: dict[int, int]
    washout_reason: str = ""
    #: Live tiles left in the wall at the end, as the view counted them.
    live_tiles: int = 0


class SeatView:
    """One seat's knowledge of the game, updated by :meth:`apply` with every message it receives."""

    def __init__(self, my_id: int = 0, rules: Ruleset | None = None) -> None:
        self.my_id = my_id
        if rules is None:
            # Imported here: the rule systems import this module to read views.
            from mj.rules.registry import DEFAULT

            rules = DEFAULT
        #: The table's rule system: what the seat may do, how the wall is dealt.
        self.rules: Ruleset = rules
        #: Messages applied so far: the legal moves are worked out once per change.
        self._changes = 0
        self._legal: tuple[int, list[P.PMsg]] = (-1, [])
        self.players: dict[int, PlayerState] = {}
        #: Player ids by seat, East first (rotated at every NewHand).
        self.seats: list[int] = []
        self.prevailing: Tile = tiles.EAST_WIND
        self.hands_as_east = 0
        self.firsteast = 0
        self.protocol = 1110
        self.scores: dict[int, int] = {}
        self.options: GameOptions = rules.new_options()
        # The server reports every option when the game starts; until then assume a
        # game as the server creates it, which switches DeadWall16 off (§6.2).
        if "DeadWall16" in self.options:
            self.options.set_value("DeadWall16", 0)
        #: How a hand runs under these rules and options (kept up to date with the options).
        self.course: Course = rules.course(self.options)
        self.hand_no = 0
        self.results: list[HandResult] = []
        self.game_over = False
        #: False until StartPlay, and again after StopPlay or a rejoining Game message.
        self.active = False
        #: A server pause is open: no discards until every player has sent Ready.
        self.paused = False
        #: Players marked ready in the current pause (the exempt one included).
        self.ready: set[int] = set()
        #: PlayerReady messages seen so far (a fixed server may really pause on a
        #: player's RequestPause, and a refused move is then retried after them).
        self.readies_seen = 0
        #: The concealed tiles :meth:`hand_counts` last counted, and their counts.
        self._counted: tuple[tuple[Tile, ...], tuple[int, ...]] = ((), (0,) * tiles.NUM_KINDS)
        #: The (concealed tiles, declared sets, seven pairs) :meth:`waits` last worked out, and the waits.
        self._waited: tuple[tuple[tuple[Tile, ...], int, bool], frozenset[int]] | None = None
        #: The :attr:`_changes` at which :attr:`_waited` was last checked against the hand.
        self._waits_at = -1
        #: :attr:`live_tiles`, asked far more often than the wall changes.
        self._draws_left = DrawsLeft()
        self._new_hand_state()

    def _new_hand_state(self) -> None:
        self.phase = Phase.BETWEEN_HANDS
        #: Own concealed tiles in the order received (specials included until declared).
        self.concealed: list[Tile] = []
        #: Seat (0 = East) whose turn it is to declare specials.
        self.declarer = 0
        #: Player who must act (draws, claims implemented); None while a discard is open.
        self.turn: int | None = None
        #: The open claim window (discard) or robbing window (kong).
        self.pending: Pending | None = None
        #: The last discard made (claim windows close, this stays until the next one).
        self.last_discard: Pending | None = None
        #: Every discard of the hand in table order, claimed ones included.
        self.timeline: list[DiscardRecord] = []
        self.last_drawn: Tile | None = None
        #: This seat has discarded this hand (an Original Call comes only with the first discard).
        self.has_discarded = False
        #: Own last tile came from a claimed discard: no specials or closed kongs now.
        self.after_claim = False
        #: (discarder, serial, no choice) of every discard the server called dangerous.
        self.dangerous: list[tuple[int, int, bool]] = []
        #: Claims lodged on the open tile, by player: "chow", "pung", "kong" or "mah-jong".
        self.claims: dict[int, str] = {}
        #: Reasons given for this seat's claims that failed (ClaimDenied).
        self.denied: list[str] = []
        self.winner: int | None = None
        #: Every player who went out this hand (several on one discard where the rules allow it).
        self.winners: list[int] = []
        self.win_tile: Tile = BLANK
        self.win_source: WinSource | None = None
        #: The tile the winner must declare first (claimed discard or robbed kong).
        self.winner_pending: Tile | None = None
        self.fed_by: int | None = None
        #: Number of the winner's sets exposed before going out.
        self.melds_at_win = 0
        #: The winner's hand has been declared and scored: losers may now show theirs.
        self.winner_scored = False
        #: A chow this seat claimed ``AnyPos`` was granted on this tile: it must now say which chow.
        self.chow_choice: Tile | None = None
        #: The figures behind each winner's HandScore, in the order sent (mj's ``ScoreFigure``: IMS's
        #: "fan", "bonus", "fan:NAME", "bonus:NAME"), by player.
        self.score_figures: dict[int, list[tuple[str, int]]] = {}
        #: Each payment of the hand's settlement as (payer, payee, amount), in the order sent (mj's ``Payment``).
        self.payments: list[tuple[int, int, int]] = []
        #: (player, tile) of each hidden concealed kong named when the hand ended.
        self.revealed_kongs: list[tuple[int, Tile]] = []
        #: The wild indicator turned up after the deal (mj's ``WildIndicator``), None without one.
        self.indicator: Tile | None = None
        #: Where in :attr:`timeline` the tiles this seat let pass begin (its last turn, or the last pung or kong).
        self._pass_from = 0
        self._deal_draws = 0
        self._deal_size = len(self.rules.deal_order())
        self._last_source = WinSource.WALL
        wall = tiles.wall_size(self.rules.flowers(self.options))
        policy = self.rules.dead_wall(self.options)
        self._replenish = policy is DeadWallPolicy.REPLENISHED
        self._no_dead_wall = policy is DeadWallPolicy.NONE
        self._live_end = wall - policy.size
        self._dead_left = policy.size
        self._drawn_live = 0
        #: Kongs made this hand, by anyone (the rule system's end of the wall may depend on them).
        self._kongs = 0
        for player in self.players.values():
            player.new_hand()

    # -- queries

    def player(self, pid: int) -> PlayerState:
        state = self.players.get(pid)
        if state is None:
            state = self.players[pid] = PlayerState(pid)
        return state

    @property
    def me(self) -> PlayerState:
        state = self.players.get(self.my_id)  # asked at every decision: one call saved
        return state if state is not None else self.player(self.my_id)

    @property
    def melds(self) -> list[Meld]:
        """Own declared sets (exposed during play and, later, declared for scoring)."""
        return self.me.melds

    @property
    def specials(self) -> list[Tile]:
        return self.me.specials

    @property
    def declared_sets(self) -> int:
        return self.me.sets

    def seat_of(self, pid: int) -> int:
        """Seat number (0 = East) of a player, -1 if not seated."""
        return self.seats.index(pid) if pid in self.seats else -1

    @property
    def my_seat(self) -> int:
        seats = self.seats  # seat_of, written out: asked at nearly every message
        return seats.index(self.my_id) if self.my_id in seats else -1

    @property
    def own_wind(self) -> Tile:
        return tiles.WINDS[self.my_seat] if self.my_seat >= 0 else tiles.EAST_WIND

    @property
    def east(self) -> int:
        return self.seats[0] if self.seats else 0

    def left_of(self, pid: int) -> bool:
        """Whether ``pid`` plays just before this seat (only its discards may be chowed)."""
        seats = self.seats  # a full table or none: the seat before the first is the last
        return self.my_id in seats and seats[seats.index(self.my_id) - 1] == pid

    @property
    def tiles_held(self) -> int:
        """Own concealed tiles (specials included) plus three per declared set.

        14 means "my move" (13 for the other seats while declaring specials); one
        less means a replacement tile is owed.
        """
        return len(self.concealed) + 3 * self.declared_sets

    @property
    def live_tiles(self) -> int:
        """Tiles still to be drawn before the hand is drawn, the rule system's end of the wall counted
        (:func:`~mj.rules.ruleset.tiles_to_draw`; exact as long as the options are known and no kong is made)."""
        live = max(0, self._live_end - self._drawn_live)
        return self._draws_left.count(self.rules, live, live + self._dead_left, self._kongs, self.options)

    @property
    def seven_pairs(self) -> bool:
        return self.course.seven_pairs

    @property
    def last_source(self) -> WinSource:
        """Where this seat's last tile came from (the wall, or a loose tile after a kong or a flower)."""
        return self._last_source

    def hand_counts(self) -> list[int]:
        """:func:`~mj.hand.counts` of the own concealed tiles, as a fresh list.

        The counts are remembered for the tiles last counted: the hand only changes in
        this seat's own turn, while it is weighed at every other player's discard too.
        """
        held = tuple(self.concealed)
        if held != self._counted[0]:
            self._counted = (held, tuple(counts(held)))
        return list(self._counted[1])

    def waits(self) -> frozenset[int]:
        """Kind indices of the tiles that would complete the concealed hand (:func:`~mj.hand.wait_indices`).

        Remembered like :meth:`hand_counts`, so that going out on a discard is a set
        look-up at every claim window until the hand changes; and not even looked at
        again until the view changes (:meth:`changed` for edits outside :meth:`apply`).
        """
        waited = self._waited
        if waited is not None and self._waits_at == self._changes:
            return waited[1]
        key = (tuple(self.concealed), self.declared_sets, self.seven_pairs)
        if waited is None or waited[0] != key:
            waited = self._waited = (key, frozenset(wait_indices(self.hand_counts(), key[1], key[2])))
        self._waits_at = self._changes
        return waited[1]

    def visible_counts(self) -> list[int]:
        """Tiles of each kind anybody can see: discards on the table and all declared sets."""
        return counts(self._visible())

    def unseen_counts(self) -> list[int]:
        """Copies of each kind this seat has not seen: in the wall or in others' hands."""
        return [4 - seen if seen < 4 else 0 for seen in counts(chain(self.concealed, self._visible()))]

    def discarded_counts(self) -> list[int]:
        """Copies of each kind lying in the discards (the end-of-wall danger looks at these)."""
        return counts(self._discarded())

    def _discarded(self) -> Iterator[Tile]:
        return chain.from_iterable(p.discards for p in self.players.values())

    def _visible(self) -> Iterator[Tile]:
        """The discards, then the tiles of every declared set (:func:`~mj.hand.counts` skips the specials)."""
        return chain(self._discarded(), (t for p in self.players.values() for m in p.melds for t in m.tiles))

    def discards_of(self, pid: int) -> list[Tile]:
        """Every tile ``pid`` has discarded this hand, claimed ones included, in order."""
        return [record.tile for record in self.timeline if record.who == pid]

    def passed_since_turn(self, pid: int) -> set[int]:
        """Kind indices of the discards others made since ``pid``'s last discard, which ``pid`` let pass.

        ``pid``'s hand has not changed since that discard (a draw or a claim is always
        followed by one), so a hand that could go out on one of these tiles would
        have claimed it: ``pid`` does not wait for them now (the original robot only
        lets a winning discard pass when it prefers to wait for a self-drawn tile).
        """
        kinds: set[int] = set()
        for record in reversed(self.timeline):
            if record.who == pid:
                break
            if record.claimed_by != pid:
                kinds.add(kind_index(record.tile))
        return kinds

    @property
    def wild(self) -> Tile | None:
        """The wild tile the indicator names under this seat's rule system (None: no indicator, no wilds)."""
        return self.rules.wild_of(self.indicator) if self.indicator is not None else None

    def passed(self) -> tuple[Tile, ...]:
        """Others' discards this seat let pass since its last turn or the last pung or kong, the open one excepted."""
        pending = self.pending
        open_serial = pending.serial if pending is not None and pending.kong is None else -1
        later = self.timeline[self._pass_from :]
        return tuple(r.tile for r in later if r.who != self.my_id and r.serial != open_serial)

    def legal_moves(self) -> list[P.PMsg]:
        """The moves this seat may make now, by its rule system (worked out once per change of the view)."""
        if self._legal[0] != self._changes:
            self._legal = (self._changes, self.rules.legal_moves(self))
        return self._legal[1]

    def allows(self, move: P.PMsg) -> bool:
        """Whether ``move`` is among :meth:`legal_moves`: the very object, else an equal move of its kind.

        Comparing messages field by field is dear, and a chooser usually hands back one of
        the legal moves themselves.
        """
        legal = self.legal_moves()
        for candidate in legal:
            if candidate is move:
                return True
        kind = type(move)
        return move in [candidate for candidate in legal if type(candidate) is kind]

    def changed(self) -> None:
        """Say that the view's fields (its options too) were edited directly, not by :meth:`apply`."""
        self._changes += 1
        self.course = self.rules.course(self.options)
        self._draws_left.forget()

    # -- updating

    def apply(self, msg: C.CMsg) -> bool:
        """Take one controller message into account; False for the kinds that change no view."""
        kind = type(msg)
        # The two commonest messages called directly: a handler from the table is called as a Python object.
        if kind is _DRAWS:
            self._changes += 1
            self._draws(cast(C.PlayerDraws, msg))
            return True
        if kind is _DISCARDS:
            self._changes += 1
            self._discards(cast(C.PlayerDiscards, msg))
            return True
        handler = _HANDLERS.get(kind)
        if handler is None:
            return False
        self._changes += 1
        handler(self, msg)
        return True

    def _connect_reply(self, msg: C.ConnectReply) -> None:
        if msg.id:
            self.my_id = msg.id

    def _rules(self, msg: C.Rules) -> None:
        """The table plays another rule system (mj's extension): its moves, its options, its wall."""
        from mj.rules.registry import RulesError, get  # the rule systems import this module

        try:
            rules = get(msg.name)
        except RulesError:
            return  # a system this client does not know: it keeps its own, and the server refuses its moves
        self.rules = rules
        self.options = rules.new_options()
        self.course = rules.course(self.options)
        self._draws_left.forget()
        self._deal_size = len(rules.deal_order())

    def _player_msg(self, msg: C.Player) -> None:
        if msg.name:
            self.player(msg.id).name = msg.name
        else:
            self.players.pop(msg.id, None)

    def _game(self, msg: C.Game) -> None:
        self.seats = [msg.east, msg.south, msg.west, msg.north]
        self.prevailing = msg.round
        self.hands_as_east = msg.hands_as_east
        self.firsteast = msg.firsteast
        self.protocol = msg.protversion
        scores = (msg.east_score, msg.south_score, msg.west_score, msg.north_score)
        self.scores = dict(zip(self.seats, scores, strict=True))
        for pid in self.seats:
            self.player(pid)
        # A rejoining player is sent the hand's history next; nothing is acted on
        # until the StartPlay that follows it.
        self.active = False
        self._new_hand_state()

    def _game_option(self, msg: C.GameOption) -> None:
        self.options.apply_entry(msg.entry)
        self.course = self.rules.course(self.options)
        self._draws_left.forget()

    def _new_round(self, msg: C.NewRound) -> None:
        self.prevailing = msg.wind

    def _new_hand(self, msg: C.NewHand) -> None:
        if msg.east in self.seats:
            start = self.seats.index(msg.east)
            if start:
                self.hands_as_east = 0
            self.seats = self.seats[start:] + self.seats[:start]
        self.hand_no += 1
        self._new_hand_state()
        self.phase = Phase.DEALING

    def _start_play(self, _: C.StartPlay) -> None:
        self.active = True

    def _stop_play(self, _: C.StopPlay) -> None:
        self.active = False

    def _pause(self, msg: C.Pause) -> None:
        # A player's RequestPause is announced but does not really pause the original
        # server (protocol.md §16 item 4), so only the server's own pauses block play.
        if msg.requestor == 0:
            self.paused = True
            self.ready = {msg.exempt} if msg.exempt else set()

    def _player_ready(self, msg: C.PlayerReady) -> None:
        self.readies_seen += 1
        self.ready.add(msg.id)
        if self.paused and len(self.seats) == 4 and all(pid in self.ready for pid in self.seats):
            self.paused = False

    def _received(self, pid: int, tile: Tile, source: WinSource) -> None:
        player = self.player(pid)
        player.concealed += 1
        if pid == self.my_id:
            self.concealed.append(tile)
            self.last_drawn = tile
            self.after_claim = False
            self._last_source = source
            self._pass_from = len(self.timeline)
        if self.phase is Phase.PLAYING:
            self.turn = pid
            self.pending = None

    def _draws(self, msg: C.PlayerDraws) -> None:
        self._drawn_live += 1
        self._received(msg.id, msg.tile, WinSource.WALL)
        if self.phase is Phase.DEALING:
            self._deal_draws += 1
            if self._deal_draws == self._deal_size:
                self.phase = Phase.DECLARING
                self.declarer = 0

    def _draws_loose(self, msg: C.PlayerDrawsLoose) -> None:
        if self._no_dead_wall:
            self._live_end -= 1
        else:
            self._dead_left -= 1
            if self._replenish and self._dead_left < 13:
                self._live_end -= 2
                self._dead_left += 2
        self.pending = None
        self._received(msg.id, msg.tile, WinSource.LOOSE)

    def _remove_own(self, tile: Tile, n: int = 1) -> None:
        for _ in range(n):
            if tile in self.concealed:
                self.concealed.remove(tile)
            elif BLANK in self.concealed:
                self.concealed.remove(BLANK)

    def _lose(self, pid: int, tile_list: tuple[Tile, ...]) -> None:
        """``pid`` takes these tiles out of the concealed hand."""
        self.player(pid).concealed -= len(tile_list)
        if pid == self.my_id:
            for tile in tile_list:
                self._remove_own(tile)

    def _declares_special(self, msg: C.PlayerDeclaresSpecial) -> None:
        if msg.tile == BLANK:
            if self.phase is Phase.DECLARING:
                self.declarer += 1
                if self.declarer == 4:
                    # The server now pauses "to start play" with East exempt (§7.3): hold
                    # every action until that pause is over.
                    self.phase = Phase.PLAYING
                    self.turn = self.east
                    if not self.course.reveals_flowers:
                        # East's dealt hand counts as drawn from the wall (the original's), where a
                        # server that replaces the dealt flowers leaves its last replacement loose.
                        self._last_source = WinSource.WALL
                    self.paused = True
                    self.ready = {self.east}
            return
        self._lose(msg.id, (msg.tile,))
        self.player(msg.id).specials.append(msg.tile)

    def _discards(self, msg: C.PlayerDiscards) -> None:
        player = self.player(msg.id)
        self._lose(msg.id, (msg.tile,))
        player.discards.append(msg.tile)
        player.calling = player.calling or msg.calling
        self.pending = self.last_discard = Pending(msg.id, msg.tile, msg.discard)
        self.timeline.append(DiscardRecord(msg.id, msg.tile, msg.discard))
        self.claims = {}
        self.turn = None
        if msg.id == self.my_id:
            self.last_drawn = None
            self.has_discarded = True

    def _take_discard(self, claimer: int) -> Tile:
        """The open discard leaves the discarder's pile (claimed by ``claimer``, or used to go out)."""
        taken = self.pending if self.pending is not None else self.last_discard
        self.pending = None
        if taken is None:
            return BLANK
        pile = self.player(taken.who).discards
        if pile and pile[-1] == taken.tile:
            pile.pop()
        if self.timeline and self.timeline[-1].serial == taken.serial:
            self.timeline[-1] = replace(self.timeline[-1], claimed_by=claimer)
        return taken.tile

    def _claimed(self, pid: int, meld: Meld, from_hand: tuple[Tile, ...]) -> None:
        """A set made with the open discard (or, after mah-jong, the winner's pending tile)."""
        if self.phase is Phase.MAHJONGING:
            self.winner_pending = None
            if self.win_source is WinSource.DISCARD:
                self._take_discard(pid)
        else:
            self._take_discard(pid)
            self.turn = pid
            if pid == self.my_id:
                self.after_claim = True
                self.last_drawn = None
                self._pass_from = len(self.timeline)
            if meld.kind is not MeldKind.CHOW:
                self._pass_from = len(self.timeline)
        self._lose(pid, from_hand)
        self.player(pid).melds.append(meld)

    def _pungs(self, msg: C.PlayerPungs) -> None:
        self._claimed(msg.id, pung(msg.tile, False), (msg.tile, msg.tile))

    def _claims_kong(self, msg: C.PlayerKongs) -> None:
        self._kongs += 1
        self._claimed(msg.id, kong(msg.tile, KongOrigin.CLAIMED), (msg.tile,) * 3)

    def _chows(self, msg: C.PlayerChows) -> None:
        if msg.id == self.my_id:
            # "your AnyPos claim won, say which chow": nothing is made yet
            self.chow_choice = msg.tile if msg.cpos is ChowPosition.ANYPOS else None
        if msg.cpos is ChowPosition.ANYPOS:
            return
        low = msg.tile - CHOW_OFFSET[msg.cpos]
        others = tuple(t for t in (low, low + 1, low + 2) if t != msg.tile)
        self._claimed(msg.id, chow(low, False), others)

    def _pairs(self, msg: C.PlayerPairs) -> None:
        self._claimed(msg.id, pair(msg.tile, False), (msg.tile,))

    def _special_set(self, msg: C.PlayerSpecialSet) -> None:
        held = tuple(tiles.parse_many(msg.tiles))
        self._claimed(msg.id, special((*held, msg.tile), False), held)

    def _forms(self, pid: int, meld: Meld) -> None:
        self._lose(pid, meld.tiles)
        self.player(pid).melds.append(meld)

    def _forms_pung(self, msg: C.PlayerFormsClosedPung) -> None:
        self._forms(msg.id, pung(msg.tile, True))

    def _forms_chow(self, msg: C.PlayerFormsClosedChow) -> None:
        self._forms(msg.id, chow(msg.tile, True))

    def _forms_pair(self, msg: C.PlayerFormsClosedPair) -> None:
        self._forms(msg.id, pair(msg.tile, True))

    def _forms_special(self, msg: C.PlayerFormsClosedSpecialSet) -> None:
        self._forms(msg.id, special(tuple(tiles.parse_many(msg.tiles)), True))

    def _closed_kong(self, msg: C.PlayerDeclaresClosedKong) -> None:
        self._pass_from = len(self.timeline)
        self._kongs += 1
        self._lose(msg.id, (msg.tile,) * 4)
        self.player(msg.id).melds.append(kong(msg.tile, KongOrigin.CONCEALED))
        if not self.course.hides_concealed_kongs:  # a hidden kong cannot be robbed: the loose tile follows
            self.pending = Pending(msg.id, msg.tile, msg.discard, KongOrigin.CONCEALED)
            self.claims = {}

    def _reveals_kong(self, msg: C.PlayerRevealsConcealedKong) -> None:
        """A hidden concealed kong shown at the end of the hand: its blanks become the tile."""
        self.revealed_kongs.append((msg.id, msg.tile))
        melds = self.player(msg.id).melds
        for i, meld in enumerate(melds):
            if meld.kind is MeldKind.KONG and meld.concealed and meld.tile == BLANK:
                melds[i] = kong(msg.tile, KongOrigin.CONCEALED)
                return

    def _wild_indicator(self, msg: C.WildIndicator) -> None:
        """The indicator comes off the head of the live wall."""
        self._drawn_live += 1
        self.indicator = msg.tile

    def _score_figure(self, msg: C.ScoreFigure) -> None:
        self.score_figures.setdefault(msg.id, []).append((msg.name, msg.value))

    def _payment(self, msg: C.Payment) -> None:
        self.payments.append((msg.payer, msg.payee, msg.amount))

    def _adds_to_pung(self, msg: C.PlayerAddsToPung) -> None:
        self._kongs += 1
        self._pass_from = len(self.timeline)
        self._lose(msg.id, (msg.tile,))
        melds = self.player(msg.id).melds
        for i, meld in enumerate(melds):
            if meld.kind is MeldKind.PUNG and meld.tile == msg.tile and not meld.concealed:
                melds[i] = kong(msg.tile, KongOrigin.ANNEXED)
                break
        self.pending = Pending(msg.id, msg.tile, msg.discard, KongOrigin.ANNEXED)
        self.claims = {}
        if msg.id == self.my_id:
            self.after_claim = False

    def _robs_kong(self, msg: C.PlayerRobsKong) -> None:
        if self.phase is Phase.MAHJONGING and self.win_source is WinSource.ROBBED_KONG:
            self.winners.append(msg.id)  # another winner on the same kong
            return
        robbed = self.pending
        self.pending = None
        fed_by = None
        if robbed is not None and robbed.kong is not None:
            fed_by = robbed.who
            melds = self.player(robbed.who).melds
            for i, meld in enumerate(melds):
                if meld.kind is MeldKind.KONG and meld.tile == msg.tile:
                    melds[i] = pung(msg.tile, robbed.kong is KongOrigin.CONCEALED)
                    break
        self._goes_out(msg.id, msg.tile, WinSource.ROBBED_KONG, msg.tile, fed_by)

    def _mahjongs(self, msg: C.PlayerMahJongs) -> None:
        if self.phase is Phase.MAHJONGING and self.win_source is WinSource.DISCARD:
            self.winners.append(msg.id)  # another winner on the same discard
            return
        if msg.tile == BLANK and self.pending is not None and self.pending.kong is None:
            discard = self.pending
            self._goes_out(msg.id, discard.tile, WinSource.DISCARD, discard.tile, discard.who)
            return
        # From the wall (or East's dealt hand, announced with the blank of §16 item 9).
        source = self._last_source if msg.id == self.my_id else WinSource.WALL
        self._goes_out(msg.id, msg.tile, source, None, None)

    def _goes_out(self, pid: int, tile: Tile, source: WinSource, pending: Tile | None, fed_by: int | None) -> None:
        self.phase = Phase.MAHJONGING
        self.turn = None
        self.pending = None
        self.winner = pid
        self.winners = [pid]
        self.win_tile = tile
        self.win_source = source
        self.winner_pending = pending
        self.fed_by = fed_by
        self.melds_at_win = len(self.player(pid).melds)

    def _shows(self, msg: C.PlayerShowsTiles) -> None:
        shown = tuple(tiles.parse_many(msg.tiles))
        player = self.player(msg.id)
        player.shown = shown
        player.concealed = 0
        if msg.id == self.my_id:
            self.concealed = []

    def _hand_score(self, msg: C.HandScore) -> None:
        self.player(msg.id).hand_score = msg.score
        if msg.id == self.winner:
            self.winner_scored = True

    def _settlement(self, msg: C.Settlement) -> None:
        changes = (msg.east, msg.south, msg.west, msg.north)
        deltas = dict(zip(self.seats, changes, strict=False))
        for pid, delta in deltas.items():
            self.scores[pid] = self.scores.get(pid, 0) + delta
        self.results.append(HandResult(self.hand_no, self.winner, self.fed_by, deltas, "", self.live_tiles))
        if self.winner is not None and self.winner == self.east:
            self.hands_as_east += 1
        self.phase = Phase.BETWEEN_HANDS

    def _washout(self, msg: C.WashOut) -> None:
        self.results.append(HandResult(self.hand_no, None, None, {}, msg.reason, self.live_tiles))
        self.phase = Phase.BETWEEN_HANDS
        self.pending = None
        self.turn = None

    def _claims(
        self, msg: C.PlayerClaimsChow | C.PlayerClaimsPung | C.PlayerClaimsKong | C.PlayerClaimsMahJong
    ) -> None:
        if self.pending is not None and self.pending.serial == msg.discard:
            self.claims[msg.id] = _CLAIM_WORDS[type(msg)]

    def _claim_denied(self, msg: C.ClaimDenied) -> None:
        self.denied.append(msg.reason)

    def _dangerous(self, msg: C.DangerousDiscard) -> None:
        self.dangerous.append((msg.id, msg.discard, msg.nochoice))

    def _game_over(self, _: C.GameOver) -> None:
        self.game_over = True

    def _swap_tile(self, msg: C.SwapTile) -> None:
        if msg.id == self.my_id:
            self._remove_own(msg.oldtile)
            self.concealed.append(msg.newtile)


_DRAWS: Final = C.PlayerDraws
_DISCARDS: Final = C.PlayerDiscards

_CLAIM_WORDS: Final[dict[type[C.CMsg], str]] = {
    C.PlayerClaimsChow: "chow",
    C.PlayerClaimsPung: "pung",
    C.PlayerClaimsKong: "kong",
    C.PlayerClaimsMahJong: "mah-jong",
}

_HANDLERS: Final[dict[type[C.CMsg], Callable[[SeatView, Any], None]]] = {
    C.ConnectReply: SeatView._connect_reply,
    C.Player: SeatView._player_msg,
    C.Rules: SeatView._rules,
    C.Game: SeatView._game,
    C.GameOption: SeatView._game_option,
    C.NewRound: SeatView._new_round,
    C.NewHand: SeatView._new_hand,
    C.StartPlay: SeatView._start_play,
    C.StopPlay: SeatView._stop_play,
    C.Pause: SeatView._pause,
    C.PlayerReady: SeatView._player_ready,
    C.PlayerDraws: SeatView._draws,
    C.PlayerDrawsLoose: SeatView._draws_loose,
    C.PlayerDeclaresSpecial: SeatView._declares_special,
    C.PlayerDiscards: SeatView._discards,
    C.PlayerPungs: SeatView._pungs,
    C.PlayerKongs: SeatView._claims_kong,
    C.PlayerChows: SeatView._chows,
    C.PlayerPairs: SeatView._pairs,
    C.PlayerSpecialSet: SeatView._special_set,
    C.PlayerFormsClosedPung: SeatView._forms_pung,
    C.PlayerFormsClosedChow: SeatView._forms_chow,
    C.PlayerFormsClosedPair: SeatView._forms_pair,
    C.PlayerFormsClosedSpecialSet: SeatView._forms_special,
    C.PlayerDeclaresClosedKong: SeatView._closed_kong,
    C.PlayerAddsToPung: SeatView._adds_to_pung,
    C.PlayerRobsKong: SeatView._robs_kong,
    C.PlayerMahJongs: SeatView._mahjongs,
    C.PlayerShowsTiles: SeatView._shows,
    C.PlayerRevealsConcealedKong: SeatView._reveals_kong,
    C.HandScore: SeatView._hand_score,
    C.ScoreFigure: SeatView._score_figure,
    C.WildIndicator: SeatView._wild_indicator,
    C.Payment: SeatView._payment,
    C.Settlement: SeatView._settlement,
    C.WashOut: SeatView._washout,
    C.DangerousDiscard: SeatView._dangerous,
    C.PlayerClaimsChow: SeatView._claims,
    C.PlayerClaimsPung: SeatView._claims,
    C.PlayerClaimsKong: SeatView._claims,
    C.PlayerClaimsMahJong: SeatView._claims,
    C.ClaimDenied: SeatView._claim_denied,
    C.GameOver: SeatView._game_over,
    C.SwapTile: SeatView._swap_tile,
}
