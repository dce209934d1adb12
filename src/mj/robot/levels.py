"""Robot strategies by level of play, and :func:`make_strategy` to pick one by number.

Level 1 plays for speed, as a beginner taught "get ready as fast as you can" would:

* discard the tile leaving the least shanten, then the most useful unseen tiles
  (ukeire); among equal shapes keep scoring honours, follow the personality's
  majorness and suitness, avoid feeding an opponent's exposed threat (the
  discards that make one pay for everybody, protocol.md §9.8), and prefer tiles
  already discarded (fewer left for others);
* claim a pung or chow only when it lowers the shanten, a kong when it does not
  raise it, mah-jong whenever it is legal; rob a kong whenever possible;
* declare flowers and seasons at once, concealed kongs and additions to pungs when
  they do not set the hand back, and go out as soon as the hand is complete;
* declare the winning hand in its best-scoring legal reading
  (:mod:`mj.robot.declare`).

Of the personality (:mod:`mj.robot.personality`) level 1 reads the first value of
each list: ``chowness`` -1 never chows and below 0 chows only to get ready;
``hiddenness`` 1 claims only to go out and above 0 claims sets only to get ready;
``majorness`` and ``suitness`` weigh in among equally good discards. It never
switches between combinations, so ``hysteresis`` has no effect yet.

Level 2 (:class:`LevelTwo`) adds defence (:mod:`mj.robot.defence`): the safer of
nearly equal shapes, and folding (discarding the safest tile) when an opponent is
very likely ready and the hand is far from ready; level 3 folds sooner. Measured by
``scripts/tournament.py --seeds 1-40`` (160 games, all four seats), neither beats
level 1 on final score yet (the classical settlement makes a deal-in cost no more
than any other loss unless DiscDoubles is on), so level 1 stays the default.

It keeps no memory between decisions beyond a seeded random generator used only
to break exact ties, so the same views and seed always give the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mj import hand, tiles
from mj.melds import KongOrigin
from mj.robot import declare, defence, evaluate, moves
from mj.robot.personality import Personality
from mj.robot.strategy import Claim, ClaimKind, Declaration, KongKind, KongMove, Strategy
from mj.robot.view import Phase, SeatView
from mj.rules.classical import danger
from mj.tiles import Tile, kind_index

#: Levels accepted by ``mj-player --level``.
LEVELS: Final = (1, 2, 3)
#: The level ``mj-player`` plays without ``--level``: the strongest measured to beat the original.
DEFAULT_LEVEL: Final = 1


class LevelOne:
    """The speed-first strategy described in the module documentation."""

    def __init__(self, personality: Personality | None = None, seed: int = 0) -> None:
        self.personality = personality or Personality()
        self._rng = random.Random(seed)

    # -- own turn

    def declare_special(self, view: SeatView) -> Tile | None:
        if view.phase is Phase.PLAYING and view.after_claim:
            return None
        held = moves.specials_held(view)
        return held[0] if held else None

    def mahjong_now(self, view: SeatView) -> bool:
        return moves.can_go_out(view)

    def kong(self, view: SeatView) -> KongMove | None:
        vector = hand.counts(moves.ordinary(view))
        sets = view.declared_sets
        now = evaluate.best_shanten_after_discard(vector, sets, view.seven_pairs)
        for tile in moves.closed_kongs(view):
            if evaluate.shanten(evaluate.without(vector, *(tile,) * 4), sets + 1, False) <= now:
                return KongMove(KongKind.CLOSED, tile)
        for tile in moves.pung_additions(view):
            if evaluate.shanten(evaluate.without(vector, tile), sets, view.seven_pairs) <= now:
                return KongMove(KongKind.ADD_TO_PUNG, tile)
        return None

    def discard(self, view: SeatView) -> tuple[Tile, bool]:
        vector = hand.counts(moves.ordinary(view))
        options = evaluate.discard_options(vector, view.declared_sets, view.seven_pairs, view.unseen_counts())
        if not options:
            raise ValueError("nothing to discard")
        return self._choose(view, vector, options), False

    def _choose(self, view: SeatView, vector: list[int], options: list[evaluate.DiscardOption]) -> Tile:
        """The best of ``options`` on shape, then safety, value and the discards seen."""
        threat = self._threat(view)
        keep = self._keep_value(view, vector)
        discarded = view.discarded_counts()

        def key(option: evaluate.DiscardOption) -> tuple[int, int, float, float, int]:
            tile = option.tile
            return (option.shanten, -option.ukeire, threat(tile), keep(tile), -discarded[kind_index(tile)])

        best = min(key(o) for o in options)
        return self._rng.choice([o.tile for o in options if key(o) == best])

    # -- other players' tiles

    def claim(self, view: SeatView, tile: Tile, serial: int) -> Claim | None:
        if moves.can_go_out(view, tile):
            return Claim(ClaimKind.MAHJONG)
        hiddenness = self.personality.hiddenness[0]
        if hiddenness >= 1:
            return None
        vector = hand.counts(moves.ordinary(view))
        sets = view.declared_sets
        seven = view.seven_pairs
        now = evaluate.shanten(vector, sets, seven)
        if moves.held(view, tile) >= 3:
            after_kong = evaluate.shanten(evaluate.without(vector, tile, tile, tile), sets + 1, False)
            if after_kong <= now:
                return Claim(ClaimKind.KONG)
        # A personality that dislikes exposing sets only claims to get ready.
        needed = now - 1 if hiddenness == 0 else min(now - 1, 0)
        choices: list[tuple[int, int, Claim]] = []
        if moves.held(view, tile) >= 2:
            after = evaluate.best_shanten_after_discard(evaluate.without(vector, tile, tile), sets + 1, False)
            choices.append((after, 0, Claim(ClaimKind.PUNG)))
        chowness = self.personality.chowness[0]
        pending = view.pending
        if chowness > -1 and pending is not None and view.left_of(pending.who):
            for position in moves.chow_positions(view, tile):
                others = moves.chow_partners(tile, position)
                after = evaluate.best_shanten_after_discard(evaluate.without(vector, *others), sets + 1, False)
                if chowness < 0 and after > 0:
                    continue  # a reluctant chower only chows to get ready
                choices.append((after, 1, Claim(ClaimKind.CHOW, position)))
        good = [c for c in choices if c[0] <= needed]
        return min(good, key=lambda c: (c[0], c[1]))[2] if good else None

    def rob_kong(self, view: SeatView, tile: Tile, serial: int) -> bool:
        pending = view.pending
        concealed = pending is not None and pending.kong is KongOrigin.CONCEALED
        return moves.can_rob(view, tile, concealed)

    # -- after a mah-jong

    def winning_plans(self, view: SeatView) -> list[list[Declaration]]:
        return declare.winning_plans(view)

    def losing_plan(self, view: SeatView) -> list[Declaration]:
        return declare.losing_plan(view)

    # -- helpers

    def _threat(self, view: SeatView) -> Callable[[Tile], int]:
        """How many opponents a discard of each tile would be dangerous to (§9.8)."""
        shown = [
            danger.signals(view.player(pid).melds) for pid in view.seats if pid != view.my_id and pid in view.players
        ]
        discarded = view.discarded_counts()
        live = view.live_tiles

        def threat(tile: Tile) -> int:
            count = sum(1 for signals in shown if danger.threatens(tile, signals))
            if danger.end_of_wall(live, discarded[kind_index(tile)] + 1):
                count += 1
            return count

        return threat

    def _keep_value(self, view: SeatView, vector: list[int]) -> Callable[[Tile], float]:
        """How much a tile is worth keeping when shapes are equal: higher is kept longer."""
        majorness = self.personality.majorness[0]
        suitness = self.personality.suitness[0]
        suited = [sum(vector[s : s + 9]) for s in (0, 9, 18)]
        total_suited = sum(suited) or 1
        valuable = {*tiles.DRAGONS, view.own_wind, view.prevailing}

        def keep(tile: Tile) -> float:
            value = 0.0
            if tiles.is_honour(tile):
                value += 0.5 if tile in valuable else 0.0
            elif not tiles.is_terminal(tile):
                value += 0.25
            if tiles.is_major(tile):
                value += majorness
            if tiles.is_suited(tile):
                value += suitness * suited[tiles.SUITS.index(tiles.suit(tile))] / total_suited
            return value

        return keep


@dataclass(frozen=True, slots=True)
class Defence:
    """When a defending level folds, and how much shape it gives up for safety otherwise."""

    #: Fold (discard the safest tile) when an opponent is at least this likely ready
    #: and the hand is two or more tiles from ready...
    fold_far: float = 0.5
    #: ... or at least this likely ready and the hand is one tile from ready.
    fold_near: float = 1.1
    #: Otherwise, among the discards of the best shanten, those keeping at least this
    #: share of the best ukeire may be chosen for being safer.
    slack: float = 0.8
    #: ... once some opponent is at least this likely ready.
    careful: float = 0.3


class LevelTwo(LevelOne):
    """Level 1 with defence (:mod:`mj.robot.defence`).

    Every discard is weighed by its risk: the summed chance, over opponents, that it is
    the tile an opponent waits for, with the §9.8 signals counting double. When an
    opponent is likely ready and the hand is far from ready, it folds: it discards the
    safest tile, breaking its hand if need be. Otherwise it plays for shape as level 1
    does, but gives up a little of the useful unseen tiles for a safer discard once an
    opponent may be ready, and prefers the safer of equally good shapes always.
    """

    def __init__(self, personality: Personality | None = None, seed: int = 0, rules: Defence | None = None) -> None:
        super().__init__(personality, seed)
        self.rules = rules or Defence()

    def _choose(self, view: SeatView, vector: list[int], options: list[evaluate.DiscardOption]) -> Tile:
        threat_of = self._threat(view)
        keep = self._keep_value(view, vector)
        discarded = view.discarded_counts()
        risk, threat = defence.risk_function(view)
        rules = self.rules
        best = min(o.shanten for o in options)
        fold = (best >= 2 and threat >= rules.fold_far) or (best == 1 and threat >= rules.fold_near)

        def tail(tile: Tile) -> tuple[int, float, int]:
            return (threat_of(tile), keep(tile), -discarded[kind_index(tile)])

        if fold:

            def key(o: evaluate.DiscardOption) -> tuple[float, ...]:
                return (round(risk(o.tile), 3), o.shanten, -o.ukeire, *tail(o.tile))
        else:
            top = max(o.ukeire for o in options if o.shanten == best)
            floor = rules.slack * top if threat >= rules.careful else top

            def key(o: evaluate.DiscardOption) -> tuple[float, ...]:
                good = o.shanten == best and o.ukeire >= floor
                return (not good, o.shanten, round(risk(o.tile), 3), -o.ukeire, *tail(o.tile))

        least = min(key(o) for o in options)
        return self._rng.choice([o.tile for o in options if key(o) == least])


def make_strategy(level: int, personality: Personality | None = None, seed: int = 0) -> Strategy:
    """The strategy of ``level``: 1 plays for speed only, 2 adds defence, 3 defends harder."""
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level} (choose from {', '.join(map(str, LEVELS))})")
    if level == 1:
        return LevelOne(personality, seed)
    if level == 2:
        return LevelTwo(personality, seed, Defence(fold_far=0.85, fold_near=1.1, slack=0.9, careful=0.5))
    return LevelTwo(personality, seed, Defence(fold_far=0.4, fold_near=0.85, slack=0.7, careful=0.2))
