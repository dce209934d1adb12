"""A person plays in Chromium: by keyboard only, by clicking, a whole game; screenshots of the main states.

Each test starts ``xmj --no-browser`` (our server, three of our robots, the
person's seat) and drives the page as a person would: keys and clicks on what
is drawn, never the gateway's messages. Screenshots go to
``test-artifacts/web/`` for people to look at.
"""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from conftest import resize
from mj import tiles
from test_web import running_xmj

#: Prefs for tests that make every decision themselves (nothing declared or passed automatically).
MANUAL = '{"autoFlowers": false, "autoLosing": false, "autoWinning": false, "autoPass": false}'

# East's 14 dealt tiles (wall indices 0-3, 16-19, 32-35, 48 and 52: §7.2) form a complete hand.
EAST_INDICES = (0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 52)
_EAST_HAND = ("1B", "2B", "3B", "4C", "5C", "6C", "7D", "8D", "9D", "RD", "RD", "RD", "EW", "EW")


def winning_wall(path: Path, shuffle: int | None = None) -> Path:
    """A wall file whose deal gives East (the person, who connects first) a complete hand."""
    return dealing_east(path, _EAST_HAND, shuffle)


def dealing_east(path: Path, hand: tuple[str, ...], shuffle: int | None = None) -> Path:
    """A wall file whose deal gives East (the person, who connects first) the 14 tiles ``hand``.

    The other tiles lie in order, unless shuffled with the seed ``shuffle`` (in order, the robots
    are dealt kongs and soon go out).
    """
    rest = tiles.full_set(True)
    for code in hand:
        rest.remove(tiles.parse(code))
    if shuffle is not None:
        random.Random(shuffle).shuffle(rest)
    wall: list[str] = []
    east = iter(hand)
    others = iter(rest)
    for index in range(tiles.wall_size(True)):
        wall.append(next(east) if index in EAST_INDICES else tiles.code(next(others)))
    path.write_text(" ".join(wall) + "\n")
    return path


def use_prefs(page: Any, prefs: str) -> None:
    page.context.add_init_script(f"localStorage.setItem('xmj.prefs', {prefs!r});")


def dialog_kind(page: Any, timeout: float = 15_000) -> str:
    """The kind of the action dialog once one is shown."""
    page.locator(".action").wait_for(timeout=timeout)
    return str(page.locator(".action").get_attribute("data-kind"))


def to_easts_first_turn(page: Any, url: str) -> None:
    """Open the table at ``url``; as East, say Ready and declare no flowers: the dialog of the first discard."""
    page.goto(url)
    assert dialog_kind(page) == "ready"
    page.keyboard.press("Enter")
    assert dialog_kind(page) == "declaring"
    page.keyboard.press("f")
    assert dialog_kind(page) == "turn"


def selected_tile(page: Any) -> str | None:
    selected = page.locator('button.tile.mine[aria-pressed="true"]')
    return selected.get_attribute("aria-label") if selected.count() else None


