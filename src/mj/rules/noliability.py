"""Rule systems without Chinese Classical's liability for dangerous discards.

Classical makes a player who feeds a dangerous discard pay for the whole hand, and
its :class:`~mj.rules.ruleset.Ruleset` hooks (exposure, danger, achieved) say what
is dangerous. IMS and Beijing have no such rule (who feeds a win pays as their own
payment rules say), so their hooks answer "nothing", here once for both.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from mj.melds import Meld
from mj.rules.base import SeatHand
from mj.tiles import Tile


class NoLiability:
    """Mixed in before :class:`~mj.rules.classical.rules.ClassicalRules`: no discard is dangerous."""

    def exposure(self, melds: Sequence[Meld]) -> frozenset[Hashable]:
        return frozenset()

    def danger(
        self, tile: Tile, shown: frozenset[Hashable], live_tiles: int, copies_discarded: int
    ) -> frozenset[Hashable]:
        return frozenset()

    def achieved(self, hand: SeatHand) -> frozenset[Hashable]:
        return frozenset()
