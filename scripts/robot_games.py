#!/usr/bin/env python3
"""Play our robot against three original robots on the original Unix Mah-Jong server.

For each seed a fresh ``/usr/games/mj-server --seed N --timeout 0
--exit-on-disconnect`` is started on a Unix socket in a temporary directory; our
robot connects first (id 1, East of the first hand), then three original
``mj-player`` robots (Robot2..Robot4). Per game it prints the hands played, our
wins, our deal-ins (our discard or kong gave another player mah-jong), our final
score and the protocol errors the server sent us, and totals at the end.

The figures come from the server's ``--logfile``, not from our robot's own
bookkeeping, so they hold whether our robot runs in-process (the default, which
also measures its decision times) or as the ``mj-player`` program
(``--subprocess``). Example::

    .venv/bin/python scripts/robot_games.py --seeds 1-20
    .venv/bin/python scripts/robot_games.py --seeds 5 --options tests/data/options/no-flowers.opt
    .venv/bin/python scripts/robot_games.py --seeds 1-5 --server-program .venv/bin/mj-server

Every process started here is ended by PID; nothing is left running.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mj.logfile import read_log
from mj.protocol import ProtocolError
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.robot.agent import Robot
from mj.robot.client import Client, ClientConfig
from mj.robot.levels import make_strategy
from mj.robot.view import SeatView
from mj.tiles import BLANK

SERVER = "/usr/games/mj-server"
PLAYER = "/usr/games/mj-player"
#: Our robot connects first, so it gets id 1 on connection slot 1.
OUR_ID = 1
OUR_CONNECTION = 1


@dataclass
class LogSummary:
    """What the server log says about one game, from our robot's point of view."""

    hands: int = 0
    washouts: int = 0
    wins: int = 0
    deal_ins: int = 0
    #: Final cumulative score of each player id.
    scores: dict[int, int] = field(default_factory=dict)
    #: Error lines the server sent to our connection.
    errors: list[str] = field(default_factory=list)
    game_over: bool = False
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

    @property
    def score(self) -> int:
        return self.summary.scores.get(OUR_ID, 0)


