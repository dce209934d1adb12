"""How the robot plays the IMS rules: it aims for the fan its hand can score, bids to keep it, and defends.

The generic levels (:mod:`mj.robot.levels`) race for any complete hand. Under IMS that
loses twice: with Minimum Fan 2 most fast hands may never go out (the MahJong move is
not even offered), and the score doubles with each fan (``2^fan + bonus``), while a
feeder pays the winner's whole score alone. So this strategy weighs every discard and
every bid by the points the hand is expected to bring:

* a hand is read as a few *plans*: any four sets and a pair (with the fan already
  certain: Front Door Clean while nothing is revealed, triplets of dragons and of the
  seat and round winds, quadruplets), one suit (One Mixed Suit, One Pure Suit), All
  Triplets and 7 Pairs; each plan's distance (shanten, on count vectors) gives a
  chance to win (:func:`mj.robot.evaluate.win_chance`) and its fan a score; a plan
  short of the table's Minimum Fan counts a step further per missing fan, so a hand
  that cannot reach the minimum is never raced for;
* a ready hand is valued exactly: each waiting tile's hand is scored by the table's
  rule system (``view.rules``: its ``goes_out`` and ``score``), self-drawn and fed,
  so a wait the minimum forbids is worth nothing;
* a bid (Triplet, Connection, Quadruplet) is made when the hand after it, with its
  best discard, is worth more than the hand without it: a connection that costs Front
  Door Clean and brings no fan is passed up; [Draw] is the default;
* levels 2 and 3 defend: each discard's worth is ``(1 - p) * value - p * cost``, ``p``
  the chance it deals in (:mod:`mj.robot.defence`), ``cost`` the level's
  (:attr:`mj.robot.levels.Defence.cost`) times what a feeder pays a typical winner;
* the levels count the useful tiles as the generic levels do (:data:`mj.robot.levels.SLIP`:
  level 1 never, level 2 in half of its hands, level 3 always).

Where the table asks no minimum fan (``MinimumFan=0``) the generic level plays it instead
(:func:`races`, read by :mod:`mj.robot.systems`): any complete hand goes out there, and the
generic race for speed was measured to score more than these plans.

The fan each element brings is read from the rule system's own element table
(:data:`mj.rules.ims.scoring.FAN_ELEMENTS`), never written here again. How the levels
measure against each other and against the generic robot: docs/robot-tuning.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mj import hand, tiles
from mj.melds import KongOrigin, Meld, MeldKind, chow, kong, pung
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.robot import defence, evaluate
from mj.robot.levels import SLIP, Defence, LevelOne, system_defence
from mj.robot.personality import Personality
from mj.robot.strategy import Claim, ClaimKind, Strategy
from mj.rules.base import SeatHand, Win, WinSource
from mj.rules.ims.options import COUNT_FLOWERS, MINIMUM_FAN
from mj.rules.ims.scoring import BONUS_ELEMENTS, FAN_ELEMENTS, MAX_FAN, score_of
from mj.seatview import SeatView, chow_partners
from mj.tiles import KINDS, NUM_KINDS, Tile, kind_index

_FAN: Final = {e.name: e.value for e in FAN_ELEMENTS}
_BONUS: Final = {e.name: e.value for e in BONUS_ELEMENTS}
_HONOURS: Final = tuple(range(27, NUM_KINDS))
_CLEAN: Final = _FAN["Front Door Clean"]
_MIXED_SUIT: Final = _FAN["One Mixed Suit"]
_PURE_SUIT: Final = _FAN["One Pure Suit"]
_ALL_TRIPLETS: Final = _FAN["All Triplets"]
_SEVEN_PAIRS: Final = _FAN["7 Pairs"]
_ORDINARY: Final = frozenset(KINDS)

#: The share of wins that are self-drawn (all three pay the score; fed, the feeder pays it
#: and the others the bonus): 28-37% in IMS arena games of these robots.
SELF_DRAWN: Final = 0.3
#: A suit is aimed for only with this many of its tiles held (sets out count 3 each).
MIN_SUIT_TILES: Final = 6
#: The fan counted for a pair of a scoring honour with a copy unseen (it may become the triplet).
PAIR_FAN: Final = 0.4
#: A bid is made when it brings the hand nearer and keeps at least this share of its worth
#: (a connection that costs the only fan a hand has is passed up).
BID_WORTH: Final = 0.6
#: A distance no plan reaches (:meth:`IMSStrategy._options` weighs every discard).
NO_LIMIT: Final = 99
#: The hands' shapes kept (:class:`_Memo`) before they are forgotten all at once.
SHAPES_KEPT: Final = 20000


def points(fan: float, bonus: float) -> float:
    """The seed's score (:func:`mj.rules.ims.scoring.score_of`) for a fan that may be fractional (an estimate)."""
    fan = min(fan, float(MAX_FAN))
    return 2.0**fan + bonus if fan <= 4 else fan * fan + bonus


