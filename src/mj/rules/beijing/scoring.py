"""Beijing scoring: whether a hand may go out this way, its doubles, rare events and kong points.

Each double is one row of :data:`DOUBLES` (its name and the test saying how often it
applies to one payer) and each rare event one row of :data:`RARE_EVENTS`; the
explanation of a score is printed from those rows, so the text cannot drift from the
arithmetic.

Each payer pays ``unit × 2^(doubles that apply to them)``, plus the rare events'
points (never doubled) and the kong points (doubled by Kong Bloom, and for the banker
with BankerKongs); upstairs doubles everything. The scorer reads the hand every way
the wilds allow (:func:`mj.hand.wild.arrangements`) and keeps the reading the winner
collects most from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mj.hand import counts
from mj.hand.wild import Arrangement, arrangements, is_complete, sets_needed, seven_pairs_needed
from mj.melds import MeldKind
from mj.rules.beijing import options as opt
from mj.rules.beijing.options import BeijingOptions
from mj.rules.beijing.wilds import MAX_WILDS_ON_DISCARD, wild_of
from mj.rules.winhand import EAST, How, WinningHand
from mj.tiles import CHARACTER, KINDS, SUITS, WIND, Tile, code, kind_index

FIVE_CHARACTERS: Final = CHARACTER + 5
#: Seat names in score and payment texts, East first.
SEAT_NAMES: Final = ("East", "South", "West", "North")


@dataclass(frozen=True, slots=True)
class Reading:
    """One arrangement of a winning hand and the facts the doubles test."""

    hand: WinningHand
    options: BeijingOptions
    wild: Tile
    arrangement: Arrangement
    #: Every tile of the hand by the value it plays (jokers at what they stand for), declared sets included.
    values: tuple[Tile, ...]
    upstairs: bool

    @property
    def open_sets(self) -> bool:
        return any(not m.concealed for m in self.hand.exposed)

    def flush_suit(self) -> Tile | None:
        """The suit whose 1-2-3, 4-5-6 and 7-8-9 runs the hand holds, declared chows included."""
        lows = set(self.arrangement.chows) | {m.tile for m in self.hand.exposed if m.kind is MeldKind.CHOW}
        for suit in SUITS:
            if {suit + 1, suit + 4, suit + 7} <= lows:
                return suit
        return None


Test = Callable[[Reading, int], int]


def _hand(test: Callable[[Reading], int | bool]) -> Test:
    """A double that applies to every payer alike: ``test`` says how often."""

    def applies(r: Reading, payer: int) -> int:
        return int(test(r))

    applies.__doc__ = test.__doc__
    return applies


def _banker(r: Reading, payer: int) -> int:
    """The banker wins, or pays."""
    return int(r.hand.seat == EAST or payer == EAST)


def _own_tile(r: Reading, payer: int) -> int:
    """Drawn from the wall (head or tail) for every payer; on another's tile, for that player alone."""
    return int(not r.hand.how.fed or payer == r.hand.discarder)


def _closed(r: Reading) -> bool:
    """No open set (a concealed kong is not open); a discard may complete it, and seven pairs are closed."""
    return not r.open_sets


def _straight(r: Reading) -> bool:
    """No wild stands for another tile (every wild held is at its face value)."""
    return r.arrangement.straight


def _flush(r: Reading) -> bool:
    return r.flush_suit() is not None


def _seven_pairs(r: Reading) -> bool:
    return r.arrangement.seven_pairs


def _deluxe(r: Reading) -> int:
    """Each four of a kind in seven pairs, none of them a wild tile (not even at face value)."""
    if not r.arrangement.seven_pairs:
        return 0
    held = counts(r.hand.concealed)
    return sum(1 for i, n in enumerate(held) if n == 4 and KINDS[i] != r.wild)


