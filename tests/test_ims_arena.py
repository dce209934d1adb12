"""Robots play the IMS rules in the arena through their legal moves, and every log replays identically."""

from __future__ import annotations

from pathlib import Path

from mj import arena
from mj.replay import read_entries, replay

PLAYERS = ["default"] * 4


def test_robots_play_ims_games_without_a_refused_move_and_each_log_replays_identically(tmp_path: Path) -> None:
    result = arena.run(
        PLAYERS, games=4, seed=3, jobs=1, options=arena.game_options(settings=["NumRounds=1"]), log_dir=tmp_path,
        rules="ims",
    )  # fmt: skip
    assert sum(game.hands for game in result.games) > 0
    assert all(not any(game.refusals) for game in result.games), [game.refusals for game in result.games]
    for game in result.games:
        log = tmp_path / f"seed{game.seed}-rotation{game.rotation}.log"
        assert "Rules ims" in log.read_text()
        checked = replay(read_entries(log))
        assert checked.mismatch is None, checked.mismatch
        assert checked.hands == game.hands
