"""``mj replay``: run an original server log through our table and compare every message.

The log gives the options, the seating and, hand by hand, the tiles dealt and
drawn; from those we rebuild each wall, feed every line a player sent to the
table as that player's intent, and check that the table sends exactly what the
original sent. Within one reaction only the order of messages that timing may
reorder may differ (who of the losers was answered first); the synchronising ones
(draws, discards, claims denied, settlements ...) must come in the original's order.
"""

from __future__ import annotations

import dataclasses
import gzip
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mj import tiles
from mj.logfile import LogEntry, format_entry, parse_log
from mj.narrate import Narrator
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.framing import ENCODING
from mj.rules import registry
from mj.rules.classical.rules import needs_extension
from mj.rules.options import END, OptionEntry
from mj.rules.ruleset import Ruleset
from mj.savefile import completed_rounds_comment, format_save, hand_start_comment
from mj.server.logcompare import SYNCHRONISING
from mj.table import TOO_FAST, Delivery, LoadError, Saver, Table, TableSettings
from mj.tiles import BLANK, Tile


class ReplayError(Exception):
    """A log that cannot be replayed at all (not a difference in behaviour)."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    hand: int
    line: int
    expected: list[str]
    actual: list[str]

    def __str__(self) -> str:
        def show(items: list[str]) -> str:
            return "\n".join(f"    {item!r}" for item in items) or "    (nothing)"

        return (
            f"difference in hand {self.hand} at log line {self.line}:\n"
            f"  expected:\n{show(self.expected)}\n  actual:\n{show(self.actual)}"
        )


@dataclass(frozen=True, slots=True)
class ReplayResult:
    hands: int
    messages: int
    mismatch: Mismatch | None


class LoggedWalls:
    """Walls rebuilt from the tiles a log shows being drawn, hand by hand, with the logged dice."""

    def __init__(self, hands: list[tuple[list[Tile], list[Tile], int, int]]) -> None:
        self._hands = iter(hands)

    def next_hand(self, flowers: bool) -> tuple[list[Tile], int, int]:
        try:
            live, loose, start_wall, start_stack = next(self._hands)
        except StopIteration:
            raise ReplayError("the table started more hands than the log holds") from None
        size = tiles.wall_size(flowers)
        wall: list[Tile | None] = [None] * size
        wall[: len(live)] = live
        for i, tile in enumerate(loose):
            wall[size - 1 - i] = tile
        if BLANK in live:
            rest: list[Tile] = [BLANK] * size
        else:
            left = Counter(tiles.full_set(flowers))
            left.subtract(t for t in wall if t is not None)
            rest = sorted(left.elements())
        filler = iter(rest)
        return [t if t is not None else next(filler) for t in wall], start_wall, start_stack


def read_entries(path: Path) -> list[LogEntry]:
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    return parse_log(raw.decode(ENCODING))


Hand = tuple[list[Tile], list[Tile], int, int]


def _resent(entries: Sequence[LogEntry]) -> set[int]:
    """Indices of the game so far as sent to joining players: from a ``Game`` to the next ``StartPlay``."""
    inside = False
    found: set[int] = set()
    for index, entry in enumerate(entries):
        if entry.direction != ">" or entry.text is None:
            continue
        if entry.text.startswith("Game "):
            inside = True
        if inside:
            found.add(index)
        if entry.text.startswith("StartPlay "):
            inside = False
    return found


#: The only sent messages that tell what a wall held (decoding just these keeps reading a log cheap).
_WALL_MESSAGES = ("NewHand ", "PlayerDraws ", "PlayerDrawsLoose ", "WildIndicator ")


def _hands_of(entries: Sequence[LogEntry], history: Sequence[C.CMsg] = ()) -> list[Hand]:
    """Each hand's live and loose draws and dice: those of a resumed hand's history, then the log's."""
    hands: list[Hand] = []
    live: list[Tile] = []
    loose: list[Tile] = []
    skip = _resent(entries)
    played = (
        C.decode(e.text)
        for i, e in enumerate(entries)
        if e.direction == ">" and e.text and e.text.startswith(_WALL_MESSAGES) and i not in skip
    )
    for msg in (*history, *played):
        if isinstance(msg, C.NewHand):
            live, loose = [], []
            hands.append((live, loose, msg.start_wall, msg.start_stack))
        elif isinstance(msg, C.PlayerDraws | C.WildIndicator):
            live.append(msg.tile)  # the indicator is turned up from the head of the live wall
        elif isinstance(msg, C.PlayerDrawsLoose):
            loose.append(msg.tile)
    return hands


@dataclass(frozen=True, slots=True)
class _Start:
    """How the logged server began: its settings, and the game it loaded if it resumed one."""

    settings: TableSettings
    game: C.Game
    players: tuple[C.Player, ...]
    history: tuple[C.CMsg, ...]


