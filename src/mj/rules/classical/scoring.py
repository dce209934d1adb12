"""HandScore: the score of one seat's hand and the original's explanation text (protocol.md §9.2-§9.5).

The scoring is a list of *elements* evaluated in the original's order (§9.3). Every
element is one row of :data:`ELEMENTS`: its reason text, its left label, its value
(a fixed encoded score or the name of the game option holding it) and the test that
decides whether it applies. The explanation line is printed from the same row that
computes the value, so the text cannot drift from the arithmetic.

All values are encoded scores (§5.2, ``limits*1000000 + doubles*10000 + points``) and
go through one generic rule (§9.4): that is how an option set to points, doubles or
a limit lands in the right list, exactly as in the original.

The hot path (``python -m mj.bench.score``) analyses the hand once into a
:class:`HandFacts` and then runs the table; the tests need nothing but strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from mj.hand import waits
from mj.melds import KongOrigin, Meld, MeldKind
from mj.rules.classical.facts import SeatHand, Win, WinSource
from mj.rules.options import DOUBLE, LIMIT, SCORE_CAP, GameOptions
from mj.tiles import (
    BAMBOO,
    BLANK,
    CHARACTER,
    CIRCLE,
    DRAGON,
    GREEN_TILES,
    KINDS,
    SEASON,
    WIND,
    Tile,
    is_honour,
    is_suited,
    kind_index,
)

#: A limit hand is worth exactly one limit (100 centi-limits).
ONE_LIMIT: Final = 100 * LIMIT
_FLOWER_BASE: Final = 60


@dataclass(frozen=True, slots=True)
class HandScore:
    """A hand's score and the explanation text sent in ``HandScore`` (no trailing newline)."""

    score: int
    text: str


class Who(Enum):
    """Which hands an element is evaluated for."""

    ANY = "any hand"
    WINNER = "the winner only"
    #: The winner, or any hand when the LosersPurity option is set.
    PURITY = "the winner, or any hand with LosersPurity"


