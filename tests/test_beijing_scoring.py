"""Beijing scoring and payment (seed 004, issue 20 items 4 and 5): every double, rare event, wild rule and variation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mj.calculator import InputError, calculate, parse_request
from mj.rules.beijing import options as opt
from mj.rules.beijing.payments import busted_banker
from mj.rules.beijing.scoring import score
from mj.rules.beijing.wilds import may_rob_kong, may_win_on_discard, wild_of
from mj.rules.winhand import SEAT_LETTERS
from mj.tiles import KINDS, code, parse
from test_wild import complete_concealed

#: South wins West's 9D; East wind turned up, so South Wind is wild and the hand holds none.
BASE: dict[str, Any] = {
    "rules": "beijing",
    "seat": "S",
    "round": "E",
    "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D 3D 4D 5D EW EW",
    "winning_tile": "9D",
    "how": "discard",
    "discarder": "W",
    "wild_indicator": "EW",
}


def result(**changes: Any) -> dict[str, Any]:
    data = {**BASE, **changes}
    out: dict[str, Any] = calculate(parse_request(data)).to_json()
    return out


def names(out: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e["value"] for e in out["elements"]}


def test_the_base_hand_pays_each_payer_the_unit_doubled_once_per_double_that_applies_to_them() -> None:
    out = result()
    # Closed and Straight for all; Banker for East alone; Own Tile for West (the discarder) alone.
    assert out["doubles"] == 2
    assert out["payments"] == {"E": -8, "S": 20, "W": -8, "N": -4}
    assert out["score"] == 20
    assert names(out) == {
        "Closed": "1 double",
        "Straight": "1 double",
        "Banker": "1 double for E",
        "Own Tile": "1 double for W",
    }


def test_banker_double_applies_to_every_payer_when_the_banker_wins() -> None:
    out = result(seat="E", discarder="W")
    assert names(out)["Banker"] == "1 double"
    # Banker, Closed and Straight for all (8 each); West also pays Own Tile.
    assert out["doubles"] == 3
    assert out["payments"] == {"E": 32, "S": -8, "W": -16, "N": -8}


def test_own_tile_is_a_double_for_everyone_on_a_self_drawn_win() -> None:
    out = result(how="self-drawn", discarder=None)
    assert names(out)["Own Tile"] == "1 double"
    assert out["payments"] == {"E": -16, "S": 32, "W": -8, "N": -8}


def test_closed_is_lost_by_an_open_set_but_not_by_a_concealed_kong() -> None:
    hand = {
        "concealed": "2B 3B 4B 4C 5C 6C 3D 4D 5D EW EW",
        "winning_tile": "4B",
        "how": "self-drawn",
        "discarder": None,
    }
    assert "Closed" not in names(result(exposed=[{"set": "pung", "tile": "RD"}], **hand))
    assert "Closed" in names(result(exposed=[{"set": "kong", "tile": "RD", "concealed": True}], **hand))


def test_closed_applies_to_a_win_on_a_discard() -> None:
    assert "Closed" in names(result())


def test_straight_needs_every_wild_at_its_face_value() -> None:
    joker = result(
        wild_indicator="WW",
        concealed="1B 2B 3B 4B 5B 6B 7B 8B 9B 1C NW 5D 6D 7D",
        how="self-drawn",
        discarder=None,
        winning_tile="7D",
    )
    assert joker["allowed"] and "Straight" not in names(joker)
    face = result(
        wild_indicator="4B",
        concealed="1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 1C 5D 6D 7D",
        how="self-drawn",
        discarder=None,
        winning_tile="7D",
    )
    assert "Straight" in names(face)


def test_a_wild_may_stand_for_a_fifth_copy_of_a_kind_the_hand_holds_four_of() -> None:
    # Seed: "A wild tile can be substituted for any tile in a winning hand." South Wind is
    # wild; with four 1C (or four Red) held, the only readings make the wild a fifth copy.
    for four in ("1C", "RD"):
        out = result(
            concealed=f"{four} {four} {four} {four} SW 2D 2D 2D 3D 3D 3D 4D 4D 4D",
            winning_tile="4D",
            how="self-drawn",
            discarder=None,
            options={"AllPungs": True},
        )
        assert out["allowed"], out
        assert "All Pungs" in names(out)


def test_the_best_reading_may_make_a_wild_a_fifth_copy() -> None:
    # Seed: "A wild tile can be substituted for any tile": 7D 7D 7D and a wild standing for
    # the fifth 7D as the eye make four pungs, beside the closed kong of 5D.
    out = result(
        wild_indicator="4B",
        exposed=[{"set": "kong", "tile": "5D", "concealed": True}],
        concealed="6D 6D 6D 7D 7D 7D 7D 8D 8D 8D 5B",
        winning_tile="6D",
        discarder="S",
        seat="N",
        options={"AllPungs": True},
    )
    assert "All Pungs" in names(out)


def test_flush_is_one_suits_three_runs_from_one_to_nine() -> None:
    out = result(
        concealed="1B 2B 3B 4B 5B 6B 7B 8B 9B 4C 5C 6C EW EW", winning_tile="9B", how="self-drawn", discarder=None
    )
    assert names(out)["Flush"] == "1 double"
    assert out["doubles"] == 4 and out["payments"]["N"] == -16 and out["payments"]["E"] == -32


def test_a_declared_run_counts_toward_the_flush() -> None:
    out = result(
        exposed=[{"set": "chow", "tile": "1B"}],
        concealed="4B 5B 6B 7B 8B 9B 4C 5C 6C EW EW",
        winning_tile="9B",
        how="self-drawn",
        discarder=None,
    )
    assert "Flush" in names(out)


SEVEN_PAIRS = "1B 1B 3B 3B 5C 5C 7D 7D EW EW RD RD GD GD"


def test_seven_pairs_is_a_double_and_closed() -> None:
    out = result(concealed=SEVEN_PAIRS, winning_tile="GD", how="self-drawn", discarder=None)
    assert {"Seven Pairs", "Closed", "Own Tile", "Straight"} <= set(names(out))
    assert out["doubles"] == 4


def test_deluxe_is_a_double_for_each_four_of_a_kind_in_seven_pairs() -> None:
    out = result(
        concealed="1B 1B 1B 1B 3B 3B 5C 5C 7D 7D RD RD RD RD", winning_tile="3B", how="self-drawn", discarder=None
    )
    assert names(out)["Deluxe"] == "2 doubles"
    assert out["doubles"] == 6


def test_deluxe_never_counts_four_wild_tiles_even_at_face_value() -> None:
    out = result(
        wild_indicator="9B",
        concealed="1B 1B 1B 1B 3B 3B 5C 5C 7D 7D RD RD RD RD",
        winning_tile="3B",
        how="self-drawn",
        discarder=None,
    )
    assert names(out)["Deluxe"] == "1 double"


def test_catch_five_is_five_characters_won_in_the_gap_of_four_and_six() -> None:
    out = result(concealed="1B 2B 3B 4C 5C 6C 7D 8D 9D 3D 4D 5D EW EW", winning_tile="5C")
    assert "Catch Five" in names(out)
    assert "Catch Five" not in names(result(concealed="1B 2B 3B 4C 5C 6C 7D 8D 9D 3D 4D 5D EW EW", winning_tile="9D"))


def test_catch_five_in_seven_pairs_pairs_a_real_five_characters() -> None:
    out = result(concealed=SEVEN_PAIRS, winning_tile="5C", how="self-drawn", discarder=None)
    assert "Catch Five" in names(out)


def test_catch_five_never_has_a_wild_as_the_five() -> None:
    out = result(
        wild_indicator="4C",
        concealed="1B 2B 3B 4C 5C 6C 7D 8D 9D 3D 4D 5D EW EW",
        winning_tile="5C",
        how="self-drawn",
        discarder=None,
    )
    assert out["allowed"] and "Catch Five" not in names(out)


KONG_BLOOM: dict[str, Any] = {
    "exposed": [{"set": "kong", "tile": "9B", "concealed": True}],
    "concealed": "2B 3B 4B 4C 5C 6C 3D 4D 5D EW EW",
    "winning_tile": "4B",
    "how": "loose-tile",
    "discarder": None,
}


def test_kong_bloom_doubles_the_hand_and_the_kong_points() -> None:
    out = result(**KONG_BLOOM)
    # Closed, Own Tile, Straight, Kong Bloom: 16; the closed kong's 2 points doubled: 4.
    assert names(out)["Kong Bloom"] == "1 double" and names(out)["Kongs"] == "2 points"
    assert out["payments"] == {"E": -36, "S": 76, "W": -20, "N": -20}


def test_kong_points_are_one_for_an_open_kong_and_two_for_a_closed_one() -> None:
    common = {
        "concealed": "2B 3B 4B 4C 5C 6C 3D 4D 5D EW EW",
        "winning_tile": "4B",
        "how": "self-drawn",
        "discarder": None,
    }
    open_kong = result(exposed=[{"set": "kong", "tile": "9B"}], **common)
    closed_kong = result(exposed=[{"set": "kong", "tile": "9B", "concealed": True}], **common)
    assert names(open_kong)["Kongs"] == "1 point" and open_kong["payments"]["N"] == -(4 + 1)
    assert names(closed_kong)["Kongs"] == "2 points" and closed_kong["payments"]["N"] == -(8 + 2)


def test_banker_kongs_doubles_the_kong_points_the_banker_pays_only_when_on() -> None:
    assert result(**KONG_BLOOM)["payments"]["E"] == -(32 + 4)
    assert result(options={"BankerKongs": True}, **KONG_BLOOM)["payments"]["E"] == -(32 + 8)


WILD_EYE: dict[str, Any] = {
    "wild_indicator": "WW",
    "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D RD RD RD NW GD",
    "winning_tile": "GD",
    "how": "self-drawn",
    "discarder": None,
}


def test_wild_eye_is_an_optional_double_off_by_default() -> None:
    assert "Wild Eye" not in names(result(**WILD_EYE))
    assert names(result(options={"WildEye": True}, **WILD_EYE))["Wild Eye"] == "1 double"


def test_wild_eye_is_a_sort_of_straight_and_never_doubles_a_hand_that_is_straight_already() -> None:
    # The seed: Wild Eye players "treat this as a sort of Straight hand and scores a double". The
    # lone wild (North Wind) paired by the wild drawn is an eye at face value: Straight, once.
    paired_by_a_wild = {**WILD_EYE, "winning_tile": "NW", "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D RD RD RD NW NW"}
    plain = result(**paired_by_a_wild)
    assert names(plain)["Straight"] == "1 double"
    with_option = result(options={"WildEye": True}, **paired_by_a_wild)
    assert with_option["doubles"] == plain["doubles"] and with_option["score"] == plain["score"]


NATIVE: dict[str, Any] = {
    "wild_indicator": "4B",
    "concealed": "1B 2B 3B 4B 5B 5B 7B 8B 9B 1C 1C 5D 6D 7D",
    "winning_tile": "9B",
    "how": "self-drawn",
    "discarder": None,
}


def test_native_wild_flush_is_an_optional_double_off_by_default() -> None:
    assert "Flush" in names(result(**NATIVE)) and "Native Wild Flush" not in names(result(**NATIVE))
    assert "Native Wild Flush" in names(result(options={"NativeWildFlush": True}, **NATIVE))


def test_native_wild_flush_needs_the_wild_of_the_flushs_suit() -> None:
    other = {**NATIVE, "wild_indicator": "WW", "concealed": "1B 2B 3B 4B 5B NW 7B 8B 9B 1C 1C 5D 6D 7D"}
    out = result(options={"NativeWildFlush": True}, **other)
    assert "Flush" in names(out) and "Native Wild Flush" not in names(out)


# --- rare events ------------------------------------------------------------------------------------


def test_heavenly_win_adds_its_points_undoubled() -> None:
    out = result(seat="E", how="self-drawn", discarder=None, first_turn=True)
    assert names(out)["Heavenly Win"] == "20 points, undoubled"
    assert out["payments"] == {"E": 3 * (16 + 20), "S": -36, "W": -36, "N": -36}


def test_a_banker_who_goes_out_on_a_loose_tile_at_the_first_turn_was_not_dealt_a_heavenly_win() -> None:
    out = result(**{**KONG_BLOOM, "seat": "E", "first_turn": True})
    assert out["allowed"] and "Kong Bloom" in names(out) and "Heavenly Win" not in names(out)


def test_earthly_win_is_on_the_bankers_first_discard() -> None:
    out = result(discarder="E", first_turn=True)
    assert names(out)["Earthly Win"] == "20 points, undoubled"
    assert out["payments"] == {"E": -(16 + 20), "S": 36 + 24 + 24, "W": -24, "N": -24}
    assert "Earthly Win" not in names(result(discarder="W", first_turn=True))


def test_wild_kong_is_holding_all_four_wilds_at_the_agreed_points() -> None:
    out = result(
        wild_indicator="WW",
        concealed="2B 3B 4B 4C 5C 6C 7D 8D 9D NW NW NW NW EW",
        winning_tile="EW",
        how="self-drawn",
        discarder=None,
        options={"WildKong": 30},
    )
    assert names(out)["Wild Kong"] == "30 points, undoubled"


# --- the wild-tile rules on going out -----------------------------------------------------------------


def refused(**changes: Any) -> str:
    out = result(**changes)
    assert out["allowed"] is False and "payments" not in out
    reason: str = out["reason"]
    return reason


def test_no_wild_in_an_open_set_or_a_kong() -> None:
    assert "open set or a kong" in refused(
        wild_indicator="8B",
        exposed=[{"set": "kong", "tile": "9B", "concealed": True}],
        concealed="2B 3B 4B 4C 5C 6C 3D 4D 5D EW EW",
        winning_tile="4B",
        how="self-drawn",
        discarder=None,
    )


def test_a_discarded_wild_can_never_be_claimed_to_win_even_at_face_value() -> None:
    assert "can never be claimed" in refused(wild_indicator="8D")
    assert result(wild_indicator="8D", how="self-drawn", discarder=None)["allowed"]


def test_a_player_with_open_sets_wins_only_by_their_own_tile() -> None:
    hand = {"exposed": [{"set": "pung", "tile": "RD"}], "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D EW EW"}
    assert "open sets" in refused(**hand)
    assert "open sets" in refused(how="robbed-kong", **hand)
    assert result(how="self-drawn", discarder=None, **hand)["allowed"]


def test_robbing_a_kong_is_paid_as_a_discard_by_the_robbed_player() -> None:
    assert result(how="robbed-kong")["payments"] == result()["payments"]


def test_a_player_with_more_than_two_wilds_wins_only_by_their_own_tile() -> None:
    three = {"wild_indicator": "WW", "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D NW NW NW EW EW"}
    assert "more than 2 wild" in refused(**three)
    assert result(how="self-drawn", discarder=None, **three)["allowed"]
    assert result(wild_indicator="WW", concealed="2B 3B 4B 4C 5C 6C 7D 8D 9D 3D NW NW EW EW")["allowed"]


def test_a_hand_waiting_for_its_eye_with_a_wild_wins_only_by_its_own_tile() -> None:
    assert "eye with a wild" in refused(**{**WILD_EYE, "how": "discard", "discarder": "W"})
    assert result(**WILD_EYE)["allowed"]


def test_six_pairs_and_a_wild_also_wait_for_the_eye() -> None:
    hand = {"wild_indicator": "WW", "concealed": "1B 1B 3B 3B 5C 5C 7D 7D EW EW RD RD NW GD", "winning_tile": "GD"}
    assert "eye with a wild" in refused(**hand)


def test_an_open_kong_may_be_robbed_and_a_closed_one_only_for_a_flush() -> None:
    assert may_rob_kong(concealed_kong=False, completes_flush=False)
    assert may_rob_kong(concealed_kong=True, completes_flush=True)
    assert not may_rob_kong(concealed_kong=True, completes_flush=False)


def test_an_incomplete_hand_may_not_go_out() -> None:
    assert "not a complete hand" in refused(concealed="2B 3B 4B 4C 5C 6C 7D 8D 9D 3D 4D 6D EW EW")


def test_an_incomplete_hand_is_told_so_before_how_it_went_out() -> None:
    """An open hand on a discard, or one on a discarded wild, is first of all not complete."""
    opened = {"exposed": [{"set": "pung", "tile": "RD"}], "concealed": "4C 5C 6C 7D 8D 9D 3D 4D 6D EW EW"}
    assert "not a complete hand" in refused(**opened)
    assert "not a complete hand" in refused(concealed="2B 3B 4B 4C 5C 6C 7D 8D 9D 1D 4D 7D RD SW", winning_tile="SW")


def test_wilds_follow_the_seeds_order_and_wrap() -> None:
    pairs = {"9B": "1B", "5C": "6C", "EW": "SW", "NW": "EW", "RD": "GD", "GD": "WD", "WD": "RD"}
    assert {k: code(wild_of(parse(k))) for k in pairs} == pairs


def test_the_wild_indicator_is_one_of_the_four_copies_of_its_tile() -> None:
    data = {**BASE, "wild_indicator": "RD", "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D RD RD RD RD EW"}
    with pytest.raises(InputError, match="wild indicator is one of its four copies"):
        calculate(parse_request(data))


def test_a_robbed_kongs_tile_cannot_also_be_the_wild_indicator() -> None:
    # Seed: robbing a kong is winning on "a tile ... about to be added to an open pung": that
    # pung's three and the robbing tile are all four copies, so none was turned up as the indicator.
    data = {**BASE, "how": "robbed-kong", "wild_indicator": "9D"}
    with pytest.raises(InputError, match="robbed kong's tile 9D cannot be the wild indicator"):
        calculate(parse_request(data))


def test_beijing_needs_the_wild_indicator() -> None:
    data = {k: v for k, v in BASE.items() if k != "wild_indicator"}
    with pytest.raises(InputError, match="wild_indicator is required"):
        calculate(parse_request(data))


# --- the variations ---------------------------------------------------------------------------------


def test_every_variation_and_optional_double_is_off_by_default() -> None:
    variations = [s for s in opt.SCHEMA if s.is_bool]
    assert variations and all(s.default == 0 for s in variations)
    assert opt.DEFAULTS[opt.UNIT] == 1 and opt.DEFAULTS[opt.WALL_END] == 0


def test_the_unit_two_is_the_2_4_8_table() -> None:
    assert result(options={"Unit": 2})["payments"] == {"E": -16, "S": 40, "W": -16, "N": -8}
    with pytest.raises(InputError, match="Unit must be"):
        result(options={"Unit": 3})


def test_rare_event_points_are_agreed_by_the_table() -> None:
    out = result(seat="E", how="self-drawn", discarder=None, first_turn=True, options={"HeavenlyWin": 10})
    assert out["payments"]["S"] == -(16 + 10)


def test_void_suit_required_refuses_a_hand_with_all_three_suits() -> None:
    assert result()["allowed"]
    assert "VoidSuit" in refused(options={"VoidSuit": True})
    flush = {"concealed": "1B 2B 3B 4B 5B 6B 7B 8B 9B 4C 5C 6C EW EW", "winning_tile": "9B"}
    assert result(options={"VoidSuit": True}, **flush)["allowed"]


def test_void_suit_may_be_kept_by_what_a_wild_stands_for() -> None:
    # 5D is wild (indicator 4D): it stands for 4C, so the hand lacks circles.
    hand = {
        "wild_indicator": "4D",
        "concealed": "1B 2B 3B 4B 5B 6B 7B 8B 9B 5D 5C 6C EW EW",
        "winning_tile": "9B",
        "how": "self-drawn",
        "discarder": None,
    }
    assert result(options={"VoidSuit": True}, **hand)["allowed"]


def test_at_most_once_refuses_a_second_chow_or_pung() -> None:
    hand = {
        "exposed": [{"set": "chow", "tile": "2B"}, {"set": "pung", "tile": "RD"}],
        "concealed": "4C 5C 6C 7D 8D 9D EW EW",
        "how": "self-drawn",
        "discarder": None,
    }
    assert result(**hand)["allowed"]
    assert "AtMostOnce" in refused(options={"AtMostOnce": True}, **hand)
    one_and_kong = {**hand, "exposed": [{"set": "chow", "tile": "2B"}, {"set": "kong", "tile": "RD"}]}
    assert result(options={"AtMostOnce": True}, **one_and_kong)["allowed"]


@pytest.mark.parametrize(
    ("option", "double", "changes"),
    [
        (
            "PureOneSuit",
            "Pure One Suit",
            {"concealed": "1B 2B 3B 4B 5B 6B 7B 8B 9B 2B 3B 4B 5B 5B", "winning_tile": "5B"},
        ),
        ("AllPungs", "All Pungs", {"concealed": "2B 2B 2B 4C 4C 4C 7D 7D 7D RD RD RD EW EW", "winning_tile": "EW"}),
        (
            "SingleTile",
            "Single Tile",
            {
                "exposed": [
                    {"set": "pung", "tile": "2B"},
                    {"set": "chow", "tile": "4C"},
                    {"set": "pung", "tile": "7D"},
                    {"set": "kong", "tile": "RD"},
                ],
                "concealed": "EW EW",
                "winning_tile": "EW",
            },
        ),
        ("LastTile", "Last Tile", {"last_tile": True}),
    ],
)
def test_each_additional_double_counts_only_when_the_table_plays_it(
    option: str, double: str, changes: dict[str, Any]
) -> None:
    hand = {"how": "self-drawn", "discarder": None, **changes}
    off = result(**hand)
    on = result(options={option: True}, **hand)
    assert double not in names(off) and names(on)[double] == "1 double"
    assert on["doubles"] == off["doubles"] + 1


def test_the_last_tile_double_is_for_drawing_the_last_tile_not_for_a_discard_after_it() -> None:
    assert "Last Tile" not in names(result(options={"LastTile": True}, last_tile=True))


def test_discarder_pays_for_all_only_when_the_table_plays_it() -> None:
    assert result()["payments"] == {"E": -8, "S": 20, "W": -8, "N": -4}
    assert result(options={"DiscPaysAll": True})["payments"] == {"E": 0, "S": 20, "W": -20, "N": 0}
    drawn = result(options={"DiscPaysAll": True}, how="self-drawn", discarder=None)
    assert drawn["payments"]["E"] < 0 and drawn["payments"]["N"] < 0


def test_the_option_s_earlier_name_discarder_pays_all_is_still_accepted() -> None:
    assert result(options={"DiscarderPaysAll": True})["payments"] == result(options={"DiscPaysAll": True})["payments"]


def test_upstairs_doubles_everything_only_when_the_table_plays_it() -> None:
    hand = parse_request(BASE).hand
    plain = score(hand, opt.DEFAULTS, parse("EW"), upstairs=True)
    up = score(hand, opt.parse({"Upstairs": True}), parse("EW"), upstairs=True)
    assert [p.amount for p in up.payers] == [2 * p.amount for p in plain.payers]
    assert ("Upstairs", 1) in up.shared and ("Upstairs", 1) not in plain.shared


def test_upstairs_after_the_bankers_third_stay_is_its_own_option() -> None:
    hand = parse_request(BASE).hand
    plain = score(hand, opt.DEFAULTS, parse("EW"), upstairs=True)
    up = score(hand, opt.parse({"UpstairsBanker": True}), parse("EW"), upstairs=True)
    assert up.total == 2 * plain.total


def test_upstairs_doubles_the_points_too() -> None:
    hand = parse_request({**BASE, "seat": "E", "how": "self-drawn", "discarder": None, "first_turn": True}).hand
    plain = score(hand, opt.DEFAULTS, parse("EW"))
    up = score(hand, opt.parse({"Upstairs": True}), parse("EW"), upstairs=True)
    assert up.total == 2 * plain.total == 2 * 3 * (16 + 20)


def test_busted_banker_pays_each_other_player_the_agreed_points() -> None:
    assert opt.DEFAULTS[opt.BUSTED_BANKER] == 0 and opt.DEFAULTS[opt.BUSTED_POINTS] == 10
    assert busted_banker(0, 10).changes == (-30, 10, 10, 10)


def test_no_win_after_passing_a_winning_tile_only_when_the_table_plays_it() -> None:
    assert may_win_on_discard(passed_a_winning_tile=True, no_win_after_pass=False)
    assert not may_win_on_discard(passed_a_winning_tile=True, no_win_after_pass=True)
    assert may_win_on_discard(passed_a_winning_tile=False, no_win_after_pass=True)


def test_an_unknown_option_is_an_error() -> None:
    with pytest.raises(InputError, match="unknown Beijing option"):
        result(options={"Flowers": True})


# --- payments always balance --------------------------------------------------------------------------

BOOLEAN_OPTIONS = [s.name for s in opt.SCHEMA if s.is_bool]


@settings(max_examples=200, deadline=None)
@given(
    complete_concealed(),
    st.sampled_from(KINDS),
    st.integers(0, 3),
    st.sampled_from(["self-drawn", "discard"]),  # no kong, so no loose tile
    st.integers(1, 3),
    st.sets(st.sampled_from(BOOLEAN_OPTIONS)),
    st.data(),
)
def test_payments_sum_to_zero_and_every_payer_pays_the_winner(
    hand: list[int], indicator: int, seat: int, how: str, offset: int, options: set[str], data: st.DataObject
) -> None:
    if hand.count(indicator) > 3:
        return
    winning = data.draw(st.sampled_from(hand))
    request = {
        "rules": "beijing",
        "seat": SEAT_LETTERS[seat],
        "round": "E",
        "concealed": " ".join(code(t) for t in hand),
        "winning_tile": code(winning),
        "how": how,
        "discarder": SEAT_LETTERS[(seat + offset) % 4] if how == "discard" else None,
        "wild_indicator": code(indicator),
        "options": dict.fromkeys(options, True),
    }
    out = calculate(parse_request(request)).to_json()
    if not out["allowed"]:
        return
    payments = out["payments"]
    assert sum(payments.values()) == 0
    assert payments[SEAT_LETTERS[seat]] == out["score"] > 0
    assert all(v <= 0 for s, v in payments.items() if s != SEAT_LETTERS[seat])
