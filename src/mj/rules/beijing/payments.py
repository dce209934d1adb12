"""Beijing payments: each non-winner pays the winner their own amount; nobody else settles.

On a discard (or a robbed kong) all three non-winners pay, each with their own
doubles; with DiscPaysAll the discarder pays all three amounts. A busted banker
pays each other player the agreed points (the table decides when; this is the sum).
"""

from __future__ import annotations

from dataclasses import dataclass

from mj.rules.beijing.scoring import SEAT_NAMES, BeijingScore


@dataclass(frozen=True, slots=True)
class Payments:
    """Each seat's net change (summing to zero) and the text saying who pays what."""

    changes: tuple[int, int, int, int]
    text: str


def _payments(changes: list[int], lines: list[str]) -> Payments:
    east, south, west, north = changes
    return Payments((east, south, west, north), "\n".join(lines))


def pay(winner: int, discarder: int | None, scored: BeijingScore, discarder_pays_all: bool) -> Payments:
    """Who pays ``winner`` what for the allowed hand ``scored``."""
    changes = [0, 0, 0, 0]
    lines = []
    for p in scored.payers:
        payer = discarder if discarder_pays_all and discarder is not None else p.payer
        changes[payer] -= p.amount
        changes[winner] += p.amount
        for_whom = f" for {SEAT_NAMES[p.payer]}" if payer != p.payer else ""
        lines.append(f"{SEAT_NAMES[payer]} pays {SEAT_NAMES[winner]} {p.amount}{for_whom}")
    return _payments(changes, lines)


def busted_banker(banker: int, points: int) -> Payments:
    """The busted banker pays ``points`` to each other player."""
    changes = [points] * 4
    changes[banker] = -3 * points
    lines = [f"{SEAT_NAMES[banker]} pays {SEAT_NAMES[s]} {points}" for s in range(4) if s != banker]
    return _payments(changes, lines)
