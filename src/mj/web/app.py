"""The aiohttp application: the browser client's static files and its WebSocket, ``/ws``.

Browsers talk JSON over one WebSocket. Every message is an object with a
``type``; anything else gets ``{"type": "error", "message": ...}`` and changes
nothing. From the browser:

* ``hello {token}``: attach to the session with that token (a reload, a second
  tab, a dropped network); answered with ``welcome`` (the token, or null when
  there is no such session, and what this gateway allows) and a snapshot;
* ``join {name, id, server}``: take a seat at a game server (only this server's
  own table when served by ``mj-server --http``);
* ``new_game {...}`` / ``resume {...}``: start a local game (our server, robots)
  and take the first seat, as xmj's "New local game..." and "Resume game..." do
  (only when ``xmj`` serves the page on this machine, and only from its own page:
  see :class:`Gateway`);
* ``act {button, tile}``: press a button of the dialog the last snapshot offered;
* ``chat {text}``, ``save {filename}``, ``set_option {name, value}``, ``leave``.

To the browser: ``welcome``, ``state`` (the snapshot, :mod:`mj.web.snapshot`),
``announce {player, text, hand}`` (a claim shown over the claimer, for a moment of its hand) and
``error {message, request}`` (``request``: the type of the request refused, absent for the server's own errors).

A new local game, a resumed one or a seat at another server is taken before the game in
hand is left: the page stays in that game until the ``welcome`` of the new one, and a
start or join that fails is answered with an ``error`` while the game in hand goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Middleware

from mj.play import ROBOT_NAMES, LocalGame, default_address
from mj.protocol import pmsg as P
from mj.rules import registry
from mj.rules.options import OPTION_TABLE, OptionEntry, OptionError
from mj.rules.ruleset import Ruleset
from mj.server.address import Address, TcpAddress, UnixAddress
from mj.web.dialogs import ActionError
from mj.web.hosts import LOOPBACK_ONLY, HostPolicy, refuse_foreign_origin
from mj.web.serving import GATEWAY_LIMITS, HttpLimits, serve
from mj.web.session import Connector, Session

STATIC: Final = Path(__file__).parent / "static"
#: A session nobody has looked at for this long leaves its game (the server sees a disconnection).
IDLE_SECONDS: Final = 15 * 60
#: A local game whose page went away (and did not come back, as a reload does) is ended after this.
PAGE_GRACE_SECONDS: Final = 20.0
#: The longest grace xmj takes (--page-grace): a game kept longer for a page that is not coming back holds
#: its server and robots for nothing.
MAX_PAGE_GRACE: Final = 3600.0
#: The answer to a request for a host name not served: xmj, mj-server --http and mj lobby all serve
#: through this gateway, each with its own --allow-host.
MISDIRECTED: Final = "this host name is not served here (the server's --allow-host NAME adds one)\n"
#: Tokens remembered as this gateway's own pages (see :class:`Gateway`), the newest kept.
_OWN_TOKENS: Final = 256
#: Longest chat line, file name or option value accepted from a browser: whatever it holds, the protocol
#: line the gateway makes of it stays far below the server's MAX_LINE, which would cut the seat off.
MAX_TEXT: Final = 500
#: Largest browser message accepted, in bytes.
MAX_MESSAGE: Final = 64 * 1024
#: Table options a new-game request may set (IMS has three, Beijing twenty: the panel sends them all).
MAX_TABLE_OPTIONS: Final = 32

Json = dict[str, Any]


class RequestError(ValueError):
    """A browser request that cannot be carried out; ``str()`` is shown to the person."""


@dataclass(frozen=True, slots=True)
class GatewayConfig:
    """What this gateway lets browsers do."""

    #: The game server browsers join; None lets them name any server (xmj on one's own machine).
    target: str | None
    #: Browsers may start local games (server and robots on this machine).
    local_games: bool = False
    default_name: str = "Player"
    #: More mj-server options for local games (after the panel's, so they win).
    server_args: tuple[str, ...] = ()
    #: The robots' level in local games (mj-player's default).
    level: int = 3
    #: Where new local games listen; None picks a private Unix socket each time.
    local_address: Callable[[], str] | None = None
    #: The names of the ``Host`` and ``Origin`` headers answered (DNS rebinding, mj.web.hosts).
    hosts: HostPolicy = LOOPBACK_ONLY
    #: Where local games run, save, and find the games to resume (by name only); None: the working directory.
    save_folder: Path | None = None
    #: How long a local game outlives its page (PAGE_GRACE_SECONDS).
    page_grace: float = PAGE_GRACE_SECONDS
    #: The rule system of the tables joined (local games are started with it).
    rules: Ruleset = registry.DEFAULT


class Gateway:
    """Sessions by token, and the aiohttp application serving them.

    What starts processes or opens connections on this machine (a new local game,
    joining another server, resuming a file) is done only for the page of a session
    this gateway made: a socket that said ``hello`` with one of its tokens (the
    address ``xmj`` prints carries the first). Another page on the same browser
    cannot know a token, even with the Host and Origin checks passed.
    """

    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.sessions: dict[str, Session] = {}
        self._reaper: asyncio.Task[None] | None = None
        #: Every open browser socket, closed on shutdown (aiohttp would otherwise wait for them).
        self._sockets: set[web.WebSocketResponse] = set()
        #: Tokens of the sessions made here, ended ones too (a page that left its game may start another).
        self._own_tokens: dict[str, None] = {}
        #: Sockets that showed one of those tokens: the pages allowed local-game actions.
        self._trusted: set[web.WebSocketResponse] = set()
        #: Local games (by token) whose page has been open: they end soon after the page goes.
        self._paged: set[str] = set()

    # ------------------------------------------------------------------ sessions

    async def join(
        self, target: str, name: str, player_id: int = 0, connect: Connector | None = None, password: str | None = None
    ) -> Session:
        """A seat at ``target`` (reached through ``connect`` if given; ``password`` for a server that asks
        one, ``mj-server --auth-basic``); :class:`RequestError` if the server refuses or cannot be reached."""
        session = Session(target, name, player_id, password, rules=self.config.rules, connect=connect)
        if not await session.start():
            await session.close()
            raise RequestError(session.detail or "could not join the game")
        self._add(session)
        return session

    def _add(self, session: Session) -> None:
        self.sessions[session.token] = session
        self._own_tokens[session.token] = None
        while len(self._own_tokens) > _OWN_TOKENS:
            del self._own_tokens[next(iter(self._own_tokens))]

    async def new_local_game(self, request: Json) -> Session:
        """Our server and robots on this machine, with the person connected first (so seated East)."""
        name = _text(request.get("name"), self.config.default_name)
        rules = _rules(request.get("rules"), self.config.rules)
        server_args = ["--rules", rules.name, *_server_args(request)]
        if request.get("type") == "resume":
            server_args += ["--no-id-required", "--load-game", self._saved_game(request.get("file"))]
        option_file = _option_file(rules, request.get("table_options"))  # the last check: it makes a file
        if option_file is not None:
            server_args += ["--option-file", str(option_file)]
        game = LocalGame(self.config.local_address() if self.config.local_address else default_address(),
                         [*server_args, *self.config.server_args], cwd=self.config.save_folder)  # fmt: skip
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, game.start_server)
            session = Session(game.address, name, _int(request.get("id"), 0), rules=rules)
            session.local = True
            if not await session.start():
                await session.close()
                raise RequestError(session.detail or "could not join the local game")
            game.start_robots(_robot_names(request), _int(request.get("level"), self.config.level))
        except (OSError, RuntimeError) as exc:
            await loop.run_in_executor(None, _stop, game, option_file)
            raise RequestError(f"could not start a local game: {exc}") from exc
        except RequestError:
            await loop.run_in_executor(None, _stop, game, option_file)
            raise
        except asyncio.CancelledError:  # the gateway shutting down: waited for, as no later await would run
            _stop(game, option_file)
            raise

        async def stop_game() -> None:
            await loop.run_in_executor(None, _stop, game, option_file)  # without blocking the loop

        session.on_close = stop_game
        session.log.save_folder = str(self.config.save_folder or Path.cwd())  # where our server saves
        self._add(session)
        return session

    def _saved_game(self, value: object) -> str:
        """The name of a saved game in the save folder, checked: a plain file name, of a regular file there.

        A link is refused too: the child server would read wherever it points.
        """
        name = _text(value, "")
        if not name:
            raise RequestError("say which saved game (.mjs file) to resume")
        if name != os.path.basename(name) or name.startswith(".") or "\0" in name or "\\" in name:
            raise RequestError(f"{name!r}: give the name of a saved game in the save folder, not a path")
        folder = self.config.save_folder or Path.cwd()
        try:
            mode = os.lstat(folder / name).st_mode
        except OSError:
            raise RequestError(f"there is no saved game {name!r} in {folder}") from None
        if not stat.S_ISREG(mode):
            raise RequestError(f"{name!r} is not a saved game: not a regular file")
        return name

    async def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for session in list(self.sessions.values()):
            await session.close()
        self.sessions.clear()
        for ws in list(self._sockets):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.close(code=WSCloseCode.GOING_AWAY, message=b"xmj is shutting down")

    async def _reap(self) -> None:
        """Sessions without a browser for :data:`IDLE_SECONDS` leave their game; local games whose page went, sooner.

        A local game's page that reloads comes back within seconds; one that does not
        must not leave its server and robots running for a quarter of an hour.
        """
        grace = self.config.page_grace
        while True:
            await asyncio.sleep(max(0.2, min(30.0, grace / 4)))
            now = time.monotonic()
            for token, session in list(self.sessions.items()):
                since = session.orphaned_since
                if since is None:
                    continue
                limit = grace if token in self._paged else IDLE_SECONDS
                if now - since > limit:
                    del self.sessions[token]
                    self._paged.discard(token)
                    await session.close()

    # ------------------------------------------------------------------ HTTP

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self.served_hosts_only(), _no_cache])
        self.add_routes(app, "/")
        return app

    def served_hosts_only(self) -> Middleware:
        """The middleware refusing a request for a name that is not ours: a DNS-rebinding page (mj.web.hosts)."""
        hosts = self.config.hosts

        @web.middleware
        async def served_hosts_only(
            request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
        ) -> web.StreamResponse:
            if not hosts.allows_host(request.headers.get("Host")):
                raise web.HTTPMisdirectedRequest(text=MISDIRECTED)
            return await handler(request)

        return served_hosts_only

    def add_routes(self, app: web.Application, page: str) -> None:
        """The page at ``page``, its files and its WebSocket on ``app``: xmj's own, or ``mj lobby``'s."""
        app.router.add_get(page, self._index)
        app.router.add_get("/ws", self._websocket)
        app.router.add_static("/static", STATIC)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)

    async def _on_startup(self, _app: web.Application) -> None:
        self._reaper = asyncio.create_task(self._reap())

    async def _on_shutdown(self, _app: web.Application) -> None:
        await self.close()

    async def _index(self, _request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    def capabilities(self) -> Json:
        caps: Json = {
            "local": self.config.local_games,
            "join_any": self.config.target is None,
            "server": self.config.target or "",
            "name": self.config.default_name,
            "level": self.config.level,
        }
        if self.config.local_games:  # what the new-game panel offers
            caps.update(rules=self.config.rules.name, rule_systems=_rule_systems())
        return caps

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        refuse_foreign_origin(self.config.hosts, request)
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        self._sockets.add(ws)
        attached: list[Session] = []
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                kind = None
                try:
                    data = _request(message.data)
                    kind = data["type"]
                    await self._dispatch(ws, data, attached)
                except (RequestError, ActionError) as exc:
                    await _error(ws, str(exc), kind)
        finally:
            self._sockets.discard(ws)
            self._trusted.discard(ws)
            for session in attached:
                session.detach(ws)
        return ws

    async def _dispatch(self, ws: web.WebSocketResponse, data: Json, attached: list[Session]) -> None:
        kind = data["type"]
        handler = self._handlers().get(kind)
        if handler is None:
            raise RequestError(f"unknown message type {kind!r}")
        session = attached[0] if attached else None
        if kind in _NEEDS_SESSION and session is None:
            raise RequestError("you have no seat: join a game first")
        await handler(ws, data, session, attached)

    def _handlers(self) -> dict[str, Callable[[web.WebSocketResponse, Json, Session | None, list[Session]],
                                              Awaitable[None]]]:  # fmt: skip
        return {
            "hello": self._hello,
            "join": self._join,
            "new_game": self._new_game,
            "resume": self._new_game,
            "act": self._act,
            "chat": self._chat,
            "save": self._save,
            "set_option": self._set_option,
            "leave": self._leave,
        }

    async def _welcome(self, ws: web.WebSocketResponse, session: Session | None, attached: list[Session]) -> None:
        for old in attached:
            old.detach(ws)
        attached.clear()
        token = session.token if session is not None else None
        await ws.send_str(json.dumps({"type": "welcome", "token": token, "caps": self.capabilities()}))
        if session is not None:
            attached.append(session)
            if session.on_close is not None:  # a local game: it now has a page
                self._paged.add(session.token)
            await session.attach(ws)

    async def _hello(self, ws: web.WebSocketResponse, data: Json, _s: Session | None, attached: list[Session]) -> None:
        token = data.get("token")
        session = self.sessions.get(token) if isinstance(token, str) else None
        if isinstance(token, str) and token in self._own_tokens:
            self._trusted.add(ws)
        await self._welcome(ws, session, attached)

    def _check_own_page(self, ws: web.WebSocketResponse, what: str) -> None:
        if ws not in self._trusted:
            raise RequestError(f"{what} only from the page xmj opened (the address it printed, with ?session=)")

    async def _join(self, ws: web.WebSocketResponse, data: Json, old: Session | None, attached: list[Session]) -> None:
        target = self.config.target or _text(data.get("server"), "")
        if not target:
            raise RequestError("say which server to join (HOST:PORT or a socket path)")
        if self.config.target is None:
            self._check_own_page(ws, "joining another server is possible")
        name, player_id = _text(data.get("name"), self.config.default_name), _int(data.get("id"), 0)
        password = _password(data.get("password"))
        if old is not None and old.target == target:
            # one person cannot sit twice at one table: that server would refuse the second seat, or give it
            # before its game has started (and then keep the first one's place in that game)
            await self._leave_quietly(old)
            old = None
        seat = self.join(target, name, player_id, password=password)
        await self._replace(ws, old, attached, seat, f"joining {target}")

    async def _new_game(self, ws: web.WebSocketResponse, data: Json, old: Session | None,
                        attached: list[Session]) -> None:  # fmt: skip
        if not self.config.local_games:
            raise RequestError("this server does not start local games; join its table instead")
        self._check_own_page(ws, "local games are started")
        await self._replace(ws, old, attached, self.new_local_game(data), "a new game is starting")

    async def _replace(self, ws: web.WebSocketResponse, old: Session | None, attached: list[Session],
                       start: Coroutine[Any, Any, Session], doing: str) -> None:  # fmt: skip
        """Take the page from ``old`` to the game ``start`` seats it in (a new local game, a server joined).

        The game in hand goes on while the new one starts, and is left only once it has: a start
        that fails (its :class:`RequestError`) leaves the person in it. What else the page sends
        meanwhile is refused saying what is under way, ``doing``.
        """
        starting = asyncio.create_task(start)
        try:
            page_stayed = await _while_starting(ws, starting, doing)
        except asyncio.CancelledError:  # the gateway is shutting down: nothing of the new game may outlive it
            with contextlib.suppress(RequestError, asyncio.CancelledError):
                await self._leave_quietly(await starting)
            raise
        session = starting.result()  # a start that failed raises its RequestError here
        if not page_stayed:  # the page that asked went away (a reload is back in the game in hand): not wanted
            await self._leave_quietly(session)
            return
        if old is not None:
            old.detach(ws)  # this page goes straight to the new game, without the old one's last snapshot
        await self._leave_quietly(old)
        await self._welcome(ws, session, attached)

    async def _act(self, _ws: web.WebSocketResponse, data: Json, session: Session | None, _a: list[Session]) -> None:
        assert session is not None
        await session.act(data.get("button"), data.get("tile"), data.get("dialog"))

    async def _chat(self, _ws: web.WebSocketResponse, data: Json, session: Session | None, _a: list[Session]) -> None:
        assert session is not None
        text = _text(data.get("text"), "")
        if not text:
            raise RequestError("nothing to send")
        session.send(P.SendMessage(0, " ".join(text.split())))

    async def _save(self, _ws: web.WebSocketResponse, data: Json, session: Session | None, _a: list[Session]) -> None:
        assert session is not None
        session.send(P.SaveState(_text(data.get("filename"), "").replace("\n", " ")))

    async def _set_option(self, _ws: web.WebSocketResponse, data: Json, session: Session | None,
                          _a: list[Session]) -> None:  # fmt: skip
        assert session is not None
        name = _text(data.get("name"), "")
        value = data.get("value")
        if not name.isalnum() or len(name) > 15:
            raise RequestError(f"not an option name: {name!r}")
        if isinstance(value, bool):
            value = int(value)
        if not isinstance(value, int | str):
            raise RequestError(f"bad value for {name}")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise RequestError(f"value for {name} too long (more than {MAX_TEXT} characters)")
        session.send(P.SetGameOption(name, str(value)))

    async def _leave(self, ws: web.WebSocketResponse, _d: Json, session: Session | None,
                     attached: list[Session]) -> None:  # fmt: skip
        await self._leave_quietly(session)
        await self._welcome(ws, None, attached)

    async def _leave_quietly(self, session: Session | None) -> None:
        if session is None:
            return
        self.sessions.pop(session.token, None)
        self._paged.discard(session.token)
        await session.close()
        await session.broadcast()


_NEEDS_SESSION: Final = frozenset(("act", "chat", "save", "set_option"))


#: What a page's socket says when it goes away.
_GONE: Final = frozenset((WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR))


async def _while_starting(ws: web.WebSocketResponse, start: asyncio.Task[Session], doing: str) -> bool:
    """Wait for a new game's ``start``, reading the page meanwhile; False if the page went away.

    Whatever else the page sends before the new game is there is refused, saying ``doing`` (a move
    could be meant for either game), and its socket closing is seen now, not once the game has started.
    """
    while not start.done():
        receive = asyncio.ensure_future(ws.receive())
        await asyncio.wait((start, receive), return_when=asyncio.FIRST_COMPLETED)
        if not receive.done():
            receive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receive
            break
        message = receive.result()
        if message.type in _GONE:
            await asyncio.wait((start,))
            return False
        if message.type is WSMsgType.TEXT:
            kind = None
            with contextlib.suppress(RequestError):
                kind = _request(message.data)["type"]
            await _error(ws, f"{doing}: wait until that has succeeded or failed", kind)
    return True


def _request(text: str) -> Json:
    """A browser's message, checked to be a JSON object with a string ``type``; :class:`RequestError` if not.

    A nesting deeper than Python's recursion limit, or a number of more digits than Python converts, is bad
    input like any other, not a crash of the page's socket.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestError(f"malformed message (not JSON): {exc.msg}") from None
    except RecursionError:
        raise RequestError("malformed message (nested too deeply)") from None
    except ValueError:  # the only other one json raises: int()'s limit on digits
        raise RequestError("malformed message (a number with too many digits)") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RequestError("a message must be a JSON object with a string 'type'")
    return data


