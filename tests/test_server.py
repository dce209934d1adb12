"""``mj-server``: original robots play whole games on it, misbehaving clients harm nobody else.

The end-to-end tests run our server as a subprocess (``python -m mj.server``) with
four original ``mj-player`` robots and check that its log replays identically
with ``mj replay`` and is, up to the robots' concurrency, the very game the
original server logged for the same seed. The transport's own rules (timers,
pacing, connection slots, exit) are checked in-process against a small fake table.
Every process is ended by PID and every wait has a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Coroutine, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvloop

from conftest import ORIGINAL_PLAYER, OUR_SERVER, require_original
from mj import tiles
from mj.logfile import parse_log
from mj.protocol import cmsg as C
from mj.protocol.framing import ENCODING, encode_line
from mj.replay import read_entries, replay
from mj.rules.options import GameOptions
from mj.server import cli
from mj.server.address import TcpAddress, UnixAddress, parse_address
from mj.server.logcompare import canonical, first_difference
from mj.server.logwriter import LogWriter
from mj.server.pacing import Pacer
from mj.server.robotgame import announced_address, kill, play_robot_game, wait_for_text
from mj.server.saver import default_name, make_saver
from mj.server.transport import Limits, Server
from mj.table import Delivery
from mj.tiles import parse

DATA = Path(__file__).parent / "data"
CORPUS = DATA / "original"
NO_FLOWERS = DATA / "options" / "no-flowers.opt"


def game_arguments(seed: int, address: str) -> list[str]:
    return ["--server", address, "--seed", str(seed), "--timeout", "0", "--exit-on-disconnect", "--logfile", "game.log"]


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A directory with a short path: Unix socket paths are limited to about 100 bytes."""
    path = Path(tempfile.mkdtemp(prefix="mjs-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def start_server(workdir: Path, started: list[subprocess.Popen[bytes]], *arguments: str) -> str:
    """Start our server in ``workdir``; the address it announced."""
    out = (workdir / "server.out").open("wb")
    with out, (workdir / "server.err").open("wb") as err:
        process = subprocess.Popen([*OUR_SERVER, *arguments], cwd=workdir, stdout=out, stderr=err)
    started.append(process)
    assert wait_for_text(workdir / "server.out", b"\n", time.monotonic() + 20, process), (
        workdir / "server.err"
    ).read_text()
    address = announced_address((workdir / "server.out").read_text())
    assert address is not None, (workdir / "server.out").read_text()
    return address


def start_robots(workdir: Path, address: str, started: list[subprocess.Popen[bytes]], count: int = 4) -> None:
    """Connect original robots Robot1.. in order (the server must log to ``game.log``)."""
    for number in range(1, count + 1):
        started.append(
            subprocess.Popen(
                [ORIGINAL_PLAYER, "--server", address, "--name", f"Robot{number}"],
                cwd=workdir,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        reply = f"ConnectReply 1110 {number} ".encode()
        assert wait_for_text(workdir / "game.log", reply, time.monotonic() + 10, started[0])


class LineClient:
    """A raw protocol client for tests: sends lines, collects the lines it receives."""

    def __init__(self, address: str, workdir: Path) -> None:
        parsed = parse_address(address)
        if isinstance(parsed, UnixAddress):
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(str(workdir / parsed.path))
        else:
            self.sock = socket.create_connection((parsed.host, parsed.port))
        self.buffer = b""
        self.lines: list[str] = []
        #: Lines before this index have been looked at by :meth:`expect`.
        self.cursor = 0
        self.eof = False

    def send(self, data: bytes | str) -> None:
        self.sock.sendall(data.encode() + b"\r\n" if isinstance(data, str) else data)

    def expect(self, wanted: Callable[[str], bool] | str, timeout: float = 10.0) -> str:
        """The next line ``wanted`` (a predicate, or the exact text), skipping others; fails at EOF or timeout."""
        test = wanted if callable(wanted) else (lambda line: line == wanted)
        deadline = time.monotonic() + timeout
        while True:
            while self.cursor < len(self.lines):
                line = self.lines[self.cursor]
                self.cursor += 1
                if test(line):
                    return line
            if self.eof or time.monotonic() > deadline:
                raise AssertionError(f"never received {wanted!r}; got {self.lines[-10:]!r}")
            self._read(deadline)

    def read_to_eof(self, timeout: float = 10.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while not self.eof:
            assert time.monotonic() < deadline, "connection not closed"
            self._read(deadline)
        return self.lines

    def _read(self, deadline: float) -> None:
        self.sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            return
        except ConnectionError:
            data = b""
        if not data:
            self.eof = True
            return
        self.buffer += data
        *complete, self.buffer = self.buffer.split(b"\r\n")
        self.lines += [line.decode(ENCODING) for line in complete]

    def close(self) -> None:
        self.sock.close()


# ---------------------------------------------------------------------- whole games with original robots


def _check_game(seed: int, address: str, workdir: Path, recorded: Path, *extra: str) -> float:
    require_original()
    run = play_robot_game([*OUR_SERVER, *game_arguments(seed, address), *extra], workdir, workdir / "game.log")
    assert run.ok, run.message
    assert run.server_status == 0
    assert "Game over. Final scores:" in run.stdout
    entries = parse_log(run.log.decode(ENCODING))
    result = replay(entries)
    assert result.mismatch is None, str(result.mismatch)
    assert result.hands >= 4
    difference = first_difference(read_entries(recorded), entries)
    assert difference is None, difference.describe("original", "ours")
    return run.seconds


def test_robots_play_the_original_game_over_a_unix_socket(short_dir: Path) -> None:
    _check_game(1001, "sock", short_dir, CORPUS / "seed1001-default.log.gz")
    assert not (short_dir / "sock").exists(), "the socket file is removed at exit"


def test_robots_play_the_original_game_over_tcp(short_dir: Path) -> None:
    _check_game(1011, "127.0.0.1:0", short_dir, CORPUS / "seed1011-no-flowers.log.gz", "--option-file", str(NO_FLOWERS))


def test_the_claim_timer_answers_for_a_silent_player(short_dir: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    """Three robots and a client that never claims: after ``--timeout 1`` it is answered for (§7.5)."""
    require_original()
    arguments = ["--server", "sock", "--seed", "5", "--timeout", "1", "--option-file", str(NO_FLOWERS)]
    address = start_server(short_dir, processes, *arguments, "--logfile", "game.log")
    start_robots(short_dir, address, processes, 3)
    lazy = LineClient(address, short_dir)
    try:
        lazy.send("Connect 1110 0 Lazy")
        lazy.expect("ConnectReply 1110 4 ")
        lazy.expect(lambda line: line.startswith("Pause "))
        lazy.send("Ready")
        lazy.expect("PlayerDeclaresSpecial 3 --")
        lazy.send("DeclareSpecial --")
        lazy.expect(lambda line: line.startswith("Pause 1 "))
        lazy.send("Ready")
        discard = lazy.expect(lambda line: line.startswith("PlayerDiscards 1 "))
        discarded = time.monotonic()
        serial = discard.split()[3]
        lazy.expect(f"PlayerDoesntClaim 4 {serial} 1", timeout=5)
        waited = time.monotonic() - discarded
        assert 0.8 < waited < 3.0
    finally:
        lazy.close()


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("--end-on-disconnect", b"Lost connection to player 2 - "),
        ("--exit-on-disconnect", b" StopPlay Lost connection to player 2quitting\r\n"),
    ],
)
def test_a_robot_lost_in_mid_game_ends_it(
    option: str, expected: bytes, short_dir: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    require_original()
    address = start_server(
        short_dir, processes, "--server", "sock", "--seed", "3", "--timeout", "0", option, "--logfile", "game.log"
    )
    start_robots(short_dir, address, processes)
    assert wait_for_text(short_dir / "game.log", b" PlayerDiscards ", time.monotonic() + 20, processes[0])
    kill(processes[2])  # Robot2
    assert processes[0].wait(timeout=20) == 0
    log = (short_dir / "game.log").read_bytes()
    assert b"<cnx2 (null)" in log and expected in log
    if option == "--end-on-disconnect":
        assert b" GameOver\r\n" in log
        assert "Game over. Final scores:" in (short_dir / "server.out").read_text()


# ---------------------------------------------------------------------- misbehaving clients


def test_garbage_overlong_lines_and_floods_cut_off_only_their_sender(
    short_dir: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    address = start_server(short_dir, processes, "--server", "sock", "--logfile", "game.log")
    alice = LineClient(address, short_dir)
    half = LineClient(address, short_dir)
    rude = LineClient(address, short_dir)
    flood = LineClient(address, short_dir)
    try:
        alice.send("Connect 1110 0 Alice")
        alice.expect("ConnectReply 1110 1 ")
        half.send(b"Connect 1110 0 Ha")  # half a line: must not stall anybody
        rude.send(b"\xff\x00 garbage\r\n")
        rude.expect("Error 1 Protocol error")  # a bad line is answered, the connection stays
        rude.send(b"x" * 100_000)
        rude.expect("Error 0 Line too long; connection closed")
        rude.read_to_eof()
        flood.send(b"Ready\r\n" * 20_000)
        flood.expect("Error 0 Too many lines received; connection closed")
        flood.read_to_eof()
        alice.send("SendMessage 0 still here")
        alice.expect("Message 1 0 still here")
        half.send(b"lf\r\n")
        half.expect("ConnectReply 1110 2 ")
        alice.expect("Player 2 Half")
    finally:
        for client in (alice, half, rude, flood):
            client.close()
    log = (short_dir / "game.log").read_bytes()
    assert b"<cnx3 \xff\x00 garbage\r\n" in log
    assert b"xxxxxxxx" not in log
    assert b"<cnx3 (null)" in log and b"<cnx4 (null)" in log


def test_connections_take_the_first_free_slot(short_dir: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    address = start_server(short_dir, processes, "--server", "sock", "--logfile", "game.log")
    first, second = LineClient(address, short_dir), LineClient(address, short_dir)
    first.send("Connect 1110 0 One")
    first.expect("ConnectReply 1110 1 ")
    second.send("Connect 1110 0 Two")
    second.expect("ConnectReply 1110 2 ")
    first.close()
    assert wait_for_text(short_dir / "game.log", b"<cnx1 (null)", time.monotonic() + 10)
    third = LineClient(address, short_dir)
    third.send("Connect 1110 0 Three")
    third.expect("ConnectReply 1110 3 ")
    second.close()
    third.close()
    assert b"<cnx1 Connect 1110 0 Three\r\n" in (short_dir / "game.log").read_bytes()


# ---------------------------------------------------------------------- process level


def test_sigterm_stops_the_server_cleanly(short_dir: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    address = start_server(short_dir, processes, "--server", "sock")
    assert address == "sock" and (short_dir / "sock").exists()
    client = LineClient(address, short_dir)
    os.kill(processes[0].pid, signal.SIGTERM)
    assert processes[0].wait(timeout=10) == 0
    client.read_to_eof()
    client.close()
    assert not (short_dir / "sock").exists()


def test_an_unusable_address_fails_with_the_originals_message(tmp_path: Path) -> None:
    done = subprocess.run(
        [*OUR_SERVER, "--server", str(tmp_path / "missing" / "sock")], capture_output=True, timeout=30, check=False
    )
    assert done.returncode == 1
    assert done.stdout == b"FAILED: couldn't set up socket\n"


def test_a_tcp_address_is_announced_as_given(short_dir: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert start_server(short_dir, processes, "--server", f"127.0.0.1:{port}") == f"127.0.0.1:{port}"


# ---------------------------------------------------------------------- command line


@pytest.mark.parametrize(
    "arguments",
    [
        ["--timeout", "x"],
        ["--timeout", "-1"],
        ["--pause", "soon"],
        ["--disconnect-penalties", "1,a"],
        ["--disconnect-penalties", "1,2,3,4"],
        ["--auth-basic", "nocolon"],
        ["--auth-basic", "0:pw"],
        ["--no-such-option"],
        ["--server", "host:99999"],
    ],
)
def test_bad_options_exit_with_status_1(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(arguments)
    assert exited.value.code == 1
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (["--seed", "-3"], "argument --seed: expected a whole number of at least 0, not '-3'"),
        (["--pause", "soon"], "argument --pause: expected a whole number of at least 0, not 'soon'"),
        (["--max-waiting", "0"], "argument --max-waiting: expected a whole number of at least 1, not '0'"),
        (
            ["--max-waiting-per-address", "1.5"],
            "argument --max-waiting-per-address: expected a whole number of at least 1, not '1.5'",
        ),
        (["--connect-timeout", "0"], "argument --connect-timeout: must be from 0.001 to 86400 seconds: '0'"),
        (["--line-timeout", "nan"], "argument --line-timeout: must be from 0.001 to 86400 seconds: 'nan'"),
        (["--line-timeout", "soon"], "argument --line-timeout: not a number of seconds: 'soon'"),
    ],
)
def test_a_number_out_of_range_names_its_bound_in_one_line(
    arguments: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server's numbers are read as every other program's are (:mod:`mj.argtypes`)."""
    with pytest.raises(SystemExit) as exited:
        cli.main(arguments)
    assert exited.value.code == 1
    assert capsys.readouterr().err.splitlines()[-1] == f"mj-server: error: {error}"


def test_bad_files_exit_with_status_2_and_other_bad_settings_with_status_1(tmp_path: Path) -> None:
    """A file read, or a log that cannot be written, is refused with status 2 (tests/test_input_files.py has
    every kind); other settings 1."""
    short_wall = tmp_path / "short.wall"
    short_wall.write_text("1B 2B 3B\n")
    saved = tmp_path / "bad.mjs"
    saved.write_text("this is not a saved game\r\n")
    for status, arguments in (
        (2, ["--wallfile", str(short_wall)]),
        (2, ["--option-file", str(tmp_path / "missing.opt")]),
        (2, ["--load-game", str(saved)]),
        (2, ["--load-game", str(tmp_path / "missing.mjs")]),
        (2, ["--logfile", str(tmp_path / "no" / "such" / "dir.log")]),
        (1, [f"--auth-basic={n}:pw" for n in range(1, 6)]),
    ):
        # a subprocess, so that a file wrongly accepted cannot leave a server listening in this process
        done = subprocess.run(
            [*OUR_SERVER, "--server", "s", *arguments], cwd=tmp_path, capture_output=True, timeout=30, check=False
        )
        assert done.returncode == status, arguments
        assert b"mj-server: " in done.stderr and done.stdout == b"", arguments


def test_options_become_table_settings(tmp_path: Path) -> None:
    options = tmp_path / "x.opt"
    options.write_bytes(
        b"# a comment\r\nGameOption 0 Flowers bool 1020 1 0 play using flowers and seasons\r\n\r\n"
        b"junk line\r\nGameOption 0 NumRounds nat 0 1 2 number of rounds to play"  # no final newline
    )
    wall = tmp_path / "x.wall"
    wall.write_text(tiles.codes(reversed(tiles.full_set(False))))
    arguments = [
        *["--timeout", "3", "--pause", "5", "--seed", "42", "--random-seats", "--id-order-seats"],
        *["--disconnect-penalties", "10,20", "--end-on-disconnect", "--exit-on-disconnect", "--save-on-exit"],
        *["--option-file", str(options), "--wallfile", str(wall), "--no-id-required", "--no-manager"],
        *["--auth-basic", "1:secret", "--auth-basic", "2:", "--debug", "--hand-history"],
        *["--no-special-scores", "--nohist", "--original-quirks"],
    ]
    settings = cli.build_settings(cli.build_parser().parse_args(arguments))
    assert [(e.name, e.value) for e in settings.option_entries] == [("Flowers", 0), ("NumRounds", 2)]
    assert settings.wall_file is not None and len(settings.wall_file) == 136
    expected = {
        **{"timeout": 3, "pause": 5, "seed": 42, "random_seats": True, "id_order_seats": True},
        **{"disconnect_penalties": (10, 20, 0), "end_on_disconnect": True, "exit_on_disconnect": True},
        **{"save_on_exit": True, "no_id_required": True, "no_manager": True, "auth_basic": {1: "secret", 2: ""}},
        **{"debug": True, "hand_history": True, "special_scores": False, "nohist": True, "original_quirks": True},
    }
    assert {name: getattr(settings, name) for name in expected} == expected
    assert cli.build_settings(cli.build_parser().parse_args([])).seed > 0, "no seed: from the clock"


def test_an_option_line_without_a_description_takes_the_last_one_the_file_gave(tmp_path: Path) -> None:
    """As the original, whose decoder leaves its one description buffer as it was; the first such line
    keeps the server's text. Unknown options and type clashes give theirs too (all checked on mj-server)."""
    options = tmp_path / "x.opt"
    options.write_text(
        "GameOption 0 ScoreLimit nat 0 1 500 \n"
        "GameOption 0 Frob nat 0 1 5 frobbing\n"
        "GameOption 0 NoLimit bool 0 1 1\n"
        "GameOption 0 Flowers nat 1020 1 0 clash\n"
        "GameOption 0 NumRounds nat 0 1 1 \n"
    )
    entries = cli.read_option_file(options)
    assert [(e.name, e.description) for e in entries] == [
        ("ScoreLimit", ""),
        ("Frob", "frobbing"),
        ("NoLimit", "frobbing"),
        ("Flowers", "clash"),
        ("NumRounds", "clash"),
    ]
    table = GameOptions()
    for entry in entries:
        table.apply_entry(entry)
    assert table.entry("ScoreLimit").description == "limit on hand score"
    assert table.entry("NumRounds").description == "clash"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (":5000", TcpAddress("localhost", 5000)),
        ("localhost:5000", TcpAddress("localhost", 5000)),
        ("127.0.0.1:0", TcpAddress("127.0.0.1", 0)),
        ("[::1]:7000", TcpAddress("::1", 7000)),
        ("sock", UnixAddress("sock")),
        ("/tmp/mj:5000", UnixAddress("/tmp/mj:5000")),
        ("host:port", UnixAddress("host:port")),
    ],
)
def test_addresses(text: str, expected: object) -> None:
    assert parse_address(text) == expected


# ---------------------------------------------------------------------- files


def test_saves_are_atomic_and_default_names_take_the_first_free_number(tmp_path: Path) -> None:
    save = make_saver(tmp_path)
    first = save("", "Player 1 A\r\n")
    assert first is not None and first.startswith("game-") and first.endswith("-0.mjs")
    second = save("", "x")
    assert second == first.replace("-0.mjs", "-1.mjs")
    assert save("mine.mjs", "Game \xe9\r\n") == "mine.mjs"
    assert (tmp_path / "mine.mjs").read_bytes() == b"Game \xe9\r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first, second, "mine.mjs"]), "no temporary files left"
    assert save("../evil.mjs", "x") is None
    assert make_saver(tmp_path / "missing")("a.mjs", "x") is None
    for n in range(10):
        (tmp_path / f"game-2020-01-02-{n}.mjs").touch()
    assert default_name(tmp_path, datetime.date(2020, 1, 2)) == "game-2020-01-02-9.mjs"


def test_a_save_over_a_temporary_file_left_by_a_crash_replaces_both(tmp_path: Path) -> None:
    (tmp_path / "mine.mjs").write_text("old")
    (tmp_path / f".mine.mjs.{os.getpid()}.tmp").write_text("half a save")
    assert make_saver(tmp_path)("mine.mjs", "new") == "mine.mjs"
    assert [(p.name, p.read_text()) for p in tmp_path.iterdir()] == [("mine.mjs", "new")]


@pytest.mark.parametrize("with_wire_bytes", [False, True])
def test_the_log_keeps_terminators_and_writes_end_of_file_without_newline(
    tmp_path: Path, with_wire_bytes: bool
) -> None:
    def sent(connection: int, text: str) -> None:
        log.sent(connection, text, encode_line(text) if with_wire_bytes else None)

    log = LogWriter.open(str(tmp_path / "x.log"))
    log.received(1, "Connect 1110 0 A\r\n")
    sent(1, "ConnectReply 1110 1 ")
    log.received(2, "Ready\n")
    log.end_of_file(2)
    sent(1, "Settlement a\nb\n\n")  # escaped on the wire, not in the log
    log.close()
    data = (tmp_path / "x.log").read_bytes()
    assert data == (
        b"<cnx1 Connect 1110 0 A\r\n>cnx1 ConnectReply 1110 1 \r\n"
        b"<cnx2 Ready\n<cnx2 (null)>cnx1 Settlement a\nb\n\n\r\n"
    )
    assert len(parse_log(data.decode(ENCODING))) == 5


def test_pacing_holds_back_only_tile_movements_and_doubles_after_a_claimed_set() -> None:
    pacer = Pacer()
    draw = [Delivery(1, C.PlayerDraws(1, parse("1B")), True)]
    pung = [Delivery(1, C.PlayerPungs(2, parse("1B")), True)]
    chat = [Delivery(1, C.Message(0, 0, "hi"), True)]
    assert pacer.wait(draw, 0.5, 10.0) == 0, "nothing moved yet"
    pacer.sent(draw, 10.0)
    assert pacer.wait(chat, 0.5, 10.1) == 0
    assert pacer.wait(draw, 0.5, 10.1) == pytest.approx(0.4)
    assert pacer.wait(draw, 0, 10.1) == 0
    pacer.sent(pung, 11.0)
    assert pacer.wait(draw, 0.5, 11.0) == pytest.approx(1.0)


# ---------------------------------------------------------------------- log comparison


def test_the_canonical_form_forgets_only_concurrent_order() -> None:
    entries = read_entries(CORPUS / "seed1001-default.log.gz")
    # the three answers to the first discard, in another order
    first = next(i for i, e in enumerate(entries) if (e.text or "").startswith("PlayerDiscards"))
    answers = entries[first + 1 : first + 7]
    assert [e.direction for e in answers] == ["<", ">", "<", ">", "<", ">"], answers
    swapped = [*entries[: first + 1], *answers[2:4], *answers[0:2], *answers[4:], *entries[first + 7 :]]
    assert canonical(swapped) != [] and first_difference(entries, swapped) is None
    # ... but not a changed line, nor one connection's lines in another order
    changed = list(entries)
    changed[first + 2] = dataclasses.replace(changed[first + 2], text=(changed[first + 2].text or "") + "x")
    difference = first_difference(entries, changed)
    assert difference is not None and difference.left is not None
    reordered = [*entries[:first], entries[first + 1], entries[first], *entries[first + 2 :]]
    assert first_difference(entries, reordered) is not None


# ---------------------------------------------------------------------- the transport, with a fake table


class FakeTable:
    """Answers ``draw`` with a tile movement, ``quit`` by asking to close, ``exit N`` with an exit status."""

    def __init__(self) -> None:
        self.closing: set[int] = set()
        self.exit_status: int | None = None
        self.timer: tuple[Hashable, float] | None = None
        self.pause = 0.0
        self.events: list[tuple[str, int, float]] = []
        self.auth_failures: list[tuple[int, int]] = []
        #: Connections that have sent ``join`` (the table's accepted Connect).
        self.players: set[int] = set()

    def open(self, connection: int) -> list[Delivery]:
        self.events.append(("open", connection, time.monotonic()))
        return []

    def receive(self, connection: int, line: str) -> list[Delivery]:
        self.events.append((line, connection, time.monotonic()))
        if line == "draw":
            return [Delivery(connection, C.PlayerDraws(connection, parse("1B")), True)]
        if line == "quit":
            self.closing.add(connection)
            return [Delivery(connection, C.Message(0, connection, "bye"), True)]
        if line.startswith("timer "):
            self.timer = (line, float(line.split()[1]))
        if line == "join":
            self.players.add(connection)
        if line.startswith("exit "):
            self.exit_status = int(line.split()[1])
            return [Delivery(connection, C.Message(0, 0, "exiting"), False)]
        return []

    def close(self, connection: int) -> list[Delivery]:
        self.closing.discard(connection)
        self.players.discard(connection)
        self.events.append(("close", connection, time.monotonic()))
        return []

    def timeout(self) -> list[Delivery]:
        self.events.append(("timeout", 0, time.monotonic()))
        self.timer = None
        return []

    def claim_timer(self) -> tuple[Hashable, float] | None:
        return self.timer

    def pacing(self) -> float:
        return self.pause

    def joined(self, connection: int) -> bool:
        return connection in self.players

    def refuse(self, connection: int, reason: str = "too fast") -> list[Delivery]:
        return [Delivery(connection, C.Error(0, reason), True)]

    def auth_player(self, connection: int) -> int | None:
        return None


RunLoop = Callable[[Coroutine[Any, Any, int]], int]


@pytest.fixture(params=["asyncio", "uvloop"])
def run_loop(request: pytest.FixtureRequest) -> RunLoop:
    """Runs a coroutine to its end on asyncio's own loop, then (second parameter) on uvloop, which mj-server uses."""
    factory = uvloop.new_event_loop if request.param == "uvloop" else asyncio.new_event_loop

    def run(coroutine: Coroutine[Any, Any, int]) -> int:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(coroutine)

    return run


async def _with_server(
    table: FakeTable, directory: Path, script: Callable[[str], object], limits: Limits | None = None
) -> int:
    path = str(directory / "s")
    log = LogWriter.open(str(directory / "fake.log"))
    server = Server(table, log, limits)
    await server.start(UnixAddress(path))
    running = asyncio.create_task(server.run())
    try:
        await asyncio.to_thread(script, path)
        return await asyncio.wait_for(running, 10)
    finally:
        server.stop()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(running, 10)
        log.close()


def _client(path: str) -> LineClient:
    return LineClient(path, Path("/"))


def test_pacing_spaces_tile_movements_and_exit_flushes(short_dir: Path, run_loop: RunLoop) -> None:
    table = FakeTable()
    table.pause = 0.2
    received: list[str] = []

    def script(path: str) -> None:
        client = _client(path)
        client.send(b"draw\r\ndraw\r\nhello\r\ndraw\r\nexit 3\r\n")
        received.extend(client.read_to_eof())
        client.close()

    assert run_loop(_with_server(table, short_dir, script)) == 3
    assert received == ["PlayerDraws 1 1B"] * 3 + ["Message 0 0 exiting"]
    handled = {line: t for line, _, t in reversed(table.events)}
    # each draw after the first waits 0.2 s for the previous one; the last line comes after the third
    assert table.events[-1][2] - handled["draw"] >= 0.35
    assert b"<cnx1 exit 3\r\n" in (short_dir / "fake.log").read_bytes()
    assert b"exiting" not in (short_dir / "fake.log").read_bytes(), "unlogged deliveries stay out of the log"


def test_the_claim_timer_follows_the_tables_key(short_dir: Path, run_loop: RunLoop) -> None:
    table = FakeTable()

    def script(path: str) -> None:
        client = _client(path)
        client.send("timer 0.3")
        time.sleep(0.1)
        client.send("timer 0.2")  # a new window: restarts
        time.sleep(0.5)
        client.send("exit 0")
        client.read_to_eof()
        client.close()

    assert run_loop(_with_server(table, short_dir, script)) == 0
    timeouts = [t for line, _, t in table.events if line == "timeout"]
    started = next(t for line, _, t in table.events if line == "timer 0.2")
    assert len(timeouts) == 1 and 0.15 < timeouts[0] - started < 0.45


def test_closing_requested_by_the_table_and_slots_beyond_the_limit(short_dir: Path, run_loop: RunLoop) -> None:
    table = FakeTable()
    got: dict[str, list[str]] = {}

    def script(path: str) -> None:
        first = _client(path)
        first.send("hello")
        second = _client(path)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            second.send("hello")  # the server may have refused and closed it already: this line must go nowhere
        got["refused"] = second.read_to_eof()
        first.send("quit")
        got["first"] = first.read_to_eof()
        third = _client(path)
        third.send("exit 0")
        third.read_to_eof()
        for client in (first, second, third):
            client.close()

    assert run_loop(_with_server(table, short_dir, script, Limits(max_connections=1))) == 0
    assert got["refused"] == ["Error 0 Unable to accept new connections"]
    assert got["first"] == ["Message 0 1 bye"]
    assert [(e, c) for e, c, _ in table.events] == [
        ("open", 1),
        ("hello", 1),
        ("quit", 1),
        ("close", 1),
        ("open", 1),
        ("exit 0", 1),
    ]


def test_the_harness_reports_a_server_that_cannot_start(tmp_path: Path) -> None:
    run = play_robot_game([str(tmp_path / "no-such-server")], tmp_path, tmp_path / "game.log", timeout=5)
    assert not run.ok and "cannot start the server" in run.message
    run = play_robot_game([*OUR_SERVER, "--server", str(tmp_path / "missing" / "sock")], tmp_path, tmp_path / "x.log")
    assert not run.ok and run.message.startswith("the server did not print OK")
