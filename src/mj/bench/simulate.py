"""Hands per second of the random-move simulation, every invariant checked at every move.

Run as ``mj bench simulate --rules classical --hands 10000``. Seeded games of four
players choosing at random among their rule system's legal moves (:mod:`mj.simulate`)
are played until that many hands are done; a broken invariant stops the run with
its seed and hand, and status 1. The figures say how fast a rule system's hands are
played and checked, on one core, and how many of them were won.
"""

from __future__ import annotations

import argparse

from mj.rules import registry
from mj.simulate import InvariantError, simulate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default=registry.DEFAULT_NAME, help="the rule system (default classical)")
    parser.add_argument("--hands", type=int, default=10000, help="hands to play (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")


def run(args: argparse.Namespace) -> int:
    try:
        rules = registry.get(args.rules)
    except registry.RulesError as exc:
        print(f"mj bench simulate: {exc}")
        return 2
    if args.hands <= 0:
        print("mj bench simulate: --hands must be positive")
        return 2
    try:
        figures = simulate(rules, hands=args.hands, seed=args.seed)
    except InvariantError as exc:
        print(f"invariant broken: {exc}")
        return 1
    print(f"random-move simulation, {rules.name} rules, every invariant checked at every move, one core")
    print(
        f"{figures.hands} hands ({figures.wins} won) in {figures.games} games from seed {args.seed}: "
        f"{figures.moves} moves, {figures.probes} illegal moves tried and refused"
    )
    print(f"moves per second: {figures.moves / figures.seconds:.0f}")
    print(f"hands per second: {figures.hands_per_second:.1f}")
    return 0
