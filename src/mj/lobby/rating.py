"""Ratings: each account's skill under each rule system, from the final placings of its four-player games.

openskill's Plackett-Luce model rates the four players of a game as four teams of
one, ranked by placing (ties share a rank). Robots and guests play with a fresh
rating each game and are not stored: an account's rating moves by how it placed
against them, as against anyone new. The ``ordinal`` (mu - 3 sigma) is the figure
shown, which rises as the rating grows surer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from openskill.models import PlackettLuce
from sqlalchemy.orm import Session

from mj.lobby.models import Rating

_MODEL: Final = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate_game(s: Session, rules: str, players: Sequence[tuple[int | None, int]]) -> None:
    """Update the ratings of the accounts among ``players`` (account or None, placing), in session ``s``."""
    if len(players) != 4 or not any(account is not None for account, _ in players):
        return
    stored: dict[int, Rating] = {}
    teams = []
    for account, _placing in players:
        row = s.get(Rating, (account, rules)) if account is not None else None
        if account is not None and row is None:
            fresh = _MODEL.rating()
            row = Rating(account_id=account, rules=rules, mu=fresh.mu, sigma=fresh.sigma, games=0)
            s.add(row)
        if account is not None and row is not None:
            stored[account] = row
        teams.append([_MODEL.rating(mu=row.mu, sigma=row.sigma) if row is not None else _MODEL.rating()])
    rated = _MODEL.rate(teams, ranks=[float(placing) for _, placing in players])
    for (account, _placing), (new,) in zip(players, rated, strict=True):
        if account is not None:
            row = stored[account]
            row.mu, row.sigma, row.games = new.mu, new.sigma, row.games + 1
