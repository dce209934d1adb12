"""`mj bench` runs every registered benchmark and lists them when given no name."""

from __future__ import annotations

import re

import pytest

from mj.bench import BENCHMARKS
from mj.cli import main

#: The smallest run of each benchmark that still prints its figures.
TINY = {
    "score": ["--hands", "20", "--rounds", "2"],
    "shanten": ["--hands", "20", "--passes", "2"],
}


def test_every_benchmark_has_a_tiny_run() -> None:
    assert set(TINY) == set(BENCHMARKS)


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_benchmark_prints_a_rate(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", name, *TINY[name]]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\d[\d,]*( per second)?$", out, re.MULTILINE), out


def test_score_benchmark_counts_its_scorings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "score", "--hands", "5", "--rounds", "3", "--seed", "2"]) == 0
    assert re.fullmatch(r"15 hand scorings in \d+\.\d{3} s: [\d,]+ per second\n", capsys.readouterr().out)


def test_bench_without_a_name_lists_the_benchmarks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(BENCHMARKS)
