"""The server log format of protocol.md §12.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from mj.logfile import LogEntry, LogFormatError, format_entry, parse_log, read_log

LOGS = Path("/work/shared/reference/logs")


def roundtrip(data: str) -> str:
    return "".join(format_entry(entry) for entry in parse_log(data))


@pytest.mark.parametrize("log", sorted(LOGS.glob("*.log")), ids=lambda path: path.name)
def test_every_original_log_is_written_back_byte_for_byte(log: Path) -> None:
    with log.open(encoding="latin-1", newline="") as file:
        data = file.read()
    assert roundtrip(data) == data


def test_entries_name_direction_connection_and_text() -> None:
    assert parse_log("<cnx1 Connect 1110 0 Robot1\r\n>cnx1 ConnectReply 1110 1 \r\n") == [
        LogEntry("<", 1, "Connect 1110 0 Robot1"),
        LogEntry(">", 1, "ConnectReply 1110 1 "),
    ]


def test_a_multi_line_message_keeps_its_newlines_and_ends_at_the_crlf() -> None:
    data = (
        ">cnx1 HandScore 2 0 total pts     0\ntotal dbls    0\nSCORE:        0\r\n"
        ">cnx1 Settlement 0 0 0 0 East  GAINS     0\n\n\r\n"
        "<cnx2 Ready\r\n"
    )
    assert parse_log(data) == [
        LogEntry(">", 1, "HandScore 2 0 total pts     0\ntotal dbls    0\nSCORE:        0"),
        LogEntry(">", 1, "Settlement 0 0 0 0 East  GAINS     0\n\n"),
        LogEntry("<", 2, "Ready"),
    ]
    assert roundtrip(data) == data


def test_end_of_file_has_no_newline_and_the_next_entry_follows_on_the_same_line() -> None:
    data = "<cnx2 (null)>cnx1 WashOut Lost a player\r\n<cnx1 (null)"
    assert parse_log(data) == [
        LogEntry("<", 2, None),
        LogEntry(">", 1, "WashOut Lost a player"),
        LogEntry("<", 1, None),
    ]
    assert format_entry(LogEntry("<", 2, None)) == "<cnx2 (null)"
    assert roundtrip(data) == data


def test_a_received_line_reading_null_is_text() -> None:
    assert parse_log("<cnx1 (null)\r\n") == [LogEntry("<", 1, "(null)")]


def test_received_lines_keep_the_clients_line_ending() -> None:
    data = "<cnx3 NoClaim 4\n>cnx3 PlayerDoesntClaim 3 4 0\r\n<cnx3 Rea"
    entries = parse_log(data)
    assert [entry.terminator for entry in entries] == ["\n", "\r\n", ""]
    assert roundtrip(data) == data


def test_read_log_keeps_carriage_returns(tmp_path: Path) -> None:
    path = tmp_path / "server.log"
    path.write_bytes(b"<cnx1 Ready\r\n>cnx1 PlayerReady 1\r\n")
    assert read_log(path) == [LogEntry("<", 1, "Ready"), LogEntry(">", 1, "PlayerReady 1")]


def test_text_before_the_first_entry_is_an_error() -> None:
    with pytest.raises(LogFormatError, match="offset 0"):
        parse_log("garbage\r\n<cnx1 Ready\r\n")
