"""``mj play``: a local game on one machine: our server, three of our robots, and a seat for a person.

The server and robots run as child processes, exactly as they would on a network, so
what a person plays here is what a club server offers. The person's client is the
original ``xmj`` when a display is available; otherwise the seat waits for any client
(``xmj`` on another machine, or a script) at the address printed. Every child is
ended when the game ends or on Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from mj import original

STARTUP_SECONDS: Final = 10.0


def _spawn(args: Sequence[str], **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(list(args), **kwargs)  # type: ignore[call-overload, no-any-return]


def _stop(processes: Sequence[subprocess.Popen[bytes]]) -> None:
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


def _await_ok(server: subprocess.Popen[bytes]) -> str:
    """The ``OK: ADDRESS`` line the server prints once it listens."""
    assert server.stdout is not None
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        line = server.stdout.readline().decode(errors="replace").strip()
        if line.startswith("OK: "):
            return line[4:]
        if not line and server.poll() is not None:
            break
    raise RuntimeError("the server did not start (is the address already in use?)")


def play(address: str, name: str, client: str, level: int, server_args: Sequence[str]) -> int:
    """Run the local game until the person's client (or the server) ends; returns the exit status."""
    python = sys.executable
    children: list[subprocess.Popen[bytes]] = []
    # a plain SIGTERM would end us without the cleanup below and orphan the server and robots
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    try:
        server = _spawn([python, "-m", "mj.server", "--server", address, *server_args], stdout=subprocess.PIPE)
        children.append(server)
        listening = _await_ok(server)
        for seat in range(1, 4):
            robot = [python, "-m", "mj.robot", "--server", address, "--name", f"Robot{seat}", "--level", str(level)]
            children.append(_spawn(robot))
        use_xmj = client == "xmj" or (client == "auto" and os.environ.get("DISPLAY") and shutil.which(original.XMJ))
        if use_xmj:
            print(f"mj play: server at {listening}; starting xmj for {name}", flush=True)
            person = _spawn([original.XMJ, "--connect", "--server", address, "--name", name])
            children.append(person)
            return person.wait()
        print(
            f"mj play: server at {listening} with three robots; your seat is waiting.\n"
            f"  Connect with: xmj --connect --server {address} --name {name}\n"
            "  (Ctrl-C ends the game.)",
            flush=True,
        )
        return server.wait()
    except KeyboardInterrupt:
        return 130
    except (OSError, RuntimeError) as exc:
        print(f"mj play: {exc}", file=sys.stderr)
        return 1
    finally:
        _stop(children[::-1])


def default_address() -> str:
    """A private Unix socket, so a local game never collides with a server on port 5000."""
    return str(Path(os.environ.get("XDG_RUNTIME_DIR", "/tmp")) / f"mj-play-{os.getpid()}.sock")
