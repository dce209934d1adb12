"""The original graphical client ``xmj`` joins a game on our ``mj-server`` (protocol.md §11.3, §15).

``xmj`` runs on a virtual X display (``xvfb-run``, Debian packages ``xvfb`` and
``xauth``) next to three original robots. Nobody clicks, so the game stops at the
first ``Pause``; what is checked, from our server's log, is the handshake of
``logs/xmj-connect-capture.txt``: xmj's ``Connect``, its ``ConnectReply``, the
``Game`` message with the options, and xmj's own requests after them. Every
process is killed by its PID (xvfb-run, Xvfb and xmj as the process group xvfb-run
leads), whatever happened, and every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import ORIGINAL_PLAYER, ORIGINAL_XMJ, OUR_SERVER, original_required, require_original
from mj.server.robotgame import announced_address, wait_for_text

#: Starting an X server and GTK takes a while on a loaded machine.
XMJ_START = 60.0
#: The 24 options of a default game (§5.1), as every player gets them after ``Game``.
OPTION_COUNT = 24


def require_xvfb_run() -> str:
    """The path of ``xvfb-run`` (which needs ``xauth``): skipped if missing, failed under ``MJ_REQUIRE_ORIGINAL=1``."""
    found = {program: shutil.which(program) for program in ("xvfb-run", "xauth")}
    xvfb_run = found["xvfb-run"]
    if xvfb_run is not None and found["xauth"] is not None:
        return xvfb_run
    missing = ", ".join(program for program, path in found.items() if path is None)
    message = f"not installed: {missing} (apt-get install xvfb xauth)"
    if original_required():
        pytest.fail(f"{message}; MJ_REQUIRE_ORIGINAL is set", pytrace=False)
    pytest.skip(message)


def end_group(leader: subprocess.Popen[bytes]) -> None:
    """End the process group ``leader`` leads: politely first, so that Xvfb removes its lock files."""
    for signum, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(leader.pid, signum)
        with contextlib.suppress(subprocess.TimeoutExpired):
            leader.wait(timeout=grace)
            return


def option_lines(log: str, connection: int, after: str) -> list[str]:
    """The texts of the ``GameOption`` lines sent to ``connection`` right after the log line ``after``."""
    assert after + "\r\n" in log, f"not logged: {after!r}"
    rest = log.split(after + "\r\n", 1)[1]
    mine = [line for line in rest.split("\r\n") if line.startswith(f">cnx{connection} ")]
    options = []
    for line in mine:
        text = line.split(" ", 1)[1]
        if not text.startswith("GameOption 0 "):
            break
        options.append(text)
    return options


def test_xmj_connects_and_is_given_the_game_and_its_options(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    require_original(ORIGINAL_PLAYER, ORIGINAL_XMJ)
    xvfb_run = require_xvfb_run()
    logfile = tmp_path / "game.log"
    with (tmp_path / "server.out").open("wb") as out, (tmp_path / "server.err").open("wb") as err:
        server = subprocess.Popen(
            [*OUR_SERVER, "--server", "sock", "--seed", "5", "--logfile", "game.log"],
            cwd=tmp_path,
            stdout=out,
            stderr=err,
        )
    processes.append(server)
    assert wait_for_text(tmp_path / "server.out", b"\n", time.monotonic() + 20, server)
    assert announced_address((tmp_path / "server.out").read_text()) == "sock"
    for number in (1, 2, 3):
        processes.append(
            subprocess.Popen(
                [ORIGINAL_PLAYER, "--server", "sock", "--name", f"Robot{number}"],
                cwd=tmp_path,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        assert wait_for_text(logfile, f"ConnectReply 1110 {number} ".encode(), time.monotonic() + 20, server)

    # -f: the X authority file in our directory, not in a temporary one xvfb-run would leave behind
    xvfb = [xvfb_run, "-a", "-f", str(tmp_path / "Xauthority")]
    with (tmp_path / "xmj.out").open("wb") as out, (tmp_path / "xmj.err").open("wb") as err:
        xmj = subprocess.Popen(
            [*xvfb, ORIGINAL_XMJ, "--connect", "--server", "sock", "--name", "Human"],
            cwd=tmp_path,
            env={**os.environ, "HOME": str(tmp_path)},  # xmj writes its ~/.xmjrc
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
    try:
        seen = wait_for_text(logfile, b"<cnx4 ListGameOptions 0\r\n", time.monotonic() + XMJ_START, server)
        assert seen, f"xmj never asked for the options; its stderr: {(tmp_path / 'xmj.err').read_text()[-1000:]!r}"
        # the answer to ListGameOptions is written in the same step as the request
        log = logfile.read_bytes().decode("latin-1")
    finally:
        end_group(xmj)
    assert server.poll() is None, "the server keeps waiting for the human"

    assert "<cnx4 Connect 1110 0 Human\r\n>cnx4 ConnectReply 1110 4 \r\n" in log
    assert ">cnx4 Player 1 Robot1\r\n>cnx1 Player 4 Human\r\n" in log
    # the game starts when xmj, the fourth player, is seated; the only human, it is the manager (§5.4)
    options = option_lines(log, 4, ">cnx4 Game 1 2 3 4 E 0 1 0 0 0 0 1110 4")
    assert len(options) == OPTION_COUNT and options[-1] == "GameOption 0 End bool 0 1 1 end of option list"
    assert options[0] == "GameOption 0 Timeout nat 0 1 15 time limit for claims"
    assert "<cnx4 SetPlayerOption DelayTime 0 5 \r\n>cnx4 PlayerOptionSet DelayTime 1 5 \r\n" in log
    assert "<cnx4 SetPlayerOption LocalTimeouts 0 1 \r\n" in log
    assert option_lines(log, 4, "<cnx4 ListGameOptions 0") == options
    assert ">cnx1 Pause 0 0 to start hand\r\n>cnx1 StartPlay 0\r\n" in log
