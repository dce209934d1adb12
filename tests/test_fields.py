"""The codec every message shares (protocol.md §1.4): all fields read at once mean the same as one at a time.

The generated readers match all of a message's fields with one regular expression
for speed; the C decoder they imitate reads one field after the other. Whatever the
line, both must give the same message, or fail on the same field for the same reason.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mj.protocol import ProtocolError, cmsg, pmsg
from mj.protocol.fields import _DECODERS, WireMessage
from mj.protocol.framing import WHITESPACE
from protocol_strategies import messages

#: Characters that make up fields and trip their readers: digits and signs, tile and
#: wind letters, the blanks the C decoder skips, the backslash that protects a text.
FIELD_CHARS = "0123456789+-CDBWFSNERGUpdlmuaxX \t\\"
CLASSES = [c for c in (*pmsg._TABLE.classes, *cmsg._TABLE.classes) if c.wire_fields]


def one_field_at_a_time(cls: type[WireMessage], line: str, pos: int) -> Any:
    """The message, or the error text, of reading each field where the last one ended."""
    values = []
    for name, kind in cls.wire_fields:
        try:
            value, pos = _DECODERS[kind].read(line, pos)
        except ProtocolError as exc:
            return f"{cls.keyword} {name}: {exc}"
        values.append(value)
    return cls(*values)


def both_ways(cls: type[WireMessage], line: str) -> tuple[Any, Any]:
    """What decoding ``line`` gives (a message or an error text), and what reading it field by field gives."""
    line = line.rstrip(WHITESPACE)
    pos = min(len(line), len(cls.keyword) + 1)  # the keyword and the one character after it
    pos += len(line[pos:]) - len(line[pos:].lstrip(WHITESPACE))
    return decoded(cls, line), one_field_at_a_time(cls, line, pos)


def decoded(cls: type[WireMessage], line: str) -> Any:
    decode = pmsg.decode if issubclass(cls, pmsg.PMsg) else cmsg.decode
    try:
        return decode(line)
    except ProtocolError as exc:
        return str(exc)


@given(st.sampled_from(CLASSES), st.text(FIELD_CHARS, max_size=24))
def test_any_line_reads_as_its_fields_read_one_after_the_other(cls: type[WireMessage], rest: str) -> None:
    at_once, one_by_one = both_ways(cls, f"{cls.keyword} {rest}")
    assert at_once == one_by_one


@given(st.sampled_from(CLASSES), st.data())
def test_a_written_message_reads_back_the_same_both_ways(cls: type[WireMessage], data: st.DataObject) -> None:
    message = data.draw(messages(cls))
    assert both_ways(cls, message.encode()) == (message, message)
