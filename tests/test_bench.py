"""`mj bench` runs every registered benchmark and lists them when given no name."""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import require_original
from mj import compiled
from mj.bench import BENCHMARKS
from mj.bench.simulate import shares
from mj.cli import main
from mj.seeds import parse_seeds

#: The smallest run of each benchmark that still prints its figures.
TINY = {
    "score": ["--hands", "20", "--rounds", "2"],
    "shanten": ["--hands", "20", "--passes", "2"],
    "wild": ["--hands", "20", "--passes", "2"],
    "simulate": ["--hands", "5"],
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
    build, scorings = capsys.readouterr().out.splitlines()
    assert build == compiled.describe(), "every benchmark first says how the hot modules run"
    assert re.fullmatch(r"15 hand scorings in \d+\.\d{3} s: [\d,]+ per second", scorings)


def test_score_benchmark_scores_the_hands_by_the_ims_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "score", "--rules", "ims", "--hands", "5", "--rounds", "3", "--seed", "2"]) == 0
    _, scorings = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"15 IMS hand scorings in \d+\.\d{3} s: [\d,]+ per second", scorings)


def test_bench_without_a_name_lists_the_benchmarks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(BENCHMARKS)


# ---------------------------------------------------------------------- mj bench server: needs the original programs

TINY["server"] = ["--seeds", "1001"]
#: A row of ``mj bench server``: seed, hands, ms per hand (original, ours) and ratio, the same without start-up,
#: wall seconds (original, ours).
SERVER_ROW = re.compile(
    r" *(\w+) +(\d+)" + r" +(\d+\.\d\d) +(\d+\.\d\d) +(\d+\.\d)" * 2 + r" +(\d+\.\d\d) +(\d+\.\d\d)"
)


@pytest.fixture(autouse=True)
def _the_server_benchmark_plays_original_robots(request: pytest.FixtureRequest) -> None:
    """``test_benchmark_prints_a_rate[server]`` is skipped like other tests needing the originals (conftest)."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("name") == "server":
        require_original()


def test_server_benchmark_prints_cpu_per_hand_of_both_servers(capsys: pytest.CaptureFixture[str]) -> None:
    require_original()
    assert main(["bench", "server", "--seeds", "1001", "--repeat", "2"]) == 0
    build, *lines = capsys.readouterr().out.splitlines()
    assert build == compiled.describe()
    assert lines[0].endswith("over a Unix socket, medians of 2 runs")
    assert re.fullmatch(r"start-up alone, included below: original \d+ ms, ours \d+ ms", lines[1])
    assert " ".join(lines[2].split()) == (
        "seed hands original ms/hand ours ms/hand ours/original"
        " steady original steady ours steady ratio original s ours s"
    )
    *table, kernel = lines[3:]
    rows = [SERVER_ROW.fullmatch(line) for line in table]
    assert [row[1] if row else None for row in rows] == ["1001", "total"]
    seed, total = (row.groups()[1:] for row in rows if row)
    assert seed == total
    hands, original, ours, ratio, steady_original, steady_ours, steady_ratio = (
        int(seed[0]), *(float(x) for x in seed[1:7])
    )  # fmt: skip
    assert hands == 21, "seed 1001's game has 21 hands (tests/data/original/seed1001-default.log.gz)"
    assert original > 0 and ours > 0
    assert ratio == pytest.approx(ours / original, abs=0.06)
    assert 0 < steady_ours < ours, "without our start-up, each hand costs less"
    assert steady_ratio == pytest.approx(steady_ours / steady_original, abs=0.06)
    system = re.fullmatch(
        r"of which system time \(the kernel's part, start-up included\):"
        r" original (\d+\.\d\d) ms/hand, ours (\d+\.\d\d) ms/hand",
        kernel,
    )
    assert system, kernel
    assert float(system[1]) <= original and float(system[2]) <= ours


#: The measuring wrapper, slowed down just after it starts the server (where a busy machine may pause it).
SLOW_WRAPPER = """
import subprocess, sys, time
from pathlib import Path
from mj.bench.server import measure_child

class SlowPopen(subprocess.Popen):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        time.sleep(1)