def paid(score: float, bonus: float) -> float:
    """What a win scoring ``score`` brings the winner on average, self-drawn or fed (see :data:`SELF_DRAWN`)."""
    return SELF_DRAWN * 3 * score + (1 - SELF_DRAWN) * (score + 2 * bonus)


@dataclass(slots=True, init=False)
class _Memo:
    """What a hand's counts alone decide, kept from one decision to the next (:data:`_MEMO`).

    Shanten and the kinds that bring a hand closer depend on the counts (and the sets
    declared) only, not on the unseen tiles; the same hands recur at every discard
    weighed (a discard from another suit leaves a suit plan as it was) and at every
    bid considered while the hand waits, so each is worked out once and only the
    unseen copies are counted afresh. Everything is forgotten at once past
    :data:`SHAPES_KEPT` entries.
    """

    #: A suit plan's counts (:func:`_suit_shape`) -> its shanten and useful kinds.
    suits: dict[tuple[int, ...], tuple[int, tuple[int, ...]]]
    #: A hand about to discard (:func:`_discards`) -> each discard's kind, shanten left and useful draws.
    discards: dict[tuple[int, ...], list[tuple[int, int, tuple[int, ...]]]]
    #: A hand not about to discard (:meth:`IMSStrategy._plan_now`) -> its shanten and useful kinds.
    standing: dict[tuple[int, ...], tuple[int, tuple[int, ...]]]

    def __init__(self) -> None:
        self.suits = {}
        self.discards = {}
        self.standing = {}

    def make_room(self) -> None:
        """Forget everything once :data:`SHAPES_KEPT` entries are kept."""
        if len(self.suits) + len(self.discards) + len(self.standing) >= SHAPES_KEPT:
            self.suits.clear()
            self.discards.clear()
            self.standing.clear()


#: What the counts alone decide, shared by every strategy of this process (pure functions of the counts).
_MEMO: Final = _Memo()


@dataclass(slots=True, init=False)
class _Table:
    """What one decision's plans share: the table's minimum, the hand's bonus and the scoring honours."""

    minimum: int
    bonus: int
    #: By kind index: the fan a triplet of that kind brings this seat (0 for suit tiles).
    honour_fan: list[int]
    live: int
    unseen: list[int]
    #: What the counts alone decide, kept across decisions (:data:`_MEMO`).
    memo: _Memo

    def __init__(self, view: SeatView, unseen: list[int], memo: _Memo | None = None) -> None:
        options = view.options
        self.minimum = options[MINIMUM_FAN]
        bonus = len(view.specials) * _BONUS["Flowers"] if options.flag(COUNT_FLOWERS) else 0
        if view.my_seat == 0:
            bonus += _BONUS["Dealer"]
        for meld in view.melds:
            if meld.kind is MeldKind.KONG and meld.kong_origin is KongOrigin.CONCEALED:
                bonus += _BONUS["Concealed Quadruplet"]
        self.bonus = bonus
        fan = [0] * NUM_KINDS
        for k in _HONOURS:
            tile = KINDS[k]
            fan[k] = (
                _FAN["Dragon"] * tiles.is_dragon(tile)
                + _FAN["Seat Wind"] * (tile == view.own_wind)
                + _FAN["Round Wind"] * (tile == view.prevailing)
            )
        self.honour_fan = fan
        # The model's scale is a full live wall of 77 tiles; ``live_tiles`` already stops where IMS
        # ends the hand, 13 tiles short of the wall's end.
        self.live = min(evaluate.FULL_WALL, view.live_tiles)
        self.unseen = unseen
        self.memo = _Memo() if memo is None else memo