class HandFacts:
    """Everything the elements test, derived from the declared hand in one pass.

    Computing the counts once (instead of every element re-scanning the melds) is
    what keeps scoring fast enough for the benchmark target.
    """

    __slots__ = (
        "blanks",
        "chows",
        "concealed_pungs",
        "dragon_pairs",
        "dragon_sets",
        "exposed_before_win",
        "fully_concealed",
        "green_only",
        "hand",
        "has_honour",
        "has_minor",
        "has_suit",
        "has_terminal",
        "kongs",
        "no_score",
        "one_suit",
        "options",
        "pairs",
        "pungs",
        "source",
        "special",
        "tile",
        "win",
        "wind_pairs",
        "wind_sets",
        "winner_or_purity",
    )

    hand: SeatHand
    win: Win | None
    options: GameOptions
    chows: int
    pairs: int
    pungs: int
    kongs: int
    concealed_pungs: int
    dragon_sets: int
    wind_sets: int
    dragon_pairs: int
    wind_pairs: int
    special: bool
    no_score: bool
    exposed_before_win: int
    has_honour: bool
    has_suit: bool
    has_terminal: bool
    has_minor: bool
    one_suit: bool
    green_only: bool
    blanks: bool
    tile: Tile
    source: WinSource | None
    fully_concealed: bool
    winner_or_purity: bool

    def __init__(self, hand: SeatHand, win: Win | None, options: GameOptions) -> None:
        self.hand = hand
        self.win = win
        self.options = options
        kong3 = options["KongHas3Types"] != 0
        own = hand.own_wind
        prevailing = hand.prevailing_wind
        before_win = win.melds_before_win if win is not None else len(hand.melds)
        chows = pairs = pungs = kongs = concealed_pungs = 0
        dragon_sets = wind_sets = dragon_pairs = wind_pairs = 0
        exposed = exposed_before_win = 0
        scoring = False
        special = False
        families = 0
        flags = _FLAGS
        for tile in hand.concealed:
            families |= flags.get(tile, 0)
        for n, meld in enumerate(hand.melds):
            kind = meld.kind
            tile = meld.tile
            # A claimed kong counts as concealed for doubling with KongHas3Types (§9.3).
            if not (meld.concealed or (kong3 and meld.kong_origin is KongOrigin.CLAIMED)):
                exposed += 1
                if n < before_win:
                    exposed_before_win += 1
                hidden = False
            else:
                hidden = True
            if kind is MeldKind.CHOW:
                chows += 1
                families |= _CHOW_FLAGS[tile]
                continue
            if kind is MeldKind.SPECIAL:
                special = True
                for t in meld.special_tiles:
                    families |= flags[t]
                continue
            families |= flags[tile]
            if kind is MeldKind.PAIR:
                pairs += 1
                if tile > DRAGON:
                    dragon_pairs += 1
                    scoring = True
                elif tile > WIND:
                    wind_pairs += 1
                    scoring = scoring or tile in (own, prevailing)
            else:
                scoring = True
                pungs += 1
                if kind is MeldKind.KONG:
                    kongs += 1
                if hidden:
                    concealed_pungs += 1
                if tile > DRAGON:
                    dragon_sets += 1
                elif tile > WIND:
                    wind_sets += 1
        self.chows = chows
        self.pairs = pairs
        self.pungs = pungs
        self.kongs = kongs
        self.concealed_pungs = concealed_pungs
        self.dragon_sets = dragon_sets
        self.wind_sets = wind_sets
        self.dragon_pairs = dragon_pairs
        self.wind_pairs = wind_pairs
        self.special = special
        self.no_score = not scoring and pairs != 7
        self.exposed_before_win = exposed_before_win
        self.has_honour = bool(families & _HONOUR)
        self.has_suit = bool(families & _SUIT_BITS)
        self.has_terminal = bool(families & _TERMINAL)
        self.has_minor = bool(families & _MINOR)
        self.one_suit = (families & _SUIT_BITS) in _ONE_SUIT
        self.green_only = not families & _NOT_GREEN
        self.blanks = bool(families & _BLANK_SUIT)
        if win is None:
            self.tile = BLANK
            self.source = None
            self.fully_concealed = False
            self.winner_or_purity = options["LosersPurity"] != 0
        else:
            if win.heavens_blessing:
                # East going out on the dealt hand has no winning tile: the original
                # announces it as "PlayerMahJongs <id> --" and scores it like a win on a
                # discard of that blank, i.e. not from the wall and not fully concealed
                # (verified against mj-server: no "winning from wall", no "concealed
                # hand", no Buried Treasure; "filling the only place" is awarded).
                self.tile = BLANK
                self.source = WinSource.DISCARD
            else:
                self.tile = win.tile
                self.source = win.source
            # The set made with a winning discard is exposed, so it already counts here.
            self.fully_concealed = exposed == 0 and self.source is not WinSource.DISCARD
            self.winner_or_purity = True


# Tile families as bits, so that a hand's families are the OR over its tiles.
_HONOUR: Final = 1
_TERMINAL: Final = 2
_MINOR: Final = 4
_NOT_GREEN: Final = 8
_SUIT_OF: Final = {BAMBOO: 16, CHARACTER: 32, CIRCLE: 64, BLANK: 128}
_BLANK_SUIT: Final = _SUIT_OF[BLANK]
_SUIT_BITS: Final = 16 | 32 | 64 | 128
_ONE_SUIT: Final = frozenset(_SUIT_OF.values())


def _families(tile: Tile) -> int:
    """The family bits of one tile.

    The blank tile "--" (value 0, only met in the original's all-blank first hand of a
    --wallfile game) is its own "suit", neither terminal nor minor, and passes the
    green test: the scenario logs show that hand scoring "one suit only" and Imperial
    Jade but not "all majors".
    """
    if tile == BLANK:
        return _BLANK_SUIT
    bits = 0 if tile in GREEN_TILES else _NOT_GREEN
    if is_honour(tile):
        return bits | _HONOUR
    return bits | _SUIT_OF[tile - tile % 10] | (_TERMINAL if tile % 10 in (1, 9) else _MINOR)


