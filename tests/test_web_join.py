"""Joining a server from the page keeps the game in hand until the seat at that server is taken.

"Join server..." connects to the named server while the person is still seated in the
old game: only once the server has seated them is the old game left (a local game's
server and robots ended). A join that fails (nobody listening, a bad address, a server
refusing the name or wanting a password, a server that never answers) leaves the person
in the old game, which goes on, with the reason said in one line. Joining the very server
of the game in hand leaves it first: nobody can sit twice at one table.

Spoken to as a browser does (the helpers of tests/test_web.py), then driven in Chromium
through what is drawn, as tests/test_web_new_game.py does for a new local game.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conftest import OUR_SERVER
from mj.web.session import CONNECT_SECONDS, Session
from procs import children_of
from test_web import Browser, Xmj, browser_tab, run, running_xmj
from test_web_new_game import LEVEL_1, HeldStart, blocked_while_starting, our_discard, plays_on, shoot, wait_for

Json = dict[str, Any]
#: A game saved mid-hand by Robot1 to Robot4: its server seats nobody else.
SAVED = Path(__file__).parent / "data" / "reference" / "saved-game-midhand-seed21.mjs"


def table(sock: Path, processes: list[subprocess.Popen[bytes]], *args: str) -> str:
    """Our server listening on ``sock``, with ``args``; its address."""
    server = subprocess.Popen([*OUR_SERVER, "--server", str(sock), *args], stdout=subprocess.PIPE)
    processes.append(server)
    assert server.stdout is not None and server.stdout.readline().strip() == f"OK: {sock}".encode()
    return str(sock)


def robot(server: str, name: str, processes: list[subprocess.Popen[bytes]]) -> None:
    processes.append(subprocess.Popen([sys.executable, "-m", "mj.robot", "--server", server, "--name", name]))


@contextlib.contextmanager
def silent_server() -> Iterator[str]:
    """A TCP address that takes connections (the kernel's backlog) and never says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        yield f"127.0.0.1:{listener.getsockname()[1]}"


def closed_port() -> str:
    """A TCP address nobody listens on (a port just given back)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


async def refused_join(
    tab: Browser, server: str, name: str = "Alice", meanwhile: Json | None = None, **more: object
) -> str:
    """Ask to join ``server`` (with ``more`` fields of the request; then send ``meanwhile``) and read until
    the join's refusal, which must come without a move to another game."""
    await tab.send({"type": "join", "server": server, "name": name, **more})
    if meanwhile is not None:
        await tab.send(meanwhile)
    while True:  # the game in hand goes on meanwhile: its snapshots may come before the answer
        message = await tab.receive(timeout=30)
        assert message["type"] != "welcome", f"the page was moved to {server}, which it did not join"
        if message["type"] == "error" and message.get("request") == "join":
            said = str(message["message"])
            assert "\n" not in said
            assert tab.state is not None and tab.state["connection"]["status"] == "connected", "the game in hand"
            return said


async def accepted_join(tab: Browser, request: Json) -> Json:
    """Join as ``request`` says and read until the page is seated there, by that name; the welcome."""
    await tab.send({"type": "join", **request})
    while (message := await tab.receive(timeout=30))["type"] != "welcome":
        assert message["type"] != "error", message
    tab.state = None  # the snapshots of the game joined from here
    state = await tab.until(lambda s: s["connection"]["status"] == "connected")
    assert (state["connection"]["name"], state["connection"]["server"]) == (request["name"], request["server"])
    return message


# ------------------------------------------------------------------ the gateway


def test_a_join_that_fails_leaves_the_game_in_hand_playing_and_no_process_behind(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    wants_password = table(tmp_path / "password.sock", processes, "--auth-basic", "1:secret")
    resumed = table(tmp_path / "resumed.sock", processes, "--load-game", str(SAVED))
    nobody = closed_port()
    missing = tmp_path / "missing.sock"

    async def scenario(xmj: Xmj, silent: str) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            assert (await refused_join(tab, nobody)).startswith(f"cannot connect to {nobody}: [Errno 111] Connect")
            assert await refused_join(tab, "localhost:99999") == (
                "cannot connect to localhost:99999: bad port in server address 'localhost:99999'"
            )
            assert (await refused_join(tab, str(missing))).startswith(f"cannot connect to {missing}: [Errno 2]")
            assert await refused_join(tab, resumed, "Stranger") == (
                "The server refused the connection: Can't find you in the resumed game"
            )
            assert await refused_join(tab, wants_password) == "The server wants a password."
            assert (await refused_join(tab, wants_password, id=1, password="wrong")).startswith(
                "The server refused the connection"
            )
            assert await refused_join(tab, wants_password, password=["secret"]) == "expected text, got list"
            # a server that never answers: given up after ten seconds, what the page sent meanwhile refused
            tab.errors.clear()
            said = await refused_join(tab, silent, meanwhile={"type": "chat", "text": "sent while it joins"})
            assert said == f"no answer from {silent} within 10 seconds"
            assert tab.errors == [f"joining {silent}: wait until that has succeeded or failed", said]
            await our_discard(tab)  # still playable

    with running_xmj("--timeout", "0", options=LEVEL_1) as xmj, silent_server() as silent:
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4), "precondition: server and robots"
        before = sorted(children_of(xmj.process.pid))
        run(scenario(xmj, silent))
        assert sorted(children_of(xmj.process.pid)) == before, "a failed join ended the game in hand"


def test_a_join_that_succeeds_ends_the_game_it_replaces_and_its_processes(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    elsewhere = table(tmp_path / "elsewhere.sock", processes, "--timeout", "0")

    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            welcome = await accepted_join(tab, {"server": elsewhere, "name": "Joined"})
            assert welcome["token"] and welcome["token"] != xmj.token

    with running_xmj("--timeout", "0", options=LEVEL_1) as xmj:
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4), "precondition: server and robots"
        run(scenario(xmj))
        assert wait_for(lambda: not children_of(xmj.process.pid)), "the old game's server and robots run on"


def test_a_join_with_the_password_the_server_asks_takes_the_seat(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    guarded = table(tmp_path / "guarded.sock", processes, "--auth-basic", "1:s3cret")

    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            await accepted_join(tab, {"server": guarded, "name": "Member", "id": 1, "password": "s3cret"})

    with running_xmj("--timeout", "0", options=LEVEL_1) as xmj:
        run(scenario(xmj))


def test_joining_the_table_of_the_game_in_hand_again_takes_one_seat_not_two(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    """At ``mj-server --http`` every join is to that table: the seat in hand is given up first, else the
    second seat would fill the table and start its game with the first one in it, gone."""
    sock = tmp_path / "table.sock"
    server = subprocess.Popen(
        [*OUR_SERVER, "--server", str(sock), "--timeout", "0", "--http", "localhost:0"], stdout=subprocess.PIPE
    )
    processes.append(server)
    assert server.stdout is not None and server.stdout.readline().strip() == f"OK: {sock}".encode()
    base = server.stdout.readline().decode().strip().split(" ", 1)[1]

    def names(state: Json) -> set[str]:
        """Who sits at the table: those waiting for the game, or its players once it has begun."""
        return {p["name"] for p in [*state["lobby"], *state["players"]]}

    async def scenario() -> None:
        async with browser_tab(base, None) as tab:
            await tab.receive()
            await tab.send({"type": "join", "name": "Bob"})
            await tab.until(lambda s: s["connection"]["status"] == "connected")
            for name in ("R0", "R1"):
                robot(str(sock), name, processes)
            await tab.until(lambda s: names(s) == {"Bob", "R0", "R1"})
            await tab.send({"type": "join", "name": "Carol"})
            while (message := await tab.receive(timeout=30))["type"] != "welcome":
                assert message["type"] != "error", message
            tab.state = None
            await tab.until(lambda s: names(s) == {"Carol", "R0", "R1"})
            robot(str(sock), "R2", processes)
            state = await tab.until(lambda s: s["dialog"] is not None and s["dialog"]["kind"] == "ready", 30)
            assert names(state) == {"Carol", "R0", "R1", "R2"}

    run(scenario())


def test_a_connection_that_never_opens_is_given_up_within_the_connect_bound() -> None:
    """A server whose address swallows the connection (a dropped first packet) would hold the page's
    game for minutes: the seat's connection and the server's answer are waited for ten seconds in all."""

    async def scenario() -> None:
        async def never_opens() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
            await asyncio.Event().wait()
            raise AssertionError("unreachable")

        session = Session("a black hole", "Alice", connect=never_opens)
        began = time.monotonic()
        assert not await session.start()
        assert CONNECT_SECONDS <= time.monotonic() - began < CONNECT_SECONDS + 2
        assert session.detail == "no answer from a black hole within 10 seconds"
        await session.close()

    run(scenario())


# ------------------------------------------------------------------ in the browser


def open_join(page: Any, server: str) -> Any:
    """Game > Join server, leaving the game in hand confirmed, the server named: the panel."""
    page.keyboard.press("Alt+g")
    page.keyboard.press("j")
    page.locator("#panel-confirm").get_by_role("button", name="Leave and join").click()
    panel = page.locator("#panel-join")
    panel.wait_for()
    panel.locator("input[name=server]").fill(server)
    return panel


def test_a_failed_join_returns_the_page_to_the_game_in_hand_which_is_still_played(
    page: Any, tmp_path: Path, artifacts: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    resumed = table(tmp_path / "resumed.sock", processes, "--load-game", str(SAVED))
    held = HeldStart(page)
    with running_xmj("--timeout", "0", "--seed", "12", name="Kept", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        panel = open_join(page, resumed)
        panel.get_by_role("button", name="Connect").click()
        blocked_while_starting(page, held, f"Joining {resumed}")
        shoot(page, artifacts, "join-starting")
        held.release()
        failed = page.locator("#start-failed")
        failed.wait_for()
        assert page.locator("#starting").is_hidden()
        said = failed.locator(".text").inner_text()
        assert said == "The server refused the connection: Can't find you in the resumed game. Your game goes on."
        shoot(page, artifacts, "join-failed")
        plays_on(page, "Kept")
        assert failed.is_visible(), "the reason stays until dismissed"
        assert len(children_of(xmj.process.pid)) == 4, "the failed join ended the game in hand"


def test_a_join_that_succeeds_replaces_the_game_in_hand_after_the_joining_notice(
    page: Any, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    elsewhere = table(tmp_path / "elsewhere.sock", processes, "--timeout", "0")
    held = HeldStart(page)
    with running_xmj("--timeout", "0", "--seed", "12", name="Old", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4)
        panel = open_join(page, elsewhere)
        panel.locator("input[name=name]").fill("New")
        panel.get_by_role("button", name="Connect").click()
        blocked_while_starting(page, held, f"Joining {elsewhere}")
        held.release()
        page.locator("#title", has_text=f"New at {elsewhere}").wait_for(timeout=30_000)
        assert page.locator("#starting").is_hidden() and page.locator("#start-failed").is_hidden()
        assert wait_for(lambda: not children_of(xmj.process.pid)), "the old game's server and robots run on"


def test_the_join_panel_sends_the_password_a_server_asks_and_never_keeps_it(
    page: Any, tmp_path: Path, artifacts: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    guarded = table(tmp_path / "guarded.sock", processes, "--auth-basic", "1:s3cret")
    with running_xmj("--timeout", "0", "--seed", "12", name="Old", options=LEVEL_1) as xmj:
        page.goto(xmj.page)
        page.locator(".action[data-kind=ready]").wait_for()
        panel = open_join(page, guarded)
        assert panel.locator("input[name=password]").get_attribute("type") == "password"
        panel.locator("input[name=id]").fill("1")
        panel.locator("input[name=name]").fill("Member")
        panel.locator("input[name=password]").fill("s3cret")
        shoot(page, artifacts, "join-panel")
        panel.get_by_role("button", name="Connect").click()
        page.locator("#title", has_text=f"Member at {guarded}").wait_for(timeout=30_000)
        assert "s3cret" not in page.evaluate("JSON.stringify(localStorage)")
