"""How long the browser waits for the server's answer to a move: measured over 100 moves, reported, not asserted.

The figure is the time from a browser's ``act`` leaving the WebSocket client to the
next snapshot arriving, which the server's answer to that move causes (the table
waits for the person at every dialog). It covers the gateway, the protocol
connection to the game server, the server, and back. It is written to
``test-artifacts/web/latency.txt`` and printed; the target is under 50 ms.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from test_web import Json, browser_tab, default_choice, run, running_xmj

ACTIONS = 100


async def measure(base: str, token: str, actions: int) -> list[float]:
    """Seconds from each move to the snapshot that answers it, for ``actions`` moves (default buttons)."""
    latencies: list[float] = []
    async with browser_tab(base, token) as tab:
        pressed: set[int] = set()
        while len(latencies) < actions:
            state: Json = await tab.until(lambda s: s["dialog"] is not None and s["dialog"]["number"] not in pressed)
            dialog = state["dialog"]
            choice = default_choice(dialog)
            assert choice is not None, dialog
            pressed.add(dialog["number"])
            started = time.perf_counter()
            await tab.press(dialog, *choice)
            while (await tab.receive())["type"] != "state":
                pass
            latencies.append(time.perf_counter() - started)
    return latencies


def test_per_action_latency_to_the_browser_is_measured_over_100_moves(artifacts: Path) -> None:
    with running_xmj("--timeout", "0", "--seed", "9") as xmj:
        latencies = run(measure(xmj.base, xmj.token, ACTIONS))
    ms = sorted(1000 * t for t in latencies)
    report = (
        f"per-action latency over {len(ms)} moves: mean {statistics.mean(ms):.1f} ms, "
        f"median {statistics.median(ms):.1f} ms, 95th percentile {ms[int(0.95 * len(ms)) - 1]:.1f} ms, "
        f"max {ms[-1]:.1f} ms\n"
    )
    (artifacts / "latency.txt").write_text(report)
    print("\n" + report)
    assert len(ms) == ACTIONS
