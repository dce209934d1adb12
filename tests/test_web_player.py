"""The browser client as a player finds it: double clicks, any window size, what to do and what happened.

Each test starts ``xmj --no-browser`` and drives the page as a person would, through
what is drawn (clicks, keys), never the gateway's messages. Screenshots go to
``test-artifacts/web/``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from conftest import resize
from mj import tiles
from test_web import running_xmj
from test_web_browser import EAST_INDICES, MANUAL, to_easts_first_turn, use_prefs, winning_wall

#: Quick robots for the tests that play on (the default level 3 thinks longer).
LEVEL_1 = ("--level", "1")


def our_turn(page: Any, timeout: float = 20_000) -> None:
    page.locator(".action[data-kind=turn]").wait_for(timeout=timeout)


def test_double_clicking_a_tile_in_our_turn_discards_it(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "5", name="Dbl") as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        page.keyboard.press("Enter")
        our_turn(page)
        target = page.locator("button.tile.mine").last
        name = target.get_attribute("aria-label")
        target.dblclick()
        # (by the time we look, the robots may have played and our next tile come: count the discards)
        page.wait_for_function("document.querySelectorAll('.discards.rel0 .tile').length === 1", timeout=5000)
        assert page.locator(".discards.rel0 .tile").first.get_attribute("aria-label") == name


# ------------------------------------------------------------------ playing by the mouse


def answer(page: Any) -> str | None:
    """Answer the dialog on screen as a quick player: Mah Jong! when it can, no claim on discards,
    Enter (the default button on the suggested tile) otherwise. Returns the dialog's kind."""
    box = page.locator(".action")
    if not box.count():
        return None
    kind = box.get_attribute("data-kind")
    mahjong = box.locator("button[data-id=mahjong]:not(:disabled)")
    if mahjong.count():
        mahjong.click()
    elif kind in ("claim", "rob"):
        box.locator("button[data-id=noclaim]").click()
    else:
        page.keyboard.press("Enter")
    return kind


