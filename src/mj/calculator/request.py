"""One hand to score, read from score-json.md's input object and checked field by field.

Every fault is an :class:`~mj.calculator.outcome.InputError` whose text names the
field and what is wrong with it; a request that passes is a physically possible hand
(:func:`mj.rules.winhand.check`). Whether it is complete and allowed to go out is the
rule system's business, not a fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from mj.calculator.outcome import InputError
from mj.melds import KongOrigin, Meld, chow, kong, pung
from mj.rules.winhand import SEAT_LETTERS, HandError, How, WinningHand, check
from mj.tiles import BLANK, Tile, TileError, code, is_suited, parse

#: The input's fields; any other is a fault (a misspelt field would otherwise be silently ignored).
FIELDS: Final = frozenset(
    {
        "rules",
        "options",
        "seat",
        "round",
        "exposed",
        "concealed",
        "winning_tile",
        "how",
        "discarder",
        "flowers",
        "wild_indicator",
        "first_turn",
        "last_tile",
    }
)
_SET_FIELDS: Final = frozenset({"set", "tile", "concealed"})
_HOWS: Final = {how.value: how for how in How}


@dataclass(frozen=True, slots=True)
class Request:
    """A checked input: which rules (None: the caller's default), their options as given, and the hand."""

    rules: str | None
    options: Mapping[str, object]
    hand: WinningHand
    wild_indicator: Tile | None


def parse_request(data: object) -> Request:
    """The request in ``data`` (a decoded JSON value), or :class:`InputError` naming the first fault."""
    if not isinstance(data, dict):
        raise InputError("the input must be one JSON object")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}")
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, str):
        raise InputError(f"rules must be a name, not {rules!r}")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InputError("options must be an object of option names and values")
    exposed = data.get("exposed") or []
    if not isinstance(exposed, list):
        raise InputError("exposed must be a list of sets")
    flowers = data.get("flowers") or []
    if not isinstance(flowers, list):
        raise InputError("flowers must be a list of tile codes")
    how_name = _required(data, "how")
    how = _HOWS.get(how_name) if isinstance(how_name, str) else None
    if how is None:
        raise InputError(f"how must be one of {', '.join(_HOWS)}, not {how_name!r}")
    discarder = data.get("discarder")
    wild = data.get("wild_indicator")
    hand = WinningHand(
        seat=_seat(_required(data, "seat"), "seat"),
        round_wind=_seat(_required(data, "round"), "round"),
        exposed=tuple(_meld(item, n) for n, item in enumerate(exposed)),
        concealed=tuple(_tiles(_required(data, "concealed"), "concealed")),
        winning_tile=_tile(_required(data, "winning_tile"), "winning_tile"),
        how=how,
        discarder=None if discarder is None else _seat(discarder, "discarder"),
        flowers=tuple(_tile(t, "flowers") for t in flowers),
        first_turn=_flag(data, "first_turn"),
        last_tile=_flag(data, "last_tile"),
    )
    try:
        check(hand)
    except HandError as exc:
        raise InputError(str(exc)) from None
    return Request(rules, options, hand, None if wild is None else _tile(wild, "wild_indicator"))


def _required(data: Mapping[str, object], name: str) -> object:
    if data.get(name) is None:
        raise InputError(f"missing field {name!r}")
    return data[name]


def _seat(value: object, field: str) -> int:
    if not isinstance(value, str) or value not in SEAT_LETTERS:
        raise InputError(f"{field} must be a wind letter E, S, W or N, not {value!r}")
    return SEAT_LETTERS.index(value)


def _tile(value: object, field: str) -> Tile:
    if not isinstance(value, str):
        raise InputError(f"{field}: a tile is a code like 5B or RD, not {value!r}")
    try:
        tile = parse(value)
    except TileError:
        tile = BLANK
    if tile == BLANK:
        raise InputError(f"{field}: unknown tile code {value!r}")
    return tile


def _tiles(value: object, field: str) -> list[Tile]:
    """Space-separated tile codes (a list of codes is accepted too)."""
    if isinstance(value, str):
        words: list[object] = list(value.split())
    elif isinstance(value, list):
        words = list(value)
    else:
        raise InputError(f"{field} must be space-separated tile codes, not {value!r}")
    return [_tile(word, field) for word in words]


def _flag(data: Mapping[str, object], name: str) -> bool:
    value = data.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InputError(f"{name} must be true or false, not {value!r}")
    return value


def _meld(item: object, n: int) -> Meld:
    """One exposed set: ``{"set": "chow"|"pung"|"kong", "tile": CODE, "concealed": BOOL}``."""
    where = f"exposed set {n + 1}"
    if not isinstance(item, dict):
        raise InputError(f"{where} must be an object with set and tile")
    unknown = sorted(set(item) - _SET_FIELDS)
    if unknown:
        raise InputError(f"{where}: unknown field {unknown[0]!r}")
    kind = item.get("set")
    tile = _tile(item.get("tile"), where)
    concealed = item.get("concealed", False)
    if not isinstance(concealed, bool):
        raise InputError(f"{where}: concealed must be true or false, not {concealed!r}")
    if concealed and kind != "kong":
        raise InputError(f"{where}: only a kong can be declared concealed")
    if kind == "chow":
        if not is_suited(tile) or tile % 10 > 7:
            raise InputError(f"{where}: a chow is named by its lowest tile, and {code(tile)} cannot start one")
        return chow(tile, False)
    if kind == "pung":
        return pung(tile, False)
    if kind == "kong":
        return kong(tile, KongOrigin.CONCEALED if concealed else KongOrigin.CLAIMED)
    raise InputError(f"{where}: set must be chow, pung or kong, not {kind!r}")
