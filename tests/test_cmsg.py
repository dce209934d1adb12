"""Controller messages (protocol.md §3) and the message syntax of §1.4, server side."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mj import tiles
from mj.logfile import read_log
from mj.protocol import ChowPosition, LineDecoder, PlayerOption, ProtocolError, cmsg, encode_line
from mj.protocol.fields import Kind
from mj.protocol.framing import WHITESPACE
from mj.rules.options import OptionEntry, OptionType
from protocol_strategies import messages

LOGS = Path("/work/shared/reference/logs")

# protocol.md §3, "Encoded examples (exact)".
SECTION_3_EXAMPLES = """\
ConnectReply 1110 1 
Player 2 Robot2
Game 1 2 3 4 E 0 1 0 0 0 0 1110 0
GameOption 0 Timeout nat 0 1 15 time limit for claims
Pause 0 0 to start hand
StartPlay 0
PlayerReady 1
NewHand 1 2 14
PlayerDraws 1 9C
PlayerDraws 2 --
PlayerDeclaresSpecial 2 2F
Pause 1 0 to start play
PlayerDiscards 1 4C 1 0
PlayerDoesntClaim 2 1 0
PlayerDoesntClaim 4 1 1
PlayerClaimsChow 1 4 Upper
PlayerChows 1 9B Upper
PlayerClaimsPung 2 25
ClaimDenied 2 There was a prior claim
PlayerPungs 2 9C
PlayerDeclaresClosedKong 1 4B 34
PlayerAddsToPung 3 SW 14
PlayerDrawsLoose 1 GD
PlayerRobsKong 3 5C
DangerousDiscard 2 75 0
PlayerClaimsMahJong 4 42
PlayerMahJongs 4 --
PlayerMahJongs 1 6C
PlayerSpecialSet 2 WD 1B 1B 9B 1C 9C 1D 9D EW SW WW NW RD GD
PlayerShowsTiles 3 2C 1D 4C
WashOut wall exhausted
NewRound S
StateSaved 1 mygame.mjs
StopPlay Lost connection to player 2; game suspended
StopPlay Player Robot1 requested reconnect - please wait...
Reconnect
Message 0 0 Lost connection to player 2 - ending game
AuthReqd basic 
PlayerOptionSet DelayTime 1 5 
CanMahJong 5B 0
ChangeManager 1 0
GameOver
""".splitlines()  # noqa: W291 - the trailing spaces are part of the wire form


def t(code: str) -> tiles.Tile:
    return tiles.parse(code)


@pytest.mark.parametrize("line", SECTION_3_EXAMPLES)
def test_section_3_examples_reencode_byte_for_byte(line: str) -> None:
    message = cmsg.decode(line)
    assert isinstance(message, cmsg.CMsg)
    assert message.encode() == line


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "PlayerDiscards 1 4C 1 0",
            cmsg.PlayerDiscards(id=1, tile=t("4C"), discard=1, calling=False),
        ),
        ("PlayerDraws 2 --", cmsg.PlayerDraws(id=2, tile=tiles.BLANK)),
        ("PlayerChows 1 9B Upper", cmsg.PlayerChows(id=1, tile=t("9B"), cpos=ChowPosition.UPPER)),
        ("ConnectReply 1110 1 ", cmsg.ConnectReply(pvers=1110, id=1, reason="")),
        ("NewRound S", cmsg.NewRound(wind=tiles.SOUTH_WIND)),
        ("Settlement -80 -24 -24 128 text", cmsg.Settlement(-80, -24, -24, 128, "text")),
        ("PlayerOptionSet DelayTime 1 5 ", cmsg.PlayerOptionSet(PlayerOption.DELAY_TIME, True, 5)),
        ("AuthReqd basic ", cmsg.AuthReqd(authtype="basic")),
        ("SwapTile 2 3B RD", cmsg.SwapTile(id=2, oldtile=t("3B"), newtile=t("RD"))),
        (
            "Game 1 2 3 4 E 0 1 0 0 0 0 1110 0",
            cmsg.Game(1, 2, 3, 4, tiles.EAST_WIND, 0, 1, 0, 0, 0, 0, 1110, 0),
        ),
        (
            "GameOption 0 Timeout nat 0 1 15 time limit for claims",
            cmsg.GameOption(
                id=0,
                entry=OptionEntry("Timeout", OptionType.NAT, 0, True, 15, "time limit for claims"),
            ),
        ),
    ],
)
def test_fields_are_read_in_wire_order(line: str, message: cmsg.CMsg) -> None:
    assert cmsg.decode(line) == message
    assert message.encode() == line


def test_messages_are_immutable_values() -> None:
    message = cmsg.PlayerReady(1)
    with pytest.raises(AttributeError):
        message.id = 2  # type: ignore[misc]
    assert message == cmsg.PlayerReady(1)
    assert hash(message) == hash(cmsg.PlayerReady(1))
    assert message != cmsg.PlayerReady(2) and message != cmsg.PlayerDiscards(1, tiles.parse("1B"), 1, False)
    with pytest.raises(AttributeError):
        del message.id  # type: ignore[misc]


def test_messages_are_built_like_dataclasses_and_survive_pickling() -> None:
    message = cmsg.Error(seqno=3)
    assert message == cmsg.Error(3, "") and repr(message) == "Error(seqno=3, text='')"
    with pytest.raises(TypeError):
        cmsg.Error()  # type: ignore[call-arg]
    assert pickle.loads(pickle.dumps(message)) == message
    assert copy.copy(message) == message


def test_every_message_of_section_3_exists_in_order() -> None:
    assert [cls.keyword for cls in cmsg.MESSAGES] == [
        "Error", "InfoTiles", "StateSaved", "ConnectReply", "Reconnect", "AuthReqd",
        "Redirect", "Player", "NewRound", "Game", "NewHand", "PlayerDeclaresSpecial",
        "StartPlay", "StopPlay", "Pause", "PlayerReady", "PlayerDraws", "PlayerDrawsLoose",
        "PlayerDiscards", "ClaimDenied", "PlayerDoesntClaim", "DangerousDiscard",
        "PlayerClaimsPung", "PlayerPungs", "PlayerFormsClosedPung", "PlayerClaimsKong",
        "PlayerKongs", "PlayerDeclaresClosedKong", "PlayerAddsToPung", "PlayerRobsKong",
        "CanMahJong", "PlayerClaimsChow", "PlayerChows", "PlayerFormsClosedChow", "WashOut",
        "PlayerClaimsMahJong", "PlayerMahJongs", "PlayerPairs", "PlayerFormsClosedPair",
        "PlayerShowsTiles", "PlayerSpecialSet", "PlayerFormsClosedSpecialSet",
        "PlayerOptionSet", "HandScore", "Settlement", "GameOver", "GameOption",
        "ChangeManager", "Message", "Wall", "#", "SwapTile",
        # mj's extensions (docs/protocol-extension.md)
        "Rules", "Payment", "ScoreFigure", "PlayerRevealsConcealedKong", "WildIndicator",
    ]  # fmt: skip


def test_comment_is_written_as_hash_and_read_under_both_names() -> None:
    assert cmsg.Comment("CompletedRounds      2").encode() == "# CompletedRounds      2"
    assert cmsg.decode("# hello") == cmsg.decode("Comment hello") == cmsg.Comment("hello")


def test_a_string_field_is_always_preceded_by_a_space() -> None:
    assert cmsg.StopPlay().encode() == "StopPlay "
    assert cmsg.Error(3).encode() == "Error 3 "
    assert cmsg.decode("StopPlay") == cmsg.StopPlay("")


def test_a_leading_space_or_backslash_of_a_string_is_protected_by_a_backslash() -> None:
    assert cmsg.Message(1, 0, " hi").encode() == "Message 1 0 \\ hi"
    assert cmsg.Message(1, 0, "\\o/").encode() == "Message 1 0 \\\\o/"
    assert cmsg.decode("Message 1 0 \\ hi") == cmsg.Message(1, 0, " hi")
    assert cmsg.decode("Message 1 0 \\\\o/") == cmsg.Message(1, 0, "\\o/")
    assert cmsg.decode("Message 1 0     hi") == cmsg.Message(1, 0, "hi")


def test_an_unknown_wind_is_written_and_read_as_question_mark() -> None:
    assert cmsg.NewRound(tiles.BLANK).encode() == "NewRound ?"
    assert cmsg.decode("NewRound ?") == cmsg.NewRound(tiles.BLANK)
    assert cmsg.decode("NewRound X") == cmsg.NewRound(tiles.BLANK)


def test_a_false_bool_is_written_0_and_any_true_value_1() -> None:
    assert cmsg.CanMahJong(t("5B"), False).encode() == "CanMahJong 5B 0"
    assert cmsg.CanMahJong(t("5B"), True).encode() == "CanMahJong 5B 1"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "empty line"),
        ("   ", "empty line"),
        (" GameOver", "unknown message keyword"),
        ("gameover", "unknown message keyword"),
        ("Discard 4C 0", "unknown message keyword"),  # a player message
        ("PlayerDraws 1 4c", "not a tile code"),
        ("PlayerDraws 1 XX", "not a tile code"),
        ("PlayerDiscards 1 4C 1 2", "expected 0 or 1"),
        ("PlayerDiscards 1 4C 1", "missing 0 or 1"),
        ("PlayerDiscards x 4C 1 0", "expected an integer"),
        ("PlayerChows 1 9B Sideways", "not a chow position"),
        ("GameOption 0 Timeout nat", "bad game option entry"),
        ("GameOption 0 Flowers bool 1020 1 2 play using flowers", "bad game option entry"),
        ("#hello", "unknown message keyword"),
    ],
)
def test_malformed_lines_are_protocol_errors(line: str, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        cmsg.decode(line)


@pytest.mark.parametrize("cls", cmsg.MESSAGES, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_any_message_survives_encoding_and_the_wire(cls: type[cmsg.CMsg], data: st.DataObject) -> None:
    message = data.draw(messages(cls))
    assert cmsg.decode(message.encode()) == message
    assert [cmsg.decode(line) for line in LineDecoder().feed(encode_line(message.encode()))] == [message]


@pytest.mark.parametrize("cls", cmsg.MESSAGES, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_every_missing_field_is_a_protocol_error(cls: type[cmsg.CMsg], data: st.DataObject) -> None:
    """Unlike the original, which left missing fields undefined (§1.4)."""
    message = data.draw(messages(cls))
    words = message.encode().split(" ", len(cls.wire_fields))
    for count, (_, kind) in enumerate(cls.wire_fields):
        if kind is not Kind.TEXT:
            with pytest.raises(ProtocolError, match=r"missing|bad game option entry"):
                cmsg.decode(" ".join(words[: 1 + count]))


@pytest.mark.parametrize("log", sorted(LOGS.glob("*.log")), ids=lambda path: path.name)
def test_every_message_the_original_sent_reencodes_identically(log: Path) -> None:
    """Texts keep their trailing white space in the log, which no reader passes on."""
    for entry in read_log(log):
        if entry.direction == ">" and entry.text is not None:
            encoded = cmsg.decode(entry.text).encode()
            assert encoded in (entry.text, entry.text.rstrip(WHITESPACE)), entry


@pytest.mark.parametrize("path", sorted(LOGS.glob("*.mjs")), ids=lambda path: path.name)
def test_save_and_history_files_are_controller_messages(path: Path) -> None:
    for line in LineDecoder().feed(path.read_bytes()):
        assert cmsg.decode(cmsg.decode(line).encode()) == cmsg.decode(line)
