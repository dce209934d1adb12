"""Tables one lobby process holds with people at human pace: move latency percentiles as tables are added.

Run as ``mj bench lobby [--tables 4,8,16,...] [--seconds S] [--think T]``. A lobby is started
as its own process (``mj lobby`` on a temporary SQLite database, as a user would start it),
and this process plays the people: for each table, one simulated person takes a seat
beside three robots through the API and plays over xmj's WebSocket as a person does,
pressing the dialog's default button after thinking ``--think`` seconds (uniformly
between half and one and a half times that). A move's latency is the time from the
press leaving the client to the next snapshot of the seat arriving, which the gateway
sends once the table has answered: all that a person waits for. The tables are added
in steps; at each step every table plays for ``--seconds`` and the step's latencies
are reported as percentiles, with how many people moved in the step (all of them, unless
the lobby or this client fell behind). The lobby holds a step when its 99th percentile is under
``--target`` milliseconds; the run stops at the first step it does not hold (or at the
last step), and prints the most tables held. The client's own CPU use limits what it
can simulate on a small machine: each line also gives the lobby's and the client's
CPU seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

from mj.argtypes import seconds
from mj.outputfile import OutputFileError, check_writable

Json = dict[str, Any]
#: ``mj`` run under cProfile counting the event loop thread's CPU time, not the wall clock: on a busy
#: machine the wall clock charges each function with the time the lobby waited to be scheduled.
PROFILED = """
import cProfile, runpy, sys, time
output = sys.argv.pop(1)
profile = cProfile.Profile(time.thread_time)
sys.argv[0] = "mj"
try:
    profile.runcall(runpy.run_module, "mj.cli", run_name="__main__")
except SystemExit:
    pass
finally:
    profile.dump_stats(output)
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", default="4,8,16,32,64,128,256,512,1000",
                        help="tables at each step (comma-separated, increasing)")  # fmt: skip
    parser.add_argument(
        "--seconds", type=seconds(1, 3600), default=20.0, help="how long each step plays (default %(default)s)"
    )
    parser.add_argument(
        "--think", type=seconds(0.01, 600), default=2.0, help="a person's mean time to move (default %(default)s)"
    )
    parser.add_argument("--target", type=float, default=50.0, help="p99 latency held, in ms (default %(default)s)")
    parser.add_argument(
        "--level", type=int, choices=(1, 2, 3), default=1, help="the robots' level (default %(default)s)"
    )
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="run the lobby under cProfile, its profile written here (read with pstats)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    try:
        steps = [int(n) for n in args.tables.split(",")]
    except ValueError:
        print(f"mj bench lobby: --tables wants numbers separated by commas, not {args.tables!r}", file=sys.stderr)
        return 2
    if not steps or steps != sorted(steps) or steps[0] < 1:
        print("mj bench lobby: --tables wants increasing numbers from 1", file=sys.stderr)
        return 2
    if args.profile is not None:
        try:
            check_writable(args.profile)
        except OutputFileError as exc:
            print(f"mj bench lobby: --profile {exc}", file=sys.stderr)
            return 2
    return asyncio.run(_bench(steps, args))


async def _bench(steps: Sequence[int], args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="mj-bench-lobby-") as folder:
        command = ["lobby", "--http", "127.0.0.1:0", "--db", f"sqlite:///{folder}/lobby.db"]
        start = ["-m", "mj.cli"] if args.profile is None else ["-c", PROFILED, str(args.profile.resolve())]
        lobby = subprocess.Popen(
            [sys.executable, *start, *command], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=folder
        )
        try:
            assert lobby.stdout is not None
            line = await asyncio.get_running_loop().run_in_executor(None, lobby.stdout.readline)
            if not line.startswith(b"OK: "):
                print(f"mj bench lobby: the lobby did not start: {line!r}", file=sys.stderr)
                return 1
            url = line.decode().split()[1]
            return await _steps(url, steps, args, lobby.pid)
        finally:
            lobby.terminate()
            try:
                lobby.wait(60)
            except subprocess.TimeoutExpired:
                lobby.kill()
                lobby.wait()


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))


