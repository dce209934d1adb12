"""Garbage in, errors out: random and mutated lines never crash the table, leak tiles or disturb a game.

A real game of the original is replayed while fuzz lines arrive; the game must still
match the original message for message, and no connection may ever be shown a tile
it may not see.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

from mj import tiles
from mj.logfile import LogEntry
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.replay import read_entries, table_for
from mj.table import Delivery, Table

SEED7 = read_entries(Path(__file__).parent / "data" / "reference" / "game-seed7-default-flowers.log.gz")
KEYWORDS = [name for cls in P.MESSAGES for name in (cls.keyword, *cls.aliases)]
WORDS = [
    *KEYWORDS,
    *(tiles.code(t) for t in tiles.KINDS),
    "--",
    "XX",
    "0",
    "1",
    "-1",
    "99999999999",
    "Middle",
    "AnyPos",
]


def fuzz_line(rng: random.Random, real: list[str]) -> str:
    """A random line: words of the protocol in random order, a mutated real line, or bytes of noise."""
    kind = rng.random()
    if kind < 0.4:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6)))
    if kind < 0.8:
        line = list(rng.choice(real))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(line) + 1)
            action = rng.random()
            if action < 0.3 and line:
                del line[min(at, len(line) - 1)]
            elif action < 0.6:
                line.insert(at, rng.choice(string.printable + "\x00\xff\\"))
            else:
                line[at:at] = rng.choice(WORDS) + " "
        return "".join(line)
    return "".join(chr(rng.randrange(256)) for _ in range(rng.randint(0, 200)))


def check_censorship(table: Table, deliveries: list[Delivery]) -> None:
    """No connection receives another player's concealed tiles."""
    for delivery in deliveries:
        conn = table.connections.get(delivery.connection)
        viewer = conn.player if conn else None
        message = delivery.message
        if isinstance(message, C.PlayerDraws | C.PlayerDrawsLoose) and message.id != viewer:
            assert message.tile == tiles.BLANK, (viewer, message)


def received(entries: list[LogEntry]) -> list[LogEntry]:
    return [e for e in entries if e.direction == "<" and e.text is not None]


def test_a_stranger_flooding_garbage_does_not_change_the_game() -> None:
    rng = random.Random(1)
    table = table_for(SEED7)
    lines = received(SEED7)
    real = [e.text or "" for e in lines]
    expected = table_for(SEED7)
    stranger = 99
    table.open(stranger)
    for count, entry in enumerate(lines):
        assert entry.text is not None
        want = expected.receive(entry.connection, entry.text)
        got = table.receive(entry.connection, entry.text)
        assert [(d.connection, d.message) for d in got] == [(d.connection, d.message) for d in want]
        for _ in range(20 if count % 3 else 0):
            out = table.receive(stranger, fuzz_line(rng, real))
            assert all(d.connection == stranger and isinstance(d.message, C.Error | C.ConnectReply) for d in out)
    assert table.game is not None and table.game.game_over


def test_seated_players_sending_garbage_get_errors_and_see_nothing_hidden() -> None:
    rng = random.Random(2)
    lines = received(SEED7)
    real = [e.text or "" for e in lines]
    sent = 0
    for stop in [40 + k * (len(lines) - 40) // 13 for k in range(13)]:
        table = table_for(SEED7)
        for entry in lines[:stop]:
            assert entry.text is not None
            table.receive(entry.connection, entry.text)
        for _ in range(8000):
            out = table.receive(rng.randint(1, 4), fuzz_line(rng, real))
            check_censorship(table, out)
            sent += 1
    assert sent >= 100_000
