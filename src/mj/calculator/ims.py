"""``mj score`` for the IMS rules: the scorer's lines as elements, its payments."""

from __future__ import annotations

from collections.abc import Mapping

from mj.calculator.outcome import Element, InputError, Outcome
from mj.rules.ims import options as ims_options
from mj.rules.ims.payments import pay
from mj.rules.ims.scoring import score
from mj.rules.winhand import WinningHand


def calculate(hand: WinningHand, given: Mapping[str, object]) -> Outcome:
    """Score ``hand`` under the IMS table options ``given`` by name."""
    try:
        options = ims_options.parse(given)
    except ims_options.IMSOptionError as exc:
        raise InputError(str(exc)) from None
    result = score(hand, options)
    elements = tuple(Element(line.name, line.value_text) for line in result.fan_lines)
    if result.shape is None:
        return Outcome(False, result.reason, None, (), (), None, result.text)
    figures = (("fan", result.fan), ("bonus", result.bonus))
    if not result.allowed:
        return Outcome(False, result.reason, None, figures, elements, None, result.text)
    payments = pay(hand.seat, hand.how, hand.discarder, result.score, result.bonus)
    text = f"{result.text}\n\n{payments.text}"
    return Outcome(True, "", result.score, figures, elements, payments.changes, text)
