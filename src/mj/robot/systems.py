"""Strategies per rule system: a robot plays each table with the strategy written for its rules.

A robot is made before it knows its table's rule system (the server announces it
after the connection), so :func:`make_strategy` gives a :class:`ByRules` that asks the
seat view's rule system at each decision and hands it to that system's strategy, made
on first use. A system with a strategy of its own names it in :data:`STRATEGIES` (the
module and the factory, imported only when a table plays that system); the others,
classical among them, are played by the generic levels of :mod:`mj.robot.levels`.

A replaced :class:`~mj.robot.levels.Defence` (``rules``: a variant of a level) reaches
every strategy, but the rule systems' own read only its
:data:`~mj.robot.levels.SYSTEM_FIELDS` (the deal-in cost, when to weigh it, the drop per
step): :func:`plays_own_strategy` says which tables those are, and ``mj arena`` refuses a
variant of the other fields there unless it is ``generic``.
"""

from __future__ import annotations

import importlib
from typing import Final, Protocol

from mj.robot import levels
from mj.robot.personality import Personality
from mj.robot.strategy import Claim, Declaration, KongMove, Strategy
from mj.seatview import SeatView
from mj.tiles import Tile

#: Rule system name -> (module, factory taking level, personality and seed) of its own strategy.
STRATEGIES: Final = {
    "ims": ("mj.robot.ims", "make_ims_strategy"),
    "beijing": ("mj.robot.beijing", "make_beijing_strategy"),
}


def plays_own_strategy(rules: str, generic: bool = False) -> bool:
    """Whether a robot plays the table of rule system ``rules`` with that system's own strategy, not a generic level."""
    return not generic and rules in STRATEGIES


class _Factory(Protocol):
    def __call__(
        self, level: int, personality: Personality | None = None, seed: int = 0, rules: levels.Defence | None = None
    ) -> Strategy: ...


class ByRules:
    """A :class:`~mj.robot.strategy.Strategy` handing each decision to the strategy of the view's rule system.

    ``generic`` keeps the generic levels for every system (the robot as it played
    before the systems had strategies of their own: what the arena measures them against).
    """

    def __init__(
        self,
        level: int,
        personality: Personality | None = None,
        seed: int = 0,
        generic: bool = False,
        rules: levels.Defence | None = None,
    ):
        self.level = level
        self.personality = personality
        self.seed = seed
        self.rules = rules
        self.generic = levels.make_strategy(level, personality, seed, rules)
        self._only_generic = generic
        self._made: dict[str, Strategy] = {}
        self._name = ""
        self._current: Strategy = self.generic

    def _for(self, view: SeatView) -> Strategy:
        name = view.rules.name
        if name == self._name:
            return self._current  # every decision but the first of a table
        current = self.generic
        if plays_own_strategy(name, self._only_generic):
            current = self._made.get(name) or self._make(name)
        self._name, self._current = name, current
        return current

    def _make(self, name: str) -> Strategy:
        module, attribute = STRATEGIES[name]
        factory: _Factory = getattr(importlib.import_module(module), attribute)
        made = self._made[name] = factory(self.level, self.personality, self.seed, self.rules)
        return made

    def declare_special(self, view: SeatView) -> Tile | None:
        return self._for(view).declare_special(view)

    def mahjong_now(self, view: SeatView) -> bool:
        return self._for(view).mahjong_now(view)

    def kong(self, view: SeatView) -> KongMove | None:
        return self._for(view).kong(view)

    def discard(self, view: SeatView) -> tuple[Tile, bool]:
        return self._for(view).discard(view)

    def claim(self, view: SeatView, tile: Tile, serial: int) -> Claim | None:
        return self._for(view).claim(view, tile, serial)

    def rob_kong(self, view: SeatView, tile: Tile, serial: int) -> bool:
        return self._for(view).rob_kong(view, tile, serial)

    def winning_plans(self, view: SeatView) -> list[list[Declaration]]:
        return self._for(view).winning_plans(view)

    def losing_plan(self, view: SeatView) -> list[Declaration]:
        return self._for(view).losing_plan(view)


def make_strategy(
    level: int,
    personality: Personality | None = None,
    seed: int = 0,
    generic: bool = False,
    rules: levels.Defence | None = None,
) -> Strategy:
    """The robot of ``level`` for any rule system (:class:`ByRules`); unknown levels are a ValueError.

    ``rules`` replaces the level's :class:`~mj.robot.levels.Defence`; at the tables a strategy
    of their own plays (:func:`plays_own_strategy`) only its :data:`~mj.robot.levels.SYSTEM_FIELDS` count.
    """
    return ByRules(level, personality, seed, generic, rules)
