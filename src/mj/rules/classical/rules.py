"""Chinese Classical as a :class:`~mj.rules.ruleset.Ruleset`: the pieces of this package behind one object.

Each hook is today's classical code: the course of play is the original server's
(byte-identical logs are the guard), legal moves are :mod:`mj.rules.classical.moves`,
scoring :mod:`~mj.rules.classical.scoring`, settlement
:mod:`~mj.rules.classical.settlement` and liability :mod:`~mj.rules.classical.danger`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final

from mj import hand
from mj.melds import KongOrigin, Meld, MeldKind
from mj.protocol.pmsg import PMsg
from mj.rules.base import AfterClaim, Claim, Course, DeadWallPolicy, HandScore, SeatHand, Settlement, Win
from mj.rules.classical import danger, moves
from mj.rules.classical.scoring import score_hand
from mj.rules.classical.settlement import settle
from mj.rules.naming import MoveNames
from mj.rules.options import GameOptions
from mj.rules.ruleset import Ruleset
from mj.seatview import SeatView
from mj.tiles import GlibcRandom, Tile

#: Who receives each tile of the deal: four at a time round the table three times,
#: then one each, then East's fourteenth.
DEAL_ORDER: Final = (*[seat for _ in range(3) for seat in range(4) for _ in range(4)], 0, 1, 2, 3, 0)
#: East keeps the deal after a win, but never for a fourteenth hand in a row.
EAST_WINS_AT_MOST: Final = 13


class ClassicalRules:
    """Unix Mah-Jong 1.11's Chinese Classical rules, with every game option."""

    name = "classical"
    reads_hand_start = False

    def new_options(self) -> GameOptions:
        return GameOptions()

    def flowers(self, options: GameOptions) -> bool:
        return options.flag("Flowers")

    def deal_order(self) -> Sequence[int]:
        return DEAL_ORDER

    def dead_wall(self, options: GameOptions) -> DeadWallPolicy:
        """DeadWall16 only shapes a dead wall that DeadWall asks for: without DeadWall there is none."""
        if not options.flag("DeadWall"):
            return DeadWallPolicy.NONE
        return DeadWallPolicy.SIXTEEN if options.flag("DeadWall16") else DeadWallPolicy.REPLENISHED

    def wall_ends(self, tiles_left: int, kongs: int, options: GameOptions, *, loose: bool) -> bool:
        """Never early: a classical hand is drawn only when the wall has no tile left to give."""
        return False

    def forbids(self, move: PMsg, tile: Tile, hand: SeatHand, options: GameOptions) -> str:
        """Nothing beyond the engine's own checks (which are classical's)."""
        return ""

    def wild_of(self, indicator: Tile) -> Tile | None:
        """No wild tiles."""
        return None

    def draw_seats(self, rng: GlibcRandom, players: Sequence[int]) -> list[int] | None:
        """The table's seating (connection order, ``--random-seats``...), as the original's."""
        return None

    def legal_moves(self, view: SeatView) -> list[PMsg]:
        return moves.legal_moves(view, self)

    def move_names(self) -> MoveNames | None:
        """None: a client offers these moves in the manual's dialogs."""
        return None

    def score_rule(self) -> str:
        """Nothing (""): the score text the server sends for each player spells out its sum and doubles."""
        return ""

    def exposing_spoils(self, view: SeatView, tile: Tile, pung: bool) -> bool:
        """Never: any complete hand goes out."""
        return False

    def resolve_claims(self, discarder: int, claims: Sequence[Claim], options: GameOptions) -> tuple[int, ...]:
        """The highest claim wins; between equal ones, the first in turn after the discarder."""
        best: int | None = None
        for k in (1, 2, 3):
            seat = (discarder + k) % 4
            kind = claims[seat]
            if kind is not Claim.NO_CLAIM and (best is None or kind > claims[best]):
                best = seat
        return () if best is None else (best,)

    def dealer_rotates(self, winner: int | None, hands_as_east: int) -> bool:
        """The deal passes on after another seat wins, or East's 13th win in a row; never after a wash-out."""
        return winner is not None and (winner != 0 or hands_as_east >= EAST_WINS_AT_MOST)

    def game_ends(self, completed_rounds: int, rotates: bool, round_ends: bool, options: GameOptions) -> bool:
        return rotates and round_ends and completed_rounds >= options["NumRounds"] - 1

    def course(self, options: GameOptions) -> Course:
        """Unix Mah-Jong's course: declarations after a mah-jong, flowers declared by their holders."""
        return Course(
            declares_hands=True,
            reveals_flowers=False,
            hides_concealed_kongs=False,
            original_call=True,
            chow_any_position=True,
            seven_pairs=options.flag("SevenPairs"),
            show_on_washout=options.flag("ShowOnWashout"),
            moves_after_claim=AfterClaim.ORIGINAL,
        )

    def goes_out(self, hand: SeatHand, win: Win, options: GameOptions) -> bool:
        """Any complete hand goes out: classical has no minimum score."""
        return self.is_mahjong(hand.melds, hand.concealed, options)

    def may_rob(self, origin: KongOrigin, melds: Sequence[Meld], concealed: Sequence[Tile], tile: Tile) -> bool:
        return moves.may_rob(origin, melds, concealed, tile)

    def settle_wins(self, wins: Sequence[tuple[int, HandScore, Win]], options: GameOptions) -> Settlement:
        """Never asked: classical settles every hand's score after its declaration phase (:meth:`settle`)."""
        raise ValueError("classical settles after the declaration phase (Course.declares_hands)")

    def is_mahjong(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        sets = sum(1 for m in melds if m.kind is not MeldKind.PAIR) if melds else 0
        return hand.is_mahjong(list(concealed), sets, options.flag("SevenPairs"))

    def can_finish(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        if any(m.kind is MeldKind.SPECIAL for m in melds):
            return not concealed
        sets = sum(1 for m in melds if m.kind is not MeldKind.PAIR)
        pairs = len(melds) - sets
        tiles = list(concealed)
        if pairs <= 1 and sets <= 4 and hand.can_complete(tiles, 4 - sets, pairs == 0):
            return True
        seven_pairs = options.flag("SevenPairs") and sets == 0 and 2 * pairs + len(tiles) == 14
        return seven_pairs and all(c % 2 == 0 for c in hand.counts(tiles))

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        return score_hand(hand, win, options, special_scores)

    def settle(
        self, scores: Sequence[int], winner: int, discarder: int | None, cannoneer: int | None, options: GameOptions
    ) -> Settlement:
        return settle(scores, winner, discarder, cannoneer, options)

    def exposure(self, melds: Sequence[Meld]) -> frozenset[Hashable]:
        return danger.signals(melds)

    def danger(
        self, tile: Tile, shown: frozenset[Hashable], live_tiles: int, copies_discarded: int
    ) -> frozenset[Hashable]:
        reasons: set[Hashable] = {
            s for s in shown if isinstance(s, danger.Signal) and danger.threatens(tile, frozenset({s}))
        }
        if danger.end_of_wall(live_tiles, copies_discarded):
            reasons.add(danger.Signal.END_OF_WALL)
        return frozenset(reasons)

    def achieved(self, hand: SeatHand) -> frozenset[Hashable]:
        return danger.winning_signals(hand)


CLASSICAL = ClassicalRules()


def needs_extension(rules: Ruleset) -> bool:
    """Whether an original client cannot play ``rules``: options or a course of play other than classical's.

    A system that only scores differently (a test's stand-in) plays with classical's
    messages; IMS and Beijing need mj's protocol extension (docs/protocol-extension.md).
    """
    options = rules.new_options()
    return options != CLASSICAL.new_options() or rules.course(options) != CLASSICAL.course(options)
