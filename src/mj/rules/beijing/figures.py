"""Each payer's doubles, as figures of a Beijing win (mj's ``ScoreFigure``, docs/protocol-extension.md).

Beijing has no single hand score: each non-winner pays their own amount (the figure
``owes:SEAT``), with the doubles that apply to them: Banker to the banker alone
unless the banker wins, Own Tile to the discarder alone on a discard. The shared
doubles (``double:NAME``) do not say those, nor do the ``Payment`` lines, which say
who pays whom but not why. These figures do, so that a client can show each payer's
doubles: ``for:SEAT:NAME`` with how often the double ``NAME`` applies to that payer,
for every double that does, the shared ones included, ``SEAT`` being the payer's
seat in the hand (:data:`~mj.rules.beijing.scoring.SEAT_NAMES`).
"""

from __future__ import annotations

from typing import Final

from mj.rules.beijing.scoring import SEAT_NAMES, BeijingScore

#: The kind of figure naming one double of one payer.
FOR: Final = "for:"


def payer_doubles(scored: BeijingScore) -> tuple[tuple[str, int], ...]:
    """The ``(for:SEAT:NAME, how often)`` figures of an allowed win, payer by payer, in the seed's order."""
    return tuple((f"{FOR}{SEAT_NAMES[p.payer]}:{name}", n) for p in scored.payers for name, n in p.doubles)
