"""scripts/tournament.py: the duplicate comparison of two runs on the same seeds (no games played here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tournament() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tournament", ROOT / "scripts" / "tournament.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tournament"] = module
    spec.loader.exec_module(module)
    return module


def test_the_paired_comparison_differences_each_seed_both_runs_played(tournament: ModuleType) -> None:
    ours = {"score_diff_by_seed": {"1": 100.0, "2": 300.0, "3": 50.0}}
    theirs = {"score_diff_by_seed": {"1": 40.0, "2": 260.0, "4": 900.0}}
    shared = tournament.paired(ours, theirs)
    assert shared.n == 2
    assert shared.mean == pytest.approx(50.0)
    assert shared.low < 50.0 < shared.high


def test_a_run_without_per_seed_figures_shares_no_seed(tournament: ModuleType) -> None:
    assert tournament.paired({"score_diff_by_seed": {"1": 1.0}}, {"duplicate": {}}).n == 0
