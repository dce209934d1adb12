"""Mutated protocol lines from real games sent to one mj-server: lines, errors answered, crashes, memory.

Run as ``mj bench fuzz [--lines 1000000] [--clients 6] [--seed 1]``. The lines the
players of the recorded original games sent (``tests/data/original/*.log.gz``, or
``--corpus DIR``) are mutated (tokens swapped, dropped, doubled or replaced by
extreme numbers, bytes inserted, lines cut, spliced, lengthened, broken over lines)
and sent by ``--clients`` connections at once to one ``mj-server`` process, which
logs to ``/dev/null``. Each client first sends a ``Connect`` (most of them as
``Fuzz0``..``Fuzz5``, so that four are seated, a game is made and the mutated moves
reach it), then batches of mutated lines, each batch ending with a line the server
must answer ``Error N Protocol error``, N counting every line the connection sent:
so every line is known to have been read before the next batch goes, no client is
cut off for flooding, and a server that stops answering shows as a stall. A client
the server closes (a ``Disconnect``, a refused ``Connect``, a line too long) connects
again.

Printed: lines sent, ``Error`` replies received, connections closed by the server,
stalls, crashes (the server exiting on its own, or writing a traceback), and the
server's resident memory after a warm-up and at the end. A crash restarts the
server, so that the figures go on; the run exits 1 after a crash or a stall.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mj.argtypes import whole
from mj.logfile import LogFormatError
from mj.protocol.framing import ENCODING, encode_line
from mj.replay import read_entries
from mj.server.robotgame import kill, wait_for_text

#: The recorded games of the original, when run from the source tree.
DEFAULT_CORPUS: Final = Path(__file__).resolve().parents[3] / "tests" / "data" / "original"
#: Lines in a batch, before the line every batch ends with.
BATCH: Final = 200
#: The last line of each batch: no such message exists, so the server answers it with a Protocol error.
SYNC: Final = "FuzzSync"
#: Seconds a batch may take before it counts as a stall.
STALL: Final = 30.0
#: Lines sent before the memory is first measured: the server's caches filled, its game made.
WARM_UP: Final = 20_000
_EXTREME: Final = ("-1", "0", "-2147483649", "2147483648", "4294967296", "99999999999999999999", "1e9", "0x10", "")


@dataclass(slots=True)
class Tally:
    #: Mutated lines the server is known to have read: their batch's sync line was answered.
    sent: int = 0
    #: Mutated lines of batches cut short by the server closing the connection (read or not).
    unconfirmed: int = 0
    errors: int = 0
    closed: int = 0
    stalls: int = 0
    crashes: int = 0
    #: Server exits with status 0 (a game finished by chance, the last player gone): restarted, not crashes.
    exits: int = 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lines", type=whole(1), default=1_000_000, help="mutated lines to send (default 1000000)")
    parser.add_argument("--clients", type=whole(1), default=6, help="connections sending at once (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the mutations (default 1)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, metavar="DIR",
                        help="server logs whose received lines are mutated (default: the originals)")  # fmt: skip


def corpus_lines(directory: Path) -> list[str]:
    """Every line the players sent in the logs of ``directory`` (``*.log`` and ``*.log.gz``)."""
    lines: list[str] = []
    for path in sorted([*directory.glob("*.log"), *directory.glob("*.log.gz")]):
        try:
            entries = read_entries(path)
        except (OSError, EOFError, LogFormatError, ValueError) as exc:
            raise SystemExit(f"mj bench fuzz: cannot read {path}: {exc}") from None
        lines += [e.text for e in entries if e.direction == "<" and e.text]
    return lines


# ---------------------------------------------------------------------- mutations


Mutation = Callable[[random.Random, str, Sequence[str]], str]


def _swap(rng: random.Random, text: str, tokens: Sequence[str]) -> str:
    words = text.split(" ")
    words[rng.randrange(len(words))] = rng.choice(tokens)
    return " ".join(words)


def _extreme(rng: random.Random, text: str, _: Sequence[str]) -> str:
    words = text.split(" ")
    words[rng.randrange(len(words))] = rng.choice(_EXTREME)
    return " ".join(words)


def _drop(rng: random.Random, text: str, _: Sequence[str]) -> str:
    words = text.split(" ")
    del words[rng.randrange(len(words))]
    return " ".join(words)


def _double(rng: random.Random, text: str, _: Sequence[str]) -> str:
    words = text.split(" ")
    at = rng.randrange(len(words))
    return " ".join([*words[: at + 1], words[at], *words[at + 1 :]])


def _byte(rng: random.Random, text: str, _: Sequence[str]) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + chr(rng.randrange(256)) + text[at:]


def _cut(rng: random.Random, text: str, _: Sequence[str]) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _splice(rng: random.Random, text: str, tokens: Sequence[str]) -> str:
    other = " ".join(rng.choice(tokens) for _ in range(rng.randrange(1, 4)))
    return text[: rng.randrange(len(text) + 1)] + other


def _long(rng: random.Random, text: str, _: Sequence[str]) -> str:
    return text + " " + "x" * rng.choice((100, 1000, 3000))


def _break(rng: random.Random, text: str, _: Sequence[str]) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(("\n", "\\", "\r", "\n>cnx1 ", "\t")) + text[at:]


def _case(rng: random.Random, text: str, _: Sequence[str]) -> str:
    return text.swapcase() if rng.random() < 0.5 else text.upper()


MUTATIONS: Final[tuple[Mutation, ...]] = (_swap, _extreme, _drop, _double, _byte, _cut, _splice, _long, _break, _case)


class Mutator:
    """Mutated lines of real games: a line taken at random, changed 0 to 3 times."""

    def __init__(self, lines: Sequence[str], seed: int) -> None:
        if not lines:
            raise SystemExit("mj bench fuzz: the corpus holds no received lines")
        self.rng = random.Random(seed)
        self.lines = lines
        self.tokens = sorted({word for line in lines for word in line.split(" ") if word})

    def line(self) -> str:
        rng = self.rng
        text = rng.choice(self.lines)
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            text = rng.choice(MUTATIONS)(rng, text, self.tokens) or text
        return text

    def connect(self, client: int) -> str:
        """The first line of a connection: mostly a good Connect of this client's name, so games get made."""
        good = f"Connect 1110 0 Fuzz{client}"
        return good if self.rng.random() < 0.8 else self.rng.choice(MUTATIONS)(self.rng, good, self.tokens) or good


