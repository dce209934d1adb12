"""Compare two server logs of the same game, ignoring only what concurrency may reorder.

Four robots run concurrently, so two servers (or two runs of one server) playing
the same seeded game log the same lines in different orders: the three answers to
a discard arrive in any order, and so do the losers' declarations after a
mah-jong and the players' ``Ready`` answers to a pause. What cannot move is:

* the *synchronising* messages: those the server sends only when every answer it
  waits for is in (the deal, draws, discards, granted claims, settlements ...);
  nothing received before one can arrive after it in another run, and vice versa;
* the order of what one connection sent, each line followed by the messages it
  caused (a *block*), because each robot is sequential.

So a log is cut at each synchronising message into segments, each segment is cut
into blocks, and the blocks are grouped by the connection whose line started them,
keeping their order within the connection. The canonical form lists, segment by
segment, the synchronising message and then the groups in connection order.

A line that causes no logged message at all (the robots send a second ``Ready``
to every start of play, which the server ignores) may arrive before or after the
next synchronising message, so such lines are left out of the segments; every
received line, answered or not, is instead listed once more at the end, in the
order of its connection. Every logged line thus appears in the canonical form
with its exact text, so games that differ in any line (or in the order of one
connection's lines, or in which messages a line caused) compare different; only
the interleaving of different connections between two synchronising messages is
forgotten.

The end of the first connection to close after ``GameOver`` (which stops the
server) is kept without its connection number: which robot quits first is a race.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mj.logfile import LogEntry, format_entry

#: Messages sent only once every answer the server waits for has arrived.
SYNCHRONISING: Final = frozenset(
    {
        "Game",
        "NewRound",
        "NewHand",
        "PlayerDraws",
        "PlayerDrawsLoose",
        "PlayerDeclaresSpecial",
        "PlayerDiscards",
        "ClaimDenied",
        "PlayerPungs",
        "PlayerKongs",
        "PlayerChows",
        "PlayerDeclaresClosedKong",
        "PlayerAddsToPung",
        "PlayerRobsKong",
        "PlayerMahJongs",
        "WashOut",
        "Settlement",
        "GameOver",
    }
)
#: Group key of the messages a synchronising message brought with it, before any line was received.
SERVER: Final = "(server)"


@dataclass(frozen=True, slots=True)
class Item:
    """One line of the canonical form: ``text`` is compared, ``line`` (in the log) only reported."""

    text: str
    line: int


@dataclass(frozen=True, slots=True)
class Difference:
    """The first place where two canonical forms part; None on a side that ended."""

    index: int
    left: Item | None
    right: Item | None

    def describe(self, left_name: str = "left", right_name: str = "right") -> str:
        def show(name: str, item: Item | None) -> str:
            if item is None:
                return f"  {name}: (log ends)"
            return f"  {name} log line {item.line}: {item.text!r}"

        where = f"first difference at canonical item {self.index}:"
        return f"{where}\n{show(left_name, self.left)}\n{show(right_name, self.right)}"


def _keyword(text: str | None) -> str:
    return "" if text is None else text.split(" ", 1)[0]


def canonical(entries: Sequence[LogEntry]) -> list[Item]:
    """The canonical form of a log (see the module docstring)."""
    items: list[Item] = []
    groups: dict[str, list[list[Item]]] = {}
    received: dict[str, list[Item]] = {}
    block: list[Item] | None = None
    line = 1
    game_over = False

    def end_segment() -> None:
        for key in sorted(groups):
            for grouped in groups[key]:
                if len(grouped) > 1 or key == SERVER:
                    items.extend(Item(f"{key}: {item.text}", item.line) for item in grouped)
        groups.clear()

    for entry in entries:
        text = format_entry(entry)
        if entry.direction == "<":
            key = f"cnx{entry.connection}"
            if game_over and entry.text is None:
                key, text = "end", "<cnx? (null)"
            block = [Item(text, line)]
            groups.setdefault(key, []).append(block)
            received.setdefault(key, []).append(block[0])
        elif _keyword(entry.text) in SYNCHRONISING:
            end_segment()
            items.append(Item(f"sync: {text}", line))
            block = None
            game_over = game_over or entry.text == "GameOver"
        else:
            if block is None:
                block = []
                groups.setdefault(SERVER, []).append(block)
            block.append(Item(text, line))
        line += text.count("\n")
    end_segment()
    for key in sorted(received):
        items.extend(Item(f"received {key}: {item.text}", item.line) for item in received[key])
    return items


def first_difference(left: Sequence[LogEntry], right: Sequence[LogEntry]) -> Difference | None:
    """Where the canonical forms of two logs first differ; None if they are the same game."""
    a, b = canonical(left), canonical(right)
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x.text != y.text:
            return Difference(index, x, y)
    if len(a) != len(b):
        n = min(len(a), len(b))
        return Difference(n, a[n] if n < len(a) else None, b[n] if n < len(b) else None)
    return None
