"""Our robots without a claim timer: a robot lost while a discard awaits claims.

With ``--timeout 0`` a claim window stays open until every other seat has answered.
When a robot's connection is lost while the window is open, the game is suspended
(protocol.md §10.5) and an answer another robot sends meanwhile is refused with
"Game not active"; neither the original server nor ours asks again on resuming,
and the original robot answers once more at ``StartPlay``. Ours must too, and the
rejoining robot must answer the open discard it learns of from the history
(§10.4), or the game waits for ever.

Robot2 and Robot3 reach the server through a :class:`Relay` that holds back their
answers to one discard, so that the scene is the same on every run: both owe that
answer when Robot2 is killed, and Robot3's reaches the server only once the game
is suspended. Every process is killed by its PID at the end, and every wait has a
deadline.
"""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from conftest import ORIGINAL_SERVER, OUR_SERVER, require_original
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.server.robotgame import announced_address, kill, wait_for_text

OUR_ROBOT = (sys.executable, "-m", "mj.robot")
#: One round is enough to go on playing after the rejoin, and keeps the test short.
ONE_ROUND = "GameOption 0 NumRounds nat 0 1 1 number of rounds to play\n"
#: For a loaded machine: a round of four robots takes a few seconds.
DEADLINE = 90.0
#: The discard whose answers are held back: the first of this serial or later by a seat not relayed.
FIRST_HELD = 3
_DISCARD = re.compile(rb"PlayerDiscards (\d) \S+ (\d+) ")
REJOIN = b" Connect %d 2 Robot2\r\n" % EXTENDED_PROTOCOL_VERSION
_ANSWER = rb"(NoClaim|Pung|Chow|Kong|MahJong) %d\b"


class Relay:
    """A socket ``name`` passing one robot's lines to the server and back, holding back its answer to one discard.

    The discard is the first one, from serial :data:`FIRST_HELD` on, by a seat other
    than ``relayed``; from the robot's answer to it on, the robot's lines are held
    until :meth:`release` (or dropped if the robot is gone first).
    """

    def __init__(self, workdir: Path, name: str, relayed: tuple[int, ...]) -> None:
        self.relayed = relayed
        self.serial: int | None = None
        self.holding = threading.Event()
        self._released = False
        self._held = b""
        self._lock = threading.Lock()
        self._server: socket.socket | None = None
        self._listener = socket.socket(socket.AF_UNIX)
        self._listener.bind(str(workdir / name))
        self._listener.listen(1)
        self._server_path = str(workdir / "sock")
        threading.Thread(target=self._run, daemon=True).start()

    def release(self) -> None:
        """Send what was held back, and pass every line from now on."""
        with self._lock:
            self._released = True
            assert self._server is not None
            self._server.sendall(self._held)

    def _run(self) -> None:
        robot, _ = self._listener.accept()
        self._listener.close()
        server = self._server = socket.socket(socket.AF_UNIX)
        server.connect(self._server_path)
        threading.Thread(target=self._down, args=(server, robot), daemon=True).start()
        self._up(robot, server)

    def _down(self, server: socket.socket, robot: socket.socket) -> None:
        """Server to robot, noting the discard to hold back answers to (before the robot can answer it)."""
        partial = b""  # a line cut by the end of a read
        with contextlib.suppress(OSError):  # the robot killed, the server gone at the end
            while data := server.recv(65536):
                lines, _, partial = (partial + data).rpartition(b"\n")
                for match in _DISCARD.finditer(lines):
                    who, serial = int(match[1]), int(match[2])
                    if self.serial is None and serial >= FIRST_HELD and who not in self.relayed:
                        self.serial = serial
                robot.sendall(data)
        _end(robot)

    def _up(self, robot: socket.socket, server: socket.socket) -> None:
        with contextlib.suppress(OSError):  # as in _down
            self._pass_up(robot, server)
        _end(server)  # the robot is gone: the server sees the connection lost; what was held is lost with it

    def _pass_up(self, robot: socket.socket, server: socket.socket) -> None:
        partial = b""
        while data := robot.recv(65536):
            lines, newline, partial = (partial + data).rpartition(b"\n")
            for line in (lines + newline).splitlines(keepends=True):
                if not self.holding.is_set() and self.serial is not None and re.match(_ANSWER % self.serial, line):
                    self.holding.set()
                with self._lock:
                    if self.holding.is_set() and not self._released:
                        self._held += line
                    else:
                        server.sendall(line)


def _end(connection: socket.socket) -> None:
    """Shut down (which wakes the other thread's ``recv``, as ``close`` alone would not), then close."""
    with contextlib.suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)
    connection.close()


