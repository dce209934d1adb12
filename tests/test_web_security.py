"""The xmj gateway against hostile pages: DNS rebinding, foreign origins, and what only its own page may do.

Spoken to over HTTP and its WebSocket as a browser would (the helpers of
tests/test_web.py), with ``xmj`` running a local game as a person starts it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from conftest import OUR_SERVER
from mj.web.hosts import HostPolicy, host_name
from procs import children_of
from test_input_files import CORRUPT_SAVES, save_text
from test_web import Xmj, browser_tab, run, running_xmj


def wait_for(test: object, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def port_of(xmj: Xmj) -> str:
    return xmj.base.rstrip("/").rpartition(":")[2]


async def status_for_host(base: str, host: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(base, headers={"Host": host}) as page:
        return page.status


async def websocket_status(base: str, host: str, origin: str | None) -> int:
    """101 if the WebSocket opens with these headers, else the refusal's status."""
    headers = {"Host": host, **({"Origin": origin} if origin is not None else {})}
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(base + "ws", headers=headers):
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


def test_a_dns_rebinding_host_is_refused_and_the_names_served_are_answered() -> None:
    async def scenario(xmj: Xmj) -> None:
        port = port_of(xmj)
        assert await status_for_host(xmj.base, f"evil.example:{port}") == 421
        assert await status_for_host(xmj.base, f"localhost.evil.example:{port}") == 421
        assert await websocket_status(xmj.base, f"evil.example:{port}", f"http://evil.example:{port}") == 421
        for ours in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", f"mj.lan:{port}"):
            assert await status_for_host(xmj.base, ours) == 200, ours

    with running_xmj("--timeout", "0", options=("--allow-host", "mj.lan")) as xmj:
        run(scenario(xmj))


def test_a_websocket_from_a_foreign_origin_is_refused() -> None:
    async def scenario(xmj: Xmj) -> None:
        port = port_of(xmj)
        here = f"localhost:{port}"
        assert await websocket_status(xmj.base, here, f"http://evil.example:{port}") == 403
        assert await websocket_status(xmj.base, here, "http://localhost:1") == 403, "another site on this machine"
        assert await websocket_status(xmj.base, here, "null") == 403
        assert await websocket_status(xmj.base, here, f"http://127.0.0.1:{port}") == 101, "our page by address"
        assert await websocket_status(xmj.base, here, f"http://localhost:{port}") == 101

    with running_xmj("--timeout", "0") as xmj:
        run(scenario(xmj))


def test_local_game_actions_only_from_the_page_xmj_opened() -> None:
    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, "a-guessed-token") as tab:
            await tab.receive()
            for request in (
                {"type": "new_game"},
                {"type": "resume", "file": "game.mjs"},
                {"type": "join", "server": "127.0.0.1:22"},
            ):
                await tab.send(request)
                assert "only from the page xmj opened" in await tab.error(), request
        async with browser_tab(xmj.base, xmj.token) as tab:  # the page xmj opened: allowed
            await tab.until(lambda s: s["game"]["started"])
            await tab.send({"type": "join", "server": "127.0.0.1:1"})
            assert "cannot connect to 127.0.0.1:1" in await tab.error()

    with running_xmj("--timeout", "0") as xmj:
        children = children_of(xmj.process.pid)
        run(scenario(xmj))
        assert len(children) == 4, "precondition: the local game's server and robots"


