"""What the game engine, the robots and the browser gateway ask of a rule system.

The engine (:mod:`mj.game.engine`) keeps the mechanics every system shares: turns,
the claim window and its timing, the history and each seat's share of the news.
Everything a system decides sits behind this interface, so that IMS and Beijing
plug in beside Chinese Classical (:mod:`mj.rules.classical.rules`) instead of
into the engine, and are found by name in :mod:`mj.rules.registry`:

* the game options: :meth:`Ruleset.new_options` (their names, types and defaults);
* the tiles and the wall: :meth:`Ruleset.flowers` (does the wall hold flowers and
  seasons), :meth:`Ruleset.deal_order` (who gets each tile of the deal),
  :meth:`Ruleset.dead_wall` (how loose tiles are provided, hence where the live wall
  ends), :meth:`Ruleset.wall_ends` (a hand drawn before the wall is empty);
* the course of play: :meth:`Ruleset.legal_moves`, the one answer to "what may this
  seat do now", which the engine checks moves against, the robot chooses among
  and the browser gateway offers as buttons; :meth:`Ruleset.resolve_claims`, the
  precedence among simultaneous claims (possibly several winners); :meth:`Ruleset.move_names`,
  how a client names those moves on its buttons;
* how a hand runs beyond its moves: :meth:`Ruleset.course` (a :class:`~mj.rules.base.Course`:
  declaration phase or not, flowers revealed by the engine, hidden concealed kongs, a wild
  indicator turned up...), :meth:`Ruleset.wild_of` (the wild tile an indicator names),
  :meth:`Ruleset.forbids` (the system's own limits on making a set, which the engine checks
  and the legal moves leave out), :meth:`Ruleset.draw_seats` (a seating ceremony of its own);
* going out: :meth:`Ruleset.is_mahjong`, :meth:`Ruleset.goes_out` (with the facts of the
  win, for a system with a minimum score), :meth:`Ruleset.may_rob` and :meth:`Ruleset.can_finish`;
* the result: :meth:`Ruleset.score` (a :class:`~mj.rules.base.HandScore` with its
  explanation) and :meth:`Ruleset.settle` (a :class:`~mj.rules.base.Settlement`
  with each payment; :meth:`Ruleset.settle_wins` for a system without a declaration
  phase, possibly with several winners), and liability for dangerous discards (:meth:`Ruleset.exposure`,
  :meth:`Ruleset.danger`, :meth:`Ruleset.achieved`);
* the game's course: :meth:`Ruleset.dealer_rotates` and :meth:`Ruleset.game_ends`, and whether a
  hand's result depends on the hand before (:attr:`Ruleset.reads_hand_start`), which a save must then keep.

Every signature uses only neutral types (:mod:`mj.rules.base`, options, tiles,
sets, protocol messages): a rule system's own types stay inside its package.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Protocol

from mj.melds import KongOrigin, Meld
from mj.protocol.pmsg import PMsg
from mj.rules.base import Claim, Course, DeadWallPolicy, HandScore, SeatHand, Settlement, Win
from mj.rules.naming import MoveNames
from mj.rules.options import GameOptions
from mj.tiles import GlibcRandom, Tile

if TYPE_CHECKING:  # the seat view reads its rule system, which reads views: a cycle for annotations only
    from mj.seatview import SeatView


class Ruleset(Protocol):
    """A rule system: see the module documentation for what each hook decides."""

    name: str
    #: Whether a hook given a :class:`~mj.rules.base.Win` reads what the hand began after (its ``after_draw``
    #: and ``banker_hands``): a save of these rules must then say it, or a loaded hand would be scored as
    #: after a won hand with a new banker (:mod:`mj.savefile`). Only a system the original cannot play
    #: may (:func:`~mj.rules.classical.rules.needs_extension`): a classical save has no room for it.
    reads_hand_start: bool

    def new_options(self) -> GameOptions:
        """A new game's options: this system's names, types, texts and defaults."""
        ...

    def flowers(self, options: GameOptions) -> bool:
        """Whether the wall holds flowers and seasons (144 tiles) or not (136)."""
        ...

    def deal_order(self) -> Sequence[int]:
        """The seat (0 = East) that receives each tile of the deal, in order."""
        ...

    def dead_wall(self, options: GameOptions) -> DeadWallPolicy:
        """How loose tiles are provided: the engine builds the wall and each seat view counts it by this."""
        ...

    def wall_ends(self, tiles_left: int, kongs: int, options: GameOptions, *, loose: bool) -> bool:
        """Before a draw: whether the hand ends drawn with ``tiles_left`` tiles undrawn (live and dead),
        ``kongs`` kongs having been made this hand; ``loose``: the draw is a replacement (for a flower
        or a kong), which a rule system may give from tiles an ordinary draw may not reach (IMS).

        Without this, a hand ends drawn when the wall has no tile to give (:meth:`dead_wall` shapes that).
        A hand drawn with ``tiles_left`` tiles is drawn with fewer too (:func:`tiles_to_draw` relies on it).
        """
        ...

    def legal_moves(self, view: SeatView) -> list[PMsg]:
        """Every move the seat whose view this is may make now (empty: it has nothing to do).

        Claims are listed whether or not the seat has already answered the tile, and
        ``Ready`` only while a server pause waits for this seat.
        """
        ...

    def forbids(self, move: PMsg, tile: Tile, hand: SeatHand, options: GameOptions) -> str:
        """Why this system forbids the set ``move`` would make with ``tile`` (a claim of the discard ``tile``,
        ``DeclareClosedKong`` or ``AddToPung`` of it) for a seat holding ``hand``; "" when it does not.

        The engine asks this after its own checks, and :meth:`legal_moves` leaves such moves out.
        """
        ...

    def wild_of(self, indicator: Tile) -> Tile | None:
        """The wild tile that ``indicator`` names (:attr:`Course.wild_indicator`); None without wilds."""
        ...

    def draw_seats(self, rng: GlibcRandom, players: Sequence[int]) -> list[int] | None:
        """Seats E, S, W, N drawn by this system's own ceremony from the ``players`` in joining order,
        with the table's seeded generator; None: the table seats them its usual way."""
        ...

    def move_names(self) -> MoveNames | None:
        """How a client names this system's moves on its buttons ((a view, one of its legal moves) -> the
        name), the dialog answering a discard and the log's verb for a claim (:class:`MoveNames`);
        None for the dialogs of the original ``xmj``, which its manual describes move by move."""
        ...

    def score_rule(self) -> str:
        """How a winner's figures (``ScoreFigure``) make the score and the payments, in a few words for a
        client's scoring window, which shows the figures without the rules; "" where the hand's score text
        says it all (the original's)."""
        ...

    def exposing_spoils(self, view: SeatView, tile: Tile, pung: bool) -> bool:
        """A hint for robots: whether exposing a set with the discard ``tile`` (a pung, else a chow) may
        leave this seat's hand short of the minimum it needs to go out."""
        ...

    def resolve_claims(self, discarder: int, claims: Sequence[Claim], options: GameOptions) -> tuple[int, ...]:
        """The seats whose claims succeed, given every seat's claim (``NO_CLAIM`` for none) on ``discarder``'s tile."""
        ...

    def course(self, options: GameOptions) -> Course:
        """How a hand runs beyond its moves (asked once per hand)."""
        ...

    def goes_out(self, hand: SeatHand, win: Win, options: GameOptions) -> bool:
        """Whether ``hand`` (the winning tile among its concealed tiles) may go out as ``win`` says."""
        ...

    def may_rob(self, origin: KongOrigin, melds: Sequence[Meld], concealed: Sequence[Tile], tile: Tile) -> bool:
        """Whether a kong being made (``origin``) with ``tile`` may be robbed by a player holding these."""
        ...

    def settle_wins(self, wins: Sequence[tuple[int, HandScore, Win]], options: GameOptions) -> Settlement:
        """Without a declaration phase: who pays whom for these winners (seat, score, win), by seat."""
        ...

    def is_mahjong(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        """Whether declared ``melds`` plus ``concealed`` (all 14 tiles' worth) can go out."""
        ...

    def can_finish(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        """Whether a winner who has declared ``melds`` can still arrange ``concealed`` into a complete hand."""
        ...

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        """A hand's score and its explanation; ``win`` is None for a loser's hand."""
        ...

    def settle(
        self, scores: Sequence[int], winner: int, discarder: int | None, cannoneer: int | None, options: GameOptions
    ) -> Settlement:
        """Who pays whom, by seat, given the four hand scores."""
        ...

    def exposure(self, melds: Sequence[Meld]) -> frozenset[Hashable]:
        """What a player's exposed sets show the table (what makes some discards dangerous to them)."""
        ...

    def danger(
        self, tile: Tile, shown: frozenset[Hashable], live_tiles: int, copies_discarded: int
    ) -> frozenset[Hashable]:
        """Why discarding ``tile`` to a player who shows ``shown`` is dangerous (empty: it is not)."""
        ...

    def achieved(self, hand: SeatHand) -> frozenset[Hashable]:
        """What the winner's final hand achieved, to match against a discarder's dangers."""
        ...

    def dealer_rotates(self, winner: int | None, hands_as_east: int) -> bool:
        """After a hand won by seat ``winner`` (None: drawn), whether the deal passes to the next seat.

        ``hands_as_east`` counts the hands the dealer has won in a row, this one included.
        """
        ...

    def game_ends(self, completed_rounds: int, rotates: bool, round_ends: bool, options: GameOptions) -> bool:
        """After a settled hand: whether the game is over.

        ``completed_rounds`` rounds were complete before this hand, ``rotates`` says
        whether the deal passes on, and ``round_ends`` whether that completes a round.
        """
        ...


def tiles_to_draw(
    rules: Ruleset, live_left: int, tiles_left: int, kongs: int, options: GameOptions, guess: int = 0
) -> int:
    """The draws the live wall still gives before the hand is drawn, if no more kongs are made.

    ``live_left`` tiles are in the live wall and ``tiles_left`` undrawn in all (live and
    dead). The engine asks :meth:`Ruleset.wall_ends` before every draw; this asks it of the
    draws to come, from the last back, so that a seat view counts the same end of the
    wall (Beijing's agreed tiles, IMS's last fourteen) rather than the wall's physical end.

    Since a hand drawn with some tiles left is drawn with fewer, the draws refused are the
    last few: their number is found by doubling a step and halving it back, a handful of
    questions rather than one per tile refused (every seat view asks this after a draw).
    ``guess`` is a number of draws refused to try first (the last answer: it changes only
    with a kong, or near the end), settled by two questions when right.
    """
    if live_left <= 0:
        return live_left
    last = tiles_left - live_left + 1  # tiles undrawn at the last draw the live wall could give
    # The draw with `last + r` tiles undrawn is refused for r < R and given from R on (R: the draws refused);
    # it is known to be refused at `last + known`.
    known = 0
    if 0 < guess < live_left and rules.wall_ends(last + guess - 1, kongs, options, loose=False):
        if not rules.wall_ends(last + guess, kongs, options, loose=False):
            return live_left - guess
        known = guess
    elif not rules.wall_ends(last, kongs, options, loose=False):
        return live_left
    step = 1
    while known + step < live_left and rules.wall_ends(last + known + step, kongs, options, loose=False):
        known += step
        step *= 2
    bound = min(known + step, live_left)
    while bound - known > 1:
        middle = (known + bound) // 2
        if rules.wall_ends(last + middle, kongs, options, loose=False):
            known = middle
        else:
            bound = middle
    return live_left - bound


class DrawsLeft:
    """:func:`tiles_to_draw` of one table as its wall goes down, asking the rule system only when it may differ.

    The last draw the live wall could give is made with the dead tiles and one more
    undrawn, so the draws refused from the end depend on the dead tiles and the kongs
    made, not on the live tiles but as a cap: with ``R`` refused of a live wall longer
    than ``R``, any live wall of the same dead tiles and kongs gives ``live - R`` (or
    none). A table's views and the simulation's check ask after every move; the wall
    changes at a draw, and ``R`` at a kong.
    """

    def __init__(self) -> None:
        self._dead = -1
        self._kongs = -1
        #: The draws refused at the dead tiles and kongs above, exactly when ``_exact``, else at least.
        self._refused = 0
        self._exact = False

    def forget(self) -> None:
        """The rules or the options changed: the next count asks them again."""
        self._dead = -1

    def count(self, rules: Ruleset, live_left: int, tiles_left: int, kongs: int, options: GameOptions) -> int:
        """:func:`tiles_to_draw` of these figures, under the rules and options of the counts before."""
        dead = tiles_left - live_left
        refused = self._refused
        if dead == self._dead and kongs == self._kongs and (self._exact or live_left <= refused):
            return max(0, live_left - refused)
        found = tiles_to_draw(rules, live_left, tiles_left, kongs, options, refused)
        self._dead = dead
        self._kongs = kongs
        self._refused = live_left - found
        self._exact = found > 0
        return found
