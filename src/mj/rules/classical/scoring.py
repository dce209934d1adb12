"""HandScore: the score of one seat's hand and the original's explanation text (protocol.md §9.2-§9.5).

The scoring is a list of *elements* evaluated in the original's order (§9.3). Every
element is one row of :data:`ELEMENTS`: its reason text, its left label, its value
(a fixed encoded score or the name of the game option holding it) and the test that
decides whether it applies. The explanation line is printed from the same row that
computes the value, so the text cannot drift from the arithmetic.

All values are encoded scores (§5.2, ``limits*1000000 + doubles*10000 + points``) and
go through one generic rule (§9.4): that is how an option set to points, doubles or
a limit lands in the right list, exactly as in the original.

The hot path (``mj bench score``) analyses the hand once into a :class:`HandFacts`,
runs the table filtered for that kind of hand (winner or not, its features) and
applies the generic rule to the :class:`Entry` of each element that applied; the
entries, with their formatted lines, are memoised by label, value and reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from functools import lru_cache
from typing import Final, NamedTuple

from mj.hand import GROUP_OF, counts, group_splits, group_waits, wait_indices
from mj.melds import KongOrigin, Meld, MeldKind
from mj.rules.base import HandScore, SeatHand, Win, WinSource
from mj.rules.options import DOUBLE, LIMIT, SCORE_CAP, GameOptions
from mj.tiles import (
    BAMBOO,
    BLANK,
    CHARACTER,
    CIRCLE,
    DRAGON,
    GREEN_TILES,
    KINDS,
    NUM_KINDS,
    SEASON,
    WIND,
    Tile,
    is_honour,
    is_suited,
    kind_index,
)

# Enum members bound to module names once: looking a member up on its Enum class
# costs about 70 ns in CPython 3.11, and the scorer would do it dozens of times a hand.
_CHOW: Final = MeldKind.CHOW
_PUNG: Final = MeldKind.PUNG
_KONG: Final = MeldKind.KONG
_PAIR: Final = MeldKind.PAIR
_SPECIAL: Final = MeldKind.SPECIAL
_CLAIMED: Final = KongOrigin.CLAIMED
_WALL: Final = WinSource.WALL
_DISCARD: Final = WinSource.DISCARD
_LOOSE: Final = WinSource.LOOSE
_ROBBED_KONG: Final = WinSource.ROBBED_KONG

#: A limit hand is worth exactly one limit (100 centi-limits).
ONE_LIMIT: Final = 100 * LIMIT
_FLOWER_BASE: Final = 60


class Who(Enum):
    """Which hands an element is evaluated for."""

    ANY = "any hand"
    WINNER = "the winner only"
    #: The winner, or any hand when the LosersPurity option is set.
    PURITY = "the winner, or any hand with LosersPurity"


# Features: cheap facts about a hand that several elements need (``Element.needs``).
# Most hands lack most of them, and the element table is filtered by the hand's
# features before any test runs, so the elements needing them cost such hands nothing.
#: The hand has flowers or seasons.
SPECIALS: Final = 1
#: The hand has a pung or kong of dragons or winds.
HONOUR_SETS: Final = 2
#: The win came in one of the rare circumstances some elements reward: the last tile,
#: an Original Call, a blessing, a kong upon kong, East's 13th consecutive win.
RARE_WIN: Final = 4
#: The hand's tiles are of one suit at most (honours aside).
ONE_SUIT_AT_MOST: Final = 8


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
        "features",
        "fully_concealed",
        "green_only",
        "hand",
        "has_honour",
        "has_minor",
        "has_suit",
        "has_terminal",
        "kong3",
        "kongs",
        "no_score",
        "one_suit",
        "options",
        "pair",
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
    #: The last pair in formation order (the hand's pair when ``pairs == 1``).
    pair: Meld | None
    pungs: int
    kongs: int
    #: The KongHas3Types option: claimed kongs count as concealed, exposed kongs tell how made.
    kong3: bool
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
    #: The features (``SPECIALS``...) the hand has, OR-ed together.
    features: int

    def __init__(self, hand: SeatHand, win: Win | None, options: GameOptions) -> None:
        self.hand = hand
        self.win = win
        self.options = options
        self.kong3 = kong3 = options["KongHas3Types"] != 0
        own = hand.own_wind
        prevailing = hand.prevailing_wind
        before_win = win.melds_before_win if win is not None else len(hand.melds)
        chows = pairs = pungs = kongs = concealed_pungs = 0
        dragon_sets = wind_sets = dragon_pairs = wind_pairs = 0
        exposed = exposed_before_win = 0
        scoring = False
        special = False
        pair = None
        families = 0
        flags = _FLAGS
        for tile in hand.concealed:
            families |= flags.get(tile, 0)
        for n, meld in enumerate(hand.melds):
            kind = meld.kind
            tile = meld.tile
            # A claimed kong counts as concealed for doubling with KongHas3Types (§9.3),
            # but not in the winner's hand before the winning tile (almost concealed hand):
            # there the original tests the set types, and a claimed kong is an open kong.
            hidden = meld.concealed or (kong3 and meld.kong_origin is _CLAIMED)
            if not hidden:
                exposed += 1
            if n < before_win and not (meld.concealed if win is not None else hidden):
                exposed_before_win += 1
            if kind is _CHOW:
                chows += 1
                families |= _CHOW_FLAGS[tile]
                continue
            if kind is _SPECIAL:
                special = True
                for t in meld.special_tiles:
                    families |= flags[t]
                continue
            families |= flags[tile]
            if kind is _PAIR:
                pairs += 1
                pair = meld
                if tile > DRAGON:
                    dragon_pairs += 1
                    scoring = True
                elif tile > WIND:
                    wind_pairs += 1
                    scoring = scoring or tile in (own, prevailing)
            else:
                scoring = True
                pungs += 1
                if kind is _KONG:
                    kongs += 1
                if hidden:
                    concealed_pungs += 1
                if tile > DRAGON:
                    dragon_sets += 1
                elif tile > WIND:
                    wind_sets += 1
        self.chows = chows
        self.pairs = pairs
        self.pair = pair
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
                self.source = _DISCARD
            else:
                self.tile = win.tile
                self.source = win.source
            # The set made with a winning discard is exposed, so it already counts here.
            self.fully_concealed = exposed == 0 and self.source is not _DISCARD
            self.winner_or_purity = True
        suits = families & _SUIT_BITS
        self.features = (
            (SPECIALS if hand.specials else 0)
            | (HONOUR_SETS if dragon_sets or wind_sets else 0)
            | (ONE_SUIT_AT_MOST if not suits & (suits - 1) else 0)
            | (RARE_WIN if win is not None and _rare(win) else 0)
        )


def _rare(win: Win) -> bool:
    """Whether ``win`` has the ``RARE_WIN`` feature."""
    return (
        win.last_tile
        or win.original_call
        or win.heavens_blessing
        or win.earths_blessing
        or win.kong_upon_kong
        or (win.winner_is_east and win.hands_as_east == 12)
    )


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
    return f.source is _WALL


def _fishing_the_eyes(f: HandFacts) -> bool:
    """The only pair is of the winning tile, and that tile completed the pair.

    On a discard (or robbed kong) this needs the pair to have been made with the
    claimed tile, i.e. the pair is exposed; from the wall or a loose tile any pair of
    the winning tile qualifies (the drawer chooses how to arrange the hand).
    """
    pair = f.pair
    if f.pairs != 1 or pair is None or pair.tile != f.tile:
        return False
    return f.source is _WALL or f.source is _LOOSE or not pair.concealed


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
    before = win.melds_before_win
    formed = f.hand.melds[before:]
    visible = win.visible
    if _obvious_second_wait(formed, tile, visible):
        return False
    index = kind_index(tile)
    return all(kind == index or visible[kind] >= 4 for kind in _waits_before(f.hand.concealed, formed, before, index))


def _waits_before(loose: Sequence[Tile], formed: Sequence[Meld], declared: int, index: int) -> Sequence[int]:
    """:func:`mj.hand.wait_indices` of the hand just before the winning tile (kind ``index``) arrived.

    The hand then held the ``loose`` tiles and those of the sets ``formed`` at mah-jong,
    less the winning tile. Usually the formed sets are exactly the sets and the one
    pair the hand still needed; then every group but the winning tile's splits as
    formed, so only two groups can take a completing tile: the winning tile's own, and
    the pair's when the winning group still splits without the tile (a pung beside a
    pair waits on either). Loose tiles or a kong formed at mah-jong go through the full
    wait analysis.
    """
    held = counts(loose) if loose else [0] * NUM_KINDS
    pair = -1
    plain = not loose and len(formed) == 5 - declared
    for meld in formed:
        kind = meld.kind
        i = kind_index(meld.tile)
        if kind is _CHOW:
            held[i] += 1
            held[i + 1] += 1
            held[i + 2] += 1
            continue
        if kind is _PUNG:
            held[i] += 3
        elif kind is _PAIR:
            held[i] += 2
            plain = plain and pair < 0
            pair = i
        else:  # a kong (special sets never get here)
            held[i] += 4
            plain = False
    if not held[index]:
        raise ValueError(f"the winning tile {KINDS[index]} is not among the sets formed at mah-jong")
    held[index] -= 1
    if not plain or pair < 0:
        return wait_indices(held, declared, False)
    kinds = group_waits(held, index)
    if GROUP_OF[pair] == GROUP_OF[index] or not group_splits(held, index):
        return kinds
    return kinds + group_waits(held, pair)


def _obvious_second_wait(formed: Sequence[Meld], tile: Tile, visible: Sequence[int]) -> bool:
    """A quick proof that another kind also completed the hand, sparing the wait analysis.

    Any set formed after the winning tile arrived that contains it gives a
    decomposition of the hand before it: an open-ended chow (4-5 waiting on 3 or 6)
    or a pung beside a pair (waiting on either) then shows a second completing kind.
    Most winning hands are settled here; the rest go to :func:`_waits_before`.
    """
    for meld in formed:
        kind = meld.kind
        low = meld.tile
        if kind is _CHOW:
            if tile == low and low % 10 <= 6:
                other = low + 3
            elif tile == low + 2 and low % 10 >= 2:
                other = low - 1
            else:
                continue
            if visible[kind_index(other)] < 4:
                return True
        elif kind is _PUNG and low == tile:
            for pair in formed:
                if pair.kind is _PAIR and visible[kind_index(pair.tile)] < 4:
                    return True
    return False


def _set_key(meld: Meld) -> int:
    """A pung, kong or pair's tile and notation as one small int (hashing a Meld costs more than printing it)."""
    kind = meld.kind
    if kind is _KONG:
        variant = 3 if meld.concealed else 4 if meld.kong_origin is _CLAIMED else 5
    else:
        variant = 1 if kind is _PUNG else 0
        if meld.concealed:
            variant += 6
    return meld.tile * 16 + variant


