"""A fifth connection sends ``mj-server`` 100,000 bad lines while four original robots play: nobody notices.

Four original robots play a seeded game on our server (the harness of
:mod:`mj.server.robotgame`). As soon as they are seated, a raw socket client that
never gets a seat sends random and mutated protocol lines as fast as the server
answers them: real robot lines with their bytes flipped, cut or repeated, every
player keyword with garbage or well-typed arguments, byte noise with NULs,
backslash continuations and stray CRs, empty and LF-only lines; now and then a
line over the server's 64 KiB limit, which must get it cut off, or 1200 lines at
once, more than the server queues for one client, which may. Cut off, it
connects again and goes on.

The server must not crash, the game must reach GameOver, ``mj replay`` of the
server's log (fuzz lines included: the table must have answered them as it would
in the replay) must say identical, and the robots' connections, with the fuzz
connection's lines left out, must carry the very game the original server logged
for that seed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import signal
import socket
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from conftest import OUR_SERVER, require_original
from mj import tiles
from mj.logfile import parse_log
from mj.protocol import pmsg as P
from mj.protocol.fields import Kind
from mj.protocol.framing import ENCODING, MAX_LINE, LineDecoder, LineTooLong
from mj.replay import read_entries, replay
from mj.server.logcompare import first_difference
from mj.server.robotgame import kill, play_robot_game, wait_for_text
from mj.server.transport import CLOSE_GRACE

CORPUS: Final = Path(__file__).parent / "data" / "original"
SEED: Final = 1007  # the longest game of the default corpus: 31 hands
RECORDED: Final = CORPUS / f"seed{SEED}-default.log.gz"
#: Lines the fuzzer must send during the game.
FUZZ_LINES: Final = 100_000
#: Lines sent before waiting for the server's answer: well under its limit of 1000 unhandled lines.
BATCH: Final = 400
#: One batch in this many is a line too long, one in this many (offset) a flood.
LONG_EVERY: Final = 37
FLOOD_EVERY: Final = 53
#: The game's deadline: it takes a few seconds, the fuzz a few more.
GAME_TIME: Final = 90.0

ROBOT_LINES: Final = tuple(
    sorted({e.text for e in read_entries(RECORDED) if e.direction == "<" and e.text and e.connection <= 4})
)
NOISE: Final = bytes(range(256)).replace(b"\n", b"")
GARBAGE_WORDS: Final = (
    *("-1", "0", "1", "99", "4294967296", "-2147483649", "1e9", "0x10", "--", "1B", "9C", "2F", "XX", "East"),
    *("E", "EN", "bool", "nat", "Flowers", "DelayTime", "basic", "()", "%s%n", "\\", "\\\\", "\t", "  "),
    *("\x00", "\xff", "\xe9"),
)


class Fuzz:
    """Random protocol-ish lines (bytes, terminator included) from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.classes = P.MESSAGES

    def line(self) -> bytes:
        rng = self.rng
        maker = rng.choices(
            (self.mutated, self.garbage_args, self.typed_args, self.noise, self.blank),
            weights=(35, 25, 20, 15, 5),
        )[0]
        body = maker()
        # the log format cannot tell a text line starting with "<cnxK " from an entry (mj.logfile)
        body = body.replace(b"cnx", b"cnX").replace(b"\n", b"")
        if body.startswith(b"Connect") and rng.random() < 0.99:
            body = b"#" + body  # keep refused Connects (which end the connection) rare: long sessions fuzz more
        ending = rng.choices((b"\r\n", b"\n", b"\\\r\n", b" \t\r\n"), weights=(80, 10, 5, 5))[0]
        return body + ending

    def mutated(self) -> bytes:
        rng = self.rng
        data = bytearray(rng.choice(ROBOT_LINES).encode(ENCODING))
        for _ in range(rng.randint(1, 3)):
            where = rng.randrange(len(data) + 1)
            action = rng.randrange(5)
            if action == 0 and data:
                data[min(where, len(data) - 1)] = rng.randrange(256)
            elif action == 1:
                del data[where:]
            elif action == 2:
                data[where:where] = data[rng.randrange(len(data) + 1) :]
            elif action == 3:
                data[where:where] = rng.choice(GARBAGE_WORDS).encode(ENCODING)
            else:
                data[where:where] = b" " * rng.randint(1, 3)
        return bytes(data)

    def garbage_args(self) -> bytes:
        rng = self.rng
        words = [rng.choice(self.classes).keyword]
        words += [rng.choice(GARBAGE_WORDS) for _ in range(rng.randint(0, 6))]
        return " ".join(words).encode(ENCODING)

    def typed_args(self) -> bytes:
        """A keyword with arguments of the right kinds but random values (so mostly well-formed)."""
        rng = self.rng
        cls = rng.choice(self.classes)
        words = [cls.keyword]
        for _, kind in cls.wire_fields:
            if kind is Kind.TILE:
                words.append(tiles.code(rng.choice(tiles.ALL_TILES)) if rng.random() < 0.9 else "--")
            elif kind in (Kind.INT, Kind.BOOL):
                words.append(str(rng.choice((0, 1, 2, 4, rng.randrange(-5, 300)))))
            else:
                words.append(rng.choice(("Robot1", "x", "DelayTime", "basic", "Timeout", "E", "Left", "hello there")))
        return " ".join(words).encode(ENCODING)

    def noise(self) -> bytes:
        rng = self.rng
        return bytes(rng.choice(NOISE) for _ in range(rng.randint(1, 80)))

    def blank(self) -> bytes:
        return self.rng.choice((b"", b" ", b"\t", b"\\", b"\r"))

    def too_long(self) -> bytes:
        return b"Discard " + b"1B " * (MAX_LINE // 3 + 100) + b"\r\n"


@dataclass(frozen=True, slots=True)
class Batch:
    """Bytes sent at once: ``lines`` fuzz lines, then (unless ``kind`` is "long") a ``Ready`` to be answered."""

    data: bytes
    lines: int
    #: "plain"; "flood": more lines at once than the server queues for a client; "long": one line over its
    #: limit; "connect": holds a Connect, which the server refuses (the table is full) and so disconnects.
    kind: str


@dataclass
class Tally:
    lines: int = 0
    batches: int = 0
    connections: int = 0
    #: Connections the server cut off (for a long line or a flood).
    cut_off: int = 0
    long_lines: int = 0
    failure: str = ""


class Fuzzer(threading.Thread):
    """Sends fuzz batches to the server at ``path`` until told to stop or :data:`FUZZ_LINES` are sent.

    Two batches are in flight at a time (under the server's limit of 1000 unhandled
    lines), so the server always has fuzz to handle; each batch ends with ``Ready``,
    which a connection without a player gets answered with ``Error N You must
    connect first``, N being the number of lines the server counted so far on the
    connection: that answer proves the server handled every line of the batch.
    """

    def __init__(self, path: Path, log: Path, stop: threading.Event, seed: int = SEED) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.log = log
        self.stop = stop
        self.tally = Tally()
        # Made before the game starts: making them takes about as long as the robots' game.
        self.batches = deque(self.make_batches(Fuzz(seed)))

    def done(self) -> bool:
        return self.stop.is_set() or self.tally.lines >= FUZZ_LINES

    def run(self) -> None:
        try:
            while not self.done():
                try:
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.connect(str(self.path))
                except OSError:
                    sock.close()
                    return  # the server is gone: the game is over
                self.tally.connections += 1
                with sock:
                    if not self.session(sock):
                        return
        except Exception as exc:
            self.tally.failure = f"{type(exc).__name__}: {exc}"

    @staticmethod
    def make_batches(fuzz: Fuzz) -> Iterator[Batch]:
        """The batches that make :data:`FUZZ_LINES`."""
        number = total = 0
        while total < FUZZ_LINES:
            number += 1
            if number % LONG_EVERY == 0:
                batch = Batch(fuzz.too_long(), 1, "long")
            else:
                lines = BATCH * 3 if number % FLOOD_EVERY == 0 else BATCH
                data = b"".join(fuzz.line() for _ in range(lines))
                # an empty line first ends a continuation the batch may have left open
                batch = Batch(data + b"\r\nReady\r\n", lines, "flood" if lines > BATCH else "plain")
            total += batch.lines
            yield batch

    def next_batch(self) -> Batch:
        self.tally.batches += 1
        batch = self.batches.popleft()
        if batch.kind == "long":
            self.tally.long_lines += 1
        return batch

    def session(self, sock: socket.socket) -> bool:
        """One connection, until the server cuts it off (True: connect again) or the fuzzing is done."""
        sent = LineDecoder(MAX_LINE)  # the server's view of what we send: how many lines
        received = LineDecoder(1 << 30)
        count = 0
        in_flight: deque[tuple[str, Batch]] = deque()
        while not self.done():
            batch = self.next_batch()
            self.tally.lines += batch.lines
            try:
                lines = sent.feed(batch.data)
            except LineTooLong:
                count = -1
            else:
                count += len(lines)
                if any(line.startswith("Connect") for line in lines):
                    batch = dataclasses.replace(batch, kind="connect")  # refused, then cut off (§6.1)
            in_flight.append((f"Error {count} You must connect first", batch))
            try:
                sock.sendall(batch.data)
            except OSError:
                return self.cut_off(in_flight)
            while len(in_flight) > 1 or batch.kind == "long":
                if not self.answered(sock, received, in_flight):
                    return self.cut_off(in_flight)
        while in_flight:
            if not self.answered(sock, received, in_flight):
                return self.cut_off(in_flight)
        return True

    def answered(self, sock: socket.socket, received: LineDecoder, in_flight: deque[tuple[str, Batch]]) -> bool:
        """Read until the oldest batch in flight is answered (False: the server closed the connection)."""
        answer, batch = in_flight[0]
        deadline = time.monotonic() + 20
        while True:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = sock.recv(1 << 16)
            except TimeoutError:
                raise AssertionError(f"batch {batch.kind}: no answer {answer!r} in 20 s") from None
            except OSError:
                chunk = b""
            if not chunk:
                return False
            for line in received.feed(chunk):
                if in_flight and line == in_flight[0][0]:
                    in_flight.popleft()
            if not in_flight or in_flight[0][0] != answer:
                return True

    def cut_off(self, in_flight: deque[tuple[str, Batch]]) -> bool:
        """The server closed the connection: for a flood, a long line or a refused Connect (True: go on), or at the
        end of the game."""
        if any(batch.kind != "plain" for _, batch in in_flight):
            self.tally.cut_off += 1
            return True
        if b" GameOver\r\n" in self.log.read_bytes():
            return False
        raise AssertionError(f"cut off after {[b.kind for _, b in in_flight]} batches")


def test_a_fuzzing_connection_does_not_disturb_a_robot_game(tmp_path: Path) -> None:
    require_original()
    stop = threading.Event()
    fuzzer = Fuzzer(tmp_path / "sock", tmp_path / "game.log", stop)

    def start_when_seated() -> None:
        while not stop.wait(0.005):
            if (tmp_path / "game.log").exists() and b"ConnectReply 1110 4 " in (tmp_path / "game.log").read_bytes():
                fuzzer.start()
                return

    watcher = threading.Thread(target=start_when_seated, daemon=True)
    watcher.start()
    arguments = ["--server", "sock", "--seed", str(SEED), "--timeout", "0", "--exit-on-disconnect"]
    try:
        run = play_robot_game(
            [*OUR_SERVER, *arguments, "--logfile", "game.log"], tmp_path, tmp_path / "game.log", timeout=GAME_TIME
        )
    finally:
        stop.set()
        watcher.join(timeout=5)
        if fuzzer.is_alive():
            fuzzer.join(timeout=30)
    tally = fuzzer.tally
    assert run.ok, run.message
    assert run.server_status == 0
    errors = (tmp_path / "server.err").read_text(errors="replace")
    assert "Traceback" not in errors and "-E-" not in errors, errors[-2000:]
    assert not tally.failure, tally
    assert tally.lines >= FUZZ_LINES, f"the game ended after only {tally.lines} fuzz lines"
    assert tally.long_lines >= 2 and tally.cut_off >= tally.long_lines and tally.connections > tally.cut_off

    entries = parse_log(run.log.decode(ENCODING))
    handled = sum(1 for e in entries if e.connection > 4 and e.direction == "<" and e.text is not None)
    assert handled > FUZZ_LINES * 0.8, "lines joined by continuations, or lost in a flood or a long line, are few"
    result = replay(entries)
    assert result.mismatch is None, str(result.mismatch)
    robots_only = [e for e in entries if e.connection <= 4]
    difference = first_difference(read_entries(RECORDED), robots_only)
    assert difference is None, difference.describe("original", "ours")


def test_clients_cut_off_with_replies_unsent_are_flushed_or_dropped_quietly(tmp_path: Path) -> None:
    """A flood cut off while its answers wait: read, they all arrive; unread, they are dropped after the grace.

    Either way the server stays silent: aborting a connection that had finished
    sending once made asyncio print a traceback on its standard error.
    """
    with (tmp_path / "server.out").open("wb") as out, (tmp_path / "server.err").open("wb") as err:
        server = subprocess.Popen(
            [*OUR_SERVER, "--server", "sock", "--logfile", "log"], cwd=tmp_path, stdout=out, stderr=err
        )
    clients: list[socket.socket] = []
    try:
        assert wait_for_text(tmp_path / "server.out", b"\n", time.monotonic() + 20, server)
        for _ in ("reader", "sleeper"):
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the answers pile up in the server
            client.connect(str(tmp_path / "sock"))
            clients.append(client)
        # answers to send, more than the kernel's socket buffers hold, in bursts under the flood limit:
        # each burst once the previous one is handled, however busy the machine
        with (tmp_path / "log").open("rb") as log:
            for burst in range(1, 21):
                for client in clients:
                    client.sendall(b"x\r\n" * 900)
                assert _logged(log, [f">cnx{n} Error {burst * 900} Protocol error".encode() for n in (1, 2)], 30)
        for client in clients:
            client.sendall(b"x\r\n" * 3000)
        reader, sleeper = clients
        answers = read_to_end(reader, timeout=10)
        assert answers.count(b" Protocol error\r\n") >= 18_000
        assert answers.endswith(b"Error 0 Too many lines received; connection closed\r\n")
        time.sleep(CLOSE_GRACE + 1)
        assert len(read_to_end(sleeper, timeout=10)) < len(answers), "not read in time: dropped"
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=10) == 0
    finally:
        for client in clients:
            client.close()
        kill(server)
    assert (tmp_path / "server.err").read_text() == ""


def _logged(log: BinaryIO, entries: list[bytes], timeout: float) -> bool:
    """Whether the server's log, read on from where the last call stopped, shows ``entries`` within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    missing = set(entries)
    tail = b""
    while True:
        tail = tail[-200:] + log.read()
        missing = {entry for entry in missing if entry not in tail}
        if not missing:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)


def read_to_end(sock: socket.socket, timeout: float) -> bytes:
    data = bytearray()
    sock.settimeout(timeout)
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(1 << 16):
            data += chunk
    return bytes(data)