def test_a_person_plays_a_hand_by_keyboard_only_and_declares_the_winning_hand(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    wall = winning_wall(tmp_path / "wall.txt")
    with running_xmj("--timeout", "0", "--wallfile", str(wall), name="Keys") as xmj:
        use_prefs(page, MANUAL)
        page.goto(xmj.page)
        keyboard = page.keyboard
        assert dialog_kind(page) == "ready"
        assert page.get_by_role("button", name="Ready", exact=True).is_visible()
        page.screenshot(path=artifacts / "01-ready.png")
        keyboard.press("Enter")  # the default button
        assert dialog_kind(page) == "declaring"
        assert page.get_by_role("button", name="Finish", exact=True).is_enabled()
        keyboard.press("f")  # underlined letter: no flowers to declare
        assert dialog_kind(page) == "turn"
        page.screenshot(path=artifacts / "02-our-turn.png")
        # arrows move the selection, Shift-arrows move the tile itself
        first = page.locator("button.tile.mine").first.get_attribute("aria-label")
        while selected_tile(page) != first:
            keyboard.press("ArrowLeft")
        keyboard.press("Shift+ArrowRight")
        assert page.locator("button.tile.mine").nth(1).get_attribute("aria-label") == first
        keyboard.press("Shift+ArrowLeft")
        mah_jong = page.get_by_role("button", name="Mah Jong!", exact=True)
        assert mah_jong.is_enabled()
        keyboard.press("m")
        assert dialog_kind(page) == "winner"
        page.screenshot(path=artifacts / "03-declare-winning-hand.png")
        # select the red dragons with the arrows and declare them as a pung
        for _ in range(20):
            if selected_tile(page) == "Red Dragon":
                break
            keyboard.press("ArrowRight")
        assert selected_tile(page) == "Red Dragon"
        keyboard.press("p")
        page.wait_for_function("!document.querySelector('.action') || document.querySelectorAll('.set').length > 0")
        # the rest in the order the client suggests (Enter: the default button, on the preselected tile)
        deadline = time.monotonic() + 20
        while not page.locator("#panel-scoring").count():
            assert time.monotonic() < deadline, "no scoring window"
            if page.locator(".action[data-kind=winner]").count():
                keyboard.press("Enter")
            page.wait_for_timeout(50)
        scoring = page.locator("#panel-scoring")
        scoring.get_by_text("Settlement").wait_for()
        assert "Heaven's Blessing" in scoring.inner_text()
        page.screenshot(path=artifacts / "04-scoring.png")
        keyboard.press("Escape")
        assert dialog_kind(page) == "ready"
        page.screenshot(path=artifacts / "05-after-the-hand.png")


def test_a_person_plays_by_clicking_claims_a_discard_and_a_reload_rejoins(page: Any, artifacts: Path) -> None:
    with running_xmj("--timeout", "60", "--seed", "21", name="Clicks") as xmj:
        use_prefs(page, MANUAL)
        page.set_default_timeout(5000)
        page.goto(xmj.page)
        claimed = reloaded = False
        melds_before_reload = 0
        deadline = time.monotonic() + 240
        while True:
            assert time.monotonic() < deadline, "the person never claimed, rejoined and saw a scored hand"
            scoring = page.locator("#panel-scoring")
            if scoring.count():
                if reloaded:
                    page.screenshot(path=artifacts / "13-scoring-after-claim.png")
                    break
                scoring.get_by_role("button", name="Close", exact=True).click()
                continue
            own_sets = page.locator(".seat.rel0 .set").count()
            if claimed and not reloaded and own_sets and page.locator(".action[data-kind=turn]").count():
                # mid-hand, with our claimed set on the table: a reload puts us back in the same seat
                melds_before_reload = page.locator(".seat.rel0 .set").count()
                hand_before = page.locator("button.tile.mine").count()
                page.reload()
                assert dialog_kind(page) == "turn"
                assert page.locator(".label.rel0 .name").inner_text() == "Clicks"
                assert page.locator(".seat.rel0 .set").count() == melds_before_reload >= 1
                assert page.locator("button.tile.mine").count() == hand_before
                page.screenshot(path=artifacts / "12-after-reload.png")
                reloaded = True
            kind = dialog_kind(page, 30_000)
            box = page.locator(".action")
            try:
                claimed = click_through(page, box, kind, claimed, artifacts)
            except PlaywrightError:
                continue  # the dialog changed, or a window opened over it, while we were clicking
            page.wait_for_timeout(30)
        assert claimed and reloaded


def click_through(page: Any, box: Any, kind: str, claimed: bool, artifacts: Path) -> bool:
    """Answer one dialog with the mouse, as a person would; returns whether we have claimed a discard."""

    def button(name: str) -> Any:
        return box.get_by_role("button", name=name, exact=True)

    declare = button("Declare")
    if kind == "ready":
        button("Ready").click()
    elif kind == "declaring":
        (declare if declare.count() and declare.is_enabled() else button("Finish")).click()
    elif kind == "turn":
        if button("Mah Jong!").is_enabled():
            button("Mah Jong!").click()
        elif declare.count() and declare.is_enabled():
            declare.click()
        else:
            page.locator("button.tile.mine").last.click()  # select a tile, then Discard
            if not button("Discard").is_enabled():
                page.locator("button.tile.mine").first.click()
            button("Discard").click()
    elif kind == "claim":
        assert box.get_by_role("progressbar").count() == 1  # the claim timeout
        takes = [name for name in ("Pung", "Chow") if button(name).is_enabled()]
        if takes and page.locator(".seat.rel0 .set").count() == 0:  # until a claim of ours is granted
            page.screenshot(path=artifacts / "10-claim-dialog.png")
            button(takes[0]).click()
            with contextlib.suppress(PlaywrightError):
                page.locator(".announce").first.wait_for(timeout=3000)
                page.screenshot(path=artifacts / "11-claim-announced.png")
            return True
        else:
            button("No claim").click()
    elif kind == "chowpos":
        box.locator("button:not(:disabled)").first.click()
    elif kind in ("winner", "loser", "rob"):
        box.locator("button.default").click()
    return claimed


def test_a_whole_game_in_the_browser_pressing_the_default_button(page: Any, artifacts: Path) -> None:
    """Four rounds against three robots, the person always taking the default (shadowed) button."""
    with running_xmj("--timeout", "0", "--seed", "8", name="Auto") as xmj:
        page.goto(xmj.page)
        page.locator(".action").wait_for()
        started = time.monotonic()
        # a player who always accepts the default: close windows, press the shadowed button
        page.evaluate(
            """() => { window.autoplay = setInterval(() => {
                const close = document.querySelector('#panels .panel .buttons button');
                if (close) { close.click(); return; }
                const button = document.querySelector('.action button.default:not(:disabled)');
                if (button) button.click();
            }, 5); }"""
        )
        page.locator("#round-info", has_text="Game over").wait_for(timeout=400_000)
        duration = time.monotonic() - started
        page.evaluate("() => clearInterval(window.autoplay)")
        page.wait_for_timeout(300)
        page.screenshot(path=artifacts / "20-game-over.png")
        scores = page.locator(".label .score").all_inner_texts()
        assert len(scores) == 4 and sum(int(s) for s in scores) == 0
        # where the dialog was: the final scores, best first, the winner named, and how to play again
        result = page.locator(".action[data-kind=gameover]")
        ranked = [int(s) for s in result.locator(".ranking li .score").all_inner_texts()]
        assert sorted(ranked, reverse=True) == ranked == sorted((int(s) for s in scores), reverse=True)
        top = result.locator(".ranking li").first.get_attribute("data-player")
        best = page.locator(f".label[data-player='{top}'] .name").inner_text()
        verdict = result.locator(".text").inner_text()
        assert verdict.startswith(best) and verdict.endswith((" wins.", " share first place."))
        assert "Game ▸ New local game" in result.inner_text()
        info = page.locator("#side-info")
        assert "in a row" not in info.inner_text() and "Last hand:" in info.inner_text()
        for width, height in ((800, 600), (1920, 1080)):
            resize(page, width, height)
            page.screenshot(path=artifacts / f"20-game-over-{width}x{height}.png")
        print(f"\nwhole game in the browser: {duration:.1f} s")
        (artifacts / "whole-game-duration.txt").write_text(f"{duration:.1f} s\n")


#: The hand of the audit (s31) that was let declare calling: no discard leaves it ready.
FAR_FROM_READY = ("6B", "7B", "7B", "8B", "1C", "2C", "5C", "7C", "2D", "2D", "5D", "8D", "SW", "GD")


def test_calling_is_refused_with_its_reason_when_no_discard_leaves_the_hand_ready(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    wall = dealing_east(tmp_path / "wall.txt", FAR_FROM_READY)
    with running_xmj("--timeout", "0", "--wallfile", str(wall), name="Caller") as xmj:
        use_prefs(page, MANUAL)
        to_easts_first_turn(page, xmj.page)
        calling = page.get_by_role("button", name="Calling", exact=True)
        assert calling.is_visible() and calling.is_disabled()
        assert "no discard leaves your hand ready" in str(calling.get_attribute("title"))
        page.keyboard.press("c")  # its letter declares nothing: still our turn, nothing discarded
        page.wait_for_timeout(300)
        assert dialog_kind(page) == "turn" and page.locator("button.tile.mine").count() == 14
        page.screenshot(path=artifacts / "calling-refused.png")


def test_a_greyed_out_button_says_why_on_hover_on_its_key_and_on_a_click(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    wall = dealing_east(tmp_path / "wall.txt", FAR_FROM_READY)
    with running_xmj("--timeout", "0", "--wallfile", str(wall), name="Why") as xmj:
        use_prefs(page, MANUAL)
        to_easts_first_turn(page, xmj.page)
        kong = page.get_by_role("button", name="Kong", exact=True)
        mah_jong = page.get_by_role("button", name="Mah Jong!", exact=True)
        assert kong.is_disabled() and mah_jong.is_disabled()
        assert mah_jong.get_attribute("title") == "Mah Jong!: your hand is not complete"
        why = page.locator(".action .why")
        page.keyboard.press("k")
        assert why.inner_text() == "Kong: no four of a kind in your hand, and no tile of it to add to an exposed pung"
        mah_jong.click(force=True)  # as a person clicks it: nothing is sent, the reason is said
        assert why.inner_text() == "Mah Jong!: your hand is not complete"
        assert dialog_kind(page) == "turn" and page.locator("button.tile.mine").count() == 14
        for width, height in ((800, 600), (1920, 1080)):
            resize(page, width, height)
            page.screenshot(path=artifacts / f"disabled-says-why-{width}x{height}.png")


NOTICE = """() => {
  const board = document.getElementById('board');
  const notice = getComputedStyle(board, '::after');
  return { offline: board.classList.contains('offline'), text: notice.content, background: notice.backgroundColor,
           width: parseFloat(notice.width), board: board.getBoundingClientRect().width };
}"""


def test_a_lost_connection_is_said_in_a_box_of_its_own_and_greys_out_the_dialog(page: Any, artifacts: Path) -> None:
    with running_xmj("--timeout", "0", "--seed", "5", name="Lost") as xmj:
        use_prefs(page, MANUAL)
        page.goto(xmj.page)
        assert dialog_kind(page) == "ready"
        ready = page.get_by_role("button", name="Ready", exact=True)
        assert ready.is_enabled()
        xmj.process.terminate()  # xmj (the gateway) goes away: the page keeps trying to reconnect
        xmj.process.wait(timeout=20)
        page.wait_for_function("document.getElementById('board').classList.contains('offline')")
        notice = page.evaluate(NOTICE)
        assert "Connection lost" in notice["text"]
        # an opaque box over the round's text, not bare text on the dimmed table
        assert notice["background"].startswith("rgb(") and notice["width"] < notice["board"] * 0.9, notice
        assert ready.is_disabled() and "Not connected" in str(ready.get_attribute("title"))
        page.keyboard.press("Enter")
        assert "Not connected" in page.locator(".action .why").inner_text()
        for width, height in ((800, 600), (1920, 1080)):
            resize(page, width, height)
            page.screenshot(path=artifacts / f"connection-lost-{width}x{height}.png")


def test_a_local_game_is_called_so_not_by_its_socket_path(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "5", name="Here") as xmj:
        page.goto(xmj.page)
        assert dialog_kind(page) == "ready"
        assert page.locator("#title").inner_text() == "Here in a local game"
        info = page.locator("#side-info").inner_text()
        assert "Local game (connected)" in info and ".sock" not in info


def test_help_lists_the_keys_and_the_mouse_by_keyboard_alone(page: Any, tmp_path: Path, artifacts: Path) -> None:
    with running_xmj("--timeout", "0", "--seed", "3", name="Help") as xmj:
        page.goto(xmj.page)
        dialog_kind(page)
        page.keyboard.press("Alt+h")
        page.keyboard.press("k")
        panel = page.get_by_role("dialog", name="Keys and mouse")
        panel.wait_for()
        text = panel.inner_text()
        for needed in ("Enter or Space", "the underlined letter", "Alt + underlined letter", "double-click a tile"):
            assert needed in text
        page.set_viewport_size({"width": 800, "height": 600})
        page.screenshot(path=artifacts / "help-keys-800x600.png")
        page.keyboard.press("Escape")
        panel.wait_for(state="detached")
