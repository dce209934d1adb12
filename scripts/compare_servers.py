#!/usr/bin/env python3
"""Play the same seeded robot games on the original mj-server and on ours, and compare the logs.

For each seed, both servers run with ``--seed N --timeout 0 --exit-on-disconnect``
(and the option file, if given), each in its own temporary directory on a Unix
socket (ours on TCP 127.0.0.1 with ``--tcp``), with four original ``mj-player``
robots connected in order. The two logs are compared in the canonical form of
:mod:`mj.server.logcompare`, which forgets only the interleaving of concurrent
robots, and each seed is reported identical or different with the first
difference. The exit status is 1 if any game differs or fails.

Example::

    python scripts/compare_servers.py --seeds 1-5 --option-file tests/data/options/no-flowers.opt

Every process started here is ended by PID.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from mj import original
from mj.logfile import parse_log
from mj.protocol.framing import ENCODING
from mj.seeds import parse_seeds
from mj.server.logcompare import first_difference
from mj.server.robotgame import GameRun, play_robot_game


@dataclass(frozen=True)
class Outcome:
    seed: int
    same: bool
    report: str
    original: GameRun
    ours: GameRun


def server_arguments(seed: int, address: str, option_file: Path | None) -> list[str]:
    arguments = ["--server", address, "--seed", str(seed), "--timeout", "0", "--exit-on-disconnect"]
    arguments += ["--logfile", "game.log"]
    if option_file is not None:
        arguments += ["--option-file", str(option_file)]
    return arguments


def play(command: Sequence[str], seed: int, address: str, args: argparse.Namespace, keep: Path | None) -> GameRun:
    with tempfile.TemporaryDirectory(prefix="mjcmp-") as name:
        workdir = Path(name)
        run = play_robot_game(
            [*command, *server_arguments(seed, address, args.option_file)],
            workdir,
            workdir / "game.log",
            timeout=args.timeout,
            player=args.player,
        )
    if keep is not None:
        keep.write_bytes(run.log)
    return run


def compare_seed(seed: int, args: argparse.Namespace) -> Outcome:
    keep: Path | None = args.keep
    original = play([args.original], seed, "sock", args, keep / f"seed{seed}-original.log" if keep else None)
    ours_address = "127.0.0.1:0" if args.tcp else "sock"
    ours = play(shlex.split(args.ours), seed, ours_address, args, keep / f"seed{seed}-ours.log" if keep else None)
    if not original.ok:
        return Outcome(seed, False, f"original server failed: {original.message}", original, ours)
    if not ours.ok:
        return Outcome(seed, False, f"our server failed: {ours.message}", original, ours)
    difference = first_difference(parse_log(original.log.decode(ENCODING)), parse_log(ours.log.decode(ENCODING)))
    if difference is None:
        return Outcome(seed, True, "identical", original, ours)
    return Outcome(seed, False, "DIFFERENT, " + difference.describe("original", "ours"), original, ours)


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
    args = parser.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    if args.option_file is not None:
        if not args.option_file.is_file():
            parser.error(f"option file not found: {args.option_file}")
        args.option_file = args.option_file.resolve()
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
            print(f"seed {outcome.seed}: {outcome.report} ({times})", flush=True)
            differ += not outcome.same
    total = time.monotonic() - started
    print(f"{len(seeds) - differ}/{len(seeds)} games identical in {total:.1f} s", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
