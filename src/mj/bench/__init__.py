"""Micro-benchmarks of hot paths, run as ``mj bench <name> [options]``.

Each benchmark is one module of this package with two functions:

* ``add_arguments(parser)`` adds its options to its ``mj bench <name>`` parser;
* ``run(args) -> int`` runs it with the parsed options, prints its figures and
  returns the exit status.

Adding a benchmark is adding its module and one line to :data:`BENCHMARKS`.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Final, Protocol, cast


class Benchmark(Protocol):
    """What ``mj bench`` needs from a benchmark module (its docstring's first line is its summary)."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


#: Benchmark name -> the module implementing it, in the order ``mj bench`` lists them.
BENCHMARKS: Final[dict[str, str]] = {
    "score": "mj.bench.score",
    "shanten": "mj.bench.shanten",
    "wild": "mj.bench.wild",
    "server": "mj.bench.server",
    "arena": "mj.bench.arena",
    "fuzz": "mj.bench.fuzz",
    "lobby": "mj.bench.lobby",
    "simulate": "mj.bench.simulate",
}


def load(name: str) -> Benchmark:
    """The module of benchmark ``name`` (a key of :data:`BENCHMARKS`)."""
    return cast(Benchmark, importlib.import_module(BENCHMARKS[name]))


def summary(benchmark: Benchmark) -> str:
    """The first line of a benchmark's docstring: what it measures."""
    return (benchmark.__doc__ or "").strip().partition("\n")[0]