@pytest.mark.parametrize(
    ("file", "error"),
    [
        ("/etc/shadow", "not a path"),
        ("../x.mjs", "not a path"),
        ("sub/x.mjs", "not a path"),
        (".hidden.mjs", "not a path"),
        ("missing.mjs", "there is no saved game 'missing.mjs'"),
        ("fifo", "not a regular file"),
        ("link.mjs", "not a regular file"),
    ],
)
def test_resume_takes_only_a_saved_game_of_the_save_folder_by_name(file: str, error: str, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link.mjs").symlink_to("/etc/passwd")

    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            state = await tab.until(lambda s: s["game"]["started"])
            await tab.send({"type": "resume", "file": file})
            assert error in await tab.error()
            await tab.send({"type": "hello", "token": xmj.token})
            await tab.receive()
            assert tab.welcome is not None and tab.welcome["token"] == xmj.token, "the game in hand goes on"
            assert (await tab.until(lambda s: True))["me"] == state["me"]

    with running_xmj("--timeout", "0", cwd=tmp_path) as xmj:
        before = sorted(children_of(xmj.process.pid))
        run(scenario(xmj))
        assert sorted(children_of(xmj.process.pid)) == before, "no process started, none left behind"


def test_a_failed_load_reports_its_real_reason_to_the_page_and_leaves_no_process_of_its_own(tmp_path: Path) -> None:
    corrupt, reason = CORRUPT_SAVES["short wall"]
    (tmp_path / "bad.mjs").write_bytes(corrupt(save_text()).encode("latin-1"))

    async def scenario(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])
            await tab.send({"type": "resume", "file": "bad.mjs"})
            message = await tab.error(timeout=20)
            assert reason in message and "address already in use" not in message, message

    with running_xmj("--timeout", "0", cwd=tmp_path) as xmj:
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4), "precondition: server and robots"
        before = sorted(children_of(xmj.process.pid))
        run(scenario(xmj))
        assert sorted(children_of(xmj.process.pid)) == before, "the failed server ended, the game in hand goes on"


