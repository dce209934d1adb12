"""IMS scoring (the seed's "IMS Scoring System"): fan, bonus, the score, and its explanation.

Every fan and bonus element is one row of :data:`FAN_ELEMENTS` or :data:`BONUS_ELEMENTS`:
its name, its value each time it applies, and the test that says where it applies.
The explanation line of an element is printed from that same row, so the text cannot
drift from the arithmetic. A higher element names the lower ones it contains in
``replaces`` (One Pure Suit replaces One Mixed Suit), and only the higher is counted.

The scorer arranges the tiles itself: every reading of the concealed tiles as sets
and a pair (:func:`mj.hand.decompositions`), and the special patterns, each with the
declared sets; the arrangement scoring most for the winner is the hand's score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from mj import hand as analysis
from mj.hand.complete import seven_pairs_counts, standard_split, thirteen_wonders_counts
from mj.melds import Meld, MeldKind
from mj.rules.ims.options import COUNT_FLOWERS, MINIMUM_FAN, IMSOptions
from mj.rules.winhand import How, WinningHand
from mj.tiles import DRAGON, FLOWER, KINDS, NUM_KINDS, SUITS, WIND, Tile, code

#: The most fan a hand can have, and the value of the elements worth "max fan".
MAX_FAN: Final = 13


def score_of(fan: int, bonus: int) -> int:
    """The seed's formula: 2^fan + bonus up to 4 fan, fan² + bonus from 4 (both give 16 at 4)."""
    return 2**fan + bonus if fan <= 4 else fan * fan + bonus


class SetKind(Enum):
    PAIR = "pair"
    CONNECTION = "connection"
    TRIPLET = "triplet"
    QUADRUPLET = "quadruplet"


class Shape(Enum):
    """The winning pattern an arrangement reads the hand as."""

    NORMAL = "5 sets"
    SEVEN_PAIRS = "7 pairs"
    THIRTEEN_INDIVIDUALS = "13 individuals"
    THIRTEEN_ORPHANS = "13 orphans"


@dataclass(frozen=True, slots=True)
class TileSet:
    """One set of an arrangement. ``tile`` is a connection's lowest tile.

    ``revealed``: declared before the winning tile came (a concealed quadruplet too:
    the seed gives it "revealed status"). ``grabbed``: made with another player's
    tile, a discard or a robbed quadruplet's.
    """

    kind: SetKind
    tile: Tile
    revealed: bool
    grabbed: bool
    concealed_quadruplet: bool = False

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is SetKind.CONNECTION:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * _SIZE[self.kind]

    @property
    def has_triplet(self) -> bool:
        """A triplet or a quadruplet: what the seed's "triplet (or quadruplet)" elements count."""
        return self.kind is SetKind.TRIPLET or self.kind is SetKind.QUADRUPLET

    def __str__(self) -> str:
        hidden = self.concealed_quadruplet or not self.revealed
        return ("+" if hidden else "-").join(code(t) for t in self.tiles)


_SIZE: Final = {SetKind.PAIR: 2, SetKind.CONNECTION: 3, SetKind.TRIPLET: 3, SetKind.QUADRUPLET: 4}


class Arrangement:
    """One reading of a winning hand, and the facts about it that the elements test."""

    __slots__ = ("all_words", "hand", "has_words", "options", "sets", "shape", "suits")

    def __init__(self, hand: WinningHand, options: IMSOptions, shape: Shape, sets: tuple[TileSet, ...]) -> None:
        self.hand = hand
        self.options = options
        self.shape = shape
        self.sets = sets
        tiles = [t for s in sets for t in s.tiles] if sets else hand.concealed
        self.suits = frozenset(t - t % 10 for t in tiles if t < WIND)
        self.has_words = any(t > WIND for t in tiles)
        self.all_words = not self.suits

    def sets_of(self, kind: SetKind) -> list[TileSet]:
        return [s for s in self.sets if s.kind is kind]


# --- element tests: each returns one detail (what it applies to) per time the element applies ---------

_ONCE: Final = ("",)
_NONE: Final[tuple[str, ...]] = ()


