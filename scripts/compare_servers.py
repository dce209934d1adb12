#!/usr/bin/env python3
"""Play the same seeded robot games on the original mj-server and on ours, and compare the logs.

For each seed, both servers run with ``--seed N --timeout 0 --exit-on-disconnect``
(and the option file, if given), each in its own temporary directory on a Unix
socket (ours on TCP 127.0.0.1 with ``--tcp``), with four original ``mj-player``
robots connected in order. With ``--stacked`` both servers also get the same
``--wallfile``, made from the seed: every seat is dealt most of a hand rich in
what scoring tells apart (pungs and kongs of honours, flushes, terminals, the
rare limit hands) and finds the rest among its first draws, so the hands that go
out cover far more of the scoring than shuffled walls do (:mod:`mj.stackedwall`).
The original plays the first hand of a wall-file game with blank tiles (§12.3);
ours does the same with ``--original-quirks``, which it is then given.
With ``--strategy ROBOT:NAME=VALUES`` (repeatable) the original robots play with
the strategy options of ``mj-player`` (protocol.md §11.2: ``chowness``,
``hiddenness``, ``majorness``, ``suitness``, ``hysteresis``), robot 1-4 in the
order they connect or ``all``; ``--strategies random`` draws each robot's four
options from the seed (each the low end, the high end or a quarter step between),
so such a run is reproducible from its seeds alone. The robots' strategies go on
each seed's line. Play the default strategy never reaches (no chows, no claims,
one-suit hands, honours) is exercised that way.
The two logs are compared in the canonical form of
:mod:`mj.server.logcompare`, which forgets only the interleaving of concurrent
robots, and each seed is reported identical or different with the first
difference. The exit status is 1 if any game differs or fails.

Example::

    python scripts/compare_servers.py --seeds 1-5 --option-file tests/data/options/no-flowers.opt
    python scripts/compare_servers.py --seeds 1-20 --stacked --jobs 2
    python scripts/compare_servers.py --seeds 1-10 --strategy all:chowness=-1 --strategy 2:suitness=1
    python scripts/compare_servers.py --seeds 1-10 --strategies random --stacked

Every process started here is ended by PID.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mj import original, tiles
from mj.logfile import LogEntry, parse_log
from mj.protocol.framing import ENCODING
from mj.robot.personality import RANGES, parse_hysteresis, parse_list
from mj.rules import registry
from mj.seeds import parse_seeds
from mj.server.cli import plays_flowers, read_option_file
from mj.server.logcompare import Difference, first_difference
from mj.server.robotgame import GameRun, play_robot_game
from mj.stackedwall import stacked_wall

ROBOTS: Final = 4
#: What ``--strategies random`` draws each option from: its ends and the quarter steps between.
DRAWN: Final = {name: tuple(low + (high - low) * step / 4 for step in range(5)) for name, (low, high) in RANGES.items()}

#: Each robot's strategy options, in connection order: option name (without ``--``) to its value text.
Strategies = tuple[dict[str, str], ...]


def parse_strategy(text: str) -> tuple[range, str, str]:
    """``ROBOT:NAME=VALUES`` as (the robots, the option, its value text), checked as mj-player checks it."""
    robot, colon, option = text.partition(":")
    name, equals, value = option.partition("=")
    if not colon or not equals:
        raise ValueError(f"--strategy {text!r}: expected ROBOT:NAME=VALUES, e.g. all:chowness=-1 or 2:suitness=1")
    if robot == "all":
        robots = range(ROBOTS)
    elif robot in {str(n) for n in range(1, ROBOTS + 1)}:
        robots = range(int(robot) - 1, int(robot))
    else:
        raise ValueError(f"--strategy {text!r}: the robot is 1 to {ROBOTS} or all, not {robot!r}")
    if name == "hysteresis":
        parse_hysteresis(value)
    elif name in RANGES:
        parse_list(name, value)
    else:
        raise ValueError(f"--strategy {text!r}: the option is one of {', '.join([*RANGES, 'hysteresis'])}")
    return robots, name, value


def strategies_for(seed: int, args: argparse.Namespace) -> Strategies:
    """The robots' strategies for a seed: drawn from it if asked, then the ``--strategy`` options over them."""
    chosen: list[dict[str, str]] = [{} for _ in range(ROBOTS)]
    if args.strategies == "random":
        rng = random.Random(f"compare_servers strategies {seed}")
        for options in chosen:
            options.update({name: f"{rng.choice(values):g}" for name, values in DRAWN.items()})
    for robots, name, value in args.strategy:
        for robot in robots:
            chosen[robot][name] = value
    return tuple(chosen)