_FLAGS: Final = {tile: _families(tile) for tile in (BLANK, *KINDS)}
_CHOW_FLAGS: Final = {
    tile: _FLAGS[tile] | _FLAGS[tile + 1] | _FLAGS[tile + 2] for tile in KINDS if is_suited(tile) and tile % 10 <= 7
}


# --- element tests ------------------------------------------------------------------------
# Each test receives the hand's facts; ``Who`` has already been checked by the caller.


def _from_live_wall(f: HandFacts) -> bool:
    return f.source is WinSource.WALL


def _fishing_the_eyes(f: HandFacts) -> bool:
    """The only pair is of the winning tile, and that tile completed the pair.

    On a discard (or robbed kong) this needs the pair to have been made with the
    claimed tile, i.e. the pair is exposed; from the wall or a loose tile any pair of
    the winning tile qualifies (the drawer chooses how to arrange the hand).
    """
    if f.pairs != 1:
        return False
    tile = f.tile
    pair = next(m for m in f.hand.melds if m.kind is MeldKind.PAIR)
    if pair.tile != tile:
        return False
    return f.source in (WinSource.WALL, WinSource.LOOSE) or not pair.concealed


def _fishing_value(f: HandFacts) -> int:
    return 4 if _is_major(f.tile) else 2


def _filling_the_only_place(f: HandFacts) -> bool:
    """No tile kind but the winning one could have completed the hand just before it arrived.

    Kinds whose four copies were all on the table do not count (§9.3 item 7). Seven
    pairs and Thirteen Unique Wonders never get it (the no-limit scenario log shows no
    line for a single-wait Thirteen Unique Wonders), nor does the all-blank hand of the
    original's first wallfile hand (scenario logs). A Heaven's Blessing has no winning
    tile, so nothing else "could have completed" the 14 dealt tiles: mj-server awards it.
    """
    win = f.win
    if win is None or f.pairs == 7 or f.special or f.blanks:
        return False
    tile = f.tile
    if tile == BLANK:
        return True
    formed = f.hand.melds[win.melds_before_win :]
    if _obvious_second_wait(formed, tile, win.visible):
        return False
    before = list(f.hand.concealed)
    for meld in formed:
        if meld.kind is MeldKind.CHOW:
            before += (meld.tile, meld.tile + 1, meld.tile + 2)
        else:
            before += (meld.tile,) * _SIZES[meld.kind]
    before.remove(tile)
    visible = win.visible
    return all(kind == tile or visible[kind_index(kind)] >= 4 for kind in waits(before, win.melds_before_win, False))


def _obvious_second_wait(formed: Sequence[Meld], tile: Tile, visible: Sequence[int]) -> bool:
    """A quick proof that another kind also completed the hand, sparing the wait analysis.

    Any set formed after the winning tile arrived that contains it gives a
    decomposition of the hand before it: an open-ended chow (4-5 waiting on 3 or 6)
    or a pung beside a pair (waiting on either) then shows a second completing kind.
    Most winning hands are settled here; the rest go to :func:`mj.hand.waits`.
    """
    for meld in formed:
        kind = meld.kind
        low = meld.tile
        if kind is MeldKind.CHOW:
            if tile == low and low % 10 <= 6:
                other = low + 3
            elif tile == low + 2 and low % 10 >= 2:
                other = low - 1
            else:
                continue
            if visible[kind_index(other)] < 4:
                return True
        elif kind is MeldKind.PUNG and low == tile:
            for pair in formed:
                if pair.kind is MeldKind.PAIR and visible[kind_index(pair.tile)] < 4:
                    return True
    return False


#: Tiles in a declared pung, kong or pair (chows are expanded, special sets never reach here).
_SIZES: Final = {MeldKind.PUNG: 3, MeldKind.KONG: 4, MeldKind.PAIR: 2}


