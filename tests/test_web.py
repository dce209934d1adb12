"""The browser client's gateway, spoken to as a browser does (JSON over a WebSocket), without a browser.

These read as the gateway's contract: it seats a person through an ordinary
protocol connection, offers only legal moves, refuses anything else with a clear
message and no change, never shows a seat another seat's concealed tiles, and
keeps the seat for a browser that comes back with its token. The helpers here
(starting ``xmj``, a scripted browser) are shared with the other web tests.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest

from conftest import OUR_SERVER
from mj.web.cli import main as xmj_main
from mj.web.session import Session

Json = dict[str, Any]
T = TypeVar("T")


@dataclass
class Xmj:
    """A running ``xmj --no-browser``: its page and the token of the person's seat."""

    process: subprocess.Popen[str]
    base: str
    token: str

    @property
    def page(self) -> str:
        return f"{self.base}?session={self.token}"


@contextlib.contextmanager
def running_xmj(
    *server_args: str, name: str = "Alice", options: tuple[str, ...] = (), cwd: Path | None = None
) -> Iterator[Xmj]:
    """``xmj`` with a local game (our server, three robots); ended with SIGTERM so it ends its children."""
    process = subprocess.Popen(
        [sys.executable, "-m", "mj.web.cli", "--no-browser", "--name", name, *options, "--", *server_args],
        stdout=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"(http://\S+/)\?session=(\S+)", line)
        assert found, f"xmj did not print its page: {line!r}"
        yield Xmj(process, found[1], found[2])
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Browser:
    """A scripted browser tab: the latest snapshot, and every message received."""

    ws: aiohttp.ClientWebSocketResponse
    state: Json | None = None
    errors: list[str] = field(default_factory=list)
    welcome: Json | None = None
    #: The move log by line number, merged from the snapshots as the page merges it (each carries new lines only).
    moves: dict[int, Json] = field(default_factory=dict)

    async def receive(self, timeout: float = 10.0) -> Json:
        message = await asyncio.wait_for(self.ws.receive_json(), timeout)
        assert isinstance(message, dict)
        if message["type"] == "state":
            self.state = message
            if message["moves_reset"]:
                self.moves.clear()
            self.moves.update((line["n"], line) for line in message["moves"])
        elif message["type"] == "error":
            self.errors.append(message["message"])
        elif message["type"] == "welcome":
            self.welcome = message
        return message

    async def until(self, test: Callable[[Json], bool], timeout: float = 20.0) -> Json:
        """Read until a snapshot passes ``test``."""
        deadline = time.monotonic() + timeout
        while self.state is None or not test(self.state):
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; last state: {json.dumps(self.state)[:2000]}"
            await self.receive(left)
        return self.state

    async def error(self, timeout: float = 10.0) -> str:
        """The next error message (snapshots in between are taken in)."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == "error":
                return str(message["message"])

    async def play_until(self, test: Callable[[Json], bool], timeout: float = 30.0) -> Json:
        """Press the default button of every dialog until a snapshot passes ``test``."""
        deadline = time.monotonic() + timeout
        pressed: set[int] = set()
        while True:
            state = await self.until(lambda _s: True)
            if test(state):
                return state
            dialog = state["dialog"]
            if dialog is not None and dialog["number"] not in pressed:
                choice = default_choice(dialog)
                if choice is not None:
                    pressed.add(dialog["number"])
                    await self.press(dialog, *choice)
            await self.receive(deadline - time.monotonic())

    async def send(self, message: Json) -> None:
        await self.ws.send_str(json.dumps(message))

    async def press(self, dialog: Json, button: str, tile: str | None = None) -> None:
        await self.send({"type": "act", "button": button, "tile": tile, "dialog": dialog["number"]})


@contextlib.asynccontextmanager
async def browser_tab(base: str, token: str | None) -> AsyncIterator[Browser]:
    async with aiohttp.ClientSession() as http, http.ws_connect(base + "ws") as ws:
        tab = Browser(ws)
        await tab.send({"type": "hello", "token": token})
        yield tab


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: Playwright's sync API keeps an event loop running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def default_choice(dialog: Json) -> tuple[str, str | None] | None:
    """The default button and, if it needs one, the preselected tile (what Enter does in the page)."""
    button = next((b for b in dialog["buttons"] if b["id"] == dialog["default"]), None)
    if button is None or not button["enabled"]:
        return None
    if button["tiles"] is None:
        return button["id"], None
    tile = dialog["select"] if dialog["select"] in button["tiles"] else button["tiles"][-1]
    return button["id"], tile


def others_hidden(state: Json) -> bool:
    """No concealed tile of another seat is in the snapshot (only counts until they are shown)."""
    return all(p["hand"] is None for p in state["players"] if p["id"] != state["me"])


# ------------------------------------------------------------------ the tests


def test_bad_input_gets_a_clear_error_and_changes_nothing() -> None:
    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            # the robots are ready: only we hold the table up, so nothing moves unless we do
            state = await tab.until(
                lambda s: (
                    s["dialog"] is not None
                    and s["dialog"]["kind"] == "ready"
                    and all(p["ready"] for p in s["players"] if p["id"] != s["me"])
                )
            )
            before = json.dumps({k: v for k, v in state.items() if k != "dialog"})
            await tab.ws.send_str("{not json")
            assert (await tab.error()).startswith("malformed message (not JSON)")
            await tab.ws.send_str("[1, 2]")
            assert "JSON object" in await tab.error()
            await tab.ws.send_str("[" * 60_000)  # deeper than Python's recursion limit, within MAX_MESSAGE
            assert await tab.error() == "malformed message (nested too deeply)"
            await tab.ws.send_str('{"type": "hello", "id": ' + "9" * 5000 + "}")  # more digits than int() takes
            assert await tab.error() == "malformed message (a number with too many digits)"
            await tab.send({"type": "teleport"})
            assert await tab.error() == "unknown message type 'teleport'"
            await tab.press(state["dialog"], "discard", "1B")
            assert await tab.error() == "'discard' is not possible now (Ready to start hand)"
            await tab.send({"type": "act", "button": "ready", "dialog": state["dialog"]["number"] + 7})
            assert await tab.error() == "that dialog is out of date"
            await tab.send({"type": "set_option", "name": "../etc", "value": 1})
            assert "not an option name" in await tab.error()
            # escaped, a newline is three bytes of the protocol line: past the MAX_LINE that cuts the seat off
            await tab.send({"type": "set_option", "name": "Timeout", "value": "1" + "\n" * 30_000})
            assert await tab.error() == "value for Timeout too long (more than 500 characters)"
            await tab.send({"type": "join", "server": "localhost:1", "id": "²"})  # a digit to str.isdigit, not to int
            assert await tab.error() == "expected a non-negative number, got '²'"
            # nothing was sent to the server: the table is as it was
            await tab.send({"type": "hello", "token": xmj.token})
            await tab.receive()
            again = await tab.until(lambda s: True)
            assert json.dumps({k: v for k, v in again.items() if k != "dialog"}) == before
            # an illegal tile for a legal button
            await tab.press(again["dialog"], "ready")
            turn = await tab.play_until(lambda s: s["dialog"] is not None and s["dialog"]["kind"] == "turn")
            await tab.press(turn["dialog"], "discard", "XX")
            assert await tab.error() == "Discard is not possible with XX"

    with running_xmj("--timeout", "0", "--seed", "3") as xmj:
        run(scenario(xmj))


def test_a_hand_through_the_gateway_never_shows_another_seats_tiles() -> None:
    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            seen_scored = False
            answered: set[int] = set()
            while not seen_scored:
                message = await tab.receive(30)
                if message["type"] != "state" or not message["players"]:
                    continue
                assert others_hidden(message)
                me = next(p for p in message["players"] if p["id"] == message["me"])
                assert (me["hand"] is not None and len(me["hand"]) == me["concealed"]) or me["shown"] is not None
                scoring = message["scoring"]
                settled = scoring is not None and bool(scoring["settlement"])
                seen_scored = settled or message["game"]["washout"] is not None
                dialog = message["dialog"]
                if dialog is None or dialog["number"] in answered:
                    continue
                choice = default_choice(dialog)
                if choice is not None:
                    answered.add(dialog["number"])
                    await tab.press(dialog, *choice)

    with running_xmj("--timeout", "0", "--seed", "11") as xmj:
        run(scenario(xmj))


def test_a_browser_that_comes_back_with_its_token_has_the_same_seat() -> None:
    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            first = await tab.play_until(lambda s: s["game"]["phase"] == "playing" and s["dialog"] is not None)
        async with browser_tab(xmj.base, xmj.token) as tab:
            again = await tab.until(lambda s: True)
            assert tab.welcome is not None and tab.welcome["token"] == xmj.token
            assert again["me"] == first["me"]
            mine = [p["hand"] for p in again["players"] if p["id"] == again["me"]]
            assert mine == [p["hand"] for p in first["players"] if p["id"] == first["me"]]
            assert again["dialog"] is not None and again["dialog"]["kind"] == first["dialog"]["kind"]
        async with browser_tab(xmj.base, "no-such-token") as tab:
            await tab.receive()
            assert tab.welcome is not None and tab.welcome["token"] is None
            assert tab.welcome["caps"]["local"] is True

    with running_xmj("--timeout", "0", "--seed", "4") as xmj:
        run(scenario(xmj))


def test_chat_options_save_and_resume_from_the_page(tmp_path: Path) -> None:
    saved: list[list[str]] = []

    async def play_and_save(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            await tab.send({"type": "chat", "text": "  good   luck  "})
            line = (await tab.until(lambda s: bool(s["chat"])))["chat"][-1]
            assert (line["name"], line["text"], line["private"]) == ("Alice", "good luck", False)
            await tab.send({"type": "set_option", "name": "Timeout", "value": 0})  # we connected first: manager
            await tab.until(lambda s: any(o["name"] == "Timeout" and o["value"] == 0 for o in s["options"]))
            # saved while the table waits for our answer to a discard, so nothing moves meanwhile
            await tab.play_until(
                lambda s: len(s["players"][0]["discards"]) >= 2 and (s["dialog"] or {}).get("kind") == "claim"
            )
            await tab.send({"type": "save", "filename": "../mid-hand"})
            # the notice names the folder too: our local server writes into the one xmj was started in
            state = await tab.until(lambda s: f"Game saved as mid-hand.mjs in {tmp_path}" in s["notices"])
            assert state["connection"]["save_folder"] == str(tmp_path)
            saved.extend(p["discards"] for p in state["players"])

    async def resume(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:  # xmj's own page: local-game actions allowed
            await tab.receive()
            await tab.send({"type": "resume", "file": "mid-hand.mjs", "name": "Alice", "timeout": 0})
            state = await tab.until(lambda s: s["game"]["active"] and s["game"]["phase"] == "playing", 30)
            assert tab.welcome is not None and tab.welcome["token"]
            assert {p["name"] for p in state["players"]} == {"Alice", "Robot1", "Robot2", "Robot3"}
            assert [p["discards"] for p in state["players"]] == saved  # the hand goes on where it was saved

    with running_xmj("--timeout", "0", "--seed", "6", "--exit-on-disconnect", cwd=tmp_path) as xmj:
        run(play_and_save(xmj))
    assert (tmp_path / "mid-hand.mjs").exists()
    with running_xmj("--timeout", "0", cwd=tmp_path) as xmj:
        run(resume(xmj))


def test_mj_server_http_serves_the_client_and_seats_a_browser_at_its_table(tmp_path: Path) -> None:
    sock = tmp_path / "table.sock"
    server = subprocess.Popen(
        [*OUR_SERVER, "--server", str(sock), "--timeout", "0", "--http", "localhost:0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    robots: list[subprocess.Popen[bytes]] = []
    try:
        assert server.stdout is not None
        assert server.stdout.readline().strip() == f"OK: {sock}"
        http_line = server.stdout.readline().strip()
        assert http_line.startswith("HTTP: http://localhost:")
        base = http_line.split(" ", 1)[1]

        async def scenario() -> None:
            async with aiohttp.ClientSession() as http:
                async with http.get(base) as page:
                    assert page.status == 200
                    assert '<script type="module" src="/static/js/main.js">' in await page.text()
                async with http.get(base + "static/js/tiles.js") as module:
                    assert module.status == 200
            async with browser_tab(base, None) as tab:
                await tab.receive()
                assert tab.welcome is not None and tab.welcome["token"] is None
                assert tab.welcome["caps"] == {
                    "local": False,
                    "join_any": False,
                    "server": str(sock),
                    "name": "Player",
                    "level": 3,
                }
                await tab.send({"type": "new_game"})
                assert "does not start local games" in await tab.error()
                await tab.send({"type": "join", "name": "Bob", "server": "elsewhere:1"})  # the table's own only
                await tab.receive()
                assert tab.welcome["token"]
                for seat in range(3):
                    robot = [sys.executable, "-m", "mj.robot", "--server", str(sock), "--name", f"R{seat}"]
                    robots.append(subprocess.Popen(robot))
                state = await tab.until(lambda s: s["dialog"] is not None and s["dialog"]["kind"] == "ready", 30)
                names = {p["name"] for p in state["players"]}
                assert names == {"Bob", "R0", "R1", "R2"}

        run(scenario())
    finally:
        for process in [*robots, server]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
            if process.poll() is None:
                process.kill()
                process.wait()


def test_the_gateway_rejoins_its_seat_when_its_own_server_connection_drops(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    """The link between the gateway and the game server breaks mid-hand (a relay in between cuts it):
    the session rejoins as the same player, gets its hand back and play goes on."""
    table, relay = tmp_path / "table.sock", tmp_path / "relay.sock"
    server = subprocess.Popen(
        [*OUR_SERVER, "--server", str(table), "--timeout", "0", "--seed", "5"], stdout=subprocess.PIPE
    )
    processes.append(server)
    assert server.stdout is not None and server.stdout.readline().strip() == f"OK: {table}".encode()

    async def scenario() -> None:
        links: list[asyncio.StreamWriter] = []

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()

        async def relay_one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            upstream_reader, upstream = await asyncio.open_unix_connection(str(table))
            links.extend((writer, upstream))
            await asyncio.gather(pump(reader, upstream), pump(upstream_reader, writer))

        relaying = await asyncio.start_unix_server(relay_one, str(relay))
        session = Session(str(relay), "Alice")
        try:
            assert await session.start()
            for seat in range(3):
                robot = [sys.executable, "-m", "mj.robot", "--server", str(table), "--name", f"R{seat}"]
                processes.append(subprocess.Popen(robot))

            async def play(moves: int) -> None:
                deadline = time.monotonic() + 60
                while moves and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                    dialog = session.snapshot()["dialog"]
                    choice = default_choice(dialog) if dialog is not None else None
                    if choice is not None:
                        await session.act(*choice, dialog["number"])
                        moves -= 1
                assert not moves, f"the game stopped offering moves (status {session.status})"

            await play(12)
            me, hand = session.view.my_id, sorted(session.view.concealed)
            assert hand
            for link in links:
                link.transport.abort()
            deadline = time.monotonic() + 20
            seen = set()
            while time.monotonic() < deadline and not ("rejoining" in seen and session.status == "connected"):
                seen.add(session.status)
                await asyncio.sleep(0.02)
            assert "rejoining" in seen and session.status == "connected", (seen, session.status, session.detail)
            deadline = time.monotonic() + 10
            while sorted(session.view.concealed) != hand and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert session.view.my_id == me
            assert sorted(session.view.concealed) == hand
            await play(6)
        finally:
            await session.close()
            relaying.close()

    run(scenario())


def test_the_move_log_says_who_drew_and_discarded_and_when_our_claim_time_ran_out() -> None:
    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            answered: set[int] = set()
            deadline = time.monotonic() + 60
            while True:
                state = await tab.until(lambda _s: True)
                lines = [m["text"] for _, m in sorted(tab.moves.items()) if m["kind"] == "move"]
                if "Your time to claim ran out: no claim" in lines:
                    break
                assert time.monotonic() < deadline, f"no claim timed out; the log: {lines[-20:]}"
                dialog = state["dialog"]
                # every dialog answered with its default, except claims: those are left to time out
                if dialog is not None and dialog["kind"] != "claim" and dialog["number"] not in answered:
                    choice = default_choice(dialog)
                    if choice is not None:
                        answered.add(dialog["number"])
                        await tab.press(dialog, *choice)
                await tab.receive(deadline - time.monotonic())
            robot = next(p for p in state["players"] if p["id"] != state["me"])
            wind = {"E": "East", "S": "South", "W": "West", "N": "North"}[robot["wind"]]
            assert f"{robot['name']} ({wind}) draws a tile" in lines
            assert any(line.startswith(f"{robot['name']} ({wind}) discards ") for line in lines)
            # our own draws name the tile (only ours: the others' are hidden from us)
            assert any(re.fullmatch(r"Alice \(East\) draws ([1-9][BCD]|[ESWN]W|[RWG]D|[1-4][FS])", x) for x in lines)

    with running_xmj("--timeout", "1", "--seed", "3", options=("--level", "1")) as xmj:
        run(scenario(xmj))


def test_the_move_log_says_the_deal_in_one_line_not_a_line_a_tile() -> None:
    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.play_until(lambda s: s["dialog"] is not None and s["dialog"]["kind"] == "turn")
            lines = [m["text"] for _, m in sorted(tab.moves.items()) if m["kind"] == "move"]
            deals = lines.index("Hand 1: Alice (East) deals")
            dealt = lines.index("Tiles dealt")
            assert lines[deals + 1 : dealt] == [], "the deal's draws are logged one by one"
            assert lines.count("Tiles dealt") == 1

    with running_xmj("--timeout", "0", "--seed", "3", options=("--level", "1")) as xmj:
        run(scenario(xmj))


def test_an_http_address_out_of_range_is_a_usage_error_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        xmj_main(["--no-browser", "--http", "localhost:99999"])
    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert "xmj: error: argument --http: port out of range in 'localhost:99999'" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("option", "value", "error"),
    [
        ("--page-grace", "-1", "argument --page-grace: must be from 0 to 3600 seconds: '-1'"),
        ("--page-grace", "nan", "argument --page-grace: must be from 0 to 3600 seconds: 'nan'"),
        ("--page-grace", "inf", "argument --page-grace: must be from 0 to 3600 seconds: 'inf'"),
        ("--id", "-1", "argument --id: expected a whole number from 0 to 2147483647, not '-1'"),
        ("--id", "2147483648", "argument --id: expected a whole number from 0 to 2147483647, not '2147483648'"),
    ],
)
def test_a_page_grace_or_player_id_out_of_range_is_a_usage_error_before_any_game_starts(
    option: str, value: str, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A negative grace once started a game whose page could never come back; NaN or infinity one never ended."""
    with pytest.raises(SystemExit) as exited:
        xmj_main(["--no-browser", option, value])
    assert exited.value.code == 2
    assert f"xmj: error: {error}" in capsys.readouterr().err
