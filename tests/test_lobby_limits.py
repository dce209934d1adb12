"""What one client may take of the lobby is bounded: chat lines, waiting tables, spectator places.

A client is an account logged in, else its address; what one client takes beyond
its share is refused (429, or 503 for a spectator place) in one line, and the others
are served as before.
"""

from __future__ import annotations

import time
from typing import Any

from mj.server.transport import Limits

BURST, RATE = Limits().chat_burst, Limits().chat_rate


def test_a_chat_poster_has_a_burst_of_lines_then_about_two_a_second_and_others_chat_on(
    start_lobby: Any, database_url: str
) -> None:
    lobby = start_lobby(database_url)
    assert lobby.call("POST", "/api/tables", {"robots": 3, "level": 1})[0] == 201
    began = time.monotonic()
    answers = [lobby.call("POST", "/api/chat", {"name": "Flood", "text": f"line {n}"}) for n in range(BURST + 20)]
    answers.append(lobby.call("POST", "/api/tables/1/chat", {"name": "Flood", "text": "here too"}))
    elapsed = time.monotonic() - began
    accepted = [answer for status, answer in answers if status == 201]
    refused = [answer for status, answer in answers if status != 201]
    assert BURST <= len(accepted) <= BURST + RATE * elapsed + 1
    assert {status for status, _ in answers} == {201, 429}
    assert all(answer["error"].startswith("too many chat lines") for answer in refused)
    assert [line["text"] for line in lobby.get("/api/chat")] == [a["text"] for a in accepted if a["text"] != "here too"]

    other = lobby.browser()  # an account is a poster of its own, wherever it posts from
    assert other.call("POST", "/api/register", {"name": "Bea", "password": "a good password"})[0] == 201
    assert other.call("POST", "/api/chat", {"text": "can I speak?"})[0] == 201
    last = lobby.get("/api/chat")[-1]
    assert (last["name"], last["text"]) == ("Bea", "can I speak?")
    time.sleep(1.5 / RATE)
    assert lobby.call("POST", "/api/chat", {"name": "Flood", "text": "again"})[0] == 201