def _set_string(meld: Meld) -> str:
    """``str(meld)``, memoised by tile and notation (hashing a Meld costs more than printing it)."""
    kind = meld.kind
    if kind is MeldKind.KONG:
        variant = 3 if meld.concealed else 4 if meld.kong_origin is KongOrigin.CLAIMED else 5
    else:
        variant = 1 if kind is MeldKind.PUNG else 0
        if meld.concealed:
            variant += 6
    key = meld.tile * 16 + variant
    text = _SET_STRINGS.get(key)
    if text is None:
        text = _SET_STRINGS[key] = str(meld)
    return text


#: Set strings by ``tile * 16 + notation variant`` (pungs, kongs and pairs only).
_SET_STRINGS: dict[int, str] = {}


def _specials_label(f: HandFacts) -> str:
    n = len(f.hand.specials)
    return f"{n} special" if n == 1 else f"{n} specials"


def _has_special(f: HandFacts, tile: Tile) -> bool:
    return tile in f.hand.specials


def _own_flower(f: HandFacts) -> bool:
    return _has_special(f, _FLOWER_BASE + f.hand.own_wind - WIND)


def _own_season(f: HandFacts) -> bool:
    return _has_special(f, SEASON + f.hand.own_wind - WIND)


def _all_of(f: HandFacts, base: int) -> bool:
    specials = f.hand.specials
    return all(base + n in specials for n in range(1, 5))


def _all_honours(f: HandFacts) -> bool:
    return f.has_honour and not f.has_suit


def _all_terminals(f: HandFacts) -> bool:
    return f.has_terminal and not f.has_honour and not f.has_minor


def _all_majors(f: HandFacts) -> bool:
    return (f.has_honour or f.has_terminal) and not f.has_minor


def _one_suit_only(f: HandFacts) -> bool:
    return f.one_suit and not f.has_honour


def _one_suit_with_honours(f: HandFacts) -> bool:
    return f.one_suit and f.has_honour


def _almost_concealed(f: HandFacts) -> bool:
    """Concealed up to the winning tile; for a loser (LosersPurity) simply no exposed set."""
    return not f.fully_concealed and f.exposed_before_win == 0


def _won_by(source: WinSource) -> Callable[[HandFacts], bool]:
    def test(f: HandFacts) -> bool:
        return f.source is source

    test.__doc__ = f"The winning tile came from: {source.value}."
    return test


def _last_tile(f: HandFacts) -> bool:
    return f.win is not None and f.win.last_tile


def _original_call(f: HandFacts) -> bool:
    return f.win is not None and f.win.original_call


def _heavens_blessing(f: HandFacts) -> bool:
    return f.win is not None and f.win.heavens_blessing


def _earths_blessing(f: HandFacts) -> bool:
    return f.win is not None and f.win.earths_blessing


def _plum_blossom(f: HandFacts) -> bool:
    return f.source is WinSource.LOOSE and f.tile == CIRCLE + 5


def _moon(f: HandFacts) -> bool:
    """1D as the last tile of the live wall; the original requires a wall draw (not a discard)."""
    return _last_tile(f) and f.source is WinSource.WALL and f.tile == CIRCLE + 1


def _carrying_pole(f: HandFacts) -> bool:
    return f.source is WinSource.ROBBED_KONG and f.tile == BAMBOO + 2


def _kong_upon_kong(f: HandFacts) -> bool:
    return f.win is not None and f.win.kong_upon_kong


def _buried_treasure(f: HandFacts) -> bool:
    return f.fully_concealed and f.chows == 0 and f.pungs == 4


def _east_13th(f: HandFacts) -> bool:
    return f.win is not None and f.win.winner_is_east and f.win.hands_as_east == 12