def summarize_log(path: Path, our_id: int = OUR_ID, our_connection: int = OUR_CONNECTION) -> LogSummary:
    """Hands, our wins and deal-ins, scores and errors, read from a server ``--logfile``.

    Broadcasts appear once in the log (as sent to the East of the moment), so each
    discard, mah-jong and settlement is counted once.
    """
    summary = LogSummary()
    seats: list[int] = []
    last_discarder = 0
    last_konger = 0
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
        match msg:
            case C.Game() if not seats:
                seats = [msg.east, msg.south, msg.west, msg.north]
                summary.scores = dict.fromkeys(seats, 0)
            case C.NewHand(east=east) if east in seats:
                start = seats.index(east)
                seats = seats[start:] + seats[:start]
                summary.hands += 1
            case C.PlayerDiscards(id=pid):
                last_discarder = pid
            case C.PlayerDeclaresClosedKong(id=pid) | C.PlayerAddsToPung(id=pid):
                last_konger = pid
            case C.PlayerMahJongs(id=pid, tile=tile):
                summary.wins += pid == our_id
                summary.deal_ins += tile == BLANK and last_discarder == our_id and pid != our_id
            case C.PlayerRobsKong(id=pid):
                summary.wins += pid == our_id
                summary.deal_ins += last_konger == our_id and pid != our_id
            case C.WashOut():
                summary.washouts += 1
            case C.Settlement():
                for pid, delta in zip(seats, (msg.east, msg.south, msg.west, msg.north), strict=True):
                    summary.scores[pid] += delta
            case C.GameOver():
                summary.game_over = True
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
    server: str = SERVER,
    player: str = PLAYER,
) -> GameReport:
    """One game in ``workdir`` (socket, log and outputs go there); never raises for game failures."""
    start = time.monotonic()
    deadline = start + timeout
    sock = workdir / "sock"
    logfile = workdir / "server.log"
    procs: list[asyncio.subprocess.Process] = []
    client_task: asyncio.Task[int] | None = None
    robot: Robot | None = None

    def report(ok: bool, message: str) -> GameReport:
        summary = summarize_log(logfile) if logfile.exists() else LogSummary()
        decisions = robot.decisions if robot is not None else []
        view = robot.view if robot is not None else None
        return GameReport(seed, ok, message, time.monotonic() - start, summary, decisions, view)

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

        if subprocess_robot:
            with open(workdir / "ours.err", "wb") as err:
                ours = await asyncio.create_subprocess_exec(
                    *(sys.executable, "-m", "mj.robot", "--server", str(sock), "--name", "Ours"),
                    *("--level", str(level), "--seed", str(seed)),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=err,
                )
            procs.append(ours)
        else:
            errors = open(workdir / "ours.err", "w", encoding="utf-8")  # noqa: SIM115 - closed below

            def log(text: str) -> None:
                print(text, file=errors, flush=True)

            robot = Robot(make_strategy(level, seed=seed), log=log)
            client = Client(ClientConfig(str(sock), 0, "Ours"), robot, log)
            client_task = asyncio.create_task(client.run())
            client_task.add_done_callback(lambda _task: errors.close())
        if not await _wait_for_text(logfile, f"ConnectReply 1110 {OUR_ID} ", deadline):
            return report(False, "our robot did not connect")
        for k in (2, 3, 4):
            with open(workdir / f"robot{k}.err", "wb") as err:
                procs.append(
                    await asyncio.create_subprocess_exec(
                        *(player, "--server", str(sock), "--name", f"Robot{k}"),
                        stdin=asyncio.subprocess.DEVNULL,
                        stdout=asyncio.subprocess.DEVNULL,
                        stderr=err,
                        cwd=workdir,
                    )
                )
            if not await _wait_for_text(logfile, f"ConnectReply 1110 {k} ", deadline):
                return report(False, f"Robot{k} did not connect")

        left = max(0.1, deadline - time.monotonic())
        try:
            if client_task is not None:
                status = await asyncio.wait_for(client_task, left)
            else:
                status = await asyncio.wait_for(procs[1].wait(), left)
        except TimeoutError:
            return report(False, f"our robot still playing after {timeout:.0f} s")
        if status != 0:
            return report(False, f"our robot exited with status {status}")
        for proc in procs[-3:]:
            try:
                await asyncio.wait_for(proc.wait(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                return report(False, "an original robot did not finish")
        summary = summarize_log(logfile)
        if not summary.game_over:
            return report(False, "no GameOver in the log")
        return report(True, "game over")
    finally:
        if client_task is not None and not client_task.done():
            client_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await client_task
        for proc in reversed(procs):
            _kill(proc)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 5)


def parse_seeds(text: str) -> list[int]:
    """``1-10,15`` as a sorted list of distinct positive seeds."""
    seeds: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, sep, high = part.partition("-")
        first, last = int(low), int(high) if sep else int(low)
        if first < 1 or last < first:
            raise ValueError(f"bad seed range {part!r} (seeds are >= 1)")
        seeds.update(range(first, last + 1))
    if not seeds:
        raise ValueError("no seeds given")
    return sorted(seeds)


async def _play_all(seeds: Sequence[int], args: argparse.Namespace) -> list[GameReport]:
    reports = []
    print(f"{'seed':>5} {'hands':>5} {'wash':>4} {'wins':>4} {'dealin':>6} {'score':>6} {'errors':>6}  result")
    for seed in seeds:
        with tempfile.TemporaryDirectory(prefix="mjrobot-") as tmp:
            report = await play_game(
                seed,
                Path(tmp),
                option_file=args.options,
                level=args.level,
                timeout=args.timeout,
                subprocess_robot=args.subprocess,
                server=args.server_program,
            )
        s = report.summary
        print(
            f"{seed:>5} {s.hands:>5} {s.washouts:>4} {s.wins:>4} {s.deal_ins:>6} {report.score:>6} {len(s.errors):>6}"
            f"  {'ok' if report.ok else 'FAIL: ' + report.message} ({report.seconds:.1f} s)",
            flush=True,
        )
        for line in s.errors:
            print(f"      {line}")
        reports.append(report)
    return reports


def print_totals(reports: Sequence[GameReport]) -> None:
    summaries = [r.summary for r in reports]
    hands = sum(s.hands for s in summaries)
    decided = hands - sum(s.washouts for s in summaries)
    wins = sum(s.wins for s in summaries)
    deal_ins = sum(s.deal_ins for s in summaries)
    errors = sum(len(s.errors) for s in summaries)
    completed = sum(r.ok for r in reports)
    ours = [r.score for r in reports]
    others = [score for s in summaries for pid, score in s.scores.items() if pid != OUR_ID]
    print(f"games completed: {completed}/{len(reports)}, hands {hands} ({hands - decided} wash-outs)")
    if hands:
        print(f"our wins: {wins} ({100 * wins / hands:.1f}% of hands; a fair share is 25% of decided hands)")
        print(f"our deal-ins: {deal_ins} ({100 * deal_ins / hands:.1f}% of hands)")
    if ours:
        print(f"our score: total {sum(ours)}, mean {statistics.mean(ours):.0f} per game")
    if others:
        print(f"original robots: mean {statistics.mean(others):.0f} per game")
    print(f"protocol errors sent to our robot: {errors}")
    windows = sum(len(s.answers) for s in summaries)
    wrong = sum(s.misanswered for s in summaries)
    print(f"discards and kongs of others answered exactly once: {windows - wrong}/{windows}")
    by_kind: dict[str, list[float]] = {}
    for report in reports:
        for keyword, seconds in report.decisions:
            by_kind.setdefault(keyword, []).append(1000 * seconds)
    if by_kind:
        print("decision time per move (ms):")
        every = [ms for times in by_kind.values() for ms in times]
        for keyword, times in [*sorted(by_kind.items(), key=lambda kv: -len(kv[1])), ("all", every)]:
            print(
                f"  {keyword:22} {len(times):6} moves, mean {statistics.mean(times):6.2f}, "
                f"median {statistics.median(times):6.2f}, max {max(times):7.2f}"
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-20", help="e.g. 1-20,31 (default %(default)s)")
    parser.add_argument("--options", type=Path, help="option file for the server (--option-file)")
    parser.add_argument("--level", type=int, default=1, help="our robot's level (default 1)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds allowed per game")
    parser.add_argument("--subprocess", action="store_true", help="run our robot as the mj-player program")
    parser.add_argument("--server-program", default=SERVER, help="the server to play on (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    if os.sep in args.server_program:
        args.server_program = str(Path(args.server_program).resolve())  # the server runs in a temporary folder
    for binary in (args.server_program, PLAYER):
        if not os.access(binary, os.X_OK):
            print(f"error: {binary} not found (apt-get install mah-jong)", file=sys.stderr)
            return 2
    reports = asyncio.run(_play_all(seeds, args))
    print_totals(reports)
    clean = all(r.ok and not r.summary.errors and not r.summary.misanswered for r in reports)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
