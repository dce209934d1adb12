"""How a rule system's own words name its moves for a client: :class:`MoveNames`.

A system that is not played with the original ``xmj``'s dialogs (IMS's bids, Beijing's
calls) names each move on its buttons, and also the act of answering a discard: the
title of the dialog that offers it and the verb the move log says it with. Keeping the
three together keeps each system's vocabulary in one place, out of the client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mj.protocol import pmsg as P

if TYPE_CHECKING:  # the seat view reads its rule system, which names moves: a cycle for annotations only
    from mj.seatview import SeatView


@dataclass(frozen=True, slots=True)
class MoveNames:
    """A rule system's words; called with (a view, one of its legal moves), the name on that move's button.

    The moves are the protocol's, the same in every system: only their words differ,
    so one mapping serves every system and each gives its words here.
    """

    #: Declining a discard (or a kong that could be robbed).
    pass_: str
    #: Declining a discard by the discarder's successor, who draws next (None: called ``pass_`` too).
    draw: str | None
    #: A chow, followed by its position ("Connect" -> "Connect lower").
    chow: str
    pung: str
    #: Any kong: claimed, concealed, or added to an exposed pung.
    kong: str
    #: Going out.
    win: str
    #: The title of the dialog offering the moves on another's discard ("Bid for the discard").
    claim_title: str
    #: How the move log says that a player claims ("bids": "West bids Pung").
    claim_verb: str

    def __call__(self, view: SeatView, move: P.PMsg) -> str:
        if isinstance(move, P.NoClaim):
            pending = view.pending
            draws = pending is not None and pending.kong is None and view.left_of(pending.who)
            return self.draw if draws and self.draw is not None else self.pass_
        if isinstance(move, P.Chow):
            return f"{self.chow} {move.cpos.value}"
        if isinstance(move, P.Pung):
            return self.pung
        if isinstance(move, P.Kong | P.DeclareClosedKong | P.AddToPung):
            return self.kong
        if isinstance(move, P.MahJong):
            return self.win
        if isinstance(move, P.Discard):
            return "Discard"
        if isinstance(move, P.Ready):
            return "Ready"
        raise ValueError(f"{move.encode()!r} is not a move a player makes")
