"""IMS payments (the end of the seed's "IMS Scoring System"): who pays the winner what.

Self-fed (drawn from the wall, or a loose tile after a flower or a quadruplet), every
other player pays the score. Fed (a discard, or a robbed quadruplet), the feeder pays
the score and the other two pay the bonus. Nobody else settles: the losers pay only
the winner. With several winners on one discard each is paid as fed, and a seat's
change is the sum over the winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mj.rules.winhand import How

#: Seat names in payment texts, East first.
SEAT_NAMES = ("East", "South", "West", "North")


@dataclass(frozen=True, slots=True)
class Payments:
    """Each seat's net change for one winner's hand (they sum to zero), and the text saying who pays what."""

    changes: tuple[int, int, int, int]
    text: str


def pay(winner: int, how: How, feeder: int | None, score: int, bonus: int) -> Payments:
    """What each seat pays ``winner`` for a hand of ``score`` (with ``bonus`` in it) won by ``how``."""
    changes = [0, 0, 0, 0]
    lines = []
    for seat in range(4):
        if seat == winner:
            continue
        amount = bonus if how.fed and seat != feeder else score
        changes[seat] -= amount
        changes[winner] += amount
        lines.append(f"{SEAT_NAMES[seat]} pays {SEAT_NAMES[winner]} {amount}")
    east, south, west, north = changes
    return Payments((east, south, west, north), "\n".join(lines))


def total(payments: Sequence[Payments]) -> tuple[int, int, int, int]:
    """Each seat's change over several winners' payments (several winners on one discard)."""
    east, south, west, north = (sum(p.changes[seat] for p in payments) for seat in range(4))
    return east, south, west, north
