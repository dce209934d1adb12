"""What a person's client shows beyond the seat's view: texts, chat, announcements, answered claims.

:class:`~mj.seatview.SeatView` keeps what a robot needs to decide. A person also
reads the server's scoring texts and settlement (the manual's Scoring window),
chats, sees "Pung!" appear over a claimer, is told why a claim failed or the game
stopped, and must not be asked twice about a discard already answered. This log is
fed the same controller messages as the view, right after it, and never decides
anything.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from mj.narrate import Narrator
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.seatview import Phase, SeatView
from mj.tiles import BLANK, Tile, code

#: Chat lines and notices kept for a browser that (re)loads the page.
KEPT_LINES: Final = 200
#: Put around each tile's code in a text for the page (a move-log line, a dialog's text) while it is built, so
#: that the text can be cut at its tiles: the page names them in words (a control character no name may keep).
_TILE_MARK: Final = "\x1f"

_Claim = C.PlayerClaimsChow | C.PlayerClaimsPung | C.PlayerClaimsKong | C.PlayerClaimsMahJong

_CLAIM_WORDS: Final[dict[type[C.CMsg], str]] = {
    C.PlayerClaimsChow: "Chow!",
    C.PlayerClaimsPung: "Pung!",
    C.PlayerClaimsKong: "Kong!",
    C.PlayerClaimsMahJong: "Mah Jong!",
}


@dataclass(slots=True)
class Scoring:
    """The Scoring window of one hand: each player's HandScore text, then the Settlement."""

    hand: int
    #: HandScore by player id: (score, explanation).
    hands: dict[int, tuple[int, str]] = field(default_factory=dict)
    #: Net change by player id, once settled.
    changes: dict[int, int] = field(default_factory=dict)
    settlement: str = ""
    #: A rule system's figures behind each HandScore (IMS: fan, bonus, each element), by player id.
    figures: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    #: Each payment (payer, payee, amount) where the rules settle payment by payment.
    payments: list[tuple[int, int, int]] = field(default_factory=list)
    #: (player, tile) of each concealed kong kept hidden until the hand ended.
    revealed: list[tuple[int, Tile]] = field(default_factory=list)
    #: The player ids by seat (East first) in the hand settled, which figures may name by seat.
    seats: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ChatLine:
    sender: int
    name: str
    text: str
    private: bool
    #: Counts the chat lines from 1, so that a snapshot can carry only the lines a browser has not seen.
    number: int = 0


@dataclass(frozen=True, slots=True)
class Announcement:
    """A claim or declaration shown over its player for a moment ("Pung!"), made in ``hand``: the page
    takes it off the table when another hand begins, however soon."""

    hand: int
    player: int
    text: str


@dataclass(frozen=True, slots=True)
class LogLine:
    """A line of the Messages window's record: kind "move" (who drew, claimed, discarded, won, what timed
    out), "notice" or "chat"; numbered from 1, as chat lines are, so that snapshots carry only new lines."""

    number: int
    kind: str
    text: str
    #: A move line that names tiles, cut at them: text and tile codes in turn (text first), joined they
    #: are ``text``; empty when it names none.
    parts: tuple[str, ...] = ()


