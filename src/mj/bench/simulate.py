"""Hands per second of the random-move simulation, every invariant checked at every move.

Run as ``mj bench simulate --rules classical --hands 10000 [--jobs N]``. Seeded games
of four players choosing at random among their rule system's legal moves
(:mod:`mj.simulate`) are played until that many hands are done; a broken invariant
stops the run with its seed and hand, and status 1.

With ``--jobs N`` (``0``: one process per core) the games are shared out among N processes (process k plays the
seeds ``seed + k``, ``seed + k + N``...), each playing its share of the hands. Two
rates are printed, since they answer different questions: hands per CPU-second
(the CPU time of all the processes together: what one core does) and hands per
second of wall-clock time (what the machine does with N processes, which on a
machine busy with other work is less than N cores' worth).
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

from mj.argtypes import whole
from mj.rules import registry
from mj.simulate import InvariantError, simulate

#: What one process reports: (games, hands, wins, moves, probes, CPU seconds), or the broken invariant's text.
Share = tuple[int, int, int, int, int, float] | str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default=registry.DEFAULT_NAME, help="the rule system (default classical)")
    parser.add_argument("--hands", type=whole(1), default=10000, help="hands to play (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument(
        "--jobs", type=whole(0), default=1, help="processes sharing out the games (default 1; 0: one per core)"
    )


def play_share(rules_name: str, hands: int, seed: int, jobs: int) -> Share:
    """One process's share: plain values, which cross between processes by pickle."""
    try:
        figures = simulate(registry.get(rules_name), hands=hands, seed=seed, seed_step=jobs)
    except InvariantError as exc:
        return str(exc)
    return (figures.games, figures.hands, figures.wins, figures.moves, figures.probes, figures.cpu_seconds)


def shares(hands: int, jobs: int) -> list[int]:
    """The hands each of ``jobs`` processes plays: ``hands`` in all, the first ones one more if need be."""
    return [hands // jobs + (1 if k < hands % jobs else 0) for k in range(jobs)]


def run(args: argparse.Namespace) -> int:
    try:
        rules = registry.get(args.rules)
    except registry.RulesError as exc:
        print(f"mj bench simulate: {exc}")
        return 2
    if args.jobs == 0:
        args.jobs = min(os.cpu_count() or 1, args.hands)
    if not 1 <= args.jobs <= args.hands:
        print("mj bench simulate: --jobs must be 0 (one process per core) or between 1 and --hands")
        return 2
    started = time.perf_counter()
    if args.jobs == 1:
        results = [play_share(rules.name, args.hands, args.seed, 1)]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [
                pool.submit(play_share, rules.name, share, args.seed + k, args.jobs)
                for k, share in enumerate(shares(args.hands, args.jobs))
            ]
            results = [future.result() for future in futures]
    wall = time.perf_counter() - started
    for result in results:
        if isinstance(result, str):
            print(f"invariant broken: {result}")
            return 1
    games, hands, wins, moves, probes, cpu = (sum(column) for column in zip(*results, strict=True))
    processes = "one process" if args.jobs == 1 else f"{args.jobs} processes"
    print(f"random-move simulation, {rules.name} rules, every invariant checked at every move, {processes}")
    print(
        f"{hands} hands ({wins} won) in {games} games from seed {args.seed}: "
        f"{moves} moves, {probes} illegal moves tried and refused"
    )
    print(f"hands per CPU-second (one core): {hands / cpu:.1f}")
    print(f"moves per CPU-second (one core): {moves / cpu:.0f}")
    print(f"hands per second (wall clock, {processes}): {hands / wall:.1f}")
    return 0