def _set_string(meld: Meld) -> str:
    """``str(meld)``, memoised by :func:`_set_key`."""
    key = _set_key(meld)
    text = _SET_STRINGS.get(key)
    if text is None:
        text = _SET_STRINGS[key] = str(meld)
    return text


#: Set strings by :func:`_set_key` (pungs, kongs and pairs only).
_SET_STRINGS: dict[int, str] = {}


def _specials_label(f: HandFacts) -> str:
    return _SPECIALS_LABELS[len(f.hand.specials)]


_SPECIALS_LABELS: Final = tuple(f"{n} special" if n == 1 else f"{n} specials" for n in range(9))


def _own_flower(f: HandFacts) -> bool:
    hand = f.hand
    return _FLOWER_BASE + hand.own_wind - WIND in hand.specials


def _own_season(f: HandFacts) -> bool:
    hand = f.hand
    return SEASON + hand.own_wind - WIND in hand.specials


def _all_of(f: HandFacts, base: int) -> bool:
    specials = f.hand.specials
    return len(specials) >= 4 and all(base + n in specials for n in range(1, 5))


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
    return f.source is _LOOSE and f.tile == CIRCLE + 5


def _moon(f: HandFacts) -> bool:
    """1D as the last tile of the live wall; the original requires a wall draw (not a discard)."""
    return _last_tile(f) and f.source is _WALL and f.tile == CIRCLE + 1


