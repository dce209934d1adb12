"""One lobby table's play, without I/O: the server's table, robots in-process, every move recorded.

Robots sit on connections as in the arena (:mod:`mj.arena.exchange`): what the table
sends a robot is handed to it at once and its answers join one queue, taken in the
order they were made. People sit on other connections; what the table sends them
waits in :attr:`TablePlay.outbox` until the batch that caused it is stored.

Every line the table receives, every message it logs and every claim timer that runs
out is a numbered move of the game's record. Since the table and the robots are
deterministic (the walls come from the table's secret key, each robot's choices from its
own seed), :meth:`TablePlay.rebuild` plays the stored moves through a fresh table and fresh
robots and arrives exactly where the game stood, with the robots' answers that were
made but not yet stored waiting in the queue again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from mj.arena.tally import GameTally
from mj.lobby.public import hides_concealed_kongs, public_view
from mj.lobby.store import Batch, HandState, SeatResult, SeatSpec
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.robot.agent import Robot
from mj.robot.systems import make_strategy
from mj.table import Delivery, SeededWalls, Table, TableSettings
from mj.tiles import KeyedRandom

RECEIVED: Final = "<"
SENT: Final = ">"
TIMER: Final = "!"
#: A robot sat down after the table was made (in a free seat, or for a person gone past the turn
#: timer); the text is its Connect line.
STAND_IN: Final = "+"


class RebuildError(RuntimeError):
    """Stored moves the table and robots do not reproduce (a record from another program version)."""


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a table's play depends on, all of it stored with the table."""

    settings: TableSettings
    level: int = 3
    #: The secret the walls are dealt from (:class:`mj.tiles.KeyedRandom`); None: from the settings' seed.
    wall_key: bytes | None = None


@dataclass(slots=True)
class _Hands:
    """The hands of the game, followed through the messages the table logs."""

    seats: list[int] = field(default_factory=list)
    current: HandState | None = None
    count: int = 0
    over: bool = False

    def observe(self, message: C.CMsg, seq: int, batch: Batch) -> None:
        match message:
            case C.Game() if not self.seats:
                self.seats = [message.east, message.south, message.west, message.north]
            case C.NewHand(east=east) if east in self.seats:
                start = self.seats.index(east)
                self.seats = self.seats[start:] + self.seats[:start]
                self.count += 1
                self.current = HandState(self.count, east, seq)
                batch.hands[self.count] = self.current
            case C.PlayerMahJongs(id=pid) | C.PlayerRobsKong(id=pid) if self.current is not None:
                self.current.winner = pid
                batch.hands[self.current.number] = self.current
            case C.Settlement() if self.current is not None:
                deltas = (message.east, message.south, message.west, message.north)
                self.current.settlement = dict(zip(self.seats, deltas, strict=True))
                self.current.last_move = seq
                batch.hands[self.current.number] = self.current
            case C.WashOut() if self.current is not None:  # a drawn hand ends with no settlement
                self.current.last_move = seq
                batch.hands[self.current.number] = self.current
            case C.GameOver():
                self.over = True


