"""``mj score`` for the Beijing rules: the doubles every payer shares, the elements, each payer's amount.

``score`` is what the winner collects in all (Beijing has no single hand score: each
payer pays their own amount). The hand's history is not in the input, so a hand is
never scored upstairs here (docs/rules-beijing.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from mj.calculator.outcome import Element, InputError, Outcome
from mj.rules.beijing import options as beijing_options
from mj.rules.beijing.payments import pay
from mj.rules.beijing.scoring import BeijingScore, score
from mj.rules.winhand import SEAT_LETTERS, How, WinningHand
from mj.tiles import Tile, code, is_special, kind_index


def calculate(hand: WinningHand, given: Mapping[str, object], indicator: Tile | None) -> Outcome:
    """Score ``hand`` under the Beijing table options ``given``, the wild turned up by ``indicator``."""
    if indicator is None:
        raise InputError('wild_indicator is required for the beijing rules (the turned-up tile, e.g. "5C")')
    if is_special(indicator):
        raise InputError(f"wild_indicator: {code(indicator)} is a flower or season; Beijing plays without them")
    if hand.flowers:
        raise InputError("flowers are given, but Beijing plays without flowers")
    if hand.tile_counts()[kind_index(indicator)] > 3:
        raise InputError(f"the hand holds 4 of {code(indicator)}, but the wild indicator is one of its four copies")
    if hand.how is How.ROBBED_KONG and hand.winning_tile == indicator:
        raise InputError(
            f"the robbed kong's tile {code(indicator)} cannot be the wild indicator:"
            " the winner and the robbed pung hold all four"
        )
    try:
        options = beijing_options.parse(given)
    except beijing_options.BeijingOptionError as exc:
        raise InputError(str(exc)) from None
    result = score(hand, options, indicator)
    if not result.allowed:
        return Outcome(False, result.reason, None, (), (), None, result.text)
    payments = pay(hand.seat, hand.discarder, result, options.flag(beijing_options.DISCARDER_PAYS_ALL))
    text = f"{result.text}\n\n{payments.text}"
    return Outcome(True, "", result.total, (("doubles", result.doubles),), elements(result), payments.changes, text)


def elements(result: BeijingScore) -> tuple[Element, ...]:
    """Each double (shared, or whose payers it applies to), each rare event and the kong points."""
    found = [Element(name, f"{n} double" + ("s" if n > 1 else "")) for name, n in result.shared]
    shared = {name for name, _ in result.shared}
    names: list[str] = []
    for p in result.payers:
        names += [name for name, _ in p.doubles if name not in shared and name not in names]
    for name in names:
        who = [SEAT_LETTERS[p.payer] for p in result.payers if dict(p.doubles).get(name)]
        n = max(dict(p.doubles).get(name, 0) for p in result.payers)
        found.append(Element(name, f"{n} double{'s' if n > 1 else ''} for {' '.join(who)}"))
    found += [Element(name, f"{points} points, undoubled") for name, points in result.rare]
    if result.kongs:
        found.append(Element("Kongs", f"{result.kongs} point{'s' if result.kongs > 1 else ''}"))
    return tuple(found)
