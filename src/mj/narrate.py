"""Plain-English lines for the messages of a game, for people watching a replay."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mj.protocol import cmsg as C
from mj.protocol.fields import ChowPosition
from mj.tiles import BLANK, WINDS, Tile, code

_WIND_NAMES = dict(zip(WINDS, ("East", "South", "West", "North"), strict=True))
_CHOW = {ChowPosition.LOWER: "lower", ChowPosition.MIDDLE: "middle", ChowPosition.UPPER: "upper"}


class Narrator:
    """Turns messages into lines such as ``Robot2 (South) pungs 9C``; ignores the rest."""

    def __init__(self, names: Mapping[int, str], tile: Callable[[Tile], str] = code) -> None:
        self.names = dict(names)
        #: How a tile is written in a line: its code ("9C"); the browser's move log marks it to name it in words.
        self.tile = tile
        self.winds: dict[int, str] = {}
        self.hand = 0

    def who(self, player: int) -> str:
        name = self.names.get(player, f"player {player}")
        wind = self.winds.get(player)
        return f"{name} ({wind})" if wind else name

    def line(self, message: C.CMsg) -> str | None:
        handler = _HANDLERS.get(type(message))
        return handler(self, message) if handler else None

    def new_hand(self, seating: list[int]) -> str:
        self.hand += 1
        self.winds = dict(zip(seating, ("East", "South", "West", "North"), strict=True))
        table = ", ".join(f"{w}: {self.names.get(p, p)}" for p, w in self.winds.items())
        return f"\n=== Hand {self.hand} === {table}"


def _discard(n: Narrator, m: C.PlayerDiscards) -> str:
    call = " and declares Original Call" if m.calling else ""
    return f"{n.who(m.id)} discards {n.tile(m.tile)}{call}"


def _chows(n: Narrator, m: C.PlayerChows) -> str | None:
    if m.cpos is ChowPosition.ANYPOS:
        return None
    return f"{n.who(m.id)} chows {n.tile(m.tile)} ({_CHOW[m.cpos]})"


def _mahjong(n: Narrator, m: C.PlayerMahJongs) -> str:
    source = "on the discard" if m.tile == BLANK else f"with {n.tile(m.tile)}"
    return f"*** {n.who(m.id)} goes Mah Jong {source}"


def _score(n: Narrator, m: C.HandScore) -> str:
    body = "\n".join(f"      {line}" for line in m.explanation.splitlines())
    return f"  {n.who(m.id)} scores {m.score}:\n{body}"


_HANDLERS: dict[type, Callable[[Narrator, Any], str | None]] = {
    C.NewRound: lambda n, m: f"\n##### {_WIND_NAMES[m.wind]} round #####",
    C.PlayerDiscards: _discard,
    C.PlayerDeclaresSpecial: lambda n, m: None if m.tile == BLANK else f"{n.who(m.id)} declares {n.tile(m.tile)}",
    C.PlayerPungs: lambda n, m: f"{n.who(m.id)} pungs {n.tile(m.tile)}",
    C.PlayerKongs: lambda n, m: f"{n.who(m.id)} kongs {n.tile(m.tile)}",
    C.PlayerChows: _chows,
    C.PlayerDeclaresClosedKong: lambda n, m: f"{n.who(m.id)} declares a concealed kong of {n.tile(m.tile)}",
    C.PlayerAddsToPung: lambda n, m: f"{n.who(m.id)} adds {n.tile(m.tile)} to a pung",
    C.PlayerRobsKong: lambda n, m: f"{n.who(m.id)} robs the kong of {n.tile(m.tile)}",
    C.PlayerMahJongs: _mahjong,
    C.WashOut: lambda n, m: f"*** Wash-out: {m.reason}",
    C.HandScore: _score,
    C.Settlement: lambda n, m: "  Settlement:\n" + "\n".join(f"      {x}" for x in m.explanation.splitlines() if x),
    C.GameOver: lambda n, m: "\n=== Game over ===",
    C.WildIndicator: lambda n, m: f"{n.tile(m.tile)} is turned up as the wild indicator",
}
