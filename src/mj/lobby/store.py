"""The record store: the lobby's database behind SQLAlchemy, migrated by Alembic at start-up.

Any SQLAlchemy URL works (``sqlite:///lobby.db`` by default, ``postgresql+psycopg://...``
for several lobby processes on one server). A table's moves are written in batches, one
transaction per batch, before anything the batch caused is sent to a person: what a
person has seen is always in the record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, Select, create_engine, event, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from mj.lobby import DEFAULT_URL
from mj.lobby.fanout import CHANNEL
from mj.lobby.models import (
    ChatLine,
    GameRecord,
    HandRecord,
    LobbyTable,
    Move,
    SeatRecord,
)
from mj.lobby.rating import rate_game

MIGRATIONS: Final = Path(__file__).parent / "migrations"


#: One notification per game stored (PostgreSQL), on :data:`mj.lobby.fanout.CHANNEL`.
_NOTIFY: Final = text(f"SELECT pg_notify('{CHANNEL}', game) FROM unnest(CAST(:games AS text[])) AS game")
#: The statuses of a table still to be played.
UNFINISHED: Final = ("waiting", "playing")
#: The status of a table closed after waiting too long with nobody at it: no game was played there.
EXPIRED: Final = "expired"

#: The number of hands begun in the enclosing query's game: one lookup of the hands' primary key per game read,
#: so the work grows with the games listed or summed, never with the whole table of hands.
HANDS_BEGUN: Final = select(func.count()).where(HandRecord.game_id == GameRecord.id).scalar_subquery()

GameQuery = TypeVar("GameQuery", bound="Select[*tuple[Any, ...]]")


def without_expired(query: GameQuery) -> GameQuery:
    """``query``, which reads games, less the games of expired tables: they never began and never will, so
    neither the games listed nor an account's history show them as unfinished (nor have them push the games
    played out of a list)."""
    return query.join(LobbyTable, LobbyTable.id == GameRecord.table_id).where(LobbyTable.status != EXPIRED)


@dataclass(frozen=True, slots=True)
class Lease:
    """A lobby process's hold on the tables it plays: its name, and how long a claim or renewal lasts."""

    process: str
    seconds: float = 15.0

    def until(self, at: datetime | None = None) -> datetime:
        return (now() if at is None else at) + timedelta(seconds=self.seconds)


class StoreError(ValueError):
    """A database URL that cannot be used; the message says why."""


def now() -> datetime:
    """The time stored in records: UTC, without a zone (every database keeps that alike)."""
    return datetime.now(UTC).replace(tzinfo=None)


def migrate(connection: Connection) -> None:
    """Bring the schema on ``connection`` to the newest revision (nothing to do when it is)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def open_engine(url: str) -> Engine:
    """An engine for ``url``; :class:`StoreError` for a URL SQLAlchemy cannot use."""
    try:
        parsed = make_url(url)
        sqlite = parsed.get_backend_name() == "sqlite"
        # SQLite connections are used by the writer thread and the event loop's thread in turn
        engine = create_engine(parsed, pool_pre_ping=True, connect_args={"check_same_thread": False} if sqlite else {})
    except Exception as exc:  # SQLAlchemy raises several kinds for a bad URL or a missing driver
        raise StoreError(f"cannot use database {url!r}: {_one_line(exc)}") from None
    if sqlite and parsed.database in (None, "", ":memory:"):
        # each pooled connection would open a database of its own, the schema in one and the tables sought in another
        engine.dispose()
        raise StoreError(
            f"cannot use database {url!r}: an SQLite database in memory cannot hold the record; "
            "name a file (sqlite:///lobby.db)"
        )
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _one_line(exc: Exception) -> str:
    """The cause of a failure in one line: SQLAlchemy adds the statement and a web link on lines of their own."""
    cause = exc.orig if isinstance(exc, DBAPIError) else exc
    return " ".join(str(cause).split())


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers never wait for the writer; NORMAL sync keeps every committed batch across a killed process."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


@dataclass(frozen=True, slots=True)
class SeatSpec:
    connection: int
    name: str
    robot: bool
    account_id: int | None = None
    guest_key_hash: str | None = None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat ended a game."""

    score: int
    wins: int
    self_drawn: int
    deal_ins: int


@dataclass(slots=True)
class HandState:
    """A hand as far as it has been played, written again whenever it changes."""

    number: int
    east: int
    first_move: int
    last_move: int | None = None
    winner: int | None = None
    settlement: dict[int, int] | None = None


