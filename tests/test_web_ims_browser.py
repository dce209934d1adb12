"""A whole IMS game in Chromium through ``xmj --rules ims``: the seed's buttons, its scoring window.

The person answers every dialog by its default button (a double click discards in
turn), as a newcomer would; the robots play IMS through mj's protocol extension.
Screenshots go to ``test-artifacts/web/``.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from conftest import resize
from test_web import running_xmj

#: The seed's names of the bids and moves, as buttons.
IMS_BUTTONS = {"Draw", "Pass", "Connect Lower", "Connect Middle", "Connect Upper", "Triplet", "Quadruplet",
               "MahJong", "Discard"}  # fmt: skip
#: The manual's names for Chinese Classical, which an IMS table never shows.
CLASSICAL_BUTTONS = {"No claim", "Chow", "Pung", "Kong", "Mah Jong!", "Calling", "Declare"}


def test_a_whole_ims_game_in_the_browser_by_default_buttons_and_double_clicks(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    options = tmp_path / "one-round.opt"
    options.write_text("GameOption 0 NumRounds nat 0 1 1 number of rounds to play\n")
    seen: set[str] = set()
    scoring_shots = 0
    with running_xmj(
        "--timeout", "0", "--seed", "4", "--option-file", str(options), name="Ims",
        options=("--rules", "ims", "--level", "1"),
    ) as xmj:  # fmt: skip
        page.goto(xmj.page)
        deadline = time.monotonic() + 500
        while not page.locator("#round-info", has_text="Game over").count():
            assert time.monotonic() < deadline, "the game did not end"
            with contextlib.suppress(PlaywrightError):  # the page changed under the pointer: look again
                panel = page.locator("#panels .panel")
                if panel.count():
                    if panel.locator("table.figures").count() and scoring_shots < 3:
                        scoring_shots += 1
                        page.screenshot(path=artifacts / f"ims-scoring-{scoring_shots}.png")
                    page.keyboard.press("Escape")
                    continue
                box = page.locator(".action")
                if box.count():
                    seen.update(box.locator("button").all_inner_texts())
                    if box.get_attribute("data-kind", timeout=500) == "turn":
                        page.locator("button.tile.mine[aria-pressed=true]").dblclick(timeout=1000)
                    else:
                        box.locator("button.default:not(:disabled)").click(timeout=1000)
            page.wait_for_timeout(30)
        page.wait_for_timeout(300)
        page.screenshot(path=artifacts / "ims-game-over.png")
        scores = page.locator(".label .score").all_inner_texts()
    labels = {label.split("\n")[0].strip() for label in seen}
    assert {"Discard", "Quadruplet", "MahJong", "Pass"} <= labels, labels
    assert not labels & CLASSICAL_BUTTONS, labels
    assert scoring_shots, "no hand was won: the IMS scoring window never showed"
    assert len(scores) == 4 and sum(int(s) for s in scores) == 0


def state_frames(page: Any) -> list[dict[str, Any]]:
    """The ``state`` frames the page will receive on its WebSockets, appended as they come."""
    states: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            data = json.loads(payload)
            if data.get("type") == "state":
                states.append(data)

        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    return states


def open_new_game_panel(page: Any, url: str) -> Any:
    """The page at ``url`` once its game has begun, with Game > New game opened and leaving it confirmed."""
    page.goto(url)
    page.locator(".action").wait_for()
    page.keyboard.press("Alt+g")
    page.keyboard.press("n")
    page.locator("#panel-confirm").get_by_role("button", name="Leave and start").click()
    return page.locator("#panel-newgame")


def test_new_local_game_offers_the_rule_systems_and_starts_ims_with_its_table_options(page: Any) -> None:
    states = state_frames(page)
    with running_xmj("--timeout", "0", "--seed", "3", name="Panel", options=("--level", "1")) as xmj:
        panel = open_new_game_panel(page, xmj.page)
        rules = page.locator("#side-info").get_by_text(re.compile("^Rules: "))
        assert rules.inner_text() == "Rules: Chinese Classical"
        assert not panel.locator(".table-options").is_visible()  # classical: the panel as before
        panel.locator("select[name=rules]").select_option("ims")
        panel.locator("input[name=opt-CountFlowers]").uncheck()
        panel.locator("input[name=opt-MinimumFan]").fill("2")
        panel.get_by_role("button", name="Start Game").click()
        page.locator(".action[data-kind=ready] button").click()
        page.locator("#side-info").get_by_text("Rules: IMS (Internet MahJong Server)").wait_for(timeout=30_000)
        page.locator("button.tile.mine").first.wait_for(timeout=30_000)  # dealt, whoever deals (drawn at random)
        options = {o["name"]: o["value"] for o in states[-1]["options"]}
        assert rules.inner_text() == "Rules: IMS (Internet MahJong Server)"  # Game info says which rules are played
    assert options["MinimumFan"] == 2
    assert options["CountFlowers"] is False
    assert "MultipleWins" in options and "Flowers" not in options


#: Records, on the page, the most claim announcements one player had on the table at once.
WATCH_ANNOUNCEMENTS = """() => {
  window.mostAnnouncements = 0;
  new MutationObserver(() => {
    const per = {};
    for (const bubble of document.querySelectorAll('#announcements .announce')) {
      per[bubble.dataset.player] = (per[bubble.dataset.player] || 0) + 1;
      window.mostAnnouncements = Math.max(window.mostAnnouncements, per[bubble.dataset.player]);
    }
  }).observe(document.getElementById('announcements'), { childList: true });
}"""


def play_the_first_hand(page: Any) -> None:
    """From the page's Ready to the first hand's scoring window, answering every dialog by its default button
    (a double click discards in turn)."""
    page.locator(".action[data-kind=ready]").click()
    deadline = time.monotonic() + 60
    while not page.locator("#panels .panel table.figures").count():
        assert time.monotonic() < deadline, "the first hand did not end"
        with contextlib.suppress(PlaywrightError):  # the page changed under the pointer: look again
            box = page.locator(".action")
            if box.get_attribute("data-kind", timeout=500) == "turn":
                page.locator("button.tile.mine[aria-pressed=true]").dblclick(timeout=1000)
            else:
                box.locator("button.default:not(:disabled)").click(timeout=1000)
        page.wait_for_timeout(30)


def test_a_player_s_new_bid_replaces_its_announcement_rather_than_piling_on_it(page: Any) -> None:
    """Robots bid on discards less than the two seconds an announcement stays apart: each bid shows alone
    over its bidder (piled up, the older words stuck out around the newer ones)."""
    with running_xmj("--timeout", "0", "--seed", "4", name="Ims", options=("--rules", "ims", "--level", "1")) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        page.evaluate(WATCH_ANNOUNCEMENTS)
        play_the_first_hand(page)
        bids = [line for line in page.locator("#side-messages .line").all_inner_texts() if " bids " in line]
        assert len(bids) >= 2, bids  # the hand had bids to announce
        assert page.evaluate("window.mostAnnouncements") == 1


def test_the_scoring_window_says_how_fan_and_bonus_make_the_score_and_who_pays_it(page: Any, artifacts: Path) -> None:
    """Fan 0, bonus 1, score 2, and the discarder paying twice what the others pay: the window says why."""
    with running_xmj("--timeout", "0", "--seed", "4", name="Ims", options=("--rules", "ims", "--level", "1")) as xmj:
        page.goto(xmj.page)
        play_the_first_hand(page)
        rule = page.locator("#panel-scoring .score-rule")
        assert rule.inner_text().startswith("Score = 2^fan + bonus (fan² + bonus from 4 fan).")
        assert "its discarder pays the score, the other two the bonus" in rule.inner_text()
        page.screenshot(path=artifacts / "ims-scoring-rule.png")


def test_help_s_keys_name_no_button_the_ims_table_lacks(page: Any) -> None:
    """The underlined letters' example is a button every rule system has: an IMS player looking for
    "Calling" or "Kong" would find neither on the table."""
    with running_xmj("--timeout", "0", "--seed", "4", name="Ims", options=("--rules", "ims", "--level", "1")) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        page.keyboard.press("Alt+h")
        page.keyboard.press("k")
        text = page.get_by_role("dialog", name="Keys and mouse").inner_text()
        assert "press that button of the dialog (Discard: d, ...)" in text
        assert not {word for word in CLASSICAL_BUTTONS if word in text}


@pytest.mark.parametrize(
    ("rules", "offered"),
    [
        ("ims", ["pass on discards I cannot claim"]),
        ("beijing", ["pass on discards I cannot claim"]),
        ("classical", ["flowers and seasons", "losing hands", "winning hands", "pass on discards I cannot claim"]),
    ],
)
def test_playing_preferences_offer_only_what_the_table_s_rules_let_the_client_do(
    page: Any, artifacts: Path, rules: str, offered: list[str]
) -> None:
    """IMS and Beijing have no declaring phase after a win and reveal flowers themselves: declaring losing
    or winning hands, or flowers, automatically means nothing there, so only passing is offered."""
    with running_xmj("--timeout", "0", "--seed", "4", name="Prefs", options=("--rules", rules, "--level", "1")) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        page.keyboard.press("Alt+o")
        page.keyboard.press("p")
        panel = page.locator("#panel-playing")
        assert [label.strip() for label in panel.locator("label").all_inner_texts()] == offered
        assert panel.get_by_text("Declare automatically:").count() == (rules == "classical")
        for width, height in ((800, 600), (1920, 1080)):
            resize(page, width, height)
            page.screenshot(path=artifacts / f"playing-prefs-{rules}-{width}x{height}.png")
        panel.locator("input[name=autoPass]").uncheck()
        panel.get_by_role("button", name="Save & Apply").click()
        stored = page.evaluate("() => JSON.parse(localStorage.getItem('xmj.prefs'))")
    assert stored["autoPass"] is False


def test_the_winner_s_announcement_is_taken_off_the_table_when_the_next_hand_begins(page: Any) -> None:
    """Ready pressed at once after a win: the next hand begins well within the two seconds an announcement
    stays, and the winner's "MahJong!" must not hang over the new deal."""
    with running_xmj("--timeout", "0", "--seed", "4", name="Ims", options=("--rules", "ims", "--level", "1")) as xmj:
        page.goto(xmj.page)
        play_the_first_hand(page)
        page.keyboard.press("Escape")
        page.locator(".action[data-kind=ready]").click()
        page.locator("#round-info .hand-no", has_text="Hand 2").wait_for(timeout=10_000)
        left = page.locator("#announcements .announce").all_inner_texts()
    assert "MahJong!" not in left, left
