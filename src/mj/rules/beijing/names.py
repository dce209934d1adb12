"""The seed's names for the Beijing moves, as a client's buttons say them: [Chow], [Pung], [Kong], [Hu].

The seed's players call 'chow', 'pung', 'kong' and 'hu'; the other moves are
[Pass] (letting a discard or a kong go, the discarder's successor included: the
seed names no draw bid) and [Discard]. A chow names its position, as the three
chows a discard may make are three buttons, each showing its tiles. This is the
Beijing rule system's ``move_names()`` (:meth:`mj.rules.ruleset.Ruleset.move_names`);
which of these moves a seat may make is the rule system's ``legal_moves``.
"""

from __future__ import annotations

from mj.protocol import pmsg as P
from mj.seatview import SeatView


def button(view: SeatView, move: P.PMsg) -> str:
    """The seed's name of the button for ``move``, for a client to offer it (the view is not needed)."""
    if isinstance(move, P.NoClaim):
        return "Pass"
    if isinstance(move, P.Chow):
        return f"Chow {move.cpos.value}"
    if isinstance(move, P.Pung):
        return "Pung"
    if isinstance(move, P.Kong | P.DeclareClosedKong | P.AddToPung):
        return "Kong"
    if isinstance(move, P.MahJong):
        return "Hu"
    if isinstance(move, P.Discard):
        return "Discard"
    if isinstance(move, P.Ready):
        return "Ready"
    raise ValueError(f"{move.encode()!r} is not a Beijing move")