def _catch_five(r: Reading) -> bool:
    """A real 5 Characters wins in the gap of 4-6 Characters, or pairs a real 5 Characters in seven pairs."""
    hand = r.hand
    if hand.winning_tile != FIVE_CHARACTERS or r.wild == FIVE_CHARACTERS:
        return False
    if r.arrangement.seven_pairs:
        return hand.concealed.count(FIVE_CHARACTERS) >= 2
    return FIVE_CHARACTERS - 1 in r.arrangement.chows


def _kong_bloom(r: Reading) -> bool:
    """Won with the replacement tile drawn from the tail after a kong."""
    return r.hand.how is How.LOOSE_TILE


def wild_eye_wait(hand: WinningHand, wild: Tile) -> bool:
    """The hand before its winning tile was four sets (or six pairs) and a lone wild waiting for its eye."""
    before = counts(hand.concealed)
    before[kind_index(hand.winning_tile)] -= 1
    wild_index = kind_index(wild)
    if before[wild_index] == 0:
        return False
    before[wild_index] -= 1
    rest, wilds = list(before), before[wild_index]
    rest[wild_index] = 0
    if sets_needed(rest) <= wilds:
        return True
    return not hand.exposed and seven_pairs_needed(rest) <= wilds


def _wild_eye(r: Reading) -> bool:
    """Optional: four sets or six pairs completed, waiting for the eye with a wild.

    The seed's players "treat this as a sort of Straight hand": the double is Straight's, given to a
    wild eye, so a reading that is Straight already (the lone wild paired by another at face value)
    does not score it twice.
    """
    return r.options.flag(opt.WILD_EYE) and not r.arrangement.straight and wild_eye_wait(r.hand, r.wild)


def _native_wild_flush(r: Reading) -> bool:
    """Optional: a wild of the Flush's own suit stands for one of the Flush's nine tiles."""
    suit = r.flush_suit()
    if not r.options.flag(opt.NATIVE_WILD_FLUSH) or suit is None or r.wild - r.wild % 10 != suit:
        return False
    return any(suit < t < suit + 10 for t in r.arrangement.jokers)


def _pure_one_suit(r: Reading) -> bool:
    suits = {t - t % 10 for t in r.values}
    return r.options.flag(opt.PURE_ONE_SUIT) and len(suits) == 1 and min(r.values) < WIND


def _all_pungs(r: Reading) -> bool:
    declared = [m for m in r.hand.exposed if m.kind is MeldKind.CHOW]
    a = r.arrangement
    return r.options.flag(opt.ALL_PUNGS) and not a.seven_pairs and not a.chows and not declared


def _single_tile(r: Reading) -> bool:
    """All four sets declared: the hand was one tile waiting for its eye."""
    return r.options.flag(opt.SINGLE_TILE) and len(r.hand.exposed) == 4


def _last_tile(r: Reading) -> bool:
    """Scooping the moon from the sea's floor (海底捞月): the winner draws the last tile; a discard is not drawn."""
    return r.options.flag(opt.LAST_TILE) and r.hand.last_tile and not r.hand.how.fed


def _upstairs(r: Reading) -> bool:
    """The hand is upstairs (after a draw, or the banker's third stay, as the table agreed)."""
    return r.upstairs


@dataclass(frozen=True, slots=True)
class Double:
    """One double: applies ``test(reading, payer)`` times to that payer."""

    name: str
    test: Test


#: The doubles in the seed's order: its nine, the optional two, the additional four.
DOUBLES: Final[tuple[Double, ...]] = (
    Double("Banker", _banker),
    Double("Closed", _hand(_closed)),
    Double("Own Tile", _own_tile),
    Double("Straight", _hand(_straight)),
    Double("Flush", _hand(_flush)),
    Double("Seven Pairs", _hand(_seven_pairs)),
    Double("Deluxe", _hand(_deluxe)),
    Double("Catch Five", _hand(_catch_five)),
    Double("Kong Bloom", _hand(_kong_bloom)),
    Double("Wild Eye", _hand(_wild_eye)),
    Double("Native Wild Flush", _hand(_native_wild_flush)),
    Double("Pure One Suit", _hand(_pure_one_suit)),
    Double("All Pungs", _hand(_all_pungs)),
    Double("Single Tile", _hand(_single_tile)),
    Double("Last Tile", _hand(_last_tile)),
    Double("Upstairs", _hand(_upstairs)),
)


