"""Shanten, waits and mah-jong checks per second on one core.

Run as ``mj bench shanten``. Deals a fixed, seeded set of random 13-tile hands (plus
the next tile, for the 14-tile checks) and reports calls per second of the functions
the robots and the server call most.  The first pass over the hands also fills the
memoised per-group tables (shared by all the shanten functions, so only the first
row's first pass starts cold), so it is reported separately from the best of the
later passes.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from mj.argtypes import whole
from mj.hand import counts, is_mahjong, shanten, shanten_all, waits
from mj.tiles import Tile, full_set

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Rate:
    """Calls per second of one function over the benchmark hands."""

    name: str
    first_pass: float
    best: float


def deal(hands: int, seed: int) -> list[list[Tile]]:
    """``hands`` random 14-tile deals from a 136-tile set (no flowers), reproducibly."""
    rng = random.Random(seed)
    wall = full_set(flowers=False)
    return [rng.sample(wall, 14) for _ in range(hands)]


def _calls_per_second(function: Callable[[T], object], arguments: Sequence[T]) -> float:
    start = time.perf_counter()
    for argument in arguments:
        function(argument)
    return len(arguments) / (time.perf_counter() - start)


def measure(name: str, function: Callable[[T], object], arguments: Sequence[T], passes: int) -> Rate:
    first = _calls_per_second(function, arguments)
    return Rate(name, first, max(_calls_per_second(function, arguments) for _ in range(passes - 1)))


def measure_all(hands: int = 20_000, seed: int = 1110, passes: int = 5) -> list[Rate]:
    """Rates of shanten_all, shanten, waits and is_mahjong over the same seeded deals."""
    deals = deal(hands, seed)
    thirteen = [d[:13] for d in deals]
    vectors = [counts(hand) for hand in thirteen]
    return [
        measure("shanten_all(counts) 13 tiles", shanten_all, vectors, passes),
        measure("shanten(counts) 13 tiles", shanten, vectors, passes),
        measure("waits(tiles) 13 tiles", lambda hand: waits(hand, 0, True), thirteen, passes),
        measure("is_mahjong(tiles) 14 tiles", lambda hand: is_mahjong(hand, 0, True), deals, passes),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=whole(1), default=20_000, help="distinct deals (default 20000)")
    parser.add_argument("--seed", type=int, default=1110, help="seed of the deals (default 1110)")
    parser.add_argument("--passes", type=whole(2), default=5, help="passes over the deals, at least 2 (default 5)")


def run(args: argparse.Namespace) -> int:
    print(f"{args.hands} seeded random hands (seed {args.seed}), calls per second on one core")
    print(f"{'function':32} {'first pass':>12} {'best pass':>12}")
    for rate in measure_all(args.hands, args.seed, args.passes):
        print(f"{rate.name:32} {rate.first_pass:12,.0f} {rate.best:12,.0f}")
    return 0
