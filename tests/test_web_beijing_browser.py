"""A whole Beijing game in Chromium through ``xmj --rules beijing``: the indicator, the wilds, the seed's calls.

The person answers every dialog by its default button, calls [Hu] whenever it is
offered, and discards by double-clicking the preselected tile, as a newcomer would; the
robots play Beijing over the network through mj's protocol extension. At every step
the page must show the wild indicator and mark every wild tile, and nothing else.
Screenshots at 1920x1080 and 800x600 go to ``test-artifacts/web/beijing-*.png``.
"""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from conftest import resize
from mj.replay import read_entries, replay
from test_web import running_xmj
from test_web_beijing import save_a_beijing_game
from test_web_ims_browser import open_new_game_panel, play_the_first_hand, state_frames

#: The seed's calls and the other moves, as buttons.
BEIJING_BUTTONS = {"Pass", "Chow Lower", "Chow Middle", "Chow Upper", "Pung", "Kong", "Hu", "Discard"}
#: The manual's and IMS's names, which a Beijing table never shows.
OTHER_BUTTONS = {"No claim", "Chow", "Mah Jong!", "Calling", "Declare", "Draw", "Triplet", "Quadruplet", "MahJong"}
SIZES = {"large": (1920, 1080), "small": (800, 600)}

#: The wild tile named beside the indicator (null: none shown), and every tile on the page with its code and
#: whether it carries a mark, read at one moment.
MARKS_JS = """() => {
  const wild = document.querySelector('#wild-indicator .tile.wild');
  const all = [...document.querySelectorAll('.tile[data-tile]')];
  return [wild ? wild.dataset.tile : null, all.map((t) => [t.dataset.tile, t.classList.contains('marked')])];
}"""


#: The window the ``page`` fixture (conftest) opens for this module.
VIEWPORT = (1920, 1080)


def shoot(page: Any, artifacts: Path, name: str) -> None:
    """Screenshots at both sizes; the indicator is in sight at each."""
    for size, (width, height) in SIZES.items():
        resize(page, width, height)
        indicator = page.locator("#wild-indicator")
        if indicator.count():
            box = indicator.bounding_box()
            assert box is not None and box["x"] >= 0 and box["y"] >= 0, f"{name} {size}: the indicator is off the page"
            assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, name
        page.screenshot(path=artifacts / f"beijing-{name}-{size}.png")
    page.set_viewport_size({"width": 1920, "height": 1080})


def check_marks(page: Any) -> str | None:
    """The wild tile named beside the indicator, after checking that exactly the tiles of that code are marked."""
    wild, on_page = page.evaluate(MARKS_JS)
    wrong = [code for code, marked in on_page if marked != (code == wild)]
    assert not wrong, f"marks wrong for {wrong} (wild {wild})"
    return str(wild) if wild is not None else None


def test_a_whole_beijing_game_in_the_browser_shows_the_indicator_marks_the_wilds_and_names_the_calls(
    page: Any, artifacts: Path, tmp_path: Path
) -> None:
    seen: set[str] = set()
    wilds_held = 0
    scorings = 0
    shots: set[str] = set()
    with running_xmj(
        "--timeout", "0", "--seed", "4", "--logfile", str(tmp_path / "game.log"), name="Bei",
        options=("--rules", "beijing", "--level", "1"),
    ) as xmj:  # fmt: skip
        page.goto(xmj.page)
        deadline = time.monotonic() + 540
        while not page.locator("#round-info", has_text="Game over").count():
            assert time.monotonic() < deadline, "the game did not end"
            with contextlib.suppress(PlaywrightError):  # the page changed under the pointer: look again
                wild = check_marks(page)
                panel = page.locator("#panels .panel")
                if panel.count():
                    if panel.locator("table.payers").count():
                        scorings += 1
                        if "scoring" not in shots:
                            shots.add("scoring")
                            shoot(page, artifacts, "scoring")
                    page.keyboard.press("Escape")
                    continue
                box = page.locator(".action")
                if box.count():
                    seen.update(box.locator("button").all_inner_texts())
                    if wild is not None and page.locator(f"button.tile.mine[data-tile='{wild}']").count():
                        wilds_held += 1
                        if "wild-held" not in shots:
                            shots.add("wild-held")
                            shoot(page, artifacts, "wild-held")
                    if "chows" not in shots and box.locator("button", has_text="Chow Lower").count():
                        shots.add("chows")  # the widest dialog: seven buttons
                        shoot(page, artifacts, "chows")
                    hu = box.locator("button:not(:disabled)", has_text="Hu")
                    if hu.count():
                        hu.first.click(timeout=1000)
                    elif box.get_attribute("data-kind", timeout=500) == "turn":
                        page.locator("button.tile.mine[aria-pressed=true]").dblclick(timeout=1000)
                    else:
                        box.locator("button.default:not(:disabled)").click(timeout=1000)
            page.wait_for_timeout(30)
        page.wait_for_timeout(300)
        shoot(page, artifacts, "game-over")
        scores = page.locator(".label .score").all_inner_texts()
    labels = {label.split("\n")[0].strip() for label in seen}
    assert {"Discard", "Pass", "Hu"} <= labels, labels
    assert labels <= BEIJING_BUTTONS | {"Ready"}, labels - BEIJING_BUTTONS
    assert not labels & OTHER_BUTTONS, labels
    assert wilds_held, "the person never held a wild tile: the marks in the hand were not seen"
    assert scorings, "no hand was won: the scoring window with each payer's doubles never showed"
    assert len(scores) == 4 and sum(int(s) for s in scores) == 0
    # the server's log of the game, the person's moves through the browser included, replays identically
    result = replay(read_entries(tmp_path / "game.log"))
    assert result.mismatch is None, result.mismatch
    assert result.hands >= 4


