"""Our robots rejoining a game resumed from its journal never send a move the server refuses.

On resuming, the server pauses "to continue play" and waits for every Ready. When the
journal ends while flowers are being declared, or while the losers declare their hands
after the winner's score, that pause falls in a phase whose moves the server takes
during a pause (protocol.md §7.14). A robot that moved then moved again when the pause
ended, before the server's answer to its first move came: ``Can only declare in turn``,
``Don't have that special``, ``Can't reveal your tiles now!``, ``Hand already declared``
(s32 audit, fault 2). Like the original robot (§14.1), ours waits for the end of the pause.

The journals are cut from games played in-process (the arena's exchange), at the first
such moment of the game of a seed. The in-process resume hands the robots the server's
messages in the order they were sent. Over sockets, a :class:`Relay` in front of each
robot holds back whatever it sends after ``StartPlay`` but its ``Ready`` until it has
been told of the pause's end: a robot's move made during the pause then always reaches
the server after the pause, as it did in the audit's runs on most of the timings.
"""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from conftest import ORIGINAL_SERVER, OUR_SERVER, require_original
from mj.arena.exchange import exchange
from mj.arena.players import parse_player
from mj.arena.tally import GameTally
from mj.robot.agent import Robot
from mj.rules.options import OptionEntry, OptionType
from mj.server.robotgame import announced_address, wait_for_text
from mj.table import Table, TableSettings

NUM_ROUNDS_1 = OptionEntry("NumRounds", OptionType.NAT, 0, True, 1, "number of rounds to play")
NAMES = tuple(f"Robot{n}" for n in range(1, 5))
OUR_ROBOT = (sys.executable, "-m", "mj.robot")
#: For a loaded machine; the original server sends the history slowly (§10.4).
DEADLINE = 180.0
#: A message of a save file ends at a line end not escaped by a backslash.
_MESSAGE_END = re.compile(r"(?<!\\)\r\n")


def _hand_messages(save_text: str) -> list[str]:
    """The messages of the hand in progress in a save file (from its ``NewHand`` on)."""
    return _MESSAGE_END.split(save_text.split("\r\nNewHand ")[-1].rstrip("\r\n"))


def _in_flowers_declarations(hand: list[str]) -> bool:
    """A player has just finished declaring, and others have still to (no pause "to start play" yet)."""
    return re.fullmatch(r"PlayerDeclaresSpecial \d --", hand[-1]) is not None and not any(
        m.startswith("Pause ") for m in hand
    )


def _in_losers_declarations(hand: list[str]) -> bool:
    """The winner's hand has just been scored, and no loser's yet."""
    return hand[-1].startswith("HandScore ") and sum(m.startswith("HandScore ") for m in hand) == 1


CUTS: dict[str, Callable[[list[str]], bool]] = {
    "flowers": _in_flowers_declarations,
    "losers": _in_losers_declarations,
}


def journal_cut(seed: int, cut: str) -> str:
    """The journal of the one-round game of ``seed`` at the first moment ``CUTS[cut]`` holds."""
    found: list[str] = []

    def record(table: Table) -> None:
        if not found and table.game is not None:
            text = table.save_text()
            if CUTS[cut](_hand_messages(text)):
                found.append(text)

    table = Table(TableSettings(timeout=0, seed=seed, option_entries=(NUM_ROUNDS_1,)))
    table.journal = record
    exchange(table, _robots(seed), NAMES, GameTally(), None)
    assert found, f"the game of seed {seed} never reaches the {cut} declarations"
    return found[0]


def _robots(seed: int) -> list[Robot]:
    return [Robot(parse_player("default").strategy(seed)) for _ in NAMES]


@pytest.mark.parametrize("seed", [5, 6, 7])
@pytest.mark.parametrize("cut", list(CUTS))
def test_robots_resuming_a_journal_cut_in_declarations_make_no_move_the_server_refuses(cut: str, seed: int) -> None:
    """In-process: the table resumes the journal, the robots rejoin by name and play the game to its end."""
    table = Table(TableSettings(timeout=0))
    table.load(journal_cut(seed, cut))
    robots = _robots(seed)
    tally = GameTally()
    exchange(table, robots, NAMES, tally, None)
    assert tally.game_over
    refused = {robot.view.my_id: [(m.encode(), why) for m, why in robot.refusals] for robot in robots if robot.refusals}
    assert refused == {}


