"""``mj score``: one hand in, its score and payments out, for every rule system (score-json.md).

:mod:`~mj.calculator.request` reads and checks the input, each rule system's module
turns the hand into an :class:`~mj.calculator.outcome.Outcome` (its score, elements,
payments and readable text), and :mod:`~mj.calculator.cli` prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mj.calculator import beijing, classical, ims
from mj.calculator.outcome import Element, InputError, Outcome
from mj.calculator.request import Request, parse_request
from mj.rules import registry

Calculator = Callable[[Request], Outcome]

#: Each rule system's calculator by its name.
CALCULATORS: Final[dict[str, Calculator]] = {
    "classical": lambda r: classical.calculate(r.hand, r.options),
    "ims": lambda r: ims.calculate(r.hand, r.options),
    "beijing": lambda r: beijing.calculate(r.hand, r.options, r.wild_indicator),
}
#: Without a rules field or --rules: the system every command plays by default.
DEFAULT_RULES: Final = registry.DEFAULT_NAME


def calculate(request: Request, rules: str | None = None) -> Outcome:
    """Score ``request`` under ``rules`` if given, else its own ``rules``, else classical."""
    name = rules or request.rules or DEFAULT_RULES
    if name not in CALCULATORS:
        raise InputError(f"unknown rules {name!r} (the rule systems are {', '.join(CALCULATORS)})")
    return CALCULATORS[name](request)


__all__ = ["CALCULATORS", "DEFAULT_RULES", "Element", "InputError", "Outcome", "Request", "calculate", "parse_request"]