@web.middleware
async def _no_cache(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """The client's files change with the package: never let a browser run yesterday's modules."""
    response = await handler(request)
    with contextlib.suppress(RuntimeError, AttributeError):
        response.headers["Cache-Control"] = "no-cache"
    return response


async def _error(ws: web.WebSocketResponse, text: str, request: str | None = None) -> None:
    """Say ``text``; ``request``: the type of the request refused (the page waits for a new game's answer)."""
    error: Json = {"type": "error", "message": text}
    if request is not None:
        error["request"] = request
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_str(json.dumps(error))


def _text(value: object, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise RequestError(f"expected text, got {type(value).__name__}")
    value = value.strip()
    if len(value) > MAX_TEXT:
        raise RequestError(f"text too long (more than {MAX_TEXT} characters)")
    return value or default


def _password(value: object) -> str | None:
    """A password as typed, None when none was given."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise RequestError(f"expected text, got {type(value).__name__}")
    if len(value) > MAX_TEXT:
        raise RequestError(f"password too long (more than {MAX_TEXT} characters)")
    return value


def _int(value: object, default: int) -> int:
    if value is None or value == "":
        return default
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():  # isdigit alone takes "²"
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise RequestError(f"expected a non-negative number, got {value!r}")


def _server_args(request: Json) -> list[str]:
    """The mj-server options of the "New local game..." panel (the manual's defaults when absent)."""
    args = ["--timeout", str(_int(request.get("timeout"), 15))]
    if not request.get("allow_disconnect"):
        args.append("--exit-on-disconnect")
    if request.get("save_on_exit"):
        args.append("--save-on-exit")
    if request.get("random_seats"):
        args.append("--random-seats")
    return args


def _rules(value: object, default: Ruleset) -> Ruleset:
    """The rule system a local game is asked to play (the gateway's own when not said)."""
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise RequestError("rules: the name of a rule system")
    try:
        return registry.get(value)
    except registry.RulesError as exc:
        raise RequestError(str(exc)) from None


def _own_options(rules: Ruleset) -> list[OptionEntry]:
    """A rule system's table options beyond the classical table's (IMS: CountFlowers, MultipleWins, MinimumFan)."""
    classical = {e.name for e in OPTION_TABLE}
    return [e for e in rules.new_options().entries() if e.name not in classical]


def _rule_systems() -> list[Json]:
    """The rule systems a local game may play, each with its own table options, for the new-game panel."""
    systems = []
    for name in registry.names():
        try:
            rules = registry.get(name)
        except registry.RulesError:
            continue  # known but not written yet
        options = [{"name": e.name, "type": e.type.value, "value": e.value, "description": e.description}
                   for e in _own_options(rules)]  # fmt: skip
        systems.append({"name": name, "options": options})
    return systems


def _option_file(rules: Ruleset, value: object) -> Path | None:
    """The panel's table options, checked as SetGameOption would, in an option file for the server (None: none)."""
    if value is None or value == {}:
        return None
    if not isinstance(value, dict) or len(value) > MAX_TABLE_OPTIONS:
        raise RequestError("table_options: an object of option names and values")
    options = rules.new_options()
    own = {e.name for e in _own_options(rules)}
    lines = []
    for name, setting in value.items():
        if name not in own:
            raise RequestError(f"table_options: the {rules.name} rules have no table option {name!r}")
        if isinstance(setting, bool):
            setting = int(setting)
        if not isinstance(setting, int):
            raise RequestError(f"table_options: {name} wants a number or true/false, not {setting!r}")
        try:
            entry = options.set_from_text(name, str(setting))
        except OptionError as exc:
            raise RequestError(f"table_options: {exc}") from None
        lines.append(f"GameOption 0 {entry.encode()}\n")
    handle, path = tempfile.mkstemp(prefix="xmj-", suffix=".opt")
    with os.fdopen(handle, "w") as file:
        file.writelines(lines)
    return Path(path)


def _stop(game: LocalGame, option_file: Path | None) -> None:
    game.stop()
    if option_file is not None:
        option_file.unlink(missing_ok=True)


def _robot_names(request: Json) -> list[str]:
    robots = request.get("robots")
    if robots is None:
        return list(ROBOT_NAMES)
    if not isinstance(robots, list) or len(robots) > 3:
        raise RequestError("robots: a list of up to three {enabled, name}")
    names = []
    for index, robot in enumerate(robots):
        if not isinstance(robot, dict):
            raise RequestError("robots: a list of up to three {enabled, name}")
        if robot.get("enabled", True):
            names.append(_text(robot.get("name"), ROBOT_NAMES[index]))
    return names


async def start_http(
    gateway: Gateway, host: str, port: int, limits: HttpLimits = GATEWAY_LIMITS
) -> tuple[web.AppRunner, str]:
    """Serve ``gateway`` on ``host:port`` (0: any free port) in the running loop; the runner and the URL."""
    runner, bound_port = await serve(gateway.application(), host, port, limits)
    shown = host if host not in ("", "0.0.0.0", "::") else "localhost"
    return runner, f"http://{shown}:{bound_port}/"


async def serve_table(
    address: Address, bound: TcpAddress | None, http: TcpAddress, rules: Ruleset, allow_hosts: Sequence[str] = ()
) -> tuple[web.AppRunner, str]:
    """``mj-server --http``: the browser client for the table at ``address``, in the server's own loop."""
    if isinstance(address, UnixAddress):
        target = address.path
    else:
        host = address.host if address.host not in ("", "0.0.0.0", "::") else "localhost"
        target = f"{host}:{bound.port if bound is not None else address.port}"
    config = GatewayConfig(target=target, hosts=HostPolicy.for_bind(http.host, allow_hosts), rules=rules)
    return await start_http(Gateway(config), http.host, http.port)
