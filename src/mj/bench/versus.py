"""What the benchmarks that also measure the original programs share: their options, and running them.

``mj bench server`` and ``mj bench arena`` play seeded games on the original
programs as well as ours, so both take the same ``--seeds --original --player
--timeout`` options, need the Debian package installed, and stop with one line
when an original game does not finish.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Final

from mj.original import PLAYER as ORIGINAL_PLAYER
from mj.original import SERVER as ORIGINAL_SERVER
from mj.seeds import parse_seeds

DEFAULT_SEEDS: Final = "1001-1003"


class BenchError(Exception):
    """A game that did not finish: no figures for it."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the games played on both systems."""
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds(DEFAULT_SEEDS),
                        help=f"seeds of the games, e.g. 1-5,9 (default {DEFAULT_SEEDS})")  # fmt: skip
    parser.add_argument("--original", default=ORIGINAL_SERVER, help=f"the original server (default {ORIGINAL_SERVER})")
    parser.add_argument("--player", default=ORIGINAL_PLAYER, help=f"the original robot (default {ORIGINAL_PLAYER})")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds allowed for one game (default 300)")


def run(name: str, args: argparse.Namespace, compare: Callable[[argparse.Namespace], None]) -> int:
    """Run benchmark ``name``'s ``compare``: 2 if the original programs are missing, 1 if a game failed."""
    missing = [p for p in (args.original, args.player) if not os.access(p, os.X_OK)]
    if missing:
        print(f"mj bench {name}: not installed: {', '.join(missing)} (apt-get install mah-jong)", file=sys.stderr)
        return 2
    try:
        compare(args)
    except BenchError as exc:
        print(f"mj bench {name}: {exc}", file=sys.stderr)
        return 1
    return 0
