"""People at lobby tables: a seat through xmj's gateway, spectators over a WebSocket, chat."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from lobbyproc import Lobby
from mj import tiles
from mj.lobby.limits import CHAT_BURST, CHAT_RATE
from mj.lobby.runner import CLAIM_SECONDS
from mj.lobby.store import Store
from mj.protocol import cmsg as C
from test_web import browser_tab, run


def _table_with_robots(lobby: Lobby, robots: int) -> int:
    status, answer = lobby.call("POST", "/api/tables", {"robots": robots, "level": 1, "options": {"NumRounds": 1}})
    assert status == 201
    return int(answer["table"])


def test_a_guest_sits_at_a_table_with_three_robots_and_plays_a_hand_through_the_xmj_gateway(
    start_lobby: Any, tmp_path: Path
) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    table = _table_with_robots(lobby, 3)
    assert lobby.get(f"/api/tables/{table}")["status"] == "waiting"
    status, seat = lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})
    assert status == 200 and seat["page"] == f"/play?session={seat['token']}"
    status, page = lobby.call("GET", seat["page"])
    assert status == 200 and "/static/js/main.js" in page

    async def play_a_hand() -> None:
        async with browser_tab(lobby.url, seat["token"]) as tab:
            settled = await tab.play_until(lambda s: s["scoring"] is not None and bool(s["scoring"]["settlement"]), 90)
            assert any(p["name"] == "Ann" for p in settled["players"])

    run(play_a_hand())
    described = lobby.get(f"/api/tables/{table}")
    assert described["status"] == "playing"
    assert sorted(s["name"] for s in described["seats"]) == ["Ann", "Robot1", "Robot2", "Robot3"]
    record = lobby.get(f"/api/games/{described['game']}")
    # The table's wall is random: a hand may wash out (no settlement) before the one Ann saw settled.
    assert any(hand["settlement"] is not None for hand in record["hands"])
    assert next(p for p in record["players"] if not p["robot"])["name"] == "Ann"
    # Ann's seat is hers alone; no fifth player fits
    assert lobby.browser().call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})[0] == 403
    assert lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})[0] == 409, "she sits there already"
    assert lobby.browser().call("POST", f"/api/tables/{table}/sit", {"name": "Bob"})[0] == 409


def test_a_spectator_is_sent_the_public_lines_and_the_tables_chat(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    table = _table_with_robots(lobby, 4)
    status, _ = lobby.call("POST", f"/api/tables/{table}/chat", {"name": "Watcher", "text": "  good   luck "})
    assert status == 201

    told: list[Any] = []

    async def watch() -> tuple[list[str], list[Any]]:
        lines: list[str] = []
        chat: list[Any] = []
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{lobby.url}api/tables/{table}/watch") as ws:
            while True:  # until the lobby closes the socket: the game is over and all of it was sent
                received = await asyncio.wait_for(ws.receive(), 60)
                if received.type is not aiohttp.WSMsgType.TEXT:
                    break
                message = json.loads(received.data)
                if message["type"] == "public":
                    lines.extend(message["lines"])
                elif message["type"] == "rules":
                    told.append(message)
                else:
                    chat.append(message)
        return lines, chat

    lines, chat = run(watch())
    assert told == [{"type": "rules", "wild_of": {}}]  # no wild tile at a classical table
    messages = [C.decode(line) for line in lines]
    assert sum(isinstance(m, C.GameOver) for m in messages) == 1
    assert any(isinstance(m, C.NewHand) for m in messages)
    draws = [m for m in messages if isinstance(m, C.PlayerDraws | C.PlayerDrawsLoose)]
    assert draws and all(m.tile == tiles.BLANK for m in draws)
    assert chat == [{"type": "chat", "name": "Watcher", "text": "good luck"}]
    assert [c["text"] for c in lobby.get(f"/api/tables/{table}/chat")] == ["good luck"]
    game = lobby.get(f"/api/tables/{table}")["game"]
    assert [(c["name"], c["text"]) for c in lobby.get(f"/api/games/{game}")["chat"]] == [("Watcher", "good luck")]


def test_at_a_table_a_guest_speaks_under_a_seated_persons_name_only_from_the_browser_holding_the_seat(
    start_lobby: Any, tmp_path: Path
) -> None:
    """Anyone could post the table's chat under the name of a guest seated there, which the listing shows."""
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    table = _table_with_robots(lobby, 3)
    assert lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})[0] == 200
    stranger = lobby.browser()
    for name in ("Ann", "ANN"):
        assert stranger.call("POST", f"/api/tables/{table}/chat", {"name": name, "text": "I fold"}) == (
            403, {"error": "Ann sits at this table: chat under another name"})  # fmt: skip
    assert lobby.call("POST", f"/api/tables/{table}/chat", {"name": "Ann", "text": "hello"})[0] == 201
    assert stranger.call("POST", f"/api/tables/{table}/chat", {"name": "Bea", "text": "hi"})[0] == 201
    assert [(c["name"], c["text"]) for c in lobby.get(f"/api/tables/{table}/chat")] == [("Ann", "hello"), ("Bea", "hi")]


