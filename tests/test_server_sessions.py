"""``mj-server`` sessions with the original robots: rejoining, save and resume, ending on a lost player, passwords.

Each test runs our server (``python -m mj.server``) in its own directory, on the
Unix socket ``sock`` there, with original ``mj-player`` robots (protocol.md §6.5,
§10, §11.2): a robot is killed in the middle of a game and the server must do what
the original does with the options given. Every process is killed by its PID at
the end, whatever happened, and every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ORIGINAL_PLAYER, OUR_SERVER, require_original
from mj.cli import main as mj
from mj.server.robotgame import announced_address, kill, wait_for_text

#: A whole game of robots takes a few seconds; this is for a loaded machine.
GAME_TIME = 60.0
#: Tile movements 0.1 s apart (``--pause``, not saved): a robot killed after the third discard is surely
#: killed in the first hand, even if the test is slow to notice that discard.
SLOW = ("--pause", "1")


class Lab:
    """One server and its robots in ``workdir``; :meth:`stop` kills them all by PID."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.processes: list[subprocess.Popen[bytes]] = []
        self.server: subprocess.Popen[bytes] | None = None
        self.logfile = workdir / "game.log"
        self.runs = 0

    def start_server(self, *arguments: str, logfile: str = "game.log") -> subprocess.Popen[bytes]:
        """Our server on ``sock`` logging to ``logfile``, once it has printed ``OK: sock``."""
        self.runs += 1
        self.logfile = self.workdir / logfile
        out = self.workdir / f"server{self.runs}.out"
        with out.open("wb") as stdout, (self.workdir / f"server{self.runs}.err").open("wb") as stderr:
            server = subprocess.Popen(
                [*OUR_SERVER, "--server", "sock", "--logfile", logfile, *arguments],
                cwd=self.workdir,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
            )
        self.processes.append(server)
        self.server = server
        assert wait_for_text(out, b"\n", time.monotonic() + 20, server), self.stderr()
        assert announced_address(out.read_text()) == "sock"
        return server

    def robot(self, name: str, *options: str) -> subprocess.Popen[bytes]:
        """An original robot connecting to our server as ``name`` (options of protocol.md §11.2)."""
        with (self.workdir / f"{name}.err").open("ab") as stderr:
            robot = subprocess.Popen(
                [ORIGINAL_PLAYER, "--server", "sock", "--name", name, *options],
                cwd=self.workdir,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        self.processes.append(robot)
        return robot

    def seat_robots(self, *options_of: tuple[str, ...]) -> list[subprocess.Popen[bytes]]:
        """Robot1..Robot4 in turn, each once the previous one has its id: ids and seats are 1..4."""
        robots = []
        for number, options in enumerate(options_of or [()] * 4, start=1):
            robots.append(self.robot(f"Robot{number}", *options))
            self.wait_log(f"ConnectReply 1110 {number} ".encode())
        return robots

    def log(self) -> bytes:
        return self.logfile.read_bytes() if self.logfile.exists() else b""

    def wait_log(self, needle: bytes, count: int = 1, timeout: float = 20.0) -> None:
        """Until the log holds ``needle`` ``count`` times; fails on timeout or if the server exits first."""
        deadline = time.monotonic() + timeout
        while self.log().count(needle) < count:
            assert self.server is not None and self.server.poll() is None, f"server exited: {self.stderr()}"
            assert time.monotonic() < deadline, f"{needle!r} not logged {count} times; log ends {self.log()[-600:]!r}"
            time.sleep(0.005)

    def wait_exits(self, *processes: subprocess.Popen[bytes], timeout: float = GAME_TIME) -> list[int]:
        """The exit statuses of ``processes``, which must all end before the deadline."""
        deadline = time.monotonic() + timeout
        return [p.wait(timeout=max(0.1, deadline - time.monotonic())) for p in processes]

    def stdout(self) -> str:
        return (self.workdir / f"server{self.runs}.out").read_text()

    def stderr(self) -> str:
        path = self.workdir / f"server{self.runs}.err"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def stop(self) -> None:
        for process in self.processes:
            kill(process)


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    require_original()
    started = Lab(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def replay_verdict(logfile: Path) -> str:
    """What ``mj replay LOGFILE`` prints (it must also exit 0)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = mj(["replay", str(logfile)])
    assert status == 0, out.getvalue()
    return out.getvalue()


# ---------------------------------------------------------------------- a lost robot comes back


def test_a_robot_that_lost_its_connection_rejoins_and_the_game_is_finished(lab: Lab) -> None:
    """Default settings: the game is suspended, the robot rejoins with ``--id 2`` and play goes on (§10.4, §10.5)."""
    server = lab.start_server("--seed", "1002")
    robot1, robot2, robot3, robot4 = lab.seat_robots()
    lab.wait_log(b" PlayerDiscards ", count=3)  # of some 1000 in this game
    kill(robot2)
    lab.wait_log(b" StopPlay Lost connection to player 2; game suspended\r\n")
    assert server.poll() is None, "without --exit-on-disconnect the server waits for the player"

    again = lab.robot("Robot2", "--id", "2")
    lab.wait_log(b" ConnectReply 1110 2 \r\n", count=2)
    assert lab.wait_exits(robot1, again, robot3, robot4) == [0, 0, 0, 0]
    assert lab.wait_exits(server, timeout=10) == [0]
    log = lab.log()
    assert b"<cnx2 (null)" in log
    rejoined = log.split(b"<cnx2 Connect 1110 2 Robot2\r\n")[1]
    assert b">cnx2 Game 1 2 3 4 " in rejoined
    assert re.search(rb">cnx[1-4] Pause 0 0 to (continue play|start hand)\r\n", rejoined)
    assert rejoined.count(b" GameOver\r\n") == 1
    assert "Game over. Final scores:" in lab.stdout()
    verdict = replay_verdict(lab.logfile)
    assert verdict.endswith("identical\n"), verdict


# ---------------------------------------------------------------------- saved on exit, loaded, finished


def test_a_game_saved_on_a_lost_robot_is_loaded_and_finished_by_a_new_server(lab: Lab) -> None:
    """``--exit-on-disconnect --save-on-exit`` writes ``game-DATE-0.mjs``; ``--load-game`` of it plays on (§10)."""
    first = lab.start_server("--seed", "1003", "--timeout", "0", "--exit-on-disconnect", "--save-on-exit", *SLOW)
    robots = lab.seat_robots()
    lab.wait_log(b" PlayerDiscards ", count=3)
    kill(robots[1])
    assert lab.wait_exits(first, timeout=20) == [0], lab.stderr()
    assert b" StopPlay Lost connection to player 2quitting\r\n" in lab.log()
    saved = [p.name for p in lab.workdir.glob("game-*.mjs")]
    assert saved == [f"game-{time.strftime('%Y-%m-%d')}-0.mjs"], sorted(p.name for p in lab.workdir.iterdir())
    assert b" Settlement " not in lab.log(), "precondition: saved in the first hand (seed 1003: 52 discards)"
    text = (lab.workdir / saved[0]).read_bytes()
    assert text.startswith(b"Player 1 Robot1\r\nPlayer 2 Robot2\r\nPlayer 3 Robot3\r\nPlayer 4 Robot4\r\nGame ")
    assert b"\r\n# CompletedRounds      0\r\n" in text
    assert b"\r\nGameOption 0 End bool 0 1 1 end of option list\r\nWall " in text, "the wall of the hand in progress"
    assert b"\r\nNewHand " in text and text.count(b"\r\nPlayerDiscards ") >= 3, "and the hand so far"
    for robot in robots:
        kill(robot)

    second = lab.start_server("--timeout", "0", "--exit-on-disconnect", "--load-game", saved[0], logfile="resumed.log")
    robots = lab.seat_robots()
    assert lab.wait_exits(*robots) == [0, 0, 0, 0]
    assert lab.wait_exits(second, timeout=10) == [0], lab.stderr()
    log = lab.log()
    assert log.startswith(b"<cnx1 Connect 1110 0 Robot1\r\n>cnx1 ConnectReply 1110 1 \r\n"), "seated by name"
    assert b" Pause 0 0 to continue play\r\n" in log
    assert log.count(b" GameOver\r\n") == 1
    assert "Game over. Final scores:" in lab.stdout()
    verdict = replay_verdict(lab.logfile)
    assert verdict.endswith("identical\n"), verdict


# ---------------------------------------------------------------------- --end-on-disconnect with penalties


def test_a_robot_lost_in_mid_hand_ends_the_game_with_its_penalty(lab: Lab) -> None:
    """``--end-on-disconnect --disconnect-penalties 100,50,25``: the hand is abandoned, Robot2 loses 100 (§10.5)."""
    server = lab.start_server(
        *["--seed", "1001", "--timeout", "0", "--end-on-disconnect", "--disconnect-penalties", "100,50,25", *SLOW]
    )
    robots = lab.seat_robots()
    lab.wait_log(b" PlayerDiscards ", count=3)
    kill(robots[1])
    assert lab.wait_exits(server, timeout=20) == [0], lab.stderr()
    log = lab.log()
    before = log.split(b"<cnx2 (null)")[0]
    assert b" Settlement " not in before, "precondition: the robot was lost in the first hand (seed 1001: 58 discards)"
    after = log.split(b"<cnx2 (null)")[1]
    assert after.startswith(b">cnx1 WashOut Lost a player\r\n")
    assert b">cnx1 Message 0 0 Lost connection to player 2 - ending game\r\n>cnx1 GameOver\r\n" in after
    assert lab.stdout().endswith(
        "Game over. Final scores:\n"
        "    2 (Robot2              )   -100\n"
        "    3 (Robot3              )      0\n"
        "    4 (Robot4              )      0\n"
        "    1 (Robot1              )      0\n"
    ), lab.stdout()


# ---------------------------------------------------------------------- --auth-basic


AUTH = ("--auth-basic", "1:secret", "--auth-basic", "2:", "--auth-basic", "3:three", "--auth-basic", "4:four")


def test_robots_with_their_passwords_play_and_a_wrong_password_is_refused(lab: Lab) -> None:
    """``--auth-basic ID:PASSWORD`` four times (§6.5); an empty password needs none."""
    server = lab.start_server("--seed", "1004", "--timeout", "0", "--exit-on-disconnect", *AUTH)
    guesser = lab.robot("Guesser", "--id", "1", "--password", "guess")
    lab.wait_log(b"<cnx1 AuthInfo basic guess\r\n>cnx1 ConnectReply 1110 0 Authentication failure\r\n")
    assert lab.wait_exits(guesser, timeout=10) == [1], "refused and cut off, the robot gives up"

    robots = lab.seat_robots(
        ("--id", "1", "--password", "secret"),
        ("--id", "2"),
        ("--id", "3", "--password", "three"),
        ("--id", "4", "--password", "four"),
    )
    assert lab.wait_exits(*robots) == [0, 0, 0, 0]
    assert lab.wait_exits(server, timeout=10) == [0], lab.stderr()
    log = lab.log()
    assert log.count(b" GameOver\r\n") == 1
    assert b"AuthReqd" not in log, "the password request is not logged"
    assert b"<cnx1 Connect 1110 1 Robot1\r\n<cnx1 AuthInfo basic secret\r\n>cnx1 ConnectReply 1110 1 \r\n" in log
    assert b"<cnx2 Connect 1110 2 Robot2\r\n>cnx2 ConnectReply 1110 2 \r\n" in log


def test_an_id_not_listed_is_refused_and_cut_off(lab: Lab) -> None:
    lab.start_server("--timeout", "0", *AUTH)
    stranger = lab.robot("Stranger", "--id", "7", "--password", "secret")
    lab.wait_log(
        b"<cnx1 Connect 1110 7 Stranger\r\n<cnx1 AuthInfo basic secret\r\n"
        b">cnx1 ConnectReply 1110 0 Authentication failure\r\n"
    )
    assert lab.wait_exits(stranger, timeout=3) == [1], "refused and cut off, the robot gives up"