def _once(test: Callable[[Arrangement], bool]) -> Callable[[Arrangement], Sequence[str]]:
    """An element that applies at most once, to the whole hand."""

    def matches(a: Arrangement) -> Sequence[str]:
        return _ONCE if test(a) else _NONE

    matches.__doc__ = test.__doc__
    return matches


def _triplets_of(wanted: Callable[[Arrangement, Tile], bool]) -> Callable[[Arrangement], Sequence[str]]:
    """An element that applies to each triplet or quadruplet of the ``wanted`` tiles."""

    def matches(a: Arrangement) -> Sequence[str]:
        return [str(s) for s in a.sets if s.has_triplet and wanted(a, s.tile)]

    return matches


def _quadruplets(a: Arrangement) -> Sequence[str]:
    return [str(s) for s in a.sets_of(SetKind.QUADRUPLET)]


def _all_connections(a: Arrangement) -> bool:
    return len(a.sets_of(SetKind.CONNECTION)) == 4


def _three_sisters(a: Arrangement) -> Sequence[str]:
    """Connections of the same values in all three suits (the detail names the values)."""
    lows = {s.tile for s in a.sets_of(SetKind.CONNECTION)}
    for rank in range(1, 8):
        if all(suit + rank in lows for suit in SUITS):
            return (f"{rank}-{rank + 1}-{rank + 2}",)
    return _NONE


def _snake(concealed_only: bool) -> Callable[[Arrangement], Sequence[str]]:
    """Connections 1-2-3, 4-5-6, 7-8-9 of one suit (with ``concealed_only``, none of them revealed)."""

    def matches(a: Arrangement) -> Sequence[str]:
        lows = {s.tile for s in a.sets_of(SetKind.CONNECTION) if not (concealed_only and s.revealed)}
        for suit in SUITS:
            if suit + 1 in lows and suit + 4 in lows and suit + 7 in lows:
                return (f"{code(suit + 1)}-{code(suit + 9)}",)
        return _NONE

    return matches


def _all_triplets(a: Arrangement) -> bool:
    return sum(1 for s in a.sets if s.has_triplet) == 4


def _pure_words(a: Arrangement) -> bool:
    return _all_triplets(a) and a.all_words


def _all_ones_and_nines(a: Arrangement) -> bool:
    """Every set of suit tiles (the pair too: the seed counts it a set) holds a 1 or a 9, and there is one."""
    suited = [s for s in a.sets if s.tile < WIND]
    return bool(suited) and all(any(t % 10 in (1, 9) for t in s.tiles) for s in suited)


def _one_mixed_suit(a: Arrangement) -> bool:
    return len(a.suits) == 1


def _one_pure_suit(a: Arrangement) -> bool:
    return len(a.suits) == 1 and not a.has_words


def _front_door_clean(a: Arrangement) -> bool:
    """No set revealed before the win; never for the special patterns (the seed says so)."""
    return a.shape is Shape.NORMAL and not any(s.revealed for s in a.sets)


def _all_grabs(a: Arrangement) -> bool:
    return a.shape is Shape.NORMAL and all(s.grabbed for s in a.sets)


def _won_by(how: How) -> Callable[[Arrangement], bool]:
    def test(a: Arrangement) -> bool:
        return a.hand.how is how

    test.__doc__ = f"The winning tile came by {how.value}."
    return test


def _shape_is(shape: Shape) -> Callable[[Arrangement], bool]:
    def test(a: Arrangement) -> bool:
        return a.shape is shape

    test.__doc__ = f"The hand is read as {shape.value}."
    return test


def _pure_seven_pairs(a: Arrangement) -> bool:
    """Seven pairs all of one suit, or all words."""
    return a.shape is Shape.SEVEN_PAIRS and (a.all_words or _one_pure_suit(a))


# --- bonus tests ------------------------------------------------------------------------------------


def _flowers(a: Arrangement) -> Sequence[str]:
    """Each flower and season (seasons count as flowers), when the table counts flowers."""
    return [code(t) for t in a.hand.flowers] if a.options.flag(COUNT_FLOWERS) else _NONE


def _concealed_quadruplets(a: Arrangement) -> Sequence[str]:
    return [str(s) for s in a.sets if s.concealed_quadruplet]


