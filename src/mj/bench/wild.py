"""Wild-aware complete-hand tests, waits and shanten per second on one core (Beijing).

Run as ``mj bench wild``. Deals the same seeded hands as ``mj bench shanten``, each with
a seeded wild kind, and reports calls per second of :mod:`mj.hand.wild`'s tests. As
there, the first pass fills the memoised per-group tables and is reported apart.
The issue's bar is 100,000 complete-hand tests a second.
"""

from __future__ import annotations

import argparse
import random

from mj.argtypes import whole
from mj.bench.shanten import Rate, deal, measure
from mj.hand import counts
from mj.hand.wild import is_complete, shanten, wait_indices
from mj.tiles import NUM_KINDS


def measure_all(hands: int = 20_000, seed: int = 1110, passes: int = 5) -> list[Rate]:
    """Rates of is_complete (14 tiles), shanten and wait_indices (13 tiles) over seeded deals and wilds."""
    rng = random.Random(seed)
    deals = deal(hands, seed)
    fourteen = [(counts(d), rng.randrange(NUM_KINDS)) for d in deals]
    thirteen = [(counts(d[:13]), wild) for d, (_, wild) in zip(deals, fourteen, strict=True)]
    return [
        measure("is_complete(counts, wild) 14", lambda hw: is_complete(hw[0], hw[1], 0), fourteen, passes),
        measure("shanten(counts, wild) 13", lambda hw: shanten(hw[0], hw[1], 0), thirteen, passes),
        measure(
            "wait_indices(counts, wild) 13", lambda hw: wait_indices(hw[0], hw[1], 0), thirteen[: hands // 10], passes
        ),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=whole(1), default=20_000, help="distinct deals (default 20000)")
    parser.add_argument("--seed", type=int, default=1110, help="seed of the deals and wilds (default 1110)")
    parser.add_argument("--passes", type=whole(2), default=5, help="passes over the deals, at least 2 (default 5)")


def run(args: argparse.Namespace) -> int:
    print(f"{args.hands} seeded random hands with a seeded wild kind (seed {args.seed}), calls per second on one core")
    print(f"{'function':32} {'first pass':>12} {'best pass':>12}")
    for rate in measure_all(args.hands, args.seed, args.passes):
        print(f"{rate.name:32} {rate.first_pass:12,.0f} {rate.best:12,.0f}")
    return 0
