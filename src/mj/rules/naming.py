"""How a rule system's own words name its moves for a client: :class:`MoveNames`.

A system that is not played with the original ``xmj``'s dialogs (IMS's bids, Beijing's
calls) names each move on its buttons, and also the act of answering a discard: the
title of the dialog that offers it and the verb the move log says it with. Keeping the
three together keeps each system's vocabulary in one place, out of the client.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mj.protocol.pmsg import PMsg

if TYPE_CHECKING:  # the seat view reads its rule system, which names moves: a cycle for annotations only
    from mj.seatview import SeatView


@dataclass(frozen=True, slots=True)
class MoveNames:
    """A rule system's names: ``names(view, move)`` is the button's name of one of the view's legal moves."""

    #: (a view, one of its legal moves) -> the name on its button.
    button: Callable[[SeatView, PMsg], str]
    #: The title of the dialog offering the moves on another's discard ("Bid for the discard").
    claim_title: str
    #: How the move log says that a player claims ("bids": "West bids Pung").
    claim_verb: str

    def __call__(self, view: SeatView, move: PMsg) -> str:
        return self.button(view, move)
