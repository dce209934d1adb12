"""A browser's snapshot carries only the chat and move-log lines it has not been sent: a long chat costs each
snapshot nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from mj.protocol import cmsg as C
from mj.web.session import Session


def test_snapshots_carry_only_the_new_chat_lines_and_an_attaching_browser_gets_them_all() -> None:
    session = Session("sock", "Alice")
    sent: list[dict[str, Any]] = []

    async def capture(text: str) -> None:
        sent.append(json.loads(text))

    session._to_all = capture  # type: ignore[method-assign]
    session.sockets.add(object())  # type: ignore[arg-type]
    long_line = "x" * 1000

    async def scenario() -> None:
        for number in range(50):
            session.log.apply(C.Message(2, 0, f"{number} {long_line}"))
            await session.broadcast()
        await session.broadcast()  # nothing new said

    asyncio.run(scenario())
    assert [len(s["chat"]) for s in sent] == [1] * 50 + [0]
    assert [s["chat"][0]["n"] for s in sent[:50]] == list(range(1, 51))
    assert not any(s["chat_reset"] for s in sent)
    # the move log records each chat line too, and likewise sends it once
    assert [[line["kind"] for line in s["moves"]] for s in sent] == [["chat"]] * 50 + [[]]
    assert not any(s["moves_reset"] for s in sent)
    whole = session.snapshot()
    assert whole["chat_reset"] and [line["n"] for line in whole["chat"]] == list(range(1, 51))
    assert whole["moves_reset"] and [line["n"] for line in whole["moves"]] == list(range(1, 51))
    assert sum(len(json.dumps(s)) for s in sent) < 51 * (len(json.dumps(whole)) - 40 * len(long_line))