def test_chat_in_the_lobby_is_kept_and_checked(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    assert lobby.call("POST", "/api/chat", {"name": "Ann", "text": "hello"})[0] == 201
    assert lobby.call("POST", "/api/chat", {"name": "Ann", "text": "   "})[0] == 400
    assert lobby.call("POST", "/api/chat", {"name": "Robot1", "text": "beep"})[0] == 400
    assert lobby.call("POST", "/api/chat", {"name": "Ann", "text": "x" * 301})[0] == 400
    lobby.call("POST", "/api/register", {"name": "Bob", "password": "a long password"})
    assert lobby.call("POST", "/api/chat", {"name": "Mallory", "text": "I am Bob"}) == (
        201, {"name": "Bob", "text": "I am Bob"})  # fmt: skip
    assert lobby.browser().call("POST", "/api/chat", {"name": "Bob", "text": "me too"})[0] == 400
    assert [(c["name"], c["text"]) for c in lobby.get("/api/chat")] == [("Ann", "hello"), ("Bob", "I am Bob")]


def test_a_robot_stands_in_for_a_guest_gone_past_the_turn_timer_and_gives_the_seat_back(
    start_lobby: Any, tmp_path: Path
) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    status, answer = lobby.call("POST", "/api/tables", {"robots": 3, "level": 1, "timer": 1})
    assert status == 201
    table = answer["table"]
    seat = lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})[1]

    async def play_then_leave(token: str) -> None:
        async with browser_tab(lobby.url, token) as tab:
            await tab.play_until(lambda s: s["scoring"] is not None and bool(s["scoring"]["settlement"]), 90)
            await tab.send({"type": "leave"})
            await tab.receive()

    run(play_then_leave(seat["token"]))
    ann = lobby.wait_for(table, ann_stood_in, 30)
    played = ann["hands"]
    ann_id = next(s["id"] for s in ann["seats"] if s["name"] == "Ann")
    lobby.wait_for(table, lambda t: t["hands"] > played, 60)  # the robot plays Ann's seat
    status, back = lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})
    assert status == 200
    seats = lobby.get(f"/api/tables/{table}")["seats"]
    assert [s for s in seats if s["name"] == "Ann"] == [
        {"id": ann_id, "name": "Ann", "connected": True, "robot": False, "stand_in": False}
    ]

    async def play_on(token: str) -> None:
        async with browser_tab(lobby.url, token) as tab:
            state = await tab.play_until(lambda s: s["dialog"] is not None, 60)
            assert state["connection"]["status"] == "connected"

    run(play_on(back["token"]))


def ann_among_robots(start_lobby: Any, database: str | Path, timer: int) -> tuple[Lobby, int, dict[str, Any]]:
    """A lobby on ``database`` (a URL, or a folder for a SQLite file in it; robots slowed down, so that a game
    is still on when Ann's page comes back), a table of three robots of level 1 with this turn ``timer``, and
    Ann's seat there, taken as a guest (its ``token`` and ``page``)."""
    url = f"sqlite:///{database / 'lobby.db'}" if isinstance(database, Path) else database
    lobby: Lobby = start_lobby(url, "--robot-delay", "0.05")
    status, answer = lobby.call("POST", "/api/tables", {"robots": 3, "level": 1, "timer": timer})
    assert status == 201
    table = answer["table"]
    status, seat = lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})
    assert status == 200
    return lobby, table, seat


def ann_stood_in(table: dict[str, Any]) -> bool:
    """Whether a robot plays Ann's seat (as the table listing says)."""
    return any(s["name"] == "Ann" and s["stand_in"] for s in table["seats"])


#: The answer to anyone asking for Ann's seat by her name but Ann (her browser).
ANNS_SEAT = (403, {"error": "Ann's seat at this table is held by another guest or account: choose another name"})


def _guest_key(browser: Lobby) -> str | None:
    return next((c.value for c in browser.cookies if c.name == "mj_guest"), None)


def _ann(lobby: Lobby, table: int) -> list[tuple[bool, bool]]:
    """Ann's seat as the table listing shows it: (connected, played by a stand-in)."""
    return [(s["connected"], s["stand_in"]) for s in lobby.get(f"/api/tables/{table}")["seats"] if s["name"] == "Ann"]


