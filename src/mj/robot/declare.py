"""Declaring hands after a mah-jong (protocol.md §7.10): legal orders, best score first.

The winner must first say how the claimed discard (or robbed kong tile) is used
(``Pung 0``, ``Chow 0 <pos>``, ``Pair`` or ``SpecialSet``), then form the concealed
sets; the server checks after every step that the hand can still be completed, so
each plan here follows one complete reading of the hand. A hand often reads in
several ways (``111222333`` as three pungs or three chows) and they score very
differently, so every reading is scored with the table's rule system and the best comes
first; the others remain as fallbacks should the server refuse a step.

Plans are always computed from the current view, so after each step the robot
simply asks again for what remains.

Losers may form concealed sets before showing their tiles; only pungs and the
pairs that score (dragons, own and prevailing wind) earn anything, so those are
formed and the rest is shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from mj import hand, tiles
from mj.hand import Decomposition
from mj.melds import Meld, MeldKind, chow, pair, pung, special
from mj.protocol.fields import ChowPosition
from mj.robot.strategy import Declaration, Step
from mj.rules.base import SeatHand, Win, WinSource
from mj.seatview import SeatView
from mj.tiles import Tile

#: A plan with the sets it declares, in the same order.
_Plan = tuple[list[Declaration], list[Meld]]

_POSITIONS = (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)
_ORDINARY = frozenset(tiles.KINDS)


def ordinary(view: SeatView) -> list[Tile]:
    """Own concealed tiles without flowers and seasons: what the declarations are made of."""
    return [t for t in view.concealed if t in _ORDINARY]


def winning_plans(view: SeatView) -> list[list[Declaration]]:
    """Every way to declare the rest of the winner's hand, the best-scoring first."""
    plans = list(_plans(view))
    if not plans:
        return []
    scored = sorted(enumerate(plans), key=lambda item: (-_score(view, item[1][1]), item[0]))
    unique: list[list[Declaration]] = []
    for _, (steps, _melds) in scored:
        if steps not in unique:
            unique.append(steps)
    return unique


def losing_plan(view: SeatView) -> list[Declaration]:
    """The concealed sets worth forming as a loser, then SHOW for any tiles left."""
    left = Counter(ordinary(view))
    steps: list[Declaration] = []
    for tile in sorted(left):
        if left[tile] >= 3:
            steps.append(Declaration(Step.PUNG, tile))
            left[tile] -= 3
    scoring_pairs = (*tiles.DRAGONS, view.own_wind, view.prevailing)
    for tile in sorted(set(scoring_pairs)):
        if left[tile] >= 2:
            steps.append(Declaration(Step.PAIR, tile))
            left[tile] -= 2
    if sum(left.values()) > 0:
        steps.append(Declaration(Step.SHOW))
    return steps


def _plans(view: SeatView) -> Iterator[_Plan]:
    concealed = ordinary(view)
    sets = view.declared_sets
    pending = view.winner_pending
    pairs_formed = sum(1 for m in view.melds if m.kind is MeldKind.PAIR)
    concealed_hand = not view.melds
    if pending is not None:
        full = [*concealed, pending]
        if concealed_hand and hand.is_thirteen_wonders(full):
            yield [Declaration(Step.USE_SPECIAL)], [special(tuple(full), False)]
        for reading in hand.decompositions(full, sets):
            yield from _using_pending(reading, pending)
        if concealed_hand and view.seven_pairs and hand.is_seven_pairs(full):
            rest = Counter(concealed)
            rest[pending] -= 1
            yield _with_pairs([Declaration(Step.USE_PAIR, pending)], [pair(pending, False)], rest)
        return
    if pairs_formed == 0:
        if concealed_hand and hand.is_thirteen_wonders(concealed):
            yield [Declaration(Step.SPECIAL)], [special(tuple(concealed), True)]
        for reading in hand.decompositions(concealed, sets):
            yield _closed(reading.pungs, reading.chows, reading.pair)
    else:
        for reading in _set_readings(concealed, sets):
            yield _closed(reading.pungs, reading.chows, None)
    if sets == 0 and view.seven_pairs and pairs_formed + len(concealed) // 2 == 7:
        left = Counter(concealed)
        if all(n % 2 == 0 for n in left.values()):
            yield _with_pairs([], [], left)


