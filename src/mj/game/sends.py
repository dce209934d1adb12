"""What the engine asks its adapters to deliver."""

from __future__ import annotations

from dataclasses import dataclass

from mj.protocol.cmsg import CMsg


@dataclass(slots=True, init=False)
class Send:
    """One message for some players.

    ``to`` is None for a broadcast to every seated player (in seat order), else
    the player ids that receive it. ``logged_for`` names the recipients whose copy
    the original server writes to its log (§12.1): a broadcast is logged once, as
    the copy for whoever is East at that moment; censored copies not at all.
    """

    to: tuple[int, ...] | None
    message: CMsg
    logged_for: tuple[int, ...]

    # Written out, not generated: see mj.compiled on value classes built per message.
    def __init__(self, to: tuple[int, ...] | None, message: CMsg, logged_for: tuple[int, ...]) -> None:
        self.to = to
        self.message = message
        self.logged_for = logged_for


class IllegalMove(Exception):
    """An intent the rules refuse; ``str()`` is the original's error text (§18). Nothing changed.

    ``then`` holds messages the original sends anyway after the error (a quirk kept
    only when reproducing it). ``logged=False`` marks the errors the original leaves
    out of its log (§12.1: "Game not active", "Debugging not enabled").
    """

    def __init__(self, text: str, then: tuple[Send, ...] = (), *, logged: bool = True) -> None:
        super().__init__(text)
        self.then = then
        self.logged = logged
