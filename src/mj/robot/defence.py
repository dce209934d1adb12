"""Defence: how likely each opponent is to be ready, and how likely each discard is to deal in.

Everything is read from the seat's view, so only what a real client knows is used.
The figures were measured on games of our robot against three original robots
(tuning seeds only), replaying the server log to know every hand at each of our
discards, and are kept as simple tables and factors:

* **readiness** of an opponent, the chance that it waits for mah-jong now: certain
  once it has declared Calling; otherwise it grows with its discards (claimed ones
  count: each is a turn played) at a rate that rises with the sets it has exposed;
  an opponent with four sets out holds a single tile and is always ready;
* **wait chance** of a tile to one ready opponent, the chance that the tile is among
  its waits. The classical rules know no furiten, but the measures leave no doubt:
  a tile discarded since that opponent's last discard, which it let pass although
  it could have gone out on it, is almost never a wait (its hand has not changed
  since; the original robot only lets a winning discard pass when it hopes to draw
  one itself), and neither, nearly, is a tile it discarded itself. Otherwise the
  chance starts from a base for a middle tile and is cut down for: terminals and
  near-terminals (fewer shapes wait on them); copies of the tile in sight (the
  waiting hand cannot hold a pair or pung of what is gone); any earlier discard of
  the kind by another player that it let pass; its own discards three ranks away
  ("suji": the two-sided wait through the tile would have gone out on them) or a
  neighbour whose copies are all in sight ("kabe": the shape cannot be held); and
  its own discards of a neighbouring rank. An honour is a wait only while two
  copies are unseen (a pair wait on a single copy is rare).

The chance that a discard deals in is then ``1 - prod(1 - readiness * wait chance)``
over the opponents (:func:`assess`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from mj.hand.counting import HONOURS_START
from mj.seatview import SeatView
from mj.tiles import NUM_KINDS, Tile, kind_index

# The float tables are typed as variable-length tuples: see mj.compiled.

#: Readiness by exposed sets (0..4): ``min(cap, max(0, start + per_discard * discards))``.
READINESS: Final[tuple[tuple[float, float, float], ...]] = (
    (-0.075, 0.025, 0.45),
    (-0.07, 0.035, 0.55),
    (0.0, 0.04, 0.5),
    (0.4, 0.025, 0.8),
    (1.0, 0.0, 1.0),
)
#: Wait chance of a middle tile (3 or 7) with three copies unseen, nothing else known.
BASE: Final = 0.18
#: Factors by rank 1..9.
RANK: Final[tuple[float, ...]] = (0.44, 0.63, 1.0, 0.87, 0.68, 0.87, 1.0, 0.63, 0.44)
#: Factors by unseen copies (0..4) of a suited tile and of an honour.
SUITED_UNSEEN: Final[tuple[float, ...]] = (0.32, 0.69, 0.78, 1.0, 1.0)
HONOUR_UNSEEN: Final[tuple[float, ...]] = (0.0, 0.03, 0.47, 0.35, 0.35)
#: Factors for a kind another player discarded earlier in the hand (let pass), suited and honour.
SUITED_PASSED: Final = 0.5
HONOUR_PASSED: Final = 0.18
#: Factor per side of a two-sided wait ruled out by suji and by kabe.
SUJI: Final = 0.8
KABE: Final = 0.89
#: Factor per own discard one or two ranks away.
NEIGHBOUR: Final = 0.82
#: Wait chance of a kind the opponent discarded itself, and of one it let pass since its last discard.
OWN_DISCARD: Final = 0.004
PASSED_SINCE: Final = 0.001


#: Every kind index, what :func:`assess` weighs by default. (The functions here take lists,
#: not any sequence: compiled by mypyc, a list is indexed and walked without calls.)
ALL_KINDS: Final = list(range(NUM_KINDS))


def _sides(k: int) -> tuple[tuple[int, int, int], ...]:
    """The two-sided waits on suited kind ``k``: (the kind three ranks away or -1, the two ranks between)."""
    rank = k % 9 + 1
    return tuple(
        (k + 3 * step if 1 <= rank + 3 * step <= 9 else -1, k + step, k + 2 * step)
        for step in (1, -1)
        if 1 <= rank + 2 * step <= 9
    )


#: By suited kind index, :func:`_sides` and the kinds one or two ranks away (in the order the factors apply).
_SIDES: Final = tuple(_sides(k) for k in range(HONOURS_START))
_NEIGHBOURS: Final = tuple(
    tuple(k + step for distance in (1, 2) for step in (distance, -distance) if 1 <= k % 9 + 1 + step <= 9)
    for k in range(HONOURS_START)
)


def readiness(view: SeatView, pid: int) -> float:
    """The chance that ``pid`` is ready (waiting for mah-jong) now."""
    player = view.player(pid)
    if player.calling:
        return 1.0
    start, per_discard, cap = READINESS[min(player.sets, 4)]
    return min(cap, max(0.0, start + per_discard * len(view.discards_of(pid))))


def wait_chances(view: SeatView, pid: int, unseen: list[int], kinds: list[int] = ALL_KINDS) -> list[float]:
    """By kind index, the chance that the kind completes ``pid``'s hand if ``pid`` is ready (of ``kinds``, else 0)."""
    own: set[int] = set()
    passed: set[int] = set()
    for record in view.timeline:
        if record.who == pid:
            own.add(kind_index(record.tile))
        elif record.claimed_by != pid:
            passed.add(kind_index(record.tile))
    since = view.passed_since_turn(pid)
    result = [0.0] * NUM_KINDS
    for k in kinds:
        if k in since:
            result[k] = PASSED_SINCE
        elif k in own:
            result[k] = OWN_DISCARD
        elif k >= HONOURS_START:
            result[k] = BASE * HONOUR_UNSEEN[unseen[k]] * (HONOUR_PASSED if k in passed else 1.0)
        else:
            result[k] = BASE * _suited_factor(k, unseen, own) * (SUITED_PASSED if k in passed else 1.0)
    return result