def _carrying_pole(f: HandFacts) -> bool:
    return f.source is _ROBBED_KONG and f.tile == BAMBOO + 2


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
    pair = next(m.tile - base for m in melds if m.kind is _PAIR)
    chows = sorted(m.tile - base for m in melds if m.kind is _CHOW)
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


class Entry(NamedTuple):
    """What one element adds to a hand: an encoded value split up, with its points and doubles lines.

    Made by :func:`entry_of`; :func:`_assemble` applies the generic rule to the hand's
    entries. The limit line depends on the game's ScoreLimit and is rare, so
    :func:`_assemble` formats it itself from ``reason``.
    """

    pts: int
    dbls: int
    clims: int
    points_line: str
    doubles_line: str
    reason: str


@lru_cache(maxsize=4096)
def entry_of(label: str, value: int, reason: str) -> Entry:
    """The :class:`Entry` of ``value`` (an encoded score) under ``label`` for ``reason``.

    Memoised: formatting the lines was most of a scoring's cost, and a game only ever
    meets a few hundred (label, value, reason) triples.
    """
    pts = value % DOUBLE
    dbls = (value // DOUBLE) % 100
    return Entry(
        pts,
        dbls,
        value // LIMIT,
        f"{label:<12} {pts:2d} ({reason})",
        f"{label:<12}  {dbls:1d} dbl ({reason})",
        reason,
    )


class Element:
    """One scoring element: reason text, label, value, who may get it and when.

    ``value`` is a fixed encoded score, the name of the game option that holds it, or
    a function of the hand (fishing the eyes depends on the pair). ``label`` is the
    left column, or a function of the hand (the flower count).

    The element applies when the hand has every feature in ``needs`` (``SPECIALS``...)
    and ``applies`` says so; ``applies`` is only asked of hands with the features.
    """

    __slots__ = ("applies", "fixed", "label", "needs", "reason", "special", "value", "who")

    def __init__(
        self,
        reason: str,
        applies: Callable[[HandFacts], bool],
        value: int | str | Callable[[HandFacts], int],
        *,
        who: Who = Who.WINNER,
        label: str | Callable[[HandFacts], str] = "",
        special: bool = False,
        needs: int = 0,
    ) -> None:
        self.reason = reason
        self.applies = applies
        self.value = value
        self.who = who
        self.label = label
        #: Flowers and seasons: suppressed by ``--no-special-scores``.
        self.special = special
        self.needs = needs
        #: The entry, when neither the value nor the label depends on the hand or the options.
        self.fixed = entry_of(label, value, reason) if isinstance(value, int) and isinstance(label, str) else None

    def score(self, f: HandFacts, entries: list[Entry]) -> None:
        fixed = self.fixed
        if fixed is not None:
            entries.append(fixed)
            return
        value = self.value
        if not isinstance(value, int):
            value = f.options[value] if isinstance(value, str) else value(f)
        label = self.label
        if not isinstance(label, str):
            label = label(f)
        entries.append(entry_of(label, value, self.reason))


class SetPoints:
    """§9.3 item 2: points for each declared pung, kong and scoring pair, in formation order.

    The values and reasons are the ``*_PUNG``, ``*_KONG`` and ``PAIR_OF_*`` rows.
    """

    __slots__ = ()
    who: Final = Who.ANY
    special: Final = False
    needs: Final = 0

    def applies(self, f: HandFacts) -> bool:
        return bool(f.hand.melds)

    def score(self, f: HandFacts, entries: list[Entry]) -> None:
        hand = f.hand
        own = hand.own_wind
        prevailing = hand.prevailing_wind
        kong3 = f.kong3
        for meld in hand.melds:
            kind = meld.kind
            if kind is _CHOW or kind is _SPECIAL:
                continue
            if kind is _PAIR:
                tile = meld.tile
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
                entries.append(entry_of(_set_string(meld), points, reason))
                continue
            key = _set_key(meld) << 1 | kong3
            found = _SET_ENTRIES.get(key)
            if found is None:
                found = _SET_ENTRIES[key] = self.set_entry(meld, kong3)
            entries.append(found)

    @staticmethod
    def set_entry(meld: Meld, kong3: bool) -> Entry:
        """The entry of one pung or kong, memoised in ``_SET_ENTRIES`` by its set key and KongHas3Types."""
        if meld.kind is _PUNG:
            row = CLOSED_PUNG if meld.concealed else OPEN_PUNG
        elif meld.concealed:
            row = CLOSED_KONG
        elif not kong3:
            row = OPEN_KONG
        else:
            row = CLAIMED_KONG if meld.kong_origin is _CLAIMED else ANNEXED_KONG
        return entry_of(_set_string(meld), *row[_is_major(meld.tile)])


#: SetPoints entries by ``_set_key(meld) << 1 | KongHas3Types`` (pungs and kongs).
_SET_ENTRIES: dict[int, Entry] = {}


class SetDoubles:
    """§9.3 item 8: a double for each pung/kong of dragons, own wind, prevailing wind (``SET_OF_*``)."""

    __slots__ = ()
    who: Final = Who.ANY
    special: Final = False
    needs: Final = HONOUR_SETS

    def applies(self, f: HandFacts) -> bool:
        return f.dragon_sets + f.wind_sets > 0

    def score(self, f: HandFacts, entries: list[Entry]) -> None:
        own = f.hand.own_wind
        prevailing = f.hand.prevailing_wind
        for meld in f.hand.melds:
            kind = meld.kind
            if kind is not _PUNG and kind is not _KONG:
                continue
            tile = meld.tile
            if tile > DRAGON:
                entries.append(entry_of(_set_string(meld), *SET_OF_DRAGONS))
                continue
            if tile == own:
                entries.append(entry_of(_set_string(meld), *SET_OF_OWN_WIND))
            if tile == prevailing:
                entries.append(entry_of(_set_string(meld), *SET_OF_PREVAILING_WIND))


def _limit(reason: str, applies: Callable[[HandFacts], bool], needs: int = 0) -> Element:
    """A limit hand of the limit list: winner only, worth one limit."""
    return Element(reason, applies, ONE_LIMIT, needs=needs)


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
        needs=SPECIALS,
    ),
    Element("winning from wall", _from_live_wall, 2, label="extra"),
    Element("fishing the eyes", _fishing_the_eyes, _fishing_value, label="extra"),
    Element("filling the only place", _filling_the_only_place, 2, label="extra"),
    # Doubles list.
    SetDoubles(),
    Element("own flower", _own_flower, "FlowersOwnEach", who=Who.ANY, special=True, needs=SPECIALS),
    Element("own season", _own_season, "FlowersOwnEach", who=Who.ANY, special=True, needs=SPECIALS),
    Element(
        "own flower and season",
        lambda f: _own_flower(f) and _own_season(f),
        "FlowersOwnBoth",
        who=Who.ANY,
        special=True,
        needs=SPECIALS,
    ),
    Element(
        "all four flowers",
        lambda f: _all_of(f, _FLOWER_BASE),
        "FlowersBouquet",
        who=Who.ANY,
        special=True,
        needs=SPECIALS,
    ),
    Element(
        "all four seasons",
        lambda f: _all_of(f, SEASON),
        "FlowersBouquet",
        who=Who.ANY,
        special=True,
        needs=SPECIALS,
    ),
    Element("Big Three Dragons", lambda f: f.dragon_sets == 3, 2 * DOUBLE, who=Who.ANY, needs=HONOUR_SETS),
    Element(
        "Little Three Dragons",
        lambda f: f.dragon_sets == 2 and f.dragon_pairs > 0,
        DOUBLE,
        who=Who.ANY,
        needs=HONOUR_SETS,
    ),
    Element("Big Four Joys", lambda f: f.wind_sets == 4, 2 * DOUBLE, who=Who.ANY, needs=HONOUR_SETS),
    Element(
        "Little Four Joys",
        lambda f: f.wind_sets == 3 and f.wind_pairs > 0,
        DOUBLE,
        who=Who.ANY,
        needs=HONOUR_SETS,
    ),
    Element("three concealed pungs", lambda f: f.concealed_pungs >= 3, DOUBLE, who=Who.ANY),
    Element("no chows", lambda f: f.chows == 0 and f.pairs == 1, DOUBLE),
    Element("no score hand", lambda f: f.no_score, DOUBLE),
    Element("all honours", _all_honours, 2 * DOUBLE, who=Who.PURITY, needs=ONE_SUIT_AT_MOST),
    Element("all terminals", _all_terminals, 2 * DOUBLE, who=Who.PURITY),
    Element("all majors", _all_majors, DOUBLE, who=Who.PURITY),
    Element("concealed hand", lambda f: f.fully_concealed, "ConcealedFully"),
    Element("almost concealed hand", _almost_concealed, "ConcealedAlmost", who=Who.PURITY),
    Element("one suit only", _one_suit_only, 3 * DOUBLE, who=Who.PURITY, needs=ONE_SUIT_AT_MOST),
    Element("one suit with honours", _one_suit_with_honours, DOUBLE, who=Who.PURITY, needs=ONE_SUIT_AT_MOST),
    Element("winning with loose tile", _won_by(WinSource.LOOSE), DOUBLE),
    Element("winning with last tile", _last_tile, DOUBLE, needs=RARE_WIN),
    Element("robbing a kong", _won_by(WinSource.ROBBED_KONG), DOUBLE),
    Element("completing Original Call", _original_call, DOUBLE, needs=RARE_WIN),
    # Limit list (winner only).
    _limit("Heaven's Blessing", _heavens_blessing, RARE_WIN),
    _limit("Earth's Blessing", _earths_blessing, RARE_WIN),
    _limit("Gathering Plum Blossom from the Roof", _plum_blossom),
    _limit("Catching the Moon from the Bottom of the Sea", _moon, RARE_WIN),
    _limit("Scratching a Carrying Pole", _carrying_pole),
    _limit("Kong upon Kong", _kong_upon_kong, RARE_WIN),
    _limit("Fourfold Plenty", lambda f: f.kongs == 4),
    _limit("Buried Treasure", _buried_treasure),
    _limit("Thirteen Unique Wonders", lambda f: f.special),
    _limit("Three Great Scholars", lambda f: f.dragon_sets == 3 and f.chows == 0, HONOUR_SETS),
    _limit("Four Blessing o'er the Door", lambda f: f.wind_sets == 4, HONOUR_SETS),
    _limit("All Honours", _all_honours, ONE_SUIT_AT_MOST),
    _limit("Heads and Tails", _all_terminals),
    _limit("Concealed Clear Suit", lambda f: f.fully_concealed and _one_suit_only(f), ONE_SUIT_AT_MOST),
    _limit("East's 13th consecutive win", _east_13th, RARE_WIN),
    _limit("Imperial Jade", lambda f: f.green_only),
    _limit("Nine Gates", _nine_gates, ONE_SUIT_AT_MOST),
    _limit("Wriggling Snake", _wriggling_snake, ONE_SUIT_AT_MOST),
)


