"""Shanten: how many tiles a hand is from being ready (0) or complete (-1).

Standard hands use the classical block count: with ``M`` sets (declared ones
included), ``T`` partial sets (pairs, two-tile runs, gapped runs) and ``H`` = 1 if some
pair is kept as the hand's pair, shanten is ``8 - 2M - min(T, 4 - M) - H``, maximised
over every way of reading the concealed tiles as blocks.  Writing ``B = M + T`` for the
number of blocks, the quantity maximised is ``M + min(B, 4 - declared) + H``, which
grows with both ``M`` and ``B``: a group's readings only matter through their
Pareto-optimal ``(sets, blocks)`` pairs, and ``B`` can be capped at 4.

Two levels of memoisation make this fast in pure Python:

* each group's counts (a suit's nine, the seven honours) map to the Pareto readings
  of that group (no block ever spans two groups), together with what the special
  hands need (pairs held, major kinds held);
* the Pareto readings are interned as small integers, and combining two groups'
  readings is memoised on the pair of integers.  Only a few hundred distinct readings
  exist, so a whole-hand shanten is four table look-ups and three merges.

Like :func:`mj.hand.waits`, shanten is about shape only: it does not know which
copies are already dead, so a hand waiting only on a fifth copy still counts as ready.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Final, NamedTuple

Pattern = tuple[int, ...]
#: Pareto-optimal (sets, blocks) pairs, most sets first.
Frontier = tuple[tuple[int, int], ...]

#: Blocks beyond four never count (a hand needs four sets at most).
_MAX_BLOCKS: Final = 4
#: Merge memo keys pack two reading ids into one int (ids stay far below this).
_ID_BITS: Final = 20


class Readings(NamedTuple):
    """A group's (or several groups') best readings without and with the hand's pair."""

    plain: Frontier
    headed: Frontier


class GroupInfo(NamedTuple):
    """Everything the shanten functions need from one group's counts."""

    readings: int  #: interned :class:`Readings` id
    pairs: int  #: pairs held, four of a kind counting twice (seven pairs)
    major_kinds: int  #: distinct major kinds held (Thirteen Unique Wonders)
    major_pair: bool  #: some major kind held twice or more


def _pareto(options: Sequence[tuple[int, int]]) -> Frontier:
    """The options that no other option matches or beats in both sets and blocks."""
    kept: list[tuple[int, int]] = []
    for sets, blocks in sorted(set(options), reverse=True):
        if not kept or blocks > kept[-1][1]:
            kept.append((sets, blocks))
    return tuple(kept)


_readings_ids: dict[Readings, int] = {}
_readings_by_id: list[Readings] = []
_merged: dict[int, int] = {}
_best: dict[int, int] = {}


def _intern(readings: Readings) -> int:
    found = _readings_ids.get(readings)
    if found is None:
        found = _readings_ids[readings] = len(_readings_by_id)
        _readings_by_id.append(readings)
    return found


def _merge(left: int, right: int) -> int:
    """The readings of two groups taken together (the pair in at most one of them)."""
    a = _readings_by_id[left]
    b = _readings_by_id[right]

    def plus(xs: Frontier, ys: Frontier) -> list[tuple[int, int]]:
        return [(m + n, min(c + d, _MAX_BLOCKS)) for m, c in xs for n, d in ys]

    merged = _intern(
        Readings(
            _pareto(plus(a.plain, b.plain)),
            _pareto(plus(a.headed, b.plain) + plus(a.plain, b.headed)),
        )
    )
    _merged[left << _ID_BITS | right] = merged
    return merged


def _value(readings_id: int, cap: int) -> int:
    """Best ``M + min(B, cap) + H`` over the readings, with ``cap`` sets still wanted."""
    readings = _readings_by_id[readings_id]
    value = max(
        max(m + min(b, cap) for m, b in readings.plain),
        max((m + min(b, cap) + 1 for m, b in readings.headed), default=0),
    )
    _best[readings_id << 3 | cap] = value
    return value


