"""`mj score`: score-json.md's contract (input, --json output, readable text) and its answers to malformed input."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from mj.calculator import calculate, parse_request
from mj.calculator.request import Request
from mj.cli import main
from mj.rules.ims.options import IMSOptions
from mj.rules.winhand import SEAT_LETTERS, WinningHand
from test_ims_scoring import complete_hands

#: score-json.md's example input made whole (the example lists a fifth set and five 3B).
IMS_HAND: dict[str, Any] = {
    "rules": "ims",
    "options": {"CountFlowers": True, "MinimumFan": 0},
    "seat": "S",
    "round": "E",
    "exposed": [
        {"set": "pung", "tile": "RD"},
        {"set": "kong", "tile": "7C"},
        {"set": "kong", "tile": "3B", "concealed": True},
    ],
    "concealed": "4B 5B 6B WD WD",
    "winning_tile": "WD",
    "how": "discard",
    "discarder": "W",
    "flowers": ["1F", "2S"],
    "wild_indicator": "5C",
}

#: A classical hand: South self-draws a concealed hand.
CLASSICAL_HAND: dict[str, Any] = {
    "seat": "S",
    "round": "E",
    "concealed": "1B 2B 3B 5C 5C 5C 7D 8D 9D RD RD RD EW EW",
    "winning_tile": "2B",
    "how": "self-drawn",
}


#: A Beijing hand: South wins West's 9D, East wind turned up (South Wind wild, none held).
BEIJING_HAND: dict[str, Any] = {
    "rules": "beijing",
    "seat": "S",
    "round": "E",
    "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D 3D 4D 5D EW EW",
    "winning_tile": "9D",
    "how": "discard",
    "discarder": "W",
    "wild_indicator": "EW",
}


def run_score(
    data: object, *args: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """``mj score ARGS`` with ``data`` (JSON-encoded unless already text) on stdin: status, stdout, stderr."""
    text = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["score", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def score_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    def scored(data: object, *args: str) -> dict[str, Any]:
        status, out, err = run_score(data, "--json", *args, monkeypatch=monkeypatch, capsys=capsys)
        assert (status, err) == (0, "")
        result: dict[str, Any] = json.loads(out)
        return result

    return scored


# ------------------------------------------------------------------------------------------ the contract


def test_ims_json_output_has_the_contract_fields_in_its_order(score_json: Any) -> None:
    result = score_json(IMS_HAND)
    assert list(result) == ["allowed", "score", "fan", "bonus", "elements", "payments"]
    # Dragon 1 fan, two quadruplets 2 fan; 2 flowers and a concealed quadruplet 4 bonus: 2^3 + 4.
    assert (result["allowed"], result["score"], result["fan"], result["bonus"]) == (True, 12, 3, 4)
    assert result["elements"] == [{"name": "Dragon", "value": "1 fan"}, {"name": "Quadruplet", "value": "2 fan"}]
    assert result["payments"] == {"E": -4, "S": 20, "W": -12, "N": -4}


def test_beijing_json_output_has_the_contract_fields_with_the_shared_doubles(score_json: Any) -> None:
    result = score_json(BEIJING_HAND)
    assert list(result) == ["allowed", "score", "doubles", "elements", "payments"]
    assert (result["allowed"], result["score"], result["doubles"]) == (True, 20, 2)
    assert {"name": "Own Tile", "value": "1 double for W"} in result["elements"]
    # Per-payer doubles show in the amounts: East as banker, West as discarder pay 8, North 4.
    assert result["payments"] == {"E": -8, "S": 20, "W": -8, "N": -4}


def test_beijing_readable_text_says_each_double_and_who_pays_what(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_score(BEIJING_HAND, monkeypatch=monkeypatch, capsys=capsys)
    lines = out.splitlines()
    assert status == 0 and "Closed               1 dbl" in lines and "Straight             1 dbl" in lines
    assert "East owes 8 (own doubles: Banker 1)" in lines and "West pays South 8" in lines


def test_a_beijing_hand_the_wild_rules_forbid_is_not_allowed_with_a_reason(score_json: Any) -> None:
    result = score_json(changed(BEIJING_HAND, wild_indicator="8D"))
    assert result == {
        "allowed": False,
        "reason": "a discarded wild tile (9D) can never be claimed to win, even at its face value",
    }


def test_the_readable_text_explains_each_element_the_totals_and_the_payments(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_score(IMS_HAND, monkeypatch=monkeypatch, capsys=capsys)
    assert status == 0
    lines = out.splitlines()
    assert "Dragon                 1 fan  (RD-RD-RD)" in lines
    assert "Concealed Quadruplet   2 bonus  (3B+3B+3B+3B)" in lines
    assert "score                 12  (2^3 + 4)" in lines
    assert "West pays South 12" in lines and "East pays South 4" in lines


def test_the_input_may_come_from_a_file(tmp_path: Path, score_json: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(IMS_HAND))
    assert main(["score", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == score_json(IMS_HAND)


def test_without_rules_the_hand_is_scored_by_classical(score_json: Any) -> None:
    result = score_json(CLASSICAL_HAND)
    assert list(result) == ["allowed", "score", "elements", "payments"]
    names = [e["name"] for e in result["elements"]]
    assert names[0] == "going Mah Jong" and "pung/kong of dragons" in names
    # The losers' hands are unknown and score 0: each pays the winner's score, East double.
    s = result["score"]
    assert result["payments"] == {"E": -2 * s, "S": 4 * s, "W": -s, "N": -s}


def test_classical_text_is_the_original_score_text_and_settlement(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_score(CLASSICAL_HAND, monkeypatch=monkeypatch, capsys=capsys)
    assert status == 0
    assert out.startswith("basic        20 (going Mah Jong)\n")
    assert "South GAINS" in out


def test_rules_option_overrides_the_input(score_json: Any) -> None:
    assert "fan" in score_json(CLASSICAL_HAND, "--rules", "ims")
    hand = {**IMS_HAND, "options": {}}
    assert "fan" not in score_json(hand, "--rules", "classical")


def test_classical_options_apply(score_json: Any) -> None:
    pairs = {**CLASSICAL_HAND, "concealed": "1B 1B 3C 3C 5D 5D 7B 7B 9C 9C EW EW RD RD", "winning_tile": "RD"}
    assert score_json(pairs)["allowed"] is False
    allowed = score_json({**pairs, "options": {"SevenPairs": True}})
    assert allowed["allowed"] is True and "seven pairs" in [e["name"] for e in allowed["elements"]]


MOON = "1D 2D 3D 5C 5C 5C 7D 8D 9D RD RD RD EW EW"


def test_first_turn_and_last_tile_reach_the_classical_hands_that_depend_on_them(score_json: Any) -> None:
    heaven = score_json({**CLASSICAL_HAND, "seat": "E", "first_turn": True})
    assert [e["name"] for e in heaven["elements"]] == ["Heaven's Blessing"]
    fed = {**CLASSICAL_HAND, "how": "discard", "first_turn": True}
    earth = score_json({**fed, "discarder": "E"})
    assert [e["name"] for e in earth["elements"]] == ["Earth's Blessing"]
    # Earth's Blessing is won on East's first discard, before any other seat has discarded.
    west = score_json({**fed, "seat": "N", "discarder": "W"})
    assert "Earth's Blessing" not in [e["name"] for e in west["elements"]]
    # East's kong of its dealt tiles keeps Heaven's Blessing; a kong claimed from a discard is no dealt hand.
    dealt_kong = {**CLASSICAL_HAND, "seat": "E", "first_turn": True, "concealed": "1B 2B 3B 5C 5C 5C 7D 8D 9D EW EW"}
    kong = {"set": "kong", "tile": "RD", "concealed": True}
    heaven = score_json({**dealt_kong, "how": "loose-tile", "exposed": [kong]})
    assert "Heaven's Blessing" in [e["name"] for e in heaven["elements"]]
    claimed = score_json({**dealt_kong, "how": "loose-tile", "exposed": [{**kong, "concealed": False}]})
    assert "Heaven's Blessing" not in [e["name"] for e in claimed["elements"]]
    moon = score_json({**CLASSICAL_HAND, "concealed": MOON, "winning_tile": "1D"})
    assert "Catching the Moon from the Bottom of the Sea" not in [e["name"] for e in moon["elements"]]
    moon = score_json({**CLASSICAL_HAND, "concealed": MOON, "winning_tile": "1D", "last_tile": True})
    assert "Catching the Moon from the Bottom of the Sea" in [e["name"] for e in moon["elements"]]


def test_earths_blessing_is_won_on_easts_discard_not_by_robbing_easts_kong(score_json: Any) -> None:
    # South's Thirteen Unique Wonders robs the kong East declares on its first turn: no discard, no Earth's Blessing.
    wonders = {**CLASSICAL_HAND, "concealed": "1C 9C 1B 9B 1D 9D EW SW WW NW RD GD WD WD", "winning_tile": "1C"}
    robbed = score_json({**wonders, "how": "robbed-kong", "discarder": "E", "first_turn": True})
    assert [e["name"] for e in robbed["elements"]] == ["Thirteen Unique Wonders"]
    fed = score_json({**wonders, "how": "discard", "discarder": "E", "first_turn": True})
    assert [e["name"] for e in fed["elements"]] == ["Earth's Blessing", "Thirteen Unique Wonders"]


def test_a_flowers_replacement_is_a_loose_tile_only_with_flowers_loose(score_json: Any) -> None:
    # Without FlowersLoose a flower is replaced from the live wall (seed 001): the hand won from the wall.
    flowered = {**CLASSICAL_HAND, "how": "loose-tile", "flowers": ["2F"]}
    names = [e["name"] for e in score_json(flowered)["elements"]]
    assert "winning from wall" in names and "winning with loose tile" not in names
    names = [e["name"] for e in score_json({**flowered, "options": {"FlowersLoose": True}})["elements"]]
    assert "winning from wall" not in names and "winning with loose tile" in names
    # With a kong the loose tile is the kong's, whatever FlowersLoose.
    kong = {**flowered, "concealed": "1B 2B 3B 5C 5C 5C 7D 8D 9D EW EW", "exposed": [{"set": "kong", "tile": "RD"}]}
    assert "winning with loose tile" in [e["name"] for e in score_json(kong)["elements"]]


def test_a_classical_hand_over_the_limit_lists_its_elements_and_the_limit_as_score(score_json: Any) -> None:
    honours = {**CLASSICAL_HAND, "concealed": "1B 1B 1B SW SW SW EW EW", "winning_tile": "EW"}
    hand = {**honours, "exposed": [{"set": "pung", "tile": "RD"}, {"set": "pung", "tile": "GD"}]}
    result = score_json(hand)
    assert result["score"] == 1000
    # The points doubled past the limit (the text's "over limit" line) are a total, not an element.
    assert "over limit" not in [e["name"] for e in result["elements"]]
    assert [e["value"] for e in result["elements"]][-1] == "1 dbl"


def test_a_well_formed_incomplete_hand_is_not_allowed_with_a_reason(score_json: Any) -> None:
    hand = {**IMS_HAND, "concealed": "4B 5B 7B WD WD"}
    result = score_json(hand)
    assert result["allowed"] is False and "not a winning pattern" in result["reason"]
    assert "payments" not in result
    classical = score_json({**CLASSICAL_HAND, "concealed": "1B 2B 4B 5C 5C 5C 7D 8D 9D RD RD RD EW EW"})
    assert classical["allowed"] is False and "not a complete hand" in classical["reason"]


def test_a_hand_below_the_minimum_fan_is_not_allowed(score_json: Any) -> None:
    hand = {
        **IMS_HAND,
        "options": {"MinimumFan": 2},
        "exposed": [{"set": "chow", "tile": "1D"}, *IMS_HAND["exposed"][1:]],
    }
    result = score_json(hand)  # Quadruplet 2 fan: enough
    assert result["allowed"] is True
    hand["exposed"] = [{"set": "chow", "tile": "1D"}, {"set": "pung", "tile": "9D"}, {"set": "kong", "tile": "7C"}]
    result = score_json(hand)  # one Quadruplet: 1 fan
    assert result["allowed"] is False
    assert result["reason"] == "1 fan is below the table's Minimum Fan of 2"
    assert "payments" not in result and result["fan"] == 1


def test_the_command_itself_exits_0_and_prints_one_json_object() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mj.cli", "score", "--json"],
        input=json.dumps(IMS_HAND),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["score"] == 12


# -------------------------------------------------------------------------------------- malformed input


def changed(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    for name, value in fields.items():
        if value is None:
            del data[name]
        else:
            data[name] = value
    return data


MALFORMED = [
    (
        "13 tiles",
        changed(IMS_HAND, concealed="4B 5B 6B WD"),
        "the hand has 13 tiles' worth (a kong counts as 3), not 14",
    ),
    ("15 tiles", changed(IMS_HAND, concealed="4B 5B 6B WD WD WD"), "the hand has 15 tiles' worth"),
    ("five of a tile", changed(IMS_HAND, concealed="3B 4B 5B WD WD"), "the hand holds 5 of 3B; there are only 4"),
    ("unknown tile code", changed(IMS_HAND, concealed="4B 5B 6X WD WD"), "concealed: unknown tile code '6X'"),
    ("lower-case code", changed(IMS_HAND, concealed="4B 5B 6b WD WD"), "concealed: unknown tile code '6b'"),
    ("blank tile", changed(IMS_HAND, concealed="4B 5B -- WD WD"), "concealed: unknown tile code '--'"),
    ("winning tile not held", changed(IMS_HAND, winning_tile="GD"), "the winning tile GD is not among the concealed"),
    ("unknown option", changed(IMS_HAND, options={"Flowers": True}), "unknown IMS option 'Flowers'"),
    ("bad option value", changed(IMS_HAND, options={"MinimumFan": 3}), "option MinimumFan must be 0 or 2, not 3"),
    ("unknown classical option", changed(CLASSICAL_HAND, options={"MinimumFan": 2}), "unknown classical option"),
    ("bad classical value", changed(CLASSICAL_HAND, options={"SevenPairs": 2}), "option SevenPairs must be true or"),
    ("unknown field", changed(IMS_HAND, winner="S"), "unknown field 'winner'"),
    ("missing field", changed(IMS_HAND, seat=None), "missing field 'seat'"),
    ("bad seat", changed(IMS_HAND, seat="X"), "seat must be a wind letter E, S, W or N, not 'X'"),
    ("bad how", changed(IMS_HAND, how="stolen"), "how must be one of self-drawn, discard, robbed-kong, loose-tile"),
    ("fed without feeder", changed(IMS_HAND, discarder=None), "a win by discard needs the discarder"),
    ("feeder is the winner", changed(IMS_HAND, discarder="S"), "the discarder S is the winner's own seat"),
    ("self-drawn with feeder", changed(IMS_HAND, how="self-drawn"), "a self-drawn win has no discarder"),
    ("chow of honours", changed(IMS_HAND, exposed=[{"set": "chow", "tile": "RD"}]), "RD cannot start one"),
    ("chow from 8", changed(IMS_HAND, exposed=[{"set": "chow", "tile": "8B"}]), "8B cannot start one"),
    ("bad set", changed(IMS_HAND, exposed=[{"set": "pair", "tile": "8B"}]), "set must be chow, pung or kong"),
    (
        "concealed pung",
        changed(IMS_HAND, exposed=[{"set": "pung", "tile": "8B", "concealed": True}]),
        "only a kong can be declared concealed",
    ),
    ("flower in the hand", changed(IMS_HAND, concealed="4B 5B 6B WD 1S"), "1S is a flower or season"),
    ("flower twice", changed(IMS_HAND, flowers=["1F", "1F"]), "flower 1F is given twice"),
    ("pung of a flower", changed(IMS_HAND, exposed=[{"set": "pung", "tile": "1F"}]), "1F is a flower or season"),
    (
        "kong of a season",
        changed(CLASSICAL_HAND, exposed=[{"set": "kong", "tile": "2S", "concealed": True}], concealed="2B 2B 2B 2B"),
        "2S is a flower or season: it makes no set",
    ),
    (
        "a chow on the first turn",
        changed(CLASSICAL_HAND, first_turn=True, exposed=[{"set": "chow", "tile": "1C"}]),
        "a hand on its first turn has claimed no chow",
    ),
    ("tile as flower", changed(IMS_HAND, flowers=["1B"]), "1B in flowers is not a flower or season"),
    (
        "robbed tile held twice",
        changed(IMS_HAND, how="robbed-kong", winning_tile="WD"),
        "a robbed kong's tile WD is held once",
    ),
    (
        "loose tile with neither kong nor flower",
        changed(BEIJING_HAND, how="loose-tile", discarder=None),
        "a loose tile is drawn after a kong or a flower, and the hand has neither",
    ),
    ("unknown rules", changed(IMS_HAND, rules="riichi"), "unknown rules 'riichi'"),
    ("beijing with flowers", changed(IMS_HAND, rules="beijing"), "Beijing plays without flowers"),
    ("classical flowers off", changed(CLASSICAL_HAND, options={"Flowers": 0}, flowers=["1F"]), "Flowers option is off"),
    ("beijing without indicator", changed(BEIJING_HAND, wild_indicator=None), "wild_indicator is required"),
    ("beijing bad indicator", changed(BEIJING_HAND, wild_indicator="XX"), "wild_indicator: unknown tile code"),
    ("beijing flower indicator", changed(BEIJING_HAND, wild_indicator="1F"), "1F is a flower or season"),
    (
        "beijing fifth copy",
        changed(BEIJING_HAND, wild_indicator="EW", concealed="2B 3B 4B 4C 5C 6C 7D 8D 9D EW EW EW EW 5D"),
        "the wild indicator is one of its four copies",
    ),
    ("beijing unknown option", changed(BEIJING_HAND, options={"Flowers": True}), "unknown Beijing option 'Flowers'"),
    ("beijing bad unit", changed(BEIJING_HAND, options={"Unit": 4}), "option Unit must be a whole number from 1 to 2"),
    ("beijing bad flag", changed(BEIJING_HAND, options={"VoidSuit": "yes"}), "option VoidSuit must be true or false"),
    ("not an object", [1, 2], "the input must be one JSON object"),
    ("not JSON", "{seat: S", "the input is not JSON"),
]


@pytest.mark.parametrize(("data", "message"), [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_malformed_input_exits_2_with_one_line_naming_the_fault(
    data: object, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_score(data, "--json", monkeypatch=monkeypatch, capsys=capsys)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("mj score: "), err
    assert message in err


def test_the_rules_argument_overrides_the_inputs_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_score(IMS_HAND, "--rules", "beijing", monkeypatch=monkeypatch, capsys=capsys)
    assert (status, out, err) == (2, "", "mj score: flowers are given, but Beijing plays without flowers\n")


def test_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["score", str(tmp_path / "none.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mj score: cannot read")


# ------------------------------------------------------------------------ property: payments sum to zero


def as_request(hand: WinningHand, options: IMSOptions, rules: str) -> Request:
    return Request(rules, dict(options.values) if rules == "ims" else {}, hand, None)


@settings(max_examples=200, deadline=None)
@given(complete_hands())
def test_every_allowed_hand_is_paid_by_the_others_in_both_systems(case: tuple[WinningHand, IMSOptions]) -> None:
    hand, options = case
    for rules in ("ims", "classical"):
        result = calculate(as_request(hand, options, rules)).to_json()
        if result["allowed"]:
            payments = result["payments"]
            assert list(payments) == list(SEAT_LETTERS)
            assert sum(payments.values()) == 0
            assert payments[SEAT_LETTERS[hand.seat]] > 0


def test_parse_request_keeps_the_given_options_for_the_rule_system() -> None:
    request = parse_request(IMS_HAND)
    assert (request.rules, dict(request.options)) == ("ims", {"CountFlowers": True, "MinimumFan": 0})
