"""``xmj``: play in the browser. With no arguments, a local game against three robots.

As the original ``xmj``'s "New local game...", it starts our server on this machine
(a private Unix socket), takes the first seat for the person (so they sit East
unless seats are random), starts three of our robots, and opens the browser on
the page that shows that seat (``--no-browser`` only prints its address).
``--connect`` joins an existing server instead (``--server``, ``--name``, ``--id``
as the original's options). The page is served on this machine only
(``--http``, default any free port on localhost) and keeps working until Ctrl-C:
"New local game", "Join server" and "Resume game" start further games from it.

``--client xmj`` or ``--client none`` keep the same local game but leave the
person's seat to the original GTK ``xmj`` or to any client that connects to the
printed address.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from mj.argtypes import seconds, whole
from mj.play import default_address, play_with_protocol_client
from mj.rules import registry
from mj.rules.ruleset import Ruleset
from mj.savefile import MAX_PLAYER_ID
from mj.server.address import TcpAddress, parse_address
from mj.web.app import MAX_PAGE_GRACE, PAGE_GRACE_SECONDS, Gateway, GatewayConfig, RequestError, start_http
from mj.web.hosts import HostPolicy


def build_parser(prog: str = "xmj") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Mah-Jong in the browser: a local game, or join a server.")
    parser.add_argument("--connect", action="store_true", help="join the server at --server instead of a local game")
    parser.add_argument("--server", default=None,
                        help="with --connect: the server to join (default localhost:5000); "
                             "otherwise where the local server listens (default: a private Unix socket)")  # fmt: skip
    parser.add_argument("--name", default=os.environ.get("USER") or "Player", help="your name at the table")
    parser.add_argument("--id", type=whole(0, MAX_PLAYER_ID), default=0,
                        help="player id to rejoin a game with (default 0: new)")  # fmt: skip
    parser.add_argument("--http", default="localhost:0", metavar="HOST:PORT",
                        help="where the browser page is served (default: a free port on localhost)")  # fmt: skip
    parser.add_argument("--no-browser", action="store_true", help="print the page's address instead of opening it")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer pages that call this machine NAME (only the address the page is "
                             "served on and localhost are answered: a defence against DNS rebinding)")  # fmt: skip
    parser.add_argument("--page-grace", type=seconds(0, MAX_PAGE_GRACE), default=PAGE_GRACE_SECONDS, metavar="SECONDS",
                        help="how long a local game waits for its page to come back (a reload) before it is "
                             "ended (default %(default)s)")  # fmt: skip
    parser.add_argument("--level", type=int, choices=(1, 2, 3), default=3,
                        help="the robots' level (default 3, as mj-player's)")  # fmt: skip
    parser.add_argument("--client", choices=("browser", "xmj", "none"), default="browser",
                        help="who takes your seat: the browser (default), the original GTK xmj, "
                             "or none (wait for any client at the printed address)")  # fmt: skip
    parser.add_argument("--rules", default=registry.DEFAULT_NAME, metavar="NAME",
                        help=f"the rule system: {', '.join(registry.names())} (default %(default)s)")  # fmt: skip
    parser.add_argument("server_args", nargs=argparse.REMAINDER, help="after --: more mj-server options")
    return parser


async def _serve(args: argparse.Namespace, http: TcpAddress, server_args: list[str], rules: Ruleset) -> int:
    first = [args.server] if args.server and not args.connect else []

    def local_address() -> str:
        """--server for the game started now, private sockets for games started later from the page."""
        return first.pop() if first else default_address()

    config = GatewayConfig(
        rules=rules,
        target=None,
        local_games=http.host in ("localhost", "127.0.0.1", "::1"),
        default_name=args.name,
        server_args=tuple(server_args),
        level=args.level,
        local_address=local_address,
        hosts=HostPolicy.for_bind(http.host, args.allow_host),
        save_folder=Path.cwd(),
        page_grace=args.page_grace,
    )
    gateway = Gateway(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before the page's address is printed, as mj-server's
        loop.add_signal_handler(signum, stop.set)
    try:
        runner, url = await start_http(gateway, http.host, http.port)
    except OSError as exc:
        print(f"xmj: cannot serve the page on {args.http}: {exc}", file=sys.stderr)
        return 1
    try:
        try:
            if args.connect:
                session = await gateway.join(args.server or "localhost:5000", args.name, args.id)
            else:
                session = await gateway.new_local_game({"name": args.name, "id": args.id, "level": args.level})
        except RequestError as exc:
            print(f"xmj: {exc}", file=sys.stderr)
            return 1
        page = f"{url}?session={session.token}"
        print(f"xmj: your seat at {session.target} is at {page}\n"
              "  (open it in your browser; Ctrl-C ends xmj and its games)", flush=True)  # fmt: skip
        if not args.no_browser and _has_display():
            with contextlib.suppress(webbrowser.Error):
                webbrowser.open(page)
        await stop.wait()
        return 0
    finally:
        await gateway.close()
        await runner.cleanup()


def _has_display() -> bool:
    """A graphical browser can open here (without one, webbrowser might start a text browser in our terminal)."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: Sequence[str] | None = None, prog: str = "xmj") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    try:
        rules = registry.get(args.rules)
    except registry.RulesError as exc:
        print(f"{prog}: --rules: {exc}", file=sys.stderr)
        return 2
    server_args = ["--rules", args.rules, *(a for a in args.server_args if a != "--")]
    if args.client != "browser":
        if args.connect:
            parser.error("--connect joins a server in the browser; --client is for local games")
        return play_with_protocol_client(args.server or default_address(), args.name, args.client, args.level,
                                         server_args)  # fmt: skip
    try:
        http = parse_address(args.http)
    except ValueError as exc:
        parser.error(f"argument --http: {exc}")
    if not isinstance(http, TcpAddress):
        parser.error(f"--http wants HOST:PORT, not {args.http!r}")
    try:
        # the gateway adds --rules itself: the page may start a local game of another rule system
        return asyncio.run(_serve(args, http, server_args[2:], rules))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
