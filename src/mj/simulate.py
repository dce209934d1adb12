"""The random-move simulation: seeded games of players choosing at random among the legal moves.

Four seats play the engine (:class:`mj.game.engine.Game`) directly, each knowing
only its :class:`~mj.seatview.SeatView`, fed with exactly the messages the engine
addresses to it. At every step one seat with something to do is picked at random
and plays a move picked at random among its rule system's
:meth:`~mj.seatview.SeatView.legal_moves`; now and then a seat also tries a move
that is *not* among them. Two choices are not left to chance, as no real player
leaves them: a seat goes out whenever it may (otherwise hands are hardly ever won,
and scoring, settlement, the dealer's turn and the end of the game would go
untested), and declares a flower or season as soon as it may (one kept in hand
can leave a player who claims its fourth set holding nothing it may discard: the
original's rules then wait for ever, and so do ours). After every move the invariants are checked:

* every tile dealt is accounted for once (wall, hands, sets, specials, discards)
  and the wall is the rule system's tile set (a :class:`_Ledger` keeps the count
  by kind, counting again only the lists that changed: docs/performance.md says
  why that is the full count);
* no seat is sent a tile another seat holds concealed, each seat's view holds
  exactly its own concealed tiles, and counts the live wall as the engine does;
* the engine accepts every legal move played and refuses every move tried that
  is not legal: the legal moves and the engine's checks are the same rules;
* somebody always has a move until the game is over, and a hand ends within
  :data:`MOVES_PER_HAND` moves (no deadlock, no endless hand);
* every settlement's changes sum to zero.

A broken invariant raises :class:`InvariantError`, whose text names the game's
seed and hand so that ``simulate(games=1, seed=S)`` replays it. The test suite
runs a few games (``tests/test_simulate.py``); ``mj bench simulate`` runs many
and reports hands per second (``--jobs N``: shared out among processes, with
``seed_step``).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from mj import tiles
from mj.game.engine import Config, Game, Phase
from mj.game.sends import IllegalMove, Send
from mj.melds import Meld
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import WinSource
from mj.rules.beijing.wilds import MAX_WILDS_ON_DISCARD
from mj.rules.options import GameOptions
from mj.rules.ruleset import DrawsLeft, Ruleset
from mj.seatview import SeatView
from mj.table import SeededWalls
from mj.tiles import BLANK, GlibcRandom, Tile

#: Player ids of the four seats, East first.
PLAYERS = (1, 2, 3, 4)
#: A hand that takes more moves than this is taken for one that never ends.
MOVES_PER_HAND = 5000
#: How often a seat also tries a move that is not legal (the engine must refuse it).
PROBE_SHARE = 0.25


class InvariantError(Exception):
    """An invariant of the game broke; ``str()`` names the seed and hand to replay it with."""


@dataclass(frozen=True, slots=True)
class Figures:
    """What a simulation played."""

    games: int
    hands: int
    wins: int
    moves: int
    probes: int
    seconds: float
    #: This process's CPU time for them (the wall-clock ``seconds`` count other work on the machine too).
    cpu_seconds: float = 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0


def simulate(
    rules: Ruleset,
    *,
    games: int = 0,
    hands: int = 0,
    seed: int = 1,
    options: GameOptions | None = None,
    seed_step: int = 1,
) -> Figures:
    """Play seeded games (seeds ``seed``, ``seed + seed_step``...) until ``games`` games or ``hands`` hands are played.

    ``seed_step`` lets several processes share out one series of seeds (``mj bench simulate --jobs``).
    """
    if games <= 0 and hands <= 0:
        raise ValueError("say how many games or hands to play")
    started = time.perf_counter()
    cpu_started = time.process_time()
    played = total = wins = moves = probes = 0
    while (games <= 0 or played < games) and (hands <= 0 or total < hands):
        run = _Run(rules, seed + played * seed_step, options, hands - total if hands > 0 else 0)
        run.play()
        played += 1
        total += run.hands
        wins += run.wins
        moves += run.moves
        probes += run.probes
    seconds = time.perf_counter() - started
    return Figures(played, total, wins, moves, probes, seconds, time.process_time() - cpu_started)


class _Run:
    """One seeded game, with its random players and the checks."""

    def __init__(self, rules: Ruleset, seed: int, options: GameOptions | None, hand_limit: int) -> None:
        self.rules = rules
        self.seed = seed
        self.hand_limit = hand_limit
        self.rng = random.Random(seed)
        options = options if options is not None else rules.new_options()
        walls = SeededWalls(GlibcRandom(seed), None, False)
        self.game = Game(list(PLAYERS), options, walls, config=Config(rules=rules))
        self.views = {pid: SeatView(pid, rules) for pid in PLAYERS}
        #: (seat, hand, serial) of the tiles each seat has answered.
        self.answered: set[tuple[int, int, int]] = set()
        self.hands = self.wins = self.moves = self.probes = 0
        self.hand_moves = 0
        #: The hand (by number started) whose wall was checked against the tile set.
        self.wall_checked = 0
        #: Where that hand's tiles lie, counted by kind.
        self.ledger: _Ledger | None = None
        #: Each seat's concealed tiles in its view when last found the same as the engine's (whose tiles then
        #: are the ledger's copy), None when that is not known of the ledger's last count.
        self.matched: list[list[Tile] | None] = [None for _ in PLAYERS]
        #: The engine's draws to come (the options do not change during a game).
        self.draws_left = DrawsLeft()
        #: The indicator whose wild tile the declared sets were last checked against.
        self.wild_checked: Tile | None = None

    def fail(self, what: str) -> None:
        raise InvariantError(f"seed {self.seed}, hand {self.hands + 1}: {what}")

    def play(self) -> None:
        self.start()
        while not self.game.game_over and not (self.hand_limit and self.hands >= self.hand_limit):
            self.step()

    def start(self) -> None:
        """Tell every seat the game's options and start the first hand."""
        game = self.game
        start: list[C.CMsg] = [game.game_message(1110)]
        start.extend(C.GameOption(0, entry) for entry in game.options.entries())
        for view in self.views.values():
            for msg in start:
                view.apply(msg)
        self.deliver(game.start_announcement(1110))

    def step(self) -> None:
        """One seat plays one move (after, now and then, a move that is not legal), and everything is checked."""
        game = self.game
        # The first seat with a move in a random order of the four is a seat drawn at random among
        # those with a move, and seats after it need not be asked (docs/performance.md).
        pid = 0
        moves: list[P.PMsg] = []
        for candidate in _ORDERS[_below(self.rng, len(_ORDERS))]:
            moves = self.open_moves(candidate)
            if moves:
                pid = candidate
                break
        if not moves:
            self.fail(f"deadlock: nobody has a move in phase {game.phase.value}")
        if self.rng.random() < PROBE_SHARE:
            self.probe(pid)
        move = _eager(moves) or moves[_below(self.rng, len(moves))]
        self.note_answer(pid, move)
        try:
            sends = game.apply(pid, move)
        except IllegalMove as exc:
            self.fail(f"player {pid}'s legal move {move.encode()!r} was refused: {exc}")
        self.moves += 1
        self.hand_moves += 1
        if self.hand_moves > MOVES_PER_HAND:
            self.fail(f"no end after {MOVES_PER_HAND} moves")
        self.deliver(sends)
        self.check()

    def open_moves(self, pid: int) -> list[P.PMsg]:
        """The legal moves of ``pid`` still to be played: a tile already answered is not answered again."""
        view = self.views[pid]
        pending = view.pending
        claimable = pending is not None and pending.who != pid and view.chow_choice is None
        if pending is not None and claimable and (pid, view.hand_no, pending.serial) in self.answered:
            if not view.paused or pid in view.ready:
                return []  # Ready is the only move left, and a rule system offers it only in a pause (Ruleset)
            return [m for m in view.legal_moves() if isinstance(m, P.Ready)]
        return view.legal_moves()

    def note_answer(self, pid: int, move: P.PMsg) -> None:
        view = self.views[pid]
        pending = view.pending
        if pending is not None and pending.who != pid and not isinstance(move, P.Ready):
            self.answered.add((pid, view.hand_no, pending.serial))

    def probe(self, pid: int) -> None:
        """Try a move that is not legal now: the engine must refuse it and change nothing."""
        if self.game.pause is not None:
            return  # a pause holds back moves the rules allow (no probe can tell them apart)
        view = self.views[pid]
        probes = _Probes(view, self.rng)
        count = probes.count
        # One at random among those not legal: drawn at random, the legal ones put aside (the list of
        # those left is made when the first is put aside: until then it would be every number in order).
        left: list[int] | None = None
        while True:
            size = count if left is None else len(left)
            if size == 0:
                return
            index = _below(self.rng, size)
            move = probes.move(index if left is None else left[index])
            if not view.allows(move):
                break
            if left is None:
                left = list(range(count))
            left[index] = left[-1]
            left.pop()
        self.probes += 1
        try:
            self.game.apply(pid, move)
        except IllegalMove:
            return
        self.fail(f"player {pid}'s move {move.encode()!r} is not among its legal moves, yet was accepted")

    def deliver(self, sends: Iterable[Send]) -> None:
        hidden = self.game.course.hides_concealed_kongs
        for send in sends:
            msg = send.message
            owner, secret = _secret(msg, hidden)
            for pid in send.to if send.to is not None else PLAYERS:
                if owner and pid != owner:
                    self.fail(f"player {pid} was sent player {owner}'s {secret}: {msg.encode()!r}")
                self.views[pid].apply(msg)
            kind = type(msg)
            if kind is _SETTLEMENT and isinstance(msg, C.Settlement):
                if msg.east + msg.south + msg.west + msg.north != 0:
                    self.fail(f"settlement changes do not sum to zero: {msg.encode()!r}")
                self.check_wild_win()
                self.hands += 1
                self.wins += 1
                self.new_hand()
            elif kind is _WASHOUT:
                self.hands += 1
                self.new_hand()

    def new_hand(self) -> None:
        self.hand_moves = 0
        if sum(self.game.scores.values()) != 0:
            self.fail(f"the scores do not sum to zero: {self.game.scores}")

    def check(self) -> None:
        game = self.game
        if game.phase is Phase.HAND_COMPLETE:
            return
        wall = game.wall
        ledger = self.ledger
        if ledger is None or self.wall_checked != game.hands_started:  # a new hand, a new wall
            self.wall_checked = game.hands_started
            if sorted(wall.tiles) != sorted(tiles.full_set(self.rules.flowers(game.options))):
                self.fail("the wall is not the rule system's tile set")
            ledger = self.ledger = _Ledger(wall.tiles, wall.live_next, wall.loose_next, len(game.seats))
            self.matched = [None for _ in PLAYERS]
        # Every tile of the set lies once, in the wall or in some seat: the ledger counts where each lies.
        if wall.tiles != ledger.wall:
            self.fail("the wall's tiles changed during the hand")
        if wall.live_next > wall.loose_next + 1:
            self.fail(f"the wall's live end passed its loose end ({wall.live_next} > {wall.loose_next + 1})")
        ledger.wall_ends(wall.live_next, wall.loose_next)
        sets_changed = False
        hands_changed = 0  # a bit a seat
        for index, seat in enumerate(game.seats):
            if ledger.holds(4 * index, seat.concealed):
                hands_changed |= 1 << index
            ledger.holds(4 * index + 1, seat.specials)
            ledger.holds(4 * index + 2, seat.discards)
            sets_changed = ledger.declared(index, seat.melds) or sets_changed
        placed = ledger.placed
        winning = game.winning
        if winning is not None or game.indicator is not None:
            placed = placed.copy()
        if game.indicator is not None:
            placed[game.indicator] += 1  # turned up, out of play
        if winning is not None:
            if winning.pending is not None and winning.source is WinSource.ROBBED_KONG:
                placed[winning.pending] += 1  # taken from the kong, not yet in the winner's set
            if winning.discarder is not None and winning.pending is None:
                placed[winning.tile] -= 1  # the discard went out in a set and still lies in its pile
        if placed != ledger.tile_set:
            self.fail(f"tiles unaccounted for: {_unbalanced(ledger.tile_set, placed)}")
        indicator = game.indicator
        if indicator is not None and (sets_changed or indicator != self.wild_checked):
            self.check_wild_sets(indicator)  # else the sets and the wild are those checked at the last move
        live_left = self.draws_left.count(self.rules, wall.live_left, wall.tiles_left, game.kongs, game.options)
        matched = self.matched
        for index, seat in enumerate(game.seats):
            view = self.views[seat.player]
            if view.live_tiles != live_left:
                self.fail(f"seat {index}'s view counts {view.live_tiles} tiles to draw, the engine's wall {live_left}")
            if view.me.shown is not None:
                matched[index] = None
                continue
            view_tiles = matched[index]
            if view_tiles is not None and not hands_changed >> index & 1 and view.concealed == view_tiles:
                continue  # both as they were when last found to hold the same tiles (the engine's: the ledger found)
            if sorted(view.concealed) != sorted(seat.concealed):
                self.fail(f"seat {index}'s view holds {view.concealed}, the engine {seat.concealed}")
            matched[index] = view.concealed.copy()

    def check_wild_sets(self, indicator: Tile) -> None:
        """No set holds the wild tile (the rules never let one be made); ``indicator`` is the hand's."""
        self.wild_checked = indicator
        wild = self.wild()
        if wild is None:
            return
        for index, seat in enumerate(self.game.seats):
            if any(wild in meld.tiles for meld in seat.melds):
                self.fail(f"seat {index} has the wild tile {tiles.code(wild)} in a set: {seat.melds}")

    def wild(self) -> Tile | None:
        """The hand's wild tile, under a rule system that turns up an indicator."""
        indicator = self.game.indicator
        return self.rules.wild_of(indicator) if indicator is not None else None

    def check_wild_win(self) -> None:
        """The winner kept the wild-tile rules: no wild discarded; on another's tile, none claimed,
        no open set and at most two wilds held."""
        wild = self.wild()
        winning = self.game.winning
        if wild is None or winning is None:
            return
        seat = self.game.seats[winning.seat]
        if wild in seat.thrown:
            self.fail(f"seat {winning.seat} won after discarding the wild tile {tiles.code(wild)}")
        if winning.discarder is None:
            return
        if winning.tile == wild:
            self.fail(f"seat {winning.seat} won by claiming the wild tile {tiles.code(wild)}")
        if any(not meld.concealed for meld in seat.melds):
            self.fail(f"seat {winning.seat} won on another's tile with open sets {seat.melds}")
        if seat.concealed.count(wild) > MAX_WILDS_ON_DISCARD:
            self.fail(f"seat {winning.seat} won on another's tile holding {seat.concealed.count(wild)} wilds")