def test_new_local_game_starts_beijing_with_the_table_options_chosen_in_the_panel(page: Any, artifacts: Path) -> None:
    states = state_frames(page)
    with running_xmj("--timeout", "0", "--seed", "3", name="Panel", options=("--level", "1")) as xmj:
        panel = open_new_game_panel(page, xmj.page)
        panel.locator("select[name=rules]").select_option("beijing")
        panel.locator("input[name=opt-Unit]").fill("2")
        panel.locator("input[name=opt-VoidSuit]").check()
        panel.locator("input[name=opt-WallEnd]").fill("2")
        for size, (width, height) in SIZES.items():
            resize(page, width, height)
            page.screenshot(path=artifacts / f"beijing-new-game-{size}.png")
        start = panel.get_by_role("button", name="Start Game")
        start.scroll_into_view_if_needed()
        start.click()
        page.locator(".action[data-kind=ready] button").click()
        page.locator("#wild-indicator").wait_for(timeout=30_000)
        assert page.locator("#side-info").get_by_text(re.compile("^Rules: ")).inner_text() == "Rules: Beijing"
        options = {o["name"]: o["value"] for o in states[-1]["options"]}
    assert (options["Unit"], options["VoidSuit"], options["WallEnd"]) == (2, True, 2)
    assert options["AtMostOnce"] is False and "Flowers" not in options


def test_resume_game_offers_the_rule_systems_and_resumes_a_saved_beijing_game(page: Any, tmp_path: Path) -> None:
    save_a_beijing_game(tmp_path)
    with running_xmj("--timeout", "0", cwd=tmp_path, name="Alice", options=("--level", "1")) as xmj:
        page.goto(xmj.page)
        page.locator(".action").wait_for()
        page.keyboard.press("Alt+g")
        page.keyboard.press("r")
        page.locator("#panel-confirm").get_by_role("button", name="Leave and resume").click()
        panel = page.locator("#panel-resume")
        panel.locator("input[name=file]").fill("beijing.mjs")
        assert not panel.locator(".table-options").is_visible()  # the saved game has its own options
        panel.locator("select[name=rules]").select_option("beijing")
        panel.get_by_role("button", name="Resume Game").click()
        page.locator("#wild-indicator").wait_for(timeout=30_000)


def test_a_wild_tile_is_thrown_away_only_by_the_button_and_the_dead_hand_is_said_after(
    page: Any, artifacts: Path
) -> None:
    with running_xmj(
        "--timeout", "0", "--seed", "4", name="Bei", options=("--rules", "beijing", "--level", "1")
    ) as xmj:  # fmt: skip
        page.goto(xmj.page)
        deadline = time.monotonic() + 240
        warned = page.locator(".action[data-kind=turn] .text", has_text="Throwing away a wild tile")
        while not warned.count():  # every dialog answered by its default until we hold a wild in our turn
            assert time.monotonic() < deadline, "no wild tile came to our hand"
            with contextlib.suppress(PlaywrightError):
                if page.locator("#panels .panel").count():
                    page.keyboard.press("Escape")
                elif page.locator(".action").count() and not warned.count():
                    page.locator(".action button.default:not(:disabled)").click(timeout=500)
            page.wait_for_timeout(50)
        wild = page.locator("#wild-indicator .tile.wild").get_attribute("data-tile")
        # the tile named in words, as the indicator names it (and every tile on the page), not by its code
        named = page.locator("#wild-indicator .tile.wild").get_attribute("aria-label")
        assert warned.inner_text() == f"Throwing away a wild tile ({named}) loses your right to win this hand."
        held = page.locator("button.tile.mine").count()
        page.locator(f"button.tile.mine[data-tile='{wild}']").first.dblclick()
        why = page.locator(".action .why")
        assert why.inner_text().startswith("A double click does not throw away") and "press Discard" in why.inner_text()
        assert page.locator("button.tile.mine").count() == held  # nothing thrown away
        shoot(page, artifacts, "wild-double-click")
        page.get_by_role("button", name="Discard", exact=True).click()  # the wild is selected: the button throws it
        page.locator(".label.me .flag", has_text="cannot win").wait_for()
        shoot(page, artifacts, "dead-hand")


def test_the_scoring_window_says_how_each_payer_s_doubles_make_what_it_owes(page: Any, artifacts: Path) -> None:
    """A payer with one double owes 2, one with two owes 4, the score is 8: the window says why."""
    page.set_viewport_size({"width": 800, "height": 600})
    with running_xmj(
        "--timeout", "0", "--seed", "4", name="Bei", options=("--rules", "beijing", "--level", "1")
    ) as xmj:  # fmt: skip
        page.goto(xmj.page)
        play_the_first_hand(page)
        rule = page.locator("#panel-scoring .score-rule")
        assert rule.inner_text().startswith("Each payer owes the unit doubled once for each of its doubles")
        assert rule.inner_text().endswith("The score is what the winner receives in all.")
        page.screenshot(path=artifacts / "beijing-scoring-rule-small.png")