class SeatLog:
    """Texts and bookkeeping for the person's browser; :meth:`apply` after ``view.apply``."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.chat: deque[ChatLine] = deque(maxlen=KEPT_LINES)
        self.notices: deque[str] = deque(maxlen=KEPT_LINES)
        #: The last hand scored (kept until the next hand is scored, as xmj keeps its window).
        self.scoring: Scoring | None = None
        #: (hand, serial) of discards and kongs this seat has answered (claim or pass).
        self.answered: set[tuple[int, int]] = set()
        self.manager = 0
        self.start_wall = 0
        self.start_stack = 0
        #: Tiles drawn this hand from the front of the wall (the deal included) and loose from its end.
        self.live_drawn = 0
        self.loose_drawn = 0
        #: (player, index in their discards) of the latest discard, highlighted while it lies there.
        self.last_discard_at: tuple[int, int] | None = None
        self.pause_reason = ""
        self.washout: str | None = None
        #: When the open claim window was seen (monotonic seconds), for the progress bar.
        self.claim_opened = 0.0
        #: Announcements made by the messages applied since the last :meth:`drain`.
        self._announced: list[Announcement] = []
        #: The Messages window's record, oldest first.
        self.moves: deque[LogLine] = deque(maxlen=KEPT_LINES)
        #: Where the server writes saved games, when this gateway knows it (its own local games).
        self.save_folder: str | None = None
        self._narrator = Narrator({}, marked)
        #: The deal is under way: its draws (some fifty, a tile at a time) make one line, at its end.
        self._dealing = False

    def drain(self) -> list[Announcement]:
        """The claims and declarations to show over their players, once each."""
        out, self._announced = self._announced, []
        return out

    def _announce(self, pid: int, text: str) -> None:
        self._announced.append(Announcement(self.view.hand_no, pid, text))

    def mark_answered(self, serial: int) -> None:
        self.answered.add((self.view.hand_no, serial))

    def answered_pending(self) -> bool:
        pending = self.view.pending
        return pending is not None and (self.view.hand_no, pending.serial) in self.answered

    def name(self, pid: int) -> str:
        if pid == 0:
            return "server"
        player = self.view.players.get(pid)
        return player.name if player is not None and player.name else f"player {pid}"

    def apply(self, msg: C.CMsg) -> None:
        self._record(msg)
        view = self.view
        me = view.my_id
        match msg:
            case C.Game(manager=manager):
                self.manager = manager
            case C.ChangeManager(manager=manager):
                self.manager = manager
            case C.NewHand(start_wall=wall, start_stack=stack):
                self.start_wall, self.start_stack = wall, stack
                self.live_drawn = 0
                self.loose_drawn = 0
                self.last_discard_at = None
                self.washout = None
            case C.PlayerDraws() | C.WildIndicator():  # the indicator comes off the head of the wall
                self.live_drawn += 1
            case C.PlayerDrawsLoose():
                self.loose_drawn += 1
            case C.Pause(reason=reason, requestor=requestor):
                self.pause_reason = reason
                if requestor:
                    self._notice(f"{self.name(requestor)} asks for a pause {reason}")
            case C.PlayerDiscards(id=pid, calling=calling):
                self.claim_opened = time.monotonic()
                self.last_discard_at = (pid, len(view.player(pid).discards) - 1)
                if calling:
                    self._announce(pid, "Calling!")
            case C.PlayerDeclaresClosedKong(id=pid) | C.PlayerAddsToPung(id=pid):
                self.claim_opened = time.monotonic()
                names = view.rules.move_names()
                self._announce(pid, "Kong!" if names is None else f"{names(view, P.Kong(0))}!")
            case C.PlayerDoesntClaim(id=pid, discard=serial) if pid == me:
                self.mark_answered(serial)
            case C.PlayerClaimsChow() | C.PlayerClaimsPung() | C.PlayerClaimsKong() | C.PlayerClaimsMahJong():
                if msg.id == me:
                    self.mark_answered(msg.discard)
                self._announce(msg.id, self._claim_word(msg))
            case C.PlayerMahJongs(id=pid, tile=tile) if tile != BLANK:
                self._announce(pid, self.mahjong_word())
            case C.PlayerRobsKong(id=pid):
                self._announce(pid, "Robbed!")
            case C.ClaimDenied(reason=reason):
                self._notice(f"Claim denied: {reason}")
            case C.HandScore(id=pid, score=score, explanation=text):
                if self.scoring is None or self.scoring.hand != view.hand_no:
                    self.scoring = Scoring(view.hand_no)
                self.scoring.hands[pid] = (score, text)
            case C.Settlement(explanation=text):
                if self.scoring is None or self.scoring.hand != view.hand_no:
                    self.scoring = Scoring(view.hand_no)
                changes = (msg.east, msg.south, msg.west, msg.north)
                self.scoring.changes = dict(zip(view.seats, changes, strict=False))
                self.scoring.settlement = text
                self.scoring.figures = {pid: list(f) for pid, f in view.score_figures.items()}
                self.scoring.payments = list(view.payments)
                self.scoring.revealed = list(view.revealed_kongs)
                self.scoring.seats = list(view.seats)
            case C.WashOut(reason=reason):
                self.washout = reason
                self._notice(f"Wash-out: {reason}")
            case C.StopPlay(reason=reason):
                self._notice(reason)
            case C.StateSaved(filename=filename):
                where = f" in {self.save_folder}" if self.save_folder and "/" not in filename else ""
                self._notice(f"Game saved as {filename}{where}")
            case C.Message(sender=sender, addressee=addressee, text=text):
                number = self.chat[-1].number + 1 if self.chat else 1
                self.chat.append(ChatLine(sender, self.name(sender), text, addressee != 0, number))
                self._log("chat", f"{self.name(sender)}{' (to you)' if addressee else ''}: {text}")
            case C.GameOver():
                self._notice("The game is over")
            case _:
                pass

    def mahjong_word(self) -> str:
        """What going out is called over the winner: the manual's "Mah Jong!" or the rule system's name."""
        names = self.view.rules.move_names()
        return "Mah Jong!" if names is None else f"{names(self.view, P.MahJong(0))}!"

    def _claim_word(
        self, msg: C.PlayerClaimsChow | C.PlayerClaimsPung | C.PlayerClaimsKong | C.PlayerClaimsMahJong
    ) -> str:
        """What a claim is called over the claimer: the manual's "Pung!", or the rule system's name of the bid."""
        names = self.view.rules.move_names()
        if names is None:
            return _CLAIM_WORDS[type(msg)]
        return f"{names(self.view, _bid(msg))}!"

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        self._log("notice", text)

    def _log(self, kind: str, text: str, parts: tuple[str, ...] = ()) -> None:
        number = self.moves[-1].number + 1 if self.moves else 1
        self.moves.append(LogLine(number, kind, text, parts))

    def _record(self, msg: C.CMsg) -> None:
        """One line of the move log for ``msg`` (after the view has taken it in), if it is a move."""
        narrator = self._narrator
        view = self.view
        narrator.names = {pid: self.name(pid).replace(_TILE_MARK, "") for pid in view.players}
        narrator.winds = dict(zip(view.seats, ("East", "South", "West", "North"), strict=False))
        me = view.my_id
        line: str | None
        match msg:
            case C.NewHand():
                line = f"Hand {view.hand_no}: {narrator.who(msg.east)} deals"
                self._dealing = True
            case C.PlayerDraws() if self._dealing:
                # (the view counts the deal: its phase moves on with the deal's last tile)
                self._dealing = view.phase is Phase.DEALING
                line = None if self._dealing else "Tiles dealt"
            case C.PlayerDraws(id=pid, tile=tile) | C.PlayerDrawsLoose(id=pid, tile=tile):
                loose = "a loose tile" if isinstance(msg, C.PlayerDrawsLoose) else "a tile"
                what = marked(tile) if pid == me and tile != BLANK else loose
                line = f"{narrator.who(pid)} draws {what}"
            case C.PlayerClaimsChow() | C.PlayerClaimsPung() | C.PlayerClaimsKong() | C.PlayerClaimsMahJong():
                names = view.rules.move_names()
                verb = "claims" if names is None else names.claim_verb
                line = f"{narrator.who(msg.id)} {verb} {self._claim_word(msg).rstrip('!')}"
            case C.PlayerDoesntClaim(timeout=True):
                line = "Your time to claim ran out: no claim"
            case C.WildIndicator(tile=tile):
                wild = marked(view.wild) if view.wild is not None else "no tile"
                line = f"{marked(tile)} is turned up: {wild} is wild this hand"
            case C.HandScore(id=pid, score=score):
                line = f"{narrator.who(pid)} scores {score}"
            case C.Settlement() | C.WashOut() | C.GameOver():
                line = None  # the Scoring window and the notices say these
            case _:
                names = view.rules.move_names()
                named = _named_line(narrator.who, names, view, msg) if names is not None else None
                line = named if named is not None else narrator.line(msg)
        if line:  # the narrator's banners ("### East round ###") bare
            self._log("move", *cut_at_tiles(line.strip(" \n#*")))


def marked(tile: Tile) -> str:
    """A tile's code in a text for the page, marked to be found again (:func:`cut_at_tiles`)."""
    return f"{_TILE_MARK}{code(tile)}{_TILE_MARK}"


