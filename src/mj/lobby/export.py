"""A game's record as documents: the server's log format (``mj replay`` reads it) and one JSON document.

While a game is being played its record is shown only up to the end of its last
settled hand: the hand in progress holds concealed tiles (each player's draws are
logged as that player sees them), which nobody but their holder may see before the
hand ends. The seed the walls are dealt from is withheld until the game is over: it
would tell anyone every wall still to come.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from mj.lobby.models import GameRecord, HandRecord, Move
from mj.lobby.play import RECEIVED, SENT
from mj.lobby.store import Store
from mj.logfile import LogEntry, format_entry

Json = dict[str, Any]


def visible_moves(game: GameRecord, hands: list[HandRecord]) -> int:
    """How many of the game's moves may be shown now: all once it is over, else those up to the last settlement."""
    if game.finished:
        return game.moves
    settled = [h.last_move for h in hands if h.last_move is not None]
    return max(settled) + 1 if settled else 0


def summary(game: GameRecord, hands: int) -> Json:
    return {"id": game.id, "table": game.table_id, "rules": game.rules, "finished": game.finished, "hands": hands}


def _moves(store: Store, game: GameRecord, hands: list[HandRecord]) -> Iterator[Move]:
    limit = visible_moves(game, hands)
    for move in store.moves(game.id):
        if move.seq >= limit:
            return
        yield move


def log_text(store: Store, game: GameRecord) -> str:
    """The game as ``mj-server --logfile`` writes it (timer moves are not logged by the server)."""
    hands = store.hands(game.id)
    entries = (
        format_entry(LogEntry("<" if m.direction == RECEIVED else ">", m.connection, m.text))
        for m in _moves(store, game, hands)
        if m.direction in (RECEIVED, SENT)
    )
    return "".join(entries)


def document(store: Store, game: GameRecord) -> Json:
    """The whole record: the game, who sat where and how they ended, every hand and every move."""
    hands = store.hands(game.id)
    limit = visible_moves(game, hands)
    return {
        "id": game.id,
        "table": game.table_id,
        "rules": game.rules,
        "options": json.loads(game.options),
        # the seed deals every wall of the game, the hands still to come included: shown once they are all played
        "seed": game.seed if game.finished else None,
        "started_at": game.started_at.isoformat() + "Z",
        "finished": game.finished,
        "finished_at": None if game.finished_at is None else game.finished_at.isoformat() + "Z",
        "players": [
            {
                "seat": s.connection,
                "id": s.player_id,
                "name": s.name,
                "robot": s.robot,
                "account": s.account_id,
                "score": s.score,
                "placing": s.placing,
            }
            for s in store.seats(game.id)
        ],
        "hands": [
            {
                "number": h.number,
                "east": h.east,
                "first_move": h.first_move,
                "last_move": h.last_move,
                "winner": h.winner,
                "settlement": None if h.settlement is None else json.loads(h.settlement),
            }
            for h in hands
            if h.first_move < limit
        ],
        "moves": [[m.seq, m.direction, m.connection, m.text] for m in _moves(store, game, hands)],
        # the players' own chat is in the moves (SendMessage); this is the spectators' at the table
        "chat": [
            {"name": c.name, "text": c.text, "at": c.at.isoformat() + "Z"}
            for c in store.chat(game.table_id, limit=10_000)
            if c.game_id == game.id
        ],
    }
