"""A Beijing hand played on the engine from a wall the test writes, every seat keeping its view.

The wall is written as the seed deals it: East's fourteen tiles and the others'
thirteen, the indicator turned up after them, then the tiles drawn from the head in
turn, and the kong replacements from the tail. Every move goes through
:meth:`mj.game.engine.Game.apply`, and every seat's :class:`~mj.seatview.SeatView`
gets exactly what the engine sends it, so a test reads a seat's legal moves (what
the robot chooses among and the browser offers) beside the engine's answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from mj import tiles
from mj.game.engine import Config, Game, Phase
from mj.game.sends import IllegalMove, Send
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.rules.beijing.rules import BEIJING
from mj.seatview import SeatView
from mj.tiles import BLANK, Tile

#: Player ids of East, South, West and North.
EAST, SOUTH, WEST, NORTH = 1, 2, 3, 4
PLAYERS = (EAST, SOUTH, WEST, NORTH)


def ts(codes: str) -> list[Tile]:
    return [tiles.parse(c) for c in codes.split()]


def wall_of(
    east: str, south: str, west: str, north: str, indicator: str, draws: str = "", loose: str = ""
) -> list[Tile]:
    """A wall dealing these hands, turning up ``indicator``, then drawing ``draws``; ``loose`` from the tail inward."""
    hands = [iter(ts(east)), iter(ts(south)), iter(ts(west)), iter(ts(north))]
    head = [next(hands[seat]) for seat in BEIJING.deal_order()]
    assert all(next(h, None) is None for h in hands), "East holds 14 tiles, the others 13"
    head += [tiles.parse(indicator), *ts(draws)]
    tail = ts(loose)
    rest = Counter(tiles.full_set(False))
    rest.subtract([*head, *tail])
    assert min(rest.values()) >= 0, f"more than four of {[tiles.code(t) for t, n in rest.items() if n < 0]}"
    return [*head, *sorted(rest.elements()), *reversed(tail)]


class Walls:
    """The walls of successive hands, as given."""

    def __init__(self, *walls: list[Tile]) -> None:
        self.walls = list(walls)

    def next_hand(self, flowers: bool) -> tuple[list[Tile], int, int]:
        return self.walls.pop(0), 3, 5


class Hand:
    """A Beijing game on these walls, started and waiting for East's first discard."""

    def __init__(self, *walls: list[Tile], **options: int) -> None:
        table = BEIJING.new_options()
        for name, value in options.items():
            table.set_value(name, value)
        self.game = Game(list(PLAYERS), table, Walls(*walls), config=Config(rules=BEIJING))
        self.views = {pid: SeatView(pid, BEIJING) for pid in PLAYERS}
        #: Every message sent, once, in order (with the players it went to).
        self.sent: list[tuple[C.CMsg, tuple[int, ...]]] = []
        start: list[C.CMsg] = [self.game.game_message(1110)]
        start.extend(C.GameOption(0, entry) for entry in table.entries())
        for view in self.views.values():
            for msg in start:
                view.apply(msg)
        self.deliver(self.game.start_announcement(1110))
        self.start_hand()

    def start_hand(self) -> None:
        for pid in PLAYERS:
            self.play(pid, P.Ready())
        for pid in PLAYERS[1:]:
            self.play(pid, P.Ready())  # the pause "to start play", East exempt

    def deliver(self, sends: Iterable[Send]) -> None:
        for send in sends:
            to = tuple(send.to) if send.to is not None else PLAYERS
            self.sent.append((send.message, to))
            for pid in to:
                self.views[pid].apply(send.message)

    def play(self, pid: int, move: P.PMsg) -> None:
        self.deliver(self.game.apply(pid, move))

    def refused(self, pid: int, move: P.PMsg) -> str:
        """The engine's error text for ``move``; the test fails if the engine accepts it."""
        try:
            self.game.apply(pid, move)
        except IllegalMove as exc:
            return str(exc)
        raise AssertionError(f"the engine accepted {move.encode()!r}")

    def moves(self, pid: int) -> list[P.PMsg]:
        return self.views[pid].legal_moves()

    def serial(self) -> int:
        pending = self.views[EAST].pending
        assert pending is not None
        return pending.serial

    def discard(self, pid: int, code: str | None = None) -> int:
        """``pid`` discards ``code`` (default: the tile just drawn); the serial of the discard."""
        view = self.views[pid]
        tile = tiles.parse(code) if code is not None else view.last_drawn
        assert tile is not None
        self.play(pid, P.Discard(tile, False))
        return self.serial()

    def pass_all(self, *but: int) -> None:
        """Every seat that may still answer the open tile passes, except ``but``."""
        pending = self.views[EAST].pending
        assert pending is not None
        for pid in PLAYERS:
            if pid not in but and pid != pending.who:
                self.play(pid, P.NoClaim(pending.serial))

    def turn(self, pid: int, code: str | None = None) -> None:
        """``pid`` discards and everybody passes: the next seat draws."""
        self.discard(pid, code)
        self.pass_all()

    def messages(self, kind: type[C.CMsg]) -> list[C.CMsg]:
        """The messages of ``kind`` sent, a tile drawn counted once (as its owner was sent it, not the blank)."""
        hidden = (C.PlayerDraws, C.PlayerDrawsLoose)
        return [m for m, _ in self.sent if isinstance(m, kind) and not (isinstance(m, hidden) and m.tile == BLANK)]

    def settlement(self) -> C.Settlement:
        found = self.messages(C.Settlement)
        assert found, "the hand was not settled"
        last = found[-1]
        assert isinstance(last, C.Settlement)
        return last

    def draw_out(self) -> None:
        """Every seat discards what it draws and nobody claims, until the hand is drawn."""
        while self.game.phase is not Phase.HAND_COMPLETE:
            self.turn(self.game.seating[self.game.turn])
