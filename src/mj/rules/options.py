"""The game options of Unix Mah-Jong (protocol.md §5): schema, values, wire entries, checks.

The description texts, types and minimum protocol versions are exactly those the
original server sends, because clients display them and save files store them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final


class OptionType(Enum):
    BOOL = "bool"
    INT = "int"
    NAT = "nat"
    SCORE = "score"
    STRING = "string"


@dataclass(frozen=True, slots=True)
class OptionEntry:
    """One option as it travels in ``GameOption`` lines and option files."""

    name: str
    type: OptionType
    minprot: int
    enabled: bool
    value: int | str
    description: str
    #: The only values the rule system allows (IMS: MinimumFan 0 or 2); empty: any value in range.
    #: Never on the wire: each rule system declares it on its own entries.
    allowed: tuple[int, ...] = ()
    #: The range (inclusive) the rule system allows, where it declares one (Beijing's units and points);
    #: otherwise :data:`OPTION_RANGES` has the original options' sane ranges.
    bounds: tuple[int, int] | None = None

    def encode(self, protocol: int = 1110) -> str:
        """``<Name> <type> <minprot> <enabled> <value> <description>`` (§5.2)."""
        type_word = self.type.value
        if self.type is OptionType.NAT and protocol < 1020:
            type_word = OptionType.INT.value
        value = self.value if self.type is not OptionType.BOOL else int(bool(self.value))
        return f"{self.name} {type_word} {self.minprot} {int(self.enabled)} {value} {self.description}"


#: The pseudo option that ends the protocol's option lists (§5.2): listed, never set, never reported.
END: Final = "End"
#: The 24 options in the original's table order (§5.1), with their server defaults.
OPTION_TABLE: Final[tuple[OptionEntry, ...]] = tuple(
    OptionEntry(name, OptionType(kind), minprot, True, default, text)
    for name, kind, minprot, default, text in (
        ("Timeout", "nat", 0, 15, "time limit for claims"),
        ("TimeoutGrace", "nat", 0, 5, "grace period when clients handle timeouts"),
        ("ScoreLimit", "nat", 0, 1000, "limit on hand score"),
        ("NoLimit", "bool", 0, 0, "no-limit game"),
        ("MahJongScore", "score", 0, 20, "base score for going out"),
        ("SevenPairs", "bool", 1020, 0, "seven pairs hand allowed"),
        ("SevenPairsVal", "score", 1020, 20, "score for a seven pair hand"),
        ("Flowers", "bool", 1020, 1, "play using flowers and seasons"),
        ("FlowersLoose", "bool", 0, 0, "flowers replaced by loose tiles"),
        ("FlowersOwnEach", "score", 0, 0, "score for each own flower or season"),
        ("FlowersOwnBoth", "score", 0, 10000, "score for own flower and own season"),
        ("FlowersBouquet", "score", 0, 10000, "score for all four flowers or all four seasons"),
        ("DeadWall", "bool", 1020, 1, "there is a dead wall"),
        ("DeadWall16", "bool", 1020, 1, "dead wall is 16 tiles, unreplenished"),
        ("ConcealedFully", "score", 0, 10000, "score for fully concealed hand"),
        ("ConcealedAlmost", "score", 0, 0, "score for almost concealed hand"),
        ("LosersPurity", "bool", 0, 0, "losing hands score doubles for pure, concealed etc."),
        ("KongHas3Types", "bool", 1034, 0, "claimed kongs count as concealed for doubling"),
        ("EastDoubles", "bool", 0, 1, "east pays and receives double"),
        ("LosersSettle", "bool", 0, 1, "losers pay each other"),
        ("DiscDoubles", "bool", 0, 0, "the discarder pays double"),
        ("ShowOnWashout", "bool", 0, 0, "tiles revealed on washout"),
        ("NumRounds", "nat", 0, 4, "number of rounds to play"),
        (END, "bool", 0, 1, "end of option list"),
    )
)
OPTION_NAMES: Final = tuple(e.name for e in OPTION_TABLE)

#: Score values are capped at a notional 100 limits, as in the original.
SCORE_CAP: Final = 100_000_000
LIMIT: Final = 1_000_000
DOUBLE: Final = 10_000


class OptionError(ValueError):
    """A rejected option change; ``str()`` is the original's error text (§18)."""


