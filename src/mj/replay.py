"""``mj replay``: run an original server log through our table and compare every message.

The log gives the options, the seating and, hand by hand, the tiles dealt and
drawn; from those we rebuild each wall, feed every line a player sent to the
table as that player's intent, and check that the table sends exactly what the
original sent (only the order within one reaction may differ, e.g. who of the
losers was answered first).
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from mj import tiles
from mj.logfile import LogEntry, format_entry, parse_log
from mj.narrate import Narrator
from mj.protocol import cmsg as C
from mj.protocol.framing import ENCODING
from mj.rules.options import OptionEntry
from mj.table import Delivery, Table, TableSettings
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


def _hands_of(entries: Sequence[LogEntry]) -> list[tuple[list[Tile], list[Tile], int, int]]:
    hands: list[tuple[list[Tile], list[Tile], int, int]] = []
    live: list[Tile] = []
    loose: list[Tile] = []
    for entry in entries:
        if entry.direction != ">" or entry.text is None:
            continue
        word = entry.text.split(" ", 1)[0]
        if word == "NewHand":
            msg = C.decode(entry.text)
            assert isinstance(msg, C.NewHand)
            live, loose = [], []
            hands.append((live, loose, msg.start_wall, msg.start_stack))
        elif word == "PlayerDraws":
            msg = C.decode(entry.text)
            assert isinstance(msg, C.PlayerDraws)
            live.append(msg.tile)
        elif word == "PlayerDrawsLoose":
            msg = C.decode(entry.text)
            assert isinstance(msg, C.PlayerDrawsLoose)
            loose.append(msg.tile)
    return hands


def _settings_of(entries: Sequence[LogEntry]) -> TableSettings:
    """Options and seating as the log's first ``Game`` message and option dump show them."""
    options: list[OptionEntry] = []
    seating: tuple[int, ...] | None = None
    for entry in entries:
        if entry.direction != ">" or entry.text is None:
            continue
        if seating is None and entry.text.startswith("Game "):
            game = C.decode(entry.text)
            assert isinstance(game, C.Game)
            seating = (game.east, game.south, game.west, game.north)
        elif seating is not None and entry.text.startswith("GameOption 0 "):
            option = C.decode(entry.text)
            assert isinstance(option, C.GameOption)
            options.append(option.entry)
            if option.entry.name == "End":
                break
    if seating is None:
        raise ReplayError("the log never starts a game")
    timeout = next((e.value for e in options if e.name == "Timeout"), 0)
    return TableSettings(
        timeout=int(timeout),
        option_entries=tuple(options),
        fixed_seating=seating,
        original_quirks=True,
    )


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


def replay(entries: Sequence[LogEntry], narrator: Narrator | None = None) -> ReplayResult:
    """Feed the log's received lines to a fresh table and compare what it sends with the log.

    With a ``narrator``, print the course of the game as the table plays it.
    """
    table = Table(_settings_of(entries), LoggedWalls(_hands_of(entries)), saver=lambda name, _: name or "game.mjs")
    compared = 0
    hand = 0
    for line, received, logged in _blocks(entries):
        expected = [text for _, text in logged]
        if received is None:
            deliveries: list[Delivery] = []
        elif received.text is None:
            deliveries = table.close(received.connection)
        else:
            deliveries = table.receive(received.connection, received.text)
        if expected and not deliveries and any(" PlayerDoesntClaim " in e and e.endswith(" 1") for e in expected):
            deliveries = table.timeout()
        actual = _logged(deliveries)
        hand += sum(1 for e in expected if e.split(" ", 2)[1] == "NewHand")
        if narrator is not None:
            _narrate(narrator, table, deliveries)
        if actual != expected and Counter(actual) != Counter(expected):
            where = _first_difference(line, logged, actual)
            return ReplayResult(hand, compared, Mismatch(hand, where, expected, actual))
        compared += len(expected)
    return ReplayResult(hand, compared, None)
