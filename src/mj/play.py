"""A local game on one machine: our server and our robots as child processes around a person's seat.

The server and robots run as separate programs, exactly as they would on a
network, so what a person plays here is what a club server offers. This module
only starts and ends those processes (:class:`LocalGame`); who sits in the free
seat is the caller's choice: the browser client (``xmj``, :mod:`mj.web.cli`), the
original GTK ``xmj``, or any client that connects to the printed address. Every
child is ended, by its PID (the robots by their process group, which holds only
them), when the game ends or on Ctrl-C.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Final

STARTUP_SECONDS: Final = 10.0
#: The most standard error lines of a starting server held back until it has started or failed.
_HELD_ERROR_LINES: Final = 100
#: How the server's warnings begin (the original's "+W+"): it goes on after them.
_WARNING: Final = "+W+"
#: The robots' names in "New local game...", one per free seat.
ROBOT_NAMES: Final = ("Robot1", "Robot2", "Robot3")


def _spawn(args: Sequence[str], group: int = 0, **kwargs: object) -> subprocess.Popen[bytes]:
    """A child outside our process group (a new one, or ``group``): a Ctrl-C in our terminal reaches us alone,
    and we end the children in turn."""
    return subprocess.Popen(list(args), process_group=group, **kwargs)  # type: ignore[call-overload, no-any-return]


class _ErrorLines:
    """A starting server's standard error, passed on to ours once it has started; its last line says why it failed.

    Held back until then: a server that fails to start is reported in one line by
    whoever started it (its reason), not also in the server's own words (a usage
    error is a dozen lines). Read by a thread of its own until the child closes it, so
    a child that writes warnings while nobody asks never blocks on a full pipe.
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self.last = ""
        self._held: deque[str] | None = deque(maxlen=_HELD_ERROR_LINES)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: IO[bytes]) -> None:
        with stream:
            for raw in stream:
                line = raw.decode(errors="replace").rstrip()
                with self._lock:
                    if line and not line.startswith(_WARNING):  # a warning the server went on after is not why
                        self.last = line
                    if self._held is not None:
                        self._held.append(line)
                    else:
                        _say(line)

    def release(self, lines: Callable[[str], bool] = lambda _line: True) -> None:
        """Pass on the held ``lines`` that pass, and from now every line as it comes."""
        with self._lock:
            held, self._held = self._held or (), None
            for line in held:
                if lines(line):
                    _say(line)

    def reason(self) -> str:
        """The child's last words, once it has ended (they are all read then); its warnings are passed on."""
        self._thread.join(timeout=1.0)
        self.release(lambda line: line.startswith(_WARNING))
        return self.last.removeprefix("mj-server: ").removeprefix("error: ")


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def _await_ok(server: subprocess.Popen[bytes], errors: _ErrorLines) -> str:
    """The ``OK: ADDRESS`` line the server prints once it listens; :class:`RuntimeError` with its reason if not."""
    assert server.stdout is not None
    deadline = time.monotonic() + STARTUP_SECONDS
    failed = ""
    while (left := deadline - time.monotonic()) > 0:
        if not select.select([server.stdout], [], [], left)[0]:
            break  # silent: neither listening nor failing
        line = server.stdout.readline().decode(errors="replace").strip()
        if line.startswith("OK: "):
            errors.release()
            return line[4:]
        if line.startswith("FAILED"):
            failed = line
        if not line and server.poll() is not None:
            break
    if server.poll() is None:
        errors.release()  # what it said may tell why it hangs
        raise RuntimeError(f"the server did not start within {STARTUP_SECONDS:.0f} seconds")
    reason = errors.reason()
    if reason:
        raise RuntimeError(f"the server did not start: {reason}")
    raise RuntimeError(f"the server did not start ({failed or f'exit status {server.returncode}'})")