class _Ledger:
    """How many tiles of each kind lie in one hand's wall and seats, recounted only where something changed.

    The wall's tiles never move (:class:`~mj.game.wall.Wall`: only its two ends do), so
    its part of the count follows the ends tile by tile; each seat's tile lists and sets
    are compared with a copy of what they held when last counted, and a list that
    differs is counted again. :attr:`placed` is therefore at every check exactly the
    count of every tile where the engine holds it now, as a full count would make it
    (docs/performance.md argues it), for a fraction of the work.
    """

    def __init__(self, wall: list[Tile], live_next: int, loose_next: int, seats: int) -> None:
        #: The hand's wall as dealt (the check makes sure it stays so).
        self.wall = wall.copy()
        #: How many of each tile code the wall holds: the rule system's tile set.
        self.tile_set = [0] * _TILE_CODES
        for t in wall:
            self.tile_set[t] += 1
        #: Tiles of each code in the undrawn wall and in the seats, as last counted.
        self.placed = [0] * _TILE_CODES
        for i in range(live_next, loose_next + 1):
            self.placed[wall[i]] += 1
        self.live_next = live_next
        self.loose_next = loose_next
        #: Each seat's concealed tiles, specials and discards (four slots a seat, the last unused), as counted.
        self.lists: list[list[Tile]] = [[] for _ in range(4 * seats)]
        #: Each seat's declared sets as counted, and their tiles.
        self.sets: list[list[Meld]] = [[] for _ in range(seats)]
        self.set_tiles: list[list[Tile]] = [[] for _ in range(seats)]

    def wall_ends(self, live_next: int, loose_next: int) -> None:
        """Follow the wall's two ends to where they are now (tiles drawn leave it, tiles put back return)."""
        placed, wall = self.placed, self.wall
        while self.live_next < live_next:
            placed[wall[self.live_next]] -= 1
            self.live_next += 1
        while self.live_next > live_next:
            self.live_next -= 1
            placed[wall[self.live_next]] += 1
        while self.loose_next > loose_next:
            placed[wall[self.loose_next]] -= 1
            self.loose_next -= 1
        while self.loose_next < loose_next:
            self.loose_next += 1
            placed[wall[self.loose_next]] += 1

    def holds(self, slot: int, now: list[Tile]) -> bool:
        """One list of tiles of a seat, as it is now; whether it changed since last counted."""
        before = self.lists[slot]
        if now == before:
            return False
        self._recount(before, now)
        self.lists[slot] = now.copy()
        return True

    def declared(self, seat: int, now: list[Meld]) -> bool:
        """A seat's declared sets as they are now (sets are immutable values: the list says it all);
        whether they changed since last counted."""
        if now == self.sets[seat]:
            return False
        tiles_now = [t for meld in now for t in meld.tiles]
        self._recount(self.set_tiles[seat], tiles_now)
        self.sets[seat] = now.copy()
        self.set_tiles[seat] = tiles_now
        return True

    def _recount(self, before: list[Tile], now: list[Tile]) -> None:
        placed = self.placed
        for t in before:
            placed[t] -= 1
        for t in now:
            placed[t] += 1


