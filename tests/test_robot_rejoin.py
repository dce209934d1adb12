"""Our robots on our server without a claim timer: a robot lost while a discard awaits claims.

With ``--timeout 0`` a claim window stays open until every other seat has answered.
When a robot's connection is lost while the window is open, the game is suspended
(protocol.md §10.5) and an answer another robot sends meanwhile is refused with
"Game not active"; the original server does not ask again on resuming, and the
original robot answers once more at ``StartPlay``. Ours must too, and the rejoining
robot must answer the open discard it learns of from the history (§10.4), or the
game waits for ever.

Processes are stopped with SIGSTOP to hold a claim window open, every one is killed
by its PID at the end, and every wait has a deadline.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import OUR_SERVER
from mj.server.robotgame import announced_address, kill, wait_for_text

OUR_ROBOT = (sys.executable, "-m", "mj.robot")
#: One round is enough to go on playing after the rejoin, and keeps the test short.
ONE_ROUND = "GameOption 0 NumRounds nat 0 1 1 number of rounds to play\n"
#: For a loaded machine: a round of four robots takes a few seconds.
DEADLINE = 90.0
SEEDED_ONE_ROUND = ("--seed", "1002", "--option-file", "short.opt")
REJOIN = b" Connect 1110 2 Robot2\r\n"
_DISCARD = re.compile(rb">cnx\d PlayerDiscards (\d) \S+ (\d+) ")


class Table:
    """Our server on ``sock`` in ``workdir``, with our robots Robot1..Robot4 seated as ids 1..4 on cnx1..cnx4."""

    def __init__(self, workdir: Path, processes: list[subprocess.Popen[bytes]]) -> None:
        self.workdir = workdir
        self.processes = processes
        self.log = workdir / "game.log"
        (workdir / "short.opt").write_text(ONE_ROUND)
        out = workdir / "server.out"
        self.server = self._start(
            [*OUR_SERVER, "--server", "sock", "--logfile", "game.log", "--timeout", "0", *SEEDED_ONE_ROUND],
            out,
        )
        assert wait_for_text(out, b"\n", time.monotonic() + 20, self.server), self.text("server.err")
        assert announced_address(out.read_text()) == "sock"
        self.robots: dict[int, subprocess.Popen[bytes]] = {}
        for number in (1, 2, 3, 4):
            self.robots[number] = self.robot(number)
            self.wait_log(f">cnx{number} ConnectReply 1110 {number} ".encode())

    def _start(self, command: list[str], stdout: Path) -> subprocess.Popen[bytes]:
        with stdout.open("ab") as out, stdout.with_suffix(".err").open("ab") as err:
            process = subprocess.Popen(command, cwd=self.workdir, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        self.processes.append(process)
        return process

    def robot(self, number: int, *options: str) -> subprocess.Popen[bytes]:
        command = [*OUR_ROBOT, "--server", "sock", "--name", f"Robot{number}", *options]
        return self._start(command, self.workdir / f"robot{number}.out")

    def text(self, name: str) -> str:
        path = self.workdir / name
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def lines(self) -> list[bytes]:
        return self.log.read_bytes().splitlines() if self.log.exists() else []

    def lines_after_resuming(self) -> list[bytes]:
        """The log after the ``StartPlay`` that follows Robot2's rejoin."""
        rejoined = self.log.read_bytes().split(REJOIN, 1)[1]
        return rejoined.split(b" StartPlay ", 1)[1].splitlines()

    def wait_log(self, needle: bytes, count: int = 1, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while self.log.read_bytes().count(needle) < count:
            assert self.server.poll() is None, f"server exited: {self.text('server.err')}"
            assert time.monotonic() < deadline, f"{needle!r} not logged; log ends {self.log.read_bytes()[-800:]!r}"
            time.sleep(0.005)

    def hold_open_claim(self, held: tuple[int, ...]) -> int:
        """Stop the robots ``held`` at a moment when another's discard awaits their answers: its serial."""
        deadline = time.monotonic() + 60
        pause = 0.01
        while time.monotonic() < deadline:
            for number in held:
                os.kill(self.robots[number].pid, signal.SIGSTOP)
            serial = self._open_claim_awaiting(held)
            if serial is not None:
                return serial
            for number in held:
                os.kill(self.robots[number].pid, signal.SIGCONT)
            time.sleep(pause)
            pause = pause * 1.3 % 0.4 + 0.01  # varied, so that some stop meets an open window
        raise AssertionError(f"never caught a claim window open; log ends {self.log.read_bytes()[-800:]!r}")

    def _open_claim_awaiting(self, held: tuple[int, ...]) -> int | None:
        """The serial of the last discard, if it is another's and neither of ``held`` has answered it."""
        before: list[bytes] = []
        lines = self.lines()
        while lines != before:  # until the others, still running, have done all they can
            before = lines
            time.sleep(0.3)
            lines = self.lines()
        last = max((i for i, line in enumerate(lines) if _DISCARD.match(line)), default=None)
        if last is None:
            return None
        match = _DISCARD.match(lines[last])
        assert match is not None
        after = lines[last + 1 :]
        if int(match[1]) in held or any(line.startswith(f"<cnx{n} ".encode()) for n in held for line in after):
            return None
        return int(match[2])


def test_a_robot_lost_while_a_discard_awaits_claims_rejoins_and_the_game_finishes_without_a_claim_timer(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    table = Table(tmp_path, processes)
    table.wait_log(b" PlayerDiscards ", count=3)
    serial = table.hold_open_claim((2, 3))

    kill(table.robots[2])
    table.wait_log(b" StopPlay Lost connection to player 2; game suspended\r\n")
    lines_of_3 = table.log.read_bytes().count(b"<cnx3 ")
    os.kill(table.robots[3].pid, signal.SIGCONT)  # answers while the game is suspended: refused
    table.wait_log(b"<cnx3 ", count=lines_of_3 + 1)
    suspended = table.log.read_bytes().split(b" game suspended\r\n", 1)[1]
    assert re.match(rf"<cnx3 (NoClaim|Pung|Chow|Kong|MahJong) {serial}\b".encode(), suspended), suspended
    table.robots[2] = table.robot(2, "--id", "2")
    table.wait_log(REJOIN)

    # After play restarts both owe their answer to the discard, and give it.
    table.wait_log(b" StartPlay ", count=2)  # the first started the hand
    for number in (2, 3):
        answer = re.compile(rf">cnx\d Player(DoesntClaim|Claims\w+) {number} {serial}\b".encode())
        deadline = time.monotonic() + 20
        while not any(answer.match(line) for line in table.lines_after_resuming()):
            assert time.monotonic() < deadline, f"Robot{number} never answered discard {serial} after the rejoin"
            time.sleep(0.01)

    deadline = time.monotonic() + DEADLINE
    statuses = [p.wait(timeout=max(0.1, deadline - time.monotonic())) for p in (*table.robots.values(), table.server)]
    assert statuses == [0, 0, 0, 0, 0], table.text("server.err")
    assert "Game over. Final scores:" in table.text("server.out")