subprocess.Popen = SlowPopen
sys.exit(measure_child(Path(sys.argv[1]), sys.argv[2:]))
"""


def test_a_server_stopped_as_soon_as_it_listens_still_has_its_cpu_time_measured(tmp_path: Path) -> None:
    """The harness stops a start-up with SIGTERM once the OK line is out: however soon, the figures are written."""
    out, cpu = tmp_path / "out", tmp_path / "cpu"
    server = ["sh", "-c", f"echo OK > {out}; exec sleep 30"]
    with subprocess.Popen([sys.executable, "-c", SLOW_WRAPPER, str(cpu), *server]) as wrapper:
        deadline = time.monotonic() + 10
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        wrapper.send_signal(signal.SIGTERM)  # while the wrapper is still starting the server
        assert wrapper.wait(timeout=10) == 128 + signal.SIGTERM, "the server was ended by the SIGTERM passed on"
    user, system = (float(x) for x in cpu.read_text().split())
    assert 0 <= user + system < 1


@pytest.mark.parametrize("repeat", ["0", "-1", "x"])
def test_server_benchmark_refuses_a_repeat_below_one(repeat: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["bench", "server", "--repeat", repeat])
    assert stopped.value.code == 2
    assert f"argument --repeat: expected a whole number of at least 1, not {repeat!r}" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (["score", "--hands", "-1"], "argument --hands: expected a whole number of at least 1, not '-1'"),
        (["score", "--rounds", "0"], "argument --rounds: expected a whole number of at least 1, not '0'"),
        (["shanten", "--hands", "0"], "argument --hands: expected a whole number of at least 1, not '0'"),
        (["shanten", "--passes", "1"], "argument --passes: expected a whole number of at least 2, not '1'"),
        (["wild", "--hands", "-5"], "argument --hands: expected a whole number of at least 1, not '-5'"),
        (["wild", "--passes", "x"], "argument --passes: expected a whole number of at least 2, not 'x'"),
        (["fuzz", "--lines", "0"], "argument --lines: expected a whole number of at least 1, not '0'"),
        (["simulate", "--hands", "0"], "argument --hands: expected a whole number of at least 1, not '0'"),
        (["simulate", "--jobs", "-2"], "argument --jobs: expected a whole number of at least 0, not '-2'"),
        (["lobby", "--seconds", "-1"], "argument --seconds: must be from 1 to 3600 seconds: '-1'"),
        (["lobby", "--think", "0"], "argument --think: must be from 0.01 to 600 seconds: '0'"),
        (["lobby", "--level", "7"], "argument --level: invalid choice: 7 (choose from 1, 2, 3)"),
    ],
)
def test_a_benchmark_setting_out_of_range_is_a_usage_error_before_anything_is_measured(
    arguments: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--hands -1`` once printed a negative rate, ``--passes 1`` ran two passes, a lobby of level 7 held nothing."""
    with pytest.raises(SystemExit) as stopped:
        main(["bench", *arguments])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert f"mj bench {arguments[0]}: error: {error}" in captured.err
    assert captured.out == ""


def test_server_benchmark_seeds_are_lists_and_ranges() -> None:
    assert parse_seeds("1003,1001-1002,1002") == [1001, 1002, 1003]
    for bad in ("", "0", "5-3", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_seeds(bad)


# ---------------------------------------------------------------------- mj bench arena: needs the original programs
# (its figures are checked in tests/test_arena.py)

TINY["arena"] = ["--seeds", "1001"]
TINY["fuzz"] = ["--lines", "3000"]


@pytest.fixture(autouse=True)
def _the_arena_benchmark_plays_original_robots(request: pytest.FixtureRequest) -> None:
    """``test_benchmark_prints_a_rate[arena]`` also plays the original system, so it is skipped likewise."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("name") == "arena":
        require_original()


# ---------------------------------------------------------------------- mj bench lobby: a lobby and simulated people

TINY["lobby"] = ["--tables", "1", "--seconds", "3", "--think", "0.1"]


def test_lobby_benchmark_reports_latency_percentiles_and_the_tables_held(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "lobby", "--tables", "1,2", "--seconds", "4", "--think", "0.1", "--target", "100000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:6] == ["tables", "moving", "moves", "p50", "ms", "p90"]
    steps = [line.split() for line in lines[2:-1]]
    assert [(int(step[0]), int(step[1])) for step in steps] == [(1, 1), (2, 2)]
    assert all(int(step[2]) > 0 and 0 < float(step[3]) <= float(step[5]) <= float(step[6]) for step in steps)
    assert lines[-1] == "tables held with p99 move latency under 100000 ms: 2"


def test_lobby_benchmark_refuses_a_bad_list_of_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "lobby", "--tables", "8,4"]) == 2
    assert "increasing" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("place", "error"),
    [
        ("missing/profile", "no directory {tmp}/missing"),
        (".", "not a regular file"),
    ],
)
def test_lobby_benchmark_refuses_a_profile_it_could_not_write_before_it_plays(
    place: str, error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The profile was written after the whole run: a place it could not go ended the run in a traceback."""
    path = tmp_path / place
    assert main(["bench", "lobby", "--tables", "1", "--seconds", "1", "--profile", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"mj bench lobby: --profile {path}: {error.format(tmp=tmp_path)}\n"
    assert "tables moving" not in captured.out


def test_simulate_benchmark_refuses_an_unknown_rule_system(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "simulate", "--rules", "nonsense", "--hands", "5"]) == 2
    assert "unknown rule system 'nonsense'" in capsys.readouterr().out


def test_simulate_benchmark_shares_the_hands_among_its_processes() -> None:
    assert shares(10, 3) == [4, 3, 3] and shares(4, 4) == [1, 1, 1, 1]


def test_simulate_benchmark_with_jobs_plays_every_hand_and_reports_per_core_and_wall_rates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "simulate", "--rules", "ims", "--hands", "6", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "ims rules, every invariant checked at every move, 2 processes" in out
    assert re.search(r"^6 hands \(\d+ won\) in \d+ games from seed 1", out, re.MULTILINE), out
    assert re.search(r"^hands per CPU-second \(one core\): \d", out, re.MULTILINE), out
    assert re.search(r"^hands per second \(wall clock, 2 processes\): \d", out, re.MULTILINE), out


def test_simulate_benchmark_refuses_more_jobs_than_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "simulate", "--hands", "2", "--jobs", "3"]) == 2
    assert "--jobs must be 0 (one process per core) or between 1 and --hands" in capsys.readouterr().out


def test_simulate_benchmark_with_jobs_zero_plays_one_process_per_core(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert main(["bench", "simulate", "--hands", "4", "--jobs", "0"]) == 0
    assert "every invariant checked at every move, 2 processes" in capsys.readouterr().out
