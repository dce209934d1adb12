"""Defence: how likely each opponent is to be ready, and how dangerous each discard is.

Everything is read from the seat's view, so only what a real client knows is used:

* **readiness** of an opponent, a rough probability that it waits for mah-jong now:
  certain once it has declared Calling; otherwise it grows with the sets it has
  exposed (a player with four sets out holds a single tile) and with the turns it
  has played (its discards), and near the end of the wall;
* **danger** of a tile to one opponent, given that opponent is ready: tiles it has
  discarded itself are unlikely waits (the classical rules know no furiten, but a
  player rarely throws what it wants); an honour is only a wait while copies of it
  are unseen (a pair wait needs two in that hand); a suited tile is less likely the
  further it is from the middle, and less likely when the two-sided waits through it
  are ruled out by that opponent's discards three steps away ("suji") or by all
  copies of a neighbour being in sight ("kabe"); a player whose exposed sets are all
  of one suit wants that suit and not the others; and a tile matching one of the
  §9.8 signals of its exposed sets is worth double, for feeding it makes the
  discarder liable for the whole hand (protocol.md §9.8, "letting off a cannon").

The risk of a discard is the sum over opponents of readiness times danger.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from mj import tiles
from mj.robot.view import SeatView
from mj.rules.classical import danger as signals_of
from mj.tiles import BLANK, NUM_KINDS, Tile, kind_index

#: Readiness by number of exposed sets (0..4).
BY_SETS: Final = (0.0, 0.1, 0.3, 0.6, 0.9)
#: Discards after which a concealed hand starts to be ready, and the rise per discard.
TURNS_FREE: Final = 5
PER_TURN: Final = 0.04
TURNS_CAP: Final = 0.5
#: Danger left on a tile the opponent has discarded itself.
OWN_DISCARD: Final = 0.2
#: Danger of an honour by copies unseen (0..4).
HONOUR: Final = (0.0, 0.35, 0.8, 1.0, 1.0)
#: Danger of a suited tile by rank (1..9), before suji and kabe.
RANK: Final = (0.5, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.5)
#: Share of a suited tile's danger that comes from two-sided waits.
TWO_SIDED: Final = 0.6


def readiness(view: SeatView, pid: int) -> float:
    """A rough probability that ``pid`` is ready (waiting for mah-jong) now."""
    player = view.player(pid)
    if player.calling:
        return 1.0
    by_sets = BY_SETS[min(player.sets, 4)]
    turns = len(player.discards) + player.sets
    by_turns = min(TURNS_CAP, max(0.0, (turns - TURNS_FREE) * PER_TURN))
    return 1.0 - (1.0 - by_sets) * (1.0 - by_turns)


def tile_danger(view: SeatView, pid: int, unseen: Sequence[int]) -> list[float]:
    """Danger of discarding each tile kind to ``pid`` if ``pid`` is ready, by kind index."""
    player = view.player(pid)
    own = {kind_index(t) for t in player.discards}
    shown = signals_of.signals(player.melds)
    suits = {tiles.suit(m.tile) for m in player.melds if m.tile != BLANK and tiles.is_suited(m.tile)}
    one_suit = next(iter(suits)) if len(suits) == 1 and player.sets >= 2 else None
    result = [0.0] * NUM_KINDS
    for k in range(NUM_KINDS):
        tile = tiles.KINDS[k]
        if tiles.is_honour(tile):
            value = HONOUR[min(unseen[k], 4)]
        else:
            rank = tiles.rank(tile)
            sides = 0
            open_sides = 0
            # A two-sided wait on ``tile`` through (rank+1, rank+2) also waits on rank+3,
            # through (rank-2, rank-1) also on rank-3.
            for step in (1, -1):
                if not 1 <= rank + 2 * step <= 9:
                    continue
                sides += 1
                if unseen[k + step] == 0 or unseen[k + 2 * step] == 0:
                    continue  # kabe: that shape cannot be held
                partner = rank + 3 * step
                if 1 <= partner <= 9 and (k + 3 * step) in own:
                    continue  # suji
                open_sides += 1
            two_sided = open_sides / sides if sides else 0.0
            value = RANK[rank - 1] * (1.0 - TWO_SIDED + TWO_SIDED * two_sided)
            if one_suit is not None:
                value *= 1.5 if tiles.suit(tile) == one_suit else 0.3
        if k in own:
            value *= OWN_DISCARD
        if signals_of.threatens(tile, shown):
            value = 2.0 * max(value, 0.5)
        result[k] = value
    return result


def risk_function(view: SeatView) -> tuple[Callable[[Tile], float], float]:
    """The risk of each discard (summed over opponents), and the greatest readiness among them."""
    unseen = view.unseen_counts()
    total = [0.0] * NUM_KINDS
    threat = 0.0
    for pid in view.seats:
        if pid == view.my_id or pid not in view.players:
            continue
        ready = readiness(view, pid)
        threat = max(threat, ready)
        if ready <= 0.0:
            continue
        for k, value in enumerate(tile_danger(view, pid, unseen)):
            total[k] += ready * value

    def risk(tile: Tile) -> float:
        return total[kind_index(tile)]

    return risk, threat
