#!/usr/bin/env python3
"""Duplicate tournament: our robot against three original robots on the original server.

For every seed the same game (``mj-server --seed N``) is played four times, our robot
joining first, second, third and fourth: the original seats players in joining order
(protocol.md §6.2), so our robot sits East, South, West and North of the first hand
in turn and meets every deal the original robots meet. Games run in parallel
(``--jobs``); each is played by :func:`mj.robot.games.play_game` (shared with
``scripts/robot_games.py``) and read back from the server's ``--logfile``.

Printed per kind of player (ours, original): games, hands, win rate, self-drawn share,
deal-in rate (the discard or kong that gave another player mah-jong), mean winning
hand score and mean final score per game, each with a 95% confidence interval (normal
approximation). The duplicate comparison takes, for every seed, our mean final score
over the rotations minus the originals' mean, and gives the mean and 95% CI of that
per-seed difference (likewise for win and deal-in rates). The JSON (``--json``) keeps
that difference for every seed, so that two versions played on the same seeds can be
compared pair by pair (``--against`` an earlier JSON): the per-seed difference of
their differences, which cancels the luck of the deals both met. Example::

    .venv/bin/python scripts/tournament.py --seeds 1-40 --level 2 --jobs 2
    .venv/bin/python scripts/tournament.py --seeds 1-100 --json results.json
    .venv/bin/python scripts/tournament.py --seeds 1-100 --level 2 --against results.json
    .venv/bin/python scripts/tournament.py --seeds 1-100 --set cost=1,hurry=0 --against results.json
    .venv/bin/python scripts/tournament.py --seeds 7201-7300 --keep-logs logs/

``--keep-logs DIR`` keeps each game's server ``--logfile`` as ``DIR/seed<N>-seat<S>.log``
(S the joining place 0..3): it holds every player's draws and every public message, so
every concealed hand can be rebuilt offline (the study of issue 22's deal-ins needs them).

``--set`` plays a variant of the level: fields of its :class:`~mj.robot.levels.Defence`
replaced (levels 2 and 3), so that a change of tuning is measured before it is written.

Every process started here is ended by PID; nothing is left running.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mj import original
from mj.arena.stats import Estimate, PlayerGame, Totals, mean_ci
from mj.robot.games import GameReport, play_game
from mj.robot.levels import DEFAULT_LEVEL, Defence, defence_with
from mj.seeds import parse_seeds

ROTATIONS = 4


def rates(report: GameReport, pid: int) -> tuple[float, float]:
    s = report.summary
    hands = max(1, s.hands)
    return s.wins_by.get(pid, 0) / hands, s.deal_ins_by.get(pid, 0) / hands


def analyse(reports: Sequence[GameReport]) -> dict[str, Any]:
    """Per-kind totals and the duplicate (per-seed) differences, from completed games."""
    ours, originals = Totals(), Totals()
    per_seed: dict[int, list[tuple[float, float, float]]] = {}
    for report in reports:
        if not report.ok:
            continue
        others = [pid for pid in report.summary.scores if pid != report.our_id]
        ours.add(PlayerGame.from_tally(report.summary, report.our_id))
        for pid in others:
            originals.add(PlayerGame.from_tally(report.summary, pid))
        s = report.summary
        score_diff = s.scores[report.our_id] - statistics.fmean(s.scores[p] for p in others)
        our_win, our_deal = rates(report, report.our_id)
        their = [rates(report, p) for p in others]
        win_diff = our_win - statistics.fmean(w for w, _ in their)
        deal_diff = our_deal - statistics.fmean(d for _, d in their)
        per_seed.setdefault(report.seed, []).append((score_diff, win_diff, deal_diff))
    columns = list(zip(*(map(statistics.fmean, zip(*rows, strict=True)) for rows in per_seed.values()), strict=True))
    duplicate = {
        name: mean_ci(columns[i] if columns else []).as_dict()
        for i, name in enumerate(("final_score_diff", "win_rate_diff", "deal_in_rate_diff"))
    }
    decisions = [1000 * seconds for r in reports for _, seconds in r.decisions]
    score_by_seed = {str(seed): statistics.fmean(row[0] for row in rows) for seed, rows in sorted(per_seed.items())}
    return {
        "games": len(reports),
        "completed": sum(r.ok for r in reports),
        "failed": [{"seed": r.seed, "seat": r.our_id - 1, "message": r.message} for r in reports if not r.ok],
        "protocol_errors": sum(len(r.summary.errors) for r in reports),
        "misanswered": sum(r.summary.misanswered for r in reports),
        "ours": ours.figures().as_dict(),
        "original": originals.figures().as_dict(),
        "duplicate": {"seeds": len(per_seed), **duplicate},
        "score_diff_by_seed": score_by_seed,
        "decision_ms": {
            "moves": len(decisions),
            "median": statistics.median(decisions) if decisions else None,
            "p99": statistics.quantiles(decisions, n=100)[98] if len(decisions) > 1 else None,
        },
    }


def paired(ours: dict[str, Any], theirs: dict[str, Any]) -> Estimate:
    """This run's per-seed score difference minus another run's, over the seeds both played."""
    mine, other = ours["score_diff_by_seed"], theirs.get("score_diff_by_seed", {})
    return mean_ci([mine[seed] - other[seed] for seed in mine if seed in other])


def _est(d: dict[str, float | None], scale: float = 1.0, digits: int = 1) -> str:
    return Estimate.from_dict(d).text(scale, digits)


def print_results(result: dict[str, Any]) -> None:
    print(f"games completed: {result['completed']}/{result['games']}", end="")
    print(f", protocol errors {result['protocol_errors']}, windows misanswered {result['misanswered']}")
    for failure in result["failed"]:
        print(f"  FAILED seed {failure['seed']} seat {failure['seat']}: {failure['message']}")
    print(
        f"{'':9} {'games':>5} {'hands':>6}  {'win %':>18}  {'deal-in %':>18}  {'winning score':>20}  final score/game"
    )
    for kind in ("ours", "original"):
        k = result[kind]
        print(
            f"{kind:9} {k['games']:>5} {k['hands']:>6}  {_est(k['win_rate'], 100):>18}  "
            f"{_est(k['deal_in_rate'], 100):>18}  {_est(k['winning_score'], 1, 0):>20}  {_est(k['final_score'], 1, 0)}"
        )
    for kind in ("ours", "original"):
        print(f"self-drawn share of {kind} wins: {_est(result[kind]['self_drawn_share'], 100)} %")
    d = result["duplicate"]
    print(f"duplicate, per seed ({d['seeds']} seeds), ours - mean(original):")
    print(f"  final score per game {_est(d['final_score_diff'], 1, 0)}")
    print(f"  win rate (points)    {_est(d['win_rate_diff'], 100)}")
    print(f"  deal-in rate (points) {_est(d['deal_in_rate_diff'], 100)}")
    t = result["decision_ms"]
    if t["moves"]:
        p99 = "n/a" if t["p99"] is None else f"{t['p99']:.2f} ms"
        print(f"decision time: {t['moves']} moves, median {t['median']:.3f} ms, 99th percentile {p99}")


async def run_tournament(seeds: Sequence[int], args: argparse.Namespace) -> list[GameReport]:
    gate = asyncio.Semaphore(args.jobs)
    done = 0
    total = len(seeds) * len(args.seats)

    async def one(seed: int, seat: int) -> GameReport:
        nonlocal done
        async with gate:
            with tempfile.TemporaryDirectory(prefix="mjtourney-") as tmp:
                report = await play_game(
                    seed,
                    Path(tmp),
                    option_file=args.options,
                    level=args.level,
                    timeout=args.timeout,
                    subprocess_robot=args.subprocess,
                    server=args.server_program,
                    seat=seat,
                    rules=args.rules,
                )
                if args.keep_logs is not None and (Path(tmp) / "server.log").exists():
                    shutil.copyfile(Path(tmp) / "server.log", kept_log(args.keep_logs, seed, seat))
        done += 1
        if not args.quiet:
            s = report.summary
            print(
                f"[{done}/{total}] seed {seed} seat {seat}: hands {s.hands} wins {s.wins} deal-ins {s.deal_ins}"
                f" score {report.score:+d} {'ok' if report.ok else 'FAIL: ' + report.message}"
                f" ({report.seconds:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
        return report

    return list(await asyncio.gather(*(one(seed, seat) for seed in seeds for seat in args.seats)))


def kept_log(folder: Path, seed: int, seat: int) -> Path:
    """Where ``--keep-logs`` keeps the server log of the game of ``seed`` with our robot joining ``seat``-th."""
    return folder / f"seed{seed}-seat{seat}.log"


def variant(level: int, changes: str) -> Defence:
    """The Defence of ``level`` with the fields of ``changes`` (``"cost=1,major_pungs=0"``) replaced.

    The words are read by :func:`mj.robot.levels.defence_with` (as ``mj arena`` reads its
    players' fields); what is wrong is a ValueError naming ``--set``.
    """
    given: dict[str, str] = {}
    try:
        for part in filter(None, (p.strip() for p in changes.split(","))):
            name, sep, text = part.partition("=")
            name = name.strip()
            if not sep:
                raise ValueError(f"{part!r} is not FIELD=VALUE")
            if name in given:
                raise ValueError(f"{name} given twice")
            given[name] = text
        return defence_with(level, given)
    except ValueError as exc:
        raise ValueError(f"--set {changes!r}: {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seeds", default="1-40", help="e.g. 1-100,120 (default %(default)s)")
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL, help="our robot's level (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once (default %(default)s)")
    parser.add_argument(
        "--seats", default="0,1,2,3", help="our joining places to play (default all four rotations: %(default)s)"
    )
    parser.add_argument("--options", type=Path, help="option file for the server (--option-file)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds allowed per game")
    parser.add_argument("--subprocess", action="store_true", help="run our robot as the mj-player program")
    parser.add_argument("--server-program", default=original.SERVER, help="the server to play on (default %(default)s)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON ('-' for stdout only)")
    parser.add_argument("--against", type=Path, help="a JSON of an earlier run to compare with, seed by seed")
    parser.add_argument(
        "--set", metavar="FIELD=VALUE,...", help="play a variant: fields of the level's Defence replaced (levels 2, 3)"
    )
    parser.add_argument("--keep-logs", type=Path, metavar="DIR", help="keep each game's server log in DIR")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress line per game")
    args = parser.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
        args.seats = sorted({int(s) for s in args.seats.split(",") if s.strip()})
        args.rules = variant(args.level, args.set) if args.set else None
    except ValueError as exc:
        parser.error(str(exc))
    if args.rules is not None and args.subprocess:
        parser.error("--set plays our robot in-process: not with --subprocess")
    if not args.seats or not set(args.seats) <= set(range(ROTATIONS)) or args.jobs < 1:
        parser.error("--seats takes places 0..3 and --jobs at least 1")
    if os.sep in args.server_program:
        args.server_program = str(Path(args.server_program).resolve())
    for binary in (args.server_program, original.PLAYER):
        if not os.access(binary, os.X_OK):
            print(f"error: {binary} not found (apt-get install mah-jong)", file=sys.stderr)
            return 2
    if args.keep_logs is not None:
        try:
            args.keep_logs.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            parser.error(f"--keep-logs {args.keep_logs}: {exc.strerror or exc}")
    try:
        against = json.loads(args.against.read_text(encoding="utf-8")) if args.against else None
    except (OSError, ValueError) as exc:
        parser.error(f"--against {args.against}: {exc}")
    started = time.monotonic()
    reports = asyncio.run(run_tournament(seeds, args))
    result = analyse(reports)
    result["command"] = {
        "seeds": args.seeds,
        "seats": args.seats,
        "level": args.level,
        "options": str(args.options),
        "set": args.set,
    }
    result["seconds"] = time.monotonic() - started
    if args.json == "-":
        print(json.dumps(result, indent=2, allow_nan=False))
    else:
        print_results(result)
        if against is not None:
            shared = paired(result, against)
            print(f"paired against {args.against} ({shared.n} seeds): final score per game {shared.text(1, 0)}")
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    return 0 if result["completed"] == result["games"] else 1


if __name__ == "__main__":
    sys.exit(main())