def _using_pending(reading: Decomposition, pending: Tile) -> Iterator[_Plan]:
    """The plans of one reading, one per role the pending tile can play in it."""
    if reading.pair == pending:
        steps, melds = _closed(reading.pungs, reading.chows, None)
        yield [Declaration(Step.USE_PAIR, pending), *steps], [pair(pending, False), *melds]
    if pending in reading.pungs:
        rest = list(reading.pungs)
        rest.remove(pending)
        steps, melds = _closed(rest, reading.chows, reading.pair)
        yield [Declaration(Step.USE_PUNG, pending), *steps], [pung(pending, False), *melds]
    for low in sorted(set(reading.chows)):
        offset = pending - low
        if 0 <= offset <= 2 and tiles.suit(low) == tiles.suit(pending):
            rest = list(reading.chows)
            rest.remove(low)
            steps, melds = _closed(reading.pungs, rest, reading.pair)
            use = Declaration(Step.USE_CHOW, pending, _POSITIONS[offset])
            yield [use, *steps], [chow(low, False), *melds]


def _closed(pungs: Sequence[Tile], chows: Sequence[Tile], pair_tile: Tile | None) -> _Plan:
    """Concealed pungs, then chows, then the pair."""
    steps = [Declaration(Step.PUNG, t) for t in pungs] + [Declaration(Step.CHOW, t) for t in chows]
    melds = [pung(t, True) for t in pungs] + [chow(t, True) for t in chows]
    if pair_tile is not None:
        steps.append(Declaration(Step.PAIR, pair_tile))
        melds.append(pair(pair_tile, True))
    return steps, melds


def _with_pairs(steps: list[Declaration], melds: list[Meld], left: Counter[Tile]) -> _Plan:
    """Seven pairs: every remaining pair formed concealed (four of a kind is two pairs)."""
    steps = list(steps)
    melds = list(melds)
    for tile in sorted(left):
        for _ in range(left[tile] // 2):
            steps.append(Declaration(Step.PAIR, tile))
            melds.append(pair(tile, True))
    return steps, melds


def _set_readings(concealed: list[Tile], sets: int) -> list[Decomposition]:
    """Readings of tiles that must be sets only (the pair is already declared).

    :func:`mj.hand.decompositions` wants the pair among the tiles, so a pair of an
    honour the hand lacks is lent to it and must come back as the pair.
    """
    lent = next(t for t in (*tiles.WINDS, *tiles.DRAGONS) if t not in concealed)
    return [r for r in hand.decompositions([*concealed, lent, lent], sets) if r.pair == lent]


def _score(view: SeatView, plan_melds: list[Meld]) -> int:
    """The hand score the declared hand would get, to rank the plans."""
    concealed = ordinary(view)
    tile = view.winner_pending or view.win_tile or (concealed[-1] if concealed else tiles.BLANK)
    if tile == tiles.BLANK:
        return 0
    win = Win(
        tile=tile,
        source=view.win_source or WinSource.WALL,
        melds_before_win=view.melds_at_win,
        visible=tuple(view.visible_counts()),
        last_tile=view.live_tiles == 0,
        heavens_blessing=False,
        earths_blessing=False,
        kong_upon_kong=False,
        original_call=False,
        hands_as_east=view.hands_as_east,
        winner_is_east=view.my_seat == 0,
    )
    seat = SeatHand(
        melds=(*view.melds, *plan_melds),
        concealed=(),
        specials=tuple(view.specials),
        own_wind=view.own_wind,
        prevailing_wind=view.prevailing,
    )
    return view.rules.score(seat, win, view.options, True).score
