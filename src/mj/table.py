"""One table as the original server runs it, without any I/O.

The table turns lines received on numbered connections into messages to deliver
on numbered connections: joining, ids and names, seating, option lists, error
replies with line numbers, and the game itself (delegated to :class:`Game`).
The asyncio server and ``mj replay`` both drive it, so what the server sends is
exactly what the replay checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mj import tiles
from mj.game.engine import Config, Game, WallSource
from mj.game.sends import IllegalMove, Send
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import PlayerOption, ProtocolError
from mj.protocol.framing import ENCODING, encode_line
from mj.rules.options import GameOptions, OptionEntry
from mj.tiles import GlibcRandom, Tile

PROTOCOL_VERSION = 1110

#: Session requests that need the network server's reconnection, authentication and
#: loading machinery (the mj-server issue); the table answers them with an error for now.
_SERVER_SESSION = (P.RequestReconnect, P.AuthInfo, P.LoadState)


@dataclass(frozen=True, slots=True)
class Delivery:
    """A message for one connection; ``logged`` marks the copies the original logs (§12.1)."""

    connection: int
    message: C.CMsg
    logged: bool


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The command-line settings of ``mj-server`` that shape a table."""

    timeout: int = 15
    seed: int = 1
    wall_file: Sequence[Tile] | None = None
    option_entries: Sequence[OptionEntry] = ()
    random_seats: bool = False
    #: Seats E,S,W,N by player id, overriding the seating rules (for replaying logs).
    fixed_seating: Sequence[int] | None = None
    id_order_seats: bool = False
    no_manager: bool = False
    special_scores: bool = True
    debug: bool = False
    original_quirks: bool = False


class SeededWalls:
    """Walls and dice from the original's random generator, or a fixed wall file (§12.3, §13)."""

    def __init__(self, rng: GlibcRandom, wall_file: Sequence[Tile] | None, blank_first: bool) -> None:
        self.rng = rng
        self.wall_file = wall_file
        self.blank_first = blank_first
        self.previous_size = 0

    def next_hand(self, flowers: bool) -> tuple[list[Tile], int, int]:
        size = tiles.wall_size(flowers)
        if self.wall_file is None:
            wall = tiles.shuffled_wall(self.rng, flowers)
        elif self.blank_first and self.previous_size == 0:
            wall = [tiles.BLANK] * size
        else:
            wall = list(self.wall_file)
        start = tiles.dice(self.rng, self.previous_size)
        self.previous_size = size
        return wall, *start


@dataclass(slots=True)
class PlayerRecord:
    id: int
    name: str
    connection: int | None


@dataclass(slots=True)
class Connection:
    seqno: int = 0
    player: int | None = None
    options: dict[PlayerOption, int] = field(default_factory=dict)


#: Stores a save file: given the requested base name (or "" for a default name) and the
#: file's text, returns the name it was saved under, or None if it could not be saved.
Saver = Callable[[str, str], str | None]


def save_file_name(requested: str) -> str:
    """The file name the original uses for ``SaveState name``: no directories, ``.mjs`` appended (§10.1)."""
    base = requested.replace("\\", "/").rsplit("/", 1)[-1]
    return base if base.endswith(".mjs") else f"{base}.mjs"


