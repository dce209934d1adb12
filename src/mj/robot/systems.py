"""Strategies per rule system: a robot plays each table with the strategy written for its rules.

A robot is made before it knows its table's rule system (the server announces it
after the connection), so :func:`make_strategy` gives a :class:`ByRules` that asks the
seat view's rule system at each decision and hands it to that system's strategy, made
on first use. A system with a strategy of its own names it in :data:`STRATEGIES` (the
module and the factory, imported only when a table plays that system); the others,
classical among them, are played by the generic levels of :mod:`mj.robot.levels`. A
system's module may also name a test of the table (``races``) under which the generic
level plays it after all, where it was measured to play that table better.

A replaced :class:`~mj.robot.levels.Defence` (``rules``: a variant of a level) reaches
every strategy, but the rule systems' own read only its
:data:`~mj.robot.levels.SYSTEM_FIELDS` (the deal-in cost, when to weigh it, the drop per
step): :func:`own_strategy_plays` says which tables (rule system and options) those are,
and ``mj arena`` refuses a variant of the other fields there unless it is ``generic``.
"""

from __future__ import annotations

import importlib
from typing import Final, Protocol

from mj.robot import levels
from mj.robot.personality import Personality
from mj.robot.strategy import Claim, Declaration, KongMove, Strategy
from mj.seatview import SeatView
from mj.tiles import Tile

#: Rule system name -> (module, factory taking level, personality, seed and Defence, and the name of
#: the module's test of a view saying the generic level plays that table, or "") of its own strategy.
STRATEGIES: Final = {
    "ims": ("mj.robot.ims", "make_ims_strategy", "races"),
    "beijing": ("mj.robot.beijing", "make_beijing_strategy", ""),
}


def plays_own_strategy(rules: str, generic: bool = False) -> bool:
    """Whether a robot plays tables of rule system ``rules`` with that system's own strategy, not a generic level
    (at every table of the system but those its test of the table, ``races``, hands to the generic level)."""
    return not generic and rules in STRATEGIES


def own_strategy_plays(view: SeatView, generic: bool = False) -> bool:
    """Whether a robot plays the table ``view`` sees (its rule system and options) with that system's own strategy:
    :func:`plays_own_strategy`, unless the system's test of the table hands it to the generic level."""
    if not plays_own_strategy(view.rules.name, generic):
        return False
    races = _races_of(view.rules.name)
    return races is None or not races(view)


class _Races(Protocol):
    def __call__(self, view: SeatView) -> bool: ...


def _races_of(name: str) -> _Races | None:
    """The test of a table under which the generic level plays system ``name`` after all (None: never)."""
    module_name, _factory, races_name = STRATEGIES[name]
    races: _Races | None = getattr(importlib.import_module(module_name), races_name) if races_name else None
    return races


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
        self._made: dict[str, tuple[Strategy, _Races | None]] = {}
        self._name = ""
        self._own: Strategy | None = None
        self._races: _Races | None = None

    def _for(self, view: SeatView) -> Strategy:
        name = view.rules.name
        if name != self._name:  # the first decision of a table
            own: tuple[Strategy | None, _Races | None] = (None, None)
            if plays_own_strategy(name, self._only_generic):
                own = self._made.get(name) or self._make(name)
            self._name = name
            self._own, self._races = own
        if self._own is None or (self._races is not None and self._races(view)):
            return self.generic
        return self._own

    def _make(self, name: str) -> tuple[Strategy, _Races | None]:
        module_name, factory_name, _ = STRATEGIES[name]
        factory: _Factory = getattr(importlib.import_module(module_name), factory_name)
        made = self._made[name] = (factory(self.level, self.personality, self.seed, self.rules), _races_of(name))
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
