"""``--journal``: a server killed with ``kill -9`` mid-hand loses no move; signals save with ``--save-on-exit``.

Our server with four original robots (the :class:`Lab` of tests/test_server_sessions.py):
the journal, loaded by a new server, must hold every move the first server's log
shows before the kill, the robots rejoin by name, and the game is finished.
"""

from __future__ import annotations

import os
import re
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import require_original
from mj.arena.exchange import exchange
from mj.arena.players import parse_player
from mj.arena.tally import GameTally
from mj.protocol import cmsg as C
from mj.robot.agent import Robot
from mj.rules.options import OptionEntry, OptionType
from mj.savefile import parse_save
from mj.server.journal import Journal
from mj.table import LoadError, Table, TableSettings
from test_server_sessions import GAME_TIME, SLOW, Lab, replay_verdict

NUM_ROUNDS_1 = OptionEntry("NumRounds", OptionType.NAT, 0, True, 1, "number of rounds to play")


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    require_original()
    started = Lab(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def _public_move(dealer: int) -> re.Pattern[str]:
    """Moves everyone is told of, and the ``dealer``'s own draws: how a server's log shows a hand.

    The log holds a message sent to every player once, as sent to the dealer's connection.
    """
    return re.compile(rf"Player(?!Draws|DrawsLoose|DoesntClaim)\w+ |PlayerDraws(Loose)? {dealer} ")


def moves_sent_to_dealer(log: bytes, dealer: int) -> list[str]:
    """The moves of the last hand sent to the ``dealer``'s connection (cnxN for id N), from its last NewHand."""
    prefix = f">cnx{dealer} "
    hand = log[log.rindex(f"{prefix}NewHand ".encode()) :].decode("latin-1")
    public = _public_move(dealer)
    texts = [line[len(prefix) :] for line in hand.split("\r\n") if line.startswith(prefix)]
    return [text for text in texts if public.match(text)]


def moves_in(history: tuple[C.CMsg, ...], dealer: int) -> list[str]:
    public = _public_move(dealer)
    return [text for text in (item.encode() for item in history) if public.match(text)]


def test_the_journal_is_the_save_file_after_every_event_of_a_whole_game(tmp_path: Path) -> None:
    """In-process (the arena's exchange): after each event the file is what SaveState would write, and loads."""
    path = tmp_path / "journal.mjs"
    table = Table(TableSettings(timeout=0, seed=5))
    journal = Journal.start(path, table)
    assert path.read_bytes() == b"", "no game yet: an empty journal"
    events = 0

    def checked(at: Table) -> None:
        nonlocal events
        journal.record(at)
        if at.game is None:
            return
        events += 1
        text = path.read_bytes().decode("latin-1")
        assert text == at.save_text(), f"event {events}"
        if events % 97 == 0:
            Table(TableSettings()).load(text)

    table.journal = checked
    robots = [Robot(parse_player("default").strategy(5)) for _ in range(4)]
    tally = GameTally()
    exchange(table, robots, [f"Robot{n}" for n in range(1, 5)], tally, None)
    journal.close()
    assert tally.game_over and tally.hands >= 16 and events > 1000


def test_the_journal_of_a_finished_game_is_refused_in_one_line(tmp_path: Path) -> None:
    """Loaded, a finished game would seat its players and leave them waiting for ever."""
    path = tmp_path / "journal.mjs"
    table = Table(TableSettings(timeout=0, seed=6, option_entries=(NUM_ROUNDS_1,)))
    journal = Journal.start(path, table)
    table.journal = journal.record
    robots = [Robot(parse_player("default").strategy(6)) for _ in range(4)]
    tally = GameTally()
    exchange(table, robots, [f"Robot{n}" for n in range(1, 5)], tally, None)
    journal.close()
    assert tally.game_over
    with pytest.raises(LoadError, match=r"^the game is over: its last hand is settled, there is nothing to resume$"):
        Table(TableSettings()).load(path.read_text(encoding="latin-1"))


def test_the_end_of_hand_sync_leaves_the_thread_that_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop never waits on the disk for the journal's ``fsync`` at each settled hand: a worker thread does it.

    A sync of the journal's live file, not of the temporary file a rewrite renames over
    it, is told by the name the descriptor was opened under (Linux's ``/proc``): the
    journal's, maybe since replaced (`` (deleted)``).
    """
    path = tmp_path / "journal.mjs"
    live_syncs: list[bool] = []  # for each: whether the recording (main) thread did it
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if Path(os.readlink(f"/proc/self/fd/{fd}")).name.startswith(path.name):
            live_syncs.append(threading.current_thread() is threading.main_thread())
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    table = Table(TableSettings(timeout=0, seed=5))
    journal = Journal.start(path, table)
    robots = [Robot(parse_player("default").strategy(5)) for _ in range(4)]
    tally = GameTally()
    exchange(table, robots, [f"Robot{n}" for n in range(1, 5)], tally, None)
    journal.close()
    assert tally.hands >= 16
    in_loop = live_syncs[:-1]  # the last is close()'s, as the server stops
    assert len(in_loop) >= tally.hands and not any(in_loop), live_syncs
    assert parse_save(path.read_bytes().decode("latin-1")).history, "and the file is whole"


def test_a_journal_of_a_server_killed_mid_hand_resumes_at_its_last_move(lab: Lab) -> None:
    first = lab.start_server("--seed", "1003", "--timeout", "0", "--journal", "journal.mjs", *SLOW)
    robots = lab.seat_robots()
    # six discards each, seen by the four robots; the pause keeps it in the first hand, however slow the machine
    lab.wait_log(b" PlayerDiscards ", count=4 * 6, timeout=GAME_TIME)
    os.kill(first.pid, signal.SIGKILL)
    assert lab.wait_exits(first, timeout=10) == [-signal.SIGKILL]
    lab.wait_exits(*robots, timeout=20)  # they lose the server
    before_kill = moves_sent_to_dealer(lab.log(), 1)
    assert b" Settlement " not in lab.log(), "precondition: killed in the first hand (seed 1003: 52 discards)"

    journal = parse_save((lab.workdir / "journal.mjs").read_bytes().decode("latin-1"))
    kept = moves_in(journal.history, 1)
    assert sum(move.startswith("PlayerDiscards ") for move in before_kill) >= 6
    assert kept[: len(before_kill)] == before_kill, "every move before the kill is in the journal"
    assert len(kept) - len(before_kill) <= 1, "and at most the move whose answer the kill cut off"

    with (lab.workdir / "journal.mjs").open("ab") as cut:
        cut.write(b"PlayerDiscards 3 W")  # as a write cut short by the kill would leave it: ignored
    second = lab.start_server("--timeout", "0", "--load-game", "journal.mjs", logfile="resumed.log")
    robots = lab.seat_robots()
    assert lab.wait_exits(*robots) == [0, 0, 0, 0]
    assert lab.wait_exits(second, timeout=10) == [0], lab.stderr()
    resumed = lab.log()
    told = moves_sent_to_dealer(resumed.split(b" Pause 0 0 to continue play\r\n")[0], 1)
    assert told == kept, "the rejoining players are told the hand up to the last move"
    assert resumed.count(b" GameOver\r\n") == 1
    assert "Game over. Final scores:" in lab.stdout()
    verdict = replay_verdict(lab.logfile)
    assert verdict.endswith("identical\n"), verdict


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_saves_the_game_with_save_on_exit(signum: signal.Signals, lab: Lab) -> None:
    server = lab.start_server("--seed", "1003", "--timeout", "0", "--save-on-exit", *SLOW)
    robots = lab.seat_robots()
    lab.wait_log(b" PlayerDiscards ", count=4 * 3)
    os.kill(server.pid, signum)
    assert lab.wait_exits(server, timeout=10) == [0], lab.stderr()
    lab.wait_exits(*robots, timeout=20)
    saved = sorted(lab.workdir.glob("game-*.mjs"))
    assert len(saved) == 1, sorted(p.name for p in lab.workdir.iterdir())
    assert f"the game is saved in {saved[0].name}" in lab.stderr()
    kept = moves_in(parse_save(saved[0].read_bytes().decode("latin-1")).history, 1)
    sent = moves_sent_to_dealer(lab.log(), 1)
    assert kept[: len(sent)] == sent, "every move sent is saved"
    assert len(kept) - len(sent) <= 1, "and at most the one that --pause held back"


def test_a_signal_without_save_on_exit_saves_nothing(lab: Lab) -> None:
    server = lab.start_server("--seed", "1003", "--timeout", "0", *SLOW)
    lab.seat_robots()
    lab.wait_log(b" PlayerDiscards ", count=4)
    os.kill(server.pid, signal.SIGTERM)
    assert lab.wait_exits(server, timeout=10) == [0]
    assert not list(lab.workdir.glob("*.mjs"))
