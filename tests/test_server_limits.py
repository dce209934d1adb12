"""``mj-server`` keeps room for its players: idle, slow and crowding connections cannot lock them out.

The transport's rules are checked in-process with the fake table of
:mod:`test_server`; the whole server then plays a game of four of our robots,
one of which loses its connection and comes back, while 500 idle and 100
slowloris connections (from many loopback addresses) keep pressing on it.
Every process is killed by PID at the end and every wait has a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mj.replay import read_entries, replay
from mj.server import cli
from mj.server.address import UnixAddress
from mj.server.guard import FIRST_DELAY
from mj.server.robotgame import announced_address, kill, wait_for_text
from mj.server.transport import Limits, Server, tune_tcp
from mj.table import MAX_CHAT, MAX_SAVE_NAMES, TOO_FAST, Table, TableSettings
from test_server import (  # noqa: F401
    OUR_SERVER,
    FakeTable,
    LineClient,
    RunLoop,
    _client,
    _with_server,
    run_loop,
    short_dir,
)

OUR_PLAYER = str(Path(sys.executable).parent / "mj-player")


def test_a_connection_that_never_joins_is_cut_off_at_its_deadline_and_a_player_is_not(
    short_dir: Path,  # noqa: F811
    run_loop: RunLoop,  # noqa: F811
) -> None:
    table = FakeTable()
    got: dict[str, list[str]] = {}

    def script(path: str) -> None:
        idle = _client(path)
        player = _client(path)
        player.send("join")
        started = time.monotonic()
        got["idle"] = idle.read_to_eof(timeout=5)
        got["waited"] = [f"{time.monotonic() - started:.2f}"]
        time.sleep(0.4)
        player.send("exit 0")
        got["player"] = player.read_to_eof()
        idle.close()
        player.close()

    limits = Limits(connect_timeout=0.3)
    assert run_loop(_with_server(table, short_dir, script, limits)) == 0
    assert got["idle"] == ["Error 0 No Connect accepted within 0.3 seconds; connection closed"]
    assert 0.2 < float(got["waited"][0]) < 3
    assert got["player"] == ["Message 0 0 exiting"], "the player, joined in time, stayed past the deadline"


def test_a_line_started_and_not_finished_in_time_cuts_its_client_off(
    short_dir: Path,  # noqa: F811
    run_loop: RunLoop,  # noqa: F811
) -> None:
    table = FakeTable()
    got: dict[str, list[str]] = {}

    def script(path: str) -> None:
        slow = _client(path)
        slow.send("join")
        for byte in b"Connect 1110 0 Slow":  # a byte now and then: each arrives in time, the line never ends
            try:
                slow.send(bytes([byte]))
            except OSError:  # cut off
                break
            time.sleep(0.05)
        got["slow"] = slow.read_to_eof(timeout=5)
        last = _client(path)
        last.send("exit 0")
        last.read_to_eof()
        slow.close()
        last.close()

    assert run_loop(_with_server(table, short_dir, script, Limits(line_timeout=0.3))) == 0
    assert got["slow"] == ["Error 0 Line not finished within 0.3 seconds; connection closed"]
    assert ("join", 1) in [(e, c) for e, c, _ in table.events], "finished lines are handled as ever"


def test_too_many_waiting_connections_make_room_by_cutting_off_the_oldest(
    short_dir: Path,  # noqa: F811
    run_loop: RunLoop,  # noqa: F811
) -> None:
    table = FakeTable()
    got: dict[str, list[str]] = {}

    def script(path: str) -> None:
        player = _client(path)
        player.send("join")
        time.sleep(0.2)
        waiting = [_client(path) for _ in range(3)]
        time.sleep(0.2)
        newcomer = _client(path)
        got["oldest"] = waiting[0].read_to_eof()
        newcomer.send("exit 0")
        got["newcomer"] = newcomer.read_to_eof()
        for client in (player, *waiting, newcomer):
            client.close()

    assert run_loop(_with_server(table, short_dir, script, Limits(max_waiting=3))) == 0
    assert got["oldest"] == ["Error 0 Too many connections waiting; connection closed"]
    closed = [c for e, c, _ in table.events if e == "close"]
    assert closed[0] == 2, "the oldest waiting connection went; the player (1) did not count"
    assert got["newcomer"] == ["Message 0 0 exiting"], "the newcomer was let in"


def test_failed_passwords_make_the_next_attempt_wait_longer_each_time_and_each_is_logged(
    short_dir: Path,  # noqa: F811
    capfd: pytest.CaptureFixture[str],
) -> None:
    table = Table(TableSettings(timeout=0, seed=7, auth_basic={1: "secret"}))
    path = str(short_dir / "s")

    def attempt(name: str, password: str, answer: str) -> float:
        """Seconds from sending the password to the answer."""
        client = _client(path)
        client.send(f"Connect 1110 1 {name}")
        client.expect("AuthReqd basic ")
        start = time.monotonic()
        client.send(f"AuthInfo basic {password}")
        client.expect(answer)
        waited = time.monotonic() - start
        client.close()
        return waited

    def script() -> list[float]:
        failure = "ConnectReply 1110 0 Authentication failure"
        waits = [attempt("Mallory", "guess", failure) for _ in range(3)]
        return [*waits, attempt("Alice", "secret", "ConnectReply 1110 1 ")]

    async def run() -> list[float]:
        server = Server(table)
        await server.start(UnixAddress(path))
        running = asyncio.create_task(server.run())
        try:
            return await asyncio.to_thread(script)
        finally:
            server.stop()
            await asyncio.wait_for(running, 10)

    first, second, third, rightful = asyncio.run(run())
    assert first < FIRST_DELAY / 2, "no failure yet: no wait"
    assert FIRST_DELAY * 0.8 < second < third, "each failure makes the next attempt wait longer"
    assert third > FIRST_DELAY * 2 * 0.8
    assert rightful > FIRST_DELAY * 4 * 0.8, "the right password, too, waits: the wait tells nothing"
    logged = [line for line in capfd.readouterr().err.splitlines() if "authentication failure" in line]
    assert len(logged) == 3 and all("for id 1 from local" in line for line in logged), logged


# ---------------------------------------------------------------------- a game under siege


class Siege(threading.Thread):
    """Keeps ``idle`` silent connections and ``slow`` slowloris ones open, reopening those the server cuts off."""

    def __init__(self, port: int, idle: int, slow: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.idle = idle
        self.slow = slow
        self.stopping = threading.Event()
        self.opened = 0
        self.cut_off = 0
        self.refused = 0

    def _open(self, number: int) -> socket.socket | None:
        """A connection from 127.0.0.<2..51> or 127.0.1.<..>: many addresses, as a crowd would have."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((f"127.0.{number // 50}.{2 + number % 50}", 0))
            sock.connect(("127.0.0.1", self.port))
        except OSError as exc:
            sock.close()
            if exc.errno not in (errno.ECONNREFUSED, errno.ECONNRESET, errno.EADDRNOTAVAIL, errno.EAGAIN):
                raise
            self.refused += 1
            return None
        sock.setblocking(False)
        self.opened += 1
        return sock

    def run(self) -> None:
        sockets: dict[int, socket.socket | None] = {}
        total = self.idle + self.slow
        try:
            while not self.stopping.is_set():
                reopened = 0
                for number in range(total):
                    if sockets.get(number) is None and reopened < 50:  # at most 50 new ones per round
                        sockets[number] = self._open(number)
                        reopened += 1
                live = {s: n for n, s in sockets.items() if s is not None}
                readable, _, _ = select.select(list(live), [], [], 0.05) if live else ([], [], [])
                for sock in readable:
                    try:
                        data = sock.recv(4096)
                    except OSError:
                        data = b""
                    if not data:  # cut off by the server: come back
                        self.cut_off += 1
                        sock.close()
                        sockets[live[sock]] = None
                for sock, number in live.items():
                    if number >= self.idle and sockets.get(number) is sock:
                        with contextlib.suppress(OSError):
                            sock.send(b"C")  # a slowloris line: one byte a round, never ended
                time.sleep(0.1)
        finally:
            for sock in sockets.values():
                if sock is not None:
                    sock.close()


@pytest.fixture
def siege_dir(tmp_path: Path) -> Iterator[tuple[Path, list[subprocess.Popen[bytes]]]]:
    processes: list[subprocess.Popen[bytes]] = []
    try:
        yield tmp_path, processes
    finally:
        for process in reversed(processes):
            kill(process)


def _log_count(path: Path, needle: bytes) -> int:
    return path.read_bytes().count(needle) if path.exists() else 0


def _wait_log(path: Path, needle: bytes, count: int, server: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while _log_count(path, needle) < count:
        assert server.poll() is None, "the server exited"
        assert time.monotonic() < deadline, f"{needle!r} not logged {count} times"
        time.sleep(0.01)


def test_four_robots_finish_a_game_and_a_lost_one_rejoins_under_500_idle_and_100_slowloris_connections(
    siege_dir: tuple[Path, list[subprocess.Popen[bytes]]],
) -> None:
    workdir, processes = siege_dir
    log = workdir / "game.log"
    arguments = ["--server", "127.0.0.1:0", "--seed", "1002", "--timeout", "2", "--logfile", "game.log"]
    arguments += ["--connect-timeout", "2", "--line-timeout", "1"]
    with (workdir / "server.out").open("wb") as out, (workdir / "server.err").open("wb") as err:
        server = subprocess.Popen([*OUR_SERVER, *arguments], cwd=workdir, stdout=out, stderr=err)
    processes.append(server)
    assert wait_for_text(workdir / "server.out", b"\n", time.monotonic() + 20, server)
    address = announced_address((workdir / "server.out").read_text())
    assert address is not None
    siege = Siege(int(address.rsplit(":", 1)[1]), idle=500, slow=100)
    siege.start()
    try:
        deadline = time.monotonic() + 20
        while siege.opened < 600:  # every one of them was let in at least once before the players come
            assert time.monotonic() < deadline, f"only {siege.opened} connections opened"
            time.sleep(0.05)

        def robot(number: int, *extra: str) -> subprocess.Popen[bytes]:
            command = [OUR_PLAYER, "--server", address, "--name", f"Robot{number}", *extra]
            process = subprocess.Popen(command, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            processes.append(process)
            return process

        robots = []
        for number in range(1, 5):
            robots.append(robot(number))
            _wait_log(log, f"ConnectReply 1110 {number} \r\n".encode(), 1, server, 20)
        _wait_log(log, b" PlayerDiscards ", 3, server, 30)
        kill(robots[1])
        _wait_log(log, b" StopPlay Lost connection to player 2; game suspended\r\n", 1, server, 20)
        robots[1] = robot(2, "--id", "2")  # a seated player comes back through the crowd
        _wait_log(log, b"ConnectReply 1110 2 \r\n", 2, server, 20)
        statuses = [r.wait(timeout=240) for r in robots]
    finally:
        siege.stopping.set()
        siege.join(timeout=10)
    assert statuses == [0, 0, 0, 0]
    assert server.wait(timeout=20) == 0
    assert _log_count(log, b" GameOver\r\n") == 1
    assert siege.cut_off >= 500, f"the server cut off {siege.cut_off} waiting connections"
    assert b"Traceback" not in (workdir / "server.err").read_bytes()
    result = replay(read_entries(log))
    assert result.mismatch is None and result.hands > 0, result.mismatch


# ---------------------------------------------------------------------- floods of saves and chat


def _drain(client: LineClient, stop: threading.Event) -> None:
    """Read and forget what a client is sent, as a real client does."""
    while not stop.is_set() and not client.eof:
        client._read(time.monotonic() + 0.1)
        client.lines.clear()
        client.cursor = 0


def test_a_save_and_chat_flood_leaves_another_clients_round_trip_under_50_ms(short_dir: Path) -> None:  # noqa: F811
    processes: list[subprocess.Popen[bytes]] = []
    out = short_dir / "server.out"
    try:
        with out.open("wb") as stdout, (short_dir / "server.err").open("wb") as stderr:
            processes.append(
                subprocess.Popen(
                    [*OUR_SERVER, "--server", "sock", "--seed", "7", "--logfile", "game.log"],
                    cwd=short_dir,
                    stdout=stdout,
                    stderr=stderr,
                )
            )
        assert wait_for_text(out, b"\n", time.monotonic() + 20, processes[0])
        clients = []
        for number in range(1, 5):
            client = LineClient("sock", short_dir)
            client.send(f"Connect 1110 0 Player{number}")
            client.expect(f"ConnectReply 1110 {number} ")
            clients.append(client)
        flooder, timer = clients[0], clients[1]
        timer.expect(lambda line: line.startswith("StartPlay"))
        stop = threading.Event()
        readers = [threading.Thread(target=_drain, args=(c, stop), daemon=True) for c in (flooder, *clients[2:])]
        for reader in readers:
            reader.start()
        sent = 0

        def flood() -> None:
            nonlocal sent
            chat = "y" * 1000
            while not stop.is_set():
                batch = []
                for _ in range(25):
                    sent += 1
                    batch.append(f"SaveState flood{sent}\r\nSendMessage 0 {chat}\r\n".encode())
                batch.append(b"SendMessage 0 " + b"z" * 60000 + b"\r\n")  # too long a chat line
                try:
                    flooder.send(b"".join(batch))
                except OSError:
                    return
                time.sleep(0.01)

        flooding = threading.Thread(target=flood, daemon=True)
        flooding.start()
        time.sleep(0.5)
        trips = []
        for _ in range(100):
            start = time.monotonic()
            timer.send("QueryGameOption Timeout")
            timer.expect(lambda line: line.startswith("GameOption 0 Timeout "))
            trips.append(time.monotonic() - start)
            time.sleep(0.01)
        stop.set()
        for thread in (flooding, *readers):
            thread.join(timeout=5)
        trips.sort()
        assert not flooder.eof, "the flooder stayed within the line limits: not cut off"
        assert trips[89] < 0.050, (
            f"90% of round trips under 50 ms; got {trips[89] * 1000:.1f} ms (max {trips[-1] * 1000:.1f})"
        )
        assert trips[49] < 0.010, f"median {trips[49] * 1000:.1f} ms"
        assert sent > 2000, f"only {sent} saves sent: the flood did not run"
        saves = list(short_dir.glob("*.mjs"))
        assert 0 < len(saves) <= MAX_SAVE_NAMES, [s.name for s in saves]
        print(
            f"round trips under a save and chat flood: median {trips[49] * 1000:.2f} ms, 90% {trips[89] * 1000:.2f} ms"
        )
        for client in clients:
            client.close()
        processes[0].terminate()  # the players gone, the server waits for them: stopped
        assert processes[0].wait(timeout=20) == 0
        log = (short_dir / "game.log").read_bytes()
        assert log.count(TOO_FAST.encode()) > 1000, "the flood was refused for its rate"
        result = replay(read_entries(short_dir / "game.log"))
        assert result.mismatch is None, result.mismatch
    finally:
        for process in processes:
            kill(process)


# ---------------------------------------------------------------------- memory


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_memory_after_50000_connections_comes_back_to_where_it_was(short_dir: Path) -> None:  # noqa: F811
    """Half of them join as a player and leave before the game; the others say nothing."""
    out = short_dir / "server.out"
    with out.open("wb") as stdout:
        server = subprocess.Popen([*OUR_SERVER, "--server", "sock", "--timeout", "0"], cwd=short_dir, stdout=stdout)
    try:
        assert wait_for_text(out, b"\n", time.monotonic() + 20, server)

        def connections(count: int) -> None:
            for number in range(count):
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(str(short_dir / "sock"))
                if number % 2:
                    sock.sendall(f"Connect 1110 0 P{number}\r\n".encode())
                    assert sock.recv(200).startswith(b"ConnectReply 1110 ")
                sock.close()

        connections(1000)  # the server's own start, warmed up
        time.sleep(0.5)
        before = _rss_kb(server.pid)
        connections(50_000)
        time.sleep(0.5)
        after = _rss_kb(server.pid)
        assert server.poll() is None
        assert after - before < 4096, f"RSS {before} kB before, {after} kB after 50,000 connections"
    finally:
        kill(server)


def test_the_limits_and_their_defaults_are_in_the_help_and_set_by_options() -> None:
    text = " ".join(cli.build_parser().format_help().split())
    defaults = Limits()
    for option, default in (
        ("--connect-timeout SECONDS", defaults.connect_timeout),
        ("--line-timeout SECONDS", defaults.line_timeout),
        ("--max-waiting N", defaults.max_waiting),
        ("--max-waiting-per-address N", defaults.max_waiting_per_address),
    ):
        assert option in text and f"(default {default:g})" in text
    assert f"at most {MAX_CHAT} characters" in text and f"doubling from {FIRST_DELAY:g} s" in text
    args = cli.build_parser().parse_args(["--connect-timeout", "5", "--max-waiting", "100", "--line-timeout", "2.5"])
    limits = cli.limits_from(args)
    assert (limits.connect_timeout, limits.line_timeout, limits.max_waiting) == (5, 2.5, 100)
    assert limits.max_connections > limits.max_waiting, "room for the players beyond the waiting connections"


def test_a_silent_tcp_connection_is_probed_so_a_dead_link_frees_its_seat_within_two_minutes() -> None:
    """A player whose network dies sends no FIN; while the table waits for its move nothing is written to find out."""
    limits = Limits()
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.create_connection(listener.getsockname()):
        accepted, _ = listener.accept()
        with accepted:
            tune_tcp(accepted, limits)
            assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
            idle = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE)
            interval = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL)
            probes = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT)
    assert (idle, interval, probes) == (limits.keepalive_idle, limits.keepalive_interval, limits.keepalive_probes)
    assert idle + interval * probes <= 120
