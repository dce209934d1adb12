"""A robot seat without I/O: controller messages in, the player messages to answer out.

:class:`Robot` joins a :class:`~mj.seatview.SeatView` to a
:class:`~mj.robot.strategy.Strategy` and carries the obligations of the protocol
(protocol.md §14.2) that no strategy should have to think about:

* ``Ready`` for every pause it is not exempt from (held back until ``StartPlay``
  while the game is inactive, since the server refuses it then); acknowledging
  options the server orders (``PlayerOptionSet`` with ack 0, e.g. LocalTimeouts);
* exactly one answer (a claim or ``NoClaim``) to every discard of another player
  and to every kong that might be robbed, with that tile's serial (given again at
  ``StartPlay`` if the server refused it because play had stopped meanwhile);
* declaring specials in its declaring turn, then ``DeclareSpecial --``;
* only moves its rule system allows now (:meth:`~mj.seatview.SeatView.legal_moves`):
  what the strategy prefers is checked against them, and the fallbacks come from them;
* no own move while a pause the server opened awaits readies (as the original
  robot, protocol.md §14.1): the server takes declarations and shown hands then,
  but the end of the pause is a new decision point, so a move made during it was
  made again there, before the server's answer to it came (after a resume, whose
  pause "to continue play" falls in the flowers' declarations or the losers');
* in its turn during play: specials, mah-jong, kongs, then one discard;
* after a mah-jong: the winner declares the claimed tile first, then the
  concealed sets; a loser waits for the winner's score, forms what scores and
  shows the rest.

It acts at most once per *decision point* (a snapshot of everything that bears
on its own move), so repeated or irrelevant messages never make it send twice.
When the server refuses a move (:meth:`Robot.refused`), it takes the next choice
at the same decision point (another discard, no kong, another reading of the
hand...) or withdraws a refused claim with ``NoClaim``, so that a surprise costs
one error line and never a stuck game.

The socket client (:mod:`mj.robot.client`) and the in-process arena both drive
this class; it holds no clock and no randomness of its own.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Final

from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition, PlayerOption
from mj.robot.strategy import Claim, ClaimKind, Declaration, KongKind, Step, Strategy
from mj.seatview import Phase, SeatView
from mj.tiles import BLANK, Tile

#: The refusal of a move made while the server waits for players to be ready (§18).
NOT_READY = "Can't discard until everybody's ready"


@dataclass(slots=True, init=False)
class _Sent:
    """A message the robot produced and why, to make sense of an ``Error`` about it."""

    msg: P.PMsg
    #: "claim" (answer to a discard or kong, ``point`` = serial), "act" (own move at
    #: decision point ``point``) or "other".
    context: str
    point: Hashable

    # Written out, not generated: see mj.compiled on value classes built per message.
    def __init__(self, msg: P.PMsg, context: str, point: Hashable) -> None:
        self.msg = msg
        self.context = context
        self.point = point


#: The messages :meth:`Robot._reply` may answer.
_REPLIED: Final = frozenset((C.Pause, C.PlayerOptionSet, C.StartPlay, C.ClaimDenied, C.PlayerChows))


def declaration_message(step: Declaration) -> P.PMsg:
    """The protocol message of one declaration step (serials are 0, as the original sends)."""
    match step.step:
        case Step.USE_PUNG:
            return P.Pung(0)
        case Step.USE_CHOW:
            return P.Chow(0, step.position or ChowPosition.ANYPOS)
        case Step.USE_PAIR:
            return P.Pair()
        case Step.USE_SPECIAL:
            return P.SpecialSet()
        case Step.PUNG:
            return P.FormClosedPung(step.tile)
        case Step.CHOW:
            return P.FormClosedChow(step.tile)
        case Step.PAIR:
            return P.FormClosedPair(step.tile)
        case Step.SPECIAL:
            return P.FormClosedSpecialSet()
        case Step.SHOW:
            return P.ShowTiles()


def claim_message(claim: Claim | None, serial: int) -> P.PMsg:
    if claim is None:
        return P.NoClaim(serial)
    match claim.kind:
        case ClaimKind.MAHJONG:
            return P.MahJong(serial)
        case ClaimKind.KONG:
            return P.Kong(serial)
        case ClaimKind.PUNG:
            return P.Pung(serial)
        case ClaimKind.CHOW:
            return P.Chow(serial, claim.position or ChowPosition.ANYPOS)


def _discard_move(legal: list[P.PMsg], tile: Tile, calling: bool) -> P.PMsg:
    """The legal move discarding ``tile`` (the very object, which is quick to find again), or a new one if none."""
    for move in legal:
        if type(move) is P.Discard and move.tile == tile and move.calling == calling:
            return move
    return P.Discard(tile, calling)


class Robot:
    """One robot seat: feed it every controller message with :meth:`receive`, send what it returns."""

    def __init__(self, strategy: Strategy, view: SeatView | None = None, log: Callable[[str], None] | None = None):
        self.view = view if view is not None else SeatView()
        self.strategy = strategy
        self._log = log or (lambda _text: None)
        #: (hand number, serial) of the discards and kongs already answered.
        self._answered: set[tuple[int, int]] = set()
        self._acted_at: Hashable | None = None
        self._refused: set[P.PMsg] = set()
        self._refused_at: Hashable | None = None
        self._recent: deque[_Sent] = deque(maxlen=64)
        self._owe_ready = False
        #: Readies seen when a move was refused for a pause; retried after more.
        self._readies_awaited: int | None = None
        #: (keyword of the move, seconds spent deciding it) for every move decided.
        self.decisions: list[tuple[str, float]] = []
        #: Every refusal reported by :meth:`refused`: the message and the server's text.
        self.refusals: list[tuple[P.PMsg, str]] = []

    # -- input

    def receive(self, msg: C.CMsg) -> list[P.PMsg]:
        """Take one controller message into account and return the messages to send, in order."""
        kind = type(msg)
        if not self.view.apply(msg) and kind is not C.PlayerOptionSet:
            # Others' NoClaims and the like change nothing in the view: every answer
            # owed at this view was given when it last changed.
            return []
        out = self._reply(msg) if kind in _REPLIED else []
        answers = self._answer_pending()
        acts = self._act()
        if not answers and not acts:
            return out  # most messages: no new list to make
        return out + answers + acts

    def _reply(self, msg: C.CMsg) -> list[P.PMsg]:
        """What the protocol owes for ``msg`` itself, whatever the strategy (before any move)."""
        view = self.view
        out: list[P.PMsg] = []
        if isinstance(msg, C.Pause) and msg.exempt != view.my_id:
            # While the game is inactive (a rejoin's history replays old pauses) a Ready
            # would only earn "Game not active": it is owed until StartPlay instead.
            if view.active:
                out.append(self._note(P.Ready(), "other", None))
            else:
                self._owe_ready = True
        elif isinstance(msg, C.PlayerOptionSet) and not msg.ack and msg.option is not PlayerOption.UNKNOWN:
            # The server orders a change (LocalTimeouts switched off...): acknowledge it (§7.13).
            out.append(self._note(P.SetPlayerOption(msg.option, True, msg.value, msg.text), "other", None))
        elif isinstance(msg, C.StartPlay):
            self._acted_at = None  # play (re)starts: look at the situation afresh
            if self._owe_ready and view.paused and view.my_id not in view.ready:
                out.append(self._note(P.Ready(), "other", None))
            self._owe_ready = False
        elif isinstance(msg, C.ClaimDenied):
            self._log(f"claim denied: {msg.reason}")
        elif isinstance(msg, C.PlayerChows) and msg.id == view.my_id and msg.cpos is ChowPosition.ANYPOS:
            out.append(self._chow_position(msg.tile))
        return out

    def refused(self, msg: P.PMsg, reason: str) -> list[P.PMsg]:
        """The server answered ``msg`` with ``Error``: what to send instead (maybe nothing)."""
        self.refusals.append((msg, reason))
        sent = next((s for s in reversed(self._recent) if s.msg == msg), None)
        self._log(f"server refused {msg.encode()!r}: {reason}")
        if sent is None:
            return []
        pending = self.view.pending
        if sent.context == "claim":
            if not self.view.active:
                # Play stopped before the server read the answer ("Game not active"): it took
                # nothing, and with no claim timer the window stays open until every seat
                # answers, so the answer is owed again when play restarts (as the original's).
                self._answered.discard((self.view.hand_no, sent.point))
                return []
            if not isinstance(msg, P.NoClaim) and pending is not None and pending.serial == sent.point:
                return [self._note(P.NoClaim(pending.serial), "claim", pending.serial)]
            return []
        if sent.context == "act" and sent.point == self._point():
            self._acted_at = None
            if reason == NOT_READY:
                # A pause the robot did not take for one (a player's RequestPause on a
                # server that really pauses): the same move is made again once more
                # players are ready.
                self._readies_awaited = self.view.readies_seen
                return []
            self._refused.add(msg)
            return self._act()
        return []

    # -- answers to other players' tiles

    def _answer_pending(self) -> list[P.PMsg]:
        view = self.view
        pending = view.pending
        if pending is None or pending.who == view.my_id or not view.active or view.game_over:
            return []
        key = (view.hand_no, pending.serial)
        if key in self._answered:
            return []
        self._answered.add(key)
        started = time.perf_counter()
        if pending.kong is None:
            claim = self.strategy.claim(view, pending.tile, pending.serial)
            msg = claim_message(claim, pending.serial)
            if claim is not None and not view.allows(msg):
                self._log(f"strategy chose an impossible claim {claim}; passing instead")
                msg = P.NoClaim(pending.serial)
        else:
            robbing = self.strategy.rob_kong(view, pending.tile, pending.serial)
            msg = P.MahJong(pending.serial) if robbing else P.NoClaim(pending.serial)
            if robbing and not view.allows(msg):
                self._log("strategy chose to rob a kong it cannot rob; passing instead")
                msg = P.NoClaim(pending.serial)
        self.decisions.append((msg.keyword, time.perf_counter() - started))
        return [self._note(msg, "claim", pending.serial)]

    def _chow_position(self, tile: Tile) -> P.PMsg:
        """The server granted a chow claimed "AnyPos" and asks which chow (§7.8, §14.2 item 8)."""
        view = self.view
        position: ChowPosition | None = None
        serial = 0
        if view.phase is Phase.MAHJONGING:
            plans = self.strategy.winning_plans(view)
            steps = [p[0] for p in plans if p and p[0].step is Step.USE_CHOW]
            position = steps[0].position if steps else None
        elif view.last_discard is not None:
            serial = view.last_discard.serial
            claim = self.strategy.claim(view, tile, serial)
            position = claim.position if claim is not None and claim.kind is ClaimKind.CHOW else None
        possible = [m.cpos for m in view.legal_moves() if isinstance(m, P.Chow) and m.cpos is not ChowPosition.ANYPOS]
        if position not in possible and possible:
            position = possible[0]
        return self._note(P.Chow(serial, position or ChowPosition.LOWER), "other", None)

    # -- own moves

    def _point(self) -> Hashable:
        """Everything that bears on this seat's own next move."""
        v = self.view
        return (
            v.hand_no,
            v.phase,
            v.declarer,
            v.turn,
            tuple(v.concealed),
            len(v.melds),
            v.pending,
            v.paused,
            v.active,
            v.winner_pending,
            v.winner_scored,
            v.game_over,
        )

    def _act(self) -> list[P.PMsg]:
        view = self.view
        if view.phase is Phase.DEALING or (view.phase is Phase.PLAYING and view.turn != view.my_id):
            # Nobody moves during the deal, nor this seat in another's turn (most
            # messages come then): no move, and as no decision point of these can
            # recur once this seat may move, there is none to remember.
            self._acted_at = self._refused_at = self._readies_awaited = None
            if self._refused:
                self._refused = set()
            return []
        point = self._point()
        if point != self._refused_at:
            self._refused = set()
            self._refused_at = point
            self._readies_awaited = None
        if point == self._acted_at:
            return []
        if self._readies_awaited is not None:
            if self.view.readies_seen == self._readies_awaited:
                return []
            self._readies_awaited = None
        self._acted_at = point
        started = time.perf_counter()
        choice = next((m for m in self._choices() if m not in self._refused and view.allows(m)), None)
        if choice is None:
            return []
        self.decisions.append((choice.keyword, time.perf_counter() - started))
        return [self._note(choice, "act", point)]

    def _choices(self) -> Iterator[P.PMsg]:
        """This seat's possible moves now, preferred first (later ones are fallbacks)."""
        view = self.view
        if not view.active or view.paused or view.game_over or view.my_id == 0 or view.my_seat < 0:
            return
        if view.phase is Phase.DECLARING:
            yield from self._declaring()
        elif view.phase is Phase.PLAYING:
            yield from self._playing()
        elif view.phase is Phase.MAHJONGING:
            if view.winner == view.my_id:
                yield from self._winning()
            else:
                yield from self._losing()

    def _declaring(self) -> Iterator[P.PMsg]:
        view = self.view
        if view.declarer != view.my_seat or view.pending is not None:
            return
        if view.tiles_held != (14 if view.my_seat == 0 else 13):
            return  # a replacement tile is on its way
        special = self.strategy.declare_special(view)
        if special is not None:
            yield P.DeclareSpecial(special)
        yield P.DeclareSpecial(BLANK)

    def _playing(self) -> Iterator[P.PMsg]:
        view = self.view
        if view.turn != view.my_id or view.pending is not None or view.tiles_held != 14:
            return
        special = self.strategy.declare_special(view)
        if special is not None:
            yield P.DeclareSpecial(special)
        if self.strategy.mahjong_now(view):
            yield P.MahJong(0)
        kong = self.strategy.kong(view)
        if kong is not None:
            yield P.DeclareClosedKong(kong.tile) if kong.kind is KongKind.CLOSED else P.AddToPung(kong.tile)
        tile, calling = self.strategy.discard(view)
        yield _discard_move(view.legal_moves(), tile, calling)
        # Fallbacks should the server refuse that discard: the newest tiles first.
        for other in reversed(view.concealed):
            yield P.Discard(other, False)

    def _winning(self) -> Iterator[P.PMsg]:
        view = self.view
        if not view.legal_moves():
            return
        plans = self.strategy.winning_plans(view)
        if not plans:
            self._log(f"no way to declare the winning hand {view.concealed} + {view.winner_pending}")
        for plan in plans:
            if plan:
                yield declaration_message(plan[0])

    def _losing(self) -> Iterator[P.PMsg]:
        view = self.view
        me = view.me
        if not view.winner_scored or me.shown is not None or me.hand_score is not None or not view.concealed:
            return
        plan = self.strategy.losing_plan(view)
        if plan:
            yield declaration_message(plan[0])
        yield P.ShowTiles()

    def _note(self, msg: P.PMsg, context: str, point: Hashable) -> P.PMsg:
        self._recent.append(_Sent(msg, context, point))
        return msg
