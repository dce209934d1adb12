"""The wall of one hand: live tiles from the front, loose tiles from the back (protocol.md §7.9).

The rule system chooses the :class:`~mj.rules.base.DeadWallPolicy`; this is its mechanics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mj.rules.base import DeadWallPolicy
from mj.tiles import Tile


@dataclass(slots=True)
class Wall:
    """Indices into the hand's tiles; the tiles themselves never move."""

    tiles: list[Tile]
    policy: DeadWallPolicy
    #: Index of the next live tile.
    live_next: int
    #: First index not in the live wall.
    live_end: int
    #: Index of the next loose tile (they are taken from the end backwards).
    loose_next: int

    @classmethod
    def build(cls, tiles: Sequence[Tile], policy: DeadWallPolicy) -> Wall:
        size = len(tiles)
        return cls(list(tiles), policy, 0, size - policy.size, size - 1)

    @property
    def live_left(self) -> int:
        return max(self.live_end - self.live_next, 0)

    @property
    def tiles_left(self) -> int:
        """Tiles nobody has drawn, live and dead."""
        return self.loose_next - self.live_next + 1

    @property
    def dead_left(self) -> int:
        return self.loose_next - self.live_end + 1

    def draw_live(self) -> Tile | None:
        """The next live tile, or None when the live wall is exhausted."""
        if self.live_next >= self.live_end:
            return None
        tile = self.tiles[self.live_next]
        self.live_next += 1
        return tile

    def draw_loose(self) -> Tile | None:
        """The next loose tile, or None when there is none to give."""
        if self.policy is DeadWallPolicy.NONE:
            if self.live_next >= self.live_end:
                return None
            self.live_end -= 1
        elif self.dead_left <= 0:
            return None
        tile = self.tiles[self.loose_next]
        self.loose_next -= 1
        if self.policy is DeadWallPolicy.REPLENISHED and self.dead_left < 13:
            self.live_end -= 2
        return tile

    def unused_from_end(self) -> list[int]:
        """Indices of tiles nobody has drawn, searched from the end of the dead wall backwards."""
        return [i for i in range(self.loose_next, self.live_next - 1, -1)]
