"""One seat's share of a hand: tiles in the order received, declared sets, specials."""

from __future__ import annotations

from dataclasses import dataclass, field

from mj.melds import KongOrigin, Meld, MeldKind, kong
from mj.tiles import BLANK, Tile, code


@dataclass(slots=True)
class Seat:
    player: int
    wind: Tile
    #: Concealed tiles in the order received; removals take the first match, as the
    #: original does, because PlayerShowsTiles reveals them in this order.
    concealed: list[Tile] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    specials: list[Tile] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    #: Every tile this seat discarded this hand, claimed or not.
    thrown: list[Tile] = field(default_factory=list)
    calling: bool = False
    has_discarded: bool = False
    #: Sets exposed during play, before anyone went mah-jong.
    play_melds: int = 0
    score: int | None = None
    #: A dangerous discard of this seat's that nobody excused, by the claimer it helped.
    liable_to: dict[int, frozenset[object]] = field(default_factory=dict)

    def holds(self, tile: Tile, count: int = 1) -> bool:
        return self.concealed.count(tile) >= count

    def remove(self, tile: Tile, count: int = 1) -> None:
        for _ in range(count):
            self.concealed.remove(tile)

    @property
    def exposed(self) -> list[Meld]:
        return [m for m in self.melds if not m.concealed]

    def info_text(self, visible: bool, hide_concealed_kongs: bool = False) -> str:
        """The InfoTiles text (§2.6): tiles sorted (or hidden), `` *``, sets, `` * ``, specials.

        With ``hide_concealed_kongs`` (a system that keeps them secret), a concealed kong
        is written with blanks for a viewer who may not see it.
        """
        tiles = sorted(self.concealed) if visible else [BLANK] * len(self.concealed)
        parts = [" ".join(code(t) for t in tiles), " *"]
        for meld in self.melds:
            hidden = hide_concealed_kongs and not visible and meld.kind is MeldKind.KONG and meld.concealed
            parts.append(" " + str(kong(BLANK, KongOrigin.CONCEALED) if hidden else meld))
        parts.append(" * ")
        parts.append(" ".join(code(t) for t in self.specials))
        return "".join(parts)
