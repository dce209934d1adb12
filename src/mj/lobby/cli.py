"""``mj lobby``: serve the lobby on HOST:PORT with its records in the database named by ``--db``."""

from __future__ import annotations

import argparse
import asyncio
import gc
import signal
import socket
import sys
from typing import TYPE_CHECKING, Final

import uvloop

from mj.argtypes import seconds
from mj.lobby import DEFAULT_URL
from mj.lobby.proxies import HEADERS, X_FORWARDED_FOR, Network, parse_network
from mj.server.address import TcpAddress, parse_address

#: A table's lease (seconds): renewed a few times per lease, so not shorter; a process gone is
#: replaced after it, so not longer than an hour.
MIN_LEASE: Final = 1.0
MAX_LEASE: Final = 3600.0
#: The longest wait between robots' moves (seconds): a pace to watch, not a table stopped.
MAX_ROBOT_DELAY: Final = 60.0

if TYPE_CHECKING:
    from mj.lobby.app import Lobby


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("lobby", help="a lobby: many tables, accounts, records in a database")
    parser.add_argument(
        "--http", type=_http, default="localhost:8080", metavar="HOST:PORT", help="where to serve (%(default)s)"
    )
    parser.add_argument(
        "--db",
        default=DEFAULT_URL,
        metavar="URL",
        help="SQLAlchemy database URL (%(default)s; or postgresql+psycopg://...)",
    )
    parser.add_argument("--require-login", action="store_true", help="only people logged in may create tables")
    parser.add_argument(
        "--robot-delay",
        type=seconds(0.0, MAX_ROBOT_DELAY),
        default=0.0,
        metavar="SECONDS",
        help="wait between robots' moves (default: none)",
    )
    parser.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME", help="also answer this host name (repeatable)"
    )
    parser.add_argument(
        "--name", metavar="NAME",
        help="this process's name in the tables it plays (default: HOST:PORT of this machine); several lobby "
        "processes on one database need names of their own, and a restarted one its old name",
    )  # fmt: skip
    parser.add_argument(
        "--lease", type=seconds(MIN_LEASE, MAX_LEASE), default=15.0, metavar="SECONDS",
        help="how long a table stays this process's without a renewal, before another may take it (%(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--trusted-proxy", action="append", type=_network, default=[], metavar="ADDR",
        help="a reverse proxy (an address or a network) whose --proxy-header names the client; repeatable "
        "(default: none, every connection's own address is the client's)",
    )  # fmt: skip
    parser.add_argument(
        "--proxy-header", choices=HEADERS, default=X_FORWARDED_FOR,
        help="the header the trusted proxies name the client in (%(default)s)",
    )  # fmt: skip
    parser.set_defaults(run=run)


def _http(text: str) -> TcpAddress:
    try:
        address = parse_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not isinstance(address, TcpAddress):
        raise argparse.ArgumentTypeError(f"wants HOST:PORT, not {text!r}")
    return address


def _network(text: str) -> Network:
    try:
        return parse_network(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from mj.lobby.app import Lobby
    from mj.lobby.proxies import TrustedProxies
    from mj.lobby.store import Lease, Store, StoreError
    from mj.web.hosts import HostPolicy

    http: TcpAddress = args.http
    try:
        store = Store(args.db)
    except StoreError as exc:
        print(f"mj lobby: {exc}", file=sys.stderr)
        return 2
    lease = Lease(args.name or f"{socket.gethostname()}:{http.port}", args.lease)
    try:
        hosts = HostPolicy.for_bind(http.host, args.allow_host)
        proxies = TrustedProxies(tuple(args.trusted_proxy), args.proxy_header)
        lobby = Lobby(store, args.require_login, args.robot_delay, hosts, lease, proxies)
        # uvloop, as mj-server: asyncio's loop in C, a fraction of the CPU per wake-up of a busy lobby
        _calm_the_collector()
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(_serve(lobby, http))
    except KeyboardInterrupt:
        return 130
    finally:
        store.close()


def _calm_the_collector() -> None:
    """Keep the cyclic garbage collector from stalling every table at once.

    Hundreds of tables keep hundreds of thousands of long-lived objects; each full
    collection walks them all on the event loop's thread, and every move waiting
    then waits for it (the figures are in docs/lobby-scaling.md). What exists
    at start-up is frozen out of the collector's sight, and collections come ten
    times less often; the lobby's state is freed by reference counting.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 1_000)


async def _serve(lobby: Lobby, http: TcpAddress) -> int:
    from mj.web.serving import LOBBY_LIMITS, serve

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before the OK line: a signal sent on reading it stops us cleanly
        loop.add_signal_handler(signum, stop.set)
    try:
        runner, port = await serve(lobby.application(), http.host, http.port, LOBBY_LIMITS)
    except OSError as exc:
        print(f"mj lobby: cannot serve on {http.host}:{http.port}: {exc}", file=sys.stderr)
        return 1
    print(f"OK: http://{http.host}:{port}/", flush=True)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
    return 0
