"""The Beijing rules as a :class:`~mj.rules.ruleset.Ruleset`: the course of play of seed 004, scored by this package.

Built on Chinese Classical's engine hooks (:class:`~mj.rules.classical.rules.ClassicalRules`),
with what the seed changes:

* 136 tiles, no flowers; the deal of three rounds of four tiles and one more (the
  banker takes the first and the fifth); after the deal the next tile of the head is
  turned up as the wild indicator (:attr:`~mj.rules.base.Course.wild_indicator`),
  shown to all and out of play;
* no dead wall: kong replacements come off the tail of the wall, and the hand is
  drawn when the tiles the table agreed on remain (``WallEnd``: 7 stacks, 7 or 8
  stacks, 14 plus one a kong), the indicator not counted;
* chow from the left only, pung and kong from anyone, a win over everything
  (classical's precedence), one winner; after a chow or pung only the discard;
* the wild-tile rules: no wild in an open set or a kong (:meth:`BeijingRules.forbids`),
  a player who discarded a wild never wins that hand (a dead hand plays on), no win on
  a discarded wild, with open sets or more than two wilds only by one's own tile, a
  wait for the eye with a wild only by one's own tile, an added kong robbed, a closed
  one only to complete a Flush; the variations of :mod:`.options`;
* no declaration phase: the scorer reads the winner's tiles every way the wilds allow
  (:mod:`.scoring`), each payer pays their own amount (:mod:`.payments`);
* the banker stays on a win or a draw; a game is four banker rotations.

docs/rules-beijing.md records every reading where the seed is silent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from mj.hand import counts
from mj.hand.wild import arrangements, is_complete
from mj.melds import KongOrigin, Meld, MeldKind
from mj.protocol import pmsg as P
from mj.protocol.pmsg import PMsg
from mj.rules.base import AfterClaim, Course, DeadWallPolicy, HandScore, Payment, SeatHand, Settlement, Win, WinSource
from mj.rules.beijing import moves
from mj.rules.beijing import options as opt
from mj.rules.beijing.figures import payer_doubles
from mj.rules.beijing.payments import busted_banker, pay
from mj.rules.beijing.scoring import SEAT_NAMES, BeijingScore, PayerScore, score
from mj.rules.beijing.seating import draw_seats
from mj.rules.beijing.wilds import dead_hand, may_rob_kong, may_win_on_discard, wild_of
from mj.rules.classical.moves import chow_partners
from mj.rules.classical.rules import ClassicalRules
from mj.rules.naming import MoveNames
from mj.rules.noliability import NoLiability
from mj.rules.options import GameOptions, own_option, system_options
from mj.rules.winhand import HOW_OF, from_table
from mj.seatview import SeatView
from mj.tiles import GlibcRandom, Tile, is_suited, kind_index

#: The table's options: the claim timer's from the classical table, then the seed's agreements and variations.
_KEPT: Final = ("Timeout", "TimeoutGrace")
OPTION_ENTRIES: Final = system_options(
    _KEPT, (own_option(s.name, s.is_bool, s.default, s.description, bounds=s.bounds) for s in opt.SCHEMA)
)
#: Tiles left at a draw (the indicator not counted): 7 stacks, the seed's first arrangement.
SEVEN_STACKS: Final = 14
#: The figure names of a score (mj's ``ScoreFigure``): each payer's amount is ``owes:SEAT``.
OWES: Final = "owes:"
_SET_MOVES: Final = (P.Chow, P.Pung, P.Kong, P.DeclareClosedKong, P.AddToPung)


def table_options(options: GameOptions) -> opt.BeijingOptions:
    """The Beijing options of a table's :class:`GameOptions` (a value the schema does not allow is an error)."""
    return opt.parse({spec.name: options[spec.name] for spec in opt.SCHEMA})


def tiles_kept(wall_end: int, kongs: int) -> int:
    """Tiles the wall keeps undrawn at a draw under the ``WallEnd`` arrangement, after ``kongs`` kongs."""
    if wall_end == 1:
        return SEVEN_STACKS + (2 if kongs >= 2 else 0)
    if wall_end == 2:
        return SEVEN_STACKS + kongs
    return SEVEN_STACKS


def upstairs(win: Win, options: opt.BeijingOptions) -> bool:
    """Whether the hand is upstairs: after a draw (``Upstairs``), or from the banker's third stay on."""
    return (options.flag(opt.UPSTAIRS) and win.after_draw) or (
        options.flag(opt.UPSTAIRS_BANKER) and win.banker_hands >= 3
    )


