"""Command-line numbers with their bounds, as argparse types.

A value out of range is a usage error in one line naming the bound, never clamped silently: a
benchmark given ``--hands -1`` once printed a negative rate, and ``xmj --page-grace -1`` started a
game whose page could never come back.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from ``low`` (to ``high``, when given)."""
    wanted = f"a whole number of at least {low}" if high is None else f"a whole number from {low} to {high}"

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {wanted}, not {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {wanted}, not {text!r}")
        return value

    return number


def seconds(low: float, high: float) -> Callable[[str], float]:
    """A number of seconds from ``low`` to ``high`` (NaN and infinities are out of range)."""

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        if not low <= value <= high:  # NaN fails too
            raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g} seconds: {text!r}")
        return value

    return number
