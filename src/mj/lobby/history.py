"""An account's history, statistics and ratings, from the seats it took in recorded games."""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import select

from mj.lobby.models import Account, GameRecord, HandRecord, Rating, SeatRecord
from mj.lobby.rating import ordinal
from mj.lobby.store import Store, without_expired

Json = dict[str, Any]
#: Games listed in a history at most (newest first); the statistics count all.
HISTORY_LIMIT: Final = 200


def player(store: Store, name: str) -> Json | None:
    """The account called ``name``: its games (newest first, not those of expired tables), totals over finished
    games, ratings per rule system."""
    with store.session() as s:
        account = s.scalars(select(Account).where(Account.name == name)).first()
        if account is None:
            return None
        rows = s.execute(
            without_expired(select(SeatRecord, GameRecord).join(GameRecord, GameRecord.id == SeatRecord.game_id))
            .where(SeatRecord.account_id == account.id)
            .order_by(GameRecord.id.desc())
        ).all()
        hands = dict(
            s.execute(
                select(HandRecord.game_id, HandRecord.number)
                .where(HandRecord.game_id.in_([game.id for _, game in rows]))
                .order_by(HandRecord.number)
            ).all()
        )
        ratings = s.scalars(select(Rating).where(Rating.account_id == account.id).order_by(Rating.rules)).all()
    finished = [(seat, game) for seat, game in rows if game.finished]
    return {
        "name": account.name,
        "games": len(finished),
        "hands": sum(hands.get(game.id, 0) for _, game in finished),
        "wins": sum(seat.wins or 0 for seat, _ in finished),
        "self_drawn": sum(seat.self_drawn or 0 for seat, _ in finished),
        "deal_ins": sum(seat.deal_ins or 0 for seat, _ in finished),
        "score": sum(seat.score or 0 for seat, _ in finished),
        "first_places": sum(seat.placing == 1 for seat, _ in finished),
        "ratings": [
            {"rules": r.rules, "mu": r.mu, "sigma": r.sigma, "ordinal": ordinal(r.mu, r.sigma), "games": r.games}
            for r in ratings
        ],
        "history": [
            {
                "game": game.id,
                "table": game.table_id,
                "rules": game.rules,
                "finished": game.finished,
                "hands": hands.get(game.id, 0),
                "score": seat.score,
                "placing": seat.placing,
                "wins": seat.wins,
                "deal_ins": seat.deal_ins,
            }
            for seat, game in rows[:HISTORY_LIMIT]
        ],
    }
