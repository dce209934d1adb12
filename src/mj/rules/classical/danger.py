"""Danger signals: which discards are dangerous, and who let off a cannon (protocol.md §9.8).

A player's exposed sets *signal* what they are collecting. Feeding such a player the
tile they need is a dangerous discard; if that player then wins with a hand showing
the same signal, the discarder "let off a cannon" and pays for everybody (§9.9).

Where §9.8 is terse we read it literally: "3+ sets all bamboo" means at least three
exposed sets, every one of them bamboo (an honour set spoils a one-suit signal: the
original called no dangerous discard on a pair of bamboo fed to a player showing a
pung of winds and three bamboo sets, seed 6051 of tests/data/original); "3+ sets all
honours / green / terminals" likewise. Pairs are not sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Final

from mj.melds import Meld, MeldKind
from mj.rules.base import SeatHand
from mj.tiles import (
    BAMBOO,
    BLANK,
    CHARACTER,
    CIRCLE,
    GREEN_TILES,
    Tile,
    is_dragon,
    is_honour,
    is_special,
    is_terminal,
    is_wind,
    suit,
)


class Signal(Enum):
    BAMBOO_SUIT = "one suit: bamboo"
    CHARACTER_SUIT = "one suit: characters"
    CIRCLE_SUIT = "one suit: circles"
    WINDS = "winds"
    DRAGONS = "dragons"
    HONOURS = "honours"
    GREEN = "green"
    TERMINALS = "terminals"
    #: Always present: near the end of the wall any unseen tile may be the winning one.
    END_OF_WALL = "end of wall"


_SUIT_SIGNALS: Final = {BAMBOO: Signal.BAMBOO_SUIT, CHARACTER: Signal.CHARACTER_SUIT, CIRCLE: Signal.CIRCLE_SUIT}
#: Sets needed before a purity signal (one suit, honours, green, terminals) or winds is shown.
PURITY_SETS: Final = 3
WIND_SETS: Final = 3
DRAGON_SETS: Final = 2
#: The end-of-wall danger: this many live tiles or fewer, and the kind unseen in the discards.
END_OF_WALL_TILES: Final = 4


def signals(melds: Sequence[Meld]) -> frozenset[Signal]:
    """The signals of a player's exposed sets (pairs, special sets and blank tiles are ignored)."""
    sets = [m for m in melds if m.kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG) and m.tile != BLANK]
    found = {Signal.END_OF_WALL}
    winds = sum(1 for m in sets if is_wind(m.tile))
    dragons = sum(1 for m in sets if is_dragon(m.tile))
    honours = winds + dragons
    if winds >= WIND_SETS:
        found.add(Signal.WINDS)
    if dragons >= DRAGON_SETS:
        found.add(Signal.DRAGONS)
    if honours >= PURITY_SETS and honours == len(sets):
        found.add(Signal.HONOURS)
    suits = {suit(m.tile) for m in sets if not is_honour(m.tile)}
    if len(suits) == 1 and not honours and len(sets) >= PURITY_SETS:
        found.add(_SUIT_SIGNALS[suits.pop()])
    if len(sets) >= PURITY_SETS and all(t in GREEN_TILES for m in sets for t in m.tiles):
        found.add(Signal.GREEN)
    if len(sets) >= PURITY_SETS and all(m.kind is not MeldKind.CHOW and is_terminal(m.tile) for m in sets):
        found.add(Signal.TERMINALS)
    return frozenset(found)


def threatens(tile: Tile, shown: frozenset[Signal]) -> bool:
    """Whether ``tile`` feeds one of the ``shown`` signals (the end of wall is :func:`end_of_wall`)."""
    if is_special(tile):
        return False  # a flower or season left in hand is never discarded: it feeds nobody
    if tile in GREEN_TILES and Signal.GREEN in shown:
        return True
    if is_honour(tile):
        return (
            Signal.HONOURS in shown
            or (is_wind(tile) and Signal.WINDS in shown)
            or (is_dragon(tile) and Signal.DRAGONS in shown)
        )
    return _SUIT_SIGNALS[suit(tile)] in shown or (is_terminal(tile) and Signal.TERMINALS in shown)


def end_of_wall(live_tiles: int, copies_discarded: int) -> bool:
    """The end-of-wall danger: few live tiles left and this kind not yet discarded.

    ``copies_discarded`` counts the discard being judged, so 1 means "no other copy".
    """
    return live_tiles <= END_OF_WALL_TILES and copies_discarded <= 1


def winning_signals(hand: SeatHand) -> frozenset[Signal]:
    """The winner's signals at settlement: those the final hand achieved (§9.8).

    Computed like :func:`signals` over all the winner's declared sets, with the
    purity signals requiring the whole hand (pair included) to be pure: a suit's
    signal takes no honour either (the original lets no cannon off for a hand of one
    suit with honours, seed 2013).
    """
    found = set(signals(hand.melds))
    tiles = [t for m in hand.melds for t in m.tiles]
    if not all(is_honour(t) for t in tiles):
        found.discard(Signal.HONOURS)
    suits = {suit(t) if not is_honour(t) else None for t in tiles}
    if len(suits) != 1:
        found -= set(_SUIT_SIGNALS.values())
    if not all(t in GREEN_TILES for t in tiles):
        found.discard(Signal.GREEN)
    if not all(is_terminal(t) for t in tiles):
        found.discard(Signal.TERMINALS)
    return frozenset(found)