def _nine_gates(f: HandFacts) -> bool:
    """One suit, and before the winning tile the concealed hand was 1112345678999."""
    win = f.win
    if win is None or not _one_suit_only(f) or win.melds_before_win != 0:
        return False
    tiles = list(f.hand.concealed)
    for meld in f.hand.melds:
        tiles.extend(meld.tiles)
    if win.tile not in tiles:
        return False
    tiles.remove(win.tile)
    base = win.tile - win.tile % 10
    return sorted(t - base for t in tiles) == _NINE_GATES


_NINE_GATES: Final = [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9]


def _wriggling_snake(f: HandFacts) -> bool:
    """One suit: pungs/kongs of 1 and 9, plus pair 2 & chows 3,6 / pair 5 & chows 2,6 / pair 8 & chows 2,5."""
    if not _one_suit_only(f) or f.pungs != 2 or f.chows != 2 or f.pairs != 1:
        return False
    melds = f.hand.melds
    base = melds[0].tile - melds[0].tile % 10
    ranks = {m.tile - base for m in melds if m.is_pung_or_kong}
    pair = next(m.tile - base for m in melds if m.kind is MeldKind.PAIR)
    chows = sorted(m.tile - base for m in melds if m.kind is MeldKind.CHOW)
    return ranks == {1, 9} and _SNAKE_SHAPES.get(pair) == chows


#: Wriggling Snake: the pair's rank → the lowest ranks of the two chows.
_SNAKE_SHAPES: Final = {2: [3, 6], 5: [2, 6], 8: [2, 5]}


def _is_major(tile: Tile) -> bool:
    return tile > WIND or tile % 10 in (1, 9)


# --- the element table -----------------------------------------------------------------------


def _set_row(points: int, stem: str) -> tuple[tuple[int, str], tuple[int, str]]:
    """Per-set points (§9.3 item 2): (points, reason) for minors and for majors (double)."""
    return (points, f"{stem} of minors"), (2 * points, f"{stem} of majors")


OPEN_PUNG: Final = _set_row(2, "open pung")
CLOSED_PUNG: Final = _set_row(4, "closed pung")
OPEN_KONG: Final = _set_row(8, "open kong")
#: With KongHas3Types exposed kongs say how they were made (same points as open kongs).
CLAIMED_KONG: Final = _set_row(8, "claimed kong")
ANNEXED_KONG: Final = _set_row(8, "annexed kong")
CLOSED_KONG: Final = _set_row(16, "closed kong")

#: Pair points (§9.3 item 2): a dragon pair, own wind, prevailing wind, or both.
PAIR_OF_DRAGONS: Final = (2, "pair of dragons")
PAIR_OF_OWN_WIND: Final = (2, "pair of own wind")
PAIR_OF_PREVAILING_WIND: Final = (2, "pair of prevailing wind")
PAIR_OF_OWN_AND_PREVAILING: Final = (4, "pair of own and prevailing wind")

#: Set doubles (§9.3 item 8): one double each, a set of both winds gets both lines.
SET_OF_DRAGONS: Final = (DOUBLE, "pung/kong of dragons")
SET_OF_OWN_WIND: Final = (DOUBLE, "pung/kong of own wind")
SET_OF_PREVAILING_WIND: Final = (DOUBLE, "pung/kong of prevailing wind")


