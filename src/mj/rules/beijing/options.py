"""The Beijing table options: the seed's prior agreements and variations, one schema row each.

Every fact about an option (its name, default, allowed values, text) is one row of
:data:`SCHEMA`. Every variation and optional double is off by default, the unit is 1
(the seed's "1, 2, 4") and the rare events are worth the seed's typical 20.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

UNIT: Final = "Unit"
HEAVENLY_WIN: Final = "HeavenlyWin"
EARTHLY_WIN: Final = "EarthlyWin"
WILD_KONG: Final = "WildKong"
WILD_EYE: Final = "WildEye"
NATIVE_WILD_FLUSH: Final = "NativeWildFlush"
BANKER_KONGS: Final = "BankerKongs"
UPSTAIRS: Final = "Upstairs"
UPSTAIRS_BANKER: Final = "UpstairsBanker"
VOID_SUIT: Final = "VoidSuit"
BUSTED_BANKER: Final = "BustedBanker"
AT_MOST_ONCE: Final = "AtMostOnce"
PURE_ONE_SUIT: Final = "PureOneSuit"
ALL_PUNGS: Final = "AllPungs"
SINGLE_TILE: Final = "SingleTile"
LAST_TILE: Final = "LastTile"
DISCARDER_PAYS_ALL: Final = "DiscPaysAll"
NO_WIN_AFTER_PASS: Final = "NoWinAfterPass"
WALL_END: Final = "WallEnd"
BUSTED_POINTS: Final = "BustedPoints"

#: The most points an agreed amount may be (a bound, not a rule: nothing a client sends is unbounded).
MAX_POINTS: Final = 10_000


class BeijingOptionError(ValueError):
    """An unknown option name or a bad value; ``str()`` is one line naming it."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option: a boolean (``low``/``high`` None), or a whole number from ``low`` to ``high``."""

    name: str
    default: int
    description: str
    low: int | None = None
    high: int | None = None

    @property
    def is_bool(self) -> bool:
        return self.low is None

    @property
    def bounds(self) -> tuple[int, int] | None:
        """The whole number's range, inclusive; None for a boolean."""
        return None if self.low is None or self.high is None else (self.low, self.high)

    def check(self, value: object) -> int:
        """``value`` (JSON or a table's) as the stored int, or :class:`BeijingOptionError`."""
        if self.is_bool:
            if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
                return int(value)
            raise BeijingOptionError(f"option {self.name} must be true or false, not {value!r}")
        assert self.low is not None and self.high is not None
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value
        raise BeijingOptionError(
            f"option {self.name} must be a whole number from {self.low} to {self.high}, not {value!r}"
        )


def _points(name: str, default: int, description: str) -> OptionSpec:
    return OptionSpec(name, default, description, 0, MAX_POINTS)


#: The options: the agreements first, then the optional doubles, then the variations in the seed's order.
SCHEMA: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(UNIT, 1, "the unit each payer pays before doubles: 1 (the seed's 1-2-4) or 2 (2-4-8)", 1, 2),
    _points(HEAVENLY_WIN, 20, "points each payer pays for a Heavenly Win (the banker dealt a winning hand)"),
    _points(EARTHLY_WIN, 20, "points each payer pays for an Earthly Win (on the banker's first discard)"),
    _points(WILD_KONG, 20, "points each payer pays for a Wild Kong (the winner holds all four wilds)"),
    OptionSpec(WILD_EYE, 0, "optional double: Wild Eye (four sets or six pairs waiting for the eye with a wild)"),
    OptionSpec(NATIVE_WILD_FLUSH, 0, "optional double: Native Wild Flush (a wild of the flush's suit in the flush)"),
    OptionSpec(BANKER_KONGS, 0, "kong points are doubled when the banker wins or pays"),
    OptionSpec(UPSTAIRS, 0, "after a drawn hand the next hand is upstairs: everything paid is doubled"),
    OptionSpec(UPSTAIRS_BANKER, 0, "a hand is upstairs too when the banker stays a third time or more"),
    OptionSpec(VOID_SUIT, 0, "a winning hand must lack one of the three suits"),
    OptionSpec(BUSTED_BANKER, 0, "busted banker: when all four open with the same discard the banker pays"),
    _points(BUSTED_POINTS, 10, "points the busted banker pays each other player"),
    OptionSpec(AT_MOST_ONCE, 0, "a player may chow or pung only once a hand (direct kongs are not limited)"),
    OptionSpec(PURE_ONE_SUIT, 0, "additional double: Pure One Suit (one suit, no honours)"),
    OptionSpec(ALL_PUNGS, 0, "additional double: All Pungs (four pungs or kongs)"),
    OptionSpec(SINGLE_TILE, 0, "additional double: Single Tile (all four sets declared, the eye won alone)"),
    OptionSpec(LAST_TILE, 0, "additional double: Win by Last Tile"),
    OptionSpec(DISCARDER_PAYS_ALL, 0, "on a discard the discarder pays for all three losers"),
    OptionSpec(
        NO_WIN_AFTER_PASS, 0, "a player who passed a winning tile wins on no discard until their turn, a pung or a kong"
    ),
    OptionSpec(
        WALL_END,
        0,
        "tiles left at a draw: 0 = 7 stacks, 1 = 7 stacks or 8 after two kongs, 2 = 14 plus one a kong",
        0,
        2,
    ),
)
_BY_NAME: Final = {spec.name: spec for spec in SCHEMA}
#: Names an option had before, still accepted where options are given by name (``mj score --json``):
#: ``DiscarderPaysAll`` was one character too long for the protocol's option names (a word of 15).
EARLIER_NAMES: Final = {"DiscarderPaysAll": DISCARDER_PAYS_ALL}


@dataclass(frozen=True, slots=True)
class BeijingOptions:
    """The values of every Beijing table option by name."""

    values: Mapping[str, int]

    def __getitem__(self, name: str) -> int:
        return self.values[name]

    def flag(self, name: str) -> bool:
        return self.values[name] != 0


def parse(given: Mapping[str, object]) -> BeijingOptions:
    """The options ``given`` by name, the others at their defaults; unknown names and bad values are errors."""
    given = {EARLIER_NAMES.get(name, name): value for name, value in given.items()}
    for name in given:
        if name not in _BY_NAME:
            raise BeijingOptionError(f"unknown Beijing option {name!r} (the options are {', '.join(_BY_NAME)})")
    return BeijingOptions({s.name: s.check(given[s.name]) if s.name in given else s.default for s in SCHEMA})


#: Every option at its default.
DEFAULTS: Final = parse({})
