"""Player messages (protocol.md §4) and how leniently the server reads them (§1.4, §1.5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mj import tiles
from mj.logfile import read_log
from mj.protocol import ChowPosition, LineDecoder, PlayerOption, ProtocolError, encode_line, pmsg
from mj.protocol.fields import Kind
from protocol_strategies import messages

LOGS = Path("/work/shared/reference/logs")

# protocol.md §4, "Exact wire forms sent by the original clients".
SECTION_4_EXAMPLES = [
    "Connect 1110 0 Robot1",
    "ListGameOptions 0",
    "Ready",
    "DeclareSpecial --",
    "DeclareSpecial 2F",
    "Discard 4C 0",
    "NoClaim 2",
    "Chow 4 Upper",
    "Pung 25",
    "Kong 39",
    "MahJong 42",
    "MahJong 0",
    "Pung 0",
    "Chow 0 Upper",
    "Pair",
    "FormClosedChow 1D",
    "FormClosedPair 8D",
    "FormClosedPung 4D",
    "ShowTiles",
    "AddToPung SW",
    "DeclareClosedKong 4B",
    "SetPlayerOption DelayTime 0 5 ",
    "SetPlayerOption LocalTimeouts 0 1 ",
]


def t(code: str) -> tiles.Tile:
    return tiles.parse(code)


@pytest.mark.parametrize("line", SECTION_4_EXAMPLES)
def test_section_4_examples_reencode_byte_for_byte(line: str) -> None:
    message = pmsg.decode(line)
    assert isinstance(message, pmsg.PMsg)
    assert message.encode() == line


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Connect 1110 0 Robot1", pmsg.Connect(pvers=1110, last_id=0, name="Robot1")),
        ("Discard 4C 1", pmsg.Discard(tile=t("4C"), calling=True)),
        ("DeclareSpecial --", pmsg.DeclareSpecial(tile=tiles.BLANK)),
        ("Chow 4 AnyPos", pmsg.Chow(discard=4, cpos=ChowPosition.ANYPOS)),
        ("SetGameOption Timeout 30", pmsg.SetGameOption(name="Timeout", value="30")),
        ("QueryGameOption ScoreLimit", pmsg.QueryGameOption(name="ScoreLimit")),
        ("SendMessage 0 {x#y}", pmsg.SendMessage(addressee=0, text="{x#y}")),
        ("SaveState ", pmsg.SaveState(filename="")),
        ("SwapTile 2 3B RD", pmsg.SwapTile(id=2, oldtile=t("3B"), newtile=t("RD"))),
        (
            "SetPlayerOption LocalTimeouts 0 1 ",
            pmsg.SetPlayerOption(PlayerOption.LOCAL_TIMEOUTS, ack=False, value=1),
        ),
    ],
)
def test_fields_are_read_in_wire_order(line: str, message: pmsg.PMsg) -> None:
    assert pmsg.decode(line) == message
    assert message.encode() == line


def test_every_message_of_section_4_exists_in_order() -> None:
    assert [cls.keyword for cls in pmsg.MESSAGES] == [
        "Connect", "RequestReconnect", "AuthInfo", "NewAuthInfo", "Disconnect", "SaveState",
        "LoadState", "DeclareSpecial", "RequestPause", "Ready", "Discard", "NoClaim", "Pung",
        "FormClosedPung", "Kong", "DeclareClosedKong", "AddToPung", "QueryMahJong", "Chow",
        "FormClosedChow", "DeclareWashOut", "MahJong", "Pair", "FormClosedPair", "ShowTiles",
        "SpecialSet", "FormClosedSpecialSet", "SetPlayerOption", "SetGameOption",
        "QueryGameOption", "ListGameOptions", "ChangeManager", "SendMessage", "SwapTile",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("alias", "full"),
    [
        ("d 4C 0", "Discard 4C 0"),
        ("n 7", "NoClaim 7"),
        ("p 7", "Pung 7"),
        ("k 7", "Kong 7"),
        ("c 7 Lower", "Chow 7 Lower"),
        ("ck 4B", "DeclareClosedKong 4B"),
        ("ds 1F", "DeclareSpecial 1F"),
        ("st 1 2B 3B", "SwapTile 1 2B 3B"),
    ],
)
def test_telnet_aliases_read_as_the_full_messages_and_are_never_written(alias: str, full: str) -> None:
    assert pmsg.decode(alias).encode() == full


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("NoClaim 1 extra junk", pmsg.NoClaim(1)),
        ("NoClaim 12abc", pmsg.NoClaim(12)),
        ("NoClaim +3", pmsg.NoClaim(3)),
        ("ChangeManager -1", pmsg.ChangeManager(-1)),
        ("Discard  8C 0", pmsg.Discard(t("8C"), False)),
        ("Discard\t9C 0", pmsg.Discard(t("9C"), False)),
        ("Discard 9C 0 \r\n", pmsg.Discard(t("9C"), False)),
        ("Discard,9C 0", pmsg.Discard(t("9C"), False)),  # any one character ends the keyword
        ("Chow 4 l", pmsg.Chow(4, ChowPosition.LOWER)),
        ("Chow 4 m", pmsg.Chow(4, ChowPosition.MIDDLE)),
        ("Chow 4 u", pmsg.Chow(4, ChowPosition.UPPER)),
        ("Chow 4 a", pmsg.Chow(4, ChowPosition.ANYPOS)),
        ("SetPlayerOption Foo 0 1 ", pmsg.SetPlayerOption(PlayerOption.UNKNOWN, False, 1)),
        ("QueryGameOption AVeryLongOptionName", pmsg.QueryGameOption("AVeryLongOption")),
        ("Ready for anything", pmsg.Ready()),
    ],
)
def test_reading_is_as_lenient_as_the_originals_sscanf(line: str, message: pmsg.PMsg) -> None:
    assert pmsg.decode(line) == message


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "empty line"),
        (" Ready", "unknown message keyword"),
        ("ready", "unknown message keyword"),
        ("DISCARD 4C 0", "unknown message keyword"),
        ("PlayerDiscards 1 4C 1 0", "unknown message keyword"),  # a controller message
        ("# comment", "unknown message keyword"),
        ("Discard 7b 0", "not a tile code"),
        ("Discard 9B 2", "expected 0 or 1, not 2"),
        ("Discard 7B", "missing 0 or 1"),
        ("Discard", "missing a tile code"),
        ("NoClaim", "missing an integer"),
        ("NoClaim x", "expected an integer"),
        ("Chow 4", "missing a chow position"),
        ("Chow 4 Sideways", "not a chow position"),
        ("ListGameOptions -1", "expected 0 or 1"),
    ],
)
def test_malformed_lines_are_protocol_errors(line: str, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        pmsg.decode(line)


@pytest.mark.parametrize("cls", pmsg.MESSAGES, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_any_message_survives_encoding_and_the_wire(cls: type[pmsg.PMsg], data: st.DataObject) -> None:
    message = data.draw(messages(cls))
    assert pmsg.decode(message.encode()) == message
    assert [pmsg.decode(line) for line in LineDecoder().feed(encode_line(message.encode()))] == [message]


@pytest.mark.parametrize("cls", pmsg.MESSAGES, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_every_missing_field_is_a_protocol_error(cls: type[pmsg.PMsg], data: st.DataObject) -> None:
    """The original crashed on ``Discard 7B`` (§1.4); here every truncation is refused."""
    message = data.draw(messages(cls))
    words = message.encode().split(" ", len(cls.wire_fields))
    for count, (_, kind) in enumerate(cls.wire_fields):
        if kind is not Kind.TEXT:
            with pytest.raises(ProtocolError, match="missing"):
                pmsg.decode(" ".join(words[: 1 + count]))


@pytest.mark.parametrize("log", sorted(LOGS.glob("*.log")), ids=lambda path: path.name)
def test_the_server_reads_what_the_original_read(log: Path) -> None:
    """Received lines decode unless the original answered them with a protocol error."""
    entries = [entry for entry in read_log(log) if entry.text is not None]
    for entry, reply in zip(entries, [*entries[1:], None], strict=True):
        if entry.direction != "<":
            continue
        assert entry.text is not None
        rejected = (
            reply is not None
            and reply.connection == entry.connection
            and reply.text is not None
            and reply.text.startswith("Error ")
            and reply.text.endswith(" Protocol error")
        )
        if rejected:
            with pytest.raises(ProtocolError):
                pmsg.decode(entry.text)
            continue
        message = pmsg.decode(entry.text)
        if getattr(message, "option", None) is not PlayerOption.UNKNOWN:  # its name is not kept
            assert message.encode() == entry.text, entry