class _Tally:
    """The three explanation lists and the running totals of the generic rule (§9.4)."""

    __slots__ = ("clims", "dbls", "doubles", "limit", "limits", "nolimit", "points", "pts")

    def __init__(self, nolimit: bool, limit: int) -> None:
        self.nolimit = nolimit
        self.limit = limit
        self.points: list[str] = []
        self.doubles: list[str] = []
        self.limits: list[str] = []
        self.pts = 0
        self.dbls = 0
        self.clims = 0

    def add(self, label: str, value: int, reason: str) -> None:
        """The generic rule: an encoded value adds points, doubles or a limit line."""
        clims = value // LIMIT
        dbls = (value // DOUBLE) % 100
        pts = value % DOUBLE
        if clims == 0 or self.nolimit:
            if pts > 0:
                self.pts += pts
                self.points.append(f"{label:<12} {pts:2d} ({reason})")
            if dbls > 0:
                self.dbls += dbls
                self.doubles.append(f"{label:<12}  {dbls:1d} dbl ({reason})")
        if clims > 0 and not (self.nolimit and pts + dbls > 0):
            worth = clims * self.limit // 100
            if clims == 100:
                self.limits.append(f"{'Limit Hand':<10} {worth:4d} ({reason})")
            else:
                self.limits.append(f"{clims / 100:4g} Limit {worth:4d} ({reason})")
            self.clims = max(self.clims, clims)


class Element:
    """One scoring element: reason text, label, value, who may get it and when.

    ``value`` is a fixed encoded score, the name of the game option that holds it, or
    a function of the hand (fishing the eyes depends on the pair). ``label`` is the
    left column, or a function of the hand (the flower count).
    """

    __slots__ = ("applies", "label", "reason", "special", "value", "who")

    def __init__(
        self,
        reason: str,
        applies: Callable[[HandFacts], bool],
        value: int | str | Callable[[HandFacts], int],
        *,
        who: Who = Who.WINNER,
        label: str | Callable[[HandFacts], str] = "",
        special: bool = False,
    ) -> None:
        self.reason = reason
        self.applies = applies
        self.value = value
        self.who = who
        self.label = label
        #: Flowers and seasons: suppressed by ``--no-special-scores``.
        self.special = special

    def score(self, f: HandFacts, tally: _Tally) -> None:
        value = self.value
        if isinstance(value, str):
            value = f.options[value]
        elif not isinstance(value, int):
            value = value(f)
        label = self.label if isinstance(self.label, str) else self.label(f)
        tally.add(label, value, self.reason)


class SetPoints:
    """§9.3 item 2: points for each declared pung, kong and scoring pair, in formation order.

    The values and reasons are the ``*_PUNG``, ``*_KONG`` and ``PAIR_OF_*`` rows.
    """

    __slots__ = ()
    who: Final = Who.ANY
    special: Final = False

    def applies(self, f: HandFacts) -> bool:
        return bool(f.hand.melds)

    def score(self, f: HandFacts, tally: _Tally) -> None:
        own = f.hand.own_wind
        prevailing = f.hand.prevailing_wind
        kong3 = f.options["KongHas3Types"] != 0
        for meld in f.hand.melds:
            kind = meld.kind
            tile = meld.tile
            if kind is MeldKind.PAIR:
                if tile > DRAGON:
                    points, reason = PAIR_OF_DRAGONS
                elif tile == own == prevailing:
                    points, reason = PAIR_OF_OWN_AND_PREVAILING
                elif tile == own:
                    points, reason = PAIR_OF_OWN_WIND
                elif tile == prevailing:
                    points, reason = PAIR_OF_PREVAILING_WIND
                else:
                    continue
                tally.add(_set_string(meld), points, reason)
            elif kind is MeldKind.PUNG:
                row = CLOSED_PUNG if meld.concealed else OPEN_PUNG
                tally.add(_set_string(meld), *row[_is_major(tile)])
            elif kind is MeldKind.KONG:
                if meld.concealed:
                    row = CLOSED_KONG
                elif not kong3:
                    row = OPEN_KONG
                else:
                    row = CLAIMED_KONG if meld.kong_origin is KongOrigin.CLAIMED else ANNEXED_KONG
                tally.add(_set_string(meld), *row[_is_major(tile)])


class SetDoubles:
    """§9.3 item 8: a double for each pung/kong of dragons, own wind, prevailing wind (``SET_OF_*``)."""

    __slots__ = ()
    who: Final = Who.ANY
    special: Final = False

    def applies(self, f: HandFacts) -> bool:
        return f.dragon_sets + f.wind_sets > 0

    def score(self, f: HandFacts, tally: _Tally) -> None:
        own = f.hand.own_wind
        prevailing = f.hand.prevailing_wind
        for meld in f.hand.melds:
            kind = meld.kind
            if kind is not MeldKind.PUNG and kind is not MeldKind.KONG:
                continue
            tile = meld.tile
            if tile > DRAGON:
                tally.add(_set_string(meld), *SET_OF_DRAGONS)
                continue
            if tile == own:
                tally.add(_set_string(meld), *SET_OF_OWN_WIND)
            if tile == prevailing:
                tally.add(_set_string(meld), *SET_OF_PREVAILING_WIND)


def _limit(reason: str, applies: Callable[[HandFacts], bool]) -> Element:
    """A limit hand of the limit list: winner only, worth one limit."""
    return Element(reason, applies, ONE_LIMIT)


#: Every element in the order the original evaluates and prints them (§9.3).
ELEMENTS: Final[tuple[Element | SetPoints | SetDoubles, ...]] = (
    # Points list.
    Element("going Mah Jong", lambda f: True, "MahJongScore", label="basic"),
    SetPoints(),
    Element("seven pairs", lambda f: f.pairs == 7, "SevenPairsVal", who=Who.ANY, label="basic points"),
    Element(
        "flowers and seasons",
        lambda f: bool(f.hand.specials),
        lambda f: 4 * len(f.hand.specials),
        who=Who.ANY,
        label=_specials_label,
        special=True,
    ),
    Element("winning from wall", _from_live_wall, 2, label="extra"),
    Element("fishing the eyes", _fishing_the_eyes, _fishing_value, label="extra"),
    Element("filling the only place", _filling_the_only_place, 2, label="extra"),
    # Doubles list.
    SetDoubles(),
    Element("own flower", _own_flower, "FlowersOwnEach", who=Who.ANY, special=True),
    Element("own season", _own_season, "FlowersOwnEach", who=Who.ANY, special=True),
    Element(
        "own flower and season",
        lambda f: _own_flower(f) and _own_season(f),
        "FlowersOwnBoth",
        who=Who.ANY,
        special=True,
    ),
    Element("all four flowers", lambda f: _all_of(f, _FLOWER_BASE), "FlowersBouquet", who=Who.ANY, special=True),
    Element("all four seasons", lambda f: _all_of(f, SEASON), "FlowersBouquet", who=Who.ANY, special=True),
    Element("Big Three Dragons", lambda f: f.dragon_sets == 3, 2 * DOUBLE, who=Who.ANY),
    Element(
        "Little Three Dragons",
        lambda f: f.dragon_sets == 2 and f.dragon_pairs > 0,
        DOUBLE,
        who=Who.ANY,
    ),
    Element("Big Four Joys", lambda f: f.wind_sets == 4, 2 * DOUBLE, who=Who.ANY),
    Element("Little Four Joys", lambda f: f.wind_sets == 3 and f.wind_pairs > 0, DOUBLE, who=Who.ANY),
    Element("three concealed pungs", lambda f: f.concealed_pungs >= 3, DOUBLE, who=Who.ANY),
    Element("no chows", lambda f: f.chows == 0 and f.pairs == 1, DOUBLE),
    Element("no score hand", lambda f: f.no_score, DOUBLE),
    Element("all honours", _all_honours, 2 * DOUBLE, who=Who.PURITY),
    Element("all terminals", _all_terminals, 2 * DOUBLE, who=Who.PURITY),
    Element("all majors", _all_majors, DOUBLE, who=Who.PURITY),
    Element("concealed hand", lambda f: f.fully_concealed, "ConcealedFully"),
    Element("almost concealed hand", _almost_concealed, "ConcealedAlmost", who=Who.PURITY),
    Element("one suit only", _one_suit_only, 3 * DOUBLE, who=Who.PURITY),
    Element("one suit with honours", _one_suit_with_honours, DOUBLE, who=Who.PURITY),
    Element("winning with loose tile", _won_by(WinSource.LOOSE), DOUBLE),
    Element("winning with last tile", _last_tile, DOUBLE),
    Element("robbing a kong", _won_by(WinSource.ROBBED_KONG), DOUBLE),
    Element("completing Original Call", _original_call, DOUBLE),
    # Limit list (winner only).
    _limit("Heaven's Blessing", _heavens_blessing),
    _limit("Earth's Blessing", _earths_blessing),
    _limit("Gathering Plum Blossom from the Roof", _plum_blossom),
    _limit("Catching the Moon from the Bottom of the Sea", _moon),
    _limit("Scratching a Carrying Pole", _carrying_pole),
    _limit("Kong upon Kong", _kong_upon_kong),
    _limit("Fourfold Plenty", lambda f: f.kongs == 4),
    _limit("Buried Treasure", _buried_treasure),
    _limit("Thirteen Unique Wonders", lambda f: f.special),
    _limit("Three Great Scholars", lambda f: f.dragon_sets == 3 and f.chows == 0),
    _limit("Four Blessing o'er the Door", lambda f: f.wind_sets == 4),
    _limit("All Honours", _all_honours),
    _limit("Heads and Tails", _all_terminals),
    _limit("Concealed Clear Suit", lambda f: f.fully_concealed and _one_suit_only(f)),
    _limit("East's 13th consecutive win", _east_13th),
    _limit("Imperial Jade", lambda f: f.green_only),
    _limit("Nine Gates", _nine_gates),
    _limit("Wriggling Snake", _wriggling_snake),
)


def _active(winner: bool, purity: bool, special_scores: bool) -> _Active:
    """The elements evaluated for one kind of hand, as (test, scorer) pairs in order."""
    return tuple(
        (element.applies, element.score)
        for element in ELEMENTS
        if (element.who is not Who.WINNER or winner)
        and (element.who is not Who.PURITY or purity)
        and (special_scores or not element.special)
    )


_Active = tuple[tuple[Callable[[HandFacts], bool], Callable[[HandFacts, _Tally], None]], ...]
#: The element list filtered once for every (winner, LosersPurity applies, special scores).
_ACTIVE: Final = {
    (winner, purity, special): _active(winner, purity, special)
    for winner in (False, True)
    for purity in (False, True)
    for special in (False, True)
}


def score_hand(
    hand: SeatHand,
    win: Win | None,
    options: GameOptions,
    special_scores: bool = True,
) -> HandScore:
    """Score ``hand`` (``win`` is None for a loser) and build the original's explanation.

    ``special_scores=False`` is the server's ``--no-special-scores``: flowers and
    seasons then score nothing.
    """
    f = HandFacts(hand, win, options)
    tally = _Tally(options["NoLimit"] != 0, options["ScoreLimit"])
    for applies, score in _ACTIVE[win is not None, f.winner_or_purity, special_scores]:
        if applies(f):
            score(f, tally)
    return _assemble(tally)


def _assemble(tally: _Tally) -> HandScore:
    """Totals, doubling, the limit and the layout of §9.2/§9.4."""
    score = tally.pts
    for _ in range(tally.dbls):
        score = min(2 * score, SCORE_CAP)
    limit = tally.limit
    lines = tally.points
    lines.append(f"{'total pts':<11} {tally.pts:3d}")
    lines.extend(tally.doubles)
    lines.append(f"{'total dbls':<12} {tally.dbls:2d}")
    if not tally.nolimit and score > limit:
        lines.append(f"{'score:':<9} {score:5d} (over limit)")
        score = limit
    if tally.clims:
        worth = tally.clims * limit // 100
        if tally.nolimit:
            score = max(score, worth)
        else:
            score = worth
            lines = []
    lines.extend(tally.limits)
    lines.append(f"{'SCORE:':<9} {score:5d}")
    return HandScore(score, "\n".join(lines))


__all__ = [
    "ELEMENTS",
    "ONE_LIMIT",
    "Element",
    "HandFacts",
    "HandScore",
    "Who",
    "score_hand",
]