def _start_of(entries: Sequence[LogEntry]) -> _Start:
    """Options, seating and server settings as the log shows them; a loaded game's players and hand."""
    game: C.Game | None = None
    options: list[OptionEntry] = []
    for entry in entries:
        if entry.direction != ">" or entry.text is None:
            continue
        if game is None and entry.text.startswith("Game "):
            decoded = C.decode(entry.text)
            assert isinstance(decoded, C.Game)
            game = decoded
        elif game is not None and entry.text.startswith("GameOption 0 "):
            option = C.decode(entry.text)
            assert isinstance(option, C.GameOption)
            options.append(option.entry)
            if option.entry.name == END:
                break
    if game is None:
        raise ReplayError("the log never starts a game")
    sent = [e.text for e in entries if e.direction == ">" and e.text]
    timeout = next((e.value for e in options if e.name == "Timeout"), 0)
    players = _loaded_players(entries)
    # Only the original plays classical with its faults; another system's log is mj's own.
    rules = _rules_of(sent)
    settings = TableSettings(
        timeout=int(timeout),
        option_entries=tuple(options),
        fixed_seating=(game.east, game.south, game.west, game.north),
        original_quirks=rules is registry.DEFAULT,
        end_on_disconnect=any(t.startswith("Message 0 0 Lost connection to player ") for t in sent),
        exit_on_disconnect=any(t.startswith("StopPlay ") and t.endswith("quitting") for t in sent),
        no_manager=game.manager == -1,
        rules=rules,
    )
    history = _loaded_history(entries, game) if players else ()
    return _Start(settings, game, players, history)


def _rules_of(sent: Sequence[str]) -> Ruleset:
    """The rule system the logged table played: its ``Rules`` line (docs/protocol-extension.md), else classical."""
    name = next((t.split(" ", 1)[1] for t in sent if t.startswith("Rules ")), registry.DEFAULT_NAME)
    try:
        return registry.get(name.strip())
    except registry.RulesError as exc:
        raise ReplayError(f"the log's table plays rules mj cannot: {exc}") from None


def _loaded_players(entries: Sequence[LogEntry]) -> tuple[C.Player, ...]:
    """The seated players of a loaded game: the first to join is told of the others at once."""
    first = next((e for e in entries if e.direction == "<"), None)
    if first is None or first.text is None or not first.text.startswith("Connect "):
        return ()
    told: list[C.Player] = []
    me: C.Player | None = None
    for entry in entries[1:]:
        if entry.direction == "<":
            break
        message = C.decode(entry.text or "")
        if isinstance(message, C.ConnectReply) and message.id:
            connect = P.decode(first.text)
            assert isinstance(connect, P.Connect)
            me = C.Player(message.id, connect.name)
        elif isinstance(message, C.Player) and entry.connection == first.connection:
            told.append(message)
    return (me, *told) if me is not None and told else ()


def _loaded_history(entries: Sequence[LogEntry], game: C.Game) -> tuple[C.CMsg, ...]:
    """The resumed hand's history, merged from the copies each player was sent (their own draws real)."""
    seat_of_connection: dict[int, int] = {}
    seating = [game.east, game.south, game.west, game.north]
    resent: list[tuple[int, C.CMsg]] = []
    skip = _resent(entries)
    for index, entry in enumerate(entries):
        if entry.direction != ">" or entry.text is None:
            continue
        message = C.decode(entry.text)
        if isinstance(message, C.ConnectReply) and message.id in seating:
            seat_of_connection[entry.connection] = seating.index(message.id)
        elif index in skip:
            if isinstance(message, C.StartPlay):
                break
            if not isinstance(message, C.Game | C.GameOption):
                resent.append((seat_of_connection[entry.connection], message))
    resent = resent[:-1]  # the Pause that resumes play is not part of the hand so far
    items: list[C.CMsg] = []
    last_seat = 4
    last_key = ""
    for seat, message in resent:
        draw = message if isinstance(message, C.PlayerDraws | C.PlayerDrawsLoose) else None
        key = f"{message.keyword} {draw.id}" if draw is not None else message.encode()
        if key != last_key or seat <= last_seat:
            items.append(message)
        elif draw is not None and draw.tile != BLANK:
            items[-1] = draw
        last_key, last_seat = key, seat
    return tuple(items)


def _logged(deliveries: list[Delivery]) -> list[str]:
    return [f"cnx{d.connection} {d.message.encode()}" for d in deliveries if d.logged]


def _blocks(entries: Sequence[LogEntry]) -> Iterator[tuple[int, LogEntry | None, list[tuple[int, str]]]]:
    """Each received line with the sent lines logged after it, each with its log line number."""
    line = 1
    index = 0
    while index < len(entries):
        start_line = line
        entry: LogEntry | None = None
        if entries[index].direction == "<":
            entry = entries[index]
            line += format_entry(entry).count("\n")
            index += 1
        sent: list[tuple[int, str]] = []
        while index < len(entries) and entries[index].direction == ">":
            out = entries[index]
            sent.append((line, f"cnx{out.connection} {out.text}"))
            line += format_entry(out).count("\n")
            index += 1
        yield start_line, entry, sent


def _first_difference(line: int, expected: list[tuple[int, str]], actual: list[str]) -> int:
    """The log line of the first expected message our table did not send in that place."""
    for (number, text), mine in zip(expected, actual, strict=False):
        if text != mine:
            return number
    return expected[len(actual)][0] if len(expected) > len(actual) else line


