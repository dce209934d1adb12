#!/usr/bin/env python3
"""Play our robot against three original robots on the original Unix Mah-Jong server.

For each seed a fresh ``/usr/games/mj-server --seed N --timeout 0
--exit-on-disconnect`` is started on a Unix socket in a temporary directory; our
robot connects first (id 1, East of the first hand), then three original
``mj-player`` robots (Robot2..Robot4). Per game it prints the hands played, our
wins, our deal-ins (our discard or kong gave another player mah-jong), our final
score and the protocol errors the server sent us, and totals at the end.

The figures come from the server's ``--logfile``, not from our robot's own
bookkeeping, so they hold whether our robot runs in-process (the default, which
also measures its decision times) or as the ``mj-player`` program
(``--subprocess``). Example::

    .venv/bin/python scripts/robot_games.py --seeds 1-20
    .venv/bin/python scripts/robot_games.py --seeds 5 --options tests/data/options/no-flowers.opt
    .venv/bin/python scripts/robot_games.py --seeds 1-5 --server-program .venv/bin/mj-server

Every process started here is ended by PID; nothing is left running.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from mj import original
from mj.robot.games import (
    OUR_CONNECTION,
    OUR_ID,
    GameReport,
    LogSummary,
    play_game,
    summarize_log,
)
from mj.robot.levels import DEFAULT_LEVEL
from mj.seeds import parse_seeds

__all__ = ["OUR_CONNECTION", "OUR_ID", "GameReport", "LogSummary", "parse_seeds", "play_game", "summarize_log"]


async def _play_all(seeds: Sequence[int], args: argparse.Namespace) -> list[GameReport]:
    reports = []
    print(f"{'seed':>5} {'hands':>5} {'wash':>4} {'wins':>4} {'dealin':>6} {'score':>6} {'errors':>6}  result")
    for seed in seeds:
        with tempfile.TemporaryDirectory(prefix="mjrobot-") as tmp:
            report = await play_game(
                seed,
                Path(tmp),
                option_file=args.options,
                level=args.level,
                timeout=args.timeout,
                subprocess_robot=args.subprocess,
                server=args.server_program,
            )
        s = report.summary
        print(
            f"{seed:>5} {s.hands:>5} {s.washouts:>4} {s.wins:>4} {s.deal_ins:>6} {report.score:>6} {len(s.errors):>6}"
            f"  {'ok' if report.ok else 'FAIL: ' + report.message} ({report.seconds:.1f} s)",
            flush=True,
        )
        for line in s.errors:
            print(f"      {line}")
        reports.append(report)
    return reports


def print_totals(reports: Sequence[GameReport]) -> None:
    summaries = [r.summary for r in reports]
    hands = sum(s.hands for s in summaries)
    decided = hands - sum(s.washouts for s in summaries)
    wins = sum(s.wins for s in summaries)
    deal_ins = sum(s.deal_ins for s in summaries)
    errors = sum(len(s.errors) for s in summaries)
    completed = sum(r.ok for r in reports)
    ours = [r.score for r in reports]
    others = [score for r in reports for pid, score in r.summary.scores.items() if pid != r.our_id]
    print(f"games completed: {completed}/{len(reports)}, hands {hands} ({hands - decided} wash-outs)")
    if hands:
        print(f"our wins: {wins} ({100 * wins / hands:.1f}% of hands; a fair share is 25% of decided hands)")
        print(f"our deal-ins: {deal_ins} ({100 * deal_ins / hands:.1f}% of hands)")
    if ours:
        print(f"our score: total {sum(ours)}, mean {statistics.mean(ours):.0f} per game")
    if others:
        print(f"original robots: mean {statistics.mean(others):.0f} per game")
    print(f"protocol errors sent to our robot: {errors}")
    windows = sum(len(s.answers) for s in summaries)
    wrong = sum(s.misanswered for s in summaries)
    print(f"discards and kongs of others answered exactly once: {windows - wrong}/{windows}")
    by_kind: dict[str, list[float]] = {}
    for report in reports:
        for keyword, seconds in report.decisions:
            by_kind.setdefault(keyword, []).append(1000 * seconds)
    if by_kind:
        print("decision time per move (ms):")
        every = [ms for times in by_kind.values() for ms in times]
        for keyword, times in [*sorted(by_kind.items(), key=lambda kv: -len(kv[1])), ("all", every)]:
            print(
                f"  {keyword:22} {len(times):6} moves, mean {statistics.mean(times):6.2f}, "
                f"median {statistics.median(times):6.2f}, max {max(times):7.2f}"
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-20", help="e.g. 1-20,31 (default %(default)s)")
    parser.add_argument("--options", type=Path, help="option file for the server (--option-file)")
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL, help="our robot's level (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds allowed per game")
    parser.add_argument("--subprocess", action="store_true", help="run our robot as the mj-player program")
    parser.add_argument("--server-program", default=original.SERVER, help="the server to play on (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    if os.sep in args.server_program:
        args.server_program = str(Path(args.server_program).resolve())  # the server runs in a temporary folder
    for binary in (args.server_program, original.PLAYER):
        if not os.access(binary, os.X_OK):
            print(f"error: {binary} not found (apt-get install mah-jong)", file=sys.stderr)
            return 2
    reports = asyncio.run(_play_all(seeds, args))
    print_totals(reports)
    clean = all(r.ok and not r.summary.errors and not r.summary.misanswered for r in reports)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
