"""Which moves the rules allow this seat right now (protocol.md §7-§8), from its view alone.

Strategies choose among these; offering only legal moves keeps the server's
``Error`` answers for genuine surprises. The checks mirror the server's: pung and
kong claims need two or three matching tiles, chows only suited tiles from the
player on the left, mah-jong a complete hand (seven pairs only with the SevenPairs
option), robbing a concealed kong only for Thirteen Unique Wonders, specials and
concealed kongs only after a draw (not right after claiming a discard).
"""

from __future__ import annotations

from typing import Final

from mj import hand, tiles
from mj.melds import MeldKind
from mj.protocol.fields import ChowPosition
from mj.robot.view import CHOW_OFFSET, SeatView
from mj.tiles import Tile

#: The ordinary kinds: of the tile codes a view holds, all but flowers, seasons and the blank.
_ORDINARY: Final = frozenset(tiles.KINDS)


def ordinary(view: SeatView) -> list[Tile]:
    """Own concealed tiles without flowers and seasons."""
    return [t for t in view.concealed if t in _ORDINARY]


def specials_held(view: SeatView) -> list[Tile]:
    return [t for t in view.concealed if tiles.is_special(t)]


def can_go_out(view: SeatView, extra: Tile | None = None) -> bool:
    """Whether the concealed tiles (plus ``extra``, a discard: one of the hand's waits) complete the hand."""
    if extra is None:
        return hand.is_mahjong(view.concealed, view.declared_sets, view.seven_pairs)  # flowers and seasons are ignored
    return extra in _ORDINARY and tiles.kind_index(extra) in view.waits()


def can_rob(view: SeatView, tile: Tile, concealed_kong: bool) -> bool:
    """Whether the kong being made with ``tile`` may be robbed to go out."""
    if concealed_kong:
        return not view.melds and hand.is_thirteen_wonders([*ordinary(view), tile])
    return can_go_out(view, tile)


def held(view: SeatView, tile: Tile) -> int:
    return view.concealed.count(tile)


def chow_positions(view: SeatView, tile: Tile) -> list[ChowPosition]:
    """Positions at which the discard ``tile`` would complete a chow with two concealed tiles."""
    if not tiles.is_suited(tile):
        return []
    concealed = ordinary(view)
    found = []
    for position, offset in CHOW_OFFSET.items():
        low = tile - offset
        in_suit = 1 <= low % 10 <= 7 and tiles.suit(low) == tiles.suit(tile)
        if in_suit and all(t in concealed for t in chow_partners(tile, position)):
            found.append(position)
    return found


def chow_partners(tile: Tile, position: ChowPosition) -> tuple[Tile, Tile]:
    """The two tiles that make a chow with ``tile`` placed at ``position``."""
    low = tile - CHOW_OFFSET[position]
    first, second = (t for t in (low, low + 1, low + 2) if t != tile)
    return first, second


def closed_kongs(view: SeatView) -> list[Tile]:
    """Kinds held four times that may be declared as a concealed kong now."""
    if view.after_claim:
        return []
    concealed = ordinary(view)
    return sorted({t for t in concealed if concealed.count(t) == 4})


def pung_additions(view: SeatView) -> list[Tile]:
    """Tiles that would turn one of the seat's exposed pungs into a kong now."""
    if view.after_claim:
        return []
    concealed = ordinary(view)
    return sorted(m.tile for m in view.melds if m.kind is MeldKind.PUNG and not m.concealed and m.tile in concealed)
