"""Declared sets (chows, pungs, kongs, pairs, special hands) and their notation (protocol.md §2.5)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mj.tiles import Tile, code


class MeldKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    #: Thirteen Unique Wonders declared as one set of 14 tiles.
    SPECIAL = "special"


class KongOrigin(Enum):
    """How a kong was made; it decides its notation and, with KongHas3Types, its scoring."""

    CONCEALED = "concealed"
    CLAIMED = "claimed"
    ANNEXED = "annexed"


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared set. ``tile`` is the lowest tile of a chow, the repeated tile otherwise.

    ``concealed`` is false for sets made with a claimed discard (or robbed tile) and for
    kongs made by adding to an exposed pung.
    """

    kind: MeldKind
    tile: Tile
    concealed: bool
    kong_origin: KongOrigin | None = None
    #: The 14 tiles of a special hand, in the order declared.
    special_tiles: tuple[Tile, ...] = ()

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        if self.kind is MeldKind.SPECIAL:
            return self.special_tiles
        return (self.tile,) * self.size

    @property
    def size(self) -> int:
        # Compared by identity: hashing an Enum member runs Python code, and this is asked often.
        kind = self.kind
        if kind is MeldKind.KONG:
            return 4
        if kind is MeldKind.PAIR:
            return 2
        if kind is MeldKind.SPECIAL:
            return len(self.special_tiles)
        return 3

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind in (MeldKind.PUNG, MeldKind.KONG)

    def __str__(self) -> str:
        """The set string of HandScore and InfoTiles texts, e.g. ``NW-NW-NW+NW``."""
        codes = [code(t) for t in self.tiles]
        if self.kind is MeldKind.KONG and self.kong_origin is KongOrigin.CLAIMED:
            return "-".join(codes[:3]) + "+" + codes[3]
        return ("+" if self.concealed else "-").join(codes)


def chow(lowest: Tile, concealed: bool) -> Meld:
    return Meld(MeldKind.CHOW, lowest, concealed)


def pung(tile: Tile, concealed: bool) -> Meld:
    return Meld(MeldKind.PUNG, tile, concealed)


def pair(tile: Tile, concealed: bool) -> Meld:
    return Meld(MeldKind.PAIR, tile, concealed)


def kong(tile: Tile, origin: KongOrigin) -> Meld:
    return Meld(MeldKind.KONG, tile, origin is KongOrigin.CONCEALED, origin)


def special(tiles: tuple[Tile, ...], concealed: bool) -> Meld:
    return Meld(MeldKind.SPECIAL, min(tiles), concealed, special_tiles=tiles)