def _readings(pattern: Pattern, recurse: Callable[[Pattern], Readings], suited: bool) -> Readings:
    """Best readings of a group, deciding what the lowest tile present belongs to.

    That tile is isolated or starts a block: a pung, a pair (a partial set, or the
    hand's pair) and, in a suit, a chow or a two-tile partial run.
    """
    low = next((i for i, held in enumerate(pattern) if held), None)
    if low is None:
        return Readings(((0, 0),), ())
    plain: list[tuple[int, int]] = []
    headed: list[tuple[int, int]] = []

    def extend(taken: tuple[int, ...], sets: int, blocks: int, head: bool = False) -> None:
        rest = list(pattern)
        for rank in taken:
            rest[rank] -= 1
        rest_readings = recurse(tuple(rest))
        shifted = [(m + sets, min(b + blocks, _MAX_BLOCKS)) for m, b in rest_readings.plain]
        if head:
            headed.extend(shifted)
            return
        plain.extend(shifted)
        headed.extend((m + sets, min(b + blocks, _MAX_BLOCKS)) for m, b in rest_readings.headed)

    held = pattern[low]
    extend((low,), 0, 0)
    if held >= 2:
        extend((low, low), 0, 1)
        extend((low, low), 0, 0, head=True)
    if held >= 3:
        extend((low, low, low), 1, 1)
    if suited and low <= 7 and pattern[low + 1]:
        extend((low, low + 1), 0, 1)
        if low <= 6 and pattern[low + 2]:
            extend((low, low + 1, low + 2), 1, 1)
    if suited and low <= 6 and pattern[low + 2]:
        extend((low, low + 2), 0, 1)
    return Readings(_pareto(plain), _pareto(headed))


@cache
def _suit_readings(pattern: Pattern) -> Readings:
    return _readings(pattern, _suit_readings, True)


@cache
def _honour_readings(pattern: Pattern) -> Readings:
    return _readings(pattern, _honour_readings, False)