def _active(winner: bool, purity: bool, special_scores: bool, features: int) -> _Active:
    """The elements evaluated for one kind of hand, as (test, scorer) pairs in order."""
    return tuple(
        (element.applies, element.score)
        for element in ELEMENTS
        if (element.who is not Who.WINNER or winner)
        and (element.who is not Who.PURITY or purity)
        and (special_scores or not element.special)
        and element.needs & features == element.needs
    )


_Active = tuple[tuple[Callable[[HandFacts], bool], Callable[[HandFacts, list[Entry]], None]], ...]
#: The element list filtered for every (winner, LosersPurity applies, special scores,
#: features) met so far: at most 2 * 2 * 2 * 16 of them.
_ACTIVE: Final[dict[tuple[bool, bool, bool, int], _Active]] = {}


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
    entries: list[Entry] = []
    kind = (win is not None, f.winner_or_purity, special_scores, f.features)
    active = _ACTIVE.get(kind)
    if active is None:
        active = _ACTIVE[kind] = _active(*kind)
    for applies, score in active:
        if applies(f):
            score(f, entries)
    return _assemble(entries, options["NoLimit"] != 0, options["ScoreLimit"])


def _assemble(entries: list[Entry], nolimit: bool, limit: int) -> HandScore:
    """The generic rule over the hand's entries (§9.4), then doubling, the limit and the layout of §9.2.

    Each entry's encoded value adds points, doubles or a limit line; in a no-limit
    game a limit value carrying points or doubles counts as those instead.
    """
    points: list[str] = []
    doubles: list[str] = []
    limits: list[str] = []
    total_pts = total_dbls = top_clims = 0
    for pts, dbls, clims, points_line, doubles_line, reason in entries:
        if clims == 0 or nolimit:
            if pts > 0:
                total_pts += pts
                points.append(points_line)
            if dbls > 0:
                total_dbls += dbls
                doubles.append(doubles_line)
        if clims > 0 and not (nolimit and pts + dbls > 0):
            if clims == 100:
                limits.append(f"{'Limit Hand':<10} {limit:4d} ({reason})")
            else:
                limits.append(f"{clims / 100:4g} Limit {_limit_worth(clims, limit):4d} ({reason})")
            top_clims = max(top_clims, clims)
    score = total_pts
    for _ in range(total_dbls):
        score = min(2 * score, SCORE_CAP)
    lines = points
    lines.append(_TOTAL_PTS % total_pts)
    lines.extend(doubles)
    lines.append(_TOTAL_DBLS % total_dbls)
    if not nolimit and score > limit:
        lines.append(_OVER_LIMIT % score)
        score = limit
    if top_clims:
        worth = _limit_worth(top_clims, limit)
        if nolimit:
            score = max(score, worth)
        else:
            score = worth
            lines = []
    lines.extend(limits)
    lines.append(_SCORE % score)
    return HandScore(score, "\n".join(lines))