class Table:
    """``server`` on ``sock`` in ``workdir``, our robots Robot1..Robot4 seated as ids 1..4 on cnx1..cnx4.

    Robot2 and Robot3 connect through :class:`Relay` sockets ``relay2`` and ``relay3``.
    """

    def __init__(self, server: Sequence[str], workdir: Path, processes: list[subprocess.Popen[bytes]]) -> None:
        self.workdir = workdir
        self.processes = processes
        self.log = workdir / "game.log"
        (workdir / "short.opt").write_text(ONE_ROUND)
        out = workdir / "server.out"
        options = ("--timeout", "0", "--seed", "1002", "--option-file", "short.opt")
        self.server = self._start([*server, "--server", "sock", "--logfile", "game.log", *options], out)
        assert wait_for_text(out, b"\n", time.monotonic() + 20, self.server), self.text("server.err")
        assert announced_address(out.read_text()) == "sock"
        self.relays = {number: Relay(workdir, f"relay{number}", (2, 3)) for number in (2, 3)}
        self.robots: dict[int, subprocess.Popen[bytes]] = {}
        for number in (1, 2, 3, 4):
            self.robots[number] = self.robot(number, via=f"relay{number}" if number in self.relays else "sock")
            self.wait_log(rb">cnx%d ConnectReply 1110 %d " % (number, number))

    def _start(self, command: list[str], stdout: Path) -> subprocess.Popen[bytes]:
        with stdout.open("ab") as out, stdout.with_suffix(".err").open("ab") as err:
            process = subprocess.Popen(command, cwd=self.workdir, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        self.processes.append(process)
        return process

    def robot(self, number: int, *options: str, via: str = "sock") -> subprocess.Popen[bytes]:
        command = [*OUR_ROBOT, "--server", via, "--name", f"Robot{number}", *options]
        return self._start(command, self.workdir / f"robot{number}.out")

    def text(self, name: str) -> str:
        path = self.workdir / name
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def wait_log(self, needle: bytes, timeout: float = 20.0) -> None:
        """Until the log holds ``needle`` (a regular expression); fails on timeout or if the server exits first."""
        deadline = time.monotonic() + timeout
        while not re.search(needle, log := self.log.read_bytes()):
            assert self.server.poll() is None, f"server exited: {self.text('server.err')}"
            assert time.monotonic() < deadline, f"{needle!r} not logged; log ends {log[-800:]!r}"
            time.sleep(0.005)


@pytest.mark.parametrize("server", ["ours", "original"])
def test_a_robot_lost_while_a_discard_awaits_claims_rejoins_and_the_game_finishes_without_a_claim_timer(
    server: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    """On the original server as on ours: neither asks again, the robots must answer again."""
    if server == "original":
        require_original(ORIGINAL_SERVER)
    table = Table(OUR_SERVER if server == "ours" else (ORIGINAL_SERVER,), tmp_path, processes)
    relay2, relay3 = table.relays[2], table.relays[3]
    for relay in (relay2, relay3):
        assert relay.holding.wait(20), "the robots answer every discard"
    serial = relay3.serial
    assert serial is not None and relay2.serial == serial

    kill(table.robots[2])
    table.wait_log(rb" StopPlay Lost connection to player 2; game suspended\r\n")
    relay3.release()  # Robot3's answer reaches the server while the game is suspended: refused
    refused = re.compile(rb"Error from server \(to '\w+ %d'\): Game not active" % serial)
    deadline = time.monotonic() + 20
    while not refused.search((table.workdir / "robot3.err").read_bytes()):  # the original logs the line later
        assert time.monotonic() < deadline, "Robot3's answer, sent while the game is suspended, is refused"
        time.sleep(0.005)
    table.robots[2] = table.robot(2, "--id", "2")
    table.wait_log(REJOIN)

    # Once play restarts, both answer the discard: Robot2 from the history it is sent, Robot3 again.
    for number in (2, 3):
        answered = rb">cnx\d Player(DoesntClaim|Claims\w+) %d %d\b" % (number, serial)
        deadline = time.monotonic() + 20
        while not re.search(answered, table.log.read_bytes().split(REJOIN)[1]):
            assert time.monotonic() < deadline, f"Robot{number} never answered discard {serial} after the rejoin"
            time.sleep(0.01)
    deadline = time.monotonic() + DEADLINE
    statuses = [p.wait(timeout=max(0.1, deadline - time.monotonic())) for p in (*table.robots.values(), table.server)]
    assert statuses == [0, 0, 0, 0, 0], table.text("server.err")
    assert "Game over. Final scores:" in table.text("server.out")
    while_suspended = table.log.read_bytes().split(b" game suspended\r\n")[1].split(REJOIN)[0]
    assert not re.search(rb"Player\w+ 3 %d\b" % serial, while_suspended), "the answer was refused"