def cut_at_tiles(text: str) -> tuple[str, tuple[str, ...]]:
    """A text built with :func:`marked` tiles, bare, and cut at them: text and tile codes in turn (text
    first; empty when it names none). The page shows the parts with each tile named in words, one table
    of names for every text it shows (the tile names live in the page alone)."""
    parts = text.split(_TILE_MARK)
    return "".join(parts), tuple(parts) if len(parts) > 1 else ()


def _bid(msg: _Claim) -> P.PMsg:
    """The player message a lodged claim answers to, which the rule system names."""
    match msg:
        case C.PlayerClaimsChow(discard=serial, cpos=cpos):
            return P.Chow(serial, cpos)
        case C.PlayerClaimsPung(discard=serial):
            return P.Pung(serial)
        case C.PlayerClaimsKong(discard=serial):
            return P.Kong(serial)
        case _:
            return P.MahJong(msg.discard)


def _named_line(who: Callable[[int], str], names: Callable[[SeatView, P.PMsg], str], view: SeatView,
                msg: C.CMsg) -> str | None:  # fmt: skip
    """A move-log line in the words of a rule system that names its moves (IMS: Triplet, not pung), or None
    where the manual's words serve."""
    match msg:
        case C.PlayerPungs(id=pid, tile=tile):
            return f"{who(pid)} makes a {names(view, P.Pung(0))} of {marked(tile)}"
        case C.PlayerKongs(id=pid, tile=tile):
            return f"{who(pid)} makes a {names(view, P.Kong(0))} of {marked(tile)}"
        case C.PlayerChows(id=pid, tile=tile, cpos=cpos) if cpos is not ChowPosition.ANYPOS:
            return f"{who(pid)} takes {marked(tile)}: {names(view, P.Chow(0, cpos))}"
        case C.PlayerDeclaresClosedKong(id=pid, tile=tile):
            what = "" if tile == BLANK else f" of {marked(tile)}"
            return f"{who(pid)} declares a concealed {names(view, P.DeclareClosedKong(tile))}{what}"
        case C.PlayerRevealsConcealedKong(id=pid, tile=tile):
            return f"{who(pid)} reveals a concealed {names(view, P.DeclareClosedKong(tile))} of {marked(tile)}"
        case C.PlayerAddsToPung(id=pid, tile=tile):
            quadruplet = names(view, P.AddToPung(tile))
            return f"{who(pid)} adds {marked(tile)} to a {names(view, P.Pung(0))}: a {quadruplet}"
        case C.PlayerRobsKong(id=pid, tile=tile):
            return f"{who(pid)} robs the {names(view, P.Kong(0))} of {marked(tile)}"
        case C.PlayerMahJongs(id=pid, tile=tile):
            source = "on the discard" if tile == BLANK else f"with {marked(tile)}"
            return f"{who(pid)} goes {names(view, P.MahJong(0))} {source}"
        case _:
            return None