def test_a_guests_seat_goes_back_to_the_browser_that_took_it_and_to_nobody_else_asking_by_her_name(
    start_lobby: Any, database_url: str
) -> None:
    lobby, table, _ = ann_among_robots(start_lobby, database_url, timer=1)
    key = _guest_key(lobby)
    cookie = lobby.headers["Set-Cookie"]
    assert key is not None and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    lobby.wait_for(table, ann_stood_in, 20)  # her page never opened: she is away, a robot plays her seat
    stranger = lobby.browser()  # who read "Ann" in the table listing, or opened her invitation link
    assert stranger.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"}) == ANNS_SEAT
    assert "Set-Cookie" not in stranger.headers and _guest_key(stranger) is None
    stranger.sends = {"Cookie": "mj_guest=" + "A" * 43}  # a key of the right shape, guessed
    assert stranger.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"}) == ANNS_SEAT
    stranger.sends = {}
    # an account made with her name while she is away takes nothing from her
    assert stranger.call("POST", "/api/register", {"name": "Ann", "password": "a long password"})[0] == 201
    assert stranger.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"}) == ANNS_SEAT
    assert _ann(lobby, table) == [(True, True)]
    status, back = lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})
    assert (status, back["name"], _guest_key(lobby)) == (200, "Ann", key)
    assert _ann(lobby, table) == [(True, False)]


def test_a_guests_seat_is_bound_to_her_browser_across_a_restart_of_the_lobby(
    start_lobby: Any, database_url: str
) -> None:
    lobby, table, _ = ann_among_robots(start_lobby, database_url, timer=1)
    game = lobby.wait_for(table, lambda t: t["status"] == "playing")["game"]
    deadline = time.monotonic() + 30  # her seat is stored with the table's next batch of moves: then kill -9
    while "Ann" not in [p["name"] for p in lobby.get(f"/api/games/{game}")["players"]]:
        assert time.monotonic() < deadline, "Ann's seat was never stored"
        time.sleep(0.05)
    os.kill(lobby.process.pid, signal.SIGKILL)
    lobby.process.wait()
    again: Lobby = start_lobby(database_url, "--robot-delay", "0.05")
    assert again.wait_for(table, lambda t: t["status"] == "playing")
    assert again.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"}) == ANNS_SEAT
    for cookie in lobby.cookies:  # Ann's browser, at the lobby started again
        again.cookies.set_cookie(cookie)
    assert again.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})[0] == 200
    assert _ann(again, table) == [(True, False)]


def test_a_seat_whose_page_is_closed_goes_to_a_robot_after_the_turn_timer_and_back_when_the_page_opens(
    start_lobby: Any, tmp_path: Path
) -> None:
    lobby, table, seat = ann_among_robots(start_lobby, tmp_path, timer=1)

    async def play_then_close_the_page(token: str) -> None:
        async with browser_tab(lobby.url, token) as tab:
            await tab.play_until(lambda s: s["dialog"] is not None, 60)
        # the page is closed without Leave: the gateway keeps the seat's connection, the table must not wait

    run(play_then_close_the_page(seat["token"]))
    lobby.wait_for(table, ann_stood_in, 20)

    async def open_the_page_again(token: str) -> None:
        async with browser_tab(lobby.url, token) as tab:
            await tab.until(lambda s: s["connection"]["status"] == "connected" and s["dialog"] is not None, 30)
            seats = lobby.get(f"/api/tables/{table}")["seats"]
            assert [(s["connected"], s["stand_in"]) for s in seats if s["name"] == "Ann"] == [(True, False)]

    run(open_the_page_again(seat["token"]))


def test_a_seat_taken_through_the_api_whose_page_never_opens_goes_to_a_robot_after_the_turn_timer(
    start_lobby: Any, tmp_path: Path
) -> None:
    lobby, table, _ = ann_among_robots(start_lobby, tmp_path, timer=1)
    lobby.wait_for(table, ann_stood_in, 20)


def test_at_a_table_without_a_turn_timer_a_robot_stands_in_after_the_claim_time(
    start_lobby: Any, tmp_path: Path
) -> None:
    lobby, table, seat = ann_among_robots(start_lobby, tmp_path, timer=0)

    async def play_then_leave(token: str) -> None:
        async with browser_tab(lobby.url, token) as tab:
            await tab.play_until(lambda s: s["dialog"] is not None, 60)
            await tab.send({"type": "leave"})
            await tab.receive()

    run(play_then_leave(seat["token"]))
    gone = time.monotonic()
    lobby.wait_for(table, ann_stood_in, CLAIM_SECONDS + 10)
    assert time.monotonic() - gone >= CLAIM_SECONDS - 1  # not at once: the claim time is the timer