def _dealer(a: Arrangement) -> bool:
    """The winner is the dealer (East): the dealer's bonus goes to a winning dealer only."""
    return a.hand.is_dealer


# --- the element tables -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Element:
    """One fan or bonus element: ``value`` of ``unit`` each time ``matches`` finds it.

    ``matches`` returns one detail (the set it applies to, or "") per time it applies.
    ``replaces`` names the lower elements this one contains: they are not counted when it applies.
    """

    name: str
    value: int
    unit: str
    matches: Callable[[Arrangement], Sequence[str]]
    replaces: tuple[str, ...] = ()


def _fan(
    name: str, value: int, matches: Callable[[Arrangement], Sequence[str]], replaces: tuple[str, ...] = ()
) -> Element:
    return Element(name, value, "fan", matches, replaces)


def _bonus(name: str, value: int, matches: Callable[[Arrangement], Sequence[str]]) -> Element:
    return Element(name, value, "bonus", matches)


#: The fan elements in the seed's order, the special patterns last.
FAN_ELEMENTS: Final[tuple[Element, ...]] = (
    _fan("Seat Wind", 1, _triplets_of(lambda a, t: t == a.hand.seat_wind)),
    _fan("Round Wind", 1, _triplets_of(lambda a, t: t == a.hand.prevailing_wind)),
    _fan("Dragon", 1, _triplets_of(lambda a, t: DRAGON < t < FLOWER)),
    _fan("Quadruplet", 1, _quadruplets),
    _fan("All Connections", 1, _once(_all_connections)),
    _fan("3 Sisters", 1, _three_sisters),
    _fan("Revealed Snake", 2, _snake(concealed_only=False)),
    _fan("Concealed Snake", 3, _snake(concealed_only=True), replaces=("Revealed Snake",)),
    _fan("All Triplets", 3, _once(_all_triplets)),
    _fan("Pure Words", MAX_FAN, _once(_pure_words), replaces=("All Triplets",)),
    _fan("All 1&9", 2, _once(_all_ones_and_nines)),
    _fan("One Mixed Suit", 3, _once(_one_mixed_suit)),
    _fan("One Pure Suit", 6, _once(_one_pure_suit), replaces=("One Mixed Suit",)),
    _fan("Front Door Clean", 1, _once(_front_door_clean)),
    _fan("All Grabs", 1, _once(_all_grabs)),
    _fan("Rob Quadruplet", 1, _once(_won_by(How.ROBBED_KONG))),
    _fan("Win on Flower", 1, _once(_won_by(How.LOOSE_TILE))),
    _fan("7 Pairs", 5, _once(_shape_is(Shape.SEVEN_PAIRS))),
    _fan("Pure 7 Pairs", MAX_FAN, _once(_pure_seven_pairs), replaces=("7 Pairs", "One Pure Suit")),
    _fan("13 Individuals", 6, _once(_shape_is(Shape.THIRTEEN_INDIVIDUALS))),
    _fan("13 Orphans", MAX_FAN, _once(_shape_is(Shape.THIRTEEN_ORPHANS))),
)

#: The bonus elements in the seed's order.
BONUS_ELEMENTS: Final[tuple[Element, ...]] = (
    _bonus("Flowers", 1, _flowers),
    _bonus("Concealed Quadruplet", 2, _concealed_quadruplets),
    _bonus("Dealer", 5, _once(_dealer)),
)


@dataclass(frozen=True, slots=True)
class Line:
    """What one element adds to a hand, and the line explaining it."""

    name: str
    value: int
    unit: str
    details: tuple[str, ...]

    @property
    def value_text(self) -> str:
        return f"{self.value} {self.unit}"

    @property
    def text(self) -> str:
        shown = ", ".join(d for d in self.details if d)
        return f"{self.name:<21} {self.value:2d} {self.unit}" + (f"  ({shown})" if shown else "")


def _lines(elements: Sequence[Element], a: Arrangement) -> list[Line]:
    found = []
    for element in elements:
        details = element.matches(a)
        if details:
            found.append((element, Line(element.name, element.value * len(details), element.unit, tuple(details))))
    replaced = {name for element, _ in found for name in element.replaces}
    return [line for element, line in found if element.name not in replaced]


