"""`mj replay` reproduces the original server message for message."""

from __future__ import annotations

import dataclasses
import gzip
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mj.cli import main
from mj.logfile import LogEntry
from mj.replay import ReplayError, read_entries, replay

#: Gzipped copies of the evidence logs of shared/reference/logs.
REFERENCE = Path(__file__).parent / "data" / "reference"
CORPUS = Path(__file__).parent / "data" / "original"
STACKED = Path(__file__).parent / "data" / "stacked"
SESSIONS_DIR = Path(__file__).parent / "data" / "sessions"

#: Complete games of four original robots among the reference evidence.
REFERENCE_GAMES = [
    "game-seed7-default-flowers.log",
    "game-seed12345-noflowers.log",
    "game-seed99-flowersloose-sevenpairs-showonwashout.log",
    "game-seed200-variant-options-2rounds.log",
    "game-seed31-handhistory.log",
]

#: Scripted games with a wall file (first hand all blank tiles, as the original plays it):
#: limit hands, robbing a kong, AnyPos chows, InfoTiles, option and manager errors, claim
#: precedence, illegal moves, Original Call, pauses, SaveState, seven pairs.
SCENARIOS = [
    "scenario-A-limit-hands-server.log",
    "scenario-B-server.log",
    "scenario-C-server.log",
    "scenario-F-server.log",
]


def reference(name: str) -> Path:
    return REFERENCE / f"{name}.gz"


@pytest.mark.parametrize("name", REFERENCE_GAMES)
def test_reference_games_replay_identically(name: str) -> None:
    result = replay(read_entries(reference(name)))
    assert result.mismatch is None, str(result.mismatch)
    assert result.hands > 10


@pytest.mark.parametrize("name", SCENARIOS)
def test_scripted_scenarios_replay_identically(name: str) -> None:
    result = replay(read_entries(reference(name)))
    assert result.mismatch is None, str(result.mismatch)


#: Servers that lost a player, each with the hands its log holds: ``--end-on-disconnect`` ending
#: the game; a robot dropped and rejoining by id, then asking to reconnect; a ``--load-game``
#: resumed mid-hand, whose loaded hand is rebuilt from the history sent to the joining robots.
SESSIONS = {
    "end-on-disconnect-server.log": 1,
    "reconnect-and-requestreconnect-server.log": 3,
    "resume-from-mjs-server.log": 21,
}


@pytest.mark.parametrize("name", SESSIONS)
def test_disconnections_rejoins_and_resumed_games_replay_identically(name: str) -> None:
    result = replay(read_entries(reference(name)))
    assert result.mismatch is None, str(result.mismatch)
    assert result.hands == SESSIONS[name]


@pytest.mark.parametrize("path", sorted(SESSIONS_DIR.glob("claim-timeouts-*.log.gz")), ids=lambda p: p.name)
def test_claim_timers_and_east_leaving_replay_identically(path: Path) -> None:
    """The original's logs of claim windows ended by the timer, then East's connection lost (data README)."""
    result = replay(read_entries(path))
    assert result.mismatch is None, str(result.mismatch)
    assert result.hands == 1 and result.messages > 500


def test_an_ims_game_resumed_after_kill_9_replays_to_its_game_over() -> None:
    """The loaded game's completed rounds come from its prevailing wind: without them it never ended."""
    result = replay(read_entries(SESSIONS_DIR / "ims-resumed-after-kill-9.log.gz"))
    assert result.mismatch is None, str(result.mismatch)
    assert result.hands == 15


def test_a_resumed_log_whose_history_breaks_the_rules_cannot_be_replayed() -> None:
    entries = read_entries(reference("resume-from-mjs-server.log"))
    broken = _tampered(entries, "PlayerDiscards", "PlayerDiscards 1 RD 1 0", "PlayerDiscards 1 9C 1 0")
    with pytest.raises(ReplayError, match="cannot be rebuilt"):
        replay(broken)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.log.gz")), ids=lambda p: p.name)
def test_recorded_corpus_replays_identically(path: Path) -> None:
    result = replay(read_entries(path))
    assert result.mismatch is None, str(result.mismatch)
    assert result.hands >= 4


@pytest.mark.parametrize("path", sorted(STACKED.glob("*.log.gz")), ids=lambda p: p.name)
def test_games_on_stacked_walls_replay_identically(path: Path) -> None:
    """Limit hands seeded games never reach, and the blank first hand of a wall file under every settlement."""
    result = replay(read_entries(path))
    assert result.mismatch is None, str(result.mismatch)
    assert result.hands >= 5


def _tampered(entries: list[LogEntry], keyword: str, old: str, new: str) -> list[LogEntry]:
    index = next(i for i, e in enumerate(entries) if e.direction == ">" and (e.text or "").startswith(keyword))
    changed = list(entries)
    text = changed[index].text
    assert text is not None
    changed[index] = dataclasses.replace(changed[index], text=text.replace(old, new, 1))
    return changed


def test_a_changed_score_is_reported_with_its_hand_and_line() -> None:
    entries = read_entries(reference("game-seed7-default-flowers.log"))
    result = replay(_tampered(entries, "HandScore 4 32", "SCORE:       32", "SCORE:       33"))
    assert result.mismatch is not None
    assert result.mismatch.hand == 1
    assert result.mismatch.line == 708  # the HandScore line of the log
    assert any("SCORE:       33" in line for line in result.mismatch.expected)
    assert any("SCORE:       32" in line for line in result.mismatch.actual)


def test_a_changed_draw_changes_the_wall_and_is_caught() -> None:
    entries = read_entries(reference("game-seed7-default-flowers.log"))
    result = replay(_tampered(entries, "PlayerDiscards 1 4C 1 0", "4C", "5C"))
    assert result.mismatch is not None
    assert result.mismatch.hand == 1


def test_cli_prints_identical_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    path = reference("game-seed12345-noflowers.log")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("identical")
    assert "hands" in out and "messages compared" in out


def test_cli_exits_1_on_a_difference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = gzip.decompress(reference("game-seed7-default-flowers.log").read_bytes())
    broken = tmp_path / "broken.log"
    broken.write_bytes(original.replace(b"SCORE:       32", b"SCORE:       31", 1))
    assert main(["replay", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "expected" in out and "actual" in out and "hand 1" in out


def test_cli_exits_2_on_an_unreadable_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.log"
    junk.write_text("this is not a log\n")
    assert main(["replay", str(junk)]) == 2
    assert "cannot replay" in capsys.readouterr().err


def test_verbose_replay_narrates_hands_and_scores(capsys: pytest.CaptureFixture[str]) -> None:
    path = reference("game-seed7-default-flowers.log")
    assert main(["replay", "--verbose", str(path)]) == 0
    out = capsys.readouterr().out
    assert "=== Hand 1 === East: Robot1, South: Robot2, West: Robot3, North: Robot4" in out
    assert "Robot4 (North) goes Mah Jong on the discard" in out
    assert "Robot4 (North) scores 32:" in out
    assert "=== Game over ===" in out


def test_a_reader_that_stops_early_ends_the_replay_quietly() -> None:
    """``mj replay --verbose LOG | head -1``: the pipe closing is no fault of the log."""
    done = subprocess.run(
        f"{shlex.quote(sys.executable)} -m mj.cli replay --verbose {shlex.quote(str(reference(REFERENCE_GAMES[0])))}"
        " | head -c 10 >/dev/null; exit ${PIPESTATUS[0]}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (141, "")
