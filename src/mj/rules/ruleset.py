"""What the game engine asks of a rule system.

The engine (:mod:`mj.game.engine`) runs the course of a hand the protocol defines:
dealing, claims, kongs, declarations. Which hands are complete, what they score, who
pays whom and which discards make a player liable are the rule system's business, so
they sit behind this interface: Chinese Classical is the first implementation, and
others (IMS fan scoring, Beijing wild tiles) plug in here instead of into the engine.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

from mj.melds import Meld
from mj.rules.classical.facts import SeatHand, Win
from mj.rules.classical.scoring import HandScore
from mj.rules.classical.settlement import Settlement
from mj.rules.options import GameOptions
from mj.tiles import Tile


class Ruleset(Protocol):
    """A rule system: complete hands, scores, settlement and discard liability."""

    name: str

    def is_mahjong(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        """Whether declared ``melds`` plus ``concealed`` (all 14 tiles' worth) can go out."""
        ...

    def can_finish(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        """Whether a winner who has declared ``melds`` can still arrange ``concealed`` into a complete hand."""
        ...

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        """A hand's score and its explanation; ``win`` is None for a loser's hand."""
        ...

    def settle(
        self, scores: Sequence[int], winner: int, discarder: int | None, cannoneer: int | None, options: GameOptions
    ) -> Settlement:
        """Who pays whom, by seat, given the four hand scores."""
        ...

    def exposure(self, melds: Sequence[Meld]) -> frozenset[Hashable]:
        """What a player's exposed sets show the table (what makes some discards dangerous to them)."""
        ...

    def danger(
        self, tile: Tile, shown: frozenset[Hashable], live_tiles: int, copies_discarded: int
    ) -> frozenset[Hashable]:
        """Why discarding ``tile`` to a player who shows ``shown`` is dangerous (empty: it is not)."""
        ...

    def achieved(self, hand: SeatHand) -> frozenset[Hashable]:
        """What the winner's final hand achieved, to match against a discarder's dangers."""
        ...
