"""The browser client as a player finds it: double clicks, any window size, what to do and what happened.

Each test starts ``xmj --no-browser`` and drives the page as a person would, through
what is drawn (clicks, keys), never the gateway's messages. Screenshots go to
``test-artifacts/web/``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from test_web import running_xmj

#: Quick robots for the tests that play on (the default level 3 thinks longer).
LEVEL_1 = ("--level", "1")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh tab (its own storage), failing the test on any script error."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, f"script errors in the page: {errors}"


def our_turn(page: Any, timeout: float = 20_000) -> None:
    page.locator(".action[data-kind=turn]").wait_for(timeout=timeout)


def test_double_clicking_a_tile_in_our_turn_discards_it(page: Any) -> None:
    with running_xmj("--timeout", "0", "--seed", "5", name="Dbl") as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        page.keyboard.press("Enter")
        our_turn(page)
        tiles = page.locator("button.tile.mine")
        held = tiles.count()
        target = tiles.nth(held - 1)
        name = target.get_attribute("aria-label")
        target.dblclick()
        page.wait_for_function(f"document.querySelectorAll('button.tile.mine').length === {held - 1}", timeout=5000)
        assert page.locator(".discards.rel0 .tile").last.get_attribute("aria-label") == name


# ------------------------------------------------------------------ playing by the mouse


def answer(page: Any) -> str | None:
    """Answer the dialog on screen as a quick player: double-click the rightmost tile in our turn,
    pass on discards, press the default (outlined) button otherwise. Returns the dialog's kind."""
    box = page.locator(".action")
    if not box.count():
        return None
    kind = box.get_attribute("data-kind")
    if kind == "turn":
        mahjong = box.locator("button[data-id=mahjong]")
        if mahjong.count() and mahjong.is_enabled():
            mahjong.click()
        else:
            page.locator("button.tile.mine").last.dblclick()
    elif kind == "claim":
        mahjong = box.locator("button[data-id=mahjong]")
        (mahjong if mahjong.is_enabled() else box.locator("button[data-id=noclaim]")).click()
    else:
        box.locator("button.default").click()
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
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            check_layout(page, f"{width}x{height}")
            page.screenshot(path=artifacts / f"layout-{width}x{height}.png")
        # the dialog may also sit in the middle of the table: inside the board, still covering none of these
        page.evaluate("() => localStorage.setItem('xmj.prefs', JSON.stringify({dialogPlace: 'centre'}))")
        page.reload()
        our_turn(page)
        for width, height in SIZES[:4]:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            check_layout(page, f"{width}x{height}, dialog in the middle", covers_info=True)
            r = page.evaluate(RECTS)
            assert inside(r["dialog"][0], r["board"])
        page.screenshot(path=artifacts / "layout-dialog-centre.png")