@dataclass(frozen=True, slots=True)
class IMSScore:
    """A winning hand's IMS score, or why it may not go out.

    ``fan`` is capped at :data:`MAX_FAN`; ``allowed`` is false below the Minimum Fan
    (then ``reason`` says so) and for tiles that make no winning pattern (then there
    are no lines).
    """

    allowed: bool
    reason: str
    shape: Shape | None
    fan_lines: tuple[Line, ...]
    bonus_lines: tuple[Line, ...]
    fan: int
    bonus: int
    score: int

    @property
    def text(self) -> str:
        """The readable explanation: each element, the totals, the formula."""
        if self.shape is None:
            return f"not allowed: {self.reason}"
        lines = [line.text for line in self.fan_lines]
        raw = sum(line.value for line in self.fan_lines)
        capped = f"  (max {MAX_FAN}, of {raw})" if raw > self.fan else ""
        lines.append(f"{'fan':<21} {self.fan:2d}{capped}")
        lines.extend(line.text for line in self.bonus_lines)
        lines.append(f"{'bonus':<21} {self.bonus:2d}")
        formula = f"2^{self.fan}" if self.fan <= 4 else f"{self.fan}^2"
        lines.append(f"{'score':<21} {self.score:2d}  ({formula} + {self.bonus})")
        if not self.allowed:
            lines.append(f"not allowed: {self.reason}")
        return "\n".join(lines)


