"""Server CPU time per hand: the original mj-server and ours, on the same seeded games of four original robots.

Run as ``mj bench server [--seeds 1001-1003] [--tcp] [--repeat N]``. For each seed, each server
plays one whole game (``--seed N --timeout 0 --exit-on-disconnect``) with four
original ``mj-player`` robots connected in order (the harness of
:mod:`mj.server.robotgame`), on a Unix socket by default: over TCP the original
is slowed down by Nagle's algorithm, so that its wall time says little. Each
server runs under a small wrapper process that reaps it with :func:`os.wait4`, so
its user + system CPU time is measured alone, without the robots'. That time
includes the server's start-up, for ours the Python interpreter's and the imports,
which is therefore also measured alone (start, listen, SIGTERM) and printed first;
our modules' bytecode is compiled beforehand, as it is in an installed package.
Hands are the ``NewHand`` messages in each server's log. Printed per seed and in
total: hands, each server's CPU milliseconds per hand and the ratio ours / original,
first including start-up, then "steady" (start-up subtracted: what each further
hand of a long-running server costs), and each game's wall time; last, how much of
each server's CPU time was system time, spent in the kernel (reads, writes, waking
the robots, page faults).

A machine shared with other work measures CPU time with some noise, and the steady
figure takes the start-up's noise too, so each start-up is the median of at least
:data:`START_UPS` measurements (a tenth of a second each; one in five or so takes
half as long again). ``--repeat N`` plays each seed's game N times on each server,
the two servers in turn, and measures each start-up N times if that is more; every
figure is then the median of its measurements.
"""

from __future__ import annotations

import argparse
import compileall
import ctypes
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mj.argtypes import whole
from mj.bench import versus
from mj.bench.versus import BenchError
from mj.server.robotgame import kill, play_robot_game, wait_for_text

OURS: Final = (sys.executable, "-m", "mj.server")
#: ``prctl`` option: the signal a child gets when its parent dies.
_PR_SET_PDEATHSIG: Final = 1


@dataclass(frozen=True, slots=True)
class Measured:
    """One server's game: its hands, CPU seconds (user + system) and wall seconds; ``system`` is the kernel's part."""

    hands: int
    cpu: float
    wall: float
    system: float = 0.0

    @property
    def ms_per_hand(self) -> float:
        return 1000 * self.cpu / self.hands if self.hands else float("nan")


