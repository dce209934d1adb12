"""Robot strategies by level of play, and :func:`make_strategy` to pick one by number.

:class:`LevelOne` plays for speed, as a beginner taught "get ready as fast as you can" would:

* discard the tile leaving the least shanten, then the most useful unseen tiles
  (ukeire); among equal shapes keep scoring honours, follow the personality's
  majorness and suitness, avoid feeding an opponent's exposed threat (the
  discards that make one pay for everybody, protocol.md §9.8), and prefer tiles
  already discarded (fewer left for others);
* claim a pung or chow only when it lowers the shanten, a kong when it does not
  raise it, mah-jong whenever it is legal; rob a kong whenever possible;
* declare flowers and seasons at once, concealed kongs and additions to pungs when
  they do not set the hand back, and go out as soon as the hand is complete;
* declare the winning hand in its best-scoring legal reading
  (:mod:`mj.robot.declare`).

The levels differ first in whether they count the useful tiles: level 1 never does
(it sees how far each discard leaves the hand from ready, not how many tiles would
improve it), level 2 does in half of its hands, level 3 always (:data:`SLIP`, which the
IMS and Beijing strategies read too). Counting them is most of the robots' strength, so this is what makes each
level clearly stronger than the one below (the figures: ``docs/robot-tuning.md``).

The personality (:mod:`mj.robot.personality`) works at every level: ``chowness``
-1 never chows, below 0 chows only to get ready, above 0 prefers a chow to an
equally good pung; ``hiddenness`` 1 claims only to go out and above 0 claims sets
only to get ready; ``majorness`` and ``suitness`` weigh in among equally good
discards. With several values in the lists the robot picks the combination that
fits its hand best at the start of each hand and switches after a draw only when
another fits better by more than ``hysteresis`` (:meth:`LevelOne._fit` says how
well, in hand-score points).

Levels 2 and 3 (:class:`LevelTwo`) add defence (:mod:`mj.robot.defence`): every
discard is weighed by the chance that it deals in against the chance to win with
what is left, so a safe tile goes out instead of the best shape when the shape's
gain is worth less than its risk; and they claim doubling pungs (dragons, own and
prevailing wind) that do not set the hand back (level 3 also pungs of terminals and
of the other winds, which score whether the hand wins or loses). Both count a
deal-in as costing half a typical win. Level 3 also weighs each hand by what it is
worth, giving up a cheap hand sooner than a dear one or East's; among the discards
that leave the same shanten it weighs the useful tiles each keeps by the square of
the :func:`prospect` of the hand it leaves (a flush it leans to, a pair of a doubling
honour), and a ready hand's waits by how often the others throw their kinds
(:attr:`Defence.lure`: honours and terminals more than middle tiles); it counts a
hand short of ready as less likely to win the likelier an opponent is ready
(:attr:`Defence.hurry`); and when it weighs safety it also weighs
what each discard takes from the score its hand would show as a loser
(:func:`loser_value`: losers settle their scores among themselves), so it folds
without breaking a scoring pung while a safe enough tile is left. How each of these
was chosen and what it measured, with the alternatives tried and left out, is in
``docs/robot-tuning.md``.

Deciding from the view alone, a strategy keeps only the combination it plays with
and a seeded random generator used only to break exact ties and to pick the hands
level 2 slips in, so the same views in the same order and the same seed always give
the same moves.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from mj import tiles
from mj.hand.counting import HONOURS_START
from mj.melds import MeldKind
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.robot import declare, defence, evaluate
from mj.robot.personality import Combination, Personality, Switcher
from mj.robot.strategy import Claim, ClaimKind, Declaration, KongKind, KongMove, Strategy
from mj.rules.classical import danger
from mj.seatview import SeatView, chow_partners
from mj.tiles import BLANK, NUM_KINDS, Tile, kind_index

#: Levels accepted by ``mj-player --level``.
LEVELS: Final = (1, 2, 3)
#: The level ``mj-player`` plays without ``--level``: the strongest.
DEFAULT_LEVEL: Final = 3
#: How many hand-score points a combination's preference is worth when the hand fits it
#: fully (:meth:`LevelOne._fit`): one suit doubles a hand of about 40 points; a hand of
#: majors tends to pungs and doubles less surely; chows and concealment matter less.
SUIT_POINTS: Final = 40.0
MAJOR_POINTS: Final = 20.0
CHOW_POINTS: Final = 10.0
HIDDEN_POINTS: Final = 10.0


class LevelOne:
    """The speed-first strategy described in the module documentation."""

    def __init__(self, personality: Personality | None = None, seed: int = 0, slip: float = 0.0) -> None:
        self.personality = personality or Personality()
        self._rng = random.Random(seed)
        self._switcher = Switcher(self.personality)
        self._hand = -1
        #: The share of hands played without counting the useful tiles (:meth:`_shape_key`).
        self.slip = slip
        self._blind = slip >= 1.0
        self._slip_hand = -1

    @property
    def combination(self) -> Combination:
        """The combination of personality values played with now."""
        return self._switcher.current

    # -- own turn

    def declare_special(self, view: SeatView) -> Tile | None:
        legal = view.legal_moves()
        if not _offers(legal, P.DeclareSpecial):
            return None  # most turns: looked up at C speed
        return next((m.tile for m in legal if isinstance(m, P.DeclareSpecial) and m.tile != BLANK), None)

    def mahjong_now(self, view: SeatView) -> bool:
        return _offers(view.legal_moves(), P.MahJong)

    def kong(self, view: SeatView) -> KongMove | None:
        legal = view.legal_moves()
        if not _offers(legal, P.DeclareClosedKong) and not _offers(legal, P.AddToPung):
            return None  # most turns: looked up at C speed
        closed = [m.tile for m in legal if isinstance(m, P.DeclareClosedKong)]
        # The pung just claimed may become a kong at once; the robot only ever adds a drawn tile.
        additions = [] if view.after_claim else [m.tile for m in legal if isinstance(m, P.AddToPung)]
        if not closed and not additions:
            return None
        vector = view.hand_counts()
        sets = view.declared_sets
        now = evaluate.best_shanten_after_discard(vector, sets, view.seven_pairs)
        for tile in closed:
            if evaluate.shanten(evaluate.without(vector, *(tile,) * 4), sets + 1, False) <= now:
                return KongMove(KongKind.CLOSED, tile)
        for tile in additions:
            if evaluate.shanten(evaluate.without(vector, tile), sets, view.seven_pairs) <= now:
                return KongMove(KongKind.ADD_TO_PUNG, tile)
        return None

    def discard(self, view: SeatView) -> tuple[Tile, bool]:
        self._reconsider(view, drawn=not view.after_claim)
        vector = view.hand_counts()
        if not any(vector):
            raise ValueError("nothing to discard")
        if 0.0 < self.slip < 1.0 and view.hand_no != self._slip_hand:
            self._slip_hand = view.hand_no
            self._blind = self._rng.random() < self.slip
        return self._choose(view, vector, view.unseen_counts()), False

    def _choose(self, view: SeatView, vector: list[int], unseen: list[int]) -> Tile:
        """The best discard on shape, then safety, value and the discards seen (``unseen``: copies by kind)."""
        options = evaluate.discard_options(vector, view.declared_sets, view.seven_pairs, unseen)
        key = self._shape_key(view, vector, unseen)
        keys = [key(o) for o in options]
        best = min(keys)
        return self._rng.choice([o.tile for o, k in zip(options, keys, strict=True) if k == best])

    def _shape_key(
        self, view: SeatView, vector: list[int], unseen: list[int]
    ) -> Callable[[evaluate.DiscardOption], tuple[int, float, int, float, int]]:
        """Level 1's order of discards: shanten, ukeire, §9.8 threats, keeping value, copies discarded.

        The ukeire is negated as a float so that level 3 can put its weighed ukeire there
        (:meth:`LevelTwo._shape_key`); ``unseen`` (copies by kind) is for that weighing. On
        a slip (``slip``: always at level 1, in some hands at level 2) the useful tiles
        are not counted: only how far each discard leaves the hand from ready. Level 2 slips
        for whole hands: slipping on single discards cost it almost nothing, for the next
        counted discard mends the shape.
        """
        discarded = view.discarded_counts()
        threat = self._threat(view, discarded)
        keep = self._keep_value(view, vector)
        counted = 0.0 if self._blind else 1.0

        def key(option: evaluate.DiscardOption) -> tuple[int, float, int, float, int]:
            tile = option.tile
            return (
                option.shanten,
                -counted * option.ukeire,
                threat(tile),
                keep(tile),
                -discarded[kind_index(tile)],
            )

        return key

    # -- other players' tiles

    def claim(self, view: SeatView, tile: Tile, serial: int) -> Claim | None:
        legal = view.legal_moves()  # the moves on this tile: the kind of each says it all
        kinds = set(map(type, legal))
        if P.MahJong in kinds:
            return Claim(ClaimKind.MAHJONG)
        combination = self._reconsider(view, drawn=False)
        hiddenness = combination.hiddenness
        if hiddenness >= 1:
            return None
        may_pung, may_kong = P.Pung in kinds, P.Kong in kinds
        if may_pung and view.rules.exposing_spoils(view, tile, True):
            may_pung = False  # the set would cost more than it brings (a minimum score to reach)
        chowness = combination.chowness
        positions = _chow_positions(legal) if chowness > -1 else []
        if positions and view.rules.exposing_spoils(view, tile, False):
            positions = []
        if not may_pung and not positions:
            return None  # the tile makes no set (most discards): no need to weigh the hand
        vector = view.hand_counts()
        sets = view.declared_sets
        seven = view.seven_pairs
        now = evaluate.shanten(vector, sets, seven)
        if may_kong:
            after_kong = evaluate.shanten(evaluate.without(vector, tile, tile, tile), sets + 1, False)
            if after_kong <= now:
                return Claim(ClaimKind.KONG)
        # A personality that dislikes exposing sets only claims to get ready.
        needed = now - 1 if hiddenness == 0 else min(now - 1, 0)
        choices: list[tuple[int, int, Claim]] = []
        if may_pung:
            after = evaluate.best_shanten_after_discard(evaluate.without(vector, tile, tile), sets + 1, False)
            choices.append((after, 0, Claim(ClaimKind.PUNG)))
        for position in positions:
            others = chow_partners(tile, position)
            after = evaluate.best_shanten_after_discard(evaluate.without(vector, *others), sets + 1, False)
            if chowness < 0 and after > 0:
                continue  # a reluctant chower only chows to get ready
            # Between equally good claims a pung is preferred, a chow by a chow lover.
            choices.append((after, -1 if chowness > 0 else 1, Claim(ClaimKind.CHOW, position)))
        good = [c for c in choices if c[0] <= needed]
        return min(good, key=lambda c: (c[0], c[1]))[2] if good else None

    def rob_kong(self, view: SeatView, tile: Tile, serial: int) -> bool:
        return _offers(view.legal_moves(), P.MahJong)

    # -- after a mah-jong

    def winning_plans(self, view: SeatView) -> list[list[Declaration]]:
        return declare.winning_plans(view)

    def losing_plan(self, view: SeatView) -> list[Declaration]:
        return declare.losing_plan(view)

    # -- helpers

    def _reconsider(self, view: SeatView, drawn: bool) -> Combination:
        """The combination to play with: chosen at a hand's first decision, maybe switched after a draw."""
        if len(self._switcher.combinations) == 1:
            return self._switcher.current
        if view.hand_no != self._hand:
            self._hand = view.hand_no
            return self._switcher.start(self._fit(view))
        if drawn:
            return self._switcher.update(self._fit(view))
        return self._switcher.current

    def _fit(self, view: SeatView) -> Callable[[Combination], float]:
        """How well each combination suits the hand, in hand-score points.

        Suitness fits a hand whose tiles (sets out included) are mostly of one suit or
        honours, majorness one rich in terminals and honours, chowness one whose suited
        tiles have neighbours to chow with, hiddenness one with no set exposed (and
        exposing one contradicts it).
        """
        vector = view.hand_counts()
        held = list(vector)
        for meld in view.melds:
            for tile in meld.tiles:
                if tile != tiles.BLANK and not tiles.is_special(tile):
                    held[kind_index(tile)] += 1
        total = sum(held) or 1
        honours = sum(held[HONOURS_START:])
        purity = (max(sum(held[s : s + 9]) for s in (0, 9, 18)) + honours) / total
        majors = sum(n for k, n in enumerate(held) if tiles.is_major(tiles.KINDS[k])) / total
        suited = [k for k in range(HONOURS_START) if vector[k]]
        linked = sum(
            vector[k] for k in suited if any(0 < abs(j - k) <= 2 and j // 9 == k // 9 and vector[j] for j in suited)
        )
        chowish = linked / (sum(vector[k] for k in suited) or 1)
        concealed = 1.0 if not any(not m.concealed for m in view.melds) else -1.0

        def fit(c: Combination) -> float:
            return (
                c.suitness * SUIT_POINTS * max(0.0, 2 * purity - 1)
                + c.majorness * MAJOR_POINTS * majors
                + c.chowness * CHOW_POINTS * (2 * chowish - 1)
                + c.hiddenness * HIDDEN_POINTS * concealed
            )

        return fit

    def _threat(self, view: SeatView, discarded: list[int]) -> Callable[[Tile], int]:
        """How many opponents a discard of each tile would be dangerous to (§9.8), ``discarded`` the discards seen."""
        melds = [view.players[pid].melds for pid in view.seats if pid != view.my_id and pid in view.players]
        # Without sets a player shows only the end of the wall, which no tile threatens.
        shown = [signals for signals in map(danger.signals, filter(None, melds)) if signals != _END_OF_WALL_ONLY]
        live = view.live_tiles

        def threat(tile: Tile) -> int:
            count = sum(danger.threatens(tile, signals) for signals in shown) if shown else 0
            if danger.end_of_wall(live, discarded[kind_index(tile)] + 1):
                count += 1
            return count

        return threat

    def _keep_value(self, view: SeatView, vector: list[int]) -> Callable[[Tile], float]:
        """How much a tile is worth keeping when shapes are equal: higher is kept longer."""
        majorness = self.combination.majorness
        suitness = self.combination.suitness
        suited = [sum(vector[s : s + 9]) for s in (0, 9, 18)]
        total_suited = sum(suited) or 1
        valuable = {*tiles.DRAGONS, view.own_wind, view.prevailing}

        def keep(tile: Tile) -> float:
            value = 0.0
            honour, terminal, suit = _TRAITS[tile]
            if honour:
                value += 0.5 if tile in valuable else 0.0
            elif not terminal:
                value += 0.25
            if honour or terminal:
                value += majorness
            if suit >= 0:
                value += suitness * suited[suit] / total_suited
            return value

        return keep


#: By kind: honour, terminal, and the suit's number (-1 for an honour), which :meth:`LevelOne._keep_value` weighs.
_TRAITS: Final = {
    t: (tiles.is_honour(t), tiles.is_terminal(t), tiles.SUITS.index(tiles.suit(t)) if tiles.is_suited(t) else -1)
    for t in tiles.KINDS
}
#: The signals every player shows, which :func:`mj.rules.classical.danger.threatens` no tile.
_END_OF_WALL_ONLY: Final = frozenset((danger.Signal.END_OF_WALL,))


@dataclass(frozen=True, slots=True)
class Defence:
    """How much a defending level fears dealing in, and what it counts a hand worth."""

    #: What dealing in costs, counted in ordinary won hands.
    cost: float = 1.0
    #: While no discard deals in with at least this chance, the level-1 choice stands.
    quiet: float = 0.005
    #: The share of its win chance a hand keeps per step it moves away from ready.
    drop: float = 0.5
    #: Weigh each win by what the hand is worth (:func:`hand_value`) against a typical win...
    valued: bool = False
    #: ... and by this much more as East, who is paid double by everybody.
    east_stake: float = 1.0
    #: Among discards leaving the same shanten, weigh the useful tiles each keeps by the
    #: :func:`prospect` of the hand it leaves, to this power (0: by useful tiles alone, as level 1).
    prospect: float = 0.0
    #: A hand ``s`` steps from ready keeps ``(1 - threat) ** (hurry * s)`` of its win chance,
    #: ``threat`` the readiness of the likeliest ready opponent (0: the threat is not weighed).
    hurry: float = 0.0
    #: Also claim a pung of any terminal or wind that does not set the hand back: it scores
    #: whether the hand wins or loses (losers settle their scores among themselves).
    major_pungs: bool = False
    #: Weigh the score a hand would show as a loser (:func:`loser_value`), lost by breaking a
    #: scoring set, by this much against a typical win's stake (0: not weighed).
    loser: float = 0.0
    #: Count a ready hand's waits by how often the others throw their kinds (:func:`mj.robot.evaluate.lured_waits`),
    #: with ``prospect`` (0: every unseen copy alike).
    lure: float = 0.0

    def __reduce__(self) -> tuple[type[Defence], tuple[float | bool, ...]]:
        """Pickled as the call that makes it: compiled by mypyc, a frozen class cannot be restored field by
        field, and a variant travels to ``mj arena``'s worker processes by pickle."""
        return Defence, tuple(getattr(self, field.name) for field in dataclasses.fields(self))


class LevelTwo(LevelOne):
    """:class:`LevelOne` with defence (:mod:`mj.robot.defence`) and doubling pungs.

    Each discard is worth ``(1 - p) * w * stake - p * cost``: ``p`` the chance that
    it deals in (:func:`mj.robot.defence.assess`), ``w`` the chance to win the hand
    with what is left, ``stake`` what that win is worth against a typical one (1, or
    with ``valued`` rules the hand's estimated score, :func:`hand_value`, more as
    East): a cheap hand is given up sooner than a dear one, which spends the deal-ins
    avoided where they cost the fewest points. ``w`` comes from the model of
    :func:`mj.robot.evaluate.win_chance` for level 1's choice only, and for the others
    is scaled from it: by the share of useful tiles kept at the same shanten, by
    ``drop`` per step further from ready. (The model read across shanten levels
    would break ready hands for a wider wait: it was fitted on where hands stood, not
    on what breaking them does, and doing so lost a third of the wins.) So level 1's
    order of shapes is kept where risks are equal, and a safe tile goes out instead
    when the shape's gain is worth less than its risk: among nearly equal shapes
    early, and, once an opponent is likely ready, at the price of breaking a far or
    slow hand (folding).

    With ``hurry`` (level 3) the win chance of a hand short of ready shrinks with the
    threat (:meth:`mj.robot.defence.Danger.calm`): an opponent likely ready will likely
    end the hand before a slow one is ready, so such a hand folds sooner.

    With ``prospect`` (level 3) the useful tiles a discard keeps are weighed by what the
    hand left promises to score (:func:`prospect`): among discards leaving the same
    shanten, a few useful tiles are given up to keep a flush or a pair of a doubling
    honour. (The shanten still comes first: hands that gave up speed for value won
    too much less to pay, see the module documentation.) With ``lure`` (level 3) a
    ready hand's waits count by how often the others throw their kinds
    (:func:`mj.robot.evaluate.lured_waits`): most wins come on a discard.

    With ``loser`` (level 3) each discard's worth also loses what it takes from the
    score the hand would show as a loser (:func:`loser_value`), counted against a
    typical win: under LosersSettle the losers pay each other the differences of
    their scores, so a folded hand that keeps a concealed pung of dragons is still
    paid by the other losers.

    It also claims a pung of dragons or of its own or the prevailing wind whenever
    that does not set the hand back (level 1 only claims to get closer): the pung
    doubles the hand, and a pair of them left as the eye would spoil the double of
    a hand of chows. With ``major_pungs`` (level 3) it also claims such a pung of
    terminals or of the other winds: it scores 4 whether the hand wins or loses.
    """

    def __init__(
        self, personality: Personality | None = None, seed: int = 0, rules: Defence | None = None, slip: float = 0.0
    ) -> None:
        super().__init__(personality, seed, slip)
        self.rules = rules or Defence()

    def claim(self, view: SeatView, tile: Tile, serial: int) -> Claim | None:
        claim = super().claim(view, tile, serial)
        if claim is not None or not _offers(view.legal_moves(), P.Pung):
            return claim
        if not _doubles(view, tile) and not (self.rules.major_pungs and tiles.is_major(tile)):
            return None
        if self.combination.hiddenness > 0:
            return None  # a personality that dislikes exposing sets only claims to get ready
        vector = view.hand_counts()
        sets = view.declared_sets
        after = evaluate.best_shanten_after_discard(evaluate.without(vector, tile, tile), sets + 1, False)
        return Claim(ClaimKind.PUNG) if after <= evaluate.shanten(vector, sets, view.seven_pairs) else None

    def _shape_key(
        self, view: SeatView, vector: list[int], unseen: list[int]
    ) -> Callable[[evaluate.DiscardOption], tuple[int, float, int, float, int]]:
        """Level 1's order, with the useful tiles weighed by the prospect of what is left when ``prospect`` is set."""
        weight = self._weight(view, vector, unseen) if self.rules.prospect > 0.0 and not self._blind else None
        return self._weighed_key(view, vector, unseen, weight)

    def _weighed_key(
        self,
        view: SeatView,
        vector: list[int],
        unseen: list[int],
        weight: Callable[[evaluate.DiscardOption], float] | None,
    ) -> Callable[[evaluate.DiscardOption], tuple[int, float, int, float, int]]:
        """Level 1's order, with ``weight`` (if any) in place of the useful tiles."""
        key = super()._shape_key(view, vector, unseen)
        if weight is None:
            return key

        def valued(option: evaluate.DiscardOption) -> tuple[int, float, int, float, int]:
            shanten, _, threat, keep, seen = key(option)
            return (shanten, -weight(option), threat, keep, seen)

        return valued

    def _weight(
        self, view: SeatView, vector: list[int], unseen: list[int]
    ) -> Callable[[evaluate.DiscardOption], float]:
        """A discard's useful tiles times the :func:`prospect` of the hand it leaves (to the power ``prospect``).

        Only compared among discards leaving the same shanten: the win chance grows
        about in proportion to the useful tiles there, so this is the expected value
        of the hand up to a common factor. Each discard's weight is worked out once,
        though both the order of discards and the folding decision ask for it.
        """
        power = self.rules.prospect
        lure = self.rules.lure
        shape = _exposed_suits(view)
        known: dict[Tile, float] = {}

        def weight(option: evaluate.DiscardOption) -> float:
            found = known.get(option.tile)
            if found is None:
                found = 0.0
                if option.ukeire > 0:
                    left = evaluate.without(vector, option.tile)
                    count = float(option.ukeire)
                    if lure > 0.0 and option.shanten == 0:
                        count = evaluate.lured_waits(left, view.declared_sets, view.seven_pairs, unseen, lure)
                    found = count * math.pow(prospect(view, left, unseen, shape), power)
                known[option.tile] = found
            return found

        return weight

    def _choose(self, view: SeatView, vector: list[int], unseen: list[int]) -> Tile:
        held = [k for k, copies in enumerate(vector) if copies]
        danger = defence.assess(view, unseen, held)
        if max(danger.deal_in[k] for k in held) < self.rules.quiet:
            return super()._choose(view, vector, unseen)
        rules = self.rules
        weight = self._weight(view, vector, unseen) if rules.prospect > 0.0 and not self._blind else None
        every = sorted(
            evaluate.discard_options(vector, view.declared_sets, view.seven_pairs, unseen, True),
            key=self._weighed_key(view, vector, unseen, weight),
        )
        push = every[0]
        base = evaluate.win_chance(push.shanten, push.ukeire, view.live_tiles) * self._stake(view, vector)
        if rules.hurry > 0.0:
            base *= danger.calm(rules.hurry * push.shanten)
        top = weight(push) if weight is not None else 0.0
        loss = self._loser_loss(view, vector) if rules.loser > 0.0 else None
        best_tile, best_worth = push.tile, -math.inf
        for option in every:
            if option.shanten > push.shanten:
                chance = base * rules.drop ** (option.shanten - push.shanten)
            elif weight is not None:
                chance = base * weight(option) / top if top > 0.0 else 0.0
            elif self._blind:
                chance = base  # in a slip, every discard leaving the least shanten looks as good
            else:
                chance = base * option.ukeire / max(1, push.ukeire)
            risk = danger.of(option.tile)
            worth = (1.0 - risk) * chance - risk * rules.cost
            if loss is not None:
                worth -= loss(option.tile)
            if worth > best_worth + 1e-9:
                best_tile, best_worth = option.tile, worth
        return best_tile

    def _loser_loss(self, view: SeatView, vector: list[int]) -> Callable[[Tile], float]:
        """What discarding each tile costs the hand's score as a loser, in typical wins (times ``loser``).

        A loser point is worth about two points of settlement (against each other
        loser), a typical win about three times :data:`TYPICAL_VALUE`.
        """
        scale = self.rules.loser * 2.0 / (3.0 * TYPICAL_VALUE)
        now = loser_value(view, vector)
        known: dict[Tile, float] = {}

        def loss(tile: Tile) -> float:
            if vector[kind_index(tile)] < 2:
                return 0.0  # only a pung or a pair scores
            found = known.get(tile)
            if found is None:
                found = known[tile] = (now - loser_value(view, evaluate.without(vector, tile))) * scale
            return found

        return loss

    def _stake(self, view: SeatView, vector: list[int]) -> float:
        """What winning this hand is worth against a typical win (1 when stakes are not weighed)."""
        if not self.rules.valued:
            return 1.0
        stake = hand_value(view, vector) / TYPICAL_VALUE
        return stake * self.rules.east_stake if view.my_seat == 0 else stake


#: A typical winning hand's score, the unit of :func:`hand_value`'s stakes.
TYPICAL_VALUE: Final = 45.0
#: Doubles expected of a hand with nothing scoring yet: it may end as a "no score hand".
NO_SCORE_DOUBLES: Final = 0.5


def hand_value(view: SeatView, vector: list[int]) -> float:
    """A rough score of the hand should it go out: what is certain now, and the no-score double's chance.

    Points: going out, flowers and seasons, the pungs and kongs out and held (majors
    double); doubles: those sets of dragons and of the own and prevailing wind.
    """
    points, doubles, scoring = _set_score(view, vector)
    return (20.0 + points) * 2 ** (doubles if scoring else doubles + NO_SCORE_DOUBLES)


def loser_value(view: SeatView, vector: list[int]) -> float:
    """What the hand would score should another player go out now (losers settle these among themselves).

    Flowers and seasons, the pungs and kongs out and held, and the pairs of doubling
    honours held, with the doubles of the sets: all a loser shows that scores.
    """
    points, doubles, _ = _set_score(view, vector)
    for tile in _HONOUR_KINDS:
        if vector[kind_index(tile)] == 2 and _doubles(view, tile):
            points += 2
    return points * 2**doubles


def _set_score(view: SeatView, vector: list[int]) -> tuple[float, float, bool]:
    """Points of the specials and of the pungs and kongs out and held, their doubles, and whether any set scores."""
    points = 4.0 * len(view.specials)
    doubles = 0.0
    sets = [
        (m.tile, m.kind is MeldKind.KONG, m.concealed) for m in view.melds if m.kind in (MeldKind.PUNG, MeldKind.KONG)
    ]
    sets += [(tiles.KINDS[k], False, True) for k, held in enumerate(vector) if held >= 3]
    for tile, is_kong, concealed in sets:
        points += (8 if is_kong else 2) * (2 if concealed else 1) * (2 if tiles.is_major(tile) else 1)
        doubles += _doubles(view, tile)
    return points, doubles, bool(sets)


#: The factor of a hand of one suit with honours, and of one suit alone (one and three doubles).
HALF_FLUSH: Final = 2.0
PURE_FLUSH: Final = 8.0
#: The share of a flush's extra factor kept per tile of another suit still held.
FLUSH_KEEP: Final = 0.3
#: Doubles counted for a pair of a doubling honour while a copy is unseen (it may become the doubling pung).
PAIR_DOUBLE: Final = 0.3


def _exposed_suits(view: SeatView) -> tuple[list[int], int]:
    """Suited tiles of each suit in the own exposed sets, and how many suits they span."""
    suits = [0, 0, 0]
    for meld in view.melds:
        if meld.kind is MeldKind.SPECIAL:
            continue
        for tile in meld.tiles:
            if tile != tiles.BLANK and tiles.is_suited(tile):
                suits[kind_index(tile) // 9] += 1
    return suits, sum(1 for n in suits if n)


def prospect(view: SeatView, vector: list[int], unseen: list[int], exposed: tuple[list[int], int]) -> float:
    """What the hand ``vector`` (concealed counts; ``exposed``: :func:`_exposed_suits`) promises to score.

    :func:`hand_value` (what is certain now), times the flush the hand leans to: one
    suit with honours doubles the hand, one suit alone doubles it three times, and each
    tile of another suit still to be thrown keeps :data:`FLUSH_KEEP` of that (none once
    sets of two suits are out); and a pair of a doubling honour with a copy unseen may
    still become the doubling pung. The original robots' winning hands score about a
    quarter more than ours, and the doubles are most of the gap.
    """
    value = hand_value(view, vector)
    suits, spread = exposed
    flush = 1.0
    if spread <= 1:
        held = [suits[0], suits[1], suits[2]]
        honours = 0
        for k in range(NUM_KINDS):
            n = vector[k]
            if n:
                if k >= HONOURS_START:
                    honours += n
                else:
                    held[k // 9] += n
        main = max(range(3), key=(suits if spread else held).__getitem__)  # the exposed suit, or the most held
        off = held[0] + held[1] + held[2] - held[main]
        full = PURE_FLUSH if honours == 0 else HALF_FLUSH
        flush = 1.0 + (full - 1.0) * FLUSH_KEEP**off
    pairs = 0
    for tile in _HONOUR_KINDS:
        k = kind_index(tile)
        if vector[k] == 2 and unseen[k] > 0 and _doubles(view, tile):
            pairs += 1
    return value * flush * math.pow(2.0, PAIR_DOUBLE * pairs)


#: The honours whose pung may double a hand (which winds do depends on the seat and round).
_HONOUR_KINDS: Final = (*tiles.DRAGONS, *tiles.WINDS)


def _doubles(view: SeatView, tile: Tile) -> bool:
    """Whether a pung of ``tile`` doubles the hand: dragons, own wind, prevailing wind."""
    return tiles.is_dragon(tile) or tile in (view.own_wind, view.prevailing)


#: By level, the share of hands played without counting the useful tiles (level 1 never counts
#: them): what separates the levels most, under every rule system.
SLIP: Final = {1: 1.0, 2: 0.5, 3: 0.0}
#: The defence of levels 2 and 3 (how each value was chosen: docs/robot-tuning.md).
LEVEL_TWO: Final = Defence(cost=0.5)
LEVEL_THREE: Final = Defence(
    cost=0.5, valued=True, east_stake=1.5, prospect=2.0, hurry=0.5, loser=1.0, major_pungs=True, lure=3.0
)
#: What level 1 defends with: nothing.
NO_DEFENCE: Final = Defence(cost=0.0)
#: The fields of a :class:`Defence` that the rule systems' own strategies (:mod:`mj.robot.systems`)
#: read; the others are the generic levels' alone.
SYSTEM_FIELDS: Final = ("cost", "quiet", "drop")


def make_strategy(
    level: int, personality: Personality | None = None, seed: int = 0, rules: Defence | None = None
) -> Strategy:
    """The strategy of ``level``: 1 plays for speed by shanten alone, 2 counts useful tiles in half its hands
    and defends, 3 always counts them and also weighs what its hand is worth.

    ``rules`` replaces the level's :class:`Defence` (levels 2 and 3): how a variant is
    played against the level as it is (``scripts/tournament.py --set``).
    """
    if level == 1 and rules is None:
        return LevelOne(personality, seed, slip=SLIP[1])
    return LevelTwo(personality, seed, defends_with(level, rules), slip=SLIP[level])


def defends_with(level: int, rules: Defence | None = None) -> Defence:
    """The :class:`Defence` ``level`` plays with (:data:`NO_DEFENCE` at level 1), or the variant ``rules``.

    Unknown levels are a ValueError, and so is a variant of level 1, which does not defend.
    """
    if level == 1 and rules is None:
        return NO_DEFENCE
    own = defence_of(level)
    return rules or own


def system_defence(level: int, rules: Defence | None = None) -> Defence:
    """What a rule system's own strategy defends with at ``level`` (:func:`defends_with`): the
    :data:`SYSTEM_FIELDS` alone, every other field at its default."""
    own = defends_with(level, rules)
    return Defence(**{name: getattr(own, name) for name in SYSTEM_FIELDS})


def defence_of(level: int) -> Defence:
    """The :class:`Defence` ``level`` plays with; level 1 (no defence) and unknown levels are a ValueError."""
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level} (choose from {', '.join(map(str, LEVELS))})")
    if level == 1:
        raise ValueError("level 1 does not defend: it has no rules to set")
    return LEVEL_TWO if level == 2 else LEVEL_THREE


#: The fields of :class:`Defence`, the names a variant of a level sets (:func:`defence_with`).
DEFENCE_FIELDS: Final = tuple(field.name for field in dataclasses.fields(Defence))
#: How a flag of :class:`Defence` is written, and what each spelling means.
FLAGS: Final = {"0": False, "1": True, "false": False, "true": True}


def defence_with(level: int, changes: Mapping[str, str]) -> Defence:
    """The :class:`Defence` of ``level`` with the fields named in ``changes`` read from their text.

    How a variant of a level is played against the level as it is (``scripts/tournament.py
    --set``, ``mj arena`` players), read in one place so both accept the same words: a
    field's value reads as the type of the level's own (a flag as 0, 1, true or false;
    numbers finite). Anything else is a ValueError of one line naming it, as for an
    unknown level or level 1, which does not defend.
    """
    own = defence_of(level)
    replaced: dict[str, float | bool] = {}
    for name, text in changes.items():
        if name not in DEFENCE_FIELDS:
            raise ValueError(f"unknown Defence field {name!r} (fields: {', '.join(DEFENCE_FIELDS)})")
        word = text.strip().lower()
        if isinstance(getattr(own, name), bool):
            if word not in FLAGS:
                raise ValueError(f"{name}: {text!r} is not 0, 1, true or false")
            replaced[name] = FLAGS[word]
            continue
        try:
            value = float(word)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise ValueError(f"{name}: {text!r} is not a finite number")
        replaced[name] = value
    return dataclasses.replace(own, **replaced)  # type: ignore[arg-type]


def _offers(legal: list[P.PMsg], kind: type[P.PMsg]) -> bool:
    """Whether the legal moves include one of ``kind`` (cheaper than building the move to look it up)."""
    return kind in map(type, legal)


def _chow_positions(legal: list[P.PMsg]) -> list[ChowPosition]:
    """The chows among the legal moves, by where the discard goes in them."""
    found: list[ChowPosition] = []
    for move in legal:
        if type(move) is P.Chow and move.cpos is not ChowPosition.ANYPOS:
            found.append(move.cpos)
    return found
