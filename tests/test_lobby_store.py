"""The lobby's record store: its schema made by the migrations, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from mj.lobby.models import Base
from mj.lobby.store import EXPIRED, Batch, HandState, SeatResult, SeatSpec, Store, StoreError


def test_the_migrations_make_exactly_the_schema_of_the_models(database_url: str) -> None:
    store = Store(database_url)
    try:
        with store.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == []
        assert "alembic_version" in inspect(store.engine).get_table_names()
    finally:
        store.close()


def test_opening_a_migrated_database_again_keeps_its_records(database_url: str) -> None:
    store = Store(database_url)
    table = store.create_table("classical", {"NumRounds": 1}, 4, 2, 99, 30)
    store.close()
    again = Store(database_url)
    try:
        (found,) = again.tables()
        stored = (found.id, found.rules, found.options, found.level, found.seed)
        assert stored == (table.id, "classical", '{"NumRounds": 1}', 2, 99)
    finally:
        again.close()


def test_a_batch_is_stored_whole_with_its_hands_seats_and_final_scores(database_url: str) -> None:
    store = Store(database_url)
    try:
        game = store.start_game(store.create_table("classical", {}, 4, 1, 5, 0))
        batch = Batch(
            moves=[(0, "<", 1, "Connect 1110 0 Robot1"), (1, ">", 1, "ConnectReply 1110 1 "), (2, "<", 1, None)],
            hands={1: HandState(1, 1, 1, 2, 1, {1: 30, 2: -10, 3: -10, 4: -10})},
            seats=[(SeatSpec(1, "Robot1", True), 1)],
            final={1: SeatResult(30, 1, 0, 0)},
        )
        store.record(game.id, batch)
        assert [(m.seq, m.direction, m.connection, m.text) for m in store.moves(game.id)] == batch.moves
        (hand,) = store.hands(game.id)
        assert (hand.number, hand.winner, hand.last_move) == (1, 1, 2)
        (seat,) = store.seats(game.id)
        assert (seat.name, seat.player_id, seat.score, seat.placing, seat.wins) == ("Robot1", 1, 30, 1, 1)
        stored = store.game(game.id)
        assert stored is not None and stored.finished and stored.moves == 3
        assert [(g.id, hands) for g, hands in store.games()] == [(game.id, 1)]
    finally:
        store.close()


def test_the_games_listed_leave_out_those_of_expired_tables_and_only_those(database_url: str) -> None:
    store = Store(database_url)
    try:
        played, waiting, expired = (store.start_game(store.create_table("classical", {}, 4, 1, n, 0)) for n in range(3))
        store.record(played.id, Batch(hands={1: HandState(1, 1, 0)}))
        store.close_table(expired.table_id, EXPIRED)
        assert [(g.id, g.finished, hands) for g, hands in store.games()] == [
            (waiting.id, False, 0),
            (played.id, False, 1),
        ]
    finally:
        store.close()


def test_a_batch_that_fails_stores_nothing(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/lobby.db")
    try:
        game = store.start_game(store.create_table("classical", {}, 4, 1, 5, 0))
        store.record(game.id, Batch(moves=[(0, "<", 1, "Connect 1110 0 Robot1")]))
        with pytest.raises(IntegrityError):
            store.record(game.id, Batch(moves=[(1, "<", 1, "a"), (0, "<", 1, "move 0 again")]))
        assert [m.seq for m in store.moves(game.id)] == [0]
    finally:
        store.close()


@pytest.mark.parametrize("url", ["nonsense", "nosuchdb://x/y", "sqlite:////nonexistent-dir/x/lobby.db"])
def test_a_database_that_cannot_be_used_is_one_clear_error(url: str) -> None:
    with pytest.raises(StoreError, match=r"cannot (use|open) database"):
        Store(url)