def _narrate(narrator: Narrator, table: Table, deliveries: list[Delivery]) -> None:
    """Print the broadcasts once each (the copies logged for East)."""
    narrator.names.update({r.id: r.name for r in table.players})
    for delivery in deliveries:
        if not delivery.logged:
            continue
        if isinstance(delivery.message, C.NewHand) and table.game is not None:
            print(narrator.new_hand(table.game.seating))
            continue
        text = narrator.line(delivery.message)
        if text is not None:
            print(text)


def _save_text(start: _Start, walls: LoggedWalls) -> str:
    """A save file of the game a resumed log began with; its wall is the first one rebuilt from the draws."""
    game = start.game
    seating = [game.east, game.south, game.west, game.north]
    messages: list[C.CMsg] = [*sorted(start.players, key=lambda p: seating.index(p.id))]
    messages.append(game)
    # The rounds completed before, which the log does not say: each has moved the prevailing
    # wind on (a game of more than four rounds is taken to be in its first four). The original
    # ignores the count when it loads a game (mj only under --original-quirks).
    messages.append(completed_rounds_comment(tiles.WINDS.index(game.round)))
    rules = start.settings.rules
    if start.history and needs_extension(rules):
        # Nor whether the hand before was drawn and the banker's run: taken as none, as before a first
        # hand. Only Beijing's Upstairs doubles read them, and a hand they scored would not replay alike.
        messages.append(hand_start_comment(False, 0))
    messages.extend(C.GameOption(0, entry) for entry in start.settings.option_entries)
    if start.history:
        options = rules.new_options()
        for entry in start.settings.option_entries:
            options.apply_entry(entry)
        wall, _, _ = walls.next_hand(rules.flowers(options))
        messages.append(C.Wall(tiles.codes(wall)))
        messages.extend(start.history)
    return format_save(messages)


def table_for(entries: Sequence[LogEntry], saver: Saver | None = None, **settings: Any) -> Table:
    """A table set up as the logged server was: its settings (``settings`` override them), walls, loaded game."""
    start = _start_of(entries)
    walls = LoggedWalls(_hands_of(entries, start.history))
    table = Table(dataclasses.replace(start.settings, **settings), walls, saver=saver or _no_files)
    if start.players:
        try:
            table.load(_save_text(start, walls))
        except LoadError as exc:
            raise ReplayError(f"the game the log resumes cannot be rebuilt: {exc}") from None
    return table


def _keyword(delivered: str) -> str:
    """The message name of a delivery as :func:`_logged` writes it (``cnxK Name fields``)."""
    return delivered.split(" ", 2)[1]


def _fixed(messages: list[str]) -> list[str]:
    """The synchronising messages among ``messages``, whose order no timing changes (:mod:`mj.server.logcompare`)."""
    return [m for m in messages if _keyword(m) in SYNCHRONISING]


def _timed_out(lines: list[str]) -> bool:
    """Whether ``lines`` say a claim timer ran out: a player's ``PlayerDoesntClaim`` marked as timed out."""
    return any(" PlayerDoesntClaim " in line and line.endswith(" 1") for line in lines)


def _refused_too_fast(connection: int, expected: list[str]) -> bool:
    """Whether the server refused the line for its rate alone (a chat or save flood), which no log can tell us."""
    return len(expected) == 1 and expected[0].startswith(f"cnx{connection} Error ") and expected[0].endswith(TOO_FAST)


def _no_files(name: str, _: str) -> str:
    """Saving in a replay writes nothing; the table only needs the name the original reported."""
    return name or "game.mjs"


def replay(entries: Sequence[LogEntry], narrator: Narrator | None = None) -> ReplayResult:
    """Feed the log's received lines to a fresh table and compare what it sends with the log.

    With a ``narrator``, print the course of the game as the table plays it.
    """
    table = table_for(entries)
    compared = 0
    hand = 0
    for line, received, logged in _blocks(entries):
        expected = [text for _, text in logged]
        if received is None:
            deliveries: list[Delivery] = []
        elif received.text is None:
            deliveries = table.close(received.connection)
        elif _refused_too_fast(received.connection, expected):
            deliveries = table.refuse(received.connection)
        else:
            deliveries = table.receive(received.connection, received.text)
        if _timed_out(expected) and not _timed_out(_logged(deliveries)):
            # The log has no line for a claim timer: its lines follow the last line received
            # before it ran out, often the other players' NoClaim, which had its own answer.
            deliveries += table.timeout()
        for connection in sorted(table.closing):  # closed by the server: the original logs no end of file
            deliveries += table.close(connection)
        actual = _logged(deliveries)
        hand += sum(1 for e in expected if _keyword(e) == "NewHand")
        if narrator is not None:
            _narrate(narrator, table, deliveries)
        if actual != expected and (Counter(actual) != Counter(expected) or _fixed(actual) != _fixed(expected)):
            where = _first_difference(line, logged, actual)
            return ReplayResult(hand, compared, Mismatch(hand, where, expected, actual))
        compared += len(expected)
    return ReplayResult(hand, compared, None)