_INT = re.compile(r"\s*([+-]?\d+)")


#: What a number too long for C's ``long`` is read as, as ``strtol`` saturates: beyond every
#: option's range (and Python refuses to convert a number of thousands of digits).
_HUGE: Final = 2**63 - 1


def _leading_int(text: str) -> int | None:
    """C ``sscanf("%d")``: optional white space and sign, digits, junk after them ignored."""
    match = _INT.match(text)
    if not match:
        return None
    number = match.group(1)
    if len(number.lstrip("+-").lstrip("0")) > len(str(_HUGE)):
        return -_HUGE - 1 if number.startswith("-") else _HUGE
    return max(-_HUGE - 1, min(_HUGE, int(number)))


def parse_value(kind: OptionType, text: str) -> int | str:
    """The value of an option of type ``kind`` written as ``text``, or the original's error."""
    if kind is OptionType.STRING:
        return text.strip()[:127]
    value = _leading_int(text)
    if kind is OptionType.BOOL:
        if value not in (0, 1):
            raise OptionError("No boolean value found for option")
        return value
    if value is None:
        raise OptionError(
            "No score value found for option" if kind is OptionType.SCORE else "No integer value found for option"
        )
    if kind is OptionType.SCORE:
        return min(value, SCORE_CAP)
    return value


#: The sane range of each numeric option (inclusive), whoever sets it: a client, an option
#: file or a save file. Beyond these a game would never end (NumRounds) or a claim would
#: wait for days (Timeout); the original has no upper bounds.
OPTION_RANGES: Final[dict[str, tuple[int, int]]] = {
    "Timeout": (0, 3600),
    "TimeoutGrace": (0, 3600),
    "ScoreLimit": (0, SCORE_CAP),
    "NumRounds": (1, 100),
    **{e.name: (0, SCORE_CAP) for e in OPTION_TABLE if e.type is OptionType.SCORE},
}


def check_value(
    name: str, value: int | str, allowed: tuple[int, ...] = (), bounds: tuple[int, int] | None = None
) -> None:
    """Rules on particular options, beyond their type: the values the rule system's entry allows
    (``allowed`` and ``bounds``, :class:`OptionEntry`'s), the original's checks (with its texts), the ranges."""
    if not isinstance(value, int):
        return
    if allowed and value not in allowed:
        raise OptionError(f"{name} must be {' or '.join(map(str, allowed))}")
    if name == "Timeout" and value < 0:
        raise OptionError("Can't set negative timeout!")
    if name == "NumRounds" and not (value in (1, 2) or (value > 0 and value % 4 == 0)):
        raise OptionError("Number of rounds must be 1, 2 or a multiple of 4")
    bounds = bounds or OPTION_RANGES.get(name)
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise OptionError(f"{name} must be between {bounds[0]} and {bounds[1]}")


def system_options(kept: Sequence[str], own: Iterable[OptionEntry]) -> tuple[OptionEntry, ...]:
    """A rule system's option list: the classical table's options it keeps (in their order), its own, and
    the END that closes every list on the wire."""
    return (*(e for e in OPTION_TABLE if e.name in kept), *own, next(e for e in OPTION_TABLE if e.name == END))


def own_option(
    name: str,
    is_bool: bool,
    default: int,
    description: str,
    allowed: tuple[int, ...] = (),
    bounds: tuple[int, int] | None = None,
) -> OptionEntry:
    """A rule system's own option as the protocol carries it: a bool or a whole number, for any client."""
    return OptionEntry(
        name, OptionType.BOOL if is_bool else OptionType.NAT, 0, True, default, description, allowed, bounds
    )


class DescriptionBuffer:
    """The description of a file's ``GameOption`` lines as the original reads them, an option file or a
    save file: it decodes every line's description into one buffer, which a line without one leaves as
    it was, so such a line takes the last description the file gave (an unknown option's or a type
    clash's too); before any, it keeps the server's own text (:meth:`GameOptions.apply_entry`)."""

    def __init__(self) -> None:
        self._text = ""

    def fill(self, entry: OptionEntry) -> OptionEntry:
        """``entry`` as the original reads it from the file, after every line before it."""
        if entry.description:
            self._text = entry.description
            return entry
        return replace(entry, description=self._text)