def robot_arguments(strategies: Strategies) -> list[list[str]]:
    return [[word for name, value in options.items() for word in (f"--{name}", value)] for options in strategies]


def describe(strategies: Strategies) -> str:
    """``1: chowness=-1 suitness=1; 3: hiddenness=1`` (robots on their defaults left out)."""
    return "; ".join(
        f"{robot}: " + " ".join(f"{name}={value}" for name, value in options.items())
        for robot, options in enumerate(strategies, start=1)
        if options
    )


@dataclass(frozen=True)
class Outcome:
    seed: int
    same: bool
    report: str
    original: GameRun
    ours: GameRun


def server_arguments(seed: int, address: str, option_file: Path | None, wall_file: Path | None) -> list[str]:
    arguments = ["--server", address, "--seed", str(seed), "--timeout", "0", "--exit-on-disconnect"]
    arguments += ["--logfile", "game.log"]
    if option_file is not None:
        arguments += ["--option-file", str(option_file)]
    if wall_file is not None:
        arguments += ["--wallfile", str(wall_file)]
    return arguments


def play(
    command: Sequence[str],
    seed: int,
    address: str,
    robots: list[list[str]],
    args: argparse.Namespace,
    keep: Path | None,
) -> GameRun:
    """One server's game of the seed, the original robots started with ``robots``' arguments."""
    with tempfile.TemporaryDirectory(prefix="mjcmp-") as name:
        workdir = Path(name)
        wall_file = None
        if args.stacked:
            wall_file = workdir / "wall"
            wall_file.write_text(tiles.codes(stacked_wall(seed, args.flowers)) + "\n", encoding="ascii")
        run = play_robot_game(
            [*command, *server_arguments(seed, address, args.option_file, wall_file)],
            workdir,
            workdir / "game.log",
            timeout=args.timeout,
            player=args.player,
            robot_arguments=robots,
        )
    if keep is not None:
        keep.write_bytes(run.log)
    return run


def compare_seed(seed: int, args: argparse.Namespace) -> Outcome:
    keep: Path | None = args.keep
    robots = robot_arguments(strategies_for(seed, args))  # the same robots on both servers
    original = play([args.original], seed, "sock", robots, args, keep / f"seed{seed}-original.log" if keep else None)
    ours_address = "127.0.0.1:0" if args.tcp else "sock"
    ours_command = [*shlex.split(args.ours), *(["--original-quirks"] if args.stacked else [])]
    ours = play(ours_command, seed, ours_address, robots, args, keep / f"seed{seed}-ours.log" if keep else None)
    original_log, ours_log = parse_log(original.log.decode(ENCODING)), parse_log(ours.log.decode(ENCODING))
    if original.unfinished and ours.unfinished:
        if first_difference(original_log, ours_log) is None:
            report = f"identical, but neither game ended in {args.timeout:.0f} s (the robots stalled alike)"
            return Outcome(seed, True, report, original, ours)
        # A wall file is dealt again every hand, so a hand that washes out (or that East wins)
        # on it can come round for ever; robots that never go out (majorness 1) wash out hand
        # after hand while East keeps the deal, also for ever: such a game is compared over
        # the hands both finished.
        hands, difference = _over_finished_hands(original_log, ours_log)
        if hands < 1:
            return Outcome(seed, False, f"original server failed: {original.message}", original, ours)
        if difference is None:
            report = f"identical over {_hands(hands)}; neither game ended in {args.timeout:.0f} s"
            again = " (a hand dealt again and again)" if args.stacked else ""
            return Outcome(seed, True, report + again, original, ours)
    elif not original.ok:
        return Outcome(seed, False, f"original server failed: {original.message}", original, ours)
    elif ours.unfinished:
        # Slow, or stalled where the original went on: the hands ours finished say which.
        hands, difference = _over_finished_hands(original_log, ours_log)
        report = f"our server failed: its game did not end in {args.timeout:.0f} s where the original's did"
        if hands < 1:
            return Outcome(seed, False, f"{report}; it finished no hand", original, ours)
        if difference is None:
            return Outcome(seed, False, f"{report}; identical over the {_hands(hands)} it finished", original, ours)
    elif not ours.ok:
        return Outcome(seed, False, f"our server failed: {ours.message}", original, ours)
    else:
        difference = first_difference(original_log, ours_log)
    if difference is None:
        return Outcome(seed, True, "identical", original, ours)
    return Outcome(seed, False, "DIFFERENT, " + difference.describe("original", "ours"), original, ours)


