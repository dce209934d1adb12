"""``mj arena --jobs N``: worker processes that die, or games that cannot travel, end the run naming the game.

A game is made to fail in its worker by replacing :func:`mj.arena.runner.play_timed`
with a function of this module that fails on one game: the workers are forked (the
start method of the platform) or import this module, so they play the replacement.
Every test runs under an alarm: a run that waits for ever on a dead worker (the
defect these tests guard against) fails the test instead of hanging the suite.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from types import FrameType

import pytest

from mj import arena
from mj.arena import runner
from mj.arena.game import GameError, GameRecord, GameSetup
from mj.arena.players import PlayerSpec
from mj.arena.runner import play_timed
from mj.arena.workers import WorkerError
from mj.cli import main
from procs import children_of, group_members

SHORT = ["--option", "NumRounds=1"]
#: Seconds a test may take before the alarm fails it (its games take a second or two).
PATIENCE = 60


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"the arena still waits after {PATIENCE} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(PATIENCE)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _killed_at_seed_1_rotation_1(setup: GameSetup) -> tuple[GameRecord, float]:
    if (setup.seed, setup.rotation) == (1, 1):
        os.kill(os.getpid(), signal.SIGKILL)
    return play_timed(setup)


def _exits_at_seed_1_rotation_1(setup: GameSetup) -> tuple[GameRecord, float]:
    if (setup.seed, setup.rotation) == (1, 1):
        os._exit(3)
    return play_timed(setup)


def _fails_at_seed_1_rotation_1(setup: GameSetup) -> tuple[GameRecord, float]:
    if (setup.seed, setup.rotation) == (1, 1):
        raise GameError("seed 1 rotation 1: play stopped in hand 2")
    return play_timed(setup)


def _bug_at_seed_1_rotation_1(setup: GameSetup) -> tuple[GameRecord, float]:
    if (setup.seed, setup.rotation) == (1, 1):
        raise ValueError("a robot's bug")
    return play_timed(setup)


def _failed_command(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``mj arena`` expecting status 1 and exactly one line on stderr, which is returned."""
    assert main(["arena", *argv]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.mark.parametrize("play", [_killed_at_seed_1_rotation_1, _exits_at_seed_1_rotation_1])
def test_a_worker_that_dies_ends_the_command_naming_its_game(
    play: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner, "play_timed", play)
    error = _failed_command(["--games", "8", "--jobs", "2", *SHORT, *["level=1"] * 4], capsys)
    # Two games are in flight, one a worker: the one that died is among those named.
    assert re.fullmatch(
        r"mj arena: game failed: (seed 1 rotation 1: the worker process playing it died"
        r"|(seed \d rotation \d or )?seed 1 rotation 1( or seed \d rotation \d)?: "
        r"the worker process playing one of them died)",
        error,
    ), error
    assert multiprocessing.active_children() == [], "the other workers are stopped"


def test_a_game_error_in_a_worker_ends_the_command_as_on_one_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner, "play_timed", _fails_at_seed_1_rotation_1)
    for jobs in ("1", "2"):
        error = _failed_command(["--games", "4", "--jobs", jobs, *SHORT, *["level=1"] * 4], capsys)
        assert error == "mj arena: game failed: seed 1 rotation 1: play stopped in hand 2"


def test_a_bug_in_a_worker_is_raised_again_with_the_worker_s_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "play_timed", _bug_at_seed_1_rotation_1)
    options = arena.game_options(settings=["NumRounds=1"])
    with pytest.raises(ValueError, match="a robot's bug") as raised:
        arena.run(["level=1"] * 4, games=4, jobs=2, options=options)
    assert "in _bug_at_seed_1_rotation_1" in str(raised.value.__cause__)
    assert multiprocessing.active_children() == []


def _refuse_to_load() -> PlayerSpec:
    raise TypeError("this class cannot be built here")


class _Unloadable(PlayerSpec):
    """A player that pickles but cannot be unpickled (as a compiled class once could not)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return _refuse_to_load, ()


def test_a_game_a_worker_cannot_read_ends_the_run_naming_it() -> None:
    players = [PlayerSpec(1), PlayerSpec(1), PlayerSpec(1), _Unloadable(1)]
    options = arena.game_options(settings=["NumRounds=1"])
    with pytest.raises(WorkerError) as raised:
        arena.run(players, games=4, seed=5, jobs=2, options=options)
    # Every game fails so: the first answer names one of the two games given first.
    assert re.fullmatch(
        r"seed 5 rotation [01]: the worker process cannot read the game: TypeError: this class cannot be built here",
        str(raised.value),
    )
    assert multiprocessing.active_children() == []


def test_the_progress_display_counts_the_games_the_workers_play() -> None:
    options = arena.game_options(settings=["NumRounds=1"])
    alone = arena.run(["level=1", "level=2", "level=3", "default"], games=4, seed=3, jobs=1, options=options)
    shown = arena.run(
        ["level=1", "level=2", "level=3", "default"], games=4, seed=3, jobs=2, options=options, progress=True
    )
    assert shown.games == alone.games
    assert shown.players == alone.players


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_a_run_on_workers_with_one_line_and_status_130() -> None:
    command = [sys.executable, "-m", "mj.cli", "arena", "--games", "400", "--jobs", "2", *SHORT, *["level=1"] * 4]
    run = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # as from a terminal's shell: a suite started in the background (``pytest &``) ignores Ctrl-C,
        # and a program started with it ignored rightly keeps ignoring it
        preexec_fn=_interruptible,
    )
    try:
        # the moment the workers exist, before they could set Ctrl-C aside: one killed then left the run waiting
        while len(children_of(run.pid)) < 2 and run.poll() is None:
            time.sleep(0.001)
        os.killpg(run.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to the whole group
        out, err = run.communicate(timeout=PATIENCE)
    finally:
        run.kill()
    assert (run.returncode, out, err) == (130, "", "mj arena: interrupted\n")
    assert group_members(run.pid) == [], "the workers ended with the run"