class TablePlay:
    """A table, its robots and its record in the making."""

    def __init__(self, setup: TableSetup) -> None:
        self.setup = setup
        keyed = None if setup.wall_key is None else SeededWalls(KeyedRandom(setup.wall_key), None, False)
        self.table = Table(setup.settings, walls=keyed)
        self.robots: dict[int, Robot] = {}
        self._robot_sent: dict[int, list[P.PMsg]] = {}
        #: Robots' answers not yet handed to the table, in the order they were made.
        self.queue: deque[tuple[int, P.PMsg]] = deque()
        #: What the table sent people (not robots) since the last :meth:`take_outbox`.
        self.outbox: list[Delivery] = []
        self.batch = Batch()
        self.seq = 0
        self._hands = _Hands()
        #: The game's figures per player (wins, self-drawn, deal-ins), counted as the arena counts them.
        self._tally = GameTally()
        #: The first connection each player id joined on: the seat's number in the record.
        self._seat_of: dict[int, int] = {}
        #: What each connection last said its name was (for new seats' records).
        self._names: dict[int, str] = {}
        #: Who each person's seat belongs to, by name: an account, else a guest (the SHA-256 of their key). Names
        #: are listed publicly: only the seat's own account or guest may take it back (:meth:`holds`).
        self.accounts: dict[str, int] = {}
        self.guests: dict[str, str] = {}
        self._recording = True
        self._highest_connection = 0
        #: Robots standing in for people gone: their connection, by the person's player id.
        self.stand_ins: dict[int, int] = {}
        #: Every public line of the game so far (:mod:`mj.lobby.public`), what spectators are sent.
        self.public: list[str] = []
        self._hidden_kongs = hides_concealed_kongs(setup.settings.rules)

    # ------------------------------------------------------------------ state

    @property
    def game_over(self) -> bool:
        return self._hands.over

    @property
    def hands(self) -> int:
        return self._hands.count

    def table_connections(self) -> int:
        """The highest connection number the game has seen (0: none)."""
        return self._highest_connection

    def people_connected(self) -> list[int]:
        """Connections of people (not robots) the table holds open."""
        return [c for c in self.table.connections if c not in self.robots]

    def take_batch(self) -> Batch:
        batch, self.batch = self.batch, Batch()
        return batch

    def take_outbox(self) -> list[Delivery]:
        out, self.outbox = self.outbox, []
        return out

    def bind(self, name: str, account_id: int | None, guest_key_hash: str) -> None:
        """The seat ``name`` is about to take (a free one) is this account's, else this guest key's."""
        self.accounts.pop(name, None)
        self.guests.pop(name, None)
        if account_id is not None:
            self.accounts[name] = account_id
        else:
            self.guests[name] = guest_key_hash

    def holds(self, name: str, account_id: int | None, guest_key_hash: str) -> bool:
        """Whether the seat of ``name`` is this account's or this guest key's: a seat bound to neither (taken
        before the lobby bound guests' seats) is nobody's to take back."""
        if name in self.accounts:
            return self.accounts[name] == account_id
        return self.guests.get(name) == guest_key_hash

    # ------------------------------------------------------------------ events

    def add_robot(self, connection: int, name: str, seed: int) -> None:
        """A robot of the table's level sits down on ``connection`` and asks to join."""
        self.robots[connection] = Robot(make_strategy(self.setup.level, seed=seed))
        self._robot_sent[connection] = []
        self.table.open(connection)
        self.queue.append((connection, P.Connect(EXTENDED_PROTOCOL_VERSION, 0, name)))

    def stand_in(self, connection: int, player_id: int, name: str) -> None:
        """A robot sits down on a new connection: in the seat of ``player_id`` (gone) until :meth:`close`
        ends it, or (``player_id`` 0) in a free seat for good."""
        connect = P.Connect(EXTENDED_PROTOCOL_VERSION, player_id, name)
        self._record(STAND_IN, connection, connect.encode())
        self.robots[connection] = Robot(make_strategy(self.setup.level, seed=self.table.settings.seed + connection))
        if player_id:
            self.stand_ins[player_id] = connection
        self._robot_sent[connection] = []
        self.table.open(connection)
        self.queue.append((connection, connect))

    def open(self, connection: int) -> None:
        self._route(self.table.open(connection))

    def receive_line(self, connection: int, line: str) -> None:
        """A line from a person's connection (checked by the table like any client's)."""
        self._note_connect(connection, line)
        self._record(RECEIVED, connection, line)
        self._route(self.table.receive(connection, line))

    def close(self, connection: int) -> None:
        """The connection ended: a person's, or a stand-in robot's giving the seat back."""
        self._record(RECEIVED, connection, None)
        if self.robots.pop(connection, None) is not None:
            self._robot_sent.pop(connection, None)
            self.stand_ins = {p: c for p, c in self.stand_ins.items() if c != connection}
            self.queue = deque(entry for entry in self.queue if entry[0] != connection)
        self._route(self.table.close(connection))

    def timeout(self) -> None:
        self._record(TIMER, 0, None)
        self._route(self.table.timeout())

    def step(self, limit: int) -> int:
        """Hand up to ``limit`` of the robots' answers to the table; how many were handed."""
        done = 0
        while self.queue and done < limit:
            connection, move = self.queue.popleft()
            self._robot_move(connection, move)
            done += 1
        return done

    def _robot_move(self, connection: int, move: P.PMsg) -> None:
        self._robot_sent[connection].append(move)
        text = move.encode()
        self._note_connect(connection, text)
        self._record(RECEIVED, connection, text)
        self._route(self.table.receive_message(connection, move))

    def _note_connect(self, connection: int, line: str) -> None:
        if line.startswith("Connect "):
            parts = line.split(" ", 3)
            self._names[connection] = parts[3].strip() if len(parts) == 4 else ""

    def _record(self, direction: str, connection: int, text: str | None) -> None:
        self._highest_connection = max(self._highest_connection, connection)
        if self._recording:
            self.batch.moves.append((self.seq, direction, connection, text))
        self.seq += 1

    def _route(self, deliveries: Iterable[Delivery]) -> None:
        for delivery in deliveries:
            message = delivery.message
            if delivery.logged:
                seq = self.seq
                self._record(SENT, delivery.connection, message.encode())
                seen = public_view(message, self._hidden_kongs)
                if seen is not None:
                    self.public.append(seen.encode())
                self._hands.observe(message, seq, self.batch)
                self._tally.observe(message)
                if isinstance(message, C.GameOver):
                    self._final_scores()
            if isinstance(message, C.ConnectReply) and message.id:
                self._seated(delivery.connection, message.id)
            robot = self.robots.get(delivery.connection)
            if robot is None:
                self.outbox.append(delivery)
                continue
            sent = self._robot_sent[delivery.connection]
            if not isinstance(message, C.Error):
                answers = robot.receive(message)
            elif 0 < message.seqno <= len(sent):
                answers = robot.refused(sent[message.seqno - 1], message.text)
            else:
                answers = []
            self.queue.extend((delivery.connection, answer) for answer in answers)

    def _seated(self, connection: int, player_id: int) -> None:
        if player_id in self._seat_of:
            return
        self._seat_of[player_id] = connection
        name = self._names.get(connection, "")
        seat = SeatSpec(connection, name, connection in self.robots, self.accounts.get(name), self.guests.get(name))
        self.batch.seats.append((seat, player_id))

    def _final_scores(self) -> None:
        game = self.table.game
        if game is None:
            return
        tally = self._tally
        # no penalties to deduct: a lobby table suspends play when a player leaves, never ends the game
        self.batch.final = {
            seat: SeatResult(game.scores[pid], tally.wins_by.get(pid, 0), tally.self_drawn_by.get(pid, 0),
                             tally.deal_ins_by.get(pid, 0))
            for pid, seat in self._seat_of.items()
            if pid in game.scores
        }  # fmt: skip

    # ------------------------------------------------------------------ rebuilding

    def rebuild(
        self, moves: Iterable[tuple[int, str, int, str | None]], robot_seeds: dict[int, tuple[str, int]]
    ) -> None:
        """Play the stored moves again: the table, robots and hands as they were after the last one.

        ``robot_seeds`` gives each robot's connection its name and seed, as :meth:`add_robot` had them.
        Nothing is recorded again; messages for people are dropped (they join again).
        """
        self._recording = False
        for connection, (name, seed) in sorted(robot_seeds.items()):
            self.add_robot(connection, name, seed)
        for seq, direction, connection, text in moves:
            if seq != self.seq and direction != SENT:
                raise RebuildError(f"move {seq} found where move {self.seq} was expected")
            if direction == SENT:
                continue
            if direction == TIMER:
                self.timeout()
            elif direction == STAND_IN:
                move = P.decode(text or "")
                assert isinstance(move, P.Connect)
                self.stand_in(connection, move.last_id, move.name)
            elif text is None:
                self.close(connection)
            elif connection in self.robots:
                self._replay_robot(connection, text)
            else:
                self.receive_line(connection, text)
        self.outbox.clear()
        self.batch = Batch()
        self._recording = True

    def _replay_robot(self, connection: int, text: str) -> None:
        for index, (who, move) in enumerate(self.queue):
            if who == connection:
                if move.encode() != text:
                    raise RebuildError(f"robot on connection {connection} now plays {move.encode()!r}, not {text!r}")
                del self.queue[index]
                self._robot_move(connection, move)
                return
        raise RebuildError(f"robot on connection {connection} did not play {text!r} again")
