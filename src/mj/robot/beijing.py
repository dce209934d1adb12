"""How the robot plays the Beijing rules: it keeps its wilds, keeps its hand closed, and defends.

The generic levels know nothing of wild tiles: they read a wild at its face value
and throw it when it fits no set, which costs the hand its right to win (a player who
discards a wild never wins that hand). And under Beijing an open set costs twice: the
Closed double, and every win but one on the player's own tile. So this strategy:

* never discards a wild while it holds another tile (``view.wild``, named by the rule
  system from the indicator);
* measures the hand with the wild-aware shanten (:func:`mj.hand.wild.shanten`: each
  wild advances the hand by one tile), and counts the useful unseen tiles the same way;
* keeps the hand closed: it claims a chow or pung only when the set makes the hand
  ready and the wall still holds enough tiles to draw its own winning tile, or when the
  hand is open already; it wins on a discard whenever the rules allow (three players pay);
* levels 2 and 3 defend as the generic levels do (:mod:`mj.robot.defence`): each
  discard's chance to deal in against the hand's chance to win, with the cost, quiet and
  drop of the level's :class:`~mj.robot.levels.Defence`;
* the levels count the useful tiles as the generic levels do (:data:`mj.robot.levels.SLIP`:
  level 1 never, level 2 in half of its hands, level 3 always).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from mj.hand import wild as wild_hand
from mj.hand.counting import HONOURS_START
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.robot import defence, evaluate
from mj.robot.levels import SLIP, Defence, LevelTwo, system_defence
from mj.robot.personality import Personality
from mj.robot.strategy import Claim, ClaimKind, Strategy
from mj.seatview import SeatView, chow_partners
from mj.tiles import KINDS, NUM_KINDS, Tile, kind_index

#: An open hand wins only on its own tile: a set is claimed to get ready only while the live
#: wall holds at least this many tiles (about four draws of one's own).
OPEN_READY_WALL: Final = 16


def wild_kind(view: SeatView) -> int:
    """The kind index of this hand's wild tile, or -1 before the indicator is turned up."""
    wild = view.wild
    return kind_index(wild) if wild is not None else -1


def _near(vector: Sequence[int], wild: int) -> list[int]:
    """The kinds a draw of which may help: neighbours of held suit tiles, held honours, the wild."""
    found = set()
    for k in range(NUM_KINDS):
        if not vector[k] or k == wild:
            continue
        if k >= HONOURS_START:
            found.add(k)
            continue
        low = k - k % 9
        found.update(j for j in range(max(low, k - 2), min(low + 8, k + 2) + 1))
    if wild >= 0:
        found.add(wild)
    return sorted(found)


class BeijingStrategy(LevelTwo):
    """The Beijing play described in the module documentation."""

    def __init__(
        self, level: int, personality: Personality | None = None, seed: int = 0, rules: Defence | None = None
    ) -> None:
        super().__init__(personality, seed, system_defence(level, rules), SLIP[level])

    # -- discards

    def _choose(self, view: SeatView, vector: list[int], unseen: list[int]) -> Tile:
        wild = wild_kind(view)
        sets = view.declared_sets
        seven = not view.melds
        held = [k for k in range(NUM_KINDS) if vector[k] and k != wild] or [wild]
        options: list[tuple[int, int, int]] = []  # (shanten, -ukeire, kind)
        after = {k: self._shanten(vector, k, wild, sets, seven) for k in held}
        best = min(after.values())
        for k in held:
            counted = after[k] == best and not self._blind  # a slip: only the shanten counts
            ukeire = self._ukeire(vector, k, wild, sets, seven, unseen, after[k]) if counted else 0
            options.append((after[k], -ukeire, k))
        options.sort()
        if self.rules.cost > 0.0:
            danger = defence.assess(view, unseen, held)
            if max(danger.deal_in[k] for k in held) >= self.rules.quiet:
                return KINDS[self._defend(view, options, danger)]
        top = options[0][:2]
        return self._rng.choice([KINDS[k] for s, u, k in options if (s, u) == top])

    def _defend(self, view: SeatView, options: list[tuple[int, int, int]], danger: defence.Danger) -> int:
        """The discard worth most once its chance to deal in is weighed (as the generic level 2 weighs it)."""
        push_shanten, push_ukeire, push_kind = options[0]
        base = evaluate.win_chance(push_shanten, -push_ukeire, view.live_tiles)
        best_kind, best_worth = push_kind, -math.inf
        for shanten, ukeire, kind in options:
            if shanten > push_shanten:
                chance = base * self.rules.drop ** (shanten - push_shanten)
            else:
                chance = base * ukeire / push_ukeire if push_ukeire else base
            risk = danger.of(KINDS[kind])
            worth = (1.0 - risk) * chance - risk * self.rules.cost
            if worth > best_worth + 1e-9:
                best_kind, best_worth = kind, worth
        return best_kind

    @staticmethod
    def _shanten(vector: list[int], discard: int, wild: int, sets: int, seven: bool) -> int:
        vector[discard] -= 1
        try:
            return wild_hand.shanten(vector, wild, sets, seven)
        finally:
            vector[discard] += 1

    @staticmethod
    def _ukeire(vector: list[int], discard: int, wild: int, sets: int, seven: bool, unseen: list[int], now: int) -> int:
        """The unseen tiles that bring the hand left by ``discard`` nearer (a wild always does)."""
        vector[discard] -= 1
        try:
            near = [k for k in _near(vector, wild) if unseen[k] and k != discard]
            draws = [k for k in near if k != wild]
            after = wild_hand.shanten_after_draws(vector, wild, sets, seven, draws)
        finally:
            vector[discard] += 1
        count = unseen[wild] if wild in near else 0
        for k, shanten in zip(draws, after, strict=True):
            if shanten < now:
                count += unseen[k]
        return count

    # -- other players' tiles

    def claim(self, view: SeatView, tile: Tile, serial: int) -> Claim | None:
        legal = view.legal_moves()
        kinds = set(map(type, legal))
        if P.MahJong in kinds:
            return Claim(ClaimKind.MAHJONG)
        if P.Pung not in kinds and P.Chow not in kinds:
            return None
        open_already = any(not m.concealed for m in view.melds)
        if not open_already and view.live_tiles < OPEN_READY_WALL:
            return None
        wild = wild_kind(view)
        vector = view.hand_counts()
        sets = view.declared_sets
        bids: list[tuple[Claim, tuple[Tile, ...]]] = []
        if P.Pung in kinds:
            bids.append((Claim(ClaimKind.PUNG), (tile, tile)))
        for move in legal:
            if type(move) is P.Chow and move.cpos is not ChowPosition.ANYPOS:
                bids.append((Claim(ClaimKind.CHOW, move.cpos), chow_partners(tile, move.cpos)))
        now = wild_hand.shanten(vector, wild, sets, not view.melds)
        for bid, partners in bids:
            rest = evaluate.without(vector, *partners)
            discards = [k for k in range(NUM_KINDS) if rest[k] and k != wild]
            if not discards:
                continue
            after = min(self._shanten(rest, k, wild, sets + 1, False) for k in discards)
            # A closed hand opens only to get ready; an open one claims whatever brings it nearer.
            if (after < now) if open_already else (after == 0):
                return bid
        return None


def make_beijing_strategy(
    level: int, personality: Personality | None = None, seed: int = 0, rules: Defence | None = None
) -> Strategy:
    """The Beijing strategy of ``level`` (1: no defence, useful tiles not counted; 2, 3: see
    :data:`mj.robot.levels.SLIP`), or a variant of its Defence (``rules``)."""
    return BeijingStrategy(level, personality, seed, rules)