#: Tile codes are below this: the length of a vector counting tiles by kind.
_TILE_CODES: Final = max(tiles.ALL_TILES) + 1


def _unbalanced(tile_set: list[int], placed: list[int]) -> str:
    """The kinds missing (positive: fewer placed than the set holds) or placed too often (negative)."""
    return ", ".join(
        f"{tiles.code(t)} {n - p:+d}" for t, (n, p) in enumerate(zip(tile_set, placed, strict=True)) if n != p
    )


def _below(rng: random.Random, n: int) -> int:
    """A number drawn at random below ``n`` (from one call of the generator's C code, not ``randrange``'s Python).

    ``int(random() * n)`` is uniform up to the 53 bits of a float: for the few dozen
    choices of a move, no bias the simulation could show.
    """
    return min(int(rng.random() * n), n - 1)  # a product rounded up to n is taken as the last


#: Every order of the four seats, one drawn at random for each move.
_ORDERS: Final = tuple(itertools.permutations(PLAYERS))


#: The messages that may carry a secret, held where compiled code reads them at once (not from their module).
_DRAWS: Final = C.PlayerDraws
_DRAWS_LOOSE: Final = C.PlayerDrawsLoose
_INFO_TILES: Final = C.InfoTiles
_CLOSED_KONG: Final = C.PlayerDeclaresClosedKong
#: The messages that end a hand.
_SETTLEMENT: Final = C.Settlement
_WASHOUT: Final = C.WashOut


