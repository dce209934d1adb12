"""A lobby table's play: robots at full speed, every move recorded, and a game rebuilt from any stored prefix.

The rebuild is what a lobby restarted after ``kill -9`` does: each batch is stored in
one transaction, so a killed lobby leaves its record cut at a batch boundary, and the
game must play on from there to exactly the end it would have had.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mj import tiles
from mj.lobby.models import LobbyTable
from mj.lobby.play import RECEIVED, SENT, TablePlay, _Hands
from mj.lobby.runner import robot_seeds, table_setup
from mj.lobby.store import Batch, Store
from mj.logfile import LogEntry, format_entry, parse_log
from mj.protocol import cmsg as C
from mj.replay import replay

Moves = list[tuple[int, str, int, str | None]]


def _row(seed: int, robots: int = 4) -> LobbyTable:
    return LobbyTable(id=1, rules="classical", options=json.dumps({"NumRounds": 1}), robots=robots, level=1,
                      seed=seed, turn_timer=0, status="playing")  # fmt: skip


def _play_to_end(play: TablePlay, moves: Moves, boundaries: list[int] | None = None, limit: int = 1) -> None:
    while play.queue:
        play.step(limit)
        moves.extend(play.take_batch().moves)
        if boundaries is not None:
            boundaries.append(len(moves))
    assert play.game_over


def _new_game(seed: int) -> TablePlay:
    row = _row(seed)
    play = TablePlay(table_setup(row))
    for connection, (name, robot_seed) in robot_seeds(row).items():
        play.add_robot(connection, name, robot_seed)
    return play


def _log(moves: Moves) -> str:
    """The moves as the server's log (which logs no timer and no robot sitting down: only what was sent)."""
    return "".join(
        format_entry(LogEntry("<" if d == RECEIVED else ">", c, t)) for _, d, c, t in moves if d in (RECEIVED, SENT)
    )


def test_four_robots_play_a_whole_game_and_its_record_replays_identically() -> None:
    moves: Moves = []
    play = _new_game(seed=11)
    _play_to_end(play, moves, limit=64)
    assert [m[0] for m in moves] == list(range(len(moves)))
    assert sum(1 for m in moves if m[1] == SENT and m[3] == "GameOver") == 1
    result = replay(parse_log(_log(moves)))
    assert result.mismatch is None
    assert result.hands == play.hands >= 4


@pytest.mark.parametrize("seed", [3, 8])
def test_a_game_rebuilt_from_any_stored_prefix_plays_on_to_the_same_end(seed: int) -> None:
    whole: Moves = []
    boundaries: list[int] = []
    _play_to_end(_new_game(seed), whole, boundaries)
    for cut in (boundaries[0], boundaries[len(boundaries) // 3], boundaries[-len(boundaries) // 4], boundaries[-2]):
        play = TablePlay(table_setup(_row(seed)))
        play.rebuild(whole[:cut], robot_seeds(_row(seed)))
        assert play.seq == cut
        rest: Moves = []
        _play_to_end(play, rest)
        assert whole[:cut] + rest == whole, f"cut at move {cut}"


def test_a_table_stored_batch_by_batch_is_rebuilt_from_the_database(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        row = store.create_table("classical", {"NumRounds": 1}, 4, 1, 21, 0)
        game = store.start_game(row)
        play = TablePlay(table_setup(row))
        for connection, (name, robot_seed) in robot_seeds(row).items():
            play.add_robot(connection, name, robot_seed)
        for _ in range(300):  # a few hands, then the lobby "dies"
            play.step(1)
            store.record(game.id, play.take_batch())
        stored = [(m.seq, m.direction, m.connection, m.text) for m in store.moves(game.id)]
        again = TablePlay(table_setup(row))
        again.rebuild(stored, robot_seeds(row))
        assert again.hands == play.hands and again.seq == play.seq
        assert [e for e in again.queue] == [e for e in play.queue]
    finally:
        store.close()


def test_a_drawn_hand_is_recorded_as_ended_at_its_wash_out() -> None:
    hands, batch = _Hands(), Batch()
    hands.observe(C.Game(1, 2, 3, 4, tiles.EAST_WIND, 0, 1, 0, 0, 0, 0, 1110, 0), 0, batch)
    hands.observe(C.NewHand(1, 3, 5), 1, batch)
    hands.observe(C.WashOut("wall exhausted"), 9, batch)
    assert batch.hands[1].last_move == 9 and batch.hands[1].settlement is None
