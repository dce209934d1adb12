"""Games of our robot against three original robots on the original Unix Mah-Jong server.

The shared machinery of ``scripts/robot_games.py`` (one game per seed, our robot
first) and ``scripts/tournament.py`` (the duplicate tournament, our robot in every
seat): :func:`play_game` starts ``/usr/games/mj-server --seed N --timeout 0
--exit-on-disconnect --logfile F`` on a Unix socket in a given folder, lets our robot
(in-process or as the ``mj-player`` program) and three original ``mj-player`` robots
join in a chosen order, and :func:`summarize_log` reads the figures back from the
server's log: hands, wins (self-drawn or not), deal-ins, winning hand scores and
final scores of every player, and the protocol errors and answers of ours.

Every process started here is ended by PID; nothing is left running.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from mj import original
from mj.arena.tally import GameTally
from mj.logfile import read_log
from mj.protocol import ProtocolError
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.robot.agent import Robot
from mj.robot.client import Client, ClientConfig
from mj.robot.levels import Defence
from mj.robot.systems import make_strategy
from mj.seatview import SeatView

#: Our robot connects first, so it gets id 1 on connection slot 1.
OUR_ID = 1
OUR_CONNECTION = 1


@dataclass
class LogSummary(GameTally):
    """What the server log says about one game: every player's figures, and our robot's answers and errors."""

    wins: int = 0
    deal_ins: int = 0
    #: Error lines the server sent to our connection.
    errors: list[str] = field(default_factory=list)
    #: Answers we sent to each discard or robbable kong of another player, by (hand, serial):
    #: the protocol wants exactly one each.
    answers: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def misanswered(self) -> int:
        """Windows we answered more or less than once."""
        return sum(1 for n in self.answers.values() if n != 1)


@dataclass
class GameReport:
    seed: int
    ok: bool
    message: str
    seconds: float
    summary: LogSummary
    #: (move keyword, seconds) per decision of our robot (in-process runs only).
    decisions: list[tuple[str, float]] = field(default_factory=list)
    #: Our robot's own view at the end (in-process runs only).
    view: SeatView | None = None
    #: Our robot's player id (= its place in the joining order, 1 = first East).
    our_id: int = OUR_ID

    @property
    def score(self) -> int:
        return self.summary.scores.get(self.our_id, 0)


def summarize_log(path: Path, our_id: int = OUR_ID, our_connection: int = OUR_CONNECTION) -> LogSummary:
    """Hands, our wins and deal-ins, scores and errors, read from a server ``--logfile``.

    The figures of every player are counted by :class:`~mj.arena.tally.GameTally`
    from the logged messages, as the arena counts its in-process games.
    """
    summary = LogSummary()
    for entry in read_log(path):
        if entry.text is None:
            continue
        if entry.direction == "<":
            if entry.connection == our_connection:
                _count_answer(summary, entry.text)
            continue
        if entry.connection == our_connection and entry.text.startswith("Error"):
            summary.errors.append(entry.text)
        try:
            msg = C.decode(entry.text)
        except ProtocolError:
            continue
        if isinstance(msg, _OPEN_TILE) and msg.id != our_id:
            summary.answers.setdefault((summary.hands, msg.discard), 0)
        summary.observe(msg)
    summary.wins = summary.wins_by.get(our_id, 0)
    summary.deal_ins = summary.deal_ins_by.get(our_id, 0)
    return summary


#: The messages that open a window every other player must answer.
_OPEN_TILE = C.PlayerDiscards | C.PlayerDeclaresClosedKong | C.PlayerAddsToPung


def _count_answer(summary: LogSummary, line: str) -> None:
    """Count a line we sent if it answers a discard or kong (its serial is not 0)."""
    try:
        sent = P.decode(line)
    except ProtocolError:
        return
    if isinstance(sent, P.NoClaim | P.Chow | P.Pung | P.Kong | P.MahJong) and sent.discard:
        key = (summary.hands, sent.discard)
        summary.answers[key] = summary.answers.get(key, 0) + 1


async def _wait_for_text(path: Path, needle: str, deadline: float) -> bool:
    while time.monotonic() < deadline:
        with contextlib.suppress(FileNotFoundError):
            if needle in path.read_text(encoding="latin-1"):
                return True
        await asyncio.sleep(0.02)
    return False


def _kill(proc: asyncio.subprocess.Process) -> None:
    """End one process we started, by its PID."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)


