"""The lobby's tables: created from a request, run by :class:`TableRunner`, resumed from the record at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import socket
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from mj.arena.options import game_options
from mj.arena.players import SpecError
from mj.lobby import rules
from mj.lobby.models import GameRecord, LobbyTable, SeatRecord
from mj.lobby.recorder import Recorder
from mj.lobby.runner import TableRunner, fault_text
from mj.lobby.store import EXPIRED, Lease, Store, now
from mj.robot.levels import DEFAULT_LEVEL, LEVELS
from mj.rules.options import OptionType
from mj.tiles import KEY_BYTES

Json = dict[str, Any]
#: A number option's value written as text: digits, a minus sign before a negative number's, no more than fit in
#: any option's range.
_DIGITS: Final = re.compile(r"-?[0-9]{1,18}")

SEATS: Final = 4
#: Longest turn timer a table may set (seconds).
MAX_TIMER: Final = 600
#: Most tables one lobby process plays at once (each holds a game in memory).
MAX_TABLES: Final = 2000
#: Tables waiting for players one client may have made (an account, else an address): one client cannot
#: take the lobby's :data:`MAX_TABLES` from everybody.
MAX_WAITING_PER_CLIENT: Final = 4
#: Tables played by robots alone (made so, or filled with robots) one client may have made and have in play: each
#: plays at full speed (or at --robot-delay) and is stored, and such tables were no share of :data:`MAX_TABLES`.
MAX_ROBOT_TABLES_PER_CLIENT: Final = 4
#: Seconds after which a table made and still waiting, with nobody at it, is closed for good ("expired").
WAITING_EXPIRY: Final = 1800
#: The name a lobby process holds its tables' leases by, unless ``mj lobby --name`` gives one:
#: the same after a restart on this host, so that a restarted lobby takes its own tables back at once.
DEFAULT_PROCESS: Final = socket.gethostname()


class TableRequestError(ValueError):
    """A table that cannot be created as asked; the message says why."""


class TooManyTables(TableRequestError):
    """A table refused for now: the lobby, or this client's share of it, is full."""


@dataclass(frozen=True, slots=True)
class TableRequest:
    rules: str
    options: dict[str, int | str]
    robots: int
    level: int
    turn_timer: int


def parse_request(data: object) -> TableRequest:
    """A ``POST /api/tables`` body checked: every fault named, nothing created."""
    if not isinstance(data, dict):
        raise TableRequestError("expected a JSON object")
    unknown = set(data) - {"rules", "options", "robots", "level", "timer"}
    if unknown:
        raise TableRequestError(f"unknown field(s): {', '.join(sorted(unknown))}")
    name = data.get("rules", rules.DEFAULT)
    if not isinstance(name, str):
        raise TableRequestError("rules: expected the name of a rule system")
    try:
        ruleset = rules.ruleset(name)
    except rules.UnknownRules as exc:
        raise TableRequestError(str(exc)) from None
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise TableRequestError("options: expected an object of option names and values")
    types = rules.option_types(name)
    foreign = sorted(set(options) - set(types))
    if foreign:
        raise TableRequestError(
            f"options: {', '.join(foreign)} not an option of the {name} rules (they have {', '.join(types)})"
        )
    values = {key: _option_value(key, value, types[key]) for key, value in options.items()}
    try:
        game_options(settings=[f"{k}={v}" for k, v in sorted(values.items())], rules=ruleset)
    except SpecError as exc:
        raise TableRequestError(f"options: {exc}") from None
    robots = _number(data, "robots", 0, 0, SEATS)
    level = _number(data, "level", DEFAULT_LEVEL, min(LEVELS), max(LEVELS))
    timer = _number(data, "timer", 0, 0, MAX_TIMER)
    return TableRequest(name, values, robots, level, timer)


def _option_value(name: str, value: object, kind: str) -> int | str:
    """An option's value as asked: a number option's is a JSON number, or a string of digits alone (stored as
    the number), never text that only begins with one as the protocol's ``SetGameOption`` reads it."""
    if kind == OptionType.STRING.value:
        if not isinstance(value, str):
            raise TableRequestError(f"options: {name}: expected text")
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    raise TableRequestError(f"options: {name}: expected a whole number (a JSON number or a string of digits)")


