"""People's seats at lobby tables, through the browser gateway of ``xmj`` (:mod:`mj.web`).

A seat is an ordinary gateway session whose game server is the table itself, over
a connection the lobby makes (:meth:`mj.lobby.tables.Tables.connect`): the xmj page
shows it, reconnects to it after a reload (the session's token) and rejoins the
table by player id if the connection drops, exactly as for ``xmj``. Only the lobby
chooses where a session connects: browsers cannot name servers or start local
games here.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from mj.lobby.accounts import Who, name_key
from mj.lobby.limits import CHAT_BURST, CHAT_RATE, ChatLimit
from mj.lobby.runner import TableRunner
from mj.web.app import Gateway, GatewayConfig, RequestError
from mj.web.hosts import HostPolicy
from mj.web.session import Connector, Session

Json = dict[str, Any]
#: The page that shows a seat (xmj's own page).
PAGE = "/play"


class SeatError(ValueError):
    """A seat that cannot be taken; the message says why."""


class SeatHeld(SeatError):
    """A seat that is someone else's: the name asked for is another account's or another guest's."""


class LobbyGateway(Gateway):
    """xmj's gateway, with seats given out by the lobby alone."""

    def __init__(self, hosts: HostPolicy) -> None:
        super().__init__(GatewayConfig(target="lobby", default_name="Guest", hosts=hosts))
        #: Each seat's lines written freely (chat, saves, options), by its token: every one is a move of the record.
        self.free_lines = ChatLimit()

    def _handlers(self) -> dict[str, Callable[[web.WebSocketResponse, Json, Session | None, list[Session]],
                                              Awaitable[None]]]:  # fmt: skip
        handlers = super()._handlers()
        for kind in ("join", "new_game", "resume"):
            handlers[kind] = self._refused
        for kind in ("chat", "save", "set_option"):
            handlers[kind] = functools.partial(self._rated, handlers[kind])
        return handlers

    async def _rated(
        self, handler: Callable[[web.WebSocketResponse, Json, Session | None, list[Session]], Awaitable[None]],
        ws: web.WebSocketResponse, data: Json, session: Session | None, attached: list[Session],
    ) -> None:  # fmt: skip
        """``handler``, within the seat's share of free lines: no table's record grows faster than mj-server
        lets a player chat (nor its players' pages fill with one player's lines)."""
        if session is not None and not self.free_lines.take(session.token):
            raise RequestError(f"too many messages: {CHAT_BURST} at once, then {CHAT_RATE:g} a second; wait a moment")
        await handler(ws, data, session, attached)

    async def _refused(self, _ws: web.WebSocketResponse, _d: Json, _s: Session | None, _a: list[Session]) -> None:
        raise RequestError("take a seat from the lobby's page")

    async def sit(
        self, runner: TableRunner, name: str, who: Who | None, guest_key_hash: str, connect: Connector
    ) -> Session:
        """A seat for ``name`` at the table (a free one, or theirs again: the same account's, else the same
        guest key's), reached through ``connect``; :class:`SeatError` if none."""
        if runner.finished:
            raise SeatError("this table's game is over")
        if name in runner.arriving:
            raise SeatError(f"{name} is taking a seat at this table already")
        players = runner.play.table.players
        mine = next((p for p in players if p.name == name), None)
        if mine is None and len(players) >= 4:
            raise SeatError("no free seat at this table")
        like = next((p.name for p in players if p.name != name and name_key(p.name) == name_key(name)), None)
        if like is not None:
            raise SeatHeld(f"{like} sits at this table: choose a name that differs from theirs by more than case")
        if mine is not None and mine.connection in runner.play.robots and mine.id not in runner.play.stand_ins:
            raise SeatError(f"{name} is a robot's seat")
        account_id = None if who is None else who.id
        if mine is not None and not runner.play.holds(name, account_id, guest_key_hash):
            raise SeatHeld(f"{name}'s seat at this table is held by another guest or account: choose another name")
        if mine is not None and mine.connection is not None and mine.id not in runner.play.stand_ins:
            raise SeatError(f"{name} is already seated at this table")
        if mine is None:
            runner.play.bind(name, account_id, guest_key_hash)

        async def back_in_seat() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
            runner.give_back(name)  # a robot standing in for them leaves the seat, at each (re)connection
            return await connect()

        runner.arriving.add(name)  # until the table has seated them: a second request cannot bind the seat anew
        try:
            session = await self.join(f"lobby table {runner.row.id}", name, connect=back_in_seat)
        except RequestError as exc:
            raise SeatError(str(exc)) from None
        finally:
            runner.arriving.discard(name)
        # Without a page open the seat counts as gone: the table's turn timer, not the gateway's
        # quarter of an hour, decides when a robot stands in; the page's return brings the person back.
        session.rejoin_with_page = True
        session.on_presence = functools.partial(runner.page, name)
        runner.page(name, bool(session.sockets))
        return session
