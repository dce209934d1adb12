"""A Beijing win's figures, as mj's ``ScoreFigure`` lines carry them (docs/protocol-extension.md).

Beijing has no single hand score: each non-winner pays their own amount, with the
doubles that apply to them (Banker to the banker alone unless the banker wins, Own
Tile to the discarder alone on a discard). ``Payment`` lines say who pays whom, but
not why; these figures do, so that a client can show each payer's doubles:

* ``doubles`` — how many doubles every payer shares, then ``double:NAME`` for each
  of them (``NAME`` as in :data:`mj.rules.beijing.scoring.DOUBLES`);
* ``rare:NAME`` — a rare event's points (never doubled), ``kongs`` — the kong points;
* per payer, by its seat in the hand (``E``, ``S``, ``W``, ``N``): ``payer:SEAT``, the
  amount it owes the winner, then ``payer:SEAT:NAME`` for every double that applies
  to it, the shared ones included.

The amounts are owed before DiscarderPaysAll moves who pays: the ``Payment`` lines
follow who actually pays.
"""

from __future__ import annotations

from typing import Final

from mj.rules.beijing.scoring import BeijingScore
from mj.tiles import WINDS, code

#: The seats' letters in ``payer:SEAT``, East first: their winds' (``E`` of ``EW``...).
SEAT_LETTERS: Final = tuple(code(wind)[0] for wind in WINDS)


def figures(scored: BeijingScore) -> tuple[tuple[str, int], ...]:
    """The ``(name, value)`` figures of an allowed win (``HandScore.figures``), in the order above."""
    out = [("doubles", scored.doubles), *((f"double:{name}", n) for name, n in scored.shared)]
    out += [(f"rare:{name}", points) for name, points in scored.rare]
    if scored.kongs:
        out.append(("kongs", scored.kongs))
    for payer in scored.payers:
        seat = SEAT_LETTERS[payer.payer]
        out.append((f"payer:{seat}", payer.amount))
        out += [(f"payer:{seat}:{name}", n) for name, n in payer.doubles]
    return tuple(out)