def _number(data: Json, key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise TableRequestError(f"{key}: expected a whole number from {low} to {high}")
    return value


class Tables:
    """Every table this lobby process plays, by id: those it holds the lease of (docs/lobby-scaling.md)."""

    def __init__(self, store: Store, robot_delay: float = 0.0, lease: Lease | None = None) -> None:
        self.store = store
        self.robot_delay = robot_delay
        self.lease = Lease(DEFAULT_PROCESS) if lease is None else lease
        self.recorder = Recorder(store)
        self.runners: dict[int, TableRunner] = {}
        #: Tables of this process whose record cannot be played (damaged, or of another program version), with why:
        #: left as they are in the record, listed as failed, not tried again until the lobby starts again.
        self.faults: dict[int, str] = {}
        self._keeper: asyncio.Task[None] | None = None

    async def create(self, request: TableRequest, owner_id: int | None = None, client: str = "") -> TableRunner:
        """A new table made by ``client`` (:func:`mj.lobby.limits.client`), within the lobby's and the client's
        limits (:class:`TooManyTables` beyond)."""
        if len([r for r in self.runners.values() if not r.finished and r.error is None]) >= MAX_TABLES:
            raise TooManyTables(f"this lobby already plays {MAX_TABLES} tables")
        waiting = [t for t, runner in self.runners.items() if runner.row.made_by == client and _waiting(runner)]
        if len(waiting) >= MAX_WAITING_PER_CLIENT:
            raise TooManyTables(
                f"you have {len(waiting)} tables waiting for players (tables {', '.join(map(str, waiting))}): "
                "sit at one or wait until one starts"
            )
        if request.robots >= SEATS:
            self.check_robots_alone(client, client)
        row = self.store.create_table(
            request.rules, dict(request.options), request.robots, request.level, secrets.randbelow(1 << 30),
            request.turn_timer, owner_id, self.lease, client, secrets.token_hex(KEY_BYTES),
        )  # fmt: skip
        return await self._start(row, resume=False)

    def check_robots_alone(self, maker: str | None, asker: str) -> None:
        """:class:`TooManyTables` if a table that ``maker`` made may not be played by robots alone now (``asker``
        made it, or fills its last seat with a robot): ``maker`` has its share of such tables in play."""
        playing = [t for t, runner in self.runners.items() if runner.row.made_by == maker and _robots_alone(runner)]
        if maker is not None and len(playing) >= MAX_ROBOT_TABLES_PER_CLIENT:
            who = "you have" if maker == asker else "this table's maker has"
            raise TooManyTables(
                f"{who} {len(playing)} tables played by robots alone (tables {', '.join(map(str, playing))}): "
                "wait until one ends"
            )

    async def expire_waiting(self, at: datetime | None = None) -> set[int]:
        """Close for good the tables made :data:`WAITING_EXPIRY` seconds before ``at`` (now) and still
        waiting with nobody at them; their ids. Their record says so: they are not played again."""
        at = now() if at is None else at
        old = at - timedelta(seconds=WAITING_EXPIRY)
        expired = {
            table
            for table, runner in self.runners.items()
            if _waiting(runner) and not runner.play.people_connected() and runner.row.created_at <= old
        }
        for table in sorted(expired):
            runner = self.runners.pop(table)
            await runner.stop()
            self.store.close_table(table, EXPIRED)
        return expired

    async def resume(self) -> int:
        """Play on every unfinished table this process may claim (after a restart: its own, and
        those no live process holds), then keep the leases; how many tables it took."""
        taken = await self._claim()
        await self.expire_waiting()  # those that were waiting when the lobby stopped, long enough ago
        self._keeper = asyncio.create_task(self._keep_leases())
        return taken

    async def _claim(self) -> int:
        rows = await asyncio.wrap_future(self.store.writer.submit(self.store.claim, self.lease))
        fresh = [row for row in rows if row.id not in self.runners and row.id not in self.faults]
        for row in fresh:
            try:
                await self._start(row, resume=True)
            except Exception as exc:  # one damaged record stops its table alone, never the lobby
                self.faults[row.id] = fault_text(exc)
                print(f"mj lobby: table {row.id} cannot be played: {self.faults[row.id]}", file=sys.stderr, flush=True)
        return len(fresh)

    async def _keep_leases(self) -> None:
        """Renew this process's leases a few times per lease; drop a table another process took over
        (this one was paused past its lease); take over the tables of a process gone past its lease."""
        while True:
            await asyncio.sleep(self.lease.seconds / 3)
            try:
                asked = set(self.runners)  # not those made while the renewal is on its way
                held = await asyncio.wrap_future(self.store.writer.submit(self.store.renew, self.lease))
                for table in asked - held:
                    runner = self.runners.get(table)
                    if runner is not None and not runner.finished:
                        print(f"mj lobby: table {table} is played by another process now", file=sys.stderr)
                        del self.runners[table]
                        await runner.stop()
                await self._claim()
                await self.expire_waiting()
            except Exception as exc:  # a database that fails for a while: try again at the next round
                print(f"mj lobby: cannot renew the tables' leases: {exc}", file=sys.stderr, flush=True)

    async def _start(self, row: LobbyTable, resume: bool) -> TableRunner:
        game = self.store.game_of_table(row.id) if resume else None
        if game is None:
            game = self.store.start_game(row)
        runner = TableRunner(self.recorder, row, game, self.robot_delay)
        await runner.start(resume=resume)
        self.runners[row.id] = runner
        return runner

    async def connect(self, table: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection to table ``table`` as this process plays it now: a seat's session that
        rejoins after a lost connection reaches the table even if it was started again here."""
        runner = self.runners.get(table)
        if runner is None:
            raise ConnectionRefusedError(f"table {table} is not played here")
        return await runner.connect()

    async def close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        for runner in self.runners.values():
            await runner.stop()

    def describe(self, row: LobbyTable) -> Json:
        return self.describe_all([row])[0]

    def describe_all(self, rows: list[LobbyTable]) -> list[Json]:
        """Tables as the lobby lists them; a finished one no process plays any more (after a restart)
        from its record, as it was listed when its game ended."""
        ended = self.store.last_games([r.id for r in rows if r.id not in self.runners and r.status == "finished"])
        return [self._describe(row, ended.get(row.id)) for row in rows]

    def _describe(self, row: LobbyTable, ended: tuple[GameRecord, int, list[SeatRecord]] | None) -> Json:
        """A table as the lobby lists it: rules, options, seats and who sits, status."""
        runner = self.runners.get(row.id)
        seats: list[Json] = []
        game_id = None
        hands = 0
        if runner is not None:
            game_id = runner.game.id
            hands = runner.play.hands
            for record in runner.play.table.players:
                stand_in = record.id in runner.play.stand_ins
                seats.append({"id": record.id, "name": record.name, "connected": record.connection is not None,
                              "robot": record.connection in runner.play.robots and not stand_in,
                              "stand_in": stand_in})  # fmt: skip
        elif ended is not None:
            game, hands, records = ended
            game_id = game.id
            seats = _final_seats(records)
        described = {
            "id": row.id,
            "rules": row.rules,
            "options": _options(row),
            "robots": row.robots,
            "level": row.level,
            "timer": row.turn_timer,
            "status": _status(runner) if runner is not None else row.status,
            "game": game_id,
            "hands": hands,
            "seats": seats,
            "free": max(0, SEATS - len(seats)),
            "spectators": runner.spectators if runner is not None else 0,
            "process": row.process,
        }
        fault = runner.error if runner is not None else self.faults.get(row.id)
        if fault is not None:
            described["status"], described["error"] = "failed", fault
        return described


def _final_seats(records: list[SeatRecord]) -> list[Json]:
    """Who sat at a finished game, from its seats by connection: each player's first connection
    owns the seat, the last one played it at the end (a robot standing in for a person, or them).
    A game ends only with every seat played, so each is listed connected, as when it ended."""
    first: dict[int, SeatRecord] = {}
    last: dict[int, SeatRecord] = {}
    for record in records:
        if record.player_id is not None:
            first.setdefault(record.player_id, record)
            last[record.player_id] = record
    return [
        {"id": player, "name": seat.name, "connected": True, "robot": seat.robot,
         "stand_in": last[player].robot and not seat.robot}
        for player, seat in first.items()
    ]  # fmt: skip


def _options(row: LobbyTable) -> object:
    """The table's options as stored: a damaged record's text as it is."""
    try:
        return json.loads(row.options)
    except ValueError:
        return row.options


def _waiting(runner: TableRunner | None) -> bool:
    """Whether a table of this process waits for players (made, not started, not failed, a seat not a robot's:
    robots in every seat start the game themselves)."""
    return (
        runner is not None and runner.error is None and not runner.finished and runner.play.table.game is None
        and robots_seated(runner) < SEATS
    )  # fmt: skip


def robots_seated(runner: TableRunner) -> int:
    """The robots sitting at a table for good (not standing in for a person)."""
    return len(runner.play.robots) - len(runner.play.stand_ins)


def _robots_alone(runner: TableRunner) -> bool:
    """Whether a table of this process is in play with robots in every seat, none standing in for a person."""
    return runner.error is None and not runner.finished and robots_seated(runner) >= SEATS


def _status(runner: TableRunner) -> str:
    if runner.finished and runner.stored:
        return "finished"
    return "playing" if runner.play.table.game is not None else "waiting"