def _heavenly(r: Reading) -> int:
    """The banker is dealt a winning hand: goes out on the first turn with the tiles dealt.

    A loose tile drawn after a kong was not dealt: a kong's bloom on the first turn is not heavenly.
    """
    won = r.hand.first_turn and r.hand.seat == EAST and r.hand.how is How.SELF_DRAWN
    return r.options[opt.HEAVENLY_WIN] if won else 0


def _earthly(r: Reading) -> int:
    """A non-banker wins on the banker's first discard."""
    won = r.hand.first_turn and r.hand.seat != EAST and r.hand.how is How.DISCARD and r.hand.discarder == EAST
    return r.options[opt.EARTHLY_WIN] if won else 0


def _wild_kong(r: Reading) -> int:
    """The winner holds all four wild tiles."""
    return r.options[opt.WILD_KONG] if r.hand.concealed.count(r.wild) == 4 else 0


@dataclass(frozen=True, slots=True)
class Points:
    """Points each payer pays, never doubled: ``worth(reading)`` (0: does not apply)."""

    name: str
    worth: Callable[[Reading], int]


#: The rare events, at the table's agreed points.
RARE_EVENTS: Final[tuple[Points, ...]] = (
    Points("Heavenly Win", _heavenly),
    Points("Earthly Win", _earthly),
    Points("Wild Kong", _wild_kong),
)

#: Kong points: each open kong 1, each closed kong 2.
OPEN_KONG_POINTS: Final = 1
CLOSED_KONG_POINTS: Final = 2


def kong_points(hand: WinningHand) -> int:
    return sum(CLOSED_KONG_POINTS if m.concealed else OPEN_KONG_POINTS for m in hand.exposed if m.kind is MeldKind.KONG)


def kong_doubles(r: Reading, payer: int) -> int:
    """Kong points are doubled by Kong Bloom, and with BankerKongs when the banker wins or pays."""
    return int(_kong_bloom(r)) + (_banker(r, payer) if r.options.flag(opt.BANKER_KONGS) else 0)


@dataclass(frozen=True, slots=True)
class PayerScore:
    """What one payer owes the winner, and why."""

    payer: int
    doubles: tuple[tuple[str, int], ...]
    amount: int


@dataclass(frozen=True, slots=True)
class BeijingScore:
    """A winning hand's score, or why it may not go out this way.

    ``shared`` are the doubles every payer shares (score-json.md's ``doubles``);
    ``payers`` each non-winner's own doubles and amount, before DiscPaysAll moves
    who pays (:mod:`mj.rules.beijing.payments`).
    """

    allowed: bool
    reason: str
    shared: tuple[tuple[str, int], ...] = ()
    payers: tuple[PayerScore, ...] = ()
    rare: tuple[tuple[str, int], ...] = ()
    kongs: int = 0
    upstairs: bool = False

    @property
    def doubles(self) -> int:
        return sum(n for _, n in self.shared)

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.payers)

    @property
    def text(self) -> str:
        if not self.allowed:
            return f"not allowed: {self.reason}"
        lines = [f"{name:<20} {n} dbl" for name, n in self.shared]
        lines += [f"{name:<20} {pts} pts (undoubled)" for name, pts in self.rare]
        if self.kongs:
            lines.append(f"{'Kongs':<20} {self.kongs} pts")
        for p in self.payers:
            own = [f"{name} {n}" for name, n in p.doubles if (name, n) not in self.shared]
            extra = f" (own doubles: {', '.join(own)})" if own else ""
            lines.append(f"{SEAT_NAMES[p.payer]} owes {p.amount}{extra}")
        return "\n".join(lines)


