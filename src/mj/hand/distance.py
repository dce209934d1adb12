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

The robots also ask, for every discard, which draws would then lower the shanten
(:func:`useful_draws`): a discard and a draw change at most two groups, so the
draws into a group lowering the shanten are tabled on the merged readings of the
other three groups, that group's own entry (numbered, for short keys) and the
shanten to beat, and each group's entries one tile down, and readings one tile
up, are tabled too.

Like :func:`mj.hand.waits`, shanten is about shape only: it does not know which
copies are already dead, so a hand waiting only on a fifth copy still counts as ready.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from mj.hand.counting import GROUP_OF, MAJOR_INDICES

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


@dataclass(slots=True, init=False)
class GroupInfo:
    """Everything the shanten functions need from one group's counts.

    A class rather than a named tuple: compiled by mypyc, its fields are read
    straight from the object, and the robots read them for every discard they weigh.
    """

    readings: int  #: interned :class:`Readings` id
    pairs: int  #: pairs held, four of a kind counting twice (seven pairs)
    major_kinds: int  #: distinct major kinds held (Thirteen Unique Wonders)
    major_pair: bool  #: some major kind held twice or more
    pattern: Pattern  #: the group's counts
    suited: bool  #: a suit (else the honours)
    number: int  #: this entry's own number, a short key for the tables built on it

    # Written out, not generated: see mj.compiled on value classes built per message.
    def __init__(
        self, readings: int, pairs: int, major_kinds: int, major_pair: bool, pattern: Pattern, suited: bool, number: int
    ) -> None:
        self.readings = readings
        self.pairs = pairs
        self.major_kinds = major_kinds
        self.major_pair = major_pair
        self.pattern = pattern
        self.suited = suited
        self.number = number


def _pareto(options: Sequence[tuple[int, int]]) -> Frontier:
    """The options that no other option matches or beats in both sets and blocks."""
    kept: list[tuple[int, int]] = []
    for sets, blocks in sorted(set(options), reverse=True):
        if not kept or blocks > kept[-1][1]:
            kept.append((sets, blocks))
    return tuple(kept)


_readings_ids: Final[dict[Readings, int]] = {}
_readings_by_id: Final[list[Readings]] = []
_merged: Final[dict[int, int]] = {}
_best: Final[dict[int, int]] = {}


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
    size = len(pattern)
    if suited and low + 1 < size and pattern[low + 1]:
        extend((low, low + 1), 0, 1)
        if low + 2 < size and pattern[low + 2]:
            extend((low, low + 1, low + 2), 1, 1)
    if suited and low + 2 < size and pattern[low + 2]:
        extend((low, low + 2), 0, 1)
    return Readings(_pareto(plain), _pareto(headed))


@cache
def _suit_readings(pattern: Pattern) -> Readings:
    """The readings of suited ranks ``pattern``, read apart where two empty ranks part them.

    No block spans two empty ranks, so the runs of ranks between such gaps are
    read alone, without the empty ranks around them, and merged: whole suits then
    share the readings of their short runs, and the tables fill up several times
    faster (most of the cost of a robot's first games).
    """
    runs = _runs(pattern)
    if len(runs) == 1 and runs[0] == pattern:
        return _readings(pattern, _suit_readings, True)
    merged = _NOTHING
    for run in runs:
        merged = _merged_id(merged, _suit_id(run))
    return _readings_by_id[merged]


@cache
def _suit_id(pattern: Pattern) -> int:
    """The interned readings of suited ranks ``pattern`` (a run, or a whole suit)."""
    return _intern(_suit_readings(pattern))


def _runs(pattern: Pattern) -> list[Pattern]:
    """The runs of ranks held in ``pattern`` that two or more empty ranks part, each without empty ends."""
    runs: list[Pattern] = []
    start = end = -1  # the current run's first and last held rank
    for rank, held in enumerate(pattern):
        if not held:
            continue
        if start >= 0 and rank - end > 2:
            runs.append(pattern[start : end + 1])
            start = -1
        if start < 0:
            start = rank
        end = rank
    if start >= 0:
        runs.append(pattern[start : end + 1])
    return runs


