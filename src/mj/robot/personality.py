"""The original robot's "personality" options (protocol.md §11.2), parsed and checked, and switched.

``mj-player`` takes ``--chowness``, ``--hiddenness``, ``--majorness`` and
``--suitness`` as comma-separated lists of up to five numbers, plus
``--hysteresis``. We accept exactly the same syntax and ranges so that command
lines written for the original work unchanged, and reject anything else with a
message naming the option and the bad value.

Every choice of one value from each list is a *combination* (a strategy, in the
manual's words). As the original does, the robot picks the combination that fits
its hand best at the start of each hand, then looks again after each draw but
switches only when another combination fits better by more than the hysteresis
(:class:`Switcher`): without that margin a hand halfway between two plans would
flip between them and play neither.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

#: The most values one option list may hold, as in the original.
MAX_VALUES: Final = 5
#: (low, high) accepted for each list option.
RANGES: Final = {
    "chowness": (-1.0, 1.0),
    "hiddenness": (0.0, 1.0),
    "majorness": (0.0, 1.0),
    "suitness": (0.0, 1.0),
}
DEFAULT_HYSTERESIS: Final = 4.0


class PersonalityError(ValueError):
    """A strategy option that is not a list of numbers in its range."""


@dataclass(frozen=True, slots=True)
class Personality:
    """Strategy parameters; each list holds the alternatives a robot may switch between.

    ``chowness`` > 0 favours chows, -1 never chows; ``hiddenness`` makes exposing
    sets less attractive (1: only claim to go out); ``majorness`` favours terminals
    and honours; ``suitness`` favours one-suit hands; ``hysteresis`` is how much
    better another combination must look before the robot switches to it.
    """

    chowness: tuple[float, ...] = (0.0,)
    hiddenness: tuple[float, ...] = (0.0,)
    majorness: tuple[float, ...] = (0.0,)
    suitness: tuple[float, ...] = (0.0,)
    hysteresis: float = DEFAULT_HYSTERESIS


@dataclass(frozen=True, slots=True)
class Combination:
    """One value of each personality list: the strategy the robot plays with at a time."""

    chowness: float = 0.0
    hiddenness: float = 0.0
    majorness: float = 0.0
    suitness: float = 0.0


def combinations(personality: Personality) -> tuple[Combination, ...]:
    """Every combination of the lists, the one of all first values first."""
    return tuple(
        Combination(*values)
        for values in itertools.product(
            personality.chowness, personality.hiddenness, personality.majorness, personality.suitness
        )
    )


class Switcher:
    """Which combination to play with, chosen afresh each hand and switched with hysteresis.

    ``fit`` (given by the strategy) says how well a combination suits the hand now,
    in hand-score points, the unit of ``hysteresis``.
    """

    def __init__(self, personality: Personality) -> None:
        self.combinations = combinations(personality)
        self.hysteresis = personality.hysteresis
        self.current = self.combinations[0]

    def start(self, fit: Callable[[Combination], float]) -> Combination:
        """At the start of a hand: the best-fitting combination (the earlier one on ties)."""
        if len(self.combinations) > 1:
            self.current = max(self.combinations, key=fit)
        return self.current

    def update(self, fit: Callable[[Combination], float]) -> Combination:
        """After a draw: switch to the best-fitting combination if it beats the current one by the hysteresis."""
        if len(self.combinations) > 1:
            scores = [fit(c) for c in self.combinations]
            best = max(range(len(scores)), key=scores.__getitem__)
            if scores[best] > fit(self.current) + self.hysteresis:
                self.current = self.combinations[best]
        return self.current


def parse_list(name: str, text: str) -> tuple[float, ...]:
    """``"0,-0.9,0.5"`` as numbers, checked against the range of option ``name``."""
    low, high = RANGES[name]
    words = [w.strip() for w in text.split(",")]
    if not text.strip() or any(not w for w in words):
        raise PersonalityError(f"--{name}: expected a comma-separated list of numbers, got {text!r}")
    if len(words) > MAX_VALUES:
        raise PersonalityError(f"--{name}: at most {MAX_VALUES} values, got {len(words)}")
    values = []
    for word in words:
        try:
            value = float(word)
        except ValueError:
            raise PersonalityError(f"--{name}: {word!r} is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise PersonalityError(f"--{name}: {word} is outside {low:g}..{high:g}")
        values.append(value)
    return tuple(values)


def parse_hysteresis(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise PersonalityError(f"--hysteresis: {text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise PersonalityError(f"--hysteresis: {text} must be a non-negative number")
    return value


def parse_personality(
    chowness: str | None = None,
    hiddenness: str | None = None,
    majorness: str | None = None,
    suitness: str | None = None,
    hysteresis: str | None = None,
) -> Personality:
    """A personality from option texts; an absent option keeps its default."""
    default = Personality()
    return Personality(
        chowness=parse_list("chowness", chowness) if chowness is not None else default.chowness,
        hiddenness=parse_list("hiddenness", hiddenness) if hiddenness is not None else default.hiddenness,
        majorness=parse_list("majorness", majorness) if majorness is not None else default.majorness,
        suitness=parse_list("suitness", suitness) if suitness is not None else default.suitness,
        hysteresis=parse_hysteresis(hysteresis) if hysteresis is not None else default.hysteresis,
    )
