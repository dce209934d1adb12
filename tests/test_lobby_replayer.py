"""The replay viewer's frames: every hand of a stored game, move by move, with all four hands in view."""

from __future__ import annotations

from pathlib import Path

import pytest

from mj.lobby import replayer
from mj.lobby.store import Store
from mj.protocol import cmsg as C
from test_lobby_history import _play_recorded


def test_every_hand_is_shown_move_by_move_with_every_players_concealed_tiles(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        game_id = _play_recorded(store, 41, {})
        game = store.game(game_id)
        assert game is not None
        hands = store.hands(game_id)
        public_lines = 0
        for hand in hands:
            shown = replayer.hand_frames(store, game, hand.number)
            frames = shown["frames"]
            assert isinstance(C.decode(frames[0]["line"]), C.NewHand)
            assert isinstance(C.decode(frames[-1]["line"]), C.Settlement)
            assert [f["seq"] for f in frames] == sorted(f["seq"] for f in frames)
            public_lines += len(frames)
            for frame in frames:
                assert [p["wind"] for p in frame["players"]] == ["E", "S", "W", "N"]
                for player in frame["players"]:
                    assert player["hand"] is not None
                    assert len(player["hand"]) == player["concealed"], (frame["line"], player)
            held = max(
                sum(len(p["hand"]) + sum(len(m["tiles"]) for m in p["melds"]) for p in frame["players"])
                for frame in frames
            )
            assert held >= 4 * 13  # all four hands in view at once, not only one seat's
        assert public_lines > 100
        with pytest.raises(replayer.ReplayUnavailable):
            replayer.hand_frames(store, game, len(hands) + 1)
    finally:
        store.close()
