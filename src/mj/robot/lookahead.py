"""Lookahead over the unseen tiles: what a hand at or near ready is worth, scored by the rules.

A discard that leaves the hand ready is worth the sum, over its waits, of the unseen
copies of each wait times the score of going out on it; one that leaves the hand one
step from ready is worth the sum, over the unseen draws that make it ready, of their
copies times the worth of the best ready hand each leads to. Both are the expected
score of the hand up to a factor the discards share (the win chance grows about in
proportion to the tiles that complete the hand), so they rank discards leaving the
same shanten by what the hand will win rather than by how often.

Each completed hand is scored by the view's rule system in its best reading, won
from the wall (fully concealed, the wall's points) and from a discard (the set the
discard completes exposed), weighed by :data:`SELF_DRAWN`. The robot's estimates of
a hand's value (:func:`mj.robot.levels.prospect`) only guess at doubles; the rules'
own scorer counts every one (concealed hand, no chows, flushes, honour pungs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mj import hand, tiles
from mj.melds import Meld, chow, pair, pung
from mj.rules.base import SeatHand, Win, WinSource
from mj.seatview import SeatView
from mj.tiles import KINDS, NUM_KINDS, Tile

#: The share of a ready hand's wins that are self-drawn: one draw of its own against
#: three opponents' discards per round, less the waits the opponents keep back.
SELF_DRAWN: Final = 0.3
#: Points counted for a complete hand the scorer finds no standard reading of (seven pairs).
UNREAD: Final = 40.0


class Lookahead:
    """The worth of hands near ready, with the completed hands' scores remembered for the hand being played."""

    def __init__(self) -> None:
        self._hand = -1
        self._scores: dict[tuple[int, int, tuple[int, ...], int], float] = {}
        self._waits: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}

    def worth(self, view: SeatView, vector: list[int], unseen: Sequence[int], shanten: int) -> float:
        """The worth of the hand ``vector`` (concealed counts after a discard) ``shanten`` steps from ready (0 or 1)."""
        return self.ready_worth(view, vector, unseen) if shanten <= 0 else self.near_worth(view, vector, unseen)

    def ready_worth(self, view: SeatView, vector: list[int], unseen: Sequence[int]) -> float:
        """Of a ready hand (``vector``: concealed counts after the discard): over its waits, copies times score."""
        self._renew(view)
        key = (len(view.melds), len(view.specials), tuple(vector))
        waits = self._waits.get(key)
        if waits is None:
            waits = self._waits[key] = hand.wait_indices(vector, view.declared_sets, view.seven_pairs)
        total = 0.0
        for k in waits:
            copies = unseen[k]  # counted afresh: the unseen copies change as the hand goes on
            if copies > 0:
                total += copies * self._score(view, vector, k, key)
        return total

    def near_worth(self, view: SeatView, vector: list[int], unseen: Sequence[int]) -> float:
        """Of a hand one step from ready: unseen copies of each draw making it ready times the best ready worth."""
        sets = view.declared_sets
        seven = view.seven_pairs
        total = 0.0
        work = list(vector)
        for d in range(NUM_KINDS):
            copies = unseen[d]
            if copies <= 0 or work[d] >= 4:
                continue
            work[d] += 1
            after = hand.shanten_after_discards(work, sets, seven)
            best = 0.0
            for e in range(NUM_KINDS):
                if work[e] and after[e] <= 0 and e != d:
                    work[e] -= 1
                    best = max(best, self.ready_worth(view, work, unseen))
                    work[e] += 1
            work[d] -= 1
            total += copies * best
        return total

    def _renew(self, view: SeatView) -> None:
        if view.hand_no != self._hand:
            self._hand = view.hand_no
            self._scores.clear()
            self._waits.clear()

    def _score(self, view: SeatView, vector: list[int], wait: int, key: tuple[int, int, tuple[int, ...]]) -> float:
        """The score of going out on ``wait``, self-drawn or fed, in the hand's best reading."""
        memo = (*key, wait)
        found = self._scores.get(memo)
        if found is not None:
            return found
        tile = KINDS[wait]
        full: list[Tile] = [KINDS[k] for k in range(NUM_KINDS) for _ in range(vector[k])]
        full.append(tile)
        wall = fed = 0.0
        readings = hand.decompositions(full, view.declared_sets)
        for reading in readings:
            concealed = [pung(t, True) for t in reading.pungs] + [chow(t, True) for t in reading.chows]
            concealed.append(pair(reading.pair, True))
            wall = max(wall, self._points(view, tile, WinSource.WALL, concealed))
            for melds in _fed_readings(tile, reading.pair, reading.pungs, reading.chows):
                fed = max(fed, self._points(view, tile, WinSource.DISCARD, melds))
        found = SELF_DRAWN * wall + (1.0 - SELF_DRAWN) * fed if readings else UNREAD
        self._scores[memo] = found
        return found

    @staticmethod
    def _points(view: SeatView, tile: Tile, source: WinSource, declared: list[Meld]) -> float:
        win = Win(
            tile=tile,
            source=source,
            melds_before_win=len(view.melds),
            visible=tuple(view.visible_counts()),
            last_tile=False,
            heavens_blessing=False,
            earths_blessing=False,
            kong_upon_kong=False,
            original_call=False,
            hands_as_east=view.hands_as_east,
            winner_is_east=view.my_seat == 0,
            feeder=None if source is WinSource.WALL else (view.my_seat + 1) % 4,
        )
        seat = SeatHand((*view.melds, *declared), (), tuple(view.specials), view.own_wind, view.prevailing)
        return float(view.rules.score(seat, win, view.options, True).score)


def _fed_readings(tile: Tile, pair_tile: Tile, pungs: Sequence[Tile], chows: Sequence[Tile]) -> list[list[Meld]]:
    """The declared sets of one reading won on a discard, one list per role the discard can play."""
    found: list[list[Meld]] = []
    rest_pungs = [pung(t, True) for t in pungs]
    rest_chows = [chow(t, True) for t in chows]
    if pair_tile == tile:
        found.append([pair(tile, False), *rest_pungs, *rest_chows])
    if tile in pungs:
        others = list(pungs)
        others.remove(tile)
        found.append([pung(tile, False), *(pung(t, True) for t in others), *rest_chows, pair(pair_tile, True)])
    for low in set(chows):
        if 0 <= tile - low <= 2 and tiles.suit(tile) == tiles.suit(low):
            others = list(chows)
            others.remove(low)
            found.append([chow(low, False), *rest_pungs, *(chow(t, True) for t in others), pair(pair_tile, True)])
    return found
