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
  and the wall is the rule system's tile set;
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
and reports hands per second.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from mj import tiles
from mj.game.engine import Config, Game, Phase
from mj.game.sends import IllegalMove, Send
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import WinSource
from mj.rules.beijing.wilds import MAX_WILDS_ON_DISCARD
from mj.rules.options import GameOptions
from mj.rules.ruleset import Ruleset, tiles_to_draw
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

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0


def simulate(
    rules: Ruleset, *, games: int = 0, hands: int = 0, seed: int = 1, options: GameOptions | None = None
) -> Figures:
    """Play seeded games (seeds ``seed``, ``seed + 1``...) until ``games`` games or ``hands`` hands are played."""
    if games <= 0 and hands <= 0:
        raise ValueError("say how many games or hands to play")
    started = time.perf_counter()
    played = total = wins = moves = probes = 0
    while (games <= 0 or played < games) and (hands <= 0 or total < hands):
        run = _Run(rules, seed + played, options, hands - total if hands > 0 else 0)
        run.play()
        played += 1
        total += run.hands
        wins += run.wins
        moves += run.moves
        probes += run.probes
    return Figures(played, total, wins, moves, probes, time.perf_counter() - started)


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
        #: How many of each tile code that hand's wall holds (the rule system's tile set).
        self.tile_set: list[int] = []

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
        choices = [(pid, moves) for pid in PLAYERS if (moves := self.open_moves(pid))]
        if not choices:
            self.fail(f"deadlock: nobody has a move in phase {game.phase.value}")
        pid, moves = self.rng.choice(choices)
        if self.rng.random() < PROBE_SHARE:
            self.probe(pid)
        move = _eager(moves) or self.rng.choice(moves)
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
        moves = view.legal_moves()
        pending = view.pending
        claimable = pending is not None and pending.who != pid and view.chow_choice is None
        if moves and pending is not None and claimable and (pid, view.hand_no, pending.serial) in self.answered:
            return [m for m in moves if isinstance(m, P.Ready)]
        return moves

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
        candidates = _candidates(view, self.rng)
        while True:  # one at random among those not legal: drawn at random, the legal ones put aside
            if not candidates:
                return
            index = self.rng.randrange(len(candidates))
            move = candidates[index]
            if not view.allows(move):
                break
            candidates[index] = candidates[-1]
            candidates.pop()
        self.probes += 1
        try:
            self.game.apply(pid, move)
        except IllegalMove:
            return
        self.fail(f"player {pid}'s move {move.encode()!r} is not among its legal moves, yet was accepted")

    def deliver(self, sends: Iterable[Send]) -> None:
        for send in sends:
            msg = send.message
            for pid in send.to if send.to is not None else PLAYERS:
                self.check_secrecy(pid, msg)
                self.views[pid].apply(msg)
            if isinstance(msg, C.Settlement):
                if msg.east + msg.south + msg.west + msg.north != 0:
                    self.fail(f"settlement changes do not sum to zero: {msg.encode()!r}")
                self.check_wild_win()
                self.hands += 1
                self.wins += 1
                self.new_hand()
            elif isinstance(msg, C.WashOut):
                self.hands += 1
                self.new_hand()

    def new_hand(self) -> None:
        self.hand_moves = 0
        if sum(self.game.scores.values()) != 0:
            self.fail(f"the scores do not sum to zero: {self.game.scores}")

    def check_secrecy(self, pid: int, msg: C.CMsg) -> None:
        """A tile drawn by another seat reaches ``pid`` only as the blank."""
        if isinstance(msg, C.PlayerDraws | C.PlayerDrawsLoose) and msg.id != pid and msg.tile != BLANK:
            self.fail(f"player {pid} was sent player {msg.id}'s concealed tile: {msg.encode()!r}")
        if isinstance(msg, C.InfoTiles) and msg.id != pid and any(c not in "- " for c in msg.text.split("*")[0]):
            self.fail(f"player {pid} was sent player {msg.id}'s concealed tiles: {msg.encode()!r}")
        hidden = self.game.course.hides_concealed_kongs
        if hidden and isinstance(msg, C.PlayerDeclaresClosedKong) and msg.id != pid and msg.tile != BLANK:
            self.fail(f"player {pid} was sent player {msg.id}'s concealed kong: {msg.encode()!r}")
        if hidden and isinstance(msg, C.InfoTiles) and msg.id != pid:
            kongs = [s for s in msg.text.split("*")[1].split() if s.count("+") == 3]
            if any(k != "--+--+--+--" for k in kongs):
                self.fail(f"player {pid} was sent player {msg.id}'s concealed kong: {msg.encode()!r}")

    def check(self) -> None:
        game = self.game
        if game.phase is Phase.HAND_COMPLETE:
            return
        wall = game.wall
        if self.wall_checked != game.hands_started:  # the wall's tiles never change within a hand
            self.wall_checked = game.hands_started
            if sorted(wall.tiles) != sorted(tiles.full_set(self.rules.flowers(game.options))):
                self.fail("the wall is not the rule system's tile set")
            self.tile_set = [0] * _TILE_CODES
            for t in wall.tiles:
                self.tile_set[t] += 1
        # Every tile of the set lies once, in the wall or in some seat: counted down by kind from the set.
        balance = self.tile_set.copy()
        wall_tiles = wall.tiles
        for i in range(wall.live_next, wall.loose_next + 1):
            balance[wall_tiles[i]] -= 1
        for seat in game.seats:
            for t in seat.concealed:
                balance[t] -= 1
            for t in seat.specials:
                balance[t] -= 1
            for t in seat.discards:
                balance[t] -= 1
            for meld in seat.melds:
                for t in meld.tiles:
                    balance[t] -= 1
        if game.indicator is not None:
            balance[game.indicator] -= 1  # turned up, out of play
        winning = game.winning
        if winning is not None and winning.pending is not None and winning.source is WinSource.ROBBED_KONG:
            balance[winning.pending] -= 1  # taken from the kong, not yet in the winner's set
        if winning is not None and winning.discarder is not None and winning.pending is None:
            balance[winning.tile] += 1  # the discard went out in a set and still lies in its pile
        if any(balance):
            self.fail(f"tiles unaccounted for: {_unbalanced(balance)}")
        wild = self.wild()
        if wild is not None:
            for index, seat in enumerate(game.seats):
                if any(wild in meld.tiles for meld in seat.melds):
                    self.fail(f"seat {index} has the wild tile {tiles.code(wild)} in a set: {seat.melds}")
        live_left = tiles_to_draw(self.rules, wall.live_left, wall.tiles_left, game.kongs, game.options)
        for index, seat in enumerate(game.seats):
            view = self.views[seat.player]
            if view.me.shown is None and sorted(view.concealed) != sorted(seat.concealed):
                self.fail(f"seat {index}'s view holds {view.concealed}, the engine {seat.concealed}")
            if view.live_tiles != live_left:
                self.fail(f"seat {index}'s view counts {view.live_tiles} tiles to draw, the engine's wall {live_left}")

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


