"""The lobby in a real browser (Playwright, Debian's Chromium): two people register, create an IMS table with
its own options, sit at it with two robots, play a hand, and find it in their histories and in the replay viewer."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lobbyproc import Lobby

AUTOPLAY = """() => { window.autoplay = setInterval(() => {
    const close = document.querySelector('#panels .panel .buttons button');
    if (close) { close.click(); return; }
    const button = document.querySelector('.action button.default:not(:disabled)');
    if (button) button.click();
}, 20); }"""


@pytest.fixture
def people(browser: Any) -> Iterator[list[Any]]:
    """Two browser tabs with storage and cookies of their own, failing the test on any script error."""
    contexts = [browser.new_context(viewport={"width": 1300, "height": 900}) for _ in range(2)]
    errors: list[str] = []
    tabs = []
    for context in contexts:
        tab = context.new_page()
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tabs.append(tab)
    yield tabs
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the pages: {errors}"


def _register(tab: Any, url: str, name: str) -> None:
    tab.goto(url)
    tab.fill("#login-name", name)
    tab.fill("#login-password", f"{name} has a long password")
    tab.click("#register")
    tab.locator("#who", has_text=name).wait_for()
    assert not tab.locator("#login-form").is_visible() and tab.locator("#logout").is_visible()


def _choose_rules(tab: Any, name: str) -> None:
    tab.select_option("#rules", name)
    tab.locator("#opt-NumRounds").wait_for(state="attached")


def _screenshots(tab: Any, artifacts: Path, name: str) -> None:
    """The page as a player sees it on a small screen and a large one."""
    size = tab.viewport_size
    for width, height in ((800, 600), (1920, 1080)):
        tab.set_viewport_size({"width": width, "height": height})
        tab.screenshot(path=artifacts / f"{name}-{width}x{height}.png")
    tab.set_viewport_size(size)


#: A rule system the registry names but cannot play yet, as ``GET /api/rules`` describes one.
UNWRITTEN = {"name": "riichi", "available": False, "reason": "the riichi rules are not available yet", "options": []}


def test_the_new_table_form_offers_every_rule_system_with_its_own_options(
    start_lobby: Any, people: list[Any], tmp_path: Path, artifacts: Path
) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    tab = people[0]
    answer = _json(lobby.url + "api/rules")
    # every system the registry has is written by now: the page is also shown one that is not (as
    # the lobby describes it: tests/test_lobby_rules.py), by answering its question for it
    answer["systems"].append(UNWRITTEN)
    tab.route("**/api/rules", lambda route: route.fulfill(json=answer))
    tab.goto(lobby.url)
    systems = answer["systems"]
    assert {s["name"] for s in systems} >= {"classical", "ims", "riichi"}
    tab.locator("#rules option").nth(len(systems) - 1).wait_for(state="attached")  # the page asks for them
    offered = tab.locator("#rules option").all_inner_texts()
    assert offered == [s["name"] if s["available"] else f"{s['name']} (not available yet)" for s in systems]
    tab.locator("#options-box summary").click()
    for system in systems:
        tab.select_option("#rules", system["name"])
        fields = tab.locator("#rule-options [data-option]")
        assert [f.get_attribute("data-option") for f in fields.all()] == [o["name"] for o in system["options"]]
        create = tab.get_by_role("button", name="Create table")
        if system["available"]:
            assert create.is_enabled() and tab.locator("#rules-note").inner_text() == ""
        else:  # a system the registry knows but cannot play yet: said so, and nothing can be created
            assert create.is_disabled() and "not available yet" in tab.locator("#rules-note").inner_text()
            _screenshots(tab, artifacts, f"lobby-00-{system['name']}-not-available")
    _choose_rules(tab, "classical")
    tab.fill("#opt-NumRounds", "3")  # the form lets it through; the lobby refuses it in one line
    tab.get_by_role("button", name="Create table").click()
    tab.locator("#notice", has_text="Number of rounds must be 1, 2 or a multiple of 4").wait_for()
    assert _json(lobby.url + "api/tables") == []


def _json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def test_two_people_register_sit_with_two_robots_play_a_hand_and_find_it_in_history_and_replay(
    start_lobby: Any, people: list[Any], tmp_path: Path, artifacts: Path
) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    ann, bob = people
    _register(ann, lobby.url, "Ann")
    _register(bob, lobby.url, "Bob")
    ann.fill("#robots", "2")
    _choose_rules(ann, "ims")
    ann.locator("#options-box summary").click()
    ann.fill("#opt-NumRounds", "1")
    ann.check("#opt-MultipleWins")
    ann.locator("#options-changed", has_text="2 changed").wait_for()
    _screenshots(ann, artifacts, "lobby-01-ims-options")
    ann.get_by_role("button", name="Create table").click()
    ann.locator("#notice", has_text="created").wait_for()
    (table,) = _json(lobby.url + "api/tables")
    assert (table["rules"], table["options"]) == ("ims", {"MultipleWins": 1, "NumRounds": 1})
    for tab in (ann, bob):
        tab.goto(lobby.url)
        tab.locator("#tables tbody tr").first.get_by_role("button", name="Sit").click()
        tab.wait_for_url("**/play")
    for tab in (ann, bob):  # the game starts once both sit: each is asked to be ready
        tab.locator(".action").wait_for()
    _screenshots(bob, artifacts, "lobby-02-ims-table")
    seated = _json(f"{lobby.url}api/tables/{table['id']}")
    assert sorted(s["name"] for s in seated["seats"]) == ["Ann", "Bob", "Robot1", "Robot2"]
    for tab in (ann, bob):
        tab.evaluate(AUTOPLAY)
    deadline = time.monotonic() + 240
    game = seated["game"]
    while not [h for h in _json(f"{lobby.url}api/games/{game}")["hands"] if h["last_move"] is not None]:
        assert time.monotonic() < deadline, "no hand was played to its end"
        time.sleep(0.5)
    won = _json(f"{lobby.url}api/games/{game}")["hands"][0]["settlement"] is not None
    ann.screenshot(path=artifacts / "lobby-03-a-hand-played.png")
    for tab, name in ((ann, "Ann"), (bob, "Bob")):
        tab.evaluate("() => clearInterval(window.autoplay)")
        tab.goto(f"{lobby.url}player?name={name}")
        row = tab.locator("#history tbody tr").first
        row.wait_for()
        assert row.locator("td").first.inner_text() == str(game)
        row.get_by_role("link", name="Replay").click()
        tab.wait_for_url(f"**/replay?game={game}")
        tab.locator("#board .seat").nth(3).wait_for()
        first = tab.locator("#position").inner_text()
        assert first.startswith("hand 1 of ")
        tab.keyboard.press("ArrowRight")
        tab.keyboard.press("ArrowRight")
        assert tab.locator("#position").inner_text() != first
        tab.keyboard.press("ArrowLeft")
        tab.keyboard.press("ArrowLeft")
        assert tab.locator("#position").inner_text() == first
        tab.locator("#slider").evaluate("(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); }")
        assert ("Settlement" if won else "WashOut") in tab.locator("#line").inner_text()
        hands = tab.locator("#board .seat").all_inner_texts()
        assert len(hands) == 4 and all("Hand:" in text for text in hands)
        assert {"Ann", "Bob"} <= {text.split(" — ")[1] for text in hands}
    _screenshots(ann, artifacts, "lobby-04-replay")


def test_a_guest_whose_seat_a_robot_plays_while_she_is_away_finds_it_marked_and_returns_to_it(
    start_lobby: Any, people: list[Any], tmp_path: Path
) -> None:
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}", "--robot-delay", "0.05")
    ann, stranger = people
    table = lobby.call("POST", "/api/tables", {"robots": 3, "level": 1, "timer": 1})[1]["table"]
    ann.goto(lobby.url)
    ann.fill("#guest-name", "Ann")
    ann.locator("#tables tbody tr").first.get_by_role("button", name="Sit").click()
    ann.wait_for_url("**/play")
    ann.goto(lobby.url)  # she leaves her seat's page: after the 1 s timer a robot plays for her
    row = ann.locator("#tables tbody tr").first
    row.locator("td", has_text="Ann (away: a robot plays)").wait_for()
    stranger.goto(lobby.url)  # the same listing, to somebody else: no way into her seat
    stranger.fill("#guest-name", "Bob")
    stranger.locator("#tables tbody tr td", has_text="Ann (away: a robot plays)").wait_for()
    assert stranger.locator("#tables tbody tr").first.get_by_role("button", name="Return").count() == 0
    row.get_by_role("button", name="Return").click()
    ann.wait_for_url("**/play")
    ann.locator(".action").first.wait_for()  # her seat's page, playing
    seats = _json(f"{lobby.url}api/tables/{table}")["seats"]
    assert [(s["connected"], s["stand_in"]) for s in seats if s["name"] == "Ann"] == [(True, False)]