@cache
def _honour_readings(pattern: Pattern) -> Readings:
    return _readings(pattern, _honour_readings, False)


@cache
def _honour_id(pattern: Pattern) -> int:
    """The interned readings of the honour counts ``pattern``."""
    return _intern(_honour_readings(pattern))


_group_count: Final = itertools.count()
#: The readings of an empty group.
_NOTHING: Final = _intern(Readings(((0, 0),), ()))


@cache
def suit_info(pattern: Pattern) -> GroupInfo:
    """The shanten table entry of one suit's nine counts (terminals are its majors)."""
    ends = (pattern[0], pattern[8])
    return GroupInfo(
        _suit_id(pattern),
        sum(held // 2 for held in pattern),
        sum(1 for held in ends if held),
        any(held >= 2 for held in ends),
        pattern,
        True,
        next(_group_count),
    )


@cache
def honour_info(pattern: Pattern) -> GroupInfo:
    """The shanten table entry of the seven honour counts (all of them majors)."""
    return GroupInfo(
        _honour_id(pattern),
        sum(held // 2 for held in pattern),
        sum(1 for held in pattern if held),
        any(held >= 2 for held in pattern),
        pattern,
        False,
        next(_group_count),
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


def shanten_of_groups(groups: Sequence[GroupInfo], declared_sets: int) -> int:
    """:func:`shanten` of a hand given by its four groups' table entries (:func:`suit_info` of each suit,
    :func:`honour_info`): for callers that change one group and keep the other three."""
    return _standard(groups[0], groups[1], groups[2], groups[3], 4 - declared_sets)


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


#: Where each group starts in a count vector.
_STARTS: Final = (0, 9, 18, 27)
_MAJORS: Final = frozenset(MAJOR_INDICES)
#: The shanten given for a change that is impossible (a fifth copy drawn, a tile not held discarded).
IMPOSSIBLE: Final = 99
#: Bits of the tables' packed keys for a :attr:`GroupInfo.number` (far more than there are group patterns).
_NUMBER_BITS: Final = 24

# The tables of :func:`_changed`, :func:`useful_draws` and :func:`_draws_by_readings`,
# on keys packing group numbers, readings ids and small values.
_changes: Final[dict[int, tuple[GroupInfo | None, ...]]] = {}
_lowering: Final[dict[int, tuple[int, ...]]] = {}
_readings_after_draw: Final[dict[int, tuple[tuple[int, tuple[int, ...]], ...]]] = {}


def _changed(group: GroupInfo, delta: int) -> tuple[GroupInfo | None, ...]:
    """By rank, the table entry of ``group`` with ``delta`` (+1 or -1) tiles of that rank (None where impossible)."""
    key = group.number << 1 | (delta > 0)
    found = _changes.get(key)
    if found is None:
        info_of = suit_info if group.suited else honour_info
        entries: list[GroupInfo | None] = []
        for rank, held in enumerate(group.pattern):
            changed = list(group.pattern)
            changed[rank] += delta
            entries.append(info_of(tuple(changed)) if 0 <= held + delta <= 4 else None)
        found = _changes[key] = tuple(entries)
    return found


def _merged_id(left: int, right: int) -> int:
    found = _merged.get(left << _ID_BITS | right)
    return found if found is not None else _merge(left, right)


def _standard_of(readings_id: int, cap: int) -> int:
    """Standard shanten of a whole hand's merged readings with ``cap`` sets still wanted."""
    value = _best.get(readings_id << 3 | cap)
    if value is None:
        value = _value(readings_id, cap)
    return 2 * cap - value


def _others(groups: Sequence[GroupInfo]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The merged readings of the three groups other than each, and of the two other than each two."""
    r0, r1, r2, r3 = (g.readings for g in groups)
    m01, m02, m03 = _merged_id(r0, r1), _merged_id(r0, r2), _merged_id(r0, r3)
    m12, m13, m23 = _merged_id(r1, r2), _merged_id(r1, r3), _merged_id(r2, r3)
    three = (_merged_id(m12, r3), _merged_id(m02, r3), _merged_id(m01, r3), _merged_id(m01, r2))
    two = ((-1, m23, m13, m12), (m23, -1, m03, m02), (m13, m03, -1, m01), (m12, m02, m01, -1))
    return three, two


def _after_each_change(counts: Sequence[int], declared_sets: int, seven_pairs: bool, delta: int) -> list[int]:
    """``shanten_all`` of ``counts`` with ``delta`` (+1 or -1) tiles of each kind in turn.

    A one-tile change touches a single group, so the other three are merged once
    per group instead of once per kind: the robots ask this for every discard and
    every draw of every decision.
    """
    groups = _groups(counts)
    three, _ = _others(groups)
    cap = 4 - declared_sets
    special = declared_sets == 0
    majors = sum(g.major_kinds for g in groups)
    pairs = sum(g.pairs for g in groups)
    result = [IMPOSSIBLE] * len(counts)
    for index, own in enumerate(groups):
        rest = three[index]
        start = _STARTS[index]
        rest_major_pair = any(g.major_pair for i, g in enumerate(groups) if i != index)
        for rank, info in enumerate(_changed(own, delta)):
            if info is None:
                continue
            best = _standard_of(_merged_id(rest, info.readings), cap)
            if special:
                major_pair = rest_major_pair or info.major_pair
                best = min(best, 13 - (majors - own.major_kinds + info.major_kinds) - major_pair)
                if seven_pairs:
                    best = min(best, 6 - min(7, pairs - own.pairs + info.pairs))
            result[start + rank] = best
    return result


def useful_draws(
    counts: Sequence[int], declared_sets: int = 0, seven_pairs: bool = True, discards: Iterable[int] = ()
) -> list[tuple[int, tuple[int, ...]]]:
    """For each kind in ``discards`` (all held): :func:`shanten_all` after discarding one, and the draws lowering it.

    The draws are the kinds (in order) that would then bring :func:`shanten_all`
    lower, as :func:`shanten_after_draws` of the hand less the discard would find
    them; robots count the unseen copies of these (ukeire) for every discard they
    weigh. Done for all discards at once, the groups a discard leaves alone are
    merged once, and each group's draws come from a table on the readings of the
    three others, the group's counts and the shanten to beat.
    """
    groups = _groups(counts)
    three, two = _others(groups)
    cap = 4 - declared_sets
    special = declared_sets == 0
    downs = [_changed(group, -1) for group in groups]
    majors = sum(g.major_kinds for g in groups)
    pairs_held = sum(g.pairs for g in groups)
    others_major_pair = [any(g.major_pair for i, g in enumerate(groups) if i != a) for a in range(4)]
    lowering_of = _lowering
    merged_of = _merged  # looked up inline below: this loop runs for every discard a robot weighs
    found = []
    for kind in discards:
        a = GROUP_OF[kind]
        left = downs[a][kind - _STARTS[a]]
        if left is None:
            raise ValueError(f"kind {kind} is not held")
        own = groups[a]
        readings = left.readings
        whole = merged_of.get(three[a] << _ID_BITS | readings)
        current = _standard_of(_merge(three[a], readings) if whole is None else whole, cap)
        if special:
            major_pair = left.major_pair or others_major_pair[a]
            thirteen = 13 - (majors - own.major_kinds + left.major_kinds) - major_pair
            pairs = pairs_held - own.pairs + left.pairs
            current = min(current, thirteen, 6 - min(7, pairs) if seven_pairs else IMPOSSIBLE)
        key_end = (cap << 4 | current + 1) << 2
        draws: tuple[int, ...] = ()
        for b, group in enumerate(groups):
            if b == a:
                rest, group = three[a], left
            else:
                others = two[a][b]
                merged = merged_of.get(others << _ID_BITS | readings)
                rest = _merge(others, readings) if merged is None else merged
            key = (rest << _NUMBER_BITS | group.number) << 9 | key_end | b
            lowering = lowering_of.get(key)
            if lowering is None:
                lowering = lowering_of[key] = _lowering_draws(rest, group, cap, current, _STARTS[b])
            draws += lowering
        if special:
            extra = _special_draws(counts, kind, thirteen, major_pair, pairs if seven_pairs else None, current)
            if extra:
                draws = tuple(sorted({*draws, *extra}))
        found.append((current, draws))
    return found


def _special_draws(
    counts: Sequence[int], discard: int, thirteen: int, major_pair: bool, pairs: int | None, current: int
) -> list[int]:
    """The draws that bring a special hand below ``current`` after ``discard``: a new major kind, a new pair.

    ``thirteen`` and ``major_pair`` describe the hand less the discard for Thirteen
    Unique Wonders, ``pairs`` its pairs for seven pairs (None without that hand).
    """
    thirteen_lowered = thirteen - 1 < current
    seven_lowered = pairs is not None and 6 - min(7, pairs + 1) < current
    if not thirteen_lowered and not seven_lowered:
        return []  # no draw can bring a special hand lower (most hands)
    draws = []
    for kind, held in enumerate(counts):
        held -= kind == discard
        if held >= 4:
            continue
        new_major = kind in _MAJORS and (held == 0 or (held == 1 and not major_pair))
        if (thirteen_lowered and new_major) or (seven_lowered and held % 2):
            draws.append(kind)
    return draws


def _lowering_draws(rest: int, group: GroupInfo, cap: int, current: int, start: int) -> tuple[int, ...]:
    """Kinds (from ``start``) of a group whose draw brings the standard shanten below ``current`` beside ``rest``."""
    ranks: list[int] = []
    for readings, drawn in _draws_by_readings(group):
        if _standard_of(_merged_id(rest, readings), cap) < current:
            ranks += drawn
    return tuple(start + rank for rank in sorted(ranks))


def _draws_by_readings(group: GroupInfo) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The ranks of which ``group`` can take one more tile (not a fifth copy), by the readings that gives it.

    Most draws give readings that another draw gives too, often the group's own:
    a tile with no tile of its group within two ranks (the same kind, for honours)
    joins no block. So the shanten beside the other groups' readings is worked out
    once per distinct readings, and only the other ranks' readings are looked up
    (not their whole table entries, which most of these hands never reach).
    """
    found = _readings_after_draw.get(group.number)
    if found is None:
        pattern = group.pattern
        readings_of = _suit_id if group.suited else _honour_id
        reach = 2 if group.suited else 0
        by_readings: dict[int, list[int]] = {}
        for rank, held in enumerate(pattern):
            if held == 4:
                continue
            if not any(pattern[max(0, rank - reach) : rank + reach + 1]):
                readings = group.readings
            else:
                changed = list(pattern)
                changed[rank] += 1
                readings = readings_of(tuple(changed))
            by_readings.setdefault(readings, []).append(rank)
        found = _readings_after_draw[group.number] = tuple((r, tuple(ranks)) for r, ranks in by_readings.items())
    return found


def shanten_after_draws(counts: Sequence[int], declared_sets: int = 0, seven_pairs: bool = True) -> list[int]:
    """Per kind, :func:`shanten_all` after drawing one more tile of it (:data:`IMPOSSIBLE` for a fifth copy)."""
    return _after_each_change(counts, declared_sets, seven_pairs, 1)


def shanten_after_discards(counts: Sequence[int], declared_sets: int = 0, seven_pairs: bool = True) -> list[int]:
    """Per kind, :func:`shanten_all` after discarding one tile of it (:data:`IMPOSSIBLE` for a kind not held)."""
    return _after_each_change(counts, declared_sets, seven_pairs, -1)
