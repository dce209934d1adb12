"""Hand evaluation for the robots: shanten and the count of useful unseen tiles (ukeire).

Shanten (:func:`mj.hand.shanten_all`) says how many exchanges a hand is from being
ready; among hands equally far, the one that more unseen tiles would improve gets
there sooner, which is what ``ukeire`` counts. "Unseen" comes from the seat's view
(nothing it could not know), so a wait on tiles that all lie in the discards is
worth nothing. Everything works on 34-entry count vectors, which the shanten tables
make cheap enough to try every discard and every drawn tile at each decision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mj import hand
from mj.hand.counting import HONOURS_START
from mj.tiles import KINDS, NUM_KINDS, Tile, kind_index


@dataclass(slots=True, init=False)
class DiscardOption:
    """What discarding ``tile`` leaves: shanten of the rest and the unseen tiles improving it."""

    tile: Tile
    shanten: int
    ukeire: int

    # Written out, not generated: see mj.compiled on value classes built per message.
    def __init__(self, tile: Tile, shanten: int, ukeire: int) -> None:
        self.tile = tile
        self.shanten = shanten
        self.ukeire = ukeire


def shanten(vector: Sequence[int], sets: int, seven_pairs: bool) -> int:
    """Shanten over every hand shape open to the hand (special hands only while concealed)."""
    return hand.shanten_all(vector, sets, seven_pairs)


def discard_options(
    vector: Sequence[int], sets: int, seven_pairs: bool, unseen: Sequence[int], every: bool = False
) -> list[DiscardOption]:
    """Each distinct discard of a hand about to discard, with its shanten and ukeire.

    Ukeire is only worked out for the discards reaching the least shanten unless
    ``every``: the others are never chosen on shape, and skipping them halves the
    cost; only a defence weighing a safer but slower hand needs them all.
    """
    held = [i for i in range(NUM_KINDS) if vector[i]]
    if every:
        useful = hand.useful_draws(vector, sets, seven_pairs, held)
        return [_option(i, shanten, draws, unseen) for i, (shanten, draws) in zip(held, useful, strict=True)]
    if not held:
        return []
    after = hand.shanten_after_discards(vector, sets, seven_pairs)
    best = min(after[i] for i in held)
    fastest = [i for i in held if after[i] == best]
    useful_of = dict(zip(fastest, hand.useful_draws(vector, sets, seven_pairs, fastest), strict=True))
    return [
        _option(i, best, useful_of[i][1], unseen) if i in useful_of else DiscardOption(KINDS[i], after[i], 0)
        for i in held
    ]


def _option(kind: int, shanten: int, draws: Sequence[int], unseen: Sequence[int]) -> DiscardOption:
    """The discard of ``kind`` leaving ``shanten``, counting the unseen copies of the ``draws`` that lower it."""
    ukeire = 0
    for draw in draws:  # a plain loop: compiled, it indexes directly, where map() would call back into Python
        ukeire += unseen[draw]
    return DiscardOption(KINDS[kind], shanten, ukeire)


def best_shanten_after_discard(vector: Sequence[int], sets: int, seven_pairs: bool) -> int:
    """The least shanten reachable by one discard from a hand that must discard."""
    return min(hand.shanten_after_discards(vector, sets, seven_pairs))


def without(vector: Sequence[int], *removed: Tile) -> list[int]:
    """A copy of ``vector`` with the given tiles taken out (one per mention)."""
    work = list(vector)
    for tile in removed:
        work[kind_index(tile)] -= 1
    return work


# WIN_LOGIT is typed as a variable-length tuple: see mj.compiled on float tables.

#: Logistic model of the chance to win the hand after a discard, by the shanten left
#: (0..3): (constant, per 10 useful unseen tiles, per full live wall). Fitted on our
#: robot's hands against three original robots (tuning seeds); a hand further than
#: 3 from ready is read as 3 with :data:`FURTHER` per extra step.
WIN_LOGIT: Final[tuple[tuple[float, float, float], ...]] = (
    (-1.905, 1.489, 2.181),
    (-3.374, 0.304, 3.488),
    (-3.717, 0.099, 3.358),
    (-4.692, 0.104, 3.817),
)
FURTHER: Final = -1.0
#: Live tiles at the start of a hand with flowers and a 14-tile dead wall (the scale of the model).
FULL_WALL: Final = 77


def win_chance(shanten: int, ukeire: int, live_tiles: int) -> float:
    """Roughly how likely a hand this far from ready, this well connected, goes out before the wall ends."""
    constant, per_ukeire, per_wall = WIN_LOGIT[min(max(shanten, 0), 3)]
    logit = constant + per_ukeire * ukeire / 10 + per_wall * live_tiles / FULL_WALL
    logit += FURTHER * max(0, shanten - 3)
    return 1.0 / (1.0 + math.exp(-logit))


#: How much more often, per unseen copy, the original robots throw a kind than a middle tile
#: late in a hand: by distance from the edge (terminals, 2 and 8, then 3 to 7 alike), and honours.
#: A ready hand is won on their discards about three times as often as from the wall, so its waits
#: are worth more on the kinds they throw (measured: ``docs/robot-tuning.md``, the lure).
THROWN: Final[tuple[float, ...]] = (0.23, 0.12, 0.0, 0.0, 0.0)
THROWN_HONOUR: Final = 0.29


def lured_waits(vector: Sequence[int], sets: int, seven_pairs: bool, unseen: Sequence[int], lure: float) -> float:
    """The unseen copies of a ready hand's waits, each counted ``1 + lure * share`` by how often its kind is thrown."""
    total = 0.0
    for kind in hand.wait_indices(vector, sets, seven_pairs):
        if kind >= HONOURS_START:
            share = THROWN_HONOUR
        else:
            rank = kind % 9
            share = THROWN[min(rank, 8 - rank)]
        total += unseen[kind] * (1.0 + lure * share)
    return total