def _suited_factor(k: int, unseen: list[int], own: set[int]) -> float:
    """The suited tile's share of the base wait chance: rank, copies, suji, kabe, neighbours."""
    factor = RANK[k % 9] * SUITED_UNSEEN[unseen[k]]
    for beyond, near, far in _SIDES[k]:
        # The two-sided wait on ``k`` through the next two ranks also waits three away.
        if beyond in own:
            factor *= SUJI
        elif not unseen[near] or not unseen[far]:
            factor *= KABE
    for neighbour in _NEIGHBOURS[k]:
        if neighbour in own:
            factor *= NEIGHBOUR
    return factor


@dataclass(frozen=True, slots=True)
class Danger:
    """What :func:`assess` finds: the chance each discard deals in, and the most likely ready opponent."""

    #: By kind index, the chance that discarding the kind gives some opponent mah-jong.
    deal_in: list[float]
    #: The greatest readiness among the opponents.
    threat: float

    def of(self, tile: Tile) -> float:
        return self.deal_in[kind_index(tile)]

    def calm(self, power: float) -> float:
        """``(1 - threat) ** power``: how much of its win chance a hand keeps while an opponent is likely ready.

        Such an opponent will likely end the hand soon, and a hand several steps from
        ready seldom gets there first: the levels make ``power`` grow with the shanten.
        """
        return math.pow(1.0 - self.threat, power)


def assess(view: SeatView, unseen: list[int] | None = None, kinds: list[int] = ALL_KINDS) -> Danger:
    """The deal-in chance of every kind, combining each opponent's readiness and wait chances.

    ``unseen`` is the view's :meth:`~mj.seatview.SeatView.unseen_counts`, when the caller has them already;
    only ``kinds`` are weighed (a robot only needs the kinds it holds), the others are left at 0.
    """
    if unseen is None:
        unseen = view.unseen_counts()
    safe = [1.0] * NUM_KINDS
    threat = 0.0
    for pid in view.seats:
        if pid == view.my_id or pid not in view.players:
            continue
        ready = readiness(view, pid)
        threat = max(threat, ready)
        if ready <= 0.0:
            continue
        chances = wait_chances(view, pid, unseen, kinds)
        for k in kinds:
            safe[k] *= 1.0 - ready * chances[k]
    return Danger([1.0 - s for s in safe], threat)
