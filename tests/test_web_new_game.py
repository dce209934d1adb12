"""Starting a new local game from the page keeps the game in hand until the new one has started.

"New local game..." and "Resume game..." start our server and robots for the new game
while the person is still seated in the old one: only once the new game has started is
the old one left and its processes ended. A start that fails (a Beijing game under an
``xmj`` given a classical ``--wallfile``) leaves the person in the old game, which goes
on, with the reason said in one line. The page blocks the old game's dialogs while the
start is under way: a press then could not be meant for either game.

Spoken to as a browser does (the helpers of tests/test_web.py), then driven in Chromium
through what is drawn. Screenshots go to ``test-artifacts/web/``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from procs import children_of
from test_web import Browser, Xmj, browser_tab, run, running_xmj
from test_web_browser import winning_wall

#: Quick robots (the default level 3 thinks longer).
LEVEL_1 = ("--level", "1")
#: A Beijing wall has 136 tiles: a classical wall file (144) makes its server refuse to start.
BEIJING_REFUSED = "wall file has 144 tiles, the wall needs 136"


def wait_for(test: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.1)
    return False


def classical_wall(tmp_path: Path) -> Path:
    """A classical wall file, shuffled (the robots are not dealt kongs)."""
    return winning_wall(tmp_path / "wall.txt", shuffle=5)


async def our_discard(tab: Browser) -> None:
    """Play on in the game in hand until the person has discarded a tile in it."""
    state = await tab.until(lambda s: s["game"]["started"] and bool(s["players"]))
    me = state["me"]

    def discards(snapshot: dict[str, Any]) -> int:
        return len(next(p for p in snapshot["players"] if p["id"] == me)["discards"])

    before = discards(state)
    await tab.play_until(lambda s: discards(s) > before, timeout=60)


# ------------------------------------------------------------------ the gateway


def test_a_new_game_that_cannot_start_leaves_the_game_in_hand_playing_and_no_process_behind(tmp_path: Path) -> None:
    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            await tab.send({"type": "new_game", "rules": "beijing", "name": "Again"})
            while True:  # the game in hand goes on meanwhile: its snapshots come before the answer
                message = await tab.receive(timeout=30)
                assert message["type"] != "welcome", "the page was moved to a game that did not start"
                if message["type"] == "error":
                    break
            assert message.get("request") == "new_game", message
            assert BEIJING_REFUSED in message["message"], message
            assert "\n" not in message["message"]
            assert tab.state is not None and tab.state["connection"]["status"] == "connected"
            await our_discard(tab)  # still playable

    with running_xmj("--timeout", "0", "--wallfile", str(classical_wall(tmp_path)), options=LEVEL_1) as xmj:
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4), "precondition: server and robots"
        before = sorted(children_of(xmj.process.pid))
        run(scenario(xmj))
        assert sorted(children_of(xmj.process.pid)) == before, "the failed start left a process, or ended the game"


def test_a_new_game_that_starts_ends_the_game_it_replaces_and_its_processes() -> None:
    async def scenario(xmj: Xmj) -> str:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            await tab.receive()  # the welcome of the hello
            await tab.send({"type": "new_game", "name": "Again", "level": 1, "timeout": 0})
            await tab.send({"type": "chat", "text": "sent while it starts"})  # for neither game: refused
            refused = []
            while True:
                message = await tab.receive(timeout=30)
                if message["type"] == "error":
                    refused.append(message)
                if message["type"] == "welcome":
                    break
            said = [(m.get("request"), m["message"].split(":")[0]) for m in refused]
            assert said == [("chat", "a new game is starting")], refused
            token = message["token"]
            assert token and token != xmj.token
            tab.state = None  # the snapshots of the new game from here
            state = await tab.until(lambda s: s["game"]["started"])
            assert state["connection"]["name"] == "Again"
            return str(token)

    with running_xmj("--timeout", "0", options=LEVEL_1) as xmj:
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4), "precondition: server and robots"
        old = set(children_of(xmj.process.pid))
        run(scenario(xmj))
        assert wait_for(lambda: not old & set(children_of(xmj.process.pid))), "the old game's processes run on"
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4), "the new game's server and robots"


def test_a_new_game_whose_page_went_away_while_it_started_is_ended_and_the_game_in_hand_kept() -> None:
    async def ask_and_go(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            await tab.send({"type": "new_game", "name": "Gone", "level": 1})
        # the page came back (a reload) with the token of the game in hand
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.receive()
            assert tab.welcome is not None and tab.welcome["token"] == xmj.token
            await our_discard(tab)

    with running_xmj("--timeout", "0", options=LEVEL_1) as xmj:
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4), "precondition: server and robots"
        before = sorted(children_of(xmj.process.pid))
        run(ask_and_go(xmj))
        assert wait_for(lambda: sorted(children_of(xmj.process.pid)) == before), "the unwanted game runs on"


# ------------------------------------------------------------------ in the browser


class HeldStart:
    """The page's socket, routed: a request for another game (new, resumed, joined) is held back until
    :meth:`release`, and every message the page sends is kept, so that what it sent while the start was
    under way can be seen."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        self._held: list[str] = []
        self._server: Any = None
        page.route_web_socket(re.compile(r"/ws$"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self._server = server

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            self.sent.append(data)
            if data.get("type") in ("new_game", "resume", "join"):
                self._held.append(str(message))
            else:
                server.send(message)

        ws.on_message(from_page)

    def holding(self) -> bool:
        return bool(self._held)

    def release(self) -> None:
        for message in self._held:
            self._server.send(message)
        self._held.clear()

    def acts(self) -> int:
        return sum(1 for m in self.sent if m.get("type") == "act")


def open_new_game(page: Any) -> Any:
    """Game > New local game, leaving the game in hand confirmed: the panel."""
    page.keyboard.press("Alt+g")
    page.keyboard.press("n")
    page.locator("#panel-confirm").get_by_role("button", name="Leave and start").click()
    panel = page.locator("#panel-newgame")
    panel.wait_for()
    return panel


def shoot(page: Any, artifacts: Path, name: str) -> None:
    """Screenshots at 800x600 and 1920x1080, then back to the test's own size."""
    for width, height in ((800, 600), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        page.screenshot(path=artifacts / f"{name}-{width}x{height}.png")
    page.set_viewport_size({"width": 1400, "height": 900})
    page.wait_for_timeout(100)


def blocked_while_starting(page: Any, held: HeldStart, saying: str = "Starting a new game") -> None:
    """The page says another game is starting (``saying``), and the old game's dialog takes no click and no key."""
    starting = page.locator("#starting")
    starting.wait_for()
    assert saying in starting.inner_text()
    assert held.holding(), "precondition: the request has not reached the gateway"
    buttons = page.locator(".action button")
    assert buttons.count() and all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
    acts = held.acts()
    box = buttons.first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.press("Enter")
    page.keyboard.press("Alt+g")
    page.wait_for_timeout(200)
    assert held.acts() == acts, "a move of the old game was sent while the new one started"
    assert not page.locator(".menu ul.open").count(), "the menus opened while the new one started"


def plays_on(page: Any, name: str) -> None:
    """The game in hand goes on after a failed start: ``name``'s seat says Ready, then discards by double click."""
    assert page.locator(".label.rel0 .name").inner_text() == name
    page.locator(".action[data-kind=ready] button[data-id=ready]").click()
    page.locator(".action[data-kind=turn]").wait_for(timeout=20_000)
    page.locator("button.tile.mine").last.dblclick()
    page.locator(".discards.rel0 .tile").first.wait_for(timeout=5000)


def test_a_failed_new_game_returns_the_page_to_the_game_in_hand_which_is_still_played(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    held = HeldStart(page)
    with running_xmj(
        "--timeout", "0", "--wallfile", str(classical_wall(tmp_path)), name="Kept", options=LEVEL_1
    ) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        panel = open_new_game(page)
        panel.locator("select[name=rules]").select_option("beijing")
        panel.get_by_role("button", name="Start Game").click()
        blocked_while_starting(page, held)
        shoot(page, artifacts, "new-game-starting")
        held.release()
        failed = page.locator("#start-failed")
        failed.wait_for()
        assert page.locator("#starting").is_hidden()
        said = failed.locator(".text").inner_text()
        assert BEIJING_REFUSED in said and said.endswith("Your game goes on."), said
        assert "\n" not in said
        shoot(page, artifacts, "new-game-failed")
        plays_on(page, "Kept")
        assert failed.is_visible(), "the reason stays until dismissed"
        failed.get_by_role("button", name="Dismiss").click()
        assert failed.is_hidden()
        before = sorted(children_of(xmj.process.pid))
        assert len(before) == 4, "the failed start left a process, or ended the game in hand"


def test_a_new_game_that_starts_replaces_the_game_in_hand_after_the_starting_notice(page: Any, artifacts: Path) -> None:
    held = HeldStart(page)
    with running_xmj("--timeout", "0", "--seed", "12", name="Old", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4)
        old = set(children_of(xmj.process.pid))
        panel = open_new_game(page)
        panel.locator("input[name=name]").fill("New")
        panel.get_by_role("button", name="Start Game").click()
        blocked_while_starting(page, held)
        held.release()
        page.locator(".label.rel0 .name", has_text="New").wait_for(timeout=30_000)
        assert page.locator("#starting").is_hidden() and page.locator("#start-failed").is_hidden()
        page.locator(".action[data-kind=ready] button[data-id=ready]").click()
        page.locator(".action[data-kind=turn]").wait_for(timeout=20_000)
        assert wait_for(lambda: not old & set(children_of(xmj.process.pid))), "the old game's processes run on"
        assert len(children_of(xmj.process.pid)) == 4
