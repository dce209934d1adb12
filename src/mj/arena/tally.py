"""The figures of one game, counted from the table's broadcasts as they pass.

A game's outcome for every player (hands, wins, self-drawn wins, deal-ins, winning
hand scores, final scores) can be read from the messages the table logs: each
broadcast is logged once (as sent to the East of the moment), so counting the
logged messages counts every discard, mah-jong and settlement once. The arena
feeds :class:`GameTally` the message objects as the table produces them, and
:func:`mj.robot.games.summarize_log` feeds it the messages decoded from a server
log, so the figures of an in-process game and of a game on the original server are
counted by the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mj.protocol import cmsg as C
from mj.tiles import BLANK


@dataclass
class GameTally:
    """Per player id: what one game's logged messages say; feed them in order to :meth:`observe`."""

    hands: int = 0
    washouts: int = 0
    #: Final cumulative score of each player id.
    scores: dict[int, int] = field(default_factory=dict)
    game_over: bool = False
    #: Per player id: hands won, of them self-drawn (wall or loose tile), and the
    #: hands in which that player's discard or kong gave another player mah-jong.
    wins_by: dict[int, int] = field(default_factory=dict)
    self_drawn_by: dict[int, int] = field(default_factory=dict)
    deal_ins_by: dict[int, int] = field(default_factory=dict)
    #: Per player id: the winner's hand score of every hand that player won.
    win_scores_by: dict[int, list[int]] = field(default_factory=dict)
    #: The players in seat order E, S, W, N of the current hand.
    _seats: list[int] = field(default_factory=list, repr=False)
    #: The discarder of the discard still open to claims (None once a tile is drawn).
    _open_discard: int | None = field(default=None, repr=False)
    _last_konger: int = field(default=0, repr=False)
    #: The winner whose hand score is still to come.
    _winner: int | None = field(default=None, repr=False)

    def observe(self, msg: C.CMsg) -> None:
        """Take one logged message into account."""
        match msg:
            case C.Game() if not self._seats:
                self._seats = [msg.east, msg.south, msg.west, msg.north]
                self.scores = dict.fromkeys(self._seats, 0)
                for per_player in (self.wins_by, self.self_drawn_by, self.deal_ins_by):
                    per_player.update(dict.fromkeys(self._seats, 0))
                self.win_scores_by = {pid: [] for pid in self._seats}
            case C.NewHand(east=east) if east in self._seats:
                start = self._seats.index(east)
                self._seats = self._seats[start:] + self._seats[:start]
                self.hands += 1
                self._open_discard = self._winner = None
            case C.PlayerDiscards(id=pid):
                self._open_discard = pid
            case C.PlayerDraws() | C.PlayerDrawsLoose():
                self._open_discard = None
            case C.PlayerDeclaresClosedKong(id=pid) | C.PlayerAddsToPung(id=pid):
                self._last_konger = pid
            case C.PlayerMahJongs(id=pid, tile=tile):
                # A blank tile means the open discard completed the hand; East's dealt
                # hand is also announced with a blank, but no discard is open then.
                self._count_win(pid, self._open_discard if tile == BLANK else None)
            case C.PlayerRobsKong(id=pid):
                self._count_win(pid, self._last_konger)
            case C.HandScore(id=pid, score=score) if pid == self._winner:
                self.win_scores_by.setdefault(pid, []).append(score)
                self._winner = None
            case C.WashOut():
                self.washouts += 1
            case C.Settlement():
                for pid, delta in zip(self._seats, (msg.east, msg.south, msg.west, msg.north), strict=True):
                    self.scores[pid] += delta
            case C.GameOver():
                self.game_over = True

    def _count_win(self, winner: int, fed_by: int | None) -> None:
        self.wins_by[winner] = self.wins_by.get(winner, 0) + 1
        if fed_by is None:
            self.self_drawn_by[winner] = self.self_drawn_by.get(winner, 0) + 1
        elif fed_by != winner:
            self.deal_ins_by[fed_by] = self.deal_ins_by.get(fed_by, 0) + 1
        self._winner = winner