@cache
def suit_info(pattern: Pattern) -> GroupInfo:
    """The shanten table entry of one suit's nine counts (terminals are its majors)."""
    ends = (pattern[0], pattern[8])
    return GroupInfo(
        _intern(_suit_readings(pattern)),
        sum(held // 2 for held in pattern),
        sum(1 for held in ends if held),
        any(held >= 2 for held in ends),
    )


@cache
def honour_info(pattern: Pattern) -> GroupInfo:
    """The shanten table entry of the seven honour counts (all of them majors)."""
    return GroupInfo(
        _intern(_honour_readings(pattern)),
        sum(held // 2 for held in pattern),
        sum(1 for held in pattern if held),
        any(held >= 2 for held in pattern),
    )


def _standard(bamboo: GroupInfo, characters: GroupInfo, circles: GroupInfo, honours: GroupInfo, cap: int) -> int:
    merged = _merged
    key = bamboo.readings << _ID_BITS | characters.readings
    both = merged.get(key)
    if both is None:
        both = _merge(bamboo.readings, characters.readings)
    key = both << _ID_BITS | circles.readings
    three = merged.get(key)
    if three is None:
        three = _merge(both, circles.readings)
    key = three << _ID_BITS | honours.readings
    whole = merged.get(key)
    if whole is None:
        whole = _merge(three, honours.readings)
    value = _best.get(whole << 3 | cap)
    if value is None:
        value = _value(whole, cap)
    return 2 * cap - value


def shanten(counts: Sequence[int], declared_sets: int = 0) -> int:
    """Standard-hand shanten of the concealed ``counts`` beside ``declared_sets`` sets.

    -1 is a complete hand, 0 ready, and each further step one more tile to exchange.
    ``counts`` may hold any number of tiles up to a complete hand's
    ``3 * (4 - declared_sets) + 2``.
    """
    return _standard(
        suit_info(tuple(counts[0:9])),
        suit_info(tuple(counts[9:18])),
        suit_info(tuple(counts[18:27])),
        honour_info(tuple(counts[27:34])),
        4 - declared_sets,
    )


def shanten_seven_pairs(counts: Sequence[int]) -> int:
    """Seven-pairs shanten: 6 minus the pairs held (four of a kind is two pairs)."""
    return 6 - min(7, sum(held // 2 for held in counts))


def shanten_thirteen(counts: Sequence[int]) -> int:
    """Thirteen Unique Wonders shanten: 13 minus the major kinds held, minus a duplicate."""
    groups = _groups(counts)
    return 13 - sum(g.major_kinds for g in groups) - any(g.major_pair for g in groups)


def _groups(counts: Sequence[int]) -> tuple[GroupInfo, GroupInfo, GroupInfo, GroupInfo]:
    return (
        suit_info(tuple(counts[0:9])),
        suit_info(tuple(counts[9:18])),
        suit_info(tuple(counts[18:27])),
        honour_info(tuple(counts[27:34])),
    )


def shanten_all(counts: Sequence[int], declared_sets: int = 0, seven_pairs: bool = True) -> int:
    """The least shanten over the hand shapes open to this hand.

    The special hands need all fourteen tiles concealed, so they only count when
    nothing is declared; seven pairs also needs the SevenPairs option.
    """
    bamboo, characters, circles, honours = _groups(counts)
    best = _standard(bamboo, characters, circles, honours, 4 - declared_sets)
    if declared_sets:
        return best
    thirteen = (
        13
        - bamboo.major_kinds
        - characters.major_kinds
        - circles.major_kinds
        - honours.major_kinds
        - (bamboo.major_pair or characters.major_pair or circles.major_pair or honours.major_pair)
    )
    if thirteen < best:
        best = thirteen
    if seven_pairs:
        pairs = bamboo.pairs + characters.pairs + circles.pairs + honours.pairs
        best = min(best, 6 - min(7, pairs))
    return best


#: Where each group lies in a count vector, and whether it is a suit.
_LAYOUT: Final = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))
#: The shanten given for a change that is impossible (a fifth copy drawn, a tile not held discarded).
IMPOSSIBLE: Final = 99


@cache
def _changed_groups(pattern: Pattern, delta: int, suited: bool) -> tuple[tuple[int, GroupInfo], ...]:
    """Each rank of a group that can take ``delta`` tiles, and the group's table entry after that change."""
    info_of = suit_info if suited else honour_info
    changes = []
    for rank, held in enumerate(pattern):
        if 0 <= held + delta <= 4:
            changed = list(pattern)
            changed[rank] += delta
            changes.append((rank, info_of(tuple(changed))))
    return tuple(changes)


def _merged_id(left: int, right: int) -> int:
    found = _merged.get(left << _ID_BITS | right)
    return found if found is not None else _merge(left, right)


def _after_each_change(counts: Sequence[int], declared_sets: int, seven_pairs: bool, delta: int) -> list[int]:
    """``shanten_all`` of ``counts`` with ``delta`` (+1 or -1) tiles of each kind in turn.

    A one-tile change touches a single group, so the other three are merged once
    per group instead of once per kind: the robots ask this for every discard and
    every draw of every decision.
    """
    groups = _groups(counts)
    cap = 4 - declared_sets
    special = declared_sets == 0
    majors = sum(g.major_kinds for g in groups)
    pairs = sum(g.pairs for g in groups)
    result = [IMPOSSIBLE] * len(counts)
    for index, (start, size, suited) in enumerate(_LAYOUT):
        own = groups[index]
        others = [g for i, g in enumerate(groups) if i != index]
        rest = _merged_id(_merged_id(others[0].readings, others[1].readings), others[2].readings)
        rest_major_pair = any(g.major_pair for g in others)
        for rank, info in _changed_groups(tuple(counts[start : start + size]), delta, suited):
            whole = _merged_id(rest, info.readings)
            value = _best.get(whole << 3 | cap)
            if value is None:
                value = _value(whole, cap)
            best = 2 * cap - value
            if special:
                major_pair = rest_major_pair or info.major_pair
                best = min(best, 13 - (majors - own.major_kinds + info.major_kinds) - major_pair)
                if seven_pairs:
                    best = min(best, 6 - min(7, pairs - own.pairs + info.pairs))
            result[start + rank] = best
    return result


def shanten_after_draws(counts: Sequence[int], declared_sets: int = 0, seven_pairs: bool = True) -> list[int]:
    """Per kind, :func:`shanten_all` after drawing one more tile of it (:data:`IMPOSSIBLE` for a fifth copy)."""
    return _after_each_change(counts, declared_sets, seven_pairs, 1)


def shanten_after_discards(counts: Sequence[int], declared_sets: int = 0, seven_pairs: bool = True) -> list[int]:
    """Per kind, :func:`shanten_all` after discarding one tile of it (:data:`IMPOSSIBLE` for a kind not held)."""
    return _after_each_change(counts, declared_sets, seven_pairs, -1)
