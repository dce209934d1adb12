"""What the engine asks its adapters to deliver."""

from __future__ import annotations

from dataclasses import dataclass

from mj.protocol.cmsg import CMsg


@dataclass(frozen=True, slots=True)
class Send:
    """One message for some players.

    ``to`` is None for a broadcast to every seated player (in seat order), else
    the player ids that receive it. ``logged`` is false for the censored copies
    the original server leaves out of its log (§12.1).
    """

    to: tuple[int, ...] | None
    message: CMsg
    logged: bool = True


class IllegalMove(Exception):
    """An intent the rules refuse; ``str()`` is the original's error text (§18). Nothing changed."""
