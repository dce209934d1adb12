"""The seed's seating ceremony: four wind tiles shuffled face down, the dice say who draws first.

The first player to join throws the two dice and counts themself as one, the next
to join (on their right) as two, and so on; the player counted last draws first, the
others follow in joining order, and each sits at the wind drawn. Everything comes
from the table's seeded generator, so a seed gives the same seats every time.
"""

from __future__ import annotations

from collections.abc import Sequence

from mj.tiles import GlibcRandom


def draw_seats(rng: GlibcRandom, players: Sequence[int]) -> list[int]:
    """The four ``players`` (in joining order) seated East, South, West, North by the ceremony."""
    if len(players) != 4:
        raise ValueError("the seating ceremony seats four players")
    row = [0, 1, 2, 3]  # the wind tiles, East first, shuffled face down
    for left in range(3, 0, -1):
        j = rng.index(left)
        row[left], row[j] = row[j], row[left]
    dice = (1 + rng.index(5)) + (1 + rng.index(5))
    first = (dice - 1) % 4
    seats = [0, 0, 0, 0]
    for k in range(4):
        seats[row[k]] = players[(first + k) % 4]
    return seats