def refusal(hand: WinningHand, options: BeijingOptions, wild: Tile) -> str:
    """Why the wild-tile rules and the variations forbid going out this way ("" when they allow it).

    A hand that is not complete is told so first: how it went out matters only to one that is.
    """
    for meld in hand.exposed:
        if wild in meld.tiles:
            return f"a wild tile ({code(wild)}) may not be in an open set or a kong"
    if not is_complete(counts(hand.concealed), kind_index(wild), len(hand.exposed)):
        return "not a complete hand: the tiles make neither 4 sets and an eye nor seven pairs, even with the wilds"
    fed = hand.how.fed
    if fed and hand.winning_tile == wild:
        return f"a discarded wild tile ({code(wild)}) can never be claimed to win, even at its face value"
    if fed and any(not m.concealed for m in hand.exposed):
        return "a player with open sets wins only by their own tile"
    wilds = hand.concealed.count(wild)
    if fed and wilds > MAX_WILDS_ON_DISCARD:
        return f"a player holding more than {MAX_WILDS_ON_DISCARD} wild tiles wins only by their own tile"
    if fed and wild_eye_wait(hand, wild):
        return "a hand waiting for its eye with a wild tile wins only by its own tile"
    if options.flag(opt.AT_MOST_ONCE):
        claimed = sum(1 for m in hand.exposed if m.kind in (MeldKind.CHOW, MeldKind.PUNG))
        if claimed > 1:
            return f"AtMostOnce: the hand has {claimed} chows and pungs, and a player may make only one"
    return ""


def _values(hand: WinningHand, a: Arrangement) -> tuple[Tile, ...]:
    tiles = [t for m in hand.exposed for t in m.tiles]
    if a.seven_pairs:
        tiles += [t for t in a.pairs for _ in range(2)]
    else:
        assert a.pair is not None
        tiles += [a.pair, a.pair, *(t for t in a.pungs for _ in range(3))]
        tiles += [t + k for t in a.chows for k in range(3)]
    return tuple(tiles)


def _void(values: tuple[Tile, ...]) -> bool:
    return len({t - t % 10 for t in values if t < WIND}) < len(SUITS)


def _score_reading(r: Reading) -> BeijingScore:
    hand = r.hand
    unit = r.options[opt.UNIT]
    upstairs = 2 if r.upstairs else 1
    rare = tuple((p.name, w) for p in RARE_EVENTS if (w := p.worth(r)))
    rare_points = sum(w for _, w in rare)
    kongs = kong_points(hand)
    payers = []
    per_payer: list[dict[str, int]] = []
    for payer in range(4):
        if payer == hand.seat:
            continue
        applied = {d.name: n for d in DOUBLES if (n := d.test(r, payer))}
        per_payer.append(applied)
        doubles = sum(applied.values())
        amount = unit * 2**doubles + (rare_points + kongs * 2 ** kong_doubles(r, payer)) * upstairs
        payers.append(PayerScore(payer, tuple(applied.items()), amount))
    first = per_payer[0]
    shared = tuple((name, n) for name, n in first.items() if all(p.get(name) == n for p in per_payer))
    return BeijingScore(True, "", shared, tuple(payers), rare, kongs, r.upstairs)


def score(hand: WinningHand, options: BeijingOptions, indicator: Tile, upstairs: bool = False) -> BeijingScore:
    """Score ``hand`` with wild ``indicator`` turned up; ``upstairs``: this hand is upstairs (the table knows)."""
    wild = wild_of(indicator)
    reason = refusal(hand, options, wild)
    if reason:
        return BeijingScore(False, reason)
    up = upstairs and (options.flag(opt.UPSTAIRS) or options.flag(opt.UPSTAIRS_BANKER))
    best: BeijingScore | None = None
    for a in arrangements(counts(hand.concealed), kind_index(wild), len(hand.exposed)):
        values = _values(hand, a)
        if options.flag(opt.VOID_SUIT) and not _void(values):
            continue
        scored = _score_reading(Reading(hand, options, wild, a, values, up))
        if best is None or scored.total > best.total:
            best = scored
    if best is None:
        return BeijingScore(False, "VoidSuit: no reading of the hand lacks one of the three suits")
    return best
