"""Settlement: who pays whom after a hand, and the original's text (protocol.md §9.9).

Seats are 0..3 = East, South, West, North throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mj.rules.base import Payment, Settlement
from mj.rules.options import GameOptions

#: Seat names as the original prints them: padded to five characters.
SEAT_NAMES: Final = ("East ", "South", "West ", "North")
EAST: Final = 0


def settle(
    scores: Sequence[int],
    winner: int,
    discarder: int | None,
    cannoneer: int | None,
    options: GameOptions,
) -> Settlement:
    """Settle a hand: ``scores`` are the four hand scores by seat.

    ``discarder`` is the seat whose discard gave mah-jong, None when the winning tile
    came from the wall, a loose tile or a robbed kong (robbing counts as not being a
    discard for DiscDoubles, as §9.9 states: everybody pays double then).
    ``cannoneer`` is the seat that let off a cannon (§9.8): it pays the winner for
    everybody, and the losers do not settle among themselves.
    """
    east_doubles = options["EastDoubles"] != 0
    disc_doubles = options["DiscDoubles"] != 0
    losers_settle = options["LosersSettle"] != 0 and cannoneer is None
    losers = [seat for seat in range(4) if seat != winner]
    changes = [0, 0, 0, 0]
    payments: list[Payment] = []
    lines: list[str] = []
    if cannoneer is not None:
        lines.append(f"{SEAT_NAMES[cannoneer]} let off a cannon\n\n")
    win_name = SEAT_NAMES[winner]
    for loser in losers:
        amount = scores[winner]
        if east_doubles and EAST in (loser, winner):
            amount *= 2
        if disc_doubles and (discarder is None or discarder == loser):
            amount *= 2
        payer = loser if cannoneer is None else cannoneer
        on_behalf = f" (for {SEAT_NAMES[loser]})" if payer != loser else ""
        lines.append(f"{SEAT_NAMES[payer]} pays {win_name}{on_behalf} {amount:5d}\n")
        changes[payer] -= amount
        changes[winner] += amount
        payments.append(Payment(payer, winner, amount))
    lines.append(f"{win_name} GAINS {changes[winner]:5d}\n\n")
    between: dict[int, list[str]] = {seat: [] for seat in losers}
    if losers_settle:
        for n, i in enumerate(losers):
            for j in losers[n + 1 :]:
                difference = scores[i] - scores[j]
                if east_doubles and EAST in (i, j):
                    difference *= 2
                changes[i] += difference
                changes[j] -= difference
                if difference > 0:
                    line = f"{SEAT_NAMES[j]} pays {SEAT_NAMES[i]} {difference:5d}\n"
                    payments.append(Payment(j, i, difference))
                elif difference < 0:
                    line = f"{SEAT_NAMES[i]} pays {SEAT_NAMES[j]} {-difference:5d}\n"
                    payments.append(Payment(i, j, -difference))
                else:
                    line = f"{SEAT_NAMES[i]} and {SEAT_NAMES[j]} are even\n"
                between[i].append(line)
    for seat in losers:
        lines.extend(between[seat])
        change = changes[seat]
        verb = "GAINS" if change >= 0 else "LOSES"
        lines.append(f"{SEAT_NAMES[seat]} {verb} {abs(change):5d}\n\n")
    east, south, west, north = changes
    return Settlement((east, south, west, north), "".join(lines), tuple(payments))
