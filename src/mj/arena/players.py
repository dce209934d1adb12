"""Player specifications: which robot sits at an arena table, written as one command-line word.

A specification is ``KEY=VALUE`` pairs separated by commas, e.g.
``level=2,chowness=0.5,hiddenness=0.2``. The keys are ``level`` (1, 2 or 3, as
``mj-player --level``), the strategy options of ``mj-player`` (``chowness``,
``hiddenness``, ``majorness``, ``suitness``, ``hysteresis``, with the same ranges),
``generic`` (``generic=1``: the generic levels even where the rule system has a
strategy of its own, :mod:`mj.robot.systems`, to measure what that strategy adds)
and ``name`` (the player's label in reports). A word without ``=`` continues the
list of the option before it, so the lists ``mj-player`` takes are written as it
takes them: ``chowness=0,-0.9,0.5,level=2``. ``default`` (or an empty word) is the
default robot. Anything else is an error that names the player's word and what
is wrong with it, found before any game starts.

The checks are ``mj-player``'s own (:func:`~mj.robot.personality.parse_personality`
and :func:`~mj.robot.levels.make_strategy`), so the arena accepts exactly what the
robot program accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Final

from mj.robot.levels import DEFAULT_LEVEL
from mj.robot.personality import Personality, PersonalityError, parse_personality
from mj.robot.strategy import Strategy
from mj.robot.systems import make_strategy

#: The strategy options whose value is a list, as ``mj-player`` takes them.
LIST_KEYS: Final = ("chowness", "hiddenness", "majorness", "suitness")
KEYS: Final = ("level", *LIST_KEYS, "hysteresis", "generic", "name")
DEFAULT_WORD: Final = "default"


class SpecError(ValueError):
    """A player specification, game option or option file the arena cannot use; the message says why."""


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """One robot: its level, its strategy options and a label; ``str()`` gives its specification back."""

    level: int = DEFAULT_LEVEL
    personality: Personality = field(default_factory=Personality)
    name: str = ""
    generic: bool = False

    def strategy(self, seed: int) -> Strategy:
        """A fresh strategy of this robot, breaking ties with ``seed``."""
        return make_strategy(self.level, self.personality, seed, self.generic)

    def __str__(self) -> str:
        words = [f"level={self.level}"]
        default = Personality()
        for option in fields(Personality):
            value = getattr(self.personality, option.name)
            if value != getattr(default, option.name):
                values = value if isinstance(value, tuple) else (value,)
                words.append(f"{option.name}={','.join(_number(v) for v in values)}")
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
    try:
        personality = parse_personality(**{key: ",".join(values) for key, values in given.items()})
        make_strategy(level, personality)
    except PersonalityError as exc:
        raise SpecError(str(exc).removeprefix("--")) from None
    except ValueError as exc:
        raise SpecError(str(exc)) from None
    return PlayerSpec(level, personality, name, generic)


def _generic(text: str) -> bool:
    if text not in ("0", "1"):
        raise SpecError(f"generic: {text!r} is not 0 or 1")
    return text == "1"


def _level(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SpecError(f"level: {text!r} is not a number") from None
