"""What every rule system's calculator answers for one hand: the fields of score-json.md's output."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mj.rules.winhand import SEAT_LETTERS


class InputError(ValueError):
    """Malformed input: ``str()`` is the one line ``mj score`` prints before exiting with status 2."""


@dataclass(frozen=True, slots=True)
class Element:
    """One scoring element that applied, in the rule system's own words."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """A scored hand, or why it may not go out this way.

    ``figures`` are the rule system's own totals in output order (IMS: fan and bonus).
    ``score`` and ``payments`` are None when the hand is not allowed; ``text`` is the
    readable explanation.
    """

    allowed: bool
    reason: str
    score: int | None
    figures: tuple[tuple[str, int], ...]
    elements: tuple[Element, ...]
    payments: tuple[int, int, int, int] | None
    text: str

    def to_json(self) -> dict[str, Any]:
        """The output object of score-json.md, fields in its order."""
        out: dict[str, Any] = {"allowed": self.allowed}
        if not self.allowed:
            out["reason"] = self.reason
        if self.score is not None:
            out["score"] = self.score
        out.update(self.figures)
        if self.allowed or self.figures:
            out["elements"] = [{"name": e.name, "value": e.value} for e in self.elements]
        if self.payments is not None:
            out["payments"] = dict(zip(SEAT_LETTERS, self.payments, strict=True))
        return out