def _secret(msg: C.CMsg, hidden_kongs: bool) -> tuple[int, str]:
    """The player who alone may be sent ``msg``, and what it would give away; 0 when anybody may.

    A tile drawn reaches the other seats only as the blank, a hand's tiles only as
    blanks, and (where the rules hide them) a concealed kong only as blanks.
    """
    kind = type(msg)  # by class, not isinstance with a union (which builds the union at every call)
    if kind is _DRAWS or kind is _DRAWS_LOOSE:
        assert isinstance(msg, C.PlayerDraws | C.PlayerDrawsLoose)
        return (msg.id, "concealed tile") if msg.tile != BLANK else (0, "")
    if kind is _INFO_TILES:
        assert isinstance(msg, C.InfoTiles)
        parts = msg.text.split("*")
        if any(c not in "- " for c in parts[0]):
            return msg.id, "concealed tiles"
        if hidden_kongs and any(s.count("+") == 3 and s != "--+--+--+--" for s in parts[1].split()):
            return msg.id, "concealed kong"
        return 0, ""
    if hidden_kongs and kind is _CLOSED_KONG and isinstance(msg, C.PlayerDeclaresClosedKong) and msg.tile != BLANK:
        return msg.id, "concealed kong"
    return 0, ""


_MAHJONG: Final = P.MahJong
_DECLARE_SPECIAL: Final = P.DeclareSpecial


