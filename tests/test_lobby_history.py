"""An account's history, statistics and rating, from games recorded with it in a seat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import event, insert

from lobby_games import recorded_game
from mj.arena.tally import GameTally
from mj.lobby import history
from mj.lobby.models import Account, GameRecord, HandRecord, LobbyTable, SeatRecord
from mj.lobby.store import EXPIRED, Batch, HandState, SeatSpec, Store, now
from mj.protocol import cmsg as C

#: Games of the very active account: thousands, each its own table, seat and hands.
MANY_GAMES = 3000


def _account(store: Store, name: str) -> int:
    with store.session() as s, s.begin():
        account = Account(name=name, password_hash="not used here", created_at=now())
        s.add(account)
    return account.id


def _play_recorded(store: Store, seed: int, accounts: dict[str, int]) -> int:
    """A whole game of robots, the robots named in ``accounts`` sitting for those accounts; the game's id."""
    return recorded_game(store, "classical", {"NumRounds": 1}, seed, accounts)[1]


def test_an_accounts_history_totals_and_rating_come_from_its_finished_games(database_url: str) -> None:
    store = Store(database_url)
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
        assert json.loads(json.dumps(found)) == found, "sent as JSON as it is"
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


def _insert_games(store: Store, rows: list[dict[str, Any]]) -> list[int]:
    """One table and its game per row (``status``, ``finished``), in one transaction: the games' ids, in order."""
    with store.session() as s, s.begin():
        tables = s.scalars(
            insert(LobbyTable).returning(LobbyTable.id, sort_by_parameter_order=True),
            [
                {"rules": "classical", "options": "{}", "robots": 3, "level": 1, "seed": 0, "turn_timer": 0,
                 "status": row["status"], "created_at": now()}
                for row in rows
            ],
        ).all()  # fmt: skip
        return list(
            s.scalars(
                insert(GameRecord).returning(GameRecord.id, sort_by_parameter_order=True),
                [
                    {"table_id": table, "rules": "classical", "options": "{}", "seed": 0, "started_at": now(),
                     "finished": row["finished"], "finished_at": None, "moves": 0}
                    for table, row in zip(tables, rows, strict=True)
                ],
            ).all()
        )  # fmt: skip


def _statement_sizes(store: Store, name: str) -> tuple[dict[str, Any], list[int]]:
    """The history of account ``name``, and how many parameters each statement that read it carried."""
    sizes: list[int] = []

    def count(_conn: Any, _cursor: Any, _statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        sizes.append(len(parameters))

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        found = history.player(store, name)
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
    assert found is not None
    return found, sizes


def test_an_account_with_thousands_of_games_is_listed_and_summed_by_statements_of_a_fixed_size(
    database_url: str,
) -> None:
    """The history lists the newest games and the database sums all the finished ones, in statements no larger
    than for an account of one game (an ``IN`` list of every game was: slow, and past PostgreSQL's 65535
    parameters for a very active account). Unfinished games are listed and not summed, expired tables' games
    neither."""
    store = Store(database_url)
    try:
        ann, bob = _account(store, "Ann"), _account(store, "Bob")
        kinds = [("finished", True)] * MANY_GAMES + [("playing", False), (EXPIRED, False)] * 5
        games = _insert_games(store, [{"status": status, "finished": finished} for status, finished in kinds])
        seats = [
            {"game_id": game, "connection": 1, "name": "Ann", "robot": False, "account_id": ann, "player_id": 1,
             "score": i - MANY_GAMES // 2, "placing": 1 + i % 4, "wins": i % 3, "self_drawn": i % 2, "deal_ins": i % 5}
            for i, game in enumerate(games)
        ]  # fmt: skip
        hands = {game: i % 4 for i, game in enumerate(games)}
        with store.session() as s, s.begin():
            s.execute(insert(SeatRecord), [*seats, {**seats[1], "connection": 2, "name": "Bob", "account_id": bob}])
            s.execute(
                insert(HandRecord),
                [{"game_id": g, "number": n, "east": 1, "first_move": 0} for g, count in hands.items()
                 for n in range(1, count + 1)],
            )  # fmt: skip
        found, sizes = _statement_sizes(store, "Ann")
        assert sizes == _statement_sizes(store, "Bob")[1]
        summed = [seat for seat, (_, finished) in zip(seats, kinds, strict=True) if finished]
        totals = ("games", "hands", "wins", "self_drawn", "deal_ins", "score", "first_places")
        assert {total: found[total] for total in totals} == {
            "games": MANY_GAMES,
            "hands": sum(hands[seat["game_id"]] for seat in summed),
            "wins": sum(seat["wins"] for seat in summed),
            "self_drawn": sum(seat["self_drawn"] for seat in summed),
            "deal_ins": sum(seat["deal_ins"] for seat in summed),
            "score": sum(seat["score"] for seat in summed),
            "first_places": sum(seat["placing"] == 1 for seat in summed),
        }
        listed = [(seat, finished) for seat, (status, finished) in zip(seats, kinds, strict=True) if status != EXPIRED]
        assert [(g["game"], g["finished"], g["hands"], g["score"]) for g in found["history"]] == [
            (seat["game_id"], finished, hands[seat["game_id"]], seat["score"])
            for seat, finished in listed[::-1][: history.HISTORY_LIMIT]
        ]
        assert json.loads(json.dumps(found)) == found, "sent as JSON as it is"
    finally:
        store.close()