# ---------------------------------------------------------------------- the server


class FuzzedServer:
    """One mj-server process on a Unix socket in ``directory``; restarted after it ends."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.socket = str(directory / "sock")
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        out = self.directory / f"server{self.starts}.out"
        command = [sys.executable, "-m", "mj.server", "--server", self.socket, "--seed", "7", "--timeout", "1",
                   "--logfile", os.devnull]  # fmt: skip
        with out.open("wb") as stdout, (self.directory / f"server{self.starts}.err").open("wb") as stderr:
            self.process = subprocess.Popen(command, cwd=self.directory, stdin=subprocess.DEVNULL, stdout=stdout,
                                            stderr=stderr)  # fmt: skip
        if not wait_for_text(out, b"\n", time.monotonic() + 30, self.process):
            raise SystemExit("mj bench fuzz: the server did not start")

    def stderr(self) -> str:
        path = self.directory / f"server{self.starts}.err"
        return path.read_text(ENCODING) if path.exists() else ""

    def check(self, tally: Tally) -> None:
        """Count and restart a server that ended; count a traceback it wrote."""
        process = self.process
        assert process is not None
        if process.poll() is None:
            return
        text = self.stderr()
        if process.returncode != 0 or "Traceback" in text or "internal error" in text:
            tally.crashes += 1
            print(f"CRASH: server exited with status {process.returncode}: {text[-2000:]}", file=sys.stderr)
        else:
            tally.exits += 1
        self.start()

    def rss_kb(self) -> int:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        if self.process is not None:
            kill(self.process)


# ---------------------------------------------------------------------- the clients


async def _client(number: int, server: FuzzedServer, mutator: Mutator, tally: Tally, target: int) -> None:
    """Connect, send batches of mutated lines each ending with the sync line, count the answers; again when closed."""
    while tally.sent < target:
        try:
            reader, writer = await asyncio.open_unix_connection(server.socket)
        except OSError:
            await asyncio.sleep(0.05)
            server.check(tally)
            continue
        sent_here = 0
        buffer = b""
        batch = [mutator.connect(number)]
        try:
            while tally.sent < target:
                batch += [mutator.line() for _ in range(BATCH)]
                batch.append(SYNC)
                writer.write(b"".join(encode_line(text) for text in batch))
                sent_here += len(batch)
                mutated = len(batch) - 1
                tally.unconfirmed += mutated
                batch = []
                wanted = f"Error {sent_here} Protocol error".encode(ENCODING)
                deadline = time.monotonic() + STALL
                synced = False
                while not synced:
                    try:
                        data = await asyncio.wait_for(reader.read(65536), max(0.01, deadline - time.monotonic()))
                    except TimeoutError:
                        tally.stalls += 1
                        raise ConnectionResetError("stalled") from None
                    if not data:
                        raise ConnectionResetError("closed by the server")
                    *lines, buffer = (buffer + data).split(b"\r\n")
                    for line in lines:
                        if line == wanted:
                            synced = True
                        elif line.startswith(b"Error "):
                            tally.errors += 1
                tally.unconfirmed -= mutated
                tally.sent += mutated
        except (ConnectionError, OSError):
            tally.closed += 1
            server.check(tally)
        finally:
            writer.close()


async def _fuzz(server: FuzzedServer, mutator: Mutator, tally: Tally, target: int, clients: int) -> None:
    await asyncio.gather(*(_client(number, server, mutator, tally, target) for number in range(clients)))


def run(args: argparse.Namespace) -> int:
    mutator = Mutator(corpus_lines(args.corpus), args.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="mjfz-") as directory:
        server = FuzzedServer(Path(directory))
        server.start()
        try:
            start = time.monotonic()
            warm_up = min(WARM_UP, args.lines // 10)
            if warm_up:
                asyncio.run(_fuzz(server, mutator, tally, warm_up, args.clients))
            time.sleep(0.5)
            server.check(tally)
            before = server.rss_kb()
            asyncio.run(_fuzz(server, mutator, tally, args.lines, args.clients))
            time.sleep(1.0)
            server.check(tally)
            after = server.rss_kb()
            elapsed = time.monotonic() - start
        finally:
            server.stop()
    print(f"mutations of {len(mutator.lines):,} lines sent by the players of the games in {args.corpus}")
    print(f"lines sent and read: {tally.sent:,} in {elapsed:.1f} s ({tally.sent / elapsed:,.0f} per second)")
    print(f"lines sent in batches the server cut short by closing the connection: {tally.unconfirmed:,}")
    print(f"errors answered: {tally.errors:,}")
    print(f"connections closed by the server: {tally.closed:,}")
    print(f"stalls: {tally.stalls}")
    print(f"server restarts after a normal exit: {tally.exits}")
    print(
        f"server memory (RSS): {before:,} kB after {warm_up:,} lines, {after:,} kB at the end ({after - before:+,} kB)"
    )
    print(f"crashes: {tally.crashes}")
    return 0 if tally.crashes == 0 and tally.stalls == 0 else 1