def play_until(page: Any, done: Any, limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        with contextlib.suppress(PlaywrightError):  # the dialog changed under the click: look again
            answer(page)
        page.wait_for_timeout(40)


RECTS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (sel) => [...document.querySelectorAll(sel)].map(box);
  return {
    board: box(document.getElementById('board')),
    window: [0, 0, window.innerWidth, window.innerHeight],
    hand: all('button.tile.mine'),
    labels: all('.label'),
    exposed: all('.seat .row.exposed .tile, .seat .tong'),
    concealed: all('.seat .row.concealed .tile'),
    discards: all('.discards .tile'),
    latest: all('.discards .tile.latest'),
    dialog: all('.action'),
    info: all('#round-info > div'),
  };
}"""


def inside(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] >= outer[1] - 0.5
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


def overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def overlapping(first: list[list[float]], second: list[list[float]] | None = None) -> list[tuple[int, int]]:
    if second is None:
        return [(i, j) for i in range(len(first)) for j in range(i + 1, len(first)) if overlap(first[i], first[j])]
    return [(i, j) for i in range(len(first)) for j in range(len(second)) if overlap(first[i], second[j])]


SIZES = ((800, 600), (1024, 700), (1400, 900), (2560, 1440), (844, 390))


def check_layout(page: Any, where: str, covers_info: bool = False) -> None:
    r = page.evaluate(RECTS)
    board = r["board"]
    assert inside(board, r["window"]), f"{where}: the board runs out of the window"
    assert len(r["hand"]) >= 13 and len(r["labels"]) == 4 and r["discards"], where
    for name in ("hand", "labels", "exposed", "concealed", "discards", "info"):
        out = [b for b in r[name] if not inside(b, board)]
        assert not out, f"{where}: {name} outside the board: {out} (board {board})"
    assert not overlapping(r["hand"]), f"{where}: tiles of our hand overlap"
    assert not overlapping(r["labels"]), f"{where}: labels overlap"
    for name in ("hand", "exposed", "concealed", "discards"):
        assert not overlapping(r["labels"], r[name]), f"{where}: a label covers {name}"
    assert not overlapping(r["hand"], r["discards"] + r["exposed"]), f"{where}: our hand runs into other tiles"
    assert len(r["dialog"]) == 1 and inside(r["dialog"][0], r["window"]), f"{where}: the dialog is not in the window"
    for name in ("hand", "labels", "latest") if covers_info else ("hand", "labels", "latest", "info"):
        assert not overlapping(r["dialog"], r[name]), f"{where}: the dialog covers {name}"


def test_the_table_fits_every_window_from_a_phone_held_sideways_to_2560_wide(page: Any, artifacts: Path) -> None:
    """Hand, labels, discards and dialog inside the board or window, none over another, at each size."""
    with running_xmj("--timeout", "0", "--seed", "12", name="Layout", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        discarded = lambda: page.locator(".discards .tile").count() >= 14  # noqa: E731
        play_until(page, lambda: discarded() and page.locator(".action[data-kind=turn]").count() > 0)
        for width, height in SIZES:
            resize(page, width, height)
            check_layout(page, f"{width}x{height}")
            page.screenshot(path=artifacts / f"layout-{width}x{height}.png")
        # the dialog may also sit in the middle of the table: inside the board, still covering none of these
        page.evaluate("() => localStorage.setItem('xmj.prefs', JSON.stringify({dialogPlace: 'centre'}))")
        page.reload()
        our_turn(page)
        for width, height in SIZES[:4]:
            resize(page, width, height)
            check_layout(page, f"{width}x{height}, dialog in the middle", covers_info=True)
            r = page.evaluate(RECTS)
            assert inside(r["dialog"][0], r["board"])
        page.screenshot(path=artifacts / "layout-dialog-centre.png")


def test_a_whole_game_by_double_clicks_and_the_claim_dialog(page: Any, tmp_path: Path, artifacts: Path) -> None:
    """One round against robots: every discard a double click, every claim from the claim dialog
    (the hand's declarations are left to the playing preferences; Ready starts each hand)."""
    options = tmp_path / "one-round.opt"
    options.write_text("GameOption 0 NumRounds nat 0 1 1 number of rounds to play\n")
    use_prefs(page, '{"autoWinning": true}')
    with running_xmj(
        "--timeout", "0", "--seed", "9", "--option-file", str(options), name="Mouse", options=LEVEL_1
    ) as xmj:
        page.goto(xmj.page)
        discards = 0
        deadline = time.monotonic() + 400
        while not page.locator("#round-info", has_text="Game over").count():
            assert time.monotonic() < deadline, "the game did not end"
            if page.locator("#panels .panel").count():
                page.keyboard.press("Escape")  # the scoring window
                continue
            box = page.locator(".action")
            try:
                kind = box.get_attribute("data-kind", timeout=500) if box.count() else None
                if kind == "turn":
                    mine = page.locator(".discards.rel0 .tile").count()
                    page.locator("button.tile.mine").last.dblclick()
                    page.wait_for_function(
                        f"document.querySelectorAll('.discards.rel0 .tile').length !== {mine}", timeout=5000
                    )
                    discards += 1
                elif kind in ("claim", "rob"):
                    take = box.locator("button[data-id=mahjong]:not(:disabled), button[data-id=pung]:not(:disabled)")
                    (take.first if take.count() else box.locator("button[data-id=noclaim]")).click()
                elif kind == "ready":
                    box.locator("button[data-id=ready]").click()
                elif kind != "gameover":  # the final scores may show before the round info says Game over
                    assert kind is None, f"a {kind} dialog: the preferences should have answered it"
            except PlaywrightError:
                pass  # the dialog changed under the pointer: look again
            page.wait_for_timeout(30)
        page.screenshot(path=artifacts / "whole-game-by-double-clicks.png")
        assert discards >= 10
        scores = page.locator(".label .score").all_inner_texts()
        assert len(scores) == 4 and sum(int(s) for s in scores) == 0


# ------------------------------------------------------------------ telling the player what to do


def east_wall(path: Path, east: tuple[str, ...]) -> Path:
    """A wall file dealing ``east`` to East (the person); specials early in the live wall, none loose."""
    rest = tiles.full_set(True)
    for code in east:
        rest.remove(tiles.parse(code))
    rest.sort(key=lambda t: not tiles.is_special(t))
    others = iter(rest)
    dealt = iter(east)
    wall = [next(dealt) if i in EAST_INDICES else tiles.code(next(others)) for i in range(tiles.wall_size(True))]
    path.write_text(" ".join(wall) + "\n")
    return path


#: Four red dragons to kong and a season to declare.
KONG_AND_SEASON = ("1B", "2B", "3B", "4C", "5C", "1S", "6C", "7D", "RD", "RD", "RD", "RD", "8D", "EW")


def test_the_declaring_dialog_preselects_the_kong_so_its_button_is_ready(page: Any, tmp_path: Path) -> None:
    wall = east_wall(tmp_path / "wall.txt", KONG_AND_SEASON)
    use_prefs(page, MANUAL)
    with running_xmj("--timeout", "0", "--wallfile", str(wall), name="Decl", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        page.keyboard.press("Enter")
        box = page.locator(".action[data-kind=declaring]")
        box.wait_for()
        assert box.locator(".instruction").inner_text().startswith("Select a tile and:")
        page.keyboard.press("Enter")  # the default: declare the season, preselected
        page.locator(".seat.rel0 .specials [data-tile='1S']").wait_for()
        # the next declaring dialog: no special left, so the kong's tile is selected and Kong is ready
        page.wait_for_function(
            "document.querySelector('.action[data-kind=declaring] button[data-id=kong]:not(:disabled)')"
        )
        assert page.locator('button.tile.mine[aria-pressed="true"]').get_attribute("aria-label") == "Red Dragon"


def test_enter_declares_a_selected_season_and_clicking_the_selected_tile_keeps_it(page: Any, tmp_path: Path) -> None:
    wall = east_wall(tmp_path / "wall.txt", KONG_AND_SEASON)
    use_prefs(page, MANUAL)
    with running_xmj("--timeout", "0", "--wallfile", str(wall), name="Enter", options=LEVEL_1) as xmj:
        to_easts_first_turn(page, xmj.page)  # "f" keeps the season for now
        discard = page.locator(".action button[data-id=discard]")
        tile = page.locator("button.tile.mine[data-tile='4C']")
        tile.click()
        page.wait_for_timeout(700)  # two separate clicks, not a double click
        tile.click()
        assert tile.get_attribute("aria-pressed") == "true" and discard.is_enabled()
        page.locator("button.tile.mine[data-tile='1S']").click()
        instruction = page.locator(".action .instruction")
        assert "Select a tile and:" in instruction.inner_text()
        assert not discard.is_enabled() and discard.get_attribute("title")  # greyed, with the reason
        assert page.locator(".action button.default").get_attribute("data-id") == "declare"
        page.keyboard.press("Enter")
        page.locator(".seat.rel0 .specials [data-tile='1S']").wait_for(timeout=5000)


# ------------------------------------------------------------------ the table


def test_flowers_and_the_tong_box_lie_beside_their_own_players_label_at_a_tile_s_size(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "12", name="Flowers", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        play_until(page, lambda: page.locator(".action[data-kind=turn]").count() > 0)
        found = page.evaluate(
            """() => {
              const centre = (el) => {
                const r = el.getBoundingClientRect();
                return [(r.left + r.right) / 2, (r.top + r.bottom) / 2, r.width];
              };
              const labels = Object.fromEntries(
                [...document.querySelectorAll('.label')].map((l) => [l.dataset.player, centre(l)]));
              const out = [];
              for (const seat of document.querySelectorAll('.seat')) {
                for (const el of seat.querySelectorAll('.specials > *')) {
                  out.push([seat.dataset.player, centre(el), el.className]);
                }
              }
              return { labels, out, board: document.getElementById('board').clientWidth };
            }"""
        )
        assert found["out"], "no flowers, seasons or tong box on the table"
        assert any("tong" in kind for _p, _c, kind in found["out"])
        for owner, (x, y, width), kind in found["out"]:
            distance = {p: (x - lx) ** 2 + (y - ly) ** 2 for p, (lx, ly, _w) in found["labels"].items()}
            assert min(distance, key=distance.__getitem__) == owner, f"a {kind} lies nearer another player's label"
            if "special" in kind:
                assert width >= found["board"] / 32, f"flowers drawn {width:.0f} px wide on a {found['board']} px board"


def test_discards_lie_upright_in_rows_in_front_of_each_player(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "12", name="Rows", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        play_until(
            page,
            lambda: (
                page.locator(".discards .tile").count() >= 24 and page.locator(".action[data-kind=turn]").count() > 0
            ),
        )
        zones = page.evaluate(
            """() => {
              const c = document.getElementById('centre').getBoundingClientRect();
              const rows = {};
              for (const zone of document.querySelectorAll('.discards')) {
                const rel = [...zone.classList].find((k) => k.startsWith('rel'));
                rows[rel] = [...zone.querySelectorAll('.tile')].map((t) => {
                  const r = t.getBoundingClientRect();
                  return [r.left, r.top, r.width, r.height];
                });
              }
              const mine = document.querySelector('.seat.rel0 .row.exposed .tile, .seat.rel0 .tong');
              const tw = mine ? mine.getBoundingClientRect().width : 0;
              return { rows, centre: [c.left, c.top, c.right, c.bottom], tw };
            }"""
        )
        left, top, right, bottom = zones["centre"]
        middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
        side = {"rel0": lambda x, y: y > middle_y, "rel1": lambda x, y: x > middle_x,
                "rel2": lambda x, y: y < middle_y, "rel3": lambda x, y: x < middle_x}  # fmt: skip
        for rel, boxes in zones["rows"].items():
            for x, y, width, height in boxes:
                assert height > width, f"{rel}: a discard lies on its side"
                assert width >= 0.7 * zones["tw"] and width >= right / 40, f"{rel}: discards too small ({width:.0f} px)"
                assert side[rel](x + width / 2, y + height / 2), f"{rel}: a discard lies away from its player"
            # in order: along a row left to right, then the next row below
            for (x1, y1, _w, h1), (x2, y2, _w2, _h2) in itertools.pairwise(boxes):
                assert (abs(y2 - y1) < 1 and x2 > x1) or y2 >= y1 + h1 - 1, f"{rel}: discards out of order"


# ------------------------------------------------------------------ what happened, whose turn


def test_messages_log_the_moves_and_every_player_s_label_shows_when_it_is_their_turn(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "12", name="Log", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        marked: set[str] = set()

        def note_turn() -> bool:
            marked.update(page.eval_on_selector_all(".label.turn", "(ls) => ls.map((l) => l.dataset.player)"))
            return len(marked) >= 3 and page.locator(".action[data-kind=turn]").count() > 0

        play_until(page, note_turn)
        assert page.locator(".label.turn").count() == 1
        assert page.locator(".label.turn .flag").inner_text() == "your turn"
        log = page.locator("#side-messages .chatlog").inner_text()
        for robot in ("Robot1", "Robot2", "Robot3"):
            assert f"{robot} (" in log and "discards" in log and "draws a tile" in log
        # East in the first hand; when the robots' turns come too fast to be seen there, a later one
        wind = page.locator(".seat[aria-label^='Log, ']").get_attribute("aria-label").split(", ")[1]
        assert f"Log ({wind}) draws" in log


#: A tile's code standing alone in a line ("7C", "RD", "2F"): what the move log must not show.
TILE_CODE = re.compile(r"\b([1-9][BCD]|[ESWN]W|[RWG]D|[1-4][FS])\b")


@pytest.mark.parametrize("rules", ["classical", "beijing"])
def test_the_move_log_names_the_tiles_in_words_as_the_dialogs_do(page: Any, rules: str, artifacts: Path) -> None:
    use_prefs(page, MANUAL)  # every discard asks us: the claim dialog names it
    with running_xmj("--timeout", "0", "--seed", "12", name="Words", options=("--rules", rules, *LEVEL_1)) as xmj:
        page.goto(xmj.page)
        claim = page.locator(".action[data-kind=claim]")
        deadline = time.monotonic() + 120
        while not claim.count():  # every other dialog answered by its default
            assert time.monotonic() < deadline, "no discard was offered to us"
            with contextlib.suppress(PlaywrightError):
                if page.locator("#panels .panel").count():
                    page.keyboard.press("Escape")
                elif page.locator(".action").count():
                    page.keyboard.press("Enter")
            page.wait_for_timeout(40)
        said = claim.locator(".about").inner_text()  # "Robot2 (South) discards 7 Character"
        lines = page.locator("#side-messages .chatlog .line.move").all_inner_texts()
        assert said in lines, (said, lines[-5:])
        assert " discards " in said and not TILE_CODE.search(said)
        assert not [line for line in lines if TILE_CODE.search(line)], "a tile named by its code"
        if rules == "beijing":
            assert any(re.search(r"^.+ is turned up: .+ is wild this hand$", line) for line in lines), lines
        for width, height in ((800, 600), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            page.screenshot(path=artifacts / f"move-log-words-{rules}-{width}x{height}.png")


def test_a_tone_sounds_for_our_turn_unless_switched_off(page: Any) -> None:
    page.add_init_script(
        """window.tones = 0;
        const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); };"""
    )
    with running_xmj("--timeout", "0", "--seed", "12", name="Tone", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        play_until(page, lambda: page.locator(".action[data-kind=turn]").count() > 0)
        assert page.evaluate("window.tones") > 0
        # Options > Display options: switch the sound off
        page.keyboard.press("Alt+o")
        page.keyboard.press("d")
        page.get_by_label("Sound when it is my turn or I may claim").uncheck()
        page.get_by_role("button", name="Save & Apply").click()
        page.evaluate("window.tones = 0")
        page.keyboard.press("Enter")  # discard
        play_until(page, lambda: page.locator(".action[data-kind=turn]").count() > 0)
        assert page.evaluate("window.tones") == 0


# ------------------------------------------------------------------ menus, confirmations, preferences


def test_leave_and_join_ask_first_while_a_game_is_in_progress(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "12", name="Stay", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        our_turn_or_ready = ".action[data-kind=ready], .action[data-kind=turn]"
        page.locator(our_turn_or_ready).first.wait_for()
        for item, letter in (("Leave game", "l"), ("Join server...", "j")):
            page.keyboard.press("Alt+g")
            page.keyboard.press(letter)
            confirm = page.locator("#panel-confirm")
            confirm.wait_for()
            assert item.rstrip(".") in confirm.inner_text()
            confirm.get_by_role("button", name="Cancel").click()
            assert page.locator(".label.rel0 .name").inner_text() == "Stay"  # still seated
        page.keyboard.press("Alt+g")
        page.keyboard.press("l")
        page.locator("#panel-confirm").get_by_role("button", name="Leave").click()
        page.locator("#panel-newgame").wait_for()  # not at a table any more: offered a new game
        assert page.locator(".label").count() == 0


def test_menu_entries_fit_one_line_and_new_local_game_offers_the_robots_level(page: Any) -> None:
    page.set_viewport_size({"width": 800, "height": 600})
    with running_xmj("--timeout", "0", "--seed", "12", name="Menus") as xmj:
        page.goto(xmj.page)
        page.locator(".action").wait_for()
        for menu in ("Game", "Show", "Options"):
            page.locator(".menu > button", has_text=menu).click()
            entries = page.locator(".menu ul.open li button")
            for i in range(entries.count()):
                entry = entries.nth(i)
                lines = entry.evaluate(
                    """(e) => { const s = getComputedStyle(e);
                      const pad = parseFloat(s.paddingTop) + parseFloat(s.paddingBottom);
                      return (e.getBoundingClientRect().height - pad) / parseFloat(s.fontSize); }"""
                )
                assert lines < 2, f"{entry.inner_text()!r} wraps"
                assert entry.locator("u").count() == 1, f"{entry.inner_text()!r} has no underlined letter"
            page.keyboard.press("Escape")
        page.keyboard.press("Alt+g")
        page.keyboard.press("n")
        page.locator("#panel-confirm").get_by_role("button", name="Leave and start").click()
        level = page.locator("#panel-newgame select[name=level]")
        assert level.input_value() == "3"
        assert level.locator("option").count() == 3


def test_the_dark_theme_and_a_floating_dialog_are_remembered(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "12", name="Dark", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        page.locator(".action").wait_for()
        page.keyboard.press("Alt+o")
        page.keyboard.press("d")
        page.locator("#panel-display select[name=theme]").select_option("dark")
        page.locator("#panel-display select[name=dialogPlace]").select_option("float")
        page.get_by_role("button", name="Save & Apply").click()
        title = page.locator("#float-dock .action h2")
        title.wait_for()
        box = title.bounding_box()
        before = page.locator("#float-dock").bounding_box()
        page.mouse.move(box["x"] + 20, box["y"] + 5)
        page.mouse.down()
        page.mouse.move(box["x"] - 180, box["y"] + 105, steps=5)
        page.mouse.up()
        page.reload()
        page.locator("#float-dock .action").wait_for()
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        dock = page.locator("#float-dock").bounding_box()
        assert abs(dock["x"] - (before["x"] - 200)) < 3 and abs(dock["y"] - (before["y"] + 100)) < 3
        background = page.evaluate("getComputedStyle(document.getElementById('sidebar')).backgroundColor")
        red, green, blue = (int(v) for v in background[background.index("(") + 1 : -1].split(",")[:3])
        assert red + green + blue < 200, f"the dark theme's side column is {background}"


def test_tiles_moved_with_shift_arrows_keep_their_order_after_a_reload(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "12", name="Order", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        play_until(page, lambda: page.locator(".action[data-kind=turn]").count() > 0)
        tiles_now = lambda: page.eval_on_selector_all("button.tile.mine", "(ts) => ts.map((t) => t.dataset.tile)")  # noqa: E731
        page.locator("button.tile.mine").first.click()
        for _ in range(5):
            page.keyboard.press("Shift+ArrowRight")
        arranged = tiles_now()
        assert arranged != sorted(arranged, key=lambda code: (code[1], code[0]))
        page.reload()
        our_turn(page)
        assert tiles_now() == arranged
        # a remembered arrangement that places only some tiles: the rest follow it, sorted
        page.evaluate(
            """() => {
              const all = JSON.parse(localStorage.getItem('xmj.order'));
              for (const seat of Object.values(all)) seat.order = seat.order.slice(0, 3).reverse();
              localStorage.setItem('xmj.order', JSON.stringify(all));
            }"""
        )
        page.reload()
        our_turn(page)
        shown = tiles_now()
        assert shown[:3] == arranged[:3][::-1]
        rest = shown[3:]
        values = page.evaluate("(codes) => import('/static/js/tiles.js').then((m) => codes.map(m.tileValue))", rest)
        assert values == sorted(values)


# ------------------------------------------------------------------ other rule systems' dialogs and marks

#: An IMS-style bid, as a coming rule system's snapshot will offer it: the page has no layout of its own for it.
IMS_BUTTONS = [
    {"id": "draw", "label": "Draw", "key": "d", "enabled": True, "tiles": None, "shows": []},
    {
        "id": "connect-lower",
        "label": "Connect lower",
        "key": "l",
        "enabled": True,
        "tiles": None,
        "shows": ["1B", "2B", "3B"],
    },
    {"id": "connect-middle", "label": "Connect middle", "key": "i", "enabled": False, "tiles": None, "shows": []},
    {
        "id": "connect-upper",
        "label": "Connect upper",
        "key": "u",
        "enabled": True,
        "tiles": None,
        "shows": ["2B", "3B", "4B"],
    },
    {"id": "triplet", "label": "Triplet", "key": "t", "enabled": True, "tiles": None, "shows": []},
    {"id": "quadruplet", "label": "Quadruplet", "key": "q", "enabled": False, "tiles": None, "shows": []},
    {"id": "mahjong", "label": "MahJong", "key": "m", "enabled": False, "tiles": None, "shows": []},
    {"id": "pass", "label": "Pass", "key": "p", "enabled": True, "tiles": None, "shows": []},
]


def test_the_page_draws_whatever_buttons_and_tile_marks_the_snapshot_offers(page: Any) -> None:
    sent: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state" and data.get("dialog") and data["dialog"]["kind"] == "claim":
                data["dialog"].update(kind="bid", title="Bid for the discard", buttons=IMS_BUTTONS, default="pass")
            if data.get("type") == "state":
                data["marks"] = {f"{n}D": ["wild"] for n in range(1, 10)}  # every circle: some are in sight
            ws.send(json.dumps(data))

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "act" and data.get("button") in {b["id"] for b in IMS_BUTTONS} - {"mahjong"}:
                sent.append(dict(data))
                data["button"] = "noclaim"  # what our classical table understands
            server.send(json.dumps(data))

        ws.on_message(to_server)
        server.on_message(to_page)

    page.route_web_socket("**/ws", route)
    use_prefs(page, '{"autoPass": false}')
    with running_xmj("--timeout", "0", "--seed", "12", name="Bids", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        box = page.locator(".action[data-kind=bid]")
        deadline = time.monotonic() + 60
        while not box.count():
            assert time.monotonic() < deadline, "no discard to bid for"
            with contextlib.suppress(PlaywrightError):
                answer(page)
            page.wait_for_timeout(40)
        labels = box.locator(".buttons button").all_inner_texts()
        assert [text.split("\n")[0] for text in labels] == [b["label"] for b in IMS_BUTTONS]
        assert box.locator("button[data-id=connect-lower] .shows .tile").count() == 3
        assert box.locator("button[data-id=pass]").get_attribute("class") == "default"
        r = page.evaluate(RECTS)
        assert inside(r["dialog"][0], r["window"]) and not overlap(r["dialog"][0], r["board"])
        # every tile of a marked code, wherever it lies, carries the mark
        for tile in page.locator("#board [data-tile]").all():
            code = str(tile.get_attribute("data-tile"))
            circle = code[0].isdigit() and code[1] == "D"
            assert (tile.get_attribute("data-marks") == "wild") == circle, code
        assert page.locator("#board .tile.marked").count() >= 1
        page.keyboard.press("Enter")
        page.wait_for_function("!document.querySelector('.action[data-kind=bid]')")
        assert sent and sent[-1]["button"] == "pass"


FITS = """() => [...document.querySelectorAll('.label')].flatMap((label) => {
  const outer = label.getBoundingClientRect();
  return [...label.querySelectorAll('.flag')].map((flag) => {
    const r = flag.getBoundingClientRect();
    const clipped = flag.scrollWidth > flag.clientWidth + 1 || r.left < outer.left - 0.5 || r.right > outer.right + 0.5
      || r.top < outer.top - 0.5 || r.bottom > outer.bottom + 0.5;
    return clipped ? flag.textContent : null;
  }).filter(Boolean);
})"""

#: From the smallest window the page supports to a large one (the audit saw labels cut at 1024, 1366 and 1920).
LABEL_SIZES = ((800, 600), (1024, 768), (1366, 768), (1920, 1080), (2560, 1440))


def test_a_label_shows_its_whole_status_your_turn_and_calling_at_every_size(
    page: Any, tmp_path: Path, artifacts: Path
) -> None:
    wall = winning_wall(tmp_path / "wall.txt", shuffle=3)  # any discard leaves East's dealt hand ready
    use_prefs(page, MANUAL)
    with running_xmj("--timeout", "0", "--wallfile", str(wall), name="Label", options=LEVEL_1) as xmj:
        to_easts_first_turn(page, xmj.page)
        page.get_by_role("button", name="Calling", exact=True).click()
        page.locator(".action[data-kind=turn]").wait_for(state="detached")
        deadline = time.monotonic() + 60
        while not page.locator(".action[data-kind=turn]").count():  # let every discard pass until our next turn
            assert time.monotonic() < deadline, "our turn did not come back"
            with contextlib.suppress(PlaywrightError):
                if page.locator(".action[data-kind=claim], .action[data-kind=rob]").count():
                    page.keyboard.press("n")
            page.wait_for_timeout(50)
        status = " ".join(page.locator(".label.me .flag").all_inner_texts())
        assert "your turn" in status and "calling" in status
        for width, height in LABEL_SIZES:
            resize(page, width, height)
            assert page.evaluate(FITS) == [], f"{width}x{height}: a label's status is cut off"
            page.screenshot(path=artifacts / f"label-status-{width}x{height}.png")


COVERED = """() => {
  // a claim announcement as the page draws them, lying over the middle of each button of the dialog
  const layer = document.getElementById('announcements');
  const origin = layer.getBoundingClientRect();
  return [...document.querySelectorAll('.action button')].map((button) => {
    const r = button.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const banner = document.createElement('div');
    banner.className = 'announce';
    banner.textContent = 'Connect Middle!';
    banner.style.left = `${x - origin.left}px`;
    banner.style.top = `${y - origin.top}px`;
    banner.style.pointerEvents = 'auto';  // (clicks pass through banners: found by elementFromPoint only so)
    layer.appendChild(banner);
    const top = document.elementFromPoint(x, y);
    banner.remove();
    return top && top.closest('button') === button ? null : button.textContent;
  }).filter(Boolean);
}"""


def test_the_dialog_in_the_middle_of_the_table_lies_over_the_claim_announcements(page: Any, artifacts: Path) -> None:
    use_prefs(page, '{"dialogPlace": "centre"}')
    with running_xmj("--timeout", "0", "--seed", "5", name="Mid") as xmj:
        page.goto(xmj.page)
        page.locator("#centre-dock .action[data-kind=ready]").wait_for()
        assert page.evaluate(COVERED) == [], "an announcement hides these buttons of the dialog"
        page.evaluate(
            """() => { const b = document.createElement('div'); b.className = 'announce rel0';
                       b.textContent = 'Connect Middle!'; b.style.top = '50%';
                       document.getElementById('announcements').appendChild(b); }"""
        )
        for width, height in ((800, 600), (1920, 1080)):
            resize(page, width, height)
            page.screenshot(path=artifacts / f"dialog-over-announcement-{width}x{height}.png")