class Table:
    """The controller of one table: connections in, deliveries out."""

    def __init__(self, settings: TableSettings, walls: WallSource | None = None, saver: Saver | None = None) -> None:
        self.settings = settings
        self.rng = GlibcRandom(settings.seed)
        self.walls: WallSource = walls or SeededWalls(self.rng, settings.wall_file, settings.original_quirks)
        self.connections: dict[int, Connection] = {}
        self.players: list[PlayerRecord] = []
        self.game: Game | None = None
        self.active = False
        self.protocol = PROTOCOL_VERSION
        self._next_id = 1
        self._first_human = 0
        self._out: list[Delivery] = []
        self.saver = saver
        self.save_name = ""
        #: Connections whose client asked to be disconnected; the transport closes them.
        self.closing: set[int] = set()

    # ------------------------------------------------------------------ events

    def open(self, connection: int) -> None:
        self.connections[connection] = Connection()

    def receive(self, connection: int, line: str) -> list[Delivery]:
        """Handle one logical line received on ``connection``."""
        conn = self.connections.setdefault(connection, Connection())
        conn.seqno += 1
        try:
            message = P.decode(line)
        except ProtocolError:
            self._error(connection, "Protocol error")
            return self._take()
        try:
            self._dispatch(connection, conn, message)
        except IllegalMove as exc:
            self._error(connection, str(exc))
            if exc.then:
                self._route(list(exc.then))
        return self._take()

    def timeout(self) -> list[Delivery]:
        """The claim timer ran out."""
        if self.game is not None and self.active:
            self._route(self.game.close_claim_window())
        return self._take()

    def close(self, connection: int) -> list[Delivery]:
        """The connection ended (end of file or error)."""
        conn = self.connections.pop(connection, None)
        if conn is None or conn.player is None:
            return self._take()
        record = self._record(conn.player)
        assert record is not None
        record.connection = None
        if self.game is None:
            self.players.remove(record)
            for other in self.players:
                self._deliver(other.connection, C.Player(record.id, ""))
        elif not self.game.game_over:
            self.active = False
            self._broadcast(C.StopPlay(f"Lost connection to player {record.id}; game suspended"))
        return self._take()

    def _take(self) -> list[Delivery]:
        out, self._out = self._out, []
        return out

    def _deliver(self, connection: int | None, message: C.CMsg, logged: bool = True) -> None:
        if connection is not None:
            self._out.append(Delivery(connection, message, logged))

    def _error(self, connection: int, text: str) -> None:
        conn = self.connections[connection]
        self._deliver(connection, C.Error(conn.seqno, text))

    def _broadcast(self, message: C.CMsg) -> None:
        """To every seated player; logged once, as East's copy, like the engine's broadcasts."""
        if self.game is not None:
            self._route([Send(None, message, (self.game.east,))])
            return
        for record in self.players:
            self._deliver(record.connection, message)

    def _connection_of(self, player: int) -> int | None:
        record = self._record(player)
        return record.connection if record else None

    def _record(self, player: int) -> PlayerRecord | None:
        return next((r for r in self.players if r.id == player), None)

    def _route(self, sends: list[Send]) -> None:
        """Expand engine sends to connections in seat order, marking the logged copies."""
        game = self.game
        assert game is not None
        for send in sends:
            targets = game.seating if send.to is None else send.to
            for player in targets:
                self._deliver(self._connection_of(player), send.message, player in send.logged_for)

    # ------------------------------------------------------------------ dispatch

    def _dispatch(self, connection: int, conn: Connection, message: P.PMsg) -> None:
        if isinstance(message, P.Connect):
            self._connect(connection, conn, message)
            return
        if conn.player is None:
            raise IllegalMove("You must connect first")
        if isinstance(message, P.ListGameOptions):
            for entry in self._option_entries():
                self._deliver(connection, C.GameOption(0, entry))
            return
        if isinstance(message, P.QueryGameOption):
            found = next((e for e in self._option_entries() if e.name == message.name), None)
            if found is None:
                raise IllegalMove("Option not known")
            self._deliver(connection, C.GameOption(0, found))
            return
        if isinstance(message, P.SetPlayerOption):
            self._set_player_option(connection, conn, message)
            return
        if isinstance(message, P.SendMessage):
            self._send_message(connection, conn.player, message)
            return
        if isinstance(message, P.SaveState):
            self._save_state(conn.player, message.filename)
            return
        if isinstance(message, P.Disconnect):
            self.closing.add(connection)
            return
        if isinstance(message, _SERVER_SESSION):
            raise IllegalMove(f"{message.keyword} is not supported by this server yet")
        if not self.active or self.game is None or self.game.game_over:
            raise IllegalMove("Game not active")
        if isinstance(message, P.NewAuthInfo):
            raise IllegalMove("Password changing not supported")
        self._route(self.game.apply(conn.player, message))

    def _save_state(self, player: int, requested: str) -> None:
        """``SaveState``: the save file is the table's own messages (§10.2), written by the saver."""
        game = self.game
        name = save_file_name(requested) if requested else self.save_name
        saved = self.saver(name, self.save_text()) if self.saver is not None and game is not None else None
        if saved is None:
            raise IllegalMove("Unable to save state")
        self.save_name = saved
        self._broadcast(C.StateSaved(player, saved))

    def save_text(self) -> str:
        """The game as a ``.mjs`` file: players, Game, completed rounds, options, wall and hand history."""
        game = self.game
        assert game is not None
        messages: list[C.CMsg] = [C.Player(p, self._name_of(p)) for p in game.seating]
        messages.append(game.game_message(self.protocol))
        messages.append(C.Comment(f"CompletedRounds {game.completed_rounds:6d}"))
        messages.extend(C.GameOption(0, entry) for entry in game.options.entries())
        if game.hand_in_progress:
            messages.append(C.Wall(tiles.codes(game.hand_wall)))
            messages.extend(game.history)
        return "".join(encode_line(m.encode()).decode(ENCODING) for m in messages)

    def _name_of(self, player: int) -> str:
        record = self._record(player)
        return record.name if record else ""

    def _option_entries(self) -> tuple[OptionEntry, ...]:
        if self.game is not None:
            return self.game.options.entries()
        return GameOptions().entries()

    def _send_message(self, connection: int, sender: int, message: P.SendMessage) -> None:
        text = C.Message(sender, message.addressee, message.text)
        if message.addressee == 0:
            self._broadcast(text)
            return
        target = self._connection_of(message.addressee)
        if target is None:
            raise IllegalMove("Addressee not found in game")
        self._deliver(target, text)

    def _set_player_option(self, connection: int, conn: Connection, message: P.SetPlayerOption) -> None:
        option, value = message.option, message.value
        if option is PlayerOption.UNKNOWN:
            raise IllegalMove("Unknown option")
        if option is PlayerOption.INFO_TILES and value not in (0, 1):
            raise IllegalMove("Bad value for InfoTiles")
        if option is PlayerOption.DELAY_TIME and value < 0:
            raise IllegalMove("Bad value for DelayTime")
        conn.options[option] = value
        player = conn.player
        assert player is not None
        if option is PlayerOption.INFO_TILES and self.game is not None:
            wanted = self.game.info_tiles_wanted
            (wanted.add if value else wanted.discard)(player)
        if message.ack:
            return
        if option is PlayerOption.LOCAL_TIMEOUTS:
            if value:
                seated = [self.connections[r.connection] for r in self.players if r.connection is not None]
                if len(seated) == 4 and all(c.options.get(option) == 1 for c in seated):
                    self._broadcast(C.PlayerOptionSet(option, True, 1, ""))
                return
            for record in self.players:
                if record.id != player:
                    self._deliver(record.connection, C.PlayerOptionSet(option, False, 0, ""))
                    if record.connection is not None:
                        self.connections[record.connection].options[option] = 0
        self._deliver(connection, C.PlayerOptionSet(option, True, value, message.text))

    # ------------------------------------------------------------------ joining

    def _connect(self, connection: int, conn: Connection, message: P.Connect) -> None:
        reason = None
        if message.pvers // 1000 != PROTOCOL_VERSION // 1000:
            reason = "Protocol major version mismatch"
        elif conn.player is None and len(self.players) >= 4 and self.game is None:
            reason = "Already have players"
        elif not message.name:
            reason = "A non-empty name must be given"
        elif conn.player is not None and message.last_id != conn.player:
            reason = "You already have a player ID"
        elif message.last_id and any(r.id == message.last_id and r.connection is not None for r in self.players):
            reason = "Your id is already connected elsewhere"
        if reason is None and self.game is not None:
            reason = "Can't find you in the resumed game"
        if reason is not None:
            self._deliver(connection, C.ConnectReply(PROTOCOL_VERSION, 0, reason))
            return
        player = message.last_id or self._new_id()
        record = PlayerRecord(player, message.name, connection)
        conn.player = player
        if not message.name.startswith("Robot") and self._first_human == 0:
            self._first_human = len(self.players) + 1
        self._deliver(connection, C.ConnectReply(PROTOCOL_VERSION, player, ""))
        for other in self.players:
            self._deliver(connection, C.Player(other.id, other.name))
            self._deliver(other.connection, C.Player(player, message.name))
        self.players.append(record)
        self.protocol = min(self.protocol, message.pvers)
        if len(self.players) == 4:
            self._create_game()

    def _new_id(self) -> int:
        taken = {r.id for r in self.players}
        while self._next_id in taken:
            self._next_id += 1
        player = self._next_id
        self._next_id += 1
        return player

    def _create_game(self) -> None:
        settings = self.settings
        ids = [r.id for r in self.players]
        if settings.fixed_seating is not None:
            seating = list(settings.fixed_seating)
        elif settings.random_seats:
            seating = tiles.random_seating(self.rng, ids)
        elif settings.id_order_seats:
            seating = sorted(ids)
        else:
            seating = ids
        options = GameOptions()
        options.set_value("Timeout", settings.timeout)
        options.set_value("DeadWall16", 0)
        for entry in settings.option_entries:
            options.apply_entry(entry)
        manager = -1 if settings.no_manager else self._first_human
        config = Config(
            special_scores=settings.special_scores,
            debug=settings.debug,
            original_quirks=settings.original_quirks,
            protocol=self.protocol,
        )
        self.game = Game(seating, options, self.walls, config=config, manager=manager)
        for player in seating:
            connection = self._connection_of(player)
            self._deliver(connection, self.game.game_message(self.protocol))
            for entry in options.entries():
                self._deliver(connection, C.GameOption(0, entry))
        self.active = True
        self._route(self.game.start_announcement(self.protocol))
