"""The codec every message shares (protocol.md §1.4): a line read before is not read again.

A game's lines repeat (the robots answer ``NoClaim <n>`` to most discards) and
messages are immutable, so each direction's table hands out the message it read
from the same line before. That memory must never change what a line reads as.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mj.protocol import ProtocolError, cmsg, pmsg
from mj.protocol.fields import KEYWORD_CHARS, WireMessage
from mj.protocol.messagetable import MAX_DECODED, MAX_REMEMBERED_LENGTH, MessageTable

#: Characters that make up fields and trip their readers: digits and signs, tile and
#: wind letters, the blanks the C decoder skips, the backslash that protects a text.
FIELD_CHARS = "0123456789+-CDBWFSNERGUpdlmuaxX \t\\"
CLASSES = [c for c in (*pmsg._TABLE.classes, *cmsg._TABLE.classes) if c.wire_fields]


def read(table: MessageTable[Any], line: str) -> Any:
    """The message of ``line``, or the text of the error it raises."""
    try:
        return table.decode(line)
    except ProtocolError as exc:
        return str(exc)


def fresh_table(cls: type[WireMessage]) -> MessageTable[Any]:
    """A table of ``cls``'s direction that has read nothing yet."""
    if issubclass(cls, pmsg.PMsg):
        return MessageTable(pmsg.PMsg, pmsg.MESSAGES, KEYWORD_CHARS)
    return MessageTable(cmsg.CMsg, cmsg.MESSAGES, KEYWORD_CHARS + "#")


def test_a_line_read_again_gives_the_message_read_the_first_time() -> None:
    table = fresh_table(pmsg.NoClaim)
    first = table.decode("NoClaim 13")
    assert first == pmsg.NoClaim(13)
    assert table.decode("NoClaim 13") is first
    assert table.decode("NoClaim 13 ") == first and table.decode("NoClaim 14") == pmsg.NoClaim(14)


def test_a_line_that_does_not_read_is_refused_every_time() -> None:
    table = fresh_table(pmsg.NoClaim)
    for _ in range(2):
        with pytest.raises(ProtocolError, match="NoClaim discard: expected an integer"):
            table.decode("NoClaim x")


def test_long_lines_are_read_every_time_so_that_no_client_can_fill_the_memory() -> None:
    table = fresh_table(pmsg.SendMessage)
    line = "SendMessage 0 " + "x" * MAX_REMEMBERED_LENGTH
    first = table.decode(line)
    again = table.decode(line)
    assert again == first and again is not first


def test_the_memory_forgets_everything_when_full() -> None:
    table = fresh_table(pmsg.NoClaim)
    first = table.decode("NoClaim 0")
    for serial in range(1, MAX_DECODED + 1):
        table.decode(f"NoClaim {serial}")
    again = table.decode("NoClaim 0")
    assert again == first and again is not first


@given(st.sampled_from(CLASSES), st.text(FIELD_CHARS, max_size=24))
def test_a_remembered_line_reads_as_it_would_the_first_time(cls: type[WireMessage], rest: str) -> None:
    line = f"{cls.keyword} {rest}"
    seen = fresh_table(cls)
    read(seen, line)
    assert read(seen, line) == read(fresh_table(cls), line)