def _free_tcp_address() -> str:
    """A localhost port free now (the original cannot announce a port 0 it was given)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


def play(server: Sequence[str], seed: int, tcp: bool, player: str, timeout: float) -> Measured:
    """One game of ``server`` (a command) with four robots; its hands and CPU time."""
    with tempfile.TemporaryDirectory(prefix="mjb-") as directory:
        workdir = Path(directory)
        address = _free_tcp_address() if tcp else "sock"
        arguments = ["--server", address, "--seed", str(seed), "--timeout", "0", "--exit-on-disconnect"]
        usage = workdir / "cpu"
        wrapped = [sys.executable, "-m", "mj.bench.server", "--cpu-to", str(usage), "--", *server, *arguments]
        run = play_robot_game(
            [*wrapped, "--logfile", "game.log"], workdir, workdir / "game.log", timeout=timeout, player=player
        )
        if not run.ok:
            raise BenchError(f"{server[-1]} seed {seed}: {run.message}")
        user, system = (float(x) for x in usage.read_text().split())
        return Measured(run.log.count(b" NewHand "), user + system, run.seconds, system)


def start_up(server: Sequence[str], timeout: float = 30.0) -> float:
    """CPU seconds ``server`` spends to start listening (then it is stopped with SIGTERM): no game."""
    with tempfile.TemporaryDirectory(prefix="mjb-") as directory:
        workdir = Path(directory)
        usage = workdir / "cpu"
        command = [sys.executable, "-m", "mj.bench.server", "--cpu-to", str(usage), "--", *server, "--server", "sock"]
        with (workdir / "out").open("wb") as out:
            wrapper = subprocess.Popen(command, cwd=workdir, stdin=subprocess.DEVNULL, stdout=out)
        try:
            if not wait_for_text(workdir / "out", b"\n", time.monotonic() + timeout, wrapper):
                raise BenchError(f"{server[-1]} did not start")
            wrapper.send_signal(signal.SIGTERM)
            wrapper.wait(timeout=timeout)
        finally:
            kill(wrapper)
        user, system = (float(x) for x in usage.read_text().split())
        return user + system


def add_arguments(parser: argparse.ArgumentParser) -> None:
    versus.add_arguments(parser)
    parser.add_argument("--tcp", action="store_true", help="play over TCP on 127.0.0.1 instead of a Unix socket")
    parser.add_argument("--repeat", type=whole(1), default=1,
                        help="play each game N times, each start-up N times (at least 7); print medians")  # fmt: skip


#: The fewest measurements of each server's start-up.
START_UPS: Final = 7


def _start_up(server: Sequence[str], repeat: int) -> float:
    """The median of ``repeat`` measurements of :func:`start_up`, at least :data:`START_UPS`."""
    return statistics.median(start_up(server) for _ in range(max(repeat, START_UPS)))


def _median(runs: Sequence[Measured]) -> Measured:
    """The median times of the same game played several times."""
    return Measured(
        runs[0].hands, *(statistics.median(getattr(m, name) for m in runs) for name in ("cpu", "wall", "system"))
    )


#: Column headings of the table of figures, and their widths.
COLUMNS: Final = (("seed", 6), ("hands", 6), ("original ms/hand", 17), ("ours ms/hand", 13), ("ours/original", 14))
STEADY_COLUMNS: Final = (("steady original", 16), ("steady ours", 12), ("steady ratio", 13))
WALL_COLUMNS: Final = (("original s", 11), ("ours s", 7))


def _ratio(ours: float, original: float) -> float:
    return ours / original if original > 0 else float("nan")


def _row(label: str, original: Measured, ours: Measured, starts: tuple[float, float], games: int = 1) -> str:
    """One line of figures; ``starts`` are the start-up CPU seconds, paid once in each of ``games``."""
    hands = f"{ours.hands}" if ours.hands == original.hands else f"{original.hands}/{ours.hands}"
    steady = [
        1000 * max(0.0, m.cpu - start * games) / m.hands if m.hands else float("nan")
        for m, start in zip((original, ours), starts, strict=True)
    ]
    widths = [w for _, w in (*COLUMNS, *STEADY_COLUMNS, *WALL_COLUMNS)]
    cells = (
        *(label, hands, f"{original.ms_per_hand:.2f}", f"{ours.ms_per_hand:.2f}"),
        f"{_ratio(ours.ms_per_hand, original.ms_per_hand):.1f}",
        *(f"{steady[0]:.2f}", f"{steady[1]:.2f}", f"{_ratio(steady[1], steady[0]):.1f}"),
        *(f"{original.wall:.2f}", f"{ours.wall:.2f}"),
    )
    return " ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths, strict=True))


def _add(total: Measured, one: Measured) -> Measured:
    return Measured(total.hands + one.hands, total.cpu + one.cpu, total.wall + one.wall, total.system + one.system)


def compare(args: argparse.Namespace) -> None:
    """Print the start-up costs, then one row per seed and the total (:class:`BenchError` if a game fails)."""
    # As installed, a package has its bytecode; a checkout run with PYTHONDONTWRITEBYTECODE would
    # compile every module at every start and measure the compiler instead of the server.
    compileall.compile_dir(Path(__file__).resolve().parents[1], quiet=2)
    transport = "TCP on 127.0.0.1" if args.tcp else "a Unix socket"
    medians = f", medians of {args.repeat} runs" if args.repeat > 1 else ""
    print(
        "server CPU time (user+sys) per hand, original mj-server and ours,"
        f" four original robots over {transport}{medians}"
    )
    starts = (_start_up([args.original], args.repeat), _start_up(OURS, args.repeat))
    print(f"start-up alone, included below: original {starts[0] * 1000:.0f} ms, ours {starts[1] * 1000:.0f} ms")
    print(" ".join(f"{name:>{width}}" for name, width in (*COLUMNS, *STEADY_COLUMNS, *WALL_COLUMNS)))
    original_total = our_total = Measured(0, 0.0, 0.0)
    for seed in args.seeds:
        runs: tuple[list[Measured], list[Measured]] = ([], [])
        for _ in range(args.repeat):  # in turn, so that both servers meet the same load on the machine
            runs[0].append(play([args.original], seed, args.tcp, args.player, args.timeout))
            runs[1].append(play(OURS, seed, args.tcp, args.player, args.timeout))
        original, ours = _median(runs[0]), _median(runs[1])
        print(_row(str(seed), original, ours, starts), flush=True)
        original_total, our_total = _add(original_total, original), _add(our_total, ours)
    print(_row("total", original_total, our_total, starts, len(args.seeds)))
    kernel = [1000 * m.system / m.hands if m.hands else float("nan") for m in (original_total, our_total)]
    print(f"of which system time (the kernel's part, start-up included): original {kernel[0]:.2f} ms/hand,"
          f" ours {kernel[1]:.2f} ms/hand")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    return versus.run("server", args, compare)


# ---------------------------------------------------------------------- the wrapper that measures one server


#: The signals the wrapper passes on to the server it measures.
FORWARDED: Final = frozenset((signal.SIGINT, signal.SIGTERM))


def _in_server() -> None:
    """In the server, before it starts: be killed with the wrapper (the harness ends the wrapper
    with SIGKILL), and take the signals the wrapper holds back while it starts the server."""
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)


def measure_child(cpu_to: Path, command: Sequence[str]) -> int:
    """Run ``command``, write its user and system CPU seconds to ``cpu_to``; its exit status.

    A SIGTERM can come as soon as the server is listening, which a fast server is
    before this wrapper could set its handlers: until they are set, the signals to pass
    on are held back, so that one never kills the wrapper before it writes the figures.
    """
    signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
    try:
        child = subprocess.Popen(command, preexec_fn=_in_server)
        for signum in FORWARDED:
            signal.signal(signum, lambda received, _: os.kill(child.pid, received))
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    cpu_to.write_text(f"{usage.ru_utime} {usage.ru_stime}\n")
    return child.returncode if child.returncode >= 0 else 128 - child.returncode


def _wrapper(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m mj.bench.server", description="run a server, record its CPU")
    parser.add_argument("--cpu-to", type=Path, required=True, help="file for 'USER SYS' seconds")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the server command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    return measure_child(args.cpu_to, command)


if __name__ == "__main__":
    sys.exit(_wrapper(sys.argv[1:]))
