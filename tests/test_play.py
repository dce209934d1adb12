"""``make play`` (``xmj``, also ``mj play``) starts a whole local game around the person's seat.

The browser client's own tests are in ``test_web*.py``; here: the command line, the
seat left to another client (``--client none``), and that ending it ends every child.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from conftest import ORIGINAL_PLAYER, ORIGINAL_XMJ, require_original
from test_web import browser_tab, run


def test_a_local_game_runs_to_the_end_with_someone_in_the_free_seat(tmp_path: Path) -> None:
    require_original(ORIGINAL_PLAYER)
    sock = tmp_path / "play.sock"
    play = subprocess.Popen(
        [sys.executable, "-m", "mj.cli", "play", "--client", "none", "--server", str(sock), "--name", "Guest",
         "--", "--timeout", "0", "--seed", "5", "--exit-on-disconnect"],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    person = None
    try:
        assert play.stdout is not None
        banner = [play.stdout.readline() for _ in range(2)]
        assert "your seat is waiting" in banner[0]
        assert f"--server {sock}" in banner[1]
        # an original robot stands in for the person at the free seat
        person = subprocess.Popen([ORIGINAL_PLAYER, "--server", str(sock), "--name", "Guest"])
        assert person.wait(timeout=120) == 0  # the robot leaves at GameOver
        assert play.wait(timeout=30) == 0
    finally:
        for process in (person, play):
            if process is not None and process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGKILL)
                process.wait()
    assert not sock.exists()


def test_stopping_the_local_game_stops_the_server_and_robots_too(tmp_path: Path) -> None:
    sock = tmp_path / "play.sock"
    play = subprocess.Popen(
        [sys.executable, "-m", "mj.cli", "play", "--client", "none", "--server", str(sock)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert play.stdout is not None
        assert "your seat is waiting" in play.stdout.readline()
        play.send_signal(signal.SIGTERM)
        assert play.wait(timeout=30) == 128 + signal.SIGTERM
        assert not sock.exists()  # the server was ended and cleaned up, not orphaned
    finally:
        if play.poll() is None:
            os.kill(play.pid, signal.SIGKILL)
            play.wait()


@pytest.mark.parametrize("how", ["SIGTERM to xmj", "Ctrl-C in its terminal"])
def test_the_main_command_serves_the_seat_in_the_browser_and_ends_its_children_quietly(
    tmp_path: Path, how: str
) -> None:
    sock = tmp_path / "play.sock"
    play = subprocess.Popen(
        [sys.executable, "-m", "mj.cli", "play", "--no-browser", "--server", str(sock), "--", "--timeout", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,  # a terminal of its own: Ctrl-C there reaches every process of its group
    )
    try:
        assert play.stdout is not None and play.stderr is not None
        found = re.search(r"your seat at (\S+) is at (http://\S+/)\?session=(\S+)", play.stdout.readline())
        assert found and found[1] == str(sock)
        with urllib.request.urlopen(found[2], timeout=10) as page:
            assert b"<title>xmj" in page.read()

        async def robots_seated() -> None:
            async with browser_tab(found[2], found[3]) as tab:
                await tab.until(lambda state: len(state["players"]) == 4)

        run(robots_seated())
        assert sock.exists()
        if how == "SIGTERM to xmj":
            play.send_signal(signal.SIGTERM)
        else:
            os.killpg(play.pid, signal.SIGINT)
        assert play.wait(timeout=30) == 0
        assert not sock.exists()  # the server was ended and cleaned up, not orphaned
        # the robots are ended before the server: none complains that the server closed its connection
        assert play.stderr.read() == ""
    finally:
        if play.poll() is None:
            os.kill(play.pid, signal.SIGKILL)
            play.wait()


def test_the_original_xmj_without_a_display_is_refused_in_one_line_before_anything_starts(tmp_path: Path) -> None:
    require_original(ORIGINAL_XMJ)
    sock = tmp_path / "play.sock"
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    play = subprocess.run(
        [sys.executable, "-m", "mj.cli", "play", "--client", "xmj", "--server", str(sock)],
        capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip
    assert play.returncode == 1
    assert play.stdout == ""  # no server announced: nothing was started
    assert play.stderr.splitlines() == [
        "xmj: --client xmj opens the original GTK xmj, which needs an X display, and DISPLAY is not set"
        " (without --client, xmj serves the game to your browser)"
    ]
    assert not sock.exists()


def test_a_bad_server_option_is_one_line_from_xmj_not_the_servers_usage(tmp_path: Path) -> None:
    play = subprocess.run(
        [sys.executable, "-m", "mj.cli", "play", "--no-browser", "--server", str(tmp_path / "play.sock"),
         "--", "--timeout", "-5"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert play.returncode == 1
    assert play.stderr.splitlines() == [
        "xmj: could not start a local game: the server did not start: "
        "argument --timeout: expected a whole number of at least 0, not '-5'"
    ]


def test_the_servers_warnings_while_it_starts_are_passed_on_once_it_has_started(tmp_path: Path) -> None:
    options = tmp_path / "one-round.opt"
    options.write_text("GameOption 0 NumRounds nat 0 1 1 number of rounds to play\nnot an option line\n")
    play = subprocess.Popen(
        [sys.executable, "-m", "mj.cli", "play", "--no-browser", "--server", str(tmp_path / "play.sock"),
         "--", "--option-file", str(options)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert play.stdout is not None and play.stderr is not None
        assert "your seat at" in play.stdout.readline()
        play.send_signal(signal.SIGTERM)
        assert play.wait(timeout=30) == 0
        warnings = play.stderr.read().splitlines()
        assert len(warnings) == 1 and warnings[0].startswith("+W+ ") and "not an option line" in warnings[0]
    finally:
        if play.poll() is None:
            os.kill(play.pid, signal.SIGKILL)
            play.wait()