@dataclass(slots=True)
class Batch:
    """What one table did since its last write: appended to the record in one transaction."""

    moves: list[tuple[int, str, int, str | None]] = field(default_factory=list)
    hands: dict[int, HandState] = field(default_factory=dict)
    #: Seats taken, with the player id the table gave each.
    seats: list[tuple[SeatSpec, int]] = field(default_factory=list)
    #: Each seat's figures once the game is over, by seat (its first connection).
    final: dict[int, SeatResult] | None = None

    def __bool__(self) -> bool:
        return bool(self.moves or self.hands or self.seats or self.final is not None)


class Store:
    """The lobby's database: tables, games and their moves, chat; accounts live in :mod:`mj.lobby.accounts`."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine = open_engine(url)
        try:
            with self.engine.begin() as connection:
                migrate(connection)
        except Exception as exc:
            self.engine.dispose()
            raise StoreError(f"cannot open database {make_url(url)!r}: {_one_line(exc)}") from None
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: Whether each stored group of batches is announced to other processes (PostgreSQL's NOTIFY).
        self.notifies = self.engine.dialect.name == "postgresql"
        #: The thread that stores the tables' batches, one after the other (:meth:`record` through it).
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="mj-lobby-store")
        #: The thread that reads whole games back for anyone who asks (a long game's replay takes seconds), one
        #: at a time: the event loop, every table's play with it, never waits for them (:meth:`mj.lobby.api.Api`).
        self.reader = ThreadPoolExecutor(1, thread_name_prefix="mj-lobby-reader")

    def close(self) -> None:
        self.reader.shutdown(wait=True, cancel_futures=True)
        self.writer.shutdown(wait=True)
        self.engine.dispose()

    def session(self) -> Session:
        return self.sessions()

    # ------------------------------------------------------------------ tables and games

    def create_table(
        self, rules: str, options: dict[str, object], robots: int, level: int, seed: int, turn_timer: int,
        owner_id: int | None = None, lease: Lease | None = None, made_by: str | None = None,
        wall_key: str | None = None,
    ) -> LobbyTable:  # fmt: skip
        """A new table made by the client ``made_by``, held by ``lease``'s process (None: by none yet, any may
        claim it), dealing its walls from ``wall_key`` (None: from ``seed``)."""
        with self.session() as s, s.begin():
            table = LobbyTable(
                rules=rules, options=json.dumps(options, sort_keys=True), robots=robots, level=level, seed=seed,
                turn_timer=turn_timer, status="waiting", created_at=now(), owner_id=owner_id,
                process=None if lease is None else lease.process, lease_until=None if lease is None else lease.until(),
                made_by=made_by, wall_key=wall_key,
            )  # fmt: skip
            s.add(table)
        return table

    def claim(self, lease: Lease, at: datetime | None = None) -> list[LobbyTable]:
        """The unfinished tables ``lease``'s process may play from now on, taken in one statement:
        its own, those of no process, and those whose lease ran out before ``at`` (now).

        One ``UPDATE``: on PostgreSQL a row another process claims at the same moment is
        re-checked after that process commits, so no table is ever taken by two.
        """
        at = now() if at is None else at
        with self.session() as s, s.begin():
            claimed = s.scalars(
                update(LobbyTable)
                .where(
                    LobbyTable.status.in_(UNFINISHED),
                    or_(LobbyTable.process == lease.process, LobbyTable.process.is_(None),
                        LobbyTable.lease_until.is_(None), LobbyTable.lease_until < at),
                )
                .values(process=lease.process, lease_until=lease.until(at))
                .returning(LobbyTable.id)
            ).all()  # fmt: skip
            if not claimed:
                return []
            return list(s.scalars(select(LobbyTable).where(LobbyTable.id.in_(claimed)).order_by(LobbyTable.id)))

    def renew(self, lease: Lease, at: datetime | None = None) -> set[int]:
        """Extend the lease of every unfinished table ``lease``'s process holds; their ids (a table
        missing is one another process took after this one's lease ran out)."""
        with self.session() as s, s.begin():
            held = s.scalars(
                update(LobbyTable)
                .where(LobbyTable.status.in_(UNFINISHED), LobbyTable.process == lease.process)
                .values(lease_until=lease.until(at))
                .returning(LobbyTable.id)
            ).all()
        return set(held)

    def start_game(self, table: LobbyTable) -> GameRecord:
        """The game played at ``table`` from now on (its seats are recorded as players join)."""
        with self.session() as s, s.begin():
            game = GameRecord(
                table_id=table.id, rules=table.rules, options=table.options, seed=table.seed, started_at=now(),
                finished=False, finished_at=None, moves=0,
            )  # fmt: skip
            s.add(game)
            s.execute(update(LobbyTable).where(LobbyTable.id == table.id).values(status="playing"))
        return game

    def close_table(self, table_id: int, status: str) -> None:
        """End an unfinished table without a game played to its end (``status`` says how: "expired")."""
        with self.session() as s, s.begin():
            s.execute(
                update(LobbyTable)
                .where(LobbyTable.id == table_id, LobbyTable.status.in_(UNFINISHED))
                .values(status=status, process=None, lease_until=None)
            )

    def record(self, game_id: int, batch: Batch) -> None:
        """Append one batch to the game's record, all of it or (on failure) none of it."""
        if not batch:
            return
        with self.session() as s, s.begin():
            self._append(s, [(game_id, batch)])

    def record_all(self, batches: Sequence[tuple[int, Batch]]) -> list[Exception | None]:
        """Append the batches of several games in one transaction (one commit, one wait for the disk);
        for each, None or why it could not be stored.

        Should the transaction fail, each batch is stored again in a transaction of its own,
        so that a faulty batch (a table another process took over) fails alone.
        """
        try:
            with self.session() as s, s.begin():
                self._append(s, batches)
            return [None] * len(batches)
        except Exception:  # found out batch by batch below
            pass
        faults: list[Exception | None] = []
        failed: dict[int, Exception] = {}
        for game_id, batch in batches:
            fault = failed.get(game_id)  # a game's later batch after one that failed would leave a gap
            if fault is None:
                try:
                    self.record(game_id, batch)
                except Exception as exc:  # handed to the table it belongs to
                    fault = failed[game_id] = exc
            faults.append(fault)
        return faults

    def _append(self, s: Session, batches: Sequence[tuple[int, Batch]]) -> None:
        """The batches' moves in one bulk insert and each game's move count in one bulk update,
        then their hands, seats and ends game by game, in order."""
        moves = [
            {"game_id": game_id, "seq": seq, "direction": d, "connection": c, "text": t}
            for game_id, batch in batches
            for seq, d, c, t in batch.moves
        ]
        if moves:
            s.execute(insert(Move), moves)
            counts = {game_id: batch.moves[-1][0] + 1 for game_id, batch in batches if batch.moves}
            s.execute(update(GameRecord), [{"id": game_id, "moves": n} for game_id, n in counts.items()])
            if self.notifies:  # to the other lobby processes (mj.lobby.fanout), once this commits
                s.execute(_NOTIFY, {"games": [str(game_id) for game_id in counts]})
        for game_id, batch in batches:
            for hand in batch.hands.values():
                s.merge(
                    HandRecord(
                        game_id=game_id, number=hand.number, east=hand.east, first_move=hand.first_move,
                        last_move=hand.last_move, winner=hand.winner,
                        settlement=None if hand.settlement is None else json.dumps(hand.settlement),
                    )
                )  # fmt: skip
            for seat, player_id in batch.seats:
                s.add(_seat(game_id, seat, player_id))
            if batch.final is not None:
                self._finish(s, game_id, batch.final)

    def _finish(self, s: Session, game_id: int, final: dict[int, SeatResult]) -> None:
        """The game is over: each seat's score, placing and figures, the accounts' ratings, the table closed."""
        ranked = sorted((r.score for r in final.values()), reverse=True)
        placings = {seat: ranked.index(r.score) + 1 for seat, r in final.items()}
        for seat, result in final.items():
            s.execute(
                update(SeatRecord)
                .where(SeatRecord.game_id == game_id, SeatRecord.connection == seat)
                .values(score=result.score, placing=placings[seat], wins=result.wins,
                        self_drawn=result.self_drawn, deal_ins=result.deal_ins)
            )  # fmt: skip
        game = s.get(GameRecord, game_id)
        assert game is not None
        game.finished, game.finished_at = True, now()
        s.execute(update(LobbyTable).where(LobbyTable.id == game.table_id).values(status="finished"))
        seats = s.scalars(select(SeatRecord).where(SeatRecord.game_id == game_id)).all()
        rate_game(s, game.rules, [(seat.account_id, placings[seat.connection]) for seat in seats
                                  if seat.connection in placings])  # fmt: skip

    # ------------------------------------------------------------------ reading

    def table(self, table_id: int) -> LobbyTable | None:
        with self.session() as s:
            return s.get(LobbyTable, table_id)

    def tables(self, newest: int | None = None) -> list[LobbyTable]:
        """The tables oldest first: all, or the ``newest`` of them alone, as only they are read (a record
        keeps every table ever made, and the event loop waits while this reads)."""
        with self.session() as s:
            if newest is None:
                return list(s.scalars(select(LobbyTable).order_by(LobbyTable.id)))
            return list(s.scalars(select(LobbyTable).order_by(LobbyTable.id.desc()).limit(newest)))[::-1]

    def game(self, game_id: int) -> GameRecord | None:
        with self.session() as s:
            return s.get(GameRecord, game_id)

    def game_of_table(self, table_id: int) -> GameRecord | None:
        with self.session() as s:
            query = select(GameRecord).where(GameRecord.table_id == table_id).order_by(GameRecord.id.desc())
            return s.scalars(query.limit(1)).first()

    def games(self, limit: int = 200) -> list[tuple[GameRecord, int]]:
        """The latest games with their number of hands begun, newest first (:func:`without_expired`)."""
        with self.session() as s:
            query = without_expired(select(GameRecord, HANDS_BEGUN)).order_by(GameRecord.id.desc()).limit(limit)
            return [(game, hands) for game, hands in s.execute(query)]

    def last_games(self, table_ids: Sequence[int]) -> dict[int, tuple[GameRecord, int, list[SeatRecord]]]:
        """The latest game of each of these tables, with its number of hands begun and its seats
        (by connection): how a table no process plays any more is listed."""
        if not table_ids:
            return {}
        with self.session() as s:
            latest = (
                select(func.max(GameRecord.id)).where(GameRecord.table_id.in_(table_ids)).group_by(GameRecord.table_id)
            )
            counted = select(GameRecord, HANDS_BEGUN).where(GameRecord.id.in_(latest))
            games = {game.id: (game, hands) for game, hands in s.execute(counted)}
            seats: dict[int, list[SeatRecord]] = {game_id: [] for game_id in games}
            query = select(SeatRecord).where(SeatRecord.game_id.in_(games)).order_by(SeatRecord.connection)
            for seat in s.scalars(query):
                seats[seat.game_id].append(seat)
            return {game.table_id: (game, hands, seats[game.id]) for game, hands in games.values()}

    def sent_since(self, game_id: int, after: int, limit: int = 5000) -> list[tuple[int, str]]:
        """The lines the table sent (logged) after move ``after``, with their numbers, oldest first."""
        with self.session() as s:
            query = (
                select(Move.seq, Move.text)
                .where(Move.game_id == game_id, Move.seq > after, Move.direction == ">")
                .order_by(Move.seq)
                .limit(limit)
            )
            return [(seq, line) for seq, line in s.execute(query) if line is not None]

    def seats(self, game_id: int) -> list[SeatRecord]:
        with self.session() as s:
            query = select(SeatRecord).where(SeatRecord.game_id == game_id).order_by(SeatRecord.connection)
            return list(s.scalars(query))

    def hands(self, game_id: int) -> list[HandRecord]:
        with self.session() as s:
            query = select(HandRecord).where(HandRecord.game_id == game_id).order_by(HandRecord.number)
            return list(s.scalars(query))

    def moves(self, game_id: int, chunk: int = 5000) -> Iterator[Move]:
        """The game's moves in order, read a chunk at a time."""
        after = -1
        while True:
            with self.session() as s:
                query = select(Move).where(Move.game_id == game_id, Move.seq > after).order_by(Move.seq).limit(chunk)
                rows = list(s.scalars(query))
            yield from rows
            if len(rows) < chunk:
                return
            after = rows[-1].seq

    # ------------------------------------------------------------------ chat

    def add_chat(self, table_id: int | None, game_id: int | None, name: str, text: str) -> ChatLine:
        with self.session() as s, s.begin():
            line = ChatLine(table_id=table_id, game_id=game_id, name=name, text=text, at=now())
            s.add(line)
        return line

    def chat(self, table_id: int | None, limit: int = 100) -> list[ChatLine]:
        with self.session() as s:
            query = select(ChatLine).where(
                ChatLine.table_id.is_(None) if table_id is None else ChatLine.table_id == table_id
            )
            rows = list(s.scalars(query.order_by(ChatLine.id.desc()).limit(limit)))
        return rows[::-1]


def _seat(game_id: int, seat: SeatSpec, player_id: int) -> SeatRecord:
    return SeatRecord(
        game_id=game_id, connection=seat.connection, name=seat.name, robot=seat.robot, account_id=seat.account_id,
        guest_key_hash=seat.guest_key_hash, player_id=player_id, score=None, placing=None,
    )  # fmt: skip
