"""The browser client: a web gateway that seats a person at a table through a WebSocket.

The browser holds no rules. For each person the gateway opens an ordinary protocol
connection to the game server (exactly as ``xmj`` would), rebuilds that seat's
knowledge with :class:`~mj.seatview.SeatView`, works out the moves the rules allow
now (:mod:`mj.web.dialogs`) and sends the browser one JSON snapshot after every
change (:mod:`mj.web.snapshot`); the browser draws it and answers with the button
the person chose, which the gateway checks against the moves it offered before it
becomes a protocol message. Because the gateway only ever knows its own seat's
view, a browser can never be sent a tile its seat may not see.

Modules: :mod:`~mj.web.seatlog` (what the browser shows beyond the seat's view:
texts, chat, claim announcements), :mod:`~mj.web.dialogs` (legal moves as the
manual's dialogs), :mod:`~mj.web.snapshot` (the JSON), :mod:`~mj.web.session` (one
seat's protocol connection and its browsers), :mod:`~mj.web.app` (aiohttp:
static files and ``/ws``), :mod:`~mj.web.cli` (the ``xmj`` command).
"""
