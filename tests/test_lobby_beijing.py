"""The lobby's spectator and replay pages at a Beijing table: the wild indicator shown, the wild tiles marked.

The pages interpret no rules: the replay frames carry the indicator and the wild tile
as the game's own rule system reads them, and a spectator is told, when it starts
watching, which tile each indicator makes wild at this table.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp

from lobby_games import recorded_game
from lobbyproc import Lobby
from mj import tiles
from mj.lobby import replayer
from mj.lobby.rules import wild_tiles
from mj.lobby.store import Store
from mj.protocol import cmsg as C
from mj.rules.beijing.rules import BEIJING
from mj.rules.classical.rules import CLASSICAL
from pgserver import fresh_postgres_database


def test_a_spectator_is_told_the_wild_tile_of_each_indicator_by_the_table_s_rule_system() -> None:
    wilds = wild_tiles(BEIJING)
    assert len(wilds) == 34
    assert (wilds["9B"], wilds["NW"], wilds["WD"], wilds["GD"]) == ("1B", "EW", "RD", "WD")
    assert wild_tiles(CLASSICAL) == {}


async def _told(url: str, table: int) -> list[Any]:
    """The rules frames a spectator of ``table`` is sent before the lobby closes the feed."""
    told = []
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}api/tables/{table}/watch") as ws:
        async for message in ws:
            data = json.loads(message.data)
            if data["type"] == "rules":
                told.append(data)
    return told


def test_a_spectator_of_a_beijing_table_another_process_played_is_told_its_wild_tiles_too(
    start_lobby: Any, postgres_server: str
) -> None:
    database = fresh_postgres_database(postgres_server)
    owner = start_lobby(database, "--name", "a")
    status, answer = owner.call("POST", "/api/tables", {"rules": "beijing", "robots": 4, "level": 1})
    assert status == 201
    owner.wait_for(answer["table"], lambda t: t["status"] == "finished")
    other = start_lobby(database, "--name", "b")
    told = [{"type": "rules", "wild_of": wild_tiles(BEIJING)}]
    assert asyncio.run(_told(other.url, answer["table"])) == told
    assert asyncio.run(_told(owner.url, answer["table"])) == told


def test_each_replay_frame_of_a_beijing_hand_names_the_indicator_and_its_wild_once_turned_up(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        game = store.game(recorded_game(store, "beijing", {}, 43)[1])
        assert game is not None
        for hand in store.hands(game.id):
            frames = replayer.hand_frames(store, game, hand.number)["frames"]
            turned = next(i for i, f in enumerate(frames) if isinstance(C.decode(f["line"]), C.WildIndicator))
            indicator = C.decode(frames[turned]["line"])
            assert isinstance(indicator, C.WildIndicator)
            assert all(f["indicator"] is None and f["wild"] is None for f in frames[:turned])
            wild = BEIJING.wild_of(indicator.tile)
            assert wild is not None
            for frame in frames[turned:]:
                assert (frame["indicator"], frame["wild"]) == (tiles.code(indicator.tile), tiles.code(wild))
    finally:
        store.close()


def _json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def test_the_watch_and_replay_pages_show_the_indicator_and_mark_every_wild_tile(
    start_lobby: Any, browser: Any, tmp_path: Path, artifacts: Path
) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    status, answer = lobby.call("POST", "/api/tables", {"rules": "beijing", "robots": 4, "level": 1})
    assert status == 201
    table = answer["table"]
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    try:
        tab = context.new_page()
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(f"{lobby.url}watch?table={table}")
        tab.locator("#board .wilds", has_text="is wild").wait_for(timeout=60_000)
        indicator, wild = _named(tab.locator("#board .wilds").inner_text())
        assert wild == beijing_wild(indicator)
        marked = tab.locator("#board .seat mark.wild").all_inner_texts()
        assert all(text == wild for text in marked)
        tab.screenshot(path=artifacts / "lobby-beijing-watch.png")
        game = _json(f"{lobby.url}api/tables/{table}")["game"]
        deadline = time.monotonic() + 240
        while not [h for h in _json(f"{lobby.url}api/games/{game}")["hands"] if h["settlement"] is not None]:
            assert time.monotonic() < deadline, "no hand was played to its end"
            time.sleep(0.5)
        tab.goto(f"{lobby.url}replay?game={game}")
        tab.locator("#board .seat").nth(3).wait_for()
        assert tab.locator("#wilds").inner_text() == ""  # the deal: nothing turned up yet
        tab.locator("#slider").evaluate("(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); }")
        indicator, wild = _named(tab.locator("#wilds .wilds").inner_text())
        assert wild == beijing_wild(indicator)
        hands = " ".join(tab.locator("#board .seat").all_inner_texts()).split()
        marked = tab.locator("#board .seat mark.wild").all_inner_texts()
        assert marked == [code for code in hands if code == wild]  # every wild in view, and nothing else
        tab.screenshot(path=artifacts / "lobby-beijing-replay.png")
    finally:
        context.close()
    assert not errors, f"script errors in the pages: {errors}"


def _named(line: str) -> tuple[str, str]:
    """(indicator, wild) from the pages' line "Wild indicator GD: WD is wild"."""
    words = line.replace(":", "").split()
    assert words[:2] == ["Wild", "indicator"] and words[-2:] == [words[-2], "wild"], line
    return words[2], words[3]


def beijing_wild(indicator: str) -> str:
    return wild_tiles(BEIJING)[indicator]
