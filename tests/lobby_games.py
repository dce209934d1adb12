"""Whole games of robots at lobby tables, played and stored as the lobby plays and stores them."""

from __future__ import annotations

from collections.abc import Mapping

from mj.lobby.play import TablePlay
from mj.lobby.runner import robot_seeds, table_setup
from mj.lobby.store import Store


def recorded_game(
    store: Store, rules: str, options: Mapping[str, object], seed: int, accounts: Mapping[str, int] | None = None
) -> tuple[int, int, TablePlay]:
    """A whole game of four robots at a new table, each batch stored: the table's id, the game's id, its play.

    The robots named in ``accounts`` sit for those accounts.
    """
    row = store.create_table(rules, dict(options), 4, 1, seed, 0)
    game = store.start_game(row)
    play = TablePlay(table_setup(row))
    play.accounts.update(accounts or {})
    for connection, (name, robot_seed) in robot_seeds(row).items():
        play.add_robot(connection, name, robot_seed)
    while play.queue:
        play.step(64)
        store.record(game.id, play.take_batch())
    assert play.game_over
    return row.id, game.id, play
