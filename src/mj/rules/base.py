"""The values every rule system shares with the engine, the robots and the tools.

A rule system (:class:`~mj.rules.ruleset.Ruleset`) is handed a finished hand as a
:class:`SeatHand` and the facts of the win as a :class:`Win` (the engine knows the
history: where the winning tile came from, what was visible on the table), and
answers with a :class:`HandScore` (a score and its explanation) and, for the hand,
a :class:`Settlement` (each seat's change and every payment behind it). None of
these belong to one system: classical, IMS and Beijing read and fill the same
fields, each with its own meaning of "score", so the engine and the tools never
import a system's own types.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final

from mj.melds import KongOrigin, Meld
from mj.tiles import Tile


class Claim(IntEnum):
    """An answer to a discard (or a kong that may be robbed), in classical's order of precedence."""

    NO_CLAIM = 0
    CHOW = 1
    PUNG = 2
    KONG = 3
    MAHJONG = 4


class DeadWallPolicy(Enum):
    """How loose tiles are provided (the rule system chooses one from its options)."""

    #: 14 tiles, topped up with two tiles from the live wall when it falls below 13.
    REPLENISHED = "replenished"
    #: 16 tiles, never replenished: no loose tile once they are used.
    SIXTEEN = "sixteen"
    #: No dead wall: loose tiles come off the end of the live wall.
    NONE = "none"

    @property
    def size(self) -> int:
        """Tiles set aside for loose draws when the wall is built."""
        return _DEAD_WALL_SIZE[self]


class AfterClaim(Enum):
    """What the player a claimed chow or pung gave the turn may do before its discard."""

    #: Unix Mah-Jong's: go out, or make a kong of the pung just claimed (the protocol's), not
    #: a concealed kong.
    ORIGINAL = "original"
    #: A quadruplet, concealed or added to a revealed triplet, but no win (IMS: the turn is
    #: a turn, and the tile that completed the hand was the MahJong bid's).
    KONGS = "kongs"
    #: Only the discard (Beijing).
    DISCARD = "discard"


class WinSource(Enum):
    """Where the winning tile came from."""

    DISCARD = "discard"
    WALL = "wall"
    LOOSE = "loose"
    ROBBED_KONG = "robbed kong"


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat's hand as it is scored.

    ``melds`` are in the order they were formed: sets exposed during play first,
    then (winner and losers alike) the sets declared in the scoring phase.
    ``concealed`` holds the tiles a loser revealed without forming sets.
    """

    melds: tuple[Meld, ...]
    concealed: tuple[Tile, ...]
    specials: tuple[Tile, ...]
    #: Seat wind tile of this hand (EAST_WIND for East...).
    own_wind: Tile
    prevailing_wind: Tile
    #: The tile turned up to name the wild tiles (Beijing); None under a system without wilds.
    indicator: Tile | None = None


@dataclass(frozen=True, slots=True)
class Win:
    """Facts about the winner's going out."""

    tile: Tile
    source: WinSource
    #: Number of leading ``melds`` that were exposed before the winning tile arrived.
    melds_before_win: int
    #: Tiles visible on the table when the winning tile arrived (discards and exposed
    #: sets of all seats), as a 34-entry count vector by ``tiles.kind_index``.
    visible: tuple[int, ...]
    #: The live wall was empty when the winning tile arrived.
    last_tile: bool
    heavens_blessing: bool
    earths_blessing: bool
    kong_upon_kong: bool
    original_call: bool
    #: Hands East had won in a row before this one (12 → East's 13th consecutive win).
    hands_as_east: int
    winner_is_east: bool
    #: The seat whose discard (or added kong) fed the winning tile; None when self-drawn.
    feeder: int | None = None
    #: How the robbed kong was being made (ROBBED_KONG only).
    robbed: KongOrigin | None = None
    #: Every tile the winner discarded this hand, claimed or not (a wild thrown kills a Beijing hand).
    discards: tuple[Tile, ...] = ()
    #: Tiles others discarded that the winner let pass since its last turn or the last pung or kong
    #: (Beijing's NoWinAfterPass), the winning discard not included.
    passed: tuple[Tile, ...] = ()
    #: The hand's first discards, up to four, while nobody had made a set (Beijing's busted banker).
    opening: tuple[Tile, ...] = ()
    #: The hand before this one was drawn (Beijing's upstairs).
    after_draw: bool = False
    #: Hands the dealer had dealt in a row before this one, won or drawn (Beijing's upstairs).
    banker_hands: int = 0


@dataclass(frozen=True, slots=True)
class HandScore:
    """A hand's score and its explanation (for classical, the ``HandScore`` text, no trailing newline)."""

    score: int
    text: str
    #: The system's own figures behind the score, by name (IMS: ``("fan", 3), ("bonus", 5)``).
    figures: tuple[tuple[str, int], ...] = ()

    def figure(self, name: str) -> int:
        """The figure called ``name`` (0 when the system gives none)."""
        return next((value for key, value in self.figures if key == name), 0)


@dataclass(frozen=True, slots=True)
class Course:
    """How a hand runs under a rule system, beyond its moves: the engine asks these once per hand.

    Classical has every feature of Unix Mah-Jong; IMS reveals flowers itself, hides
    concealed kongs and scores without a declaration phase.
    """

    #: After a mah-jong, the players declare their hands set by set (classical); otherwise the
    #: scorer arranges the winner's tiles itself and the hand is settled at once.
    declares_hands: bool
    #: Flowers and seasons are revealed and replaced by the engine as they are drawn, not declared.
    reveals_flowers: bool
    #: A concealed kong's tiles reach the other seats only when the hand ends; it cannot be robbed.
    hides_concealed_kongs: bool
    #: A first discard may declare an Original Call (calling).
    original_call: bool
    #: A chow may be claimed without its position (``AnyPos``), named once granted.
    chow_any_position: bool
    #: Seven pairs is a complete hand.
    seven_pairs: bool
    #: Every hand is shown when the wall is exhausted.
    show_on_washout: bool
    #: What the turn a claimed discard gave allows before the discard.
    moves_after_claim: AfterClaim
    #: After the deal the next live tile is turned up as the wild indicator, shown to all (Beijing).
    wild_indicator: bool = False


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment of a settlement: ``payer`` pays ``payee`` ``amount`` points (seats, 0 = East)."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """Net score changes by seat, the payments that make them, and the explanation text.

    ``changes`` is what each seat's score moves by, and always sums to zero;
    ``payments`` lists who paid whom (several winners or a liable player show here).
    ``text`` is the explanation as the rule system words it; classical's is the full
    text the original builds, ending in ``"\\n\\n"``: that is what log and save files
    hold. A receiver never sees the trailing newlines (the line decoder strips
    trailing white space, §1.3), so a sender may strip them for the wire.
    """

    changes: tuple[int, int, int, int]
    text: str
    payments: tuple[Payment, ...] = ()


_DEAD_WALL_SIZE: Final = {DeadWallPolicy.REPLENISHED: 14, DeadWallPolicy.SIXTEEN: 16, DeadWallPolicy.NONE: 0}