async def _steps(url: str, steps: Sequence[int], args: argparse.Namespace, lobby_pid: int) -> int:
    held = 0
    print(f"{'tables':>6} {'moving':>6} {'moves':>7} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'lobby CPU s':>11} {'client CPU s':>12}")  # fmt: skip
    # one connection per person (aiohttp's default pool would hold the 101st person back)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        people: list[asyncio.Task[None]] = []
        latencies: list[tuple[int, float]] = []
        stop = asyncio.Event()
        try:
            for tables in steps:
                while len(people) < tables:
                    people.append(asyncio.create_task(_person(http, url, args, latencies, stop, len(people))))
                await asyncio.sleep(min(5.0, args.seconds / 4))  # the new people sit down and start
                latencies.clear()
                lobby_cpu, client_cpu = _cpu_of(lobby_pid), _own_cpu()
                await asyncio.sleep(args.seconds)
                sample = sorted(latency for _, latency in latencies)
                playing = len({person for person, _ in latencies})
                lobby_cpu, client_cpu = _cpu_of(lobby_pid) - lobby_cpu, _own_cpu() - client_cpu
                if not sample:
                    print(f"{tables:6d} no moves measured")
                    break
                p50, p90, p99 = (_percentile(sample, q) for q in (0.5, 0.9, 0.99))
                print(f"{tables:6d} {playing:6d} {len(sample):7d} {p50:7.1f} {p90:7.1f} {p99:7.1f} {sample[-1]:7.1f} "
                      f"{lobby_cpu:11.1f} {client_cpu:12.1f}", flush=True)  # fmt: skip
                if p99 >= args.target:
                    break
                held = tables
        finally:
            stop.set()
            for task in people:
                task.cancel()
            for task in people:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
    print(f"tables held with p99 move latency under {args.target:g} ms: {held}")
    return 0


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _percentile(sample: Sequence[float], q: float) -> float:
    if len(sample) == 1:
        return sample[0]
    return statistics.quantiles(sample, n=100, method="inclusive")[round(q * 100) - 1]


async def _person(
    http: aiohttp.ClientSession, url: str, args: argparse.Namespace, latencies: list[tuple[int, float]],
    stop: asyncio.Event,
    number: int,
) -> None:  # fmt: skip
    """One person at a table of three robots, moving at human pace, game after game."""
    rng = random.Random(number)
    while not stop.is_set():
        async with http.post(f"{url}api/tables", json={"robots": 3, "level": args.level}) as response:
            table = (await response.json())["table"]
        async with http.post(f"{url}api/tables/{table}/sit", json={"name": f"Person{number}"}) as response:
            token = (await response.json())["token"]
        async with http.ws_connect(f"{url}ws", max_msg_size=0) as ws:
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            await _play(ws, rng, args.think, latencies, number)


async def _play(
    ws: aiohttp.ClientWebSocketResponse, rng: random.Random, think: float, latencies: list[tuple[int, float]],
    number: int,
) -> None:  # fmt: skip
    pressed: set[int] = set()
    sent_at: float | None = None
    async for message in ws:
        if message.type is not aiohttp.WSMsgType.TEXT:
            return
        data = json.loads(message.data)
        if data.get("type") != "state":
            continue
        if sent_at is not None:
            latencies.append((number, (time.perf_counter() - sent_at) * 1000))
            sent_at = None
        if data["game"]["over"]:
            return
        dialog = data.get("dialog")
        if dialog is None or dialog["number"] in pressed:
            continue
        choice = _default(dialog)
        if choice is None:
            continue
        pressed.add(dialog["number"])
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        sent_at = time.perf_counter()
        act = {"type": "act", "button": choice[0], "tile": choice[1], "dialog": dialog["number"]}
        await ws.send_str(json.dumps(act))


def _default(dialog: Json) -> tuple[str, str | None] | None:
    """The dialog's default button, and its preselected tile if it needs one (what Enter does in the page)."""
    button = next((b for b in dialog["buttons"] if b["id"] == dialog["default"]), None)
    if button is None or not button["enabled"]:
        return None
    if button["tiles"] is None:
        return button["id"], None
    tile = dialog["select"] if dialog["select"] in button["tiles"] else button["tiles"][-1]
    return button["id"], tile