def completes_flush(hand: SeatHand, wild: Tile, tile: Tile) -> bool:
    """Whether ``tile`` completes one of the Flush's three runs (1-2-3, 4-5-6, 7-8-9 of one suit) in some
    reading of the complete ``hand``: the seed lets a closed kong be robbed for "one of three sets of
    flush", not for a hand that held its Flush already and wants the tile elsewhere.

    A reading with a Flush in the tile's own suit is enough: the Flush holds every rank of that suit,
    and the robbed copy can always take the place of the copy (or of the wild) the run is read with.
    """
    if not is_suited(tile):
        return False
    suit = tile - tile % 10
    declared = [m for m in hand.melds if m.kind is not MeldKind.PAIR]
    lows = {m.tile for m in declared if m.kind is MeldKind.CHOW}
    for reading in arrangements(counts(hand.concealed), kind_index(wild), len(declared)):
        if {suit + 1, suit + 4, suit + 7} <= lows | set(reading.chows):
            return True
    return False


class BeijingRules(NoLiability, ClassicalRules):
    """The Beijing rules (seed 004)."""

    name = "beijing"
    #: Upstairs doubles a hand after a drawn one, or from the banker's third stay on (:func:`upstairs`).
    reads_hand_start = True

    def new_options(self) -> GameOptions:
        return GameOptions(OPTION_ENTRIES)

    def flowers(self, options: GameOptions) -> bool:
        return False

    def dead_wall(self, options: GameOptions) -> DeadWallPolicy:
        return DeadWallPolicy.NONE

    def wall_ends(self, tiles_left: int, kongs: int, options: GameOptions, *, loose: bool) -> bool:
        """The agreed tiles are kept from every draw, from the head or the tail (docs/rules-beijing.md)."""
        return tiles_left <= tiles_kept(options[opt.WALL_END], kongs)

    def course(self, options: GameOptions) -> Course:
        """No declarations after a win; the engine plays the (empty) flower turns; the indicator after the deal."""
        return Course(
            declares_hands=False,
            reveals_flowers=True,
            hides_concealed_kongs=False,
            original_call=False,
            chow_any_position=False,
            seven_pairs=True,
            show_on_washout=True,
            moves_after_claim=AfterClaim.DISCARD,
            wild_indicator=True,
        )

    def draw_seats(self, rng: GlibcRandom, players: Sequence[int]) -> list[int] | None:
        """The seed's ceremony (:func:`mj.rules.beijing.seating.draw_seats`)."""
        return draw_seats(rng, players)

    def wild_of(self, indicator: Tile) -> Tile | None:
        return wild_of(indicator)

    def legal_moves(self, view: SeatView) -> list[PMsg]:
        return moves.legal_moves(view, self)

    def move_names(self) -> MoveNames | None:
        """The seed's calls: Chow, Pung, Kong, Hu, and Pass for everyone who declines; a player calls for
        a discard ("a kong call", "a win takes precedence over kong, pung or chow calls")."""
        return MoveNames(
            pass_="Pass",
            draw=None,
            chow="Chow",
            pung="Pung",
            kong="Kong",
            win="Hu",
            claim_title="Call for the discard",
            claim_verb="calls",
        )

    def score_rule(self) -> str:
        """What each payer owes (docs/rules-beijing.md), which the figures give as doubles and amounts."""
        return (
            "Each payer owes the unit doubled once for each of its doubles, plus the points of rare events "
            "and kongs. The score is what the winner receives in all."
        )

    def exposing_spoils(self, view: SeatView, tile: Tile, pung: bool) -> bool:
        """Never: Beijing has no minimum to go out (an open set costs a double and wins on discards,
        which is the robot's strategy to weigh, not a rule)."""
        return False

    def forbids(self, move: PMsg, tile: Tile, hand: SeatHand, options: GameOptions) -> str:
        """No wild tile in an open set or a kong, even at face value; with AtMostOnce, one chow or pung a hand."""
        if not isinstance(move, _SET_MOVES) or hand.indicator is None:
            return ""
        wild = wild_of(hand.indicator)
        used: tuple[Tile, ...] = (tile,)
        if isinstance(move, P.Chow):
            partners = chow_partners(hand.concealed, tile, move.cpos)
            used = (tile, *partners) if partners is not None else used
        if wild in used:
            return "A wild tile may not be in an open set or a kong"
        once = isinstance(move, P.Chow | P.Pung) and options.flag(opt.AT_MOST_ONCE)
        if once and any(
            m.kind in (MeldKind.CHOW, MeldKind.PUNG) or m.kong_origin is KongOrigin.ANNEXED for m in hand.melds
        ):
            return "Only one chow or pung a hand at this table"
        return ""

    def may_rob(self, origin: KongOrigin, melds: Sequence[Meld], concealed: Sequence[Tile], tile: Tile) -> bool:
        """An added kong or a closed one (the Flush it must complete is :meth:`goes_out`'s); never a claimed one."""
        return origin is not KongOrigin.CLAIMED

    def is_mahjong(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        """Four sets and an eye, or seven pairs, every tile at face value (the wilds are :meth:`goes_out`'s)."""
        sets = sum(1 for m in melds if m.kind is not MeldKind.PAIR)
        return is_complete(counts(concealed), -1, sets)

    def goes_out(self, hand: SeatHand, win: Win, options: GameOptions) -> bool:
        """The wild-tile rules, the dead hand, NoWinAfterPass and the variations (:func:`.scoring.refusal`)."""
        if hand.indicator is None:
            return False
        wild = wild_of(hand.indicator)
        if dead_hand(wild, win.discards):
            return False
        sets = sum(1 for m in hand.melds if m.kind is not MeldKind.PAIR)
        if not is_complete(counts(hand.concealed), kind_index(wild), sets):
            return False  # the quick test first: most hands are not complete
        table = table_options(options)
        fed = win.source in (WinSource.DISCARD, WinSource.ROBBED_KONG)
        rule = table.flag(opt.NO_WIN_AFTER_PASS)
        if fed and not may_win_on_discard(rule and self._passed_a_win(hand, win, table), rule):
            return False
        if win.robbed is not None and not may_rob_kong(
            win.robbed is KongOrigin.CONCEALED,
            win.robbed is KongOrigin.CONCEALED and completes_flush(hand, wild, win.tile),
        ):
            return False
        return score(from_table(hand, win), table, hand.indicator).allowed

    @staticmethod
    def _passed_a_win(hand: SeatHand, win: Win, table: opt.BeijingOptions) -> bool:
        """Whether one of the tiles the seat let pass would have won on a discard with the same hand."""
        assert hand.indicator is not None
        before = list(hand.concealed)
        before.remove(win.tile)
        for tile in set(win.passed):
            if_taken = SeatHand(hand.melds, (*before, tile), (), hand.own_wind, hand.prevailing_wind, hand.indicator)
            facts = replace(win, tile=tile, source=WinSource.DISCARD, robbed=None)
            if score(from_table(if_taken, facts), table, hand.indicator).allowed:
                return True
        return False

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        """The winner's score: what it collects in all; the figures give each payer's amount (``owes:SEAT``)."""
        if win is None or hand.indicator is None:
            return HandScore(0, "")
        table = table_options(options)
        result = score(from_table(hand, win), table, hand.indicator, upstairs(win, table))
        return HandScore(result.total, result.text, _figures(result))

    def settle_wins(self, wins: Sequence[tuple[int, HandScore, Win]], options: GameOptions) -> Settlement:
        """The winner paid as :func:`mj.rules.beijing.payments.pay` says, and a busted banker's payments."""
        table = table_options(options)
        changes = [0, 0, 0, 0]
        payments: list[Payment] = []
        texts: list[str] = []
        for seat, result, win in wins:
            owed = tuple(
                PayerScore(SEAT_NAMES.index(name[len(OWES) :]), (), value)
                for name, value in result.figures
                if name.startswith(OWES)
            )
            discarder = win.feeder if HOW_OF[win.source].fed else None
            paid = pay(seat, discarder, BeijingScore(True, "", payers=owed), table.flag(opt.DISCARDER_PAYS_ALL))
            texts += [f"{SEAT_NAMES[seat]} wins {result.score}", paid.text]
            payments.extend(_payments_of(paid.changes, seat))
            parts = [paid.changes]
            opening = win.opening
            if table.flag(opt.BUSTED_BANKER) and len(opening) == 4 and len(set(opening)) == 1:
                busted = busted_banker(0, table[opt.BUSTED_POINTS])
                texts += ["Busted banker:", busted.text]
                payments.extend(Payment(0, s, table[opt.BUSTED_POINTS]) for s in (1, 2, 3))
                parts.append(busted.changes)
            for part in parts:
                for i in range(4):
                    changes[i] += part[i]
        east, south, west, north = changes
        return Settlement((east, south, west, north), "\n".join(texts) + "\n\n", tuple(payments))

    def dealer_rotates(self, winner: int | None, hands_as_east: int) -> bool:
        """The banker stays on a win or a draw; the deal passes on when another seat wins."""
        return winner is not None and winner != 0

    def game_ends(self, completed_rounds: int, rotates: bool, round_ends: bool, options: GameOptions) -> bool:
        """A game is four banker rotations: over when the deal comes back to the first banker."""
        return rotates and round_ends


def _figures(result: BeijingScore) -> tuple[tuple[str, int], ...]:
    figures: list[tuple[str, int]] = [("doubles", result.doubles)]
    figures.extend((f"double:{name}", n) for name, n in result.shared)
    figures.extend((f"rare:{name}", points) for name, points in result.rare)
    if result.kongs:
        figures.append(("kongs", result.kongs))
    figures.extend((f"{OWES}{SEAT_NAMES[p.payer]}", p.amount) for p in result.payers)
    figures.extend(payer_doubles(result))  # each payer's own doubles (for:SEAT:NAME), for the clients to show
    return tuple(figures)


def _payments_of(changes: tuple[int, int, int, int], winner: int) -> list[Payment]:
    """The payments to ``winner`` behind a winner's ``changes`` (each loser's loss)."""
    return [Payment(payer, winner, -changes[payer]) for payer in range(4) if payer != winner and changes[payer] < 0]


BEIJING = BeijingRules()
