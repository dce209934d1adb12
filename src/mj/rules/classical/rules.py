"""Chinese Classical as a :class:`~mj.rules.ruleset.Ruleset`: the pieces of this package behind one object."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from mj import hand
from mj.melds import Meld, MeldKind
from mj.rules.classical import danger
from mj.rules.classical.facts import SeatHand, Win
from mj.rules.classical.scoring import HandScore, score_hand
from mj.rules.classical.settlement import Settlement, settle
from mj.rules.options import GameOptions
from mj.tiles import Tile


class ClassicalRules:
    """Unix Mah-Jong 1.11's Chinese Classical rules, with every game option."""

    name = "classical"

    def is_mahjong(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        sets = sum(1 for m in melds if m.kind is not MeldKind.PAIR)
        return hand.is_mahjong(list(concealed), sets, options.flag("SevenPairs"))

    def can_finish(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        if any(m.kind is MeldKind.SPECIAL for m in melds):
            return not concealed
        sets = sum(1 for m in melds if m.kind is not MeldKind.PAIR)
        pairs = len(melds) - sets
        tiles = list(concealed)
        if pairs <= 1 and sets <= 4 and hand.can_complete(tiles, 4 - sets, pairs == 0):
            return True
        seven_pairs = options.flag("SevenPairs") and sets == 0 and 2 * pairs + len(tiles) == 14
        return seven_pairs and all(c % 2 == 0 for c in hand.counts(tiles))

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        return score_hand(hand, win, options, special_scores)

    def settle(
        self, scores: Sequence[int], winner: int, discarder: int | None, cannoneer: int | None, options: GameOptions
    ) -> Settlement:
        return settle(scores, winner, discarder, cannoneer, options)

    def exposure(self, melds: Sequence[Meld]) -> frozenset[Hashable]:
        return danger.signals(melds)

    def danger(
        self, tile: Tile, shown: frozenset[Hashable], live_tiles: int, copies_discarded: int
    ) -> frozenset[Hashable]:
        reasons: set[Hashable] = {
            s for s in shown if isinstance(s, danger.Signal) and danger.threatens(tile, frozenset({s}))
        }
        if danger.end_of_wall(live_tiles, copies_discarded):
            reasons.add(danger.Signal.END_OF_WALL)
        return frozenset(reasons)

    def achieved(self, hand: SeatHand) -> frozenset[Hashable]:
        return danger.winning_signals(hand)


CLASSICAL = ClassicalRules()
