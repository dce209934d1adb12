"""The IMS rules as a :class:`~mj.rules.ruleset.Ruleset`: the course of play of seed 003, scored by this package.

Built on Chinese Classical's engine hooks (:class:`~mj.rules.classical.rules.ClassicalRules`),
with what the seed changes:

* a random player is the first dealer, the others in turn as they joined;
* 144 tiles; flowers and seasons are revealed and replaced by the engine as they are
  drawn ("he reveals it and keeps drawing"), the player declares nothing;
* no dead wall: replacement tiles come off the wall like any other ("we don't make
  that distinction in IMS"), and the hand is drawn when a draw is due and fewer than
  14 tiles remain (a replacement may still take one of them);
* a concealed quadruplet stays hidden from the others until the hand ends, and only
  a quadruplet added to a revealed triplet may be robbed;
* the turn a claim gives is a turn, quadruplets included, but without a win
  (:attr:`~mj.rules.base.AfterClaim.KONGS`);
* bids on a discard: the successor Draw (``NoClaim``) or a Connection at one of its
  three positions, anyone Pass (``NoClaim``), Triplet, Quadruplet or MahJong, with
  precedence pass < draw = connection < triplet = quadruplet < MahJong; with Multiple
  Wins every MahJong bid wins, otherwise the closest successor;
* no declaration phase: the scorer arranges the winner's tiles itself
  (:mod:`mj.rules.ims.scoring`), the Minimum Fan is enforced when going out, and the
  winners are paid by :mod:`mj.rules.ims.payments`;
* the dealer stays on a win or a draw; the round wind turns after a full round.

docs/rules-ims.md records every reading where the seed is silent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mj.melds import KongOrigin, Meld
from mj.protocol.pmsg import PMsg
from mj.rules.base import AfterClaim, Claim, Course, DeadWallPolicy, HandScore, Payment, SeatHand, Settlement, Win
from mj.rules.classical.rules import ClassicalRules
from mj.rules.ims import moves
from mj.rules.ims import options as ims_options
from mj.rules.ims.options import IMSOptions
from mj.rules.ims.payments import SEAT_NAMES, pay
from mj.rules.ims.scoring import IMSScore, completes, score
from mj.rules.naming import MoveNames
from mj.rules.noliability import NoLiability
from mj.rules.options import GameOptions, own_option, system_options
from mj.rules.winhand import HOW_OF, from_table
from mj.seatview import SeatView
from mj.tiles import DRAGONS, GlibcRandom, Tile

#: The table's options: the claim timer's and the game's length from the classical table,
#: and the seed's three table options (:data:`mj.rules.ims.options.SCHEMA`).
_KEPT: Final = ("Timeout", "TimeoutGrace", "NumRounds")
OPTION_ENTRIES: Final = system_options(
    _KEPT,
    (own_option(s.name, s.is_bool, s.default, s.description, s.allowed or ()) for s in ims_options.SCHEMA),
)
#: The hand is drawn when a draw is due and the wall holds fewer tiles than this (the seed).
DRAWN_BELOW: Final = 14


def table_options(options: GameOptions) -> ims_options.IMSOptions:
    """The IMS options of a table's :class:`GameOptions` (a value the seed does not allow is an error)."""
    return ims_options.parse({spec.name: options[spec.name] for spec in ims_options.SCHEMA})


