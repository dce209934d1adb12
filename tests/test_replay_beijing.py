"""``mj replay --verbose`` on a Beijing log: the wild indicator is narrated with each hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from mj import arena
from mj.cli import main


def test_verbose_replay_of_a_beijing_game_says_which_tile_was_turned_up_each_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arena.run(["default"] * 4, games=4, seed=5, jobs=1, log_dir=tmp_path, rules="beijing")
    log = sorted(tmp_path.glob("*.log"))[0]
    assert main(["replay", "--verbose", str(log)]) == 0
    out = capsys.readouterr().out
    hands = out.count("=== Hand ")
    turned = [line for line in out.splitlines() if line.endswith("is turned up as the wild indicator")]
    assert hands > 0 and len(turned) == hands
    assert out.rstrip().endswith("identical")
