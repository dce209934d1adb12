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

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from mj.hand import waits
from mj.melds import KongOrigin, MeldKind
from mj.rules.classical.facts import SeatHand, Win, WinSource
from mj.rules.options import DOUBLE, LIMIT, SCORE_CAP, GameOptions
from mj.tiles import (
    BAMBOO,
    BLANK,
    CIRCLE,
    DRAGON,
    GREEN_TILES,
    KINDS,
    SEASON,
    WIND,
    Tile,
    kind_index,
)

#: A limit hand is worth exactly one limit (100 centi-limits).
ONE_LIMIT: Final = 100 * LIMIT
_FLOWER_BASE: Final = 60
_REAL_KINDS: Final = frozenset(KINDS)


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
        "special",
        "wind_pairs",
        "wind_sets",
        "win",
        "winner_or_purity",
    )

    def __init__(self, hand: SeatHand, win: Win | None, options: GameOptions) -> None:
        self.hand = hand
        self.win = win
        self.options = options
        kong3 = options["KongHas3Types"] != 0
        own = hand.own_wind
        prevailing = hand.prevailing_wind
        chows = pairs = pungs = kongs = concealed_pungs = 0
        dragon_sets = wind_sets = dragon_pairs = wind_pairs = 0
        exposed = 0
        scoring = False
        special = False
        tiles: list[Tile] = list(hand.concealed)
        for meld in hand.melds:
            kind = meld.kind
            tile = meld.tile
            # A claimed kong counts as concealed for doubling with KongHas3Types (§9.3).
            hidden = meld.concealed or (kong3 and meld.kong_origin is KongOrigin.CLAIMED)
            if not hidden:
                exposed += 1
            if kind is MeldKind.CHOW:
                chows += 1
                tiles.extend((tile, tile + 1, tile + 2))
            elif kind is MeldKind.PAIR:
                pairs += 1
                tiles.append(tile)
                if tile > DRAGON:
                    dragon_pairs += 1
                    scoring = True
                elif tile > WIND:
                    wind_pairs += 1
                    scoring = scoring or tile == own or tile == prevailing
            elif kind is MeldKind.SPECIAL:
                special = True
                tiles.extend(meld.special_tiles)
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
                tiles.append(tile)
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
        # Tile families (a multiset is not needed: only which kinds occur matters).
        kinds = set(tiles)
        honours = {t for t in kinds if WIND < t < _FLOWER_BASE}
        suited = kinds - honours
        suits = {t - t % 10 for t in suited}
        self.has_honour = bool(honours)
        self.has_suit = bool(suited)
        self.has_terminal = any(t % 10 in (1, 9) for t in suited)
        self.has_minor = any(t % 10 not in (1, 9) for t in suited)
        # The blank tile "--" (value 0, only met in the original's all-blank first hand of a
        # --wallfile game) forms its own "suit" and passes the green test: the scenario logs
        # show that hand scoring "one suit only" and Imperial Jade.
        self.one_suit = len(suits) == 1
        self.green_only = all(t in GREEN_TILES or t == BLANK for t in kinds)
        if win is None:
            self.fully_concealed = False
            self.exposed_before_win = exposed
            self.winner_or_purity = options["LosersPurity"] != 0
        else:
            # The set made with a winning discard is exposed, so it already counts here.
            self.fully_concealed = exposed == 0
            self.exposed_before_win = sum(
                1
                for meld in hand.melds[: win.melds_before_win]
                if not (meld.concealed or (kong3 and meld.kong_origin is KongOrigin.CLAIMED))
            )
            self.winner_or_purity = True

    def winning_tile(self) -> Tile:
        return self.win.tile if self.win is not None else BLANK

    def source(self) -> WinSource | None:
        return self.win.source if self.win is not None else None


# --- element tests ------------------------------------------------------------------------
# Each test receives the hand's facts; ``Who`` has already been checked by the caller.


def _from_live_wall(f: HandFacts) -> bool:
    return f.source() is WinSource.WALL


def _fishing_the_eyes(f: HandFacts) -> bool:
    """The only pair is of the winning tile, and that tile completed the pair.

    On a discard (or robbed kong) this needs the pair to have been made with the
    claimed tile, i.e. the pair is exposed; from the wall or a loose tile any pair of
    the winning tile qualifies (the drawer chooses how to arrange the hand).
    """
    if f.pairs != 1:
        return False
    tile = f.winning_tile()
    pair = next(m for m in f.hand.melds if m.kind is MeldKind.PAIR)
    if pair.tile != tile:
        return False
    return f.source() in (WinSource.WALL, WinSource.LOOSE) or not pair.concealed


