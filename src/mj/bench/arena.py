"""Hands per CPU-second on one core: four default robots in our arena, and the original system on the same seeds.

Run as ``mj bench arena [--seeds 1001-1003]``. Each seed is played by four robots
of the default level on both systems (with ``--rules NAME`` other than classical, on
ours alone: the original plays only classical):

* ours: the seed's four games of ``mj arena`` (the duplicate format: seats rotated),
  each with :func:`mj.arena.game.play`, in this process (the table and the four
  robots in-process, no sockets), timed with this process's CPU clock; the first
  game pays for filling the robots' tables, as in any tournament;
* the original's: ``/usr/games/mj-server --seed N --timeout 0`` with four
  ``/usr/games/mj-player`` robots over a Unix socket (the harness of
  :mod:`mj.server.robotgame`), timed by the user + system CPU of all five
  processes (:func:`resource.getrusage` of the children this process reaped);
  one game per seed, since its four robots are alike and rotating them would
  replay the same game.

The seeds deal the same walls in both systems; the robots differ, so the games do
after the first discards, and the comparison is per hand. Printed: per seed and in
total, each system's hands and CPU seconds, then each system's hands per
CPU-second and the ratio ours / original.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mj.arena.game import SEATS, GameSetup, play
from mj.arena.players import PlayerSpec
from mj.bench import versus
from mj.bench.versus import BenchError
from mj.rules import registry
from mj.server.robotgame import play_robot_game


@dataclass(frozen=True, slots=True)
class Measured:
    """Hands played and the CPU seconds they took."""

    hands: int
    cpu: float

    def __add__(self, other: Measured) -> Measured:
        return Measured(self.hands + other.hands, self.cpu + other.cpu)

    @property
    def per_second(self) -> float:
        return self.hands / self.cpu if self.cpu else float("nan")


def ours(seed: int, rules: str = registry.DEFAULT_NAME) -> Measured:
    """The four games (seats rotated) of four default robots in the arena, on this process's CPU clock."""
    started = time.process_time()
    players = (PlayerSpec(),) * SEATS
    hands = sum(play(GameSetup(seed, rotation, players, rules=rules)).hands for rotation in range(SEATS))
    return Measured(hands, time.process_time() - started)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def original(seed: int, server: str, player: str, timeout: float) -> Measured:
    """One game of the original server and four original robots; CPU of all five processes."""
    before = _children_cpu()
    with tempfile.TemporaryDirectory(prefix="mjba-") as directory:
        workdir = Path(directory)
        command = [server, "--server", "sock", "--seed", str(seed), "--timeout", "0", "--exit-on-disconnect"]
        run = play_robot_game([*command, "--logfile", "game.log"], workdir, workdir / "game.log", timeout=timeout,
                              player=player)  # fmt: skip
    if not run.ok:
        raise BenchError(f"seed {seed}: {run.message}")
    # Every process the harness started has been reaped, so its CPU time is now the children's.
    return Measured(run.log.count(b" NewHand "), _children_cpu() - before)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    versus.add_arguments(parser)
    parser.add_argument("--rules", default=registry.DEFAULT_NAME, help="the rule system (default classical)")


#: Column headings of the table of figures, and their widths.
COLUMNS: Final = (("seed", 6), ("ours hands", 11), ("ours CPU s", 11), ("original hands", 15), ("original CPU s", 15))


def _row(label: str, mine: Measured, theirs: Measured) -> str:
    cells = (label, str(mine.hands), f"{mine.cpu:.3f}", str(theirs.hands), f"{theirs.cpu:.3f}")
    return " ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, COLUMNS, strict=True))


def compare(args: argparse.Namespace) -> None:
    """Print one row per seed, the totals and the rates (:class:`BenchError` if an original game fails)."""
    print("hands per CPU-second on one core, four default robots, our arena and the original over a Unix socket")
    print(" ".join(f"{name:>{width}}" for name, width in COLUMNS))
    mine_total = theirs_total = Measured(0, 0.0)
    for seed in args.seeds:
        mine, theirs = ours(seed), original(seed, args.original, args.player, args.timeout)
        print(_row(str(seed), mine, theirs), flush=True)
        mine_total, theirs_total = mine_total + mine, theirs_total + theirs
    print(_row("total", mine_total, theirs_total))
    print(f"ours (mj arena, in-process): {mine_total.per_second:.1f} hands per CPU-second")
    print(f"original (mj-server + 4 mj-player): {theirs_total.per_second:.1f} hands per CPU-second")
    print(f"ours / original: {mine_total.per_second / theirs_total.per_second:.2f}")


def ours_alone(args: argparse.Namespace) -> int:
    """Another rule system than classical: our arena's figures only."""
    try:
        registry.get(args.rules)
    except registry.RulesError as exc:
        print(f"mj bench arena: {exc}", file=sys.stderr)
        return 2
    print(f"hands per CPU-second on one core, four default robots, our arena, {args.rules} rules")
    total = Measured(0, 0.0)
    for seed in args.seeds:
        mine = ours(seed, args.rules)
        print(f"seed {seed}: {mine.hands} hands in {mine.cpu:.3f} CPU s", flush=True)
        total = total + mine
    print(f"ours (mj arena, in-process): {total.per_second:.1f} hands per CPU-second")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.rules != registry.DEFAULT_NAME:
        return ours_alone(args)
    return versus.run("arena", args, compare)