def test_free_seats_are_filled_with_robots_of_the_tables_level_and_the_game_plays_out(
    start_lobby: Any, tmp_path: Path
) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    table = _table_with_robots(lobby, 2)
    assert lobby.call("POST", f"/api/tables/{table}/robot", {}) == (201, {"name": "Robot3"})
    assert lobby.call("POST", f"/api/tables/{table}/robot", {}) == (201, {"name": "Robot4"})
    assert lobby.call("POST", f"/api/tables/{table}/robot", {}) == (409, {"error": "no free seat at this table"})
    done = lobby.wait_for(table, lambda t: t["status"] == "finished")
    record = lobby.get(f"/api/games/{done['game']}")
    assert [(p["name"], p["robot"]) for p in record["players"]] == [(f"Robot{n}", True) for n in range(1, 5)]
    assert sum(p["score"] for p in record["players"]) == 0
    log = lobby.call("GET", f"/api/games/{done['game']}/log")[1]
    assert _replays(log, tmp_path)


def test_nobody_seated_changes_a_tables_options_which_stay_those_it_lists(start_lobby: Any, tmp_path: Path) -> None:
    """The original makes the first person seated the game's manager, who may change any option at any moment of
    the game: a guest made the listed game of one round one of eight, with 300 s to claim (and the page sends its
    option preferences on its own where it may)."""
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    table = _table_with_robots(lobby, 3)
    status, seat = lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})
    assert status == 200

    async def try_to_change() -> dict[str, Any]:
        async with browser_tab(lobby.url, seat["token"]) as tab:
            state = await tab.until(lambda s: s["dialog"] is not None, 30)
            assert state["game"]["manager"] == -1, "nobody manages a lobby table"
            for name, value in (("NumRounds", 8), ("Timeout", 300)):
                await tab.send({"type": "set_option", "name": name, "value": value})
                assert await tab.error() == (
                    f"The server says: Not authorized to set game options (SetGameOption {name} {value})"
                )
            return {o["name"]: o["value"] for o in (await tab.until(lambda _s: True))["options"]}

    options = run(try_to_change())
    assert (options["NumRounds"], options["Timeout"]) == (1, CLAIM_SECONDS)
    assert lobby.get(f"/api/tables/{table}")["options"] == {"NumRounds": 1}


def test_a_seats_chat_is_held_to_a_burst_then_a_few_lines_a_second_as_mj_server_holds_a_players(
    start_lobby: Any, tmp_path: Path
) -> None:
    """Every line a person writes at a table is a move of its record, and is sent to every player: a page sent
    2,000 chat lines in two seconds, and the lobby stored and sent all of them."""
    url = f"sqlite:///{tmp_path / 'lobby.db'}"
    lobby: Lobby = start_lobby(url)
    table = _table_with_robots(lobby, 3)
    status, seat = lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})
    assert status == 200
    game = lobby.get(f"/api/tables/{table}")["game"]

    def chat_stored() -> int:
        store = Store(url)
        try:
            return sum(1 for m in store.moves(game) if m.text is not None and m.text.startswith("SendMessage"))
        finally:
            store.close()

    async def flood() -> tuple[float, list[str]]:
        async with browser_tab(lobby.url, seat["token"]) as tab:
            await tab.until(lambda s: s["dialog"] is not None, 30)
            started = time.monotonic()
            for n in range(200):
                await tab.send({"type": "chat", "text": f"line {n}"})
            refused = [await tab.error() for _ in range(100)]
            took = time.monotonic() - started
            await asyncio.sleep(2 / CHAT_RATE)
            await tab.send({"type": "chat", "text": "after a pause"})
            await tab.until(lambda s: any("after a pause" in str(line) for line in s["moves"]))
            return took, refused

    took, refused = run(flood())
    assert set(refused) == {f"too many messages: {CHAT_BURST} at once, then {CHAT_RATE:g} a second; wait a moment"}
    assert CHAT_BURST + 1 <= chat_stored() <= CHAT_BURST + 1 + took * CHAT_RATE + 1


def _replays(log: str, tmp_path: Path) -> bool:
    path = tmp_path / "game.log"
    path.write_bytes(log.encode("latin-1"))
    result = subprocess.run([sys.executable, "-m", "mj.cli", "replay", str(path)], capture_output=True, text=True)
    return result.returncode == 0 and "identical" in result.stdout
