"""``--pause`` and players' ``DelayTime``: slowing tile movements down to human speed (protocol.md §7.13).

The table says how far apart tile movements must be (:meth:`Table.pacing`); the
server holds back each batch of deliveries that moves a tile until that much time
has passed since the previous movement, twice as long after a claimed set (the
original doubles its delay after implementing a claim, so people can see who took
the discard). Batches that move no tile (chat, acknowledgements, errors) are never
held back. Holding back happens in the server's single event loop, as the
original's sleep did, so later events are handled in their order after the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mj.protocol import cmsg as C
from mj.table import Delivery

#: Messages that move a tile between wall, hands, discards and sets.
MOVEMENTS: Final = (
    C.PlayerDraws,
    C.PlayerDrawsLoose,
    C.PlayerDiscards,
    C.PlayerDeclaresSpecial,
    C.PlayerPungs,
    C.PlayerKongs,
    C.PlayerChows,
    C.PlayerPairs,
    C.PlayerDeclaresClosedKong,
    C.PlayerAddsToPung,
    C.PlayerRobsKong,
    C.PlayerMahJongs,
)
#: Movements that implement a claim on a discard.
CLAIMED_SETS: Final = (C.PlayerPungs, C.PlayerKongs, C.PlayerChows, C.PlayerPairs)


class Pacer:
    """Remembers the last tile movement sent and says how long the next batch must wait."""

    def __init__(self) -> None:
        self._last: float | None = None
        self._after_claim = False

    def wait(self, batch: Sequence[Delivery], interval: float, now: float) -> float:
        """Seconds to hold ``batch`` back before sending it (0 = send now)."""
        if interval <= 0 or self._last is None or not _moves(batch):
            return 0.0
        gap = interval * (2 if self._after_claim else 1)
        return max(0.0, self._last + gap - now)

    def sent(self, batch: Sequence[Delivery], now: float) -> None:
        """Record that ``batch`` went out at ``now``."""
        if _moves(batch):
            self._last = now
            self._after_claim = any(isinstance(d.message, CLAIMED_SETS) for d in batch)


def _moves(batch: Sequence[Delivery]) -> bool:
    return any(isinstance(d.message, MOVEMENTS) for d in batch)
