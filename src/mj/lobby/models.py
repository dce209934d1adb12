"""The lobby's records, as SQLAlchemy ORM classes; the schema itself is made by the migrations.

A *table* is a place with a rule system, options and seats; a *game* is what is played
at it, with its *hands*; a *move* is one line of the game's log: a line a player sent
(``<``), a message the table logged (``>``), a connection's end (``<`` with no text)
or the claim timer running out (``!``). The moves of a game, in order, are its whole
story: the log export is them, and replaying the ``<`` and ``!`` moves through a
fresh table rebuilds the game exactly where it stood.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    #: The name's :func:`mj.lobby.accounts.name_key`, unique: ``ann`` is not another account than ``Ann``. None for
    #: an account made before keys (version 0007) whose key an older account had already.
    name_key: Mapped[str | None] = mapped_column(String(120), unique=True)
    #: The KDF's own encoded hash (algorithm, parameters, salt, digest); never the password.
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime]


class LoginSession(Base):
    """A logged-in browser: the SHA-256 of its cookie, so a stolen database opens no session."""

    __tablename__ = "login_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    expires_at: Mapped[datetime]


class LobbyTable(Base):
    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    rules: Mapped[str] = mapped_column(String(40))
    #: The rule system's table options by name, as JSON.
    options: Mapped[str] = mapped_column(Text)
    robots: Mapped[int]
    level: Mapped[int]
    seed: Mapped[int]
    #: The secret the table's walls are dealt from (:class:`mj.tiles.KeyedRandom`), in hex; no answer of the lobby
    #: shows it. None for a table made before keys (version 0006): its walls come from ``seed``, as ``--seed`` deals.
    wall_key: Mapped[str | None] = mapped_column(String(64))
    #: The turn timer (seconds): the claim time, and how long a person may be gone before a robot
    #: stands in (0: no timer; then both are the lobby's claim time, mj.lobby.runner.CLAIM_SECONDS).
    turn_timer: Mapped[int]
    #: "waiting" (seats free), "playing", "finished", or "expired" (waited too long with nobody at it).
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime]
    #: The account that created the table.
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    #: The lobby process playing the table (its ``--name``), alone allowed to append its moves,
    #: until ``lease_until``; another process may take the table over once the lease has run out.
    process: Mapped[str | None] = mapped_column(String(100))
    lease_until: Mapped[datetime | None]
    #: The client that made the table (:func:`mj.lobby.limits.client`: an account, else an address; None before
    #: it was recorded): its share of waiting tables counts it, after a restart too.
    made_by: Mapped[str | None] = mapped_column(String(100))


class GameRecord(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    rules: Mapped[str] = mapped_column(String(40))
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int]
    started_at: Mapped[datetime]
    finished: Mapped[bool]
    finished_at: Mapped[datetime | None]
    #: How many moves are stored: the next move's number.
    moves: Mapped[int]


class SeatRecord(Base):
    """Who sits at a game: by protocol connection, with the player id and final score once known."""

    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    connection: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    robot: Mapped[bool]
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    #: A guest's seat: the SHA-256 of the key (:data:`mj.lobby.accounts.GUEST_COOKIE`) of the browser that took it,
    #: the only one given the seat back; a copy of the database opens no seat.
    guest_key_hash: Mapped[str | None] = mapped_column(String(64))
    player_id: Mapped[int | None]
    score: Mapped[int | None]
    placing: Mapped[int | None]
    #: Hands won, of them self-drawn, and hands this seat's discard or kong gave another the win (once finished).
    wins: Mapped[int | None]
    self_drawn: Mapped[int | None]
    deal_ins: Mapped[int | None]


class HandRecord(Base):
    __tablename__ = "hands"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    #: The player id of the hand's East.
    east: Mapped[int]
    #: The move that started it (the ``NewHand``) and the one that settled it.
    first_move: Mapped[int]
    last_move: Mapped[int | None]
    #: The player id who went out (None: washout or not yet over).
    winner: Mapped[int | None]
    #: The settlement, as JSON ``{player id: change}``.
    settlement: Mapped[str | None] = mapped_column(Text)


class Move(Base):
    __tablename__ = "moves"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    #: "<" received from a player, ">" sent by the table, "!" the claim timer ran out.
    direction: Mapped[str] = mapped_column(String(1))
    connection: Mapped[int]
    #: The line (None: the connection ended).
    text: Mapped[str | None] = mapped_column(Text)


class ChatLine(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: None: the lobby's own chat.
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime]


class Rating(Base):
    """An account's skill under one rule system (openskill's Plackett-Luce mu and sigma)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    games: Mapped[int]


Index("chat_by_table", ChatLine.table_id, ChatLine.id)
Index("tables_by_process", LobbyTable.process, LobbyTable.status)