@dataclass(slots=True, init=False)
class _Shown:
    """What the seat's declared sets fix for every plan."""

    sets: int
    #: Nothing declared: Front Door Clean and the special patterns are still open.
    concealed: bool
    #: The fan the declared sets bring whatever follows (honour triplets, quadruplets).
    fan: int
    #: The suits (0..2) of the declared sets of suit tiles.
    suits: frozenset[int]
    honours: bool
    triplets_only: bool

    def __init__(self, melds: Sequence[Meld], honour_fan: list[int]) -> None:
        sets = [m for m in melds if m.kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG)]
        self.sets = len(sets)
        self.concealed = not sets
        fan = 0
        suits: set[int] = set()
        honours = False
        for meld in sets:
            k = kind_index(meld.tile)
            if meld.kind is MeldKind.KONG:
                fan += _FAN["Quadruplet"]
            if k >= 27:
                honours = True
                fan += honour_fan[k]
            else:
                suits.add(k // 9)
        self.fan = fan
        self.suits = frozenset(suits)
        self.honours = honours
        self.triplets_only = all(m.kind is not MeldKind.CHOW for m in sets)


#: A plan: its distance (shanten, plus a step per fan missing), its worth (win chance times
#: what the win brings), and its weight among plans as near (useful tiles times what it brings).
_Plan = tuple[int, float, float]


def win_chance(table: _Table, shanten: int, ukeire: int) -> float:
    """How likely a hand ``shanten`` from ready with ``ukeire`` useful unseen tiles goes out
    (the model fitted on the robots' own hands, :func:`mj.robot.evaluate.win_chance`)."""
    if shanten < 0:
        return 1.0
    return evaluate.win_chance(shanten, ukeire, table.live)


def _value(table: _Table, fan: float) -> float:
    """What a win with ``fan`` brings (:func:`paid`); the table's minimum where ``fan`` is short of it."""
    return paid(points(max(fan, float(table.minimum)), table.bonus), table.bonus)


def _steps(table: _Table, shanten: int, fan: float) -> int:
    """The distance of a plan ``shanten`` away promising ``fan``: a step further per fan short of the minimum."""
    if fan < table.minimum:
        return shanten + int(table.minimum - fan + 0.999)
    return shanten


def _suit_shape(table: _Table, vector: Sequence[int], sets: int, suit: int, honours: bool) -> tuple[int, int]:
    """The one-suit plan's standard shanten and its useful unseen tiles: ``vector``'s tiles of ``suit``
    (and its honours where ``honours``), the other suits' thrown.

    Worked out once per counts (:class:`_Memo`), as if the suit were the first: the
    three suits are alike to the shanten, so one shape serves them all.
    """
    low = suit * 9
    key = (*vector[low : low + 9], *vector[27:], sets) if honours else (*vector[low : low + 9], sets)
    memo = table.memo
    shape = memo.suits.get(key)
    if shape is None:
        memo.make_room()
        shape = memo.suits[key] = _work_suit_shape(vector[low : low + 9], vector[27:] if honours else (), sets)
    unseen = table.unseen
    ukeire = 0
    for k in shape[1]:
        ukeire += unseen[k + low if k < 9 else k]
    return shape[0], ukeire


def _work_suit_shape(suit: Sequence[int], honours: Sequence[int], sets: int) -> tuple[int, tuple[int, ...]]:
    """:func:`_suit_shape`'s shanten and useful kinds (of the first suit and the honours), worked out."""
    kept = [0] * NUM_KINDS
    kept[0:9] = suit
    kinds: tuple[int, ...] = tuple(range(9))
    if honours:
        kept[27:] = honours
        kinds = (*kinds, *_HONOURS)
    shanten = hand.shanten(kept, sets)
    after = hand.shanten_after_draws(kept, sets, False)
    return shanten, tuple(k for k in kinds if after[k] < shanten)


def _discards(table: _Table, vector: Sequence[int], sets: int, concealed: bool) -> list[tuple[Tile, int, int]]:
    """Each distinct discard of a hand about to discard: the tile, the shanten left and its useful unseen tiles
    (as :func:`mj.robot.evaluate.discard_options` counts them for every discard), the draws kept per counts."""
    key = (*vector, sets, int(concealed))
    memo = table.memo
    found = memo.discards.get(key)
    if found is None:
        memo.make_room()
        held = [k for k in range(NUM_KINDS) if vector[k]]
        useful = hand.useful_draws(vector, sets, concealed, held)
        found = memo.discards[key] = [(k, s, draws) for k, (s, draws) in zip(held, useful, strict=True)]
    unseen = table.unseen
    options = []
    for k, s, draws in found:
        ukeire = 0
        for draw in draws:
            ukeire += unseen[draw]
        options.append((KINDS[k], s, ukeire))
    return options


def plan_value(table: _Table, shown: _Shown, vector: Sequence[int], shanten: int, ukeire: int) -> _Plan:
    """The best plan for the concealed ``vector`` (a hand not about to discard): its distance and worth in points.

    The nearest plan that reaches the table's minimum comes first (speed wins most of
    the points: a step costs more than a fan brings); a plan short of the minimum
    counts a step further per missing fan (and is valued at the minimum). Among plans
    as near, the one whose useful tiles times its score is greatest comes first: the
    chance to win grows about in proportion to the useful tiles at one distance (see
    :mod:`mj.robot.levels` on weighing prospects).
    ``shanten`` (:func:`mj.hand.shanten_all`) and ``ukeire`` are the hand's distance
    and the unseen tiles bringing it closer, as the caller counted them; the other
    plans count their own. With sets declared, no special hand is open and that
    shanten is the standard hand's.
    """
    sets = shown.sets
    unseen = table.unseen
    honour_fan = table.honour_fan
    # One pass over the counts for what the plans count: per suit, triplets, pairs, unseen copies.
    by_suit = [0, 0, 0]
    triplets = pairs = seven = 0
    pair_unseen = single_unseen = 0
    for k in range(NUM_KINDS):
        n = vector[k]
        if not n:
            continue
        if k < 27:
            by_suit[k // 9] += n
        if n >= 3:
            triplets += 1
        elif n == 2:
            pairs += 1
            pair_unseen += unseen[k]
        elif n == 1:
            single_unseen += unseen[k]
        seven += n // 2
    held_fan = 0.0
    pair_fan = 0.0
    triplet_fan = 0.0
    for k in _HONOURS:
        n = vector[k]
        if n >= 3:
            held_fan += honour_fan[k]
        elif n == 2 and unseen[k]:
            pair_fan += PAIR_FAN * honour_fan[k]
            triplet_fan += PAIR_FAN * 2 * honour_fan[k]
    clean = _CLEAN if shown.concealed else 0
    base = shown.fan + held_fan + clean
    # The plans are compared on distance and weight; the win chance is worked out for the best alone.
    fan = base + pair_fan
    best_distance = _steps(table, shanten if sets else hand.shanten(vector, sets), fan)
    best_value = _value(table, fan)
    best_ukeire = ukeire
    best_weight = ukeire * best_value
    candidates: list[tuple[int, int, float]] = []  # (shanten, ukeire, fan) of the other plans
    # One suit: the other suits' tiles are to be thrown (zeroed, as missing tiles).
    if len(shown.suits) <= 1:
        if shown.suits:
            suit = next(iter(shown.suits))
        else:  # the suit held most, the first of equals
            suit = 0
            if by_suit[1] > by_suit[suit]:
                suit = 1
            if by_suit[2] > by_suit[suit]:
                suit = 2
        if by_suit[suit] >= MIN_SUIT_TILES - 3 * len(shown.suits):
            s, u = _suit_shape(table, vector, sets, suit, True)
            candidates.append((s, u, base + pair_fan + _MIXED_SUIT))
            if not shown.honours:
                s, u = _suit_shape(table, vector, sets, suit, False)
                candidates.append((s, u, shown.fan + clean + _PURE_SUIT))
    if shown.triplets_only:
        # Four triplets and a pair: each missing triplet needs two tiles, a pair held saves one;
        # a single helps while more pairs are wanted.
        need = 4 - sets
        short = need - min(need, triplets)
        s = 2 * short - min(pairs, short + 1)
        u = pair_unseen + (single_unseen if pairs < short + 1 else 0)
        candidates.append((s, u, base + triplet_fan + _ALL_TRIPLETS))
    if shown.concealed:
        candidates.append((6 - min(7, seven), single_unseen, _SEVEN_PAIRS))
    for s, u, fan in candidates:
        distance = _steps(table, s, fan)
        value = _value(table, fan)
        weight = u * value
        if distance < best_distance or (distance == best_distance and weight > best_weight):
            best_distance, best_value, best_ukeire, best_weight = distance, value, u, weight
    return best_distance, win_chance(table, best_distance, best_ukeire) * best_value, best_weight


#: A discard weighed: the tile and the plan (:data:`_Plan`) the rest of the hand has.
_Option = tuple[Tile, int, float, float]


def _order(option: _Option) -> tuple[int, float]:
    """The order of discards without danger: nearest plan first, then the greatest weight."""
    return option[1], -option[3]


class IMSStrategy(LevelOne):
    """The IMS play described in the module documentation; ``level`` 2 and 3 defend (``rules``: a variant's
    :class:`~mj.robot.levels.Defence`, of which the cost, quiet and drop are read)."""

    def __init__(
        self, level: int, personality: Personality | None = None, seed: int = 0, rules: Defence | None = None
    ) -> None:
        super().__init__(personality, seed, SLIP[level])
        self.level = level
        self.rules = system_defence(level, rules)
        #: Ready hands already scored: (melds, concealed, winning kind) -> points, for one hand.
        self._scored: dict[tuple[tuple[Meld, ...], tuple[Tile, ...], int], float] = {}
        self._scored_hand = -1

    # -- discards

    def _choose(self, view: SeatView, vector: list[int], unseen: list[int]) -> Tile:
        table = _Table(view, unseen, _MEMO)
        concealed = [t for t in view.concealed if t in _ORDINARY]
        options = self._options(view, table, vector, concealed, view.melds)
        if self._blind:  # a slip: only how far each discard leaves the hand counts
            options = [(tile, distance, worth, 0.0) for tile, distance, worth, _ in options]
        push = min(options, key=_order)
        if self.rules.cost > 0.0:
            held = [k for k in range(NUM_KINDS) if vector[k]]
            danger = defence.assess(view, unseen, held)
            if max(danger.deal_in[k] for k in held) >= self.rules.quiet:
                return self._defend(table, options, push, danger)
        near = [o for o in options if _order(o) == _order(push)]
        return self._rng.choice([o[0] for o in near])

    def _defend(self, table: _Table, options: list[_Option], push: _Option, danger: defence.Danger) -> Tile:
        """The discard worth most once its chance to deal in is weighed (as :class:`mj.robot.levels.LevelTwo`).

        A discard leaving the hand further than the best counts the level's ``drop`` of
        the best's worth per step: the plans' worths are compared within one distance only.
        """
        rules = self.rules
        cost = rules.cost * self._typical_loss(table)
        best_tile, best_worth = push[0], -math.inf
        top = push[3]
        for tile, distance, worth, weight in sorted(options, key=_order):
            if distance > push[1]:
                worth = push[2] * rules.drop ** (distance - push[1])
            elif self._blind:
                worth = push[2]  # a slip: every discard as near looks as good
            else:
                worth = push[2] * weight / top if top > 0.0 else 0.0
            risk = danger.of(tile)
            worth = (1.0 - risk) * worth - risk * cost
            if worth > best_worth + 1e-9:
                best_tile, best_worth = tile, worth
        return best_tile

    def _options(
        self,
        view: SeatView,
        table: _Table,
        vector: list[int],
        concealed: list[Tile],
        melds: Sequence[Meld],
        within: int = NO_LIMIT,
    ) -> list[_Option]:
        """Each discard of a hand about to discard: the tile and the plan (:data:`_Plan`) of the rest.

        Empty where no discard can leave a plan nearer than ``within`` steps: a plan is
        never nearer than the shanten over every hand shape (a suit plan holds fewer
        tiles, the others are shapes that shanten counts), so a bid that cannot bring
        the hand nearer is passed up without weighing its plans.
        """
        shown = _Shown(melds, table.honour_fan)
        discards = _discards(table, vector, shown.sets, shown.concealed)
        if min(d[1] for d in discards) >= within:
            return []
        found = []
        for tile, shanten, ukeire in discards:
            rest = evaluate.without(vector, tile)
            distance, worth, weight = plan_value(table, shown, rest, shanten, ukeire)
            if shanten == 0:
                left = list(concealed)
                left.remove(tile)
                exact = self._ready_value(view, table, rest, left, melds, shown.sets)
                if exact[2] > 0.0:
                    distance, worth, weight = exact
                else:
                    distance = max(distance, 1)  # no wait may go out: a tile must change
            found.append((tile, distance, worth, weight))
        return found

    def _typical_loss(self, table: _Table) -> float:
        """What a feeder pays a typical winner: a hand with a fan more than the table's minimum."""
        return float(score_of(max(table.minimum, 1) + 1, 3))

    def _ready_value(
        self, view: SeatView, table: _Table, vector: list[int], concealed: list[Tile], melds: Sequence[Meld], sets: int
    ) -> _Plan:
        """A ready hand's plan: its chance to win times what each wait scores, by the table's rule system."""
        if view.hand_no != self._scored_hand:
            self._scored_hand = view.hand_no
            self._scored.clear()
        waiting = 0
        total = 0.0
        key = (tuple(melds), tuple(sorted(concealed)))
        for k in hand.wait_indices(vector, sets, not melds):
            copies = table.unseen[k]
            if not copies:
                continue
            waiting += copies
            found = self._scored.get((*key, k))
            if found is None:
                found = self._scored[(*key, k)] = self._win_points(view, melds, concealed, KINDS[k])
            total += copies * found
        if not waiting or total == 0.0:
            return 0, 0.0, 0.0
        return 0, win_chance(table, 0, waiting) * total / waiting, total

    def _win_points(self, view: SeatView, melds: Sequence[Meld], concealed: list[Tile], tile: Tile) -> float:
        """What going out on ``tile`` brings on average, self-drawn or fed; 0 where the rules forbid it."""
        rules = view.rules
        seat = SeatHand(tuple(melds), (*concealed, tile), tuple(view.specials), view.own_wind, view.prevailing)
        me = view.my_seat
        worth = 0.0
        for source, share in ((WinSource.WALL, SELF_DRAWN), (WinSource.DISCARD, 1.0 - SELF_DRAWN)):
            win = Win(
                tile=tile,
                source=source,
                melds_before_win=len(melds),
                visible=(),
                last_tile=False,
                heavens_blessing=False,
                earths_blessing=False,
                kong_upon_kong=False,
                original_call=False,
                hands_as_east=view.hands_as_east,
                winner_is_east=me == 0,
                feeder=None if source is WinSource.WALL else (me + 1) % 4,
            )
            if not rules.goes_out(seat, win, view.options):
                continue
            result = rules.score(seat, win, view.options, True)
            if source is WinSource.WALL:
                worth += share * 3 * result.score
            else:
                worth += share * (result.score + 2 * result.figure("bonus"))
        return worth

    # -- bids

    def claim(self, view: SeatView, tile: Tile, serial: int) -> Claim | None:
        legal = view.legal_moves()
        kinds = set(map(type, legal))
        if P.MahJong in kinds:
            return Claim(ClaimKind.MAHJONG)
        if P.Pung not in kinds and P.Chow not in kinds:
            return None  # most discards: nothing to bid but Draw or Pass
        combination = self._reconsider(view, drawn=False)
        if combination.hiddenness >= 1:
            return None
        bids: list[tuple[Claim, tuple[Tile, ...], Meld]] = []
        if P.Pung in kinds:
            bids.append((Claim(ClaimKind.PUNG), (tile, tile), pung(tile, False)))
        if P.Kong in kinds:
            bids.append((Claim(ClaimKind.KONG), (tile, tile, tile), kong(tile, KongOrigin.CLAIMED)))
        if combination.chowness > -1:
            for move in legal:
                if type(move) is P.Chow and move.cpos is not ChowPosition.ANYPOS:
                    pair = chow_partners(tile, move.cpos)
                    bids.append((Claim(ClaimKind.CHOW, move.cpos), pair, chow(min(tile, *pair), False)))
        unseen = view.unseen_counts()
        table = _Table(view, unseen, _MEMO)
        vector = view.hand_counts()
        concealed = [t for t in view.concealed if t in _ORDINARY]
        melds = view.melds
        best: Claim | None = None
        best_plan = self._plan_now(view, table, vector, concealed, melds)
        for bid, partners, meld in bids:
            rest = evaluate.without(vector, *partners)
            left = list(concealed)
            for partner in partners:
                left.remove(partner)
            after = [*melds, meld]
            if meld.kind is MeldKind.KONG:
                plan = self._plan_now(view, table, rest, left, after)
            else:
                options = self._options(view, table, rest, left, after, best_plan[0])
                if not options:
                    continue  # no nearer than the hand is now
                plan = min(options, key=_order)[1:]
            if plan[0] < best_plan[0] and plan[1] > best_plan[1] * BID_WORTH:
                best, best_plan = bid, plan
        return best

    def _plan_now(
        self, view: SeatView, table: _Table, vector: list[int], concealed: list[Tile], melds: Sequence[Meld]
    ) -> _Plan:
        """The plan of a hand not about to discard (as a discard leaves it)."""
        shown = _Shown(melds, table.honour_fan)
        key = (*vector, shown.sets, int(shown.concealed))
        memo = table.memo
        standing = memo.standing.get(key)
        if standing is None:
            memo.make_room()
            now = hand.shanten_all(vector, shown.sets, shown.concealed)
            draws = hand.shanten_after_draws(vector, shown.sets, shown.concealed)
            standing = memo.standing[key] = now, tuple(k for k in range(NUM_KINDS) if draws[k] < now)
        now = standing[0]
        ukeire = 0
        for k in standing[1]:
            ukeire += table.unseen[k]
        plan = plan_value(table, shown, vector, now, ukeire)
        if now == 0:
            exact = self._ready_value(view, table, vector, concealed, melds, shown.sets)
            if exact[2] > 0.0:
                return exact
            return max(plan[0], 1), plan[1], plan[2]
        return plan


def races(view: SeatView) -> bool:
    """Whether the generic level plays this table instead: where no minimum fan is asked any complete hand
    goes out, and there the generic levels' race for speed scored more than this strategy's plans
    (docs/robot-tuning.md, the levels under IMS and Beijing)."""
    return view.options[MINIMUM_FAN] == 0


def make_ims_strategy(
    level: int, personality: Personality | None = None, seed: int = 0, rules: Defence | None = None
) -> Strategy:
    """The IMS strategy of ``level`` (1: fan-aware, no defence, useful tiles not counted; 2, 3: see
    :data:`mj.robot.levels.SLIP`), or a variant of its Defence (``rules``)."""
    return IMSStrategy(level, personality, seed, rules)