class Relay:
    """A Unix socket ``name`` in ``workdir`` passing one robot's lines to the server's socket ``sock`` and back.

    From ``StartPlay`` on, the robot's lines other than ``Ready`` are held back until
    four players are ready (the pause "to continue play" is over), then sent on first.
    """

    def __init__(self, workdir: Path, name: str) -> None:
        self.held: list[bytes] = []
        self._started = threading.Event()
        self._released = False
        self._lock = threading.Lock()
        self._server = socket.socket(socket.AF_UNIX)
        self._server_path = str(workdir / "sock")
        self._listener = socket.socket(socket.AF_UNIX)
        self._listener.bind(str(workdir / name))
        self._listener.listen(1)
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        robot, _ = self._listener.accept()
        self._listener.close()
        self._server.connect(self._server_path)
        threading.Thread(target=self._down, args=(robot,), daemon=True).start()
        with contextlib.suppress(OSError):  # the server or the robot gone at the end
            for line in _lines(robot):
                with self._lock:
                    if self._started.is_set() and not self._released and line.rstrip() != b"Ready":
                        self.held.append(line)
                    else:
                        self._server.sendall(line)
        _end(self._server)

    def _down(self, robot: socket.socket) -> None:
        ready: set[bytes] = set()
        with contextlib.suppress(OSError):
            for line in _lines(self._server):
                if line.startswith(b"StartPlay "):
                    self._started.set()
                elif self._started.is_set() and (ready_id := re.match(rb"PlayerReady (\d)", line)):
                    ready.add(ready_id[1])
                    if len(ready) == 4:
                        with self._lock:
                            self._released = True
                            self._server.sendall(b"".join(self.held))
                robot.sendall(line)
        _end(robot)


def _lines(connection: socket.socket) -> Iterator[bytes]:
    partial = b""
    while data := connection.recv(65536):
        *lines, partial = (partial + data).split(b"\n")
        yield from (line + b"\n" for line in lines)


def _end(connection: socket.socket) -> None:
    """Shut down (which wakes the other thread's ``recv``), then close."""
    with contextlib.suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)
    connection.close()


def _start(
    command: Sequence[str], workdir: Path, name: str, processes: list[subprocess.Popen[bytes]]
) -> subprocess.Popen[bytes]:
    with (workdir / f"{name}.out").open("wb") as out, (workdir / f"{name}.err").open("wb") as err:
        process = subprocess.Popen(command, cwd=workdir, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    processes.append(process)
    return process


@pytest.mark.parametrize("server", ["ours", "original"])
@pytest.mark.parametrize("cut", list(CUTS))
def test_our_robot_programs_rejoining_a_resumed_server_in_declarations_get_no_error(
    cut: str, server: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    """``mj-server --load-game`` (ours or the original) on the journal; four ``mj-player --id N`` play it to its end."""
    if server == "original":
        require_original(ORIGINAL_SERVER)
    (tmp_path / "game.mjs").write_bytes(journal_cut(5, cut).encode("latin-1"))
    program = OUR_SERVER if server == "ours" else (ORIGINAL_SERVER,)
    command = [*program, "--server", "sock", "--load-game", "game.mjs", "--logfile", "game.log"]
    mj_server = _start(command, tmp_path, "server", processes)
    deadline = time.monotonic() + DEADLINE
    assert wait_for_text(tmp_path / "server.out", b"\n", time.monotonic() + 20, mj_server), (
        tmp_path / "server.err"
    ).read_text()
    assert announced_address((tmp_path / "server.out").read_text()) == "sock"
    for n in range(1, 5):
        Relay(tmp_path, f"relay{n}")  # its threads keep it
    robots = [
        _start([*OUR_ROBOT, "--server", f"relay{n}", "--name", name, "--id", str(n)], tmp_path, f"robot{n}", processes)
        for n, name in enumerate(NAMES, 1)
    ]
    statuses = [p.wait(timeout=max(0.1, deadline - time.monotonic())) for p in (*robots, mj_server)]
    log = (tmp_path / "game.log").read_bytes()
    assert re.findall(rb">cnx\d Error [^\r\n]*", log) == []
    errors = [(tmp_path / f"robot{n}.err").read_text() for n in range(1, 5)]
    assert [e for e in errors if "Error from server" in e] == []
    assert statuses == [0, 0, 0, 0, 0], errors
    assert b" GameOver" in log