def test_a_local_game_ends_soon_after_its_page_goes() -> None:
    async def visit(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.until(lambda s: s["game"]["started"])

    with running_xmj("--timeout", "0", options=("--page-grace", "1")) as xmj:
        assert wait_for(lambda: len(children_of(xmj.process.pid)) == 4)
        time.sleep(2)
        assert len(children_of(xmj.process.pid)) == 4, "a game whose page never came is not ended so soon"
        run(visit(xmj))
        assert wait_for(lambda: not children_of(xmj.process.pid), timeout=15), "its server and robots are ended"


def routed_address() -> str | None:
    """The address this machine sends from towards a foreign one (None: no route out, loopback only)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("203.0.113.9", 9))  # a datagram socket's connect sends nothing
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") else address


def test_the_host_policy_answers_its_names_and_ip_addresses_only_when_bound_to_all() -> None:
    local = HostPolicy.for_bind("localhost", ["Mj.Lan."])
    assert local.allows_host("MJ.lan:8000") and local.allows_host("[::1]:80") and local.allows_host("127.0.0.1")
    assert not local.allows_host("192.168.1.5:8000") and not local.allows_host("") and not local.allows_host(None)
    everywhere = HostPolicy.for_bind("0.0.0.0")
    assert everywhere.allows_host("127.0.0.2:8000") and everywhere.allows_host("[::ffff:127.0.0.1]:8000")
    mine = routed_address()
    if mine is not None:  # a machine with a network: its own address is a name of the gateway
        assert everywhere.allows_host(f"{mine}:8000") and not local.allows_host(f"{mine}:8000")
    assert not everywhere.allows_host("evil.example:8000")
    assert local.allows_origin(None, "localhost:8000"), "no Origin: not a page"
    assert not local.allows_origin("http://localhost:8001", "localhost:8000")
    assert not local.allows_origin("file://", "localhost:8000")
    assert host_name("[::1]:5") == "::1" and host_name("LocalHost.:5") == "localhost"


@pytest.mark.parametrize(
    "address", ["203.0.113.9", "8.8.8.8", "[2001:db8::1]", "0.0.0.0", "255.255.255.255", "224.0.0.1", "[fe80::1]"]
)
def test_bound_to_every_interface_an_ip_address_of_another_machine_is_not_ours(address: str) -> None:
    everywhere = HostPolicy.for_bind("0.0.0.0")
    assert not everywhere.allows_host(f"{address}:8000")
    assert not everywhere.allows_origin(f"http://{address}:8000", "127.0.0.1:8000")


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://[::1", "localhost"),  # unclosed bracket
        ("http://[::1:8000", "localhost:8000"),
        ("http://[::1]]:8000", "localhost:8000"),
        ("http://[::1]x:8000", "localhost:8000"),  # something between the bracket and the port
        ("http://[localhost]:8000", "localhost:8000"),  # brackets around no IPv6 address
        ("http://[127.0.0.1]:8000", "localhost:8000"),
        ("http://[::1%25lo]:8000", "localhost:8000"),  # a zone, which no origin carries
        ("http://localhost:", "localhost:"),  # bad ports
        ("http://localhost:http", "localhost"),
        ("http://localhost:80:80", "localhost"),
        ("http://localhost:-80", "localhost"),
        ("http://localhost:99999", "localhost:99999"),
        ("http://localhost:0", "localhost:0"),
        ("http://localhost: 8000", "localhost:8000"),
        ("http://", "localhost"),  # empty hosts
        ("http://:8000", "localhost:8000"),
        ("http://[]:8000", "localhost:8000"),
        ("http://user@localhost:8000", "localhost:8000"),  # user information
        ("http://[::1]@evil.example:8000", "localhost:8000"),
        ("http://user:secret@[::1]:8000", "localhost:8000"),
        ("http://localhost:8000/", "localhost:8000"),  # path, query, fragment
        ("http://[::1]/x:8000", "localhost:8000"),
        ("http://localhost:8000?a", "localhost:8000"),
        ("http://localhost#:8000", "localhost:8000"),
        ("http://local host:8000", "localhost:8000"),
        ("http:/localhost:8000", "localhost:8000"),  # not scheme://
        ("HTTP://localhost:8000", "localhost:8000"),
        ("ws://localhost:8000", "localhost:8000"),
        ("null", "localhost:8000"),
    ],
)
def test_a_malformed_origin_is_no_page_of_ours_though_it_names_our_host(origin: str, host: str) -> None:
    """A browser sends ``scheme://host[:port]``, nothing else: any other text names no page the gateway served."""
    policy = HostPolicy.for_bind("localhost")
    assert not policy.allows_origin(origin, host)
    assert not policy.allows_origin(origin, host, "https")


@pytest.mark.parametrize(
    ("origin", "host", "scheme"),
    [
        ("http://localhost:8000", "localhost:8000", "http"),
        ("http://[::1]:8000", "[::1]:8000", "http"),
        ("http://[::1]", "[::1]", "http"),
        ("http://127.0.0.1", "127.0.0.1", "http"),
        ("https://localhost", "localhost", "https"),
        ("https://localhost:65535", "localhost:65535", "http"),
        ("http://LocalHost.:8000", "localhost:8000", "http"),
    ],
)
def test_an_origin_of_our_own_pages_is_ours(origin: str, host: str, scheme: str) -> None:
    assert HostPolicy.for_bind("localhost").allows_origin(origin, host, scheme)


@pytest.mark.parametrize("program", ["mj-server --http", "mj lobby"])
def test_on_every_interface_the_websocket_is_taken_only_from_a_page_of_this_machine(
    program: str, tmp_path: Path
) -> None:
    """A page served from a foreign address on the gateway's port number must not drive a seat."""
    if program == "mj lobby":
        command = [sys.executable, "-m", "mj.cli", "lobby", "--db", f"sqlite:///{tmp_path}/lobby.db"]
    else:
        command = [*OUR_SERVER, "--server", str(tmp_path / "table.sock"), "--timeout", "0"]
    server = subprocess.Popen([*command, "--http", "0.0.0.0:0"], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        if program != "mj lobby":
            line = server.stdout.readline()  # after the game port's OK line
        port = line.strip().rstrip("/").rpartition(":")[2]
        base = f"http://127.0.0.1:{port}/"

        async def scenario() -> None:
            here = f"127.0.0.1:{port}"
            for foreign in ("203.0.113.9", "8.8.8.8", "[2001:db8::1]"):
                assert await websocket_status(base, here, f"http://{foreign}:{port}") == 403, foreign
                assert await status_for_host(base, f"{foreign}:{port}") == 421, foreign
            assert await websocket_status(base, here, f"http://127.0.0.1:{port}") == 101
            mine = routed_address()
            if mine is not None:
                assert await websocket_status(base, f"{mine}:{port}", f"http://{mine}:{port}") == 101

        run(scenario())
    finally:
        server.terminate()
        server.wait(timeout=20)