class LocalGame:
    """Our ``mj-server`` on ``address`` and up to three of our ``mj-player`` robots, as child processes."""

    def __init__(self, address: str, server_args: Sequence[str] = (), cwd: Path | None = None) -> None:
        self.address = address
        self.server_args = list(server_args)
        #: The server's working directory: where it saves games and finds --load-game files.
        self.cwd = cwd
        self.children: list[subprocess.Popen[bytes]] = []
        self.server: subprocess.Popen[bytes] | None = None
        #: The robots, in one process group of their own: ended by one signal, so that none outlives another.
        self.robots: list[subprocess.Popen[bytes]] = []

    def start_server(self) -> str:
        """Start the server and wait until it listens; the address it announced (:class:`RuntimeError` if not)."""
        python = sys.executable
        self.server = _spawn([python, "-m", "mj.server", "--server", self.address, *self.server_args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.cwd)  # fmt: skip
        self.children.append(self.server)
        assert self.server.stderr is not None
        return _await_ok(self.server, _ErrorLines(self.server.stderr))

    def start_robots(self, names: Sequence[str] = ROBOT_NAMES, level: int = 1) -> None:
        """One robot per name; they take the seats left after whoever connected first."""
        for name in names:
            robot = [sys.executable, "-m", "mj.robot", "--server", self.address, "--name", name, "--level", str(level)]
            process = _spawn(robot, self.robots[0].pid if self.robots else 0)
            self.robots.append(process)
            self.children.append(process)

    def spawn(self, args: Sequence[str]) -> subprocess.Popen[bytes]:
        """Another child (the original xmj) ended with the game."""
        process = _spawn(args)
        self.children.append(process)
        return process

    def running(self) -> bool:
        return self.server is not None and self.server.poll() is None

    def stop(self) -> None:
        """End every child: SIGTERM, then SIGKILL after 3 seconds; the robots at once, then the others, the server last.

        Told that one robot left, the server would close the others' connections under
        them (``--exit-on-disconnect``), and each would say so; one signal to their group
        ends them all before the server can read a thing.
        """
        children, robots, self.children, self.robots = self.children, self.robots, [], []
        if any(robot.poll() is None for robot in robots):  # one not reaped: the group is still theirs
            with contextlib.suppress(ProcessLookupError):
                os.killpg(robots[0].pid, signal.SIGTERM)
        _end([process for process in children if process is not self.server])
        _end([process for process in children if process is self.server])
        if self.server is not None and self.server.stdout is not None:
            self.server.stdout.close()


def _end(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def play_with_protocol_client(address: str, name: str, client: str, level: int, server_args: Sequence[str]) -> int:
    """A local game whose free seat is the original GTK ``xmj`` (``client="xmj"``) or waits for any client.

    Runs until that client (or the server) ends; returns the exit status.
    """
    from mj import original

    if client == "xmj" and not os.environ.get("DISPLAY"):
        # checked first: GTK would only say so once the server and robots were started for nothing
        print("xmj: --client xmj opens the original GTK xmj, which needs an X display, and DISPLAY is not set"
              " (without --client, xmj serves the game to your browser)", file=sys.stderr)  # fmt: skip
        return 1
    game = LocalGame(address, server_args)
    # a plain SIGTERM would end us without the cleanup below and orphan the server and robots
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    try:
        listening = game.start_server()
        game.start_robots(level=level)
        if client == "xmj":
            print(f"xmj: server at {listening}; starting the original xmj for {name}", flush=True)
            return game.spawn([original.XMJ, "--connect", "--server", address, "--name", name]).wait()
        print(
            f"xmj: server at {listening} with three robots; your seat is waiting.\n"
            f"  Connect with: xmj --connect --server {address} --name {name}\n"
            "  (Ctrl-C ends the game.)",
            flush=True,
        )
        assert game.server is not None
        return game.server.wait()
    except KeyboardInterrupt:
        return 130
    except (OSError, RuntimeError) as exc:
        print(f"xmj: {exc}", file=sys.stderr)
        return 1
    finally:
        game.stop()


_games = itertools.count(1)


def default_address() -> str:
    """A private Unix socket, so a local game never collides with a server on port 5000 (nor with the last one)."""
    folder = Path(os.environ.get("XDG_RUNTIME_DIR", "/tmp"))
    return str(folder / f"mj-play-{os.getpid()}-{next(_games)}.sock")
