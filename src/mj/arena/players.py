"""Player specifications: which robot sits at an arena table, written as one command-line word.

A specification is ``KEY=VALUE`` pairs separated by commas, e.g.
``level=2,chowness=0.5,hiddenness=0.2``. The keys are ``level`` (1, 2 or 3, as
``mj-player --level``), the strategy options of ``mj-player`` (``chowness``,
``hiddenness``, ``majorness``, ``suitness``, ``hysteresis``, with the same ranges),
``generic`` (``generic=1``: the generic levels even where the rule system has a
strategy of its own, :mod:`mj.robot.systems`, to measure what that strategy adds),
``name`` (the player's label in reports), and the fields of the level's
:class:`~mj.robot.levels.Defence` (``level=3,cost=1,hurry=0``: a variant of levels 2
and 3, read as ``scripts/tournament.py --set`` reads them). Where a rule system's own
strategy plays the table (``ims`` and ``beijing`` have one; the system may hand tables of
some options to the generic level) that strategy reads only the Defence's ``cost``,
``quiet`` and ``drop``, so there a variant of another field is refused
(:func:`check_rules`) unless it is ``generic=1``. A word without ``=`` continues the
list of the option before it, so the lists ``mj-player`` takes are written as it
takes them: ``chowness=0,-0.9,0.5,level=2``. ``default`` (or an empty word) is the
default robot. Anything else is an error that names the player's word and what
is wrong with it, found before any game starts.

The checks are ``mj-player``'s own (:func:`~mj.robot.personality.parse_personality`
and :func:`~mj.robot.levels.make_strategy`), so the arena accepts exactly what the
robot program accepts; the Defence fields are read by :func:`~mj.robot.levels.defence_with`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Final

from mj.protocol import cmsg as C
from mj.robot.levels import DEFAULT_LEVEL, DEFENCE_FIELDS, SYSTEM_FIELDS, Defence, defence_of, defence_with
from mj.robot.personality import Personality, PersonalityError, parse_personality
from mj.robot.strategy import Strategy
from mj.robot.systems import make_strategy, own_strategy_plays
from mj.rules import registry
from mj.rules.options import OptionEntry
from mj.seatview import SeatView

#: The strategy options whose value is a list, as ``mj-player`` takes them.
LIST_KEYS: Final = ("chowness", "hiddenness", "majorness", "suitness")
KEYS: Final = ("level", *LIST_KEYS, "hysteresis", "generic", "name", *DEFENCE_FIELDS)
DEFAULT_WORD: Final = "default"


class SpecError(ValueError):
    """A player specification, game option or option file the arena cannot use; the message says why."""


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """One robot: its level, its strategy options and a label; ``str()`` gives its specification back.

    ``defence`` replaces the level's own :class:`~mj.robot.levels.Defence` (None: the
    level as it is, also when the fields given equal its own, so that equal robots compare equal).
    """

    level: int = DEFAULT_LEVEL
    personality: Personality = field(default_factory=Personality)
    name: str = ""
    generic: bool = False
    defence: Defence | None = None

    def strategy(self, seed: int) -> Strategy:
        """A fresh strategy of this robot, breaking ties with ``seed``."""
        return make_strategy(self.level, self.personality, seed, self.generic, self.defence)

    def changed_fields(self) -> dict[str, float | bool]:
        """The fields of ``defence`` that differ from the level's own, in the Defence's order."""
        if self.defence is None:
            return {}
        own = defence_of(self.level)
        return {
            name: getattr(self.defence, name)
            for name in DEFENCE_FIELDS
            if getattr(self.defence, name) != getattr(own, name)
        }

    def __str__(self) -> str:
        words = [f"level={self.level}"]
        default = Personality()
        for option in fields(Personality):
            value = getattr(self.personality, option.name)
            if value != getattr(default, option.name):
                values = value if isinstance(value, tuple) else (value,)
                words.append(f"{option.name}={','.join(_number(v) for v in values)}")
        for name, value in self.changed_fields().items():
            words.append(f"{name}={int(value) if isinstance(value, bool) else _number(value)}")
        if self.generic:
            words.append("generic=1")
        if self.name:
            words.append(f"name={self.name}")
        return ",".join(words)


def _number(value: float) -> str:
    """A value as short as it reads back exactly: ``0.5``, ``-1``."""
    return repr(value).removesuffix(".0")


def parse_player(text: str) -> PlayerSpec:
    """The robot a specification describes; :class:`SpecError` says what is wrong with it."""
    if text.strip() in ("", DEFAULT_WORD):
        return PlayerSpec()
    given: dict[str, list[str]] = {}
    current = ""
    for word in (w.strip() for w in text.split(",")):
        key, equals, value = word.partition("=")
        key = key.strip()
        if not equals:
            if current not in LIST_KEYS:
                raise SpecError(f"expected KEY=VALUE, got {word!r}")
            given[current].append(word)
            continue
        if key not in KEYS:
            raise SpecError(f"unknown key {key!r} (known: {', '.join(KEYS)})")
        if key in given:
            raise SpecError(f"{key} given twice")
        given[key] = [value.strip()]
        current = key
    if given.get("name") == [""]:
        raise SpecError("name must not be empty")
    name = given.pop("name", [""])[0]
    level = _level(given.pop("level", [str(DEFAULT_LEVEL)])[0])
    generic = _generic(given.pop("generic", ["0"])[0])
    changes = {key: given.pop(key)[0] for key in DEFENCE_FIELDS if key in given}
    try:
        personality = parse_personality(**{key: ",".join(values) for key, values in given.items()})
        make_strategy(level, personality)
        defence = defence_with(level, changes) if changes else None
    except PersonalityError as exc:
        raise SpecError(str(exc).removeprefix("--")) from None
    except ValueError as exc:
        raise SpecError(str(exc)) from None
    if defence is not None and defence == defence_of(level):
        defence = None
    return PlayerSpec(level, personality, name, generic, defence)


def check_rules(spec: PlayerSpec, rules: str, options: Sequence[OptionEntry] = ()) -> None:
    """Refuse a variant of a level (Defence fields) at tables of ``rules`` and ``options`` that it would not play
    differently at: those the rule system's own strategy plays (:func:`~mj.robot.systems.own_strategy_plays`)."""
    unread = [name for name in spec.changed_fields() if name not in SYSTEM_FIELDS]
    if unread and own_strategy_plays(_table_view(rules, options), spec.generic):
        raise SpecError(
            f"{', '.join(unread)}: the {rules} rules' own strategy plays these options and reads only"
            f" {', '.join(SYSTEM_FIELDS)} of the Defence (generic=1 plays the generic level, which reads them all)"
        )


def _table_view(rules: str, options: Sequence[OptionEntry]) -> SeatView:
    """What a robot knows of an arena table before its first move: the rule system, and the options as the
    server reports them."""
    view = SeatView(rules=registry.get(rules))
    for entry in options:
        view.apply(C.GameOption(0, entry))
    return view


def _generic(text: str) -> bool:
    if text not in ("0", "1"):
        raise SpecError(f"generic: {text!r} is not 0 or 1")
    return text == "1"


def _level(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SpecError(f"level: {text!r} is not a number") from None
