"""One lobby table at work: its play driven in the event loop, stored batch by batch, served to connections.

People reach the table as any client reaches ``mj-server``: over a connected pair
of Unix sockets (:meth:`TableRunner.connect`), so the browser gateway's sessions
(:class:`mj.web.session.Session`) seat them unchanged. The pair has no name in any
namespace: nobody else on the machine can connect, and nothing is left to remove
however the lobby ends (a socket file would outlive ``kill -9``). Robots' answers
are handed to the table :data:`STEP` at a time, then the batch is stored and what
it sent people goes out: a table of robots plays at full speed, yielding to the
rest of the lobby between batches.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
from collections import deque
from collections.abc import Hashable, Iterator
from typing import Final

from mj.arena.options import game_options
from mj.lobby import rules
from mj.lobby.models import GameRecord, LobbyTable
from mj.lobby.play import TablePlay, TableSetup
from mj.lobby.recorder import Recorder
from mj.protocol.framing import LineDecoder, LineTooLong, encode_line
from mj.table import Delivery, PlayerRecord, TableSettings

#: Robot moves handed to the table between two writes to the record.
STEP: Final = 64
#: Claim time at tables where people sit (seconds); robots alone never wait.
CLAIM_SECONDS: Final = 15
#: Batches a table of robots may have waiting to be stored before it waits for the store.
MAX_PENDING: Final = 4
#: The most a person's connection may have unread before it is cut off (bytes).
MAX_BUFFER: Final = 1 << 20
#: Longest account of a table's fault (the exception's text may quote a line as long as 64 KiB).
MAX_FAULT: Final = 300


def fault_text(exc: BaseException) -> str:
    """An exception as one line of at most :data:`MAX_FAULT` characters (stderr, the table listing)."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= MAX_FAULT else text[: MAX_FAULT - 3] + "..."


def robot_name(index: int) -> str:
    return f"Robot{index + 1}"


def table_setup(row: LobbyTable) -> TableSetup:
    """The table's play as its record describes it (rule system by name, options by name, which nobody at the
    table may change).

    Robots alone never wait for claims; where people sit, the claim time is the table's
    turn timer, or :data:`CLAIM_SECONDS` without one.
    """
    options = json.loads(row.options)
    ruleset = rules.ruleset(row.rules)
    entries = game_options(settings=[f"{name}={value}" for name, value in sorted(options.items())], rules=ruleset)
    timeout = 0 if row.robots >= 4 else row.turn_timer or CLAIM_SECONDS
    # no manager: the options are the table's, as listed; the first person seated would otherwise be the original's
    # manager, free to change any of them (the rounds, the claim time) at any moment of the game
    settings = TableSettings(timeout=timeout, seed=row.seed, option_entries=entries, rules=ruleset, no_manager=True)
    return TableSetup(settings, row.level, None if row.wall_key is None else bytes.fromhex(row.wall_key))


def robot_seeds(row: LobbyTable) -> dict[int, tuple[str, int]]:
    """The robots of a table: connection, name and seed of each (connections 1 to N)."""
    return {index + 1: (robot_name(index), row.seed + index) for index in range(row.robots)}


