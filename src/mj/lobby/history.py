"""An account's history, statistics and ratings, from the seats it took in recorded games."""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import Select, case, func, select

from mj.lobby.models import Account, GameRecord, Rating, SeatRecord
from mj.lobby.rating import ordinal
from mj.lobby.store import HANDS_BEGUN, Store, without_expired

Json = dict[str, Any]
#: Games listed in a history at most (newest first); the statistics count all, summed by the database.
HISTORY_LIMIT: Final = 200


def _seats(account_id: int, *columns: Any) -> Select[Any]:
    """``columns`` of the account's seats joined to their games (:func:`without_expired`)."""
    query = select(*columns).select_from(SeatRecord).join(GameRecord, GameRecord.id == SeatRecord.game_id)
    return without_expired(query).where(SeatRecord.account_id == account_id)


def _sum(column: Any) -> Any:
    """The sum of ``column`` over the rows, 0 over none (SQL's is NULL), nulls left out."""
    return func.coalesce(func.sum(column), 0)


def player(store: Store, name: str) -> Json | None:
    """The account called ``name``: its games (newest first, not those of expired tables), totals over finished
    games, ratings per rule system."""
    with store.session() as s:
        account = s.scalars(select(Account).where(Account.name == name)).first()
        if account is None:
            return None
        newest = _seats(account.id, SeatRecord, GameRecord, HANDS_BEGUN).order_by(GameRecord.id.desc())
        listed = s.execute(newest.limit(HISTORY_LIMIT)).all()
        totals = s.execute(
            _seats(
                account.id,
                func.count().label("games"),
                _sum(HANDS_BEGUN).label("hands"),
                _sum(SeatRecord.wins).label("wins"),
                _sum(SeatRecord.self_drawn).label("self_drawn"),
                _sum(SeatRecord.deal_ins).label("deal_ins"),
                _sum(SeatRecord.score).label("score"),
                func.count(case((SeatRecord.placing == 1, 1))).label("first_places"),
            ).where(GameRecord.finished)
        ).one()
        ratings = s.scalars(select(Rating).where(Rating.account_id == account.id).order_by(Rating.rules)).all()
    return {
        "name": account.name,
        **{total: int(value) for total, value in totals._mapping.items()},  # PostgreSQL sums counts as numeric
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
                "hands": game_hands,
                "score": seat.score,
                "placing": seat.placing,
                "wins": seat.wins,
                "deal_ins": seat.deal_ins,
            }
            for seat, game, game_hands in listed
        ],
    }
