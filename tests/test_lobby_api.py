"""``mj lobby`` as a program: its JSON API, tables of robots, exports, and a lobby killed with SIGKILL.

Each test starts the real command (``python -m mj.cli lobby``), reads its ``OK: URL``
line and talks HTTP to it, as a script or the lobby page would.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, update

from lobbyproc import Json, Lobby
from mj.lobby.models import LobbyTable
from mj.lobby.store import Store, now
from mj.lobby.tables import WAITING_EXPIRY


def _replays_identically(log: str, tmp_path: Path) -> str:
    path = tmp_path / "game.log"
    path.write_bytes(log.encode("latin-1"))
    result = subprocess.run([sys.executable, "-m", "mj.cli", "replay", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def _check_whole_record(lobby: Lobby, game_id: int, tmp_path: Path) -> Json:
    record = lobby.get(f"/api/games/{game_id}")
    assert record["finished"] is True
    assert [m[0] for m in record["moves"]] == list(range(len(record["moves"])))
    assert [m[3] for m in record["moves"] if m[1] == ">"].count("GameOver") == 1
    assert all(h["last_move"] is not None for h in record["hands"])
    assert sorted(p["placing"] for p in record["players"]) in ([1, 2, 3, 4], [1, 1, 3, 4], [1, 2, 2, 4], [1, 2, 3, 3])
    assert sum(p["score"] for p in record["players"]) == 0
    status, log = lobby.call("GET", f"/api/games/{game_id}/log")
    assert status == 200
    replayed = _replays_identically(log, tmp_path)
    assert f": {len(record['hands'])} hands," in replayed
    return record


def test_a_table_of_four_robots_created_through_the_api_plays_at_once_to_its_end(
    start_lobby: Any, tmp_path: Path
) -> None:
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    status, answer = lobby.call("POST", "/api/tables", {"rules": "classical", "options": {"NumRounds": 1},
                                                         "robots": 4, "level": 1})  # fmt: skip
    assert status == 201 and set(answer) == {"table"}
    table = lobby.wait_for(answer["table"], lambda t: t["status"] == "finished")
    assert [s["name"] for s in table["seats"]] == ["Robot1", "Robot2", "Robot3", "Robot4"]
    (game,) = lobby.get("/api/games")
    assert game == {"id": table["game"], "table": answer["table"], "rules": "classical", "finished": True,
                    "hands": table["hands"]}  # fmt: skip
    record = _check_whole_record(lobby, game["id"], tmp_path)
    status, download = lobby.call("GET", f"/api/games/{game['id']}?download=1")
    assert status == 200 and download == record
    assert lobby.headers["Content-Disposition"] == f'attachment; filename="mj-game-{game["id"]}.json"'
    assert len(record["hands"]) == game["hands"] >= 4
    assert record["options"] == {"NumRounds": 1}
    assert [t["id"] for t in lobby.get("/api/tables")] == [answer["table"]]


@pytest.mark.parametrize(
    ("body", "fault"),
    [
        (b"{not json", "expected a JSON object"),
        (b"[1, 2]", "expected a JSON object"),
        (json.dumps({"rules": "riichi"}).encode(), "unknown rule system 'riichi'"),
        (
            json.dumps({"rules": "ims", "options": {"SevenPairs": 1}}).encode(),
            "options: SevenPairs not an option of the ims rules",
        ),
        (
            json.dumps({"rules": "classical", "options": {"MinimumFan": 2}}).encode(),
            "options: MinimumFan not an option of the classical rules",
        ),
        (json.dumps({"rules": "ims", "options": {"MinimumFan": 1}}).encode(), "MinimumFan must be 0 or 2"),
        (json.dumps({"robots": 5}).encode(), "robots: expected a whole number from 0 to 4"),
        (json.dumps({"level": "3"}).encode(), "level: expected a whole number"),
        (json.dumps({"options": {"NoSuchOption": 1}}).encode(), "options: NoSuchOption not an option of the classical"),
        (json.dumps({"options": {"NumRounds": "many"}}).encode(), "options: NumRounds: expected a whole number"),
        (json.dumps({"colour": "red"}).encode(), "unknown field(s): colour"),
    ],
)
def test_a_bad_table_request_is_refused_in_one_line_and_creates_nothing(
    start_lobby: Any, tmp_path: Path, body: bytes, fault: str
) -> None:
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    status, answer = lobby.call("POST", "/api/tables", raw=body)
    assert status == 400
    assert fault in answer["error"] and "\n" not in answer["error"]
    assert lobby.get("/api/tables") == []
    assert lobby.call("GET", "/api/games/1")[0] == 404
    assert lobby.call("GET", "/api/games/x")[0] == 404


def test_a_lobby_killed_mid_game_resumes_its_table_and_the_record_has_every_move(
    start_lobby: Any,
    database_url: str,
    tmp_path: Path,
) -> None:
    lobby = start_lobby(database_url, "--robot-delay", "0.002")
    status, answer = lobby.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 4, "level": 1})
    assert status == 201
    table = lobby.wait_for(answer["table"], lambda t: t["hands"] >= 3)
    partial = lobby.get(f"/api/games/{table['game']}")
    assert not partial["finished"]
    # while a hand is played, the record shows the game up to the last settled hand only
    settled = [h for h in partial["hands"] if h["last_move"] is not None]
    assert len(partial["moves"]) == settled[-1]["last_move"] + 1
    # nor the seed, which deals every wall of the game: the hand in play's and those to come
    assert partial["seed"] is None
    os.kill(lobby.process.pid, signal.SIGKILL)
    lobby.process.wait()
    store = Store(database_url)
    try:
        killed = store.game(table["game"])
        assert killed is not None and not killed.finished and killed.moves > len(partial["moves"])
    finally:
        store.close()
    again = start_lobby(database_url)
    resumed = again.wait_for(answer["table"], lambda t: t["status"] == "finished")
    assert resumed["hands"] >= table["hands"]
    finished = _check_whole_record(again, table["game"], tmp_path)
    assert isinstance(finished["seed"], int)
    # a finished game's record survives a kill -9 too, and its table is not played again
    os.kill(again.process.pid, signal.SIGKILL)
    again.process.wait()
    third = start_lobby(database_url)
    assert third.get(f"/api/games/{table['game']}") == finished
    assert third.get(f"/api/tables/{answer['table']}")["status"] == "finished"


def test_the_lobby_answers_only_its_own_host_names(start_lobby: Any, tmp_path: Path) -> None:
    """A page of another site that made its name resolve to the lobby (DNS rebinding) gets nothing."""
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}", "--allow-host", "mj.example")
    for host, status in (("evil.example", 421), ("mj.example", 200), ("localhost", 200)):
        request = urllib.request.Request(lobby.url + "api/tables", headers={"Host": host})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answer = response.status
        except urllib.error.HTTPError as exc:
            answer = exc.code
            # the lobby's own option, not xmj's, which the text once named
            assert (
                exc.read().decode() == "this host name is not served here (the server's --allow-host NAME adds one)\n"
            )
        assert answer == status, host


def test_a_finished_table_is_listed_after_a_restart_as_before_and_refuses_a_seat(
    start_lobby: Any, database_url: str
) -> None:
    lobby = start_lobby(database_url)
    status, answer = lobby.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 4, "level": 1})
    assert status == 201
    before = lobby.wait_for(answer["table"], lambda t: t["status"] == "finished")
    assert before["game"] is not None and before["hands"] > 0 and len(before["seats"]) == 4 and before["free"] == 0
    refused = lobby.call("POST", f"/api/tables/{answer['table']}/sit", {"name": "Ann"})
    assert refused == (409, {"error": "this table's game is over"})
    os.kill(lobby.process.pid, signal.SIGTERM)
    lobby.process.wait()
    again = start_lobby(database_url)
    # the game, its hands and who sat there stay listed (the lobby page's Replay button needs the game)
    assert again.get(f"/api/tables/{answer['table']}") == before
    assert [t for t in again.get("/api/tables") if t["id"] == answer["table"]] == [before]
    assert again.call("POST", f"/api/tables/{answer['table']}/sit", {"name": "Ann"}) == refused


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--http", "localhost:99999"], "argument --http: port out of range in 'localhost:99999'"),
        (["--http", "8080"], "argument --http: wants HOST:PORT, not '8080'"),
        (["--lease", "-1"], "argument --lease: must be from 1 to 3600 seconds: '-1'"),
        (["--lease", "nan"], "argument --lease: must be from 1 to 3600 seconds: 'nan'"),
        (["--robot-delay", "-1"], "argument --robot-delay: must be from 0 to 60 seconds: '-1'"),
    ],
)
def test_an_option_out_of_range_is_a_usage_error_in_one_line_and_nothing_starts(
    tmp_path: Path, args: list[str], said: str
) -> None:
    db = tmp_path / "lobby.db"
    command = [sys.executable, "-m", "mj.cli", "lobby", "--db", f"sqlite:///{db}", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1] == f"mj lobby: error: {said}"
    assert "Traceback" not in done.stderr and not db.exists()


def test_a_table_that_expired_unplayed_has_no_game_in_the_games_listed(start_lobby: Any, tmp_path: Path) -> None:
    """An expired table never began its game: ``/api/games`` lists the games played and being played, not it."""
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    made = [lobby.call("POST", "/api/tables", {"robots": 0})[1]["table"] for _ in range(2)]
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        with store.engine.begin() as connection:  # the first was made longer ago than a table waits
            long_ago = now() - timedelta(seconds=WAITING_EXPIRY + 1)
            connection.execute(update(LobbyTable).where(LobbyTable.id == made[0]).values(created_at=long_ago))
    finally:
        store.close()
    lobby.process.send_signal(signal.SIGTERM)
    lobby.process.wait(30)
    again = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")  # the restarted lobby expires it at once
    again.wait_for(made[0], lambda t: t["status"] == "expired")
    assert [(g["table"], g["finished"]) for g in again.get("/api/games")] == [(made[1], False)]


def test_the_tables_listed_are_the_newest_500_read_alone_however_many_the_record_keeps(
    start_lobby: Any, tmp_path: Path
) -> None:
    """The record keeps every table ever made, and the event loop, every table's play included, waits
    while the listing is read: 200,000 of them read whole took 3 s a listing, for anyone to ask again."""
    url = f"sqlite:///{tmp_path / 'lobby.db'}"
    lobby = start_lobby(url)
    lobby.process.terminate()
    lobby.process.wait()
    old = {"rules": "classical", "options": "{}", "robots": 4, "level": 1, "seed": 1, "turn_timer": 0,
           "status": "expired", "created_at": now() - timedelta(days=1)}  # fmt: skip
    with Store(url).session() as s:
        s.execute(insert(LobbyTable), [old] * 200_000)
        s.commit()
    lobby = start_lobby(url)
    started = time.monotonic()
    listed = lobby.get("/api/tables")
    assert time.monotonic() - started < 1.0, "the listing read more than the tables it lists"
    assert [t["id"] for t in listed] == list(range(199_501, 200_001))


def test_a_long_games_record_asked_for_again_and_again_holds_up_no_other_request(
    start_lobby: Any, tmp_path: Path
) -> None:
    """A game's replay is played back from its first move, its record and log read whole: 1.6 s for the last
    hand of a game of 32 rounds (of up to 100), during which the event loop, every table's play included,
    waited; such a game is 5 s of four robots' play away for anyone."""
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    status, made = lobby.call("POST", "/api/tables", {"robots": 4, "level": 1, "options": {"NumRounds": 32}})
    assert status == 201, made
    played = lobby.wait_for(made["table"], lambda t: t["status"] == "finished", 120)
    game, last = played["game"], played["hands"]
    heavy = [f"/api/games/{game}/hands/{last}", f"/api/games/{game}", f"/api/games/{game}/log"]
    until = time.monotonic() + 4

    def ask_again_and_again(path: str) -> set[int]:
        asker = lobby.browser()
        answers = set()
        while time.monotonic() < until:
            answers.add(asker.call("GET", path)[0])
        return answers

    with concurrent.futures.ThreadPoolExecutor(len(heavy)) as pool:
        asking = [pool.submit(ask_again_and_again, path) for path in heavy]
        waits = []
        while time.monotonic() < until:
            started = time.monotonic()
            assert lobby.get("/api/me") == {"account": None}
            waits.append(time.monotonic() - started)
        assert [answers.result() for answers in asking] == [{200}] * len(heavy)
    assert max(waits) < 1.0, f"a request waited {max(waits):.2f} s behind the game's record"