class TableRunner:
    """A table's play in the event loop."""

    def __init__(self, recorder: Recorder, row: LobbyTable, game: GameRecord, robot_delay: float = 0.0) -> None:
        self.recorder = recorder
        self.store = recorder.store
        #: Seconds between robots' moves (0: full speed), to watch robots play.
        self.robot_delay = robot_delay
        self.row = row
        self.game = game
        self.play = TablePlay(table_setup(row))
        self._writers: dict[int, asyncio.StreamWriter] = {}
        self._next_connection = max(10, row.robots + 1)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: Whether :meth:`connect` lets people in (from start until the game ends or the table stops).
        self._serving = False
        #: The tasks reading people's connections (kept: the event loop holds tasks weakly).
        self._readers: set[asyncio.Task[None]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_key: Hashable | None = None
        #: Batches handed to the store and not yet stored, oldest first.
        self._pending: deque[asyncio.Future[None]] = deque()
        #: How many of the game's public lines are stored: what spectators may be sent.
        self.published = 0
        #: People gone from their seat, by player id: the timer after which a robot stands in.
        self._absent: dict[int, asyncio.TimerHandle] = {}
        #: Names of people seated here whose page is not open: gone, though their connection stays.
        self.pageless: set[str] = set()
        #: Names of people taking a seat here now (:meth:`mj.lobby.seats.LobbyGateway.sit`), not yet seated.
        self.arriving: set[str] = set()
        #: Set (and replaced) after every stored batch: spectators wait on it for new public lines.
        self.changed = asyncio.Event()
        #: Spectators watching now.
        self.spectators = 0
        #: The last spectators' message made: the range of public lines it holds, and its text.
        self._frame: tuple[tuple[int, int], str] | None = None
        #: The table's chat from outside the game (spectators), oldest first: (name, text).
        self.chat: list[tuple[str, str]] = []
        self.error: str | None = None

    @property
    def finished(self) -> bool:
        """The game is over (its last moves may still be on their way to the store)."""
        return self.play.game_over

    @property
    def stored(self) -> bool:
        """Everything played so far is in the record."""
        return not self._pending

    async def start(self, resume: bool) -> None:
        """Seat the robots (a new table) or play the record again (a table resumed), then serve."""
        if resume:
            moves = ((m.seq, m.direction, m.connection, m.text) for m in self.store.moves(self.game.id))
            self.play.rebuild(moves, robot_seeds(self.row))
            self._next_connection = max(self._next_connection, self.play.table_connections() + 1)
            for connection in self.play.people_connected():
                self.play.close(connection)  # their connections died with the last process
            for seat in self.store.seats(self.game.id):  # each seat goes back to whom it went before
                if seat.account_id is not None:
                    self.play.accounts[seat.name] = seat.account_id
                elif seat.guest_key_hash is not None:
                    self.play.guests[seat.name] = seat.guest_key_hash
        else:
            for connection, (name, seed) in robot_seeds(self.row).items():
                self.play.add_robot(connection, name, seed)
        self.flush()
        if not self.finished:
            self._serving = True
            self._task = asyncio.create_task(self._run())

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A new connection to the table, as a client's to ``mj-server``: the client's end of it.

        Refused (:class:`ConnectionRefusedError`) once the game is over or the table stopped,
        as a server's socket that is gone refuses.
        """
        if not self._serving:
            raise ConnectionRefusedError(f"table {self.row.id} is not played here")
        ours, theirs = socket.socketpair()
        try:
            reader, writer = await asyncio.open_connection(sock=ours)
            client = await asyncio.open_connection(sock=theirs)
        except BaseException:
            ours.close()
            theirs.close()
            raise
        task = asyncio.create_task(self._serve(reader, writer))
        self._readers.add(task)
        task.add_done_callback(self._readers.discard)
        return client

    async def stop(self) -> None:
        await self.drain()
        if self._timer is not None:
            self._timer.cancel()
        for handle in self._absent.values():
            handle.cancel()
        self._serving = False
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for writer in list(self._writers.values()):
            writer.close()

    async def _run(self) -> None:
        try:
            while not self.finished:
                if self.play.queue:
                    self.play.step(1 if self.robot_delay else STEP)
                    self.flush()
                    while len(self._pending) > MAX_PENDING:  # robots wait for the disk, never the other way
                        await asyncio.wait({self._pending[0]})
                    await asyncio.sleep(self.robot_delay)
                else:
                    await self._wake.wait()
                    self._wake.clear()
        except Exception as exc:  # a fault of this table stops it alone, never the lobby
            self._fail(exc)
        finally:
            self._serving = False

    def _fail(self, exc: Exception) -> None:
        """A fault of the table's play (a line it cannot take, a bug): this table stops, said in one line.

        What the failing batch did is not stored, so a lobby started again plays the
        table on from its record; the other tables and the lobby go on meanwhile.
        """
        if self.error is not None:
            return
        self.error = fault_text(exc)
        print(f"mj lobby: table {self.row.id} stops: {self.error}", file=sys.stderr, flush=True)
        self._stop_playing()

    @contextlib.contextmanager
    def _alone(self) -> Iterator[None]:
        """What runs inside moves the table's play: a fault of it stops this table alone (:meth:`_fail`)."""
        try:
            yield
        except Exception as exc:
            self._fail(exc)

    def flush(self) -> None:
        """Have what happened stored; once it is, send people what it caused (:meth:`_stored`).

        The store writes in a thread of its own, the batches of all tables of one turn of
        the event loop in one transaction (:mod:`mj.lobby.recorder`), in the order they were
        handed over, so the event loop never waits for the disk and each table's batches
        are stored, and their messages sent, in order.
        """
        batch, outbox, published = self.play.take_batch(), self.play.take_outbox(), len(self.play.public)
        self._set_timer()
        self._watch_absent()
        if self.play.queue:
            self._wake.set()
        stored = self.recorder.record(self.game.id, batch)
        self._pending.append(stored)
        stored.add_done_callback(lambda done: self._stored(done, outbox, published))

    def _stored(self, done: asyncio.Future[None], outbox: list[Delivery], published: int) -> None:
        self._pending.popleft()
        if done.cancelled() or done.exception() is not None:
            if self.error is None:
                self.error = f"cannot store table {self.row.id}'s moves: {done.exception()}"
                print(f"mj lobby: {self.error}; the table stops", file=sys.stderr, flush=True)
                self._stop_playing()
            return
        for delivery in outbox:
            writer = self._writers.get(delivery.connection)
            if writer is not None and not writer.is_closing():
                writer.write(encode_line(delivery.message.encode()))
                if writer.transport.get_write_buffer_size() > MAX_BUFFER:
                    writer.close()
        for connection in self.play.table.closing:
            writer = self._writers.get(connection)
            if writer is not None and not writer.is_closing():
                writer.close()  # its reader then sees the end and tells the table (_serve)
        self.published = published
        self.notify()

    async def drain(self) -> None:
        """Wait until every batch handed to the store is stored."""
        while self._pending:
            await asyncio.wait({self._pending[-1]})

    def _stop_playing(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._serving = False
        for writer in self._writers.values():
            writer.close()

    def page(self, name: str, open_: bool) -> None:
        """Whether the page of the person called ``name`` is open: one that is not counts as gone.

        The gateway keeps a seat's connection for a quarter of an hour without a page
        (a reload must not lose the seat); the turn timer must not wait that long.
        """
        if open_:
            self.pageless.discard(name)
        else:
            self.pageless.add(name)
        self._watch_absent()

    def _gone(self, record: PlayerRecord) -> bool:
        """A person who left, lost the connection, or whose page is not open; never a robot."""
        if record.id in self.play.stand_ins:
            return False
        return record.connection is None or (record.name in self.pageless and record.connection in self._writers)

    def _watch_absent(self) -> None:
        """Start the turn timer for each person gone from a game in play; stop it for each who came back."""
        game = self.play.table.game
        timer = self.row.turn_timer or CLAIM_SECONDS  # a table without a turn timer waits the claim time
        if game is None or self.finished:
            return
        gone = {r.id for r in self.play.table.players if self._gone(r)}
        for player in set(self._absent) - gone:
            self._absent.pop(player).cancel()
        for player in gone - set(self._absent):
            self._absent[player] = asyncio.get_running_loop().call_later(timer, self._stand_in, player)

    def _stand_in(self, player: int) -> None:
        self._absent.pop(player, None)
        record = next((r for r in self.play.table.players if r.id == player), None)
        if record is None or not self._gone(record) or self.finished or self.error is not None:
            return
        connection = self._next_connection
        self._next_connection += 1
        with self._alone():
            if record.connection is not None:  # no page: the seat's connection makes way (it waits for the page)
                writer = self._writers.pop(record.connection)
                self.play.close(record.connection)
                writer.close()
            self.play.stand_in(connection, player, record.name)
            self.flush()

    def add_robot(self) -> str:
        """A robot of the table's level sits down in a free seat; its name."""
        taken = {r.name for r in self.play.table.players}
        name = next(f"Robot{n}" for n in range(1, 10) if f"Robot{n}" not in taken)
        connection = self._next_connection
        self._next_connection += 1
        self.play.stand_in(connection, 0, name)
        self.flush()
        return name

    def give_back(self, name: str) -> None:
        """The person called ``name`` is back: the robot standing in for them leaves their seat."""
        record = next((r for r in self.play.table.players if r.name == name), None)
        if record is not None and record.id in self.play.stand_ins:
            self.play.close(self.play.stand_ins[record.id])
            self.flush()

    def public_frame(self, start: int) -> str | None:
        """The spectators' message of the public lines stored from line ``start`` on (None: none yet).

        Encoded once for all the spectators who have been sent the same lines (they
        all ask with the same ``start`` after each batch): one slot, so a spectator
        who comes later costs one more encoding, never memory.
        """
        end = self.published
        if start >= end:
            return None
        if self._frame is None or self._frame[0] != (start, end):
            self._frame = ((start, end), json.dumps({"type": "public", "lines": self.play.public[start:end]}))
        return self._frame[1]

    def notify(self) -> None:
        """Wake whoever waits for news of this table."""
        self.changed.set()
        self.changed = asyncio.Event()

    def _set_timer(self) -> None:
        wanted = self.play.table.claim_timer()
        key = wanted[0] if wanted is not None else None
        if key == self._timer_key:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_key = key
        if wanted is not None:
            self._timer = asyncio.get_running_loop().call_later(wanted[1], self._timed_out, key)

    def _timed_out(self, key: Hashable) -> None:
        if key != self._timer_key:
            return
        self._timer = None
        self._timer_key = None
        if self.error is not None:
            return
        with self._alone():
            self.play.timeout()
            self.flush()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = self._next_connection
        self._next_connection += 1
        self._writers[connection] = writer
        self.play.open(connection)
        self.flush()
        decoder = LineDecoder()
        try:
            while not self.finished:
                data = await reader.read(65536)
                if not data:
                    break
                for line in decoder.feed(data):
                    self.play.receive_line(connection, line)
                self.flush()
        except (OSError, ConnectionError, LineTooLong):
            pass
        except Exception as exc:  # a line this table cannot take: it alone stops
            self._fail(exc)
        finally:
            if self._writers.pop(connection, None) is not None and not self.finished and self.error is None:
                with self._alone():
                    self.play.close(connection)
                    self.flush()
            writer.close()