def parse_entry(text: str) -> OptionEntry:
    """Decode ``<Name> <type> <minprot> <enabled> <value> <description>`` (§5.2)."""
    parts = text.split(None, 5)
    if len(parts) < 5:
        raise OptionError("Protocol error")
    name, type_word, minprot_text, enabled_text, value_text = parts[:5]
    description = parts[5] if len(parts) > 5 else ""
    try:
        kind = OptionType(type_word)
    except ValueError:
        raise OptionError("Protocol error") from None
    minprot = _leading_int(minprot_text)
    enabled = _leading_int(enabled_text)
    if minprot is None or enabled not in (0, 1):
        raise OptionError("Protocol error")
    value = parse_value(kind, value_text)
    return OptionEntry(name[:15], kind, minprot, bool(enabled), value, description[:127])


class GameOptions:
    """The option values of one game, in table order.

    Unknown names from option files are remembered (as the original does) but never
    listed or consulted.
    """

    __slots__ = ("_entries", "_unknown")

    def __init__(self, schema: Iterable[OptionEntry] = OPTION_TABLE) -> None:
        """Options with the names, types and defaults of ``schema`` (a rule system's; classical's by default)."""
        self._entries: dict[str, OptionEntry] = {e.name: e for e in schema}
        self._unknown: dict[str, OptionEntry] = {}

    def copy(self) -> GameOptions:
        other = GameOptions(())
        other._entries = dict(self._entries)
        other._unknown = dict(self._unknown)
        return other

    def __getitem__(self, name: str) -> int:
        value = self._entries[name].value
        assert isinstance(value, int)
        return value

    def flag(self, name: str) -> bool:
        return bool(self._entries[name].value)  # not through __getitem__: asked at every move

    def __contains__(self, name: object) -> bool:
        """Whether this rule system's options include ``name``."""
        return name in self._entries

    def entry(self, name: str) -> OptionEntry:
        return self._entries[name]

    def entries(self) -> tuple[OptionEntry, ...]:
        return tuple(self._entries.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameOptions) and self._entries == other._entries

    def __hash__(self) -> int:
        return hash(tuple(self._entries.values()))

    def set_value(self, name: str, value: int | str) -> OptionEntry:
        """Store a checked value and return the entry to announce."""
        entry = replace(self._entries[name], value=value)
        self._entries[name] = entry
        return entry

    def set_from_text(self, name: str, text: str, protocol: int = 1110) -> OptionEntry:
        """Apply ``SetGameOption name text`` checks in the original's order (§5.3), up to the manager check.

        ``End`` (and unknown-but-listed pseudo options) are accepted without effect:
        the caller sees the unchanged entry.
        """
        if name not in self._entries:
            raise OptionError("Trying to set unknown option")
        entry = self._entries[name]
        if name == END:
            return entry
        if entry.minprot > protocol or not entry.enabled:  # disabled by an option or save file
            raise OptionError("Option not available in this game")
        value = parse_value(entry.type, text)
        check_value(name, value, entry.allowed, entry.bounds)
        return replace(entry, value=value)

    def check_entry(self, entry: OptionEntry) -> None:
        """An option or save file's entry checked as a client's ``SetGameOption`` is (:class:`OptionError`).

        Entries for options this game does not have, or of another type, are left to
        :meth:`apply_entry`, which ignores them.
        """
        known = self._entries.get(entry.name)
        if known is not None and known.type is entry.type:
            check_value(entry.name, entry.value, known.allowed, known.bounds)

    def apply_entry(self, entry: OptionEntry) -> str | None:
        """Apply a ``GameOption`` line of an option or save file; returns a warning or None.

        The type must match the server's; a non-empty description replaces the
        server's text and the enabled flag is taken from the file (§5.5).
        """
        known = self._entries.get(entry.name)
        if known is None:
            self._unknown[entry.name] = entry
            return f"unknown option {entry.name} ignored"
        if known.type is not entry.type:
            return f"type clash for option {entry.name}; line ignored"
        self._entries[entry.name] = replace(
            known,
            enabled=entry.enabled,
            value=entry.value,
            description=entry.description or known.description,
        )
        return None


def split_score(value: int) -> tuple[int, int, int]:
    """A score value as (centi-limits, doubles, points) (§5.2)."""
    return value // LIMIT, (value // DOUBLE) % 100, value % DOUBLE
