"""Lists of game seeds as scripts and benchmarks take them on the command line (``1-10,15``)."""

from __future__ import annotations

import argparse


class SeedError(ValueError, argparse.ArgumentTypeError):
    """A seed list that cannot be read; as an ``argparse`` type error it becomes a usage message."""


def parse_seeds(text: str) -> list[int]:
    """``1-10,15`` as a sorted list of distinct positive seeds."""
    seeds: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, sep, high = part.partition("-")
        try:
            first, last = int(low), int(high) if sep else int(low)
        except ValueError:
            raise SeedError(f"bad seed {part!r}") from None
        if first < 1 or last < first:
            raise SeedError(f"bad seed range {part!r} (seeds must be >= 1)")
        seeds.update(range(first, last + 1))
    if not seeds:
        raise SeedError("no seeds given")
    return sorted(seeds)
