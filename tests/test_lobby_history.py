"""An account's history, statistics and rating, from games recorded with it in a seat."""

from __future__ import annotations

from pathlib import Path

from lobby_games import recorded_game
from mj.arena.tally import GameTally
from mj.lobby import history
from mj.lobby.models import Account
from mj.lobby.store import EXPIRED, Batch, HandState, SeatSpec, Store, now
from mj.protocol import cmsg as C


def _account(store: Store, name: str) -> int:
    with store.session() as s, s.begin():
        account = Account(name=name, password_hash="not used here", created_at=now())
        s.add(account)
    return account.id


def _play_recorded(store: Store, seed: int, accounts: dict[str, int]) -> int:
    """A whole game of robots, the robots named in ``accounts`` sitting for those accounts; the game's id."""
    return recorded_game(store, "classical", {"NumRounds": 1}, seed, accounts)[1]


def test_an_accounts_history_totals_and_rating_come_from_its_finished_games(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        ann = _account(store, "Ann")
        bob = _account(store, "Bob")
        games = [_play_recorded(store, seed, {"Robot2": ann, "Robot3": bob}) for seed in (31, 32)]
        found = history.player(store, "Ann")
        assert found is not None
        assert [g["game"] for g in found["history"]] == games[::-1]
        seats = [next(s for s in store.seats(g) if s.account_id == ann) for g in games]
        assert found["games"] == 2
        assert found["score"] == sum(s.score or 0 for s in seats)
        assert found["first_places"] == sum(s.placing == 1 for s in seats)
        won = sum(1 for g, seat in zip(games, seats, strict=True) for h in store.hands(g) if h.winner == seat.player_id)
        assert found["wins"] == won
        assert found["hands"] == sum(len(store.hands(g)) for g in games)
        deal_ins = 0
        for g, seat in zip(games, seats, strict=True):  # counted again from the stored messages
            tally = GameTally()
            for move in store.moves(g):
                if move.direction == ">" and move.text is not None:
                    tally.observe(C.decode(move.text))
            deal_ins += tally.deal_ins_by[seat.player_id or 0]
        assert found["deal_ins"] == deal_ins
        (rating,) = found["ratings"]
        assert rating["rules"] == "classical" and rating["games"] == 2
        assert rating["sigma"] < 25 / 3  # surer than a fresh rating
        assert history.player(store, "Bob")["ratings"][0]["games"] == 2  # type: ignore[index]
        assert history.player(store, "Carol") is None
    finally:
        store.close()


def test_games_with_no_account_rate_nobody(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        _account(store, "Ann")
        _play_recorded(store, 33, {})
        found = history.player(store, "Ann")
        assert found is not None and found["games"] == 0 and found["ratings"] == [] and found["history"] == []
    finally:
        store.close()


def test_a_game_at_a_table_that_expired_is_not_in_the_history_of_a_player_who_sat_there_and_left(
    database_url: str,
) -> None:
    """An expired table never began its game: the history lists it no more than ``/api/games`` does,
    while a game begun and a table still waiting stay listed, unfinished."""
    store = Store(database_url)
    try:
        ann = _account(store, "Ann")
        played, waiting, expired = (store.start_game(store.create_table("classical", {}, 0, 1, n, 0)) for n in range(3))
        for game in (played, waiting, expired):  # Ann sat at each, then left
            store.record(game.id, Batch(seats=[(SeatSpec(1, "Ann", False, ann), 1)]))
        store.record(played.id, Batch(hands={1: HandState(1, 1, 0)}))
        store.close_table(expired.table_id, EXPIRED)
        found = history.player(store, "Ann")
        assert found is not None
        assert [(g["game"], g["finished"], g["hands"]) for g in found["history"]] == [
            (waiting.id, False, 0),
            (played.id, False, 1),
        ]
        assert found["games"] == 0, "none finished"
    finally:
        store.close()
