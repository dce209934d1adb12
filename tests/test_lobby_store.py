"""The lobby's record store: its schema made by the migrations, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import event, insert, inspect, text
from sqlalchemy.exc import IntegrityError

from mj.lobby.models import Base, GameRecord, HandRecord, LobbyTable
from mj.lobby.store import EXPIRED, Batch, HandState, SeatResult, SeatSpec, Store, StoreError, now

#: Games recorded, each at its own table (every seventh expired); game ``i`` began ``i % (MOST_HANDS + 1)`` hands.
MANY_GAMES = 3000
MOST_HANDS = 3
#: Games listed of them: the newest.
LISTED = 10


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


def _record_many_games(store: Store) -> dict[int, int]:
    """:data:`MANY_GAMES` games and their hands, in one transaction: the hands begun in each game not expired."""
    with store.session() as s, s.begin():
        tables = s.scalars(
            insert(LobbyTable).returning(LobbyTable.id, sort_by_parameter_order=True),
            [
                {"rules": "classical", "options": "{}", "robots": 3, "level": 1, "seed": 0, "turn_timer": 0,
                 "status": EXPIRED if i % 7 == 0 else "finished", "created_at": now()}
                for i in range(MANY_GAMES)
            ],
        ).all()  # fmt: skip
        games = s.scalars(
            insert(GameRecord).returning(GameRecord.id, sort_by_parameter_order=True),
            [
                {"table_id": table, "rules": "classical", "options": "{}", "seed": 0, "started_at": now(),
                 "finished": True, "finished_at": None, "moves": 0}
                for table in tables
            ],
        ).all()  # fmt: skip
        s.execute(
            insert(HandRecord),
            [{"game_id": game, "number": n, "east": 1, "first_move": 0}
             for i, game in enumerate(games) for n in range(1, i % (MOST_HANDS + 1) + 1)],
        )  # fmt: skip
    return {game: i % (MOST_HANDS + 1) for i, game in enumerate(games) if i % 7 != 0}


def _statement(store: Store, limit: int) -> tuple[list[tuple[int, int]], str, Any]:
    """The games listed (``limit`` of them) with their hands, and the one statement that read them."""
    seen: list[tuple[str, Any]] = []

    def grab(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        seen.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", grab)
    try:
        listed = [(game.id, hands) for game, hands in store.games(limit)]
    finally:
        event.remove(store.engine, "before_cursor_execute", grab)
    ((statement, parameters),) = seen
    return listed, statement, parameters


def _explained(store: Store, prefix: str, statement: str, parameters: Any) -> list[Any]:
    """The rows of ``prefix`` (the database's own ``EXPLAIN``) run on ``statement``."""
    connection = store.engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(f"{prefix} {statement}", parameters)
        return list(cursor.fetchall())
    finally:
        connection.close()


def _rows_read(plan: dict[str, Any], table: str) -> int:
    """The rows a PostgreSQL plan run (``EXPLAIN ANALYZE``, as JSON) read of ``table``, over all its loops."""
    here = plan["Actual Rows"] * plan["Actual Loops"] if plan.get("Relation Name") == table else 0
    return int(here + sum(_rows_read(below, table) for below in plan.get("Plans", [])))


def test_the_games_listed_count_their_hands_by_a_lookup_per_listed_game_not_over_every_hand_recorded(
    database_url: str,
) -> None:
    """Listing the newest games reads the hands of those games only: grouping the whole table of hands, as
    ``/api/games`` once did, grows with every hand ever recorded. On PostgreSQL the plan run (the tables analysed,
    as autovacuum does) reads at most :data:`MOST_HANDS` hands a listed game; SQLite looks each one's up by its key,
    never scanning the table."""
    store = Store(database_url)
    try:
        hands = _record_many_games(store)
        listed, statement, parameters = _statement(store, LISTED)
        assert listed == sorted(hands.items(), reverse=True)[:LISTED]
        if store.engine.dialect.name == "postgresql":
            with store.engine.begin() as connection:
                connection.execute(text("ANALYZE"))
            ((explained,),) = _explained(store, "EXPLAIN (ANALYZE, FORMAT JSON)", statement, parameters)
            assert 0 < _rows_read(explained[0]["Plan"], "hands") <= LISTED * MOST_HANDS
        else:
            details = [row[3] for row in _explained(store, "EXPLAIN QUERY PLAN", statement, parameters)]
            read = [detail for detail in details if "hands" in detail.split()]
            assert read and all(d.startswith("SEARCH hands ") and d.endswith("(game_id=?)") for d in read), details
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


def test_a_database_refused_is_said_in_one_line_without_sqlalchemy_s_statement_or_link(tmp_path: Path) -> None:
    """SQLAlchemy's text of a failure adds a line with a web link (and one with the SQL): stderr got all three."""
    damaged = tmp_path / "lobby.db"
    damaged.write_text("not a database\n")
    with pytest.raises(StoreError) as refused:
        Store(f"sqlite:///{damaged}")
    assert str(refused.value) == f"cannot open database sqlite:///{damaged}: file is not a database"


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite:///:memory:"])
def test_an_sqlite_database_in_memory_is_refused_as_it_cannot_hold_the_record(url: str) -> None:
    """Each connection of the pool opened a memory of its own: the lobby failed at start with a traceback."""
    with pytest.raises(StoreError) as refused:
        Store(url)
    assert str(refused.value) == (
        f"cannot use database {url!r}: an SQLite database in memory cannot hold the record; "
        "name a file (sqlite:///lobby.db)"
    )
