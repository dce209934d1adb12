"""A finished winning hand as a calculator or a scorer is given it, in no rule system's terms.

``mj score`` reads one of these from JSON (:mod:`mj.calculator.request`) and every rule system
scores it: IMS and Beijing directly (:mod:`mj.rules.ims.scoring`, :mod:`mj.rules.beijing.scoring`),
which is also how their tables score a winner (:func:`from_table`), and Chinese Classical by turning
it into its own ``SeatHand`` and ``Win`` (:mod:`mj.calculator.classical`). The hand is checked
for physical sense when it is made (:func:`check`), so the scorers may rely on it.

Seats are 0..3 = East, South, West, North, as everywhere in mj; East is the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from mj.melds import Meld, MeldKind
from mj.rules.base import SeatHand, Win, WinSource
from mj.tiles import KINDS, NUM_KINDS, WINDS, Tile, code, is_special, kind_index

#: The seats' letters in seat order, as the protocol writes winds.
SEAT_LETTERS: Final = ("E", "S", "W", "N")
EAST: Final = 0


class How(Enum):
    """Where the winning tile came from (score-json.md's ``how``)."""

    SELF_DRAWN = "self-drawn"
    DISCARD = "discard"
    ROBBED_KONG = "robbed-kong"
    #: The replacement drawn after a kong or a flower.
    LOOSE_TILE = "loose-tile"

    @property
    def fed(self) -> bool:
        """Another seat's tile completed the hand (it has a feeder)."""
        return self is How.DISCARD or self is How.ROBBED_KONG


#: Where a table's winning tile came from (:class:`~mj.rules.base.WinSource`), as score-json.md says it.
HOW_OF: Final = {
    WinSource.WALL: How.SELF_DRAWN,
    WinSource.LOOSE: How.LOOSE_TILE,
    WinSource.DISCARD: How.DISCARD,
    WinSource.ROBBED_KONG: How.ROBBED_KONG,
}


#: The sets a hand may have exposed, by their names in score-json.md (``"set"``).
SET_NAME: Final = {kind: kind.value for kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG)}


class HandError(ValueError):
    """A hand that cannot exist; ``str()`` is one line naming the fault."""


@dataclass(frozen=True, slots=True)
class WinningHand:
    """Everything known about one winning hand.

    ``exposed`` are the sets declared before the winning tile came: chows, pungs and
    kongs (a concealed kong has ``concealed`` set). ``concealed`` is every other tile,
    the winning tile included.
    """

    seat: int
    round_wind: int
    exposed: tuple[Meld, ...]
    concealed: tuple[Tile, ...]
    winning_tile: Tile
    how: How
    #: The seat that fed the tile (discard, robbed kong), else None.
    discarder: int | None
    flowers: tuple[Tile, ...]
    first_turn: bool = False
    last_tile: bool = False

    @property
    def seat_wind(self) -> Tile:
        return WINDS[self.seat]

    @property
    def prevailing_wind(self) -> Tile:
        return WINDS[self.round_wind]

    @property
    def is_dealer(self) -> bool:
        return self.seat == EAST

    def tile_counts(self) -> list[int]:
        """How many of each of the 34 kinds the whole hand holds (sets and concealed tiles)."""
        held = [0] * NUM_KINDS
        for meld in self.exposed:
            for tile in meld.tiles:
                held[kind_index(tile)] += 1
        for tile in self.concealed:
            held[kind_index(tile)] += 1
        return held


def from_table(hand: SeatHand, win: Win) -> WinningHand:
    """A table's winner as the scorers take it (the winning tile among ``hand.concealed``): the one
    translation that the IMS and Beijing rules share, so that play is scored as ``mj score`` scores."""
    how = HOW_OF[win.source]
    return WinningHand(
        seat=WINDS.index(hand.own_wind),
        round_wind=WINDS.index(hand.prevailing_wind),
        exposed=tuple(m for m in hand.melds if m.kind in SET_NAME),
        concealed=hand.concealed,
        winning_tile=win.tile,
        how=how,
        discarder=win.feeder if how.fed else None,
        flowers=hand.specials,
        first_turn=win.heavens_blessing or win.earths_blessing,
        last_tile=win.last_tile,
    )


def draws_loose_tiles(exposed: Sequence[Meld], flowers: Sequence[Tile]) -> bool:
    """Whether a hand could have drawn a loose tile: it replaces the draw of a kong or of a flower."""
    return bool(flowers) or any(meld.kind is MeldKind.KONG for meld in exposed)


def check(hand: WinningHand) -> None:
    """Raise :class:`HandError` unless ``hand`` could be on a table.

    Fourteen tiles' worth (a kong counts as three), no more than four of a kind, the
    winning tile among the concealed tiles, flowers only among the flowers and each at
    most once, a feeder for a fed tile and only then, a robbed kong's tile held
    once (the robbed pung holds the other three), a loose tile only beside a kong or
    a flower, the draws it replaces, and no chow or pung on a first turn (a seat
    discards after claiming one, so its first turn is over).
    """
    for meld in hand.exposed:
        if meld.kind not in SET_NAME:
            raise HandError(f"exposed sets are chows, pungs and kongs, not a {meld.kind.value}")
        if is_special(meld.tile):
            raise HandError(f"{code(meld.tile)} is a flower or season: it makes no set")
        if hand.first_turn and meld.kind is not MeldKind.KONG:
            raise HandError(f"a hand on its first turn has claimed no {meld.kind.value}: it would have discarded since")
    worth = len(hand.concealed) + 3 * len(hand.exposed)
    if worth != 14:
        raise HandError(f"the hand has {worth} tiles' worth (a kong counts as 3), not 14")
    for tile in hand.concealed:
        if is_special(tile):
            raise HandError(f"{code(tile)} is a flower or season: it belongs in flowers, not concealed")
    for tile in hand.flowers:
        if not is_special(tile):
            raise HandError(f"{code(tile)} in flowers is not a flower or season")
        if hand.flowers.count(tile) > 1:
            raise HandError(f"flower {code(tile)} is given twice (there is one of each)")
    held = hand.tile_counts()
    for index, n in enumerate(held):
        if n > 4:
            raise HandError(f"the hand holds {n} of {code(KINDS[index])}; there are only 4")
    if hand.winning_tile not in hand.concealed:
        raise HandError(f"the winning tile {code(hand.winning_tile)} is not among the concealed tiles")
    if hand.how.fed:
        if hand.discarder is None:
            raise HandError(f"a win by {hand.how.value} needs the discarder (the seat that fed the tile)")
        if hand.discarder == hand.seat:
            raise HandError(f"the discarder {SEAT_LETTERS[hand.seat]} is the winner's own seat")
    elif hand.discarder is not None:
        raise HandError(f"a {hand.how.value} win has no discarder")
    if hand.how is How.LOOSE_TILE and not draws_loose_tiles(hand.exposed, hand.flowers):
        raise HandError("a loose tile is drawn after a kong or a flower, and the hand has neither")
    if hand.how is How.ROBBED_KONG and held[kind_index(hand.winning_tile)] > 1:
        raise HandError(
            f"a robbed kong's tile {code(hand.winning_tile)} is held once: the robbed pung holds the other three"
        )
