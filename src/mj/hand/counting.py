"""Count vectors: the representation every hand analysis in :mod:`mj.hand` works on.

A hand is a multiset, so the analyses only need how many of each of the 34 ordinary
kinds it holds.  The vector splits into four independent *groups* (the three suits
and the honours): no set, pair or partial set ever spans two groups, which is what
lets the per-group tables in the sibling modules stay small.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from mj.tiles import ALL_TILES, KINDS, NUM_KINDS, Tile, is_major

#: Start index of each suit's 9 counts (bamboo, characters, circles) in a count vector.
SUIT_STARTS: Final = (0, 9, 18)
#: Index of the first honour (East wind); the honours run to the end of the vector.
HONOURS_START: Final = 27
#: The group (0-2 the suits, 3 the honours) of each count-vector position.
GROUP_OF: Final = tuple(min(i // 9, 3) for i in range(NUM_KINDS))
#: Count-vector positions of the 13 major kinds (terminals and honours).
MAJOR_INDICES: Final = tuple(i for i, t in enumerate(KINDS) if is_major(t))


def _slots() -> list[int]:
    """Each tile code's position in a count vector; for anything else (flowers, seasons, blanks) the extra last one.

    A list indexed by code rather than a dict: compiled, a look-up is one load.
    """
    slots = [NUM_KINDS] * (max(ALL_TILES) + 1)
    for index, tile in enumerate(KINDS):
        slots[tile] = index
    return slots


_SLOT: Final = _slots()


def counts(tiles: Iterable[Tile]) -> list[int]:
    """How many of each of the 34 ordinary kinds ``tiles`` holds, in :data:`KINDS` order.

    Flowers, seasons and blanks are skipped rather than rejected: they are never part
    of a hand's shape, and callers routinely pass a player's whole holding. (They
    are counted in one more entry, dropped at the end, which keeps the loop free
    of tests: the robots count every tile in sight at every decision.)
    """
    vector = [0] * (NUM_KINDS + 1)
    slot = _SLOT
    for tile in tiles:
        vector[slot[tile]] += 1
    vector.pop()
    return vector
