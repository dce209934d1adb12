"""scripts/tournament.py: the paired comparison of two runs on the same seeds, and variants (``--set``)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from conftest import load_script, require_original, strict_json
from mj.logfile import read_log
from mj.robot.levels import LEVEL_THREE, LEVEL_TWO

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tournament() -> ModuleType:
    return load_script("tournament")


def test_the_paired_comparison_differences_each_seed_both_runs_played(tournament: ModuleType) -> None:
    ours = {"score_diff_by_seed": {"1": 100.0, "2": 300.0, "3": 50.0}}
    theirs = {"score_diff_by_seed": {"1": 40.0, "2": 260.0, "4": 900.0}}
    shared = tournament.paired(ours, theirs)
    assert shared.n == 2
    assert shared.mean == pytest.approx(50.0)
    assert shared.low < 50.0 < shared.high


def test_a_run_without_per_seed_figures_shares_no_seed(tournament: ModuleType) -> None:
    assert tournament.paired({"score_diff_by_seed": {"1": 1.0}}, {"duplicate": {}}).n == 0


def test_set_replaces_fields_of_the_level_s_defence_read_as_their_types(tournament: ModuleType) -> None:
    rules = tournament.variant(3, "cost=1, major_pungs=0,hurry=0.25")
    assert rules == replace(LEVEL_THREE, cost=1.0, major_pungs=False, hurry=0.25)
    assert tournament.variant(2, "valued=true") == replace(LEVEL_TWO, valued=True)


@pytest.mark.parametrize(
    ("level", "changes", "message"),
    [
        (3, "nerve=2", "--set 'nerve=2': unknown Defence field 'nerve' (fields: cost, quiet, drop,"),
        (3, "cost", "--set 'cost': 'cost' is not FIELD=VALUE"),
        (3, "cost=high", "--set 'cost=high': cost: 'high' is not a finite number"),
        (3, "cost=inf", "--set 'cost=inf': cost: 'inf' is not a finite number"),
        (3, "valued=maybe", "--set 'valued=maybe': valued: 'maybe' is not 0, 1, true or false"),
        (3, "cost=1,cost=2", "--set 'cost=1,cost=2': cost given twice"),
        (1, "cost=1", "--set 'cost=1': level 1 does not defend"),
        (4, "cost=1", "--set 'cost=1': unknown robot level 4"),
    ],
)
def test_a_bad_set_says_what_is_wrong(tournament: ModuleType, level: int, changes: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        tournament.variant(level, changes)


def test_a_bad_set_stops_the_command_before_any_game(
    tournament: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        tournament.main(["--seeds", "1", "--set", "nerve=2"])
    assert stop.value.code == 2
    assert "--set 'nerve=2'" in capsys.readouterr().err


def test_set_is_played_in_process_only(tournament: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        tournament.main(["--seeds", "1", "--set", "cost=1", "--subprocess"])
    assert "not with --subprocess" in capsys.readouterr().err


def test_the_variant_is_what_plays(tournament: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The same game (seed, seat) played by level 3 and by a level 3 that folds at any risk:
    # the variant's moves, and so the game, differ; the JSON says what was set.
    require_original()
    runs = {}
    for name, extra in (("default", []), ("folding", ["--set", "cost=1000,quiet=0"])):
        out = tmp_path / f"{name}.json"
        assert tournament.main(["--seeds", "3", "--seats", "0", "--jobs", "1", "-q", "--json", str(out), *extra]) == 0
        runs[name] = strict_json(out.read_text(encoding="utf-8"))
    assert runs["folding"]["command"]["set"] == "cost=1000,quiet=0"
    assert runs["default"]["command"]["set"] is None
    assert runs["folding"]["ours"] != runs["default"]["ours"]
    # One seed: the per-seed figures have a mean and no interval, null in the JSON, n/a in the text.
    assert runs["default"]["duplicate"]["final_score_diff"]["low"] is None
    assert re.search(r"final score per game -?\d+ \[n/a\]\n", capsys.readouterr().out)


def test_keep_logs_keeps_each_game_s_server_log_named_by_seed_and_seat(tournament: ModuleType, tmp_path: Path) -> None:
    require_original()
    folder = tmp_path / "logs"
    assert tournament.main(["--seeds", "3", "--seats", "0,2", "--jobs", "1", "-q", "--keep-logs", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["seed3-seat0.log", "seed3-seat2.log"]
    for seat in (0, 2):
        entries = read_log(tournament.kept_log(folder, 3, seat))
        # The whole game, and our robot joined seat-th: it is connection seat + 1, named Ours.
        assert any(e.text is not None and e.text.startswith("GameOver") for e in entries)
        assert any(
            e.direction == "<"
            and e.connection == seat + 1
            and e.text is not None
            and e.text.endswith(" Ours")
            and e.text.startswith("Connect ")
            for e in entries
        )


def test_keep_logs_into_a_file_stops_the_command_before_any_game(
    tournament: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "taken"
    taken.write_text("not a folder", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        tournament.main(["--seeds", "1", "--keep-logs", str(taken)])
    assert stop.value.code == 2
    assert f"--keep-logs {taken}: File exists" in capsys.readouterr().err
    assert taken.read_text(encoding="utf-8") == "not a folder"
