"""Our server's CPU time for whole games with and without ``--journal``: what keeping the journal costs.

Run as ``python scripts/journal_cpu.py [--seeds 1001-1003] [--repeat 3]``. Each seed's
game (four original robots, ``--timeout 0``, a Unix socket) is played ``--repeat``
times by ``mj-server`` and by ``mj-server --journal journal.mjs``, in turn, with the
harness of ``mj bench server`` (the server's own user + system CPU, start-up
included, reaped by a wrapper); printed: the median per seed and their total.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from mj import original
from mj.bench.server import OURS, Measured, play
from mj.seeds import parse_seeds

VARIANTS = {"plain": (), "journal": ("--journal", "journal.mjs")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1001-1003", help="seeds of the games (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="games per seed and variant; medians (default 3)")
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    runs: dict[tuple[str, int], list[Measured]] = {}
    for _ in range(args.repeat):
        for seed in seeds:
            for name, extra in VARIANTS.items():
                runs.setdefault((name, seed), []).append(play((*OURS, *extra), seed, False, original.PLAYER, 120.0))
    for name in VARIANTS:
        cpu = {seed: statistics.median(m.cpu for m in runs[name, seed]) for seed in seeds}
        cells = "  ".join(f"{seed}: {1000 * cpu[seed]:.0f} ms ({runs[name, seed][0].hands} hands)" for seed in seeds)
        print(f"{name:8s} {cells}  total {1000 * sum(cpu.values()):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
