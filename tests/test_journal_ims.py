"""``mj-server --rules ims --load-game``: an IMS game killed mid-hand resumes from its journal and is
finished over the network by our robots (``mj-player``), as tests/test_journal.py checks for classical.

A journal does not name its rule system: the server is told again with ``--rules ims``, and
one that is not told refuses the file in one line instead of misreading its history.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mj.rules.ims.rules import IMS
from mj.savefile import parse_save
from test_journal import moves_in, moves_sent_to_dealer
from test_server_sessions import GAME_TIME, SLOW, Lab, replay_verdict

#: Our robot program, on the server's socket.
OUR_PLAYER = (sys.executable, "-m", "mj.robot")


class OurRobots(Lab):
    """The :class:`Lab` of the server tests, seating our robots (which play IMS) instead of the original's."""

    def robot(self, name: str, *options: str) -> subprocess.Popen[bytes]:
        with (self.workdir / f"{name}.err").open("ab") as stderr:
            robot = subprocess.Popen(
                [*OUR_PLAYER, "--server", "sock", "--name", name, "--seed", name[-1], *options],
                cwd=self.workdir,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        self.processes.append(robot)
        return robot


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[OurRobots]:
    started = OurRobots(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def test_an_ims_journal_of_a_server_killed_mid_hand_resumes_with_rules_ims_and_the_game_is_finished(
    lab: OurRobots,
) -> None:
    first = lab.start_server("--rules", "ims", "--seed", "7", "--timeout", "0", "--journal", "journal.mjs", *SLOW)
    robots = lab.seat_robots()
    lab.wait_log(b" PlayerDiscards ", count=4 * 6)
    os.kill(first.pid, signal.SIGKILL)
    assert lab.wait_exits(first, timeout=10) == [-signal.SIGKILL]
    lab.wait_exits(*robots, timeout=20)
    assert b" Settlement " not in lab.log(), "precondition: killed in the first hand"

    journal = parse_save((lab.workdir / "journal.mjs").read_bytes().decode("latin-1"), IMS)
    dealer = journal.game.east  # drawn at random (the seed), not the first to join
    before_kill = moves_sent_to_dealer(lab.log(), dealer)
    kept = moves_in(journal.history, dealer)
    assert kept[: len(before_kill)] == before_kill, "every move before the kill is in the journal"

    second = lab.start_server("--rules", "ims", "--timeout", "0", "--load-game", "journal.mjs", logfile="resumed.log")
    robots = lab.seat_robots()
    assert lab.wait_exits(*robots, timeout=GAME_TIME * 2) == [0, 0, 0, 0]
    assert lab.wait_exits(second, timeout=10) == [0], lab.stderr()
    resumed = lab.log()
    assert b"Rules ims" in resumed
    assert resumed.count(b" GameOver\r\n") == 1
    assert "Game over. Final scores:" in lab.stdout()
    verdict = replay_verdict(lab.logfile)
    assert verdict.endswith("identical\n"), verdict


def test_an_ims_journal_loaded_without_its_rules_is_refused_in_one_line_naming_them(lab: OurRobots) -> None:
    first = lab.start_server("--rules", "ims", "--seed", "7", "--timeout", "0", "--journal", "journal.mjs", *SLOW)
    robots = lab.seat_robots()
    lab.wait_log(b" PlayerDiscards ", count=4 * 6)
    os.kill(first.pid, signal.SIGKILL)
    lab.wait_exits(first, *robots, timeout=20)
    refused = subprocess.run(
        [sys.executable, "-m", "mj.server", "--server", "sock2", "--load-game", "journal.mjs"],
        cwd=lab.workdir, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "--rules ims" in lines[0], refused.stderr
