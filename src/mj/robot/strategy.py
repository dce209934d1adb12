"""The decisions a robot makes, and the :class:`Strategy` protocol every robot level implements.

A strategy only *chooses*: it reads a :class:`~mj.seatview.SeatView` and answers
with plain values (a tile, a :class:`Claim`, a list of :class:`Declaration`).
Turning choices into protocol messages, answering every discard exactly once and
recovering from refused moves is the :class:`~mj.robot.agent.Robot`'s job, so a
strategy can be tested on hand-built views and reused in-process by the arena
without sockets or message plumbing.

Strategies must be deterministic: the same view (and the same seed given at
construction) gives the same decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from mj.protocol.fields import ChowPosition
from mj.seatview import SeatView
from mj.tiles import BLANK, Tile


class ClaimKind(Enum):
    """What a discard is claimed for, in the server's order of precedence (§7.6)."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    MAHJONG = "mah-jong"


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim on a discard; ``position`` (where the discard sits in the chow) only for chows."""

    kind: ClaimKind
    position: ChowPosition | None = None


class KongKind(Enum):
    CLOSED = "concealed kong"
    ADD_TO_PUNG = "add to an exposed pung"


@dataclass(frozen=True, slots=True)
class KongMove:
    """A kong made in one's own turn: four concealed tiles, or the fourth tile of an exposed pung."""

    kind: KongKind
    tile: Tile


class Step(Enum):
    """One message of the declaration phase after a mah-jong (§7.10).

    The ``USE_*`` steps say what the winner does with the claimed discard (or robbed
    kong tile); the server expects that first. The others form concealed sets, and
    ``SHOW`` reveals what is left (losers only).
    """

    USE_PUNG = "Pung 0"
    USE_CHOW = "Chow 0 <pos>"
    USE_PAIR = "Pair"
    USE_SPECIAL = "SpecialSet"
    PUNG = "FormClosedPung"
    CHOW = "FormClosedChow"
    PAIR = "FormClosedPair"
    SPECIAL = "FormClosedSpecialSet"
    SHOW = "ShowTiles"


#: The steps that use the winner's pending tile.
USES_PENDING = frozenset((Step.USE_PUNG, Step.USE_CHOW, Step.USE_PAIR, Step.USE_SPECIAL))


@dataclass(frozen=True, slots=True)
class Declaration:
    """One declaration step: ``tile`` is the repeated tile, or the lowest tile of a chow.

    ``position`` places the pending tile in the chow for :attr:`Step.USE_CHOW`.
    """

    step: Step
    tile: Tile = BLANK
    position: ChowPosition | None = None


class Strategy(Protocol):
    """Everything a robot has to decide, each from the seat's current view."""

    def declare_special(self, view: SeatView) -> Tile | None:
        """The flower or season to declare now, or None to declare none (or no more)."""
        ...

    def mahjong_now(self, view: SeatView) -> bool:
        """In one's own turn with a complete hand: go out now?"""
        ...

    def kong(self, view: SeatView) -> KongMove | None:
        """In one's own turn after a draw: a concealed kong or an add-to-pung to make, if any."""
        ...

    def discard(self, view: SeatView) -> tuple[Tile, bool]:
        """The tile to discard and whether to declare an Original Call with it."""
        ...

    def claim(self, view: SeatView, tile: Tile, serial: int) -> Claim | None:
        """The claim to make on another player's discard ``tile`` numbered ``serial``; None passes."""
        ...

    def rob_kong(self, view: SeatView, tile: Tile, serial: int) -> bool:
        """Claim mah-jong on the kong being made with ``tile`` (the view's pending kong)?"""
        ...

    def winning_plans(self, view: SeatView) -> list[list[Declaration]]:
        """After going out: the remaining declaration steps, alternative plans best first."""
        ...

    def losing_plan(self, view: SeatView) -> list[Declaration]:
        """After another player went out: the sets to form, ending with SHOW if tiles remain."""
        ...