def arrangements(hand: WinningHand, options: IMSOptions) -> list[Arrangement]:
    """Every reading of ``hand`` as a winning pattern (none when it is not complete)."""
    declared = tuple(_declared(hand))
    found = []
    fed = hand.how.fed
    for reading in analysis.decompositions(list(hand.concealed), len(declared)):
        formed = [
            (SetKind.PAIR, reading.pair),
            *((SetKind.TRIPLET, t) for t in reading.pungs),
            *((SetKind.CONNECTION, t) for t in reading.chows),
        ]
        # A fed tile is grabbed into one of the sets it can complete: each choice is a reading.
        holders = sorted({i for i, (kind, t) in enumerate(formed) if hand.winning_tile in _tiles(kind, t)})
        for grabbed in holders if fed else [-1]:
            sets = declared + tuple(TileSet(kind, t, False, i == grabbed) for i, (kind, t) in enumerate(formed))
            found.append(Arrangement(hand, options, Shape.NORMAL, sets))
    if not declared:
        held = analysis.counts(hand.concealed)
        if all(n % 2 == 0 for n in held):
            pairs = tuple(
                TileSet(SetKind.PAIR, KINDS[i], False, fed and KINDS[i] == hand.winning_tile)
                for i, n in enumerate(held)
                for _ in range(n // 2)
            )
            found.append(Arrangement(hand, options, Shape.SEVEN_PAIRS, pairs))
        if _thirteen_individuals(held):
            found.append(Arrangement(hand, options, Shape.THIRTEEN_INDIVIDUALS, ()))
        if thirteen_wonders_counts(held):
            found.append(Arrangement(hand, options, Shape.THIRTEEN_ORPHANS, ()))
    return found


def _tiles(kind: SetKind, tile: Tile) -> tuple[Tile, ...]:
    return (tile, tile + 1, tile + 2) if kind is SetKind.CONNECTION else (tile,)


def _declared(hand: WinningHand) -> list[TileSet]:
    """The sets declared before the win: all revealed; all grabbed but a concealed quadruplet."""
    sets = []
    for meld in hand.exposed:
        if meld.kind is MeldKind.CHOW:
            sets.append(TileSet(SetKind.CONNECTION, meld.tile, True, True))
        elif meld.kind is MeldKind.PUNG:
            sets.append(TileSet(SetKind.TRIPLET, meld.tile, True, True))
        else:
            sets.append(TileSet(SetKind.QUADRUPLET, meld.tile, True, not meld.concealed, meld.concealed))
    return sets


def completing_kinds(held: Sequence[int], declared_sets: int) -> frozenset[int]:
    """The kinds (count-vector indices) whose tile completes a winning pattern with ``held``, fan aside.

    What :func:`is_winning_pattern` says of each kind added, worked out at once: the
    waits of 4 sets and a pair, 7 Pairs and 13 Orphans, which are Chinese Classical's
    patterns (:func:`mj.hand.wait_indices`), and 13 Individuals tried kind by kind where
    the hand could be one tile short of it (at least four word tiles, none held thrice,
    and twelve kinds or more: the pattern has thirteen).
    """
    found = set(analysis.wait_indices(held, declared_sets, True))
    if not declared_sets and sum(held[27:]) >= 4 and max(held) <= 2 and NUM_KINDS - held.count(0) >= 12:
        vector = list(held)
        for index in range(NUM_KINDS):
            vector[index] += 1
            if _thirteen_individuals(vector):
                found.add(index)
            vector[index] -= 1
    return frozenset(found)


def _thirteen_individuals(held: Sequence[int]) -> bool:
    """1-4-7, 2-5-8 and 3-6-9 in three different suits, three single words and a pair of a fourth word."""
    if len(held) != NUM_KINDS or sum(held[27:]) != 5:  # the quick test first: 3 single words and a pair
        return False
    suits = [tuple(held[s : s + 9]) for s in (0, 9, 18)]
    if sorted(suits) != _INDIVIDUAL_SUITS:
        return False
    return sorted(held[27:]) == [0, 0, 0, 1, 1, 1, 2]


#: The three suits of 13 Individuals, as sorted rank patterns: 3-6-9, 2-5-8, 1-4-7.
_INDIVIDUAL_SUITS: Final = sorted(tuple(1 if r % 3 == low % 3 else 0 for r in range(9)) for low in (0, 1, 2))


def score(hand: WinningHand, options: IMSOptions) -> IMSScore:
    """Score ``hand`` (checked by :func:`mj.rules.winhand.check`) under the IMS ``options``."""
    best: IMSScore | None = None
    for arrangement in arrangements(hand, options):
        fan_lines = _lines(FAN_ELEMENTS, arrangement)
        bonus_lines = _lines(BONUS_ELEMENTS, arrangement)
        fan = min(sum(line.value for line in fan_lines), MAX_FAN)
        bonus = sum(line.value for line in bonus_lines)
        points = score_of(fan, bonus)
        if best is None or (points, fan) > (best.score, best.fan):
            minimum = options[MINIMUM_FAN]
            allowed = fan >= minimum
            reason = "" if allowed else f"{fan} fan is below the table's Minimum Fan of {minimum}"
            best = IMSScore(
                allowed, reason, arrangement.shape, tuple(fan_lines), tuple(bonus_lines), fan, bonus, points
            )
    if best is None:
        return IMSScore(
            False,
            "not a winning pattern: the tiles make neither 4 sets and a pair, 7 Pairs, 13 Individuals nor 13 Orphans",
            None,
            (),
            (),
            0,
            0,
            0,
        )
    return best


def completes(melds: Sequence[Meld], concealed: Sequence[Tile]) -> bool:
    """Whether declared ``melds`` and ``concealed`` make a winning pattern, fan aside."""
    return is_winning_pattern(concealed, declared_sets(melds))


def declared_sets(melds: Sequence[Meld]) -> int:
    """How many of the patterns' sets ``melds`` already make: every declared set but a pair."""
    sets = 0
    for meld in melds:
        if meld.kind is not MeldKind.PAIR:
            sets += 1
    return sets


def is_winning_pattern(concealed: Sequence[Tile], declared_sets: int) -> bool:
    """Whether the concealed tiles complete a pattern with ``declared_sets`` sets, fan aside.

    The quick test that comes before :func:`score` (which also weighs the Minimum Fan):
    4 sets and a pair, or, with nothing declared, 7 Pairs, 13 Orphans or 13 Individuals.
    """
    held = analysis.counts(concealed)
    if standard_split(held, 4 - declared_sets, True):
        return True
    if declared_sets:
        return False
    return seven_pairs_counts(held) or thirteen_wonders_counts(held) or _thirteen_individuals(held)
