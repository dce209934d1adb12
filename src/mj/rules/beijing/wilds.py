"""Which tiles are wild, and the wild-tile rules on who may go out how (the seed's "Wild tiles" and "Win").

The indicator is one of the four copies of its kind; the wild kind is the next one:
9 wraps to 1 of its suit, the winds go East → South → West → North → East and the
dragons Red → Green → White → Red (the seed's order; mj's tile order lists the
dragons Red, White, Green, so the order is written out here).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from mj.tiles import DRAGON, GREEN_DRAGON, NORTH_WIND, RED_DRAGON, WHITE_DRAGON, WIND, Tile, is_special

#: The dragon after each dragon, in the seed's Red → Green → White → Red.
_NEXT_DRAGON: Final = {RED_DRAGON: GREEN_DRAGON, GREEN_DRAGON: WHITE_DRAGON, WHITE_DRAGON: RED_DRAGON}
#: At most this many wilds held lets a player win on another's tile.
MAX_WILDS_ON_DISCARD: Final = 2


def wild_of(indicator: Tile) -> Tile:
    """The wild kind that ``indicator`` turns up."""
    if is_special(indicator):
        raise ValueError("a flower or season cannot be the wild indicator (Beijing plays without them)")
    if indicator > DRAGON:
        return _NEXT_DRAGON[indicator]
    if indicator > WIND:
        return WIND + 1 if indicator == NORTH_WIND else indicator + 1
    return indicator - 8 if indicator % 10 == 9 else indicator + 1


def dead_hand(wild: Tile | None, discards: Collection[Tile]) -> bool:
    """Whether a player who discarded ``discards`` this hand has thrown away a wild, and so may not win it."""
    return wild is not None and wild in discards


def may_rob_kong(concealed_kong: bool, completes_flush: bool) -> bool:
    """Whether a kong may be robbed: an added (open) kong always, a closed one only to complete a Flush."""
    return not concealed_kong or completes_flush


def may_win_on_discard(passed_a_winning_tile: bool, no_win_after_pass: bool) -> bool:
    """The NoWinAfterPass variation: after passing up a winning tile, no discard win until one's turn, a pung or a kong.

    ``passed_a_winning_tile`` is the table's record since the player's last turn (a
    pung or a kong clears it, as the turn does).
    """
    return not (no_win_after_pass and passed_a_winning_tile)