def _fishing_value(f: HandFacts) -> int:
    return 4 if _is_major(f.winning_tile()) else 2


def _filling_the_only_place(f: HandFacts) -> bool:
    """At most one tile kind could have completed the hand just before the winning tile.

    Kinds whose four copies were all on the table do not count, except the winning
    tile's own kind. Seven pairs and Thirteen Unique Wonders do not get it (the
    no-limit scenario log shows no line for a single-wait Thirteen Unique Wonders),
    nor does a hand whose winning tile is the blank of the all-blank wallfile hand.
    """
    win = f.win
    if win is None or f.pairs == 7 or f.special or win.tile not in _REAL_KINDS:
        return False
    melds = f.hand.melds
    before = list(f.hand.concealed)
    for meld in melds[win.melds_before_win :]:
        before.extend(meld.tiles)
    before.remove(win.tile)
    visible = win.visible
    completing = 0
    for kind in waits(before, win.melds_before_win, False):
        if kind == win.tile or visible[kind_index(kind)] < 4:
            completing += 1
    return completing <= 1


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
        return f.source() is source

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
    return f.source() is WinSource.LOOSE and f.winning_tile() == CIRCLE + 5


def _moon(f: HandFacts) -> bool:
    """1D as the last tile of the live wall; the original requires a wall draw (not a discard)."""
    return _last_tile(f) and f.source() is WinSource.WALL and f.winning_tile() == CIRCLE + 1


def _carrying_pole(f: HandFacts) -> bool:
    return f.source() is WinSource.ROBBED_KONG and f.winning_tile() == BAMBOO + 2


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

#: Per-set points (§9.3 item 2): (kind, exposure) → (points for minors, reason stem).
#: Majors score double. Exposure is ``open``/``closed`` or, for kongs with KongHas3Types,
#: how the exposed kong was made.
_SET_POINTS: Final[dict[tuple[MeldKind, str], tuple[int, str]]] = {
    (MeldKind.PUNG, "open"): (2, "open pung"),
    (MeldKind.PUNG, "closed"): (4, "closed pung"),
    (MeldKind.KONG, "open"): (8, "open kong"),
    (MeldKind.KONG, "claimed"): (8, "claimed kong"),
    (MeldKind.KONG, "annexed"): (8, "annexed kong"),
    (MeldKind.KONG, "closed"): (16, "closed kong"),
}
_SET_REASONS: Final = {
    key: (points, f"{stem} of minors", f"{stem} of majors") for key, (points, stem) in _SET_POINTS.items()
}

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

    The reasons come from :data:`_SET_POINTS` and the ``PAIR_OF_*`` rows.
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
                tally.add(str(meld), points, reason)
            elif kind is MeldKind.PUNG or kind is MeldKind.KONG:
                if meld.concealed:
                    exposure = "closed"
                elif kind is MeldKind.KONG and kong3:
                    exposure = "claimed" if meld.kong_origin is KongOrigin.CLAIMED else "annexed"
                else:
                    exposure = "open"
                points, minors, majors = _SET_REASONS[kind, exposure]
                if _is_major(tile):
                    tally.add(str(meld), 2 * points, majors)
                else:
                    tally.add(str(meld), points, minors)


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
            if not meld.is_pung_or_kong:
                continue
            tile = meld.tile
            if tile > DRAGON:
                tally.add(str(meld), *SET_OF_DRAGONS)
                continue
            if tile == own:
                tally.add(str(meld), *SET_OF_OWN_WIND)
            if tile == prevailing:
                tally.add(str(meld), *SET_OF_PREVAILING_WIND)


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
    nolimit = options["NoLimit"] != 0
    limit = options["ScoreLimit"]
    f = HandFacts(hand, win, options)
    tally = _Tally(nolimit, limit)
    winner = win is not None
    purity = f.winner_or_purity
    for element in ELEMENTS:
        who = element.who
        if who is Who.WINNER:
            if not winner:
                continue
        elif who is Who.PURITY and not purity:
            continue
        if element.special and not special_scores:
            continue
        if element.applies(f):
            element.score(f, tally)
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
