"""What the scorer needs to know about a finished hand, gathered by the game engine.

The engine knows the history (where the winning tile came from, what was visible
on the table); the scorer only turns these facts into HandScore texts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mj.melds import Meld
from mj.tiles import Tile


class WinSource(Enum):
    """Where the winning tile came from."""

    DISCARD = "discard"
    WALL = "wall"
    LOOSE = "loose"
    ROBBED_KONG = "robbed kong"


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat's hand as it is scored.

    ``melds`` are in the order they were formed: sets exposed during play first,
    then (winner and losers alike) the sets declared in the scoring phase.
    ``concealed`` holds the tiles a loser revealed without forming sets.
    """

    melds: tuple[Meld, ...]
    concealed: tuple[Tile, ...]
    specials: tuple[Tile, ...]
    #: Seat wind tile of this hand (EAST_WIND for East...).
    own_wind: Tile
    prevailing_wind: Tile


@dataclass(frozen=True, slots=True)
class Win:
    """Facts about the winner's going out."""

    tile: Tile
    source: WinSource
    #: Number of leading ``melds`` that were exposed before the winning tile arrived.
    melds_before_win: int
    #: Tiles visible on the table when the winning tile arrived (discards and exposed
    #: sets of all seats), as a 34-entry count vector by ``tiles.kind_index``.
    visible: tuple[int, ...]
    #: The live wall was empty when the winning tile arrived.
    last_tile: bool
    heavens_blessing: bool
    earths_blessing: bool
    kong_upon_kong: bool
    original_call: bool
    #: Hands East had won in a row before this one (12 → East's 13th consecutive win).
    hands_as_east: int
    winner_is_east: bool
