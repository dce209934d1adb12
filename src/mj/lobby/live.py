"""The live side of the lobby's API: taking a seat, watching a table, chatting.

A seat is taken with ``POST /api/tables/ID/sit``: the answer's ``page`` is the xmj
page showing that seat (its token in the address, kept by the browser). The seat is
the account's, else the guest's browser's (its key's cookie): a name alone, which
anyone reads in the table listing, never takes back a seat and its concealed tiles. Spectators
open the WebSocket ``/api/tables/ID/watch``, which sends ``{"type": "public",
"lines": [...]}`` with the table's public lines (all so far, then each batch) and
``{"type": "chat", "name", "text"}``, after a first ``{"type": "rules", "wild_of": {...}}``:
the wild tile each indicator names at this table (empty without wilds). Chat in the lobby and at a table is stored with
the table's game.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final

from aiohttp import WSMsgType, web

from mj.lobby import rules
from mj.lobby.accounts import (
    COOKIE,
    GUEST_COOKIE,
    AccountError,
    Accounts,
    Who,
    check_name,
    guest_key,
    name_key,
    token_hash,
)
from mj.lobby.api import body, error, keep_cookie, path_id
from mj.lobby.fanout import Fanout
from mj.lobby.limits import CHAT_BURST, CHAT_RATE, MAX_WATCHING_PER_ADDRESS, ChatLimit, address, client
from mj.lobby.public import hides_concealed_kongs, public_view
from mj.lobby.runner import TableRunner
from mj.lobby.seats import PAGE, LobbyGateway, SeatError, SeatHeld
from mj.lobby.store import Store
from mj.lobby.tables import SEATS, Tables, TooManyTables, robots_seated
from mj.protocol import cmsg as C
from mj.rules.ruleset import Ruleset
from mj.web.hosts import refuse_foreign_origin

Json = dict[str, Any]
MAX_CHAT: Final = 300
#: Chat lines kept per table in memory for spectators who come later.
KEPT_CHAT: Final = 200
#: Spectators per table at most.
MAX_SPECTATORS: Final = 200


class Live:
    def __init__(
        self, store: Store, tables: Tables, accounts: Accounts, gateway: LobbyGateway, require_login: bool,
        fanout: Fanout,
    ) -> None:  # fmt: skip
        self.store = store
        self.fanout = fanout
        self.require_login = require_login
        self.tables = tables
        self.accounts = accounts
        self.gateway = gateway
        self.spectators: dict[int, set[web.WebSocketResponse]] = {}
        self.chat_limit = ChatLimit()
        #: Spectator sockets open, by address.
        self._watching: Counter[str] = Counter()

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/api/tables/{table}/sit", self.sit)
        app.router.add_post("/api/tables/{table}/robot", self.add_robot)
        app.router.add_get("/api/tables/{table}/watch", self.watch)
        app.router.add_post("/api/tables/{table}/chat", self.table_chat)
        app.router.add_get("/api/tables/{table}/chat", self.read_table_chat)
        app.router.add_post("/api/chat", self.lobby_chat)
        app.router.add_get("/api/chat", self.read_lobby_chat)

    def _runner(self, request: web.Request) -> TableRunner:
        table = path_id(request, "table")
        runner = self.tables.runners.get(table)
        if runner is None:
            row = self.store.table(table)
            if row is not None and row.status == "finished":
                raise error(web.HTTPConflict, "this table's game is over")
            if row is not None and row.process is not None and row.process != self.tables.lease.process:
                raise error(web.HTTPNotFound, f"table {table} is played by the lobby process {row.process}")
            raise error(web.HTTPNotFound, "no such table here")
        return runner

    def _who(self, request: web.Request) -> Who | None:
        """The account the request's session cookie is logged in to (a look-up in the record: once a request)."""
        return self.accounts.who(request.cookies.get(COOKIE))

    def _speaker(self, who: Who | None, data: Json, holds: Callable[[str], bool] | None = None) -> str:
        """The name a request of ``who`` speaks or sits under: the account's, or a guest's that no account has,
        unless the guest ``holds`` the seat of that name (an account of their name made while they were away
        takes no seat from them)."""
        if who is not None:
            return who.name
        try:
            name = check_name(data.get("name"))
        except AccountError as exc:
            raise error(web.HTTPBadRequest, str(exc)) from None
        if self.accounts.exists(name) and (holds is None or not holds(name)):
            raise error(web.HTTPBadRequest, f"{name!r} is an account's name: log in to use it")
        return name

    async def sit(self, request: web.Request) -> web.Response:
        """A seat, bound to the account, else to the guest's key (its cookie, made at a guest's first seat)."""
        runner = self._runner(request)
        data = await body(request)
        who = self._who(request)
        key = guest_key(request.cookies.get(GUEST_COOKIE))
        key_hash = token_hash(key)
        name = self._speaker(who, data, functools.partial(_held_by, runner, key_hash))
        connect = functools.partial(self.tables.connect, runner.row.id)
        try:
            session = await self.gateway.sit(runner, name, who, key_hash, connect)
        except SeatHeld as exc:
            raise error(web.HTTPForbidden, str(exc)) from None
        except SeatError as exc:
            raise error(web.HTTPConflict, str(exc)) from None
        response = web.json_response({"token": session.token, "page": f"{PAGE}?session={session.token}", "name": name})
        if who is None:
            keep_cookie(request, response, GUEST_COOKIE, key)
        return response

    async def add_robot(self, request: web.Request) -> web.Response:
        runner = self._runner(request)
        who = self._who(request)
        if self.require_login and who is None:
            raise error(web.HTTPUnauthorized, "log in to seat robots")
        if runner.finished or runner.error is not None or len(runner.play.table.players) >= 4:
            raise error(web.HTTPConflict, "no free seat at this table")
        if robots_seated(runner) == SEATS - 1:  # the last seat: robots alone then
            try:
                self.tables.check_robots_alone(runner.row.made_by, client(request, who))
            except TooManyTables as exc:
                raise error(web.HTTPTooManyRequests, str(exc)) from None
        return web.json_response({"name": runner.add_robot()}, status=201)

    async def watch(self, request: web.Request) -> web.StreamResponse:
        refuse_foreign_origin(self.gateway.config.hosts, request)
        table = path_id(request, "table")
        with self._spectator_place(request):
            if table not in self.tables.runners:
                return await self._watch_record(request, table)
            return await self._watch_live(request)

    @contextlib.contextmanager
    def _spectator_place(self, request: web.Request) -> Iterator[None]:
        """One of the :data:`MAX_WATCHING_PER_ADDRESS` spectator places of the request's address (429 beyond),
        held while the spectator watches."""
        key = address(request)
        if self._watching[key] >= MAX_WATCHING_PER_ADDRESS:
            raise error(web.HTTPTooManyRequests, f"this address watches {MAX_WATCHING_PER_ADDRESS} tables already")
        self._watching[key] += 1
        try:
            yield
        finally:
            self._watching[key] -= 1
            if not self._watching[key]:
                del self._watching[key]

    async def _watch_live(self, request: web.Request) -> web.StreamResponse:
        runner = self._runner(request)
        watchers = self.spectators.setdefault(runner.row.id, set())
        if len(watchers) >= MAX_SPECTATORS:
            raise error(web.HTTPServiceUnavailable, "this table has as many spectators as it can take")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024)
        await ws.prepare(request)
        watchers.add(ws)
        runner.spectators = len(watchers)
        reader = asyncio.create_task(_drain(ws))
        lines = chat = 0
        try:
            await ws.send_str(_rules_frame(runner.play.table.settings.rules))
            while not ws.closed:
                changed = runner.changed
                frame, new_chat = runner.public_frame(lines), runner.chat[chat:]
                lines, chat = runner.published, chat + len(new_chat)
                if frame is not None:
                    await ws.send_str(frame)
                for name, text in new_chat:
                    await ws.send_str(json.dumps({"type": "chat", "name": name, "text": text}))
                if runner.finished and lines == len(runner.play.public):
                    break  # everything is sent: the game will say no more
                waiter = asyncio.ensure_future(changed.wait())
                done, _ = await asyncio.wait([reader, waiter], return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if reader in done:
                    break
        except (ConnectionError, RuntimeError):
            pass
        finally:
            watchers.discard(ws)
            runner.spectators = len(watchers)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await ws.close()
        return ws

    async def _watch_record(self, request: web.Request, table: int) -> web.StreamResponse:
        """A table another process plays (or played): its public lines read from the record as
        they are stored, woken by that process's notifications (:mod:`mj.lobby.fanout`)."""
        game = self.store.game_of_table(table)
        if game is None:
            raise error(web.HTTPNotFound, "no such table")
        watchers = self.spectators.setdefault(table, set())
        if len(watchers) >= MAX_SPECTATORS:
            raise error(web.HTTPServiceUnavailable, "this table has as many spectators as it can take")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024)
        await ws.prepare(request)
        watchers.add(ws)
        reader = asyncio.create_task(_drain(ws))
        after = -1
        try:
            try:
                ruleset: Ruleset | None = rules.ruleset(game.rules)
            except rules.UnknownRules:
                ruleset = None  # a system this process cannot play: the lines are shown, no wild marked
            # a system this process cannot play hides what may be hidden
            hidden_kongs = ruleset is None or hides_concealed_kongs(ruleset)
            await ws.send_str(_rules_frame(ruleset))
            while not ws.closed and not reader.done():
                finished = self.store.game(game.id)
                sent = self.store.sent_since(game.id, after)
                if sent:
                    after = sent[-1][0]
                    lines = [line for line in (_public(text, hidden_kongs) for _, text in sent) if line is not None]
                    if lines:
                        await ws.send_str(json.dumps({"type": "public", "lines": lines}))
                    continue  # more may be stored already (a long game read a chunk at a time)
                if finished is None or finished.finished:
                    break  # everything is sent: the game will say no more
                waiter = asyncio.ensure_future(self.fanout.wait(game.id))
                await asyncio.wait([reader, waiter], return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
        except (ConnectionError, RuntimeError):
            pass
        finally:
            watchers.discard(ws)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await ws.close()
        return ws

    def _chat_line(self, request: web.Request, data: Json, runner: TableRunner | None = None) -> tuple[str, str]:
        """Who says what: checked, and counted against the speaker's chat rate (429 beyond it). At a table
        (``runner``), a guest speaks under a seated person's name only from the browser that holds the seat."""
        who = self._who(request)
        name, text = self._speaker(who, data), _chat_text(data)
        if who is None and runner is not None:
            key_hash = token_hash(guest_key(request.cookies.get(GUEST_COOKIE)))
            seated = next((p.name for p in runner.play.table.players if name_key(p.name) == name_key(name)), None)
            if seated is not None and not _held_by(runner, key_hash, seated):
                raise error(web.HTTPForbidden, f"{seated} sits at this table: chat under another name")
        if not self.chat_limit.take(client(request, who)):
            raise error(
                web.HTTPTooManyRequests,
                f"too many chat lines: {CHAT_BURST} at once, then {CHAT_RATE:g} a second; wait a moment",
            )
        return name, text

    async def _store_chat(self, table: int | None, game: int | None, name: str, text: str) -> None:
        """Stored by the store's writer thread, as the tables' moves: the event loop never waits for the disk."""
        await asyncio.wrap_future(self.store.writer.submit(self.store.add_chat, table, game, name, text))

    async def table_chat(self, request: web.Request) -> web.Response:
        runner = self._runner(request)
        data = await body(request)
        name, text = self._chat_line(request, data, runner)
        await self._store_chat(runner.row.id, runner.game.id, name, text)
        runner.chat.append((name, text))
        del runner.chat[:-KEPT_CHAT]
        runner.notify()
        return web.json_response({"name": name, "text": text}, status=201)

    async def read_table_chat(self, request: web.Request) -> web.Response:
        lines = self.store.chat(path_id(request, "table"))
        return web.json_response([{"name": c.name, "text": c.text, "at": c.at.isoformat() + "Z"} for c in lines])

    async def lobby_chat(self, request: web.Request) -> web.Response:
        data = await body(request)
        name, text = self._chat_line(request, data)
        await self._store_chat(None, None, name, text)
        return web.json_response({"name": name, "text": text}, status=201)

    async def read_lobby_chat(self, _request: web.Request) -> web.Response:
        lines = self.store.chat(None)
        return web.json_response([{"name": c.name, "text": c.text, "at": c.at.isoformat() + "Z"} for c in lines])


def _held_by(runner: TableRunner, guest_key_hash: str, name: str) -> bool:
    """Whether the seat of ``name`` at this table is a person's, and this guest key's."""
    return any(p.name == name for p in runner.play.table.players) and runner.play.holds(name, None, guest_key_hash)


def _public(line: str, hidden_kongs: bool) -> str | None:
    """A logged line as a spectator may see it (:mod:`mj.lobby.public`), as the table's owner sends it."""
    try:
        message = C.decode(line)
    except ValueError:
        return None
    seen = public_view(message, hidden_kongs)
    if seen is None:
        return None
    return line if seen is message else seen.encode()  # the line as logged: decoding trims some texts


def _rules_frame(ruleset: Ruleset | None) -> str:
    """A spectator's first frame: the wild tile each indicator names at the table (empty without wilds)."""
    wild_of = rules.wild_tiles(ruleset) if ruleset is not None else {}
    return json.dumps({"type": "rules", "wild_of": wild_of})


def _chat_text(data: Json) -> str:
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise error(web.HTTPBadRequest, "text: say something")
    text = " ".join(text.split())
    if len(text) > MAX_CHAT:
        raise error(web.HTTPBadRequest, f"text: at most {MAX_CHAT} characters")
    return text


async def _drain(ws: web.WebSocketResponse) -> None:
    """Read (and ignore) what a spectator sends, until its socket closes."""
    async for message in ws:
        if message.type in (WSMsgType.CLOSE, WSMsgType.ERROR):
            break
