"""A stored game shown hand by hand and move by move, every player's hand in view: the replay viewer's frames.

The record holds what the table logged: each broadcast once, each private message
(a player's own draws, its passes) to its player. Each player's view is rebuilt as
the player's client built it (:class:`~mj.seatview.SeatView`): broadcasts to
everyone, a draw to the drawer with its tile and to the others hidden, anything
private to its recipient only. After each public line, a frame holds every player's
part of the xmj snapshot as that player saw it: the concealed tiles of all four,
with the wild indicator and the wild tile it names where the game's rules turn one up.
The views read the game's own rule system, as its players' clients did.
Only moves the record may show are used (:func:`mj.lobby.export.visible_moves`).
"""

from __future__ import annotations

from typing import Any

from mj import tiles
from mj.lobby import rules
from mj.lobby.export import visible_moves
from mj.lobby.models import GameRecord
from mj.lobby.public import public_view
from mj.lobby.store import Store
from mj.protocol import ProtocolError
from mj.protocol import cmsg as C
from mj.rules.ruleset import Ruleset
from mj.seatview import SeatView
from mj.web import snapshot
from mj.web.seatlog import SeatLog

Json = dict[str, Any]


class ReplayUnavailable(LookupError):
    """A hand the record cannot show (not stored, or still being played)."""


class _Seat:
    def __init__(self, player: int, ruleset: Ruleset) -> None:
        self.view = SeatView(player, ruleset)
        self.log = SeatLog(self.view)

    def apply(self, message: C.CMsg) -> None:
        self.view.apply(message)
        self.log.apply(message)

    def entry(self) -> Json | None:
        players = snapshot.build(self.view, self.log, None, {})["players"]
        return next((p for p in players if p["id"] == self.view.my_id), None)

    def wilds(self) -> Json:
        """The indicator turned up and the wild tile it names (codes; None without wilds)."""
        wild = self.view.wild
        indicator = self.view.indicator
        return {
            "indicator": tiles.code(indicator) if indicator is not None else None,
            "wild": tiles.code(wild) if wild is not None else None,
        }


def hand_frames(store: Store, game: GameRecord, number: int) -> Json:
    """The frames of hand ``number``: ``{"hand", "frames": [{"seq", "line", "players", "indicator", "wild"}]}``."""
    hands = store.hands(game.id)
    hand = next((h for h in hands if h.number == number), None)
    limit = visible_moves(game, hands)
    if hand is None or hand.first_move >= limit:
        raise ReplayUnavailable(f"hand {number} of game {game.id} is not in the record yet")
    end = min(limit, hand.last_move + 1 if hand.last_move is not None else limit)
    try:
        ruleset = rules.ruleset(game.rules)
    except rules.UnknownRules as exc:
        raise ReplayUnavailable(f"game {game.id}: {exc}") from None
    seats: dict[int, _Seat] = {}
    player_of: dict[int, int] = {}
    frames: list[Json] = []
    for move in store.moves(game.id):
        if move.seq >= end:
            break
        if move.direction != ">" or move.text is None:
            continue
        try:
            message = C.decode(move.text)
        except ProtocolError:
            continue
        if isinstance(message, C.ConnectReply) and message.id:
            player_of[move.connection] = message.id
            seats.setdefault(message.id, _Seat(message.id, ruleset))
        recipient = seats.get(player_of.get(move.connection, 0))
        public = public_view(message)
        if isinstance(message, C.PlayerDraws | C.PlayerDrawsLoose):
            for player, seat in seats.items():
                seat.apply(message if player == message.id else public or message)
        elif public is not None:
            for seat in seats.values():
                seat.apply(message)
        elif recipient is not None:
            recipient.apply(message)
        if public is not None and move.seq >= hand.first_move:
            entries = [seat.entry() for seat in seats.values()]
            players = sorted((e for e in entries if e is not None), key=lambda e: int(e["seat"]))
            wilds = next(iter(seats.values())).wilds() if seats else {"indicator": None, "wild": None}
            frames.append({"seq": move.seq, "line": public.encode(), "players": players, **wilds})
    return {"game": game.id, "hand": number, "east": hand.east, "frames": frames}