def _over_finished_hands(original: Sequence[LogEntry], ours: Sequence[LogEntry]) -> tuple[int, Difference | None]:
    """How many hands both logs finished (the last one each started may be cut short), and their first difference."""
    starts = _hand_starts(original), _hand_starts(ours)
    hands = max(0, min(map(len, starts)) - 1)
    ends = [each[hands] if hands < len(each) else 0 for each in starts]
    return hands, first_difference(original[: ends[0]], ours[: ends[1]])


def _hands(count: int) -> str:
    return f"{count} hand" if count == 1 else f"{count} hands"


def _hand_starts(log: Sequence[LogEntry]) -> list[int]:
    """Where each hand's ``NewHand`` stands in the log."""
    return [n for n, entry in enumerate(log) if entry.direction == ">" and (entry.text or "").startswith("NewHand ")]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seeds", required=True, help="e.g. 1-10,15")
    parser.add_argument("--option-file", type=Path, help="option file given to both servers")
    parser.add_argument("--tcp", action="store_true", help="run our server on TCP 127.0.0.1 (a free port)")
    parser.add_argument("--jobs", type=int, default=1, help="seeds played in parallel")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per game")
    parser.add_argument("--original", default=original.SERVER, help="the original mj-server binary")
    parser.add_argument("--player", default=original.PLAYER, help="the original mj-player binary")
    parser.add_argument(
        "--ours", default=f"{shlex.quote(sys.executable)} -m mj.server", help="command that runs our server"
    )
    parser.add_argument("--keep", type=Path, help="directory to keep both logs of every seed in")
    parser.add_argument("--stacked", action="store_true", help="a wall file stacked toward rich hands, from the seed")
    parser.add_argument(
        "--strategy",
        action="append",
        default=[],
        metavar="ROBOT:NAME=VALUES",
        help="a strategy option for original robot 1-4 (connection order) or all, e.g. all:chowness=-1, "
        "2:suitness=1, 3:hiddenness=0,1 (NAME: chowness, hiddenness, majorness, suitness, hysteresis); repeatable",
    )
    parser.add_argument(
        "--strategies",
        choices=["random"],
        help="random: draw each robot's four strategy options from the seed (--strategy options then override)",
    )
    args = parser.parse_args(argv)
    try:
        args.strategy = [parse_strategy(text) for text in args.strategy]
    except ValueError as exc:  # a PersonalityError too
        parser.error(str(exc))
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    if args.option_file is not None:
        if not args.option_file.is_file():
            parser.error(f"option file not found: {args.option_file}")
        args.option_file = args.option_file.resolve()
    entries = read_option_file(args.option_file) if args.option_file else ()
    args.flowers = plays_flowers(entries, registry.DEFAULT)
    for binary in (args.original, args.player):
        if not os.access(binary, os.X_OK):
            print(f"error: {binary} not found (apt-get install mah-jong)", file=sys.stderr)
            return 2
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    differ = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for outcome in pool.map(lambda seed: compare_seed(seed, args), seeds):
            times = f"original {outcome.original.seconds:5.2f} s, ours {outcome.ours.seconds:5.2f} s"
            strategies = describe(strategies_for(outcome.seed, args))
            strategies = f" [{strategies}]" if strategies else ""
            print(f"seed {outcome.seed}: {outcome.report} ({times}){strategies}", flush=True)
            differ += not outcome.same
    total = time.monotonic() - started
    print(f"{len(seeds) - differ}/{len(seeds)} games identical in {total:.1f} s", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