#: The values of a 32-bit C ``int``, as the original computes limits.
_INT_SPAN: Final = 2**32


def _limit_worth(clims: int, limit: int) -> int:
    """``clims`` centi-limits of a ScoreLimit of ``limit``, computed as the original does: in a C
    ``int``, which a ScoreLimit above 21474836 overflows (a limit hand under ScoreLimit 100000000
    scores 14100654 on mj-server), then divided with C's truncation toward zero."""
    product = (clims * limit + _INT_SPAN // 2) % _INT_SPAN - _INT_SPAN // 2
    return -(-product // 100) if product < 0 else product // 100


# The layout of the totals lines (printf templates: the quickest formatting in CPython).
_TOTAL_PTS: Final = f"{'total pts':<11} %3d"
_TOTAL_DBLS: Final = f"{'total dbls':<12} %2d"
_OVER_LIMIT: Final = f"{'score:':<9} %5d (over limit)"
_SCORE: Final = f"{'SCORE:':<9} %5d"


__all__ = [
    "ELEMENTS",
    "HONOUR_SETS",
    "ONE_LIMIT",
    "ONE_SUIT_AT_MOST",
    "RARE_WIN",
    "SPECIALS",
    "Element",
    "Entry",
    "HandFacts",
    "Who",
    "entry_of",
    "score_hand",
]