async def play_game(
    seed: int,
    workdir: Path,
    *,
    option_file: Path | None = None,
    level: int = 1,
    timeout: float = 120.0,
    subprocess_robot: bool = False,
    server: str = original.SERVER,
    player: str = original.PLAYER,
    seat: int = 0,
    rules: Defence | None = None,
) -> GameReport:
    """One game in ``workdir`` (socket, log and outputs go there); never raises for game failures.

    Our robot joins ``seat``-th (0 = first, the first hand's East), after that many
    original robots, so its player id is ``seat + 1``. ``rules`` replaces its level's
    :class:`~mj.robot.levels.Defence` (in-process only: the program has no such option).
    """
    if rules is not None and subprocess_robot:
        raise ValueError("a level's rules are replaced only in-process, not in the mj-player program")
    start = time.monotonic()
    deadline = start + timeout
    sock = workdir / "sock"
    logfile = workdir / "server.log"
    procs: list[asyncio.subprocess.Process] = []
    tasks: list[asyncio.Task[int]] = []
    client_task: asyncio.Task[int] | None = None
    robot: Robot | None = None
    our_id = seat + 1

    def report(ok: bool, message: str) -> GameReport:
        summary = summarize_log(logfile, our_id, our_id) if logfile.exists() else LogSummary()
        decisions = robot.decisions if robot is not None else []
        view = robot.view if robot is not None else None
        return GameReport(seed, ok, message, time.monotonic() - start, summary, decisions, view, our_id)

    try:
        command = [server, "--server", str(sock), "--seed", str(seed), "--timeout", "0", "--exit-on-disconnect"]
        command += ["--logfile", str(logfile)]
        if option_file is not None:
            command += ["--option-file", str(option_file.resolve())]
        with open(workdir / "server.err", "wb") as err:
            server_proc = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=err, cwd=workdir
            )
        procs.append(server_proc)
        assert server_proc.stdout is not None
        first = await asyncio.wait_for(server_proc.stdout.readline(), timeout=10)
        if not first.startswith(b"OK"):
            return report(False, f"server did not start: {first!r}")

        for joining in range(1, 5):
            if joining == our_id:
                robot = await _start_ours(sock, workdir, level, seed, subprocess_robot, procs, tasks, rules)
            else:
                with open(workdir / f"robot{joining}.err", "wb") as err:
                    procs.append(
                        await asyncio.create_subprocess_exec(
                            *(player, "--server", str(sock), "--name", f"Robot{joining}"),
                            stdin=asyncio.subprocess.DEVNULL,
                            stdout=asyncio.subprocess.DEVNULL,
                            stderr=err,
                            cwd=workdir,
                        )
                    )
            # The original seats players in joining order (protocol.md §6.2) and
            # gives the k-th connection id k.
            if not await _wait_for_text(logfile, f"ConnectReply 1110 {joining} ", deadline):
                who = "our robot" if joining == our_id else f"Robot{joining}"
                return report(False, f"{who} did not connect")
        client_task = tasks[0] if tasks else None
        ours_proc = procs[1 + our_id - 1] if subprocess_robot else None
        originals = [p for p in procs[1:] if p is not ours_proc]

        left = max(0.1, deadline - time.monotonic())
        try:
            if client_task is not None:
                status = await asyncio.wait_for(client_task, left)
            else:
                assert ours_proc is not None
                status = await asyncio.wait_for(ours_proc.wait(), left)
        except TimeoutError:
            return report(False, f"our robot still playing after {timeout:.0f} s")
        if status != 0:
            return report(False, f"our robot exited with status {status}")
        for proc in originals:
            try:
                await asyncio.wait_for(proc.wait(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                return report(False, "an original robot did not finish")
        summary = summarize_log(logfile, our_id, our_id)
        if not summary.game_over:
            return report(False, "no GameOver in the log")
        return report(True, "game over")
    finally:
        client_task = tasks[0] if tasks else None
        if client_task is not None and not client_task.done():
            client_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await client_task
        for proc in reversed(procs):
            _kill(proc)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 5)


async def _start_ours(
    sock: Path,
    workdir: Path,
    level: int,
    seed: int,
    subprocess_robot: bool,
    procs: list[asyncio.subprocess.Process],
    tasks: list[asyncio.Task[int]],
    rules: Defence | None = None,
) -> Robot | None:
    """Start our robot (as a program, appended to ``procs``, or in-process, appended to ``tasks``)."""
    if subprocess_robot:
        with open(workdir / "ours.err", "wb") as err:
            procs.append(
                await asyncio.create_subprocess_exec(
                    *(sys.executable, "-m", "mj.robot", "--server", str(sock), "--name", "Ours"),
                    *("--level", str(level), "--seed", str(seed)),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=err,
                )
            )
        return None
    errors = open(workdir / "ours.err", "w", encoding="utf-8")  # noqa: SIM115 - closed below

    def log(text: str) -> None:
        print(text, file=errors, flush=True)

    robot = Robot(make_strategy(level, seed=seed, rules=rules), log=log)
    client = Client(ClientConfig(str(sock), 0, "Ours"), robot, log)
    task = asyncio.create_task(client.run())
    task.add_done_callback(lambda _task: errors.close())
    tasks.append(task)
    return robot
