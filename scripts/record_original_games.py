#!/usr/bin/env python3
"""Record games of four original robots on the original Unix Mah-Jong 1.11 server.

For every (seed, option file) pair a fresh ``mj-server`` is started on a Unix socket
in a temporary directory, four ``mj-player`` robots (Robot1..Robot4) connect in
order, and the server's ``--logfile`` is stored gzip-compressed (deterministic
bytes) as ``OUT/seed<N>-<optname>.log.gz``.  ``default`` in ``--options`` means
"no option file".

Example::

    python scripts/record_original_games.py --seeds 1-7 \\
        --options default,tests/data/options/no-flowers.opt --out tests/data/original

Only the standard library is used; every process started here is ended by PID.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from mj import original
from mj.seeds import parse_seeds

DEFAULT = "default"


@dataclass(frozen=True)
class Job:
    seed: int
    option_file: Path | None  # None = server defaults

    @property
    def optname(self) -> str:
        return DEFAULT if self.option_file is None else self.option_file.stem

    @property
    def filename(self) -> str:
        return f"seed{self.seed}-{self.optname}.log.gz"


@dataclass
class Result:
    job: Job
    ok: bool
    seconds: float
    message: str


def parse_options(text: str) -> list[Path | None]:
    result: list[Path | None] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if part == DEFAULT:
            result.append(None)
        else:
            path = Path(part)
            if not path.is_file():
                raise ValueError(f"option file not found: {part}")
            result.append(path.resolve())
    if not result:
        raise ValueError("no option files given")
    return result


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """End one process we started, by its PID."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def _wait_for(predicate_path: Path, needle: bytes, deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            if needle in predicate_path.read_bytes():
                return True
        except FileNotFoundError:
            pass
        time.sleep(0.01)
    return False


def record_game(
    job: Job,
    out_dir: Path,
    *,
    timeout: float = 120.0,
    server: str = original.SERVER,
    player: str = original.PLAYER,
) -> Result:
    """Play one game and store its log; never raises for game failures."""
    start = time.monotonic()
    procs: list[subprocess.Popen[bytes]] = []

    def fail(message: str) -> Result:
        for proc in procs:
            _kill(proc)
        return Result(job, False, time.monotonic() - start, message)

    with tempfile.TemporaryDirectory(prefix="mjrec-") as tmp_name:
        tmp = Path(tmp_name)
        sock = tmp / "sock"
        logfile = tmp / "game.log"
        server_out = tmp / "server.out"
        cmd = [
            server,
            "--server",
            str(sock),
            "--seed",
            str(job.seed),
            "--timeout",
            "0",
            "--exit-on-disconnect",
            "--logfile",
            str(logfile),
        ]
        if job.option_file is not None:
            cmd += ["--option-file", str(job.option_file)]
        with (
            open(server_out, "wb") as sout,
            open(tmp / "server.err", "wb") as serr,
        ):
            procs.append(subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=sout, stderr=serr, cwd=tmp))
        if not _wait_for(server_out, b"OK", time.monotonic() + 10):
            return fail("server did not print OK")

        for k in range(1, 5):
            with open(tmp / f"player{k}.err", "wb") as perr:
                procs.append(
                    subprocess.Popen(
                        [player, "--server", str(sock), "--name", f"Robot{k}"],
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=perr,
                        cwd=tmp,
                    )
                )
            # Connect in order 1..4: wait until the server has answered this robot.
            reply = f"ConnectReply 1110 {k} ".encode()
            if not _wait_for(logfile, reply, time.monotonic() + 10):
                return fail(f"Robot{k} did not connect")
            time.sleep(0.1)

        deadline = start + timeout
        for k, proc in enumerate(procs[1:], start=1):
            try:
                rc = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                return fail(f"timeout after {timeout:.0f} s (Robot{k} still running)")
            if rc != 0:
                err = (tmp / f"player{k}.err").read_text(errors="replace").strip()
                return fail(f"Robot{k} exited with {rc}: {err[-300:]}")
        try:
            procs[0].wait(timeout=10)
        except subprocess.TimeoutExpired:
            return fail("server did not exit after the robots left")

        data = logfile.read_bytes()
        if b"\n>cnx" not in data or b" GameOver\r\n" not in data:
            return fail("log has no GameOver")
        target = out_dir / job.filename
        tmp_target = target.with_name(target.name + ".part")
        tmp_target.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
        tmp_target.replace(target)
        return Result(job, True, time.monotonic() - start, f"{len(data)} bytes -> {target}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", required=True, help="e.g. 1-10,15")
    parser.add_argument(
        "--options",
        default=DEFAULT,
        help=f"comma-separated option files; '{DEFAULT}' = no option file",
    )
    parser.add_argument("--out", required=True, type=Path, help="output directory")
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per game")
    parser.add_argument("--server", default=original.SERVER, help="mj-server binary")
    parser.add_argument("--player", default=original.PLAYER, help="mj-player binary")
    args = parser.parse_args(argv)

    try:
        seeds = parse_seeds(args.seeds)
        options = parse_options(args.options)
    except ValueError as exc:
        parser.error(str(exc))
    for binary in (args.server, args.player):
        if not os.access(binary, os.X_OK):
            print(f"error: {binary} not found (apt-get install mah-jong)", file=sys.stderr)
            return 2
    args.out.mkdir(parents=True, exist_ok=True)

    jobs = [Job(seed, opt) for opt in options for seed in seeds]
    started = time.monotonic()
    failures = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [
            pool.submit(
                record_game,
                job,
                args.out,
                timeout=args.timeout,
                server=args.server,
                player=args.player,
            )
            for job in jobs
        ]
        for future in futures:
            res = future.result()
            status = "ok  " if res.ok else "FAIL"
            print(f"{status} {res.job.filename} {res.seconds:6.1f}s {res.message}", flush=True)
            failures += not res.ok
    total = time.monotonic() - started
    print(f"{len(jobs) - failures}/{len(jobs)} games recorded in {total:.1f} s", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