def _eager(moves: list[P.PMsg]) -> P.PMsg | None:
    """The move no real player would put off: going out, or declaring a flower or season."""
    for move in moves:
        kind = type(move)
        if kind is _MAHJONG or (kind is _DECLARE_SPECIAL and isinstance(move, P.DeclareSpecial) and move.tile != BLANK):
            return move
    return None


#: The probes that name no tile and no discard.
_FIXED_PROBES: Final[tuple[P.PMsg, ...]] = (P.MahJong(0), P.Pair(), P.Pung(0), P.SpecialSet(), P.FormClosedSpecialSet())
_POSITIONS: Final = (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)
#: The probes on the open tile (by its serial): Pung, Kong, MahJong, then a Chow at each position.
_ON_TILE: Final = 3 + len(_POSITIONS)
#: The probes with a tile (a special adds its declaration).
_WITH_TILE: Final = 7


class _Probes:
    """Moves a player might try now, legal or not (from which the probe takes an illegal one).

    Numbered rather than listed: a probe builds only the few it draws.
    """

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        held = sorted(set(view.concealed)) or [tiles.EAST_WIND]
        first = held[_below(rng, len(held))]
        second = tiles.KINDS[_below(rng, len(tiles.KINDS))]
        self.some = (first, second)
        self.serial = view.pending.serial if view.pending is not None else 0
        self.sizes = (_WITH_TILE + tiles.is_special(first), _WITH_TILE + tiles.is_special(second))
        self.count = len(_FIXED_PROBES) + _ON_TILE + self.sizes[0] + self.sizes[1]

    def move(self, index: int) -> P.PMsg:
        if index < len(_FIXED_PROBES):
            return _FIXED_PROBES[index]
        index -= len(_FIXED_PROBES)
        serial = self.serial
        if index < _ON_TILE:
            if index == 0:
                return P.Pung(serial)
            if index == 1:
                return P.Kong(serial)
            if index == 2:
                return P.MahJong(serial)
            return P.Chow(serial, _POSITIONS[index - 3])
        index -= _ON_TILE
        tile = self.some[0]
        if index >= self.sizes[0]:
            index -= self.sizes[0]
            tile = self.some[1]
        return _with_tile(tile, index)


def _with_tile(tile: Tile, index: int) -> P.PMsg:
    if index == 0:
        return P.Discard(tile, False)
    if index == 1:
        return P.Discard(tile, True)
    if index == 2:
        return P.DeclareClosedKong(tile)
    if index == 3:
        return P.AddToPung(tile)
    if index == 4:
        return P.FormClosedPung(tile)
    if index == 5:
        return P.FormClosedChow(tile)
    if index == 6:
        return P.FormClosedPair(tile)
    return P.DeclareSpecial(tile)