#: Tile codes are below this: the length of a vector counting tiles by kind.
_TILE_CODES: Final = max(tiles.ALL_TILES) + 1


def _unbalanced(balance: list[int]) -> str:
    """The kinds missing (positive: fewer placed than the set holds) or placed too often (negative)."""
    return ", ".join(f"{tiles.code(t)} {n:+d}" for t, n in enumerate(balance) if n)


def _eager(moves: list[P.PMsg]) -> P.PMsg | None:
    """The move no real player would put off: going out, or declaring a flower or season."""
    for move in moves:
        if isinstance(move, P.MahJong) or (isinstance(move, P.DeclareSpecial) and move.tile != BLANK):
            return move
    return None


def _candidates(view: SeatView, rng: random.Random) -> list[P.PMsg]:
    """Moves a player might try now, legal or not (from which the probe takes an illegal one)."""
    held = sorted(set(view.concealed)) or [tiles.EAST_WIND]
    some = [rng.choice(held), rng.choice(tiles.KINDS)]
    serial = view.pending.serial if view.pending is not None else 0
    found: list[P.PMsg] = [P.MahJong(0), P.Pair(), P.Pung(0), P.SpecialSet(), P.FormClosedSpecialSet()]
    found += [P.Pung(serial), P.Kong(serial), P.MahJong(serial)]
    found += [P.Chow(serial, p) for p in (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)]
    for tile in some:
        found += [P.Discard(tile, False), P.Discard(tile, True), P.DeclareClosedKong(tile), P.AddToPung(tile)]
        found += [P.FormClosedPung(tile), P.FormClosedChow(tile), P.FormClosedPair(tile)]
        if tiles.is_special(tile):
            found.append(P.DeclareSpecial(tile))
    return found
