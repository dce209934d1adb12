"""Framing of protocol.md §1.2-§1.3: CR LF lines, backslash escaping and continuation."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mj.protocol.framing import WHITESPACE, LineDecoder, LineTooLong, encode_line

LOGS = Path("/work/shared/reference/logs")

HANDSCORE_TEXT = (
    "HandScore 4 32 basic        20 (going Mah Jong)\n"
    "SW-SW-SW      4 (open pung of majors)\n"
    "2 specials    8 (flowers and seasons)\n"
    "total pts    32\n"
    "total dbls    0\n"
    "SCORE:       32"
)
HANDSCORE_WIRE = (
    b"HandScore 4 32 basic        20 (going Mah Jong)\\\r\n"
    b"SW-SW-SW      4 (open pung of majors)\\\r\n"
    b"2 specials    8 (flowers and seasons)\\\r\n"
    b"total pts    32\\\r\n"
    b"total dbls    0\\\r\n"
    b"SCORE:       32\r\n"
)
SETTLEMENT_TEXT = (
    "Settlement -80 -24 -24 128 East  pays North    64\n"
    "South pays North    32\n"
    "West  pays North    32\n"
    "North GAINS   128\n"
    "\n"
    "East  pays South     8\n"
    "East  pays West      8\n"
    "East  LOSES    80\n"
    "\n"
    "South and West  are even\n"
    "South LOSES    24\n"
    "\n"
    "West  LOSES    24\n"
    "\n"
)
SETTLEMENT_WIRE = (
    b"Settlement -80 -24 -24 128 East  pays North    64\\\r\n"
    b"South pays North    32\\\r\n"
    b"West  pays North    32\\\r\n"
    b"North GAINS   128\\\r\n"
    b"\\\r\n"
    b"East  pays South     8\\\r\n"
    b"East  pays West      8\\\r\n"
    b"East  LOSES    80\\\r\n"
    b"\\\r\n"
    b"South and West  are even\\\r\n"
    b"South LOSES    24\\\r\n"
    b"\\\r\n"
    b"West  LOSES    24\\\r\n"
    b"\\\r\n"
    b"\r\n"
)

# Texts as a server could hold them: any Latin-1 character, newlines and backslashes
# made likely.
texts = st.text(
    alphabet=st.one_of(st.sampled_from("\\\n\r \tab"), st.characters(max_codepoint=255)),
    max_size=40,
)


def decode_all(data: bytes) -> list[str]:
    return LineDecoder().feed(data)


def test_a_line_ends_in_crlf() -> None:
    assert encode_line("PlayerDiscards 1 4C 1 0") == b"PlayerDiscards 1 4C 1 0\r\n"


def test_verified_handscore_bytes() -> None:
    assert encode_line(HANDSCORE_TEXT) == HANDSCORE_WIRE
    assert decode_all(HANDSCORE_WIRE) == [HANDSCORE_TEXT]


def test_trailing_newlines_of_a_text_stay_on_the_wire_but_do_not_arrive() -> None:
    assert encode_line(SETTLEMENT_TEXT) == SETTLEMENT_WIRE
    assert decode_all(SETTLEMENT_WIRE) == [SETTLEMENT_TEXT.rstrip("\n")]


def test_backslashes_are_doubled_and_a_lone_one_is_dropped_by_the_reader() -> None:
    assert encode_line("Message 1 0 a\\b") == b"Message 1 0 a\\\\b\r\n"
    assert decode_all(b"SendMessage 0 a\\\\b\r\n") == ["SendMessage 0 a\\b"]
    assert decode_all(b"SendMessage 0 a\\b\r\n") == ["SendMessage 0 ab"]


def test_lf_only_lines_and_tabs_are_accepted() -> None:
    assert decode_all(b"Discard\t9C 0\nReady\n") == ["Discard\t9C 0", "Ready"]


def test_trailing_white_space_is_stripped_but_raw_lines_keep_it() -> None:
    data = b"ConnectReply 1110 1 \r\nSetPlayerOption DelayTime 0 5 \n"
    assert LineDecoder().feed(data) == ["ConnectReply 1110 1", "SetPlayerOption DelayTime 0 5"]
    assert LineDecoder().feed_raw(data) == [
        "ConnectReply 1110 1 \r\n",
        "SetPlayerOption DelayTime 0 5 \n",
    ]


def test_raw_continued_lines_show_real_newlines() -> None:
    assert LineDecoder().feed_raw(b"SendMessage 0 a\\\r\nb\r\n") == ["SendMessage 0 a\nb\r\n"]


def test_even_backslashes_before_the_newline_end_the_line() -> None:
    assert decode_all(b"a\\\\\r\nb\r\n") == ["a\\", "b"]
    assert decode_all(b"a\\\\\\\r\nb\r\n") == ["a\\\nb"]


def test_a_partial_line_waits_for_the_rest() -> None:
    decoder = LineDecoder()
    assert decoder.feed(b"Disc") == []
    assert decoder.feed(b"ard 4C 0\\\r") == []
    assert decoder.feed(b"\n") == []
    assert decoder.feed(b"more\r\nReady") == ["Discard 4C 0\nmore"]
    assert decoder.feed(b"\r\n") == ["Ready"]


def test_non_ascii_bytes_survive_as_latin1() -> None:
    wire = "Player 2 Zoë".encode("latin-1") + b"\r\n"
    assert decode_all(wire) == ["Player 2 Zoë"]
    assert encode_line("Player 2 Zoë") == wire
    assert encode_line("Player 2 \u263a") == b"Player 2 ?\r\n"


def test_an_overlong_line_is_refused_even_before_it_ends() -> None:
    with pytest.raises(LineTooLong):
        LineDecoder(max_line=10).feed(b"x" * 11)
    with pytest.raises(LineTooLong):
        LineDecoder(max_line=10).feed(b"abcd\\\r\nefgh\r\n")
    assert LineDecoder(max_line=10).feed(b"abcdefgh\r\n" * 3) == ["abcdefgh"] * 3


@given(texts)
def test_any_text_arrives_as_sent_less_trailing_white_space(text: str) -> None:
    assert decode_all(encode_line(text)) == [text.rstrip(WHITESPACE)]


@given(st.lists(texts, max_size=5), st.data())
def test_splitting_the_stream_anywhere_gives_the_same_lines(lines: list[str], data: st.DataObject) -> None:
    wire = b"".join(encode_line(line) for line in lines)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=8)))
    decoder = LineDecoder()
    received: list[str] = []
    for start, end in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        received += decoder.feed(wire[start:end])
    assert received == [line.rstrip(WHITESPACE) for line in lines]


@pytest.mark.parametrize("capture", sorted(LOGS.glob("wire-capture-*.txt")), ids=lambda p: p.name)
def test_recorded_wire_bytes_reencode_identically(capture: Path) -> None:
    """Every logical line of a real capture, written again, gives back the original bytes."""
    for direction in ("C2S", "S2C"):
        wire = b"".join(
            ast.literal_eval(line.split(" ", 1)[1])
            for line in capture.read_text().splitlines()
            if line.startswith(direction)
        )
        raw_lines = LineDecoder().feed_raw(wire)
        assert all(line.endswith("\r\n") for line in raw_lines)
        assert b"".join(encode_line(line.removesuffix("\r\n")) for line in raw_lines) == wire
