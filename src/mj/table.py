"""One table as the original server runs it, without any I/O.

The table turns lines received on numbered connections into messages to deliver
on numbered connections: joining, ids and names, seating, option lists, error
replies with line numbers, and the game itself (delegated to :class:`Game`).
The asyncio server and ``mj replay`` both drive it, so what the server sends is
exactly what the replay checks.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from mj import tiles
from mj.game.engine import Config, Game, WallSource
from mj.game.restore import restore_game
from mj.game.sends import IllegalMove, Send
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION, PROTOCOL_VERSION
from mj.protocol.fields import ChowPosition, PlayerOption, ProtocolError
from mj.rules.classical.rules import CLASSICAL, needs_extension
from mj.rules.options import OptionEntry
from mj.rules.ruleset import Ruleset
from mj.savefile import (
    MAX_PLAYER_ID,
    SaveFileError,
    completed_rounds_comment,
    format_save,
    hand_start_comment,
    parse_save,
)
from mj.tiles import GlibcRandom, Tile

#: Refused ids: negative ones collide with the server's own values (-1 is "no manager").
BAD_PLAYER_ID: Final = f"Player id must be from 1 to {MAX_PLAYER_ID}, or 0 for a new id"
#: The one answer to a refused password or id, so that the answer does not tell which ids exist.
AUTH_FAILURE: Final = "Authentication failure"
#: The longest chat line (``SendMessage``) passed on; the original's clients show a line or two.
MAX_CHAT: Final = 1024
#: Save file names a game may use (``SaveState NAME``); saving again under one of them replaces it.
MAX_SAVE_NAMES: Final = 8
#: The longest save file name, ``.mjs`` included.
MAX_SAVE_NAME: Final = 64
#: The characters of a save file name.
_SAVE_NAME_CHARACTERS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-+")
#: The answer to a save file name beyond those limits.
BAD_SAVE_NAME: Final = f"Bad save file name: at most {MAX_SAVE_NAME} letters, digits or . - _ + (no dot first)"
#: The answer to a chat line or a save beyond the rate the server allows a client (:meth:`Table.refuse`).
TOO_FAST: Final = "Too many messages or saves too fast; wait a moment"

#: What a player may send while the game is not active (§1.5); anything else gets "Game not active".
_ALWAYS = (
    P.SaveState, P.LoadState, P.Connect, P.Disconnect, P.AuthInfo, P.RequestReconnect,
    P.SetPlayerOption, P.SendMessage, P.QueryGameOption, P.ListGameOptions,
)  # fmt: skip


class LoadError(ValueError):
    """A save file that cannot be loaded (``--load-game``); the message says why."""


@dataclass(slots=True, init=False)
class Delivery:
    """A message for one connection; ``logged`` marks the copies the original logs (§12.1).

    A table makes one per message and connection, a few hundred per hand.
    """

    connection: int
    message: C.CMsg
    logged: bool

    # Written out, not generated: see mj.compiled on value classes built per message.
    def __init__(self, connection: int, message: C.CMsg, logged: bool) -> None:
        self.connection = connection
        self.message = message
        self.logged = logged


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
    #: Minimum delay between tile movements, in deciseconds (``--pause``).
    pause: int = 0
    end_on_disconnect: bool = False
    exit_on_disconnect: bool = False
    save_on_exit: bool = False
    #: Score deducted from a player who leaves: during a hand, after a hand, after a round.
    disconnect_penalties: tuple[int, int, int] = (0, 0, 0)
    no_id_required: bool = False
    #: ``--auth-basic``: the only ids allowed in, with their passwords ("" = none needed).
    auth_basic: Mapping[int, str] = field(default_factory=dict)
    nohist: bool = False
    hand_history: bool = False
    rules: Ruleset = CLASSICAL


class SeededWalls:
    """Walls and dice from the original's random generator (§13), or a secret key's (the lobby's), or a fixed
    wall file (§12.3)."""

    def __init__(self, rng: tiles.WallRandom, wall_file: Sequence[Tile] | None, blank_first: bool) -> None:
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


#: The messages a connected player sends the table itself (:meth:`Table._dispatch`); every other one is for the game.
_TABLE_MESSAGES: Final = frozenset(
    {
        P.ListGameOptions,
        P.QueryGameOption,
        P.SetPlayerOption,
        P.SendMessage,
        P.SaveState,
        P.LoadState,
        P.Disconnect,
        P.RequestReconnect,
    }
)
#: The moves a connected player makes in the game (the table passes them on): every other message.
_GAME_MOVES: Final = frozenset(P.MESSAGES) - _TABLE_MESSAGES - {P.Connect, P.AuthInfo, P.NewAuthInfo}


@dataclass(slots=True)
class Connection:
    seqno: int = 0
    player: int | None = None
    options: dict[PlayerOption, int] = field(default_factory=dict)
    #: A Connect waiting for the password (``AuthReqd`` sent).
    awaiting_auth: P.Connect | None = None
    #: The Connect that let this connection in, processed again after a ``LoadState``.
    connect: P.Connect | None = None


#: Stores a save file: given the requested base name (or "" for a default name) and the
#: file's text, returns the name it was saved under, or None if it could not be saved.
Saver = Callable[[str, str], str | None]

#: Reads the save file a client names in ``LoadState``; raises OSError if it cannot.
Loader = Callable[[str], str]


def save_file_name(requested: str) -> str:
    """The file name the original uses for ``SaveState name``: no directories, ``.mjs`` appended (§10.1)."""
    base = requested.replace("\\", "/").rsplit("/", 1)[-1]
    return base if base.endswith(".mjs") else f"{base}.mjs"


class Table:
    """The controller of one table: connections in, deliveries out."""

    def __init__(
        self,
        settings: TableSettings,
        walls: WallSource | None = None,
        saver: Saver | None = None,
        loader: Loader | None = None,
    ) -> None:
        self.settings = settings
        self.loader = loader
        self.rng = GlibcRandom(settings.seed)
        self.walls: WallSource = walls or SeededWalls(self.rng, settings.wall_file, settings.original_quirks)
        self.connections: dict[int, Connection] = {}
        #: The DelayTime each connection asked for (§7.13), read by :meth:`pacing` after every event.
        self._delay_times: dict[int, int] = {}
        self.players: list[PlayerRecord] = []
        self.game: Game | None = None
        self.active = False
        self.protocol = PROTOCOL_VERSION
        self._next_id = 1
        self._first_human = 0
        self._out: list[Delivery] = []
        self.saver = saver
        self.save_name = ""
        #: ``--journal``: called after every event, before what it sends goes out (mj.server.journal).
        self.journal: Callable[[Table], None] | None = None
        #: Connections whose client asked to be disconnected; the transport closes them.
        self.closing: set[int] = set()
        #: Set when the server should stop, with its exit status.
        self.exit_status: int | None = None
        #: Players who joined (again) since play last stopped: they are sent the game so far.
        self._rejoined: set[int] = set()
        self._local_timeouts = False
        self._end_after_hand = False
        self._shutting_down = False
        self._penalties: dict[int, int] = {}
        self._hand_files = 0
        #: ``--auth-basic`` failures not yet taken by the server: (connection, player id tried).
        self.auth_failures: list[tuple[int, int]] = []
        #: The names the game has been saved under by ``SaveState`` (at most :data:`MAX_SAVE_NAMES`).
        self._save_names: set[str] = set()

    # ------------------------------------------------------------------ loading

    def load(self, text: str) -> None:
        """Resume the game of a save file (``--load-game``): its players must then join again."""
        try:
            saved = parse_save(text, self.settings.rules)
            game = restore_game(saved, self.walls, self._config(), keep_rounds=not self.settings.original_quirks)
        except SaveFileError as exc:
            raise LoadError(str(exc)) from None
        if game.game_over:  # its players would join, send Ready and wait for ever
            raise LoadError("the game is over: its last hand is settled, there is nothing to resume")
        self.game = game
        self.active = False
        self.players = [PlayerRecord(p.id, p.name, None) for p in saved.players]

    def _load_state(self, message: P.LoadState) -> None:
        """``LoadState``: swap the table's game for a saved one before play starts; everyone joins again (§10.3)."""
        if not message.filename:
            raise IllegalMove("No game file specified in LoadState")
        if self.game is not None and self.game.hands_started:
            raise IllegalMove("Can't load game state when already playing")
        previous = (self.game, self.players, self.active)
        try:
            if self.loader is None:
                raise LoadError("this server loads no files")
            self.load(self.loader(message.filename))
        except (OSError, LoadError):
            self.game, self.players, self.active = previous
            raise IllegalMove("Loading game state failed") from None
        joined = [r for r in previous[1] if r.connection is not None]
        for gone in joined:
            for record in joined:
                self._deliver(record.connection, C.Player(gone.id, ""))
        for record in joined:
            assert record.connection is not None
            conn = self.connections[record.connection]
            conn.player = None
            if conn.connect is not None:
                self._connect(record.connection, conn, conn.connect)

    # ------------------------------------------------------------------ events

    def open(self, connection: int) -> list[Delivery]:
        """A new connection; refused while the table shuts down after a lost player."""
        self.connections[connection] = Connection()
        if self._shutting_down:
            self._deliver(connection, C.Error(0, "Game shutting down; no reconnect allowed"))
            self.closing.add(connection)
        return self._take()

    def receive(self, connection: int, line: str) -> list[Delivery]:
        """Handle one logical line received on ``connection``."""
        try:
            message = P.decode(line)
        except ProtocolError:
            self._connection(connection).seqno += 1
            self._error(connection, "Protocol error")
            return self._take()
        return self.receive_message(connection, message)

    def receive_message(self, connection: int, message: P.PMsg) -> list[Delivery]:
        """Handle a line received on ``connection`` and read as ``message``.

        In-process players (the arena's robots) hand their moves over as messages:
        a message reads back from its line unchanged, so only the wire is skipped.
        """
        conn = self._connection(connection)
        conn.seqno += 1
        try:
            self._dispatch(connection, conn, message)
        except IllegalMove as exc:
            self._error(connection, str(exc), exc.logged)
            if exc.then:
                self._route(list(exc.then))
        return self._take()

    def refuse(self, connection: int, reason: str = TOO_FAST) -> list[Delivery]:
        """A line the server refused before reading it (a rate limit): counted, and answered with ``reason``."""
        self._connection(connection).seqno += 1
        self._error(connection, reason)
        return self._take()

    def _connection(self, connection: int) -> Connection:
        """The state of ``connection``, new if it has sent nothing before (made only then: one per line otherwise)."""
        conn = self.connections.get(connection)
        if conn is None:
            conn = self.connections[connection] = Connection()
        return conn

    def timeout(self) -> list[Delivery]:
        """The claim timer ran out."""
        if self.game is not None and self.active:
            self._play(self.game.close_claim_window())
        return self._take()

    def close(self, connection: int) -> list[Delivery]:
        """The connection ended (end of file or error): what happens depends on the server's settings (§10.5)."""
        conn = self.connections.pop(connection, None)
        self.closing.discard(connection)
        self._delay_times.pop(connection, None)
        if conn is None or conn.player is None:
            return self._take()
        record = self._record(conn.player)
        assert record is not None
        # Until the news of its loss is out, the lost player keeps its connection: the original
        # logs a broadcast as East's copy, under East's connection even when East is the one lost
        # (that copy is logged, and sent nowhere; nothing else goes to the lost connection).
        game = self.game
        if game is not None and game.game_over:
            self.exit_status = 0
        elif self.settings.exit_on_disconnect:
            self._broadcast(C.StopPlay(f"Lost connection to player {record.id}quitting"))
            self.save_on_exit()
            self.exit_status = 0
        elif game is None:
            self.players.remove(record)
            self._rejoined.discard(record.id)
            for other in self.players:
                self._deliver(other.connection, C.Player(record.id, ""))
        elif self.settings.end_on_disconnect:
            self._end_on_disconnect(game, record)
        else:
            self.active = False
            self._broadcast(C.StopPlay(f"Lost connection to player {record.id}; game suspended"))
        record.connection = None
        return [d for d in self._take() if d.connection != connection or d.logged]

    # ------------------------------------------------------------------ what the transport asks

    def auth_player(self, connection: int) -> int | None:
        """The id whose password ``connection`` is asked for, if it is asked for one (the server delays guessers)."""
        conn = self.connections.get(connection)
        pending = conn.awaiting_auth if conn is not None else None
        return self._auth_target(pending) if pending is not None else None

    def joined(self, connection: int) -> bool:
        """Whether ``connection`` is a player's: the server's limits on waiting connections spare it."""
        conn = self.connections.get(connection)
        return conn is not None and conn.player is not None

    def claim_timer(self) -> tuple[Hashable, float] | None:
        """The claim timer that should be running now (§7.5): a key naming its window, and its length."""
        game = self.game
        if game is None or not self.active or game.game_over or game.claim_window is None:
            return None
        seconds = game.options["Timeout"]
        if seconds <= 0:
            return None
        if self._local_timeouts:
            seconds += game.options["TimeoutGrace"]
        return (game.hands_started, game.claim_window), float(seconds)

    def pacing(self) -> float:
        """Seconds between tile movements: the larger of ``--pause`` and the players' DelayTime, at most 5 s."""
        slowest = self.settings.pause
        for delay in self._delay_times.values():  # asked after every event: no list built
            slowest = max(slowest, delay)
        return min(50, slowest) / 10

    def final_scores(self) -> str | None:
        """The server's closing score list (§7.15), from South round to East, less any penalties."""
        game = self.game
        if game is None or not game.game_over:
            return None
        order = game.seating[1:] + game.seating[:1]
        lines = [f"{p:5d} ({self._name_of(p):<20s})  {game.scores[p] - self._penalties.get(p, 0):5d}\n" for p in order]
        return "Game over. Final scores:\n" + "".join(lines)

    # ------------------------------------------------------------------ output

    def _take(self) -> list[Delivery]:
        """What the event just handled sends; the journal, if any, is told first (the game has changed)."""
        if self.journal is not None:
            self.journal(self)
        out, self._out = self._out, []
        return out

    def _deliver(self, connection: int | None, message: C.CMsg, logged: bool = True) -> None:
        if connection is not None:
            self._out.append(Delivery(connection, message, logged))

    def _error(self, connection: int, text: str, logged: bool = True) -> None:
        conn = self.connections[connection]
        self._deliver(connection, C.Error(conn.seqno, text), logged)

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
        where = {r.id: r.connection for r in self.players}
        out = self._out
        for send in sends:
            for player in game.seating if send.to is None else send.to:
                connection = where.get(player)
                if connection is not None:
                    out.append(Delivery(connection, send.message, player in send.logged_for))

    def _play(self, sends: list[Send]) -> None:
        """Route what the game did, then what the table does at the end of a hand."""
        self._route(sends)
        game = self.game
        assert game is not None
        if self.settings.hand_history and any(isinstance(send.message, C.Settlement) for send in sends):
            self._write_hand_history()
        if self._end_after_hand and not game.hand_in_progress:
            self._route(game.end_game())

    # ------------------------------------------------------------------ dispatch

    def _dispatch(self, connection: int, conn: Connection, message: P.PMsg) -> None:
        game = self.game
        player = conn.player
        playing = self.active and game is not None and not game.game_over
        if playing and player is not None and type(message) in _GAME_MOVES:
            assert game is not None
            self._play(game.apply(player, message))  # most lines: one look-up, then the game
            return
        if isinstance(message, P.Connect):
            self._connect(connection, conn, message)
            return
        if isinstance(message, P.AuthInfo):
            self._auth_info(connection, conn, message)
            return
        if player is None:
            raise IllegalMove("You must connect first")
        if type(message) not in _TABLE_MESSAGES:  # a move while no game goes on, or NewAuthInfo
            if not playing:
                raise IllegalMove("Game not active", logged=False)
            raise IllegalMove("Password changing not supported")
        if isinstance(message, P.ListGameOptions):
            self._list_options(connection, self._option_entries(), message.include_disabled)
        elif isinstance(message, P.QueryGameOption):
            found = next((e for e in self._option_entries() if e.name == message.name), None)
            if found is None:
                raise IllegalMove("Option not known")
            self._deliver(connection, C.GameOption(0, found))
        elif isinstance(message, P.SetPlayerOption):
            self._set_player_option(connection, conn, message)
        elif isinstance(message, P.SendMessage):
            self._send_message(connection, player, message)
        elif isinstance(message, P.SaveState):
            self._save_state(player, message.filename)
        elif isinstance(message, P.LoadState):
            self._load_state(message)
        elif isinstance(message, P.Disconnect):
            self.closing.add(connection)
        elif isinstance(message, P.RequestReconnect):
            self._request_reconnect(connection, conn)

    def _save_state(self, player: int, requested: str) -> None:
        """``SaveState``: the save file is the table's own messages (§10.2), written by the saver.

        Without a name the game's last save is replaced. A name is a plain file name
        (the original drops directories; so do we), of safe characters and bounded
        length, and a game may use only :data:`MAX_SAVE_NAMES` of them: saves cannot
        fill the disk or write names that other programs would trip on.
        """
        game = self.game
        name = save_file_name(requested) if requested else self.save_name
        if requested:
            _check_save_name(name)
            if name not in self._save_names and len(self._save_names) >= MAX_SAVE_NAMES:
                raise IllegalMove(f"A game is saved under at most {MAX_SAVE_NAMES} names; reuse one")
        saved = self.saver(name, self.save_text()) if self.saver is not None and game is not None else None
        if saved is None:
            raise IllegalMove("Unable to save state")
        self.save_name = saved
        self._save_names.add(saved)
        self._broadcast(C.StateSaved(player, saved))

    def save_text(self) -> str:
        """The game as a ``.mjs`` file (§10.2): players, Game, completed rounds, options, then the hand.

        Once a hand has been dealt, the file holds that hand from its start (its Game line,
        wall and whole history), even between hands, as the original's later saves and
        hand-history files do: loading then replays its result, so the next deal rotates
        correctly, which a bare Game line between hands cannot tell.
        """
        head, history = self.save_parts()
        return format_save([*head, *history])

    def save_parts(self) -> tuple[list[C.CMsg], list[C.CMsg]]:
        """The messages of :meth:`save_text`: what comes before the hand's history, and that history.

        A journal appends the history as it grows and rewrites the file when the head changes.
        """
        game = self.game
        assert game is not None
        messages: list[C.CMsg] = [C.Player(p, self._name_of(p)) for p in game.seating]
        messages.append(game.hand_start if game.hands_started else game.game_message(self.protocol))
        messages.append(completed_rounds_comment(game.completed_rounds))
        messages.extend(self._hand_start_comment(game))
        messages.extend(C.GameOption(0, entry) for entry in game.options.entries())
        if not game.hands_started:
            return messages, []
        messages.append(C.Wall(tiles.codes(game.hand_wall)))
        return messages, game.history

    def save_on_exit(self) -> str | None:
        """``--save-on-exit``: the game as it stands, under a default name, when the server quits unfinished."""
        game = self.game
        if not self.settings.save_on_exit or game is None or game.game_over or self.saver is None:
            return None
        return self.saver("", self.save_text())

    def _write_hand_history(self) -> None:
        """``--hand-history``: each settled hand as a save file of that hand from its start (§12.2)."""
        game = self.game
        if self.saver is None or game is None:
            return
        self._hand_files += 1
        messages: list[C.CMsg] = [C.Player(p, self._name_of(p)) for p in game.seating]
        messages.append(game.hand_start)
        messages.extend(self._hand_start_comment(game))
        messages.extend(C.GameOption(0, entry) for entry in game.options.entries())
        messages.append(C.Wall(tiles.codes(game.hand_wall)))
        settled = max(i for i, m in enumerate(game.history) if isinstance(m, C.Settlement))
        messages.extend(game.history[: settled + 1])
        saved = self.saver(f"hand-{self._hand_files:02d}.mjs", format_save(messages))
        if saved is not None:
            self.save_name = saved

    def _hand_start_comment(self, game: Game) -> list[C.CMsg]:
        """What the saved hand began after, for a rule system the original cannot play (classical saves
        stay the original's; :func:`mj.savefile.hand_start_comment`)."""
        if not game.hands_started or not needs_extension(self.settings.rules):
            return []
        return [hand_start_comment(game.after_draw, game.banker_hands)]

    def _name_of(self, player: int) -> str:
        record = self._record(player)
        return record.name if record else ""

    def _list_options(self, connection: int | None, entries: tuple[OptionEntry, ...], include_disabled: bool) -> None:
        """``ListGameOptions``' answer: every option, those an option or save file disabled only when asked for."""
        for entry in entries:
            if entry.enabled or include_disabled:
                self._deliver(connection, C.GameOption(0, entry))

    def _option_entries(self) -> tuple[OptionEntry, ...]:
        if self.game is not None:
            return self.game.options.entries()
        return self.settings.rules.new_options().entries()

    def _send_message(self, connection: int, sender: int, message: P.SendMessage) -> None:
        if len(message.text) > MAX_CHAT:
            raise IllegalMove(f"Message too long (at most {MAX_CHAT} characters)")
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
        if option is PlayerOption.DELAY_TIME:
            self._delay_times[connection] = value
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
                    self._local_timeouts = True
                    self._broadcast(C.PlayerOptionSet(option, True, 1, ""))
                return
            self._local_timeouts = False
            for record in self.players:
                if record.id != player:
                    self._deliver(record.connection, C.PlayerOptionSet(option, False, 0, ""))
                    if record.connection is not None:
                        self.connections[record.connection].options[option] = 0
        self._deliver(connection, C.PlayerOptionSet(option, True, value, message.text))

    # ------------------------------------------------------------------ leaving

    def _request_reconnect(self, connection: int, conn: Connection) -> None:
        """``RequestReconnect``: play stops and the client joins again on the same connection (§4)."""
        player = conn.player
        assert player is not None
        record = self._record(player)
        assert record is not None
        if self.game is not None:
            self.active = False
            self._broadcast(C.StopPlay(f"Player {record.name} requested reconnect - please wait..."))
        else:
            self.players.remove(record)
            self._rejoined.discard(record.id)
        self._deliver(connection, C.Reconnect())
        record.connection = None
        conn.player = None

    def _end_on_disconnect(self, game: Game, record: PlayerRecord) -> None:
        """``--end-on-disconnect``: finish gracefully, penalising the player who left (§10.5)."""
        player = record.id
        lost = f"Lost connection to player {player}"
        during, after_hand, after_round = self.settings.disconnect_penalties
        if game.mahjong_declared and not (game.winner == player and not game.has_declared(player)):
            self._penalties[player] = during
            if not game.has_declared(player):
                self._play(game.apply(player, P.ShowTiles()))
            self._broadcast(C.Message(0, 0, f"{lost} - game will end after scoring this hand"))
            self._end_after_hand = True
            if not game.hand_in_progress:
                self._route(game.end_game())
        elif game.hand_in_progress:
            self._penalties[player] = during
            reason = "Lost the winner" if game.mahjong_declared else "Lost a player"
            self._route(game.abandon_hand(reason))
            self._broadcast(C.Message(0, 0, f"{lost} - ending game"))
            self._route(game.end_game())
        else:
            if game.hands_started:
                self._penalties[player] = after_round if game.round_ends_next else after_hand
            self._broadcast(C.Message(0, 0, f"{lost} - game will end now"))
            self._route(game.end_game())
        self._shutting_down = True

    # ------------------------------------------------------------------ joining

    def _connect(self, connection: int, conn: Connection, message: P.Connect, authenticated: bool = False) -> None:
        reason = None
        if message.pvers // 1000 != PROTOCOL_VERSION // 1000:
            reason = "Protocol major version mismatch"
        elif needs_extension(self.settings.rules) and message.pvers < EXTENDED_PROTOCOL_VERSION:
            reason = (
                f"This table plays the {self.settings.rules.name} rules, which this client cannot play:"
                " join it with mj's own client (xmj or mj-player from mj)"
            )
        elif not 0 <= message.last_id <= MAX_PLAYER_ID:
            reason = BAD_PLAYER_ID
        elif conn.player is None and len(self.players) >= 4 and self.game is None:
            reason = "Already have players"
        elif not message.name:
            reason = "A non-empty name must be given"
        elif conn.player is not None and message.last_id != conn.player:
            reason = "You already have a player ID"
        elif message.last_id and any(r.id == message.last_id and r.connection is not None for r in self.players):
            reason = "Your id is already connected elsewhere"
        record = None
        if reason is None and self.game is not None:
            record = self._seat_for(message)
            if record is None:
                reason = "Can't find you in the resumed game"
            elif record.connection is not None:
                reason = "Your id is already connected elsewhere"
        if reason is None:
            player = record.id if record is not None else message.last_id or self._peek_id()
            reason = None if authenticated else self._authorize(connection, conn, message, player)
            if conn.awaiting_auth is not None:
                return
        if reason is not None:
            self._deliver(connection, C.ConnectReply(PROTOCOL_VERSION, 0, reason))
            self.closing.add(connection)  # a refused client is disconnected (§6.1)
            return
        if record is None:
            record = PlayerRecord(message.last_id or self._new_id(), message.name, connection)
            if not message.name.startswith("Robot") and self._first_human == 0:
                self._first_human = len(self.players) + 1
        else:
            record.connection = connection
            record.name = message.name
        conn.player = record.id
        conn.connect = message
        self._deliver(connection, C.ConnectReply(PROTOCOL_VERSION, record.id, ""))
        if needs_extension(self.settings.rules):
            self._deliver(connection, C.Rules(self.settings.rules.name))
        for other in self.players:
            if other is not record:
                self._deliver(connection, C.Player(other.id, other.name))
                self._deliver(other.connection, C.Player(record.id, message.name))
        if record not in self.players:
            self.players.append(record)
        self.protocol = min(self.protocol, message.pvers)
        self._rejoined.add(record.id)
        if len(self.players) == 4 and all(r.connection is not None for r in self.players):
            if self.game is None:
                self._create_game()
            self._resume()

    def _seat_for(self, message: P.Connect) -> PlayerRecord | None:
        """The seated player a Connect to an existing game stands for (§10.4)."""
        if message.last_id:
            return self._record(message.last_id)
        found = next((r for r in self.players if r.name == message.name), None)
        if found is None and self.settings.no_id_required:
            found = next((r for r in self.players if r.connection is None), None)
        return found

    def _authorize(self, connection: int, conn: Connection, message: P.Connect, player: int) -> str | None:
        """``--auth-basic`` (§6.5): None to let ``player`` in, else the refusal; may ask for a password first.

        An id not listed is asked for a password too, and refused with the same answer
        as a wrong password, so that nobody can tell which ids exist.
        """
        passwords = self.settings.auth_basic
        if not passwords:
            return None
        if (player not in passwords or passwords[player]) and conn.awaiting_auth is None:
            conn.awaiting_auth = message
            self._deliver(connection, C.AuthReqd("basic", ""), logged=False)
        return None

    def _auth_info(self, connection: int, conn: Connection, message: P.AuthInfo) -> None:
        pending = conn.awaiting_auth
        if pending is None:
            raise IllegalMove("Not expecting authentication")
        conn.awaiting_auth = None
        player = self._auth_target(pending)
        expected = self.settings.auth_basic.get(player)
        # compared in constant time, and compared even for an unknown id, so that timing tells nothing
        given = message.authdata.encode("utf-8", "surrogateescape")
        matches = hmac.compare_digest(given, (expected or "\0unknown").encode("utf-8", "surrogateescape"))
        if message.authtype != "basic" or expected is None or not matches:
            self.auth_failures.append((connection, player))
            self._deliver(connection, C.ConnectReply(PROTOCOL_VERSION, 0, AUTH_FAILURE))
            self.closing.add(connection)
            return
        self._connect(connection, conn, pending, authenticated=True)

    def _auth_target(self, pending: P.Connect) -> int:
        """The player id whose password a pending ``Connect`` must give."""
        seated = self._seat_for(pending) if self.game is not None else None
        return seated.id if seated is not None else pending.last_id or self._peek_id()

    def _peek_id(self) -> int:
        taken = {r.id for r in self.players}
        candidate = self._next_id
        while candidate in taken:
            candidate += 1
        return candidate

    def _new_id(self) -> int:
        player = self._peek_id()
        self._next_id = player + 1
        return player

    def _config(self) -> Config:
        settings = self.settings
        return Config(
            special_scores=settings.special_scores,
            debug=settings.debug,
            original_quirks=settings.original_quirks,
            protocol=self.protocol,
            rules=settings.rules,
        )

    def _create_game(self) -> None:
        settings = self.settings
        ids = [r.id for r in self.players]
        drawn = settings.rules.draw_seats(self.rng, ids) if settings.fixed_seating is None else None
        if settings.fixed_seating is not None:
            seating = list(settings.fixed_seating)
        elif drawn is not None:
            seating = drawn
        elif settings.random_seats:
            seating = tiles.random_seating(self.rng, ids)
        elif settings.id_order_seats:
            seating = sorted(ids)
        else:
            seating = ids
        options = settings.rules.new_options()
        options.set_value("Timeout", settings.timeout)
        if "DeadWall16" in options:  # the original's server creates its games so (§6.2)
            options.set_value("DeadWall16", 0)
        for entry in settings.option_entries:
            options.apply_entry(entry)
        manager = -1 if settings.no_manager else self._first_human
        self.game = Game(seating, options, self.walls, config=self._config(), manager=manager)

    def _resume(self) -> None:
        """Everyone is seated: newcomers get the game and the hand so far, then play (re)starts (§6.3, §10.4)."""
        game = self.game
        assert game is not None
        newcomers = [p for p in game.seating if p in self._rejoined]
        self._rejoined.clear()
        for player in newcomers:
            connection = self._connection_of(player)
            self._deliver(connection, game.game_message(self.protocol))
            # As the original, a ListGameOptions 0 on the player's behalf.
            self._list_options(connection, game.options.entries(), include_disabled=False)
        if game.hand_in_progress and newcomers:
            if self.settings.nohist:
                for record in self.players:
                    self._deliver(record.connection, C.Error(0, "No history kept: resumption not supported"))
                self.exit_status = 1
                return
            hidden_kongs = game.course.hides_concealed_kongs
            for item in game.history:
                for player in newcomers:
                    seen = _as_seen_by(item, player, hidden_kongs)
                    if seen is not None:
                        self._deliver(self._connection_of(player), seen)
        self._wanted_info_tiles(game)
        self.active = True
        self._route(game.start_announcement(self.protocol))

    def _wanted_info_tiles(self, game: Game) -> None:
        """``SetPlayerOption InfoTiles 1`` sent before the game existed is honoured now, as by the original."""
        for record in self.players:
            conn = self.connections.get(record.connection) if record.connection is not None else None
            if conn is not None and conn.options.get(PlayerOption.INFO_TILES) == 1:
                game.info_tiles_wanted.add(record.id)


def _check_save_name(name: str) -> None:
    """Refuse a save file name of other characters than :data:`_SAVE_NAME_CHARACTERS`, too long, or hidden."""
    if len(name) > MAX_SAVE_NAME or name.startswith(".") or not _SAVE_NAME_CHARACTERS.issuperset(name):
        raise IllegalMove(BAD_SAVE_NAME)


def _as_seen_by(item: C.CMsg, player: int, hidden_kongs: bool = False) -> C.CMsg | None:
    """A history item as ``player`` may see it: others' draws (and hidden concealed kongs) blank,
    others' private answers left out."""
    if isinstance(item, C.PlayerDraws | C.PlayerDrawsLoose) and item.id != player:
        return type(item)(item.id, tiles.BLANK)
    if hidden_kongs and isinstance(item, C.PlayerDeclaresClosedKong) and item.id != player:
        return C.PlayerDeclaresClosedKong(item.id, tiles.BLANK, item.discard)
    if isinstance(item, C.PlayerDoesntClaim | C.SwapTile) and item.id != player:
        return None
    if isinstance(item, C.PlayerChows) and item.cpos is ChowPosition.ANYPOS and item.id != player:
        return None  # "say which chow": the claimer's alone
    return item