class IMSRules(NoLiability, ClassicalRules):
    """The Internet MahJong Server's rules (seed 003)."""

    name = "ims"
    #: The last hand scored and its score (see :meth:`_scored`).
    _last: tuple[tuple[SeatHand, Win, IMSOptions], IMSScore] | None = None

    def _scored(self, hand: SeatHand, win: Win, options: GameOptions) -> IMSScore:
        """The scorer's answer for ``hand`` going out as ``win`` says, the last one kept.

        A win is asked :meth:`goes_out` and then :meth:`score` of the same hand (by the
        engine on every win, by the robot for every wait it weighs), and scoring is
        the costly part; the answer depends on these three values alone.
        """
        key = (hand, win, table_options(options))
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        result = score(from_table(hand, win), key[2])
        self._last = (key, result)
        return result

    def new_options(self) -> GameOptions:
        return GameOptions(OPTION_ENTRIES)

    def flowers(self, options: GameOptions) -> bool:
        return True

    def dead_wall(self, options: GameOptions) -> DeadWallPolicy:
        return DeadWallPolicy.NONE

    def wall_ends(self, tiles_left: int, kongs: int, options: GameOptions, *, loose: bool) -> bool:
        """A draw (the [Draw] bid, or the next seat's after a pass) is refused below 14 tiles; a replacement is not.

        The seed puts the fourteen on the draw bid alone ("If his bid is draw, he draws a
        tile ... The game is declared a draw if the stockpile has less than 14 tiles"), and
        gives the replacements for a flower ("keeps drawing until he gets a normal tile")
        and a quadruplet ("draws another tile to compensate") unconditionally: as from a
        dead wall of fourteen elsewhere, they come from the last tiles until none is left.
        """
        return not loose and tiles_left < DRAWN_BELOW

    def course(self, options: GameOptions) -> Course:
        return Course(
            declares_hands=False,
            reveals_flowers=True,
            hides_concealed_kongs=True,
            original_call=False,
            chow_any_position=False,
            seven_pairs=True,
            show_on_washout=True,
            moves_after_claim=AfterClaim.KONGS,
        )

    def legal_moves(self, view: SeatView) -> list[PMsg]:
        return moves.legal_moves(view, self)

    def move_names(self) -> MoveNames | None:
        """The seed's buttons ([Draw], [Connect], [Triplet]...): [Draw] is the discarder's successor
        declining the discard, the others [Pass]; the other players bid for a discard."""
        return MoveNames(
            pass_="Pass",
            draw="Draw",
            chow="Connect",
            pung="Triplet",
            kong="Quadruplet",
            win="MahJong",
            claim_title="Bid for the discard",
            claim_verb="bids",
        )

    def score_rule(self) -> str:
        """The seed's score and payments (docs/rules-ims.md): a fan of 1 and a bonus of 0 scoring 2 puzzles
        whoever is not told."""
        return (
            "Score = 2^fan + bonus (fan² + bonus from 4 fan). Self-drawn: every other player pays the score. "
            "On a discard: its discarder pays the score, the other two the bonus."
        )

    def exposing_spoils(self, view: SeatView, tile: Tile, pung: bool) -> bool:
        """Under a Minimum Fan, the first revealed set costs Front Door Clean's fan, unless it brings its own.

        A triplet of dragons, of the seat's wind or of the round wind is worth a fan
        (:mod:`mj.rules.ims.scoring`); any other set, and every connection, is worth none.
        """
        if not view.options[ims_options.MINIMUM_FAN]:
            return False
        if pung and (tile in DRAGONS or tile == view.own_wind or tile == view.prevailing):
            return False
        return all(m.concealed for m in view.melds)

    def resolve_claims(self, discarder: int, claims: Sequence[Claim], options: GameOptions) -> tuple[int, ...]:
        """The highest bid wins, the closest successor among equals; with Multiple Wins, every MahJong.

        Triplet and quadruplet are equal bids, but at most one seat can hold two of the
        discarded tile's three other copies, so they never meet.
        """
        order = [(discarder + k) % 4 for k in (1, 2, 3)]
        if options.flag(ims_options.MULTIPLE_WINS):
            winners = tuple(seat for seat in order if claims[seat] is Claim.MAHJONG)
            if winners:
                return winners
        return super().resolve_claims(discarder, claims, options)

    def may_rob(self, origin: KongOrigin, melds: Sequence[Meld], concealed: Sequence[Tile], tile: Tile) -> bool:
        """Only a quadruplet added to a revealed triplet may be robbed (a concealed one is never seen)."""
        return origin is KongOrigin.ANNEXED

    def is_mahjong(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        return completes(melds, concealed)

    def goes_out(self, hand: SeatHand, win: Win, options: GameOptions) -> bool:
        """A winning pattern with at least the table's Minimum Fan."""
        if not self.is_mahjong(hand.melds, hand.concealed, options):
            return False
        return self._scored(hand, win, options).allowed

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        if win is None:
            return HandScore(0, "")
        result = self._scored(hand, win, options)
        figures = [("fan", result.fan), ("bonus", result.bonus)]
        figures.extend((f"fan:{line.name}", line.value) for line in result.fan_lines)
        figures.extend((f"bonus:{line.name}", line.value) for line in result.bonus_lines)
        return HandScore(result.score, result.text, tuple(figures))

    def settle_wins(self, wins: Sequence[tuple[int, HandScore, Win]], options: GameOptions) -> Settlement:
        """Each winner paid as :func:`mj.rules.ims.payments.pay` says; a seat's change sums over the winners."""
        changes = [0, 0, 0, 0]
        payments: list[Payment] = []
        texts: list[str] = []
        for seat, result, win in wins:
            how = HOW_OF[win.source]
            paid = pay(seat, how, win.feeder if how.fed else None, result.score, result.figure("bonus"))
            for payer in range(4):
                amount = -paid.changes[payer] if payer != seat else 0
                if amount:
                    payments.append(Payment(payer, seat, amount))
            for i in range(4):
                changes[i] += paid.changes[i]
            texts.append(f"{SEAT_NAMES[seat]} wins {result.score}\n{paid.text}")
        east, south, west, north = changes
        return Settlement((east, south, west, north), "\n".join(texts) + "\n\n", tuple(payments))

    def draw_seats(self, rng: GlibcRandom, players: Sequence[int]) -> list[int] | None:
        """The seed's "A random player is chosen to be the dealer": the others follow it in turn, as they joined."""
        first = rng.index(len(players) - 1)
        return [*players[first:], *players[:first]]

    def dealer_rotates(self, winner: int | None, hands_as_east: int) -> bool:
        """The deal passes on only when another seat wins: the dealer stays on a win or a draw."""
        return winner is not None and winner != 0


IMS = IMSRules()
