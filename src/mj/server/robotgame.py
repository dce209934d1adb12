"""Run four original robots (``mj-player``) against a server to a complete game: a test harness.

Used by the server tests and ``scripts/compare_servers.py`` to play the same
seeded game on the original ``mj-server`` and on ours. The robots are started one
at a time, each only once the server's log shows it was given the next id, so
ids and seats are the same on every run; with a fixed ``--seed`` and
``--timeout 0`` the robots' play, and so the whole game, is then reproducible.

Every process started here is ended by its PID, also when something fails, and
every wait has a deadline, so a broken server can never hang the caller.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mj import original

POLL: Final = 0.005


@dataclass(frozen=True, slots=True)
class GameRun:
    """What one robot game left behind."""

    ok: bool
    #: Why it failed, or a short summary.
    message: str
    #: From starting the server to its exit.
    seconds: float
    server_status: int | None
    #: The server's standard output (the ``OK`` line, final scores).
    stdout: str
    log: bytes
    #: The robots were still playing at the deadline (a game that never ends, or a slow one).
    unfinished: bool = False


def kill(process: subprocess.Popen[bytes]) -> None:
    """End one process we started, by its PID, and reap it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGKILL)
    process.wait()


def wait_for_text(path: Path, needle: bytes, deadline: float, alive: subprocess.Popen[bytes] | None = None) -> bool:
    """Poll ``path`` until it contains ``needle``; False at the deadline or if ``alive`` exited."""
    while time.monotonic() < deadline:
        with contextlib.suppress(FileNotFoundError):
            if needle in path.read_bytes():
                return True
        if alive is not None and alive.poll() is not None:
            return False
        time.sleep(POLL)
    return False


def announced_address(stdout: str) -> str | None:
    """The address of the server's ``OK: ADDRESS`` line (protocol.md §1.1), if it printed one."""
    for line in stdout.splitlines():
        if line.startswith("OK: "):
            return line[4:]
    return None


def _absolute(program: str) -> str:
    """A program named by a relative path, made absolute: the processes run in another directory."""
    return os.path.abspath(program) if "/" in program else program


def play_robot_game(
    server_command: Sequence[str],
    workdir: Path,
    logfile: Path,
    *,
    timeout: float = 120.0,
    player: str = original.PLAYER,
    names: Sequence[str] = ("Robot1", "Robot2", "Robot3", "Robot4"),
    robot_arguments: Sequence[Sequence[str]] = ((), (), (), ()),
) -> GameRun:
    """Start ``server_command`` in ``workdir``, connect the robots in order, wait for everything to end.

    The command must make the server write its log to ``logfile`` and quit after
    the game (``--exit-on-disconnect``); the robots connect to the address it
    announces; ``robot_arguments`` are added to each robot's command line, in the
    order of ``names`` (strategy options such as ``--chowness -1``). A game is
    ``ok`` when the robots and the server exit with status 0 and the log holds
    ``GameOver``.
    """
    if len(robot_arguments) != len(names):
        raise ValueError(f"{len(robot_arguments)} robots' arguments for {len(names)} robots")
    start = time.monotonic()
    deadline = start + timeout
    server_command = [_absolute(server_command[0]), *server_command[1:]]
    processes: list[subprocess.Popen[bytes]] = []
    out_path = workdir / "server.out"
    err_path = workdir / "server.err"

    def result(ok: bool, message: str, unfinished: bool = False) -> GameRun:
        for process in processes:
            kill(process)
        server = processes[0].returncode if processes else None
        stdout = out_path.read_bytes().decode(errors="replace") if out_path.exists() else ""
        log = logfile.read_bytes() if logfile.exists() else b""
        if not ok:
            err = err_path.read_bytes().decode(errors="replace").strip() if err_path.exists() else ""
            message += f" (server stderr: {err[-500:]!r})" if err else ""
        return GameRun(ok, message, time.monotonic() - start, server, stdout, log, unfinished)

    try:
        with out_path.open("wb") as out, err_path.open("wb") as err:
            processes.append(
                subprocess.Popen(server_command, cwd=workdir, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            )
    except OSError as exc:
        return result(False, f"cannot start the server: {exc}")
    try:
        server = processes[0]
        if not wait_for_text(out_path, b"\n", min(deadline, time.monotonic() + 20), server):
            return result(False, "the server did not start")
        address = announced_address(out_path.read_bytes().decode(errors="replace"))
        if address is None:
            return result(False, "the server did not print OK")
        for number, (name, extra) in enumerate(zip(names, robot_arguments, strict=True), start=1):
            try:
                with (workdir / f"player{number}.err").open("wb") as perr:
                    processes.append(
                        subprocess.Popen(
                            [player, "--server", address, "--name", name, *extra],
                            cwd=workdir,
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=perr,
                        )
                    )
            except OSError as exc:
                return result(False, f"cannot start {player}: {exc}")
            if not wait_for_text(logfile, f"ConnectReply 1110 {number} ".encode(), deadline, server):
                return result(False, f"{name} was not given id {number}")
        for number, robot in enumerate(processes[1:], start=1):
            try:
                status = robot.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                message = f"no end of game after {timeout:.0f} s ({names[number - 1]} still playing)"
                return result(False, message, unfinished=True)
            if status != 0:
                return result(False, f"{names[number - 1]} exited with status {status}")
        try:
            status = server.wait(timeout=max(1.0, min(10.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            return result(False, "the server did not exit after the robots left")
        if status != 0:
            return result(False, f"the server exited with status {status}")
        if b" GameOver\r\n" not in logfile.read_bytes():
            return result(False, "the log has no GameOver")
        return result(True, "game over")
    finally:
        for process in processes:
            kill(process)
