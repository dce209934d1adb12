"""IMS scoring as seed 003 states it: every fan element, the special patterns, the maximum, the bonus,
the score formula, Minimum Fan, Count Flowers and the payments (docs/rules-ims.md has mj's readings)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mj.calculator.request import parse_request
from mj.rules.ims import options as ims_options
from mj.rules.ims.options import IMSOptionError, IMSOptions
from mj.rules.ims.payments import pay, total
from mj.rules.ims.scoring import FAN_ELEMENTS, MAX_FAN, IMSScore, Shape, score, score_of
from mj.rules.winhand import SEAT_LETTERS, How, WinningHand
from mj.tiles import KINDS, SPECIALS, code, is_suited

DEFAULTS = ims_options.DEFAULTS


def hand(
    concealed: str,
    winning: str,
    how: str = "self-drawn",
    *,
    exposed: tuple[str, ...] = (),
    seat: str = "S",
    round: str = "E",
    discarder: str | None = None,
    flowers: str = "",
) -> WinningHand:
    """A hand from score-json.md's fields; ``exposed`` like ``"pung RD"``, ``"concealed kong 3B"``."""
    sets: list[dict[str, Any]] = []
    for spec in exposed:
        *words, tile = spec.split()
        sets.append({"set": words[-1], "tile": tile, "concealed": words[0] == "concealed"})
    data: dict[str, Any] = {
        "seat": seat,
        "round": round,
        "exposed": sets,
        "concealed": concealed,
        "winning_tile": winning,
        "how": how,
        "discarder": discarder,
        "flowers": flowers.split(),
    }
    return parse_request(data).hand


def fan(result: IMSScore) -> dict[str, int]:
    """The fan elements that applied, by name."""
    return {line.name: line.value for line in result.fan_lines}


def bonus(result: IMSScore) -> dict[str, int]:
    return {line.name: line.value for line in result.bonus_lines}


def with_options(**given: object) -> IMSOptions:
    return ims_options.parse(given)


# ------------------------------------------------------------------------------------- fan elements

#: A concealed hand of mixed suits and connections, self-drawn by South: only Front Door Clean and All Connections.
PLAIN = "1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 4B 5C 5C"


def test_a_triplet_of_the_seat_wind_adds_one_fan() -> None:
    result = score(hand("SW SW SW 1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 5B", "5B"), DEFAULTS)
    assert fan(result) == {"Seat Wind": 1, "Front Door Clean": 1}


def test_a_triplet_of_the_round_wind_adds_one_fan() -> None:
    result = score(hand("EW EW EW 1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 5B", "5B"), DEFAULTS)
    assert fan(result) == {"Round Wind": 1, "Front Door Clean": 1}


def test_the_seat_wind_that_is_also_the_round_wind_adds_both() -> None:
    result = score(hand("1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 5B", "5B", exposed=("kong EW",), seat="E"), DEFAULTS)
    assert fan(result) == {"Seat Wind": 1, "Round Wind": 1, "Quadruplet": 1}


def test_a_pair_of_the_seat_wind_adds_nothing() -> None:
    result = score(hand("1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 6B 7B SW SW", "SW"), DEFAULTS)
    assert "Seat Wind" not in fan(result)


def test_each_triplet_of_dragons_adds_one_fan() -> None:
    result = score(hand("RD RD RD 1B 2B 3B 4C 5C 6C 5B 5B", "5B", exposed=("pung GD",)), DEFAULTS)
    assert fan(result) == {"Dragon": 2}
    assert result.fan_lines[0].details == ("GD-GD-GD", "RD+RD+RD")


def test_each_quadruplet_concealed_or_revealed_adds_one_fan() -> None:
    result = score(hand("1B 2B 3B 4C 5C 6C 5B 5B", "5B", exposed=("kong 7C", "concealed kong 3D")), DEFAULTS)
    assert fan(result) == {"Quadruplet": 2}


def test_four_connections_are_all_connections() -> None:
    assert fan(score(hand(PLAIN, "5C"), DEFAULTS)) == {"All Connections": 1, "Front Door Clean": 1}


def test_connections_of_the_same_values_in_three_suits_are_3_sisters() -> None:
    result = score(hand("2B 3B 4B 2C 3C 4C 2D 3D 4D 7B 8B 9B NW NW", "NW"), DEFAULTS)
    assert fan(result) == {"All Connections": 1, "3 Sisters": 1, "Front Door Clean": 1}


def test_two_suits_of_the_same_connection_are_not_3_sisters() -> None:
    result = score(hand("2B 3B 4B 2C 3C 4C 2C 3C 4C 7B 8B 9B NW NW", "NW"), DEFAULTS)
    assert "3 Sisters" not in fan(result)


def test_a_snake_with_a_revealed_connection_is_a_revealed_snake() -> None:
    result = score(hand("4B 5B 6B 7B 8B 9B 2C 3C 4C EW EW", "EW", exposed=("chow 1B",)), DEFAULTS)
    assert fan(result) == {"All Connections": 1, "Revealed Snake": 2}


def test_a_snake_of_concealed_connections_is_a_concealed_snake_and_not_also_a_revealed_one() -> None:
    result = score(hand("1B 2B 3B 4B 5B 6B 7B 8B 9B 2C 3C 4C EW EW", "9B"), DEFAULTS)
    assert fan(result) == {"All Connections": 1, "Concealed Snake": 3, "Front Door Clean": 1}


def test_a_snake_completed_by_a_discard_stays_concealed() -> None:
    result = score(hand("1B 2B 3B 4B 5B 6B 7B 8B 9B 2C 3C 4C EW EW", "9B", "discard", discarder="W"), DEFAULTS)
    assert "Concealed Snake" in fan(result)


def test_four_triplets_are_all_triplets_a_quadruplet_counting_as_one() -> None:
    result = score(
        hand("5C 5C 5C 9D 9D 9D 7B 7B 7B 3C 3C", "3C", "discard", exposed=("kong 2B",), discarder="N"), DEFAULTS
    )
    assert fan(result) == {"Quadruplet": 1, "All Triplets": 3}


def test_triplets_of_words_only_are_pure_words_at_max_fan_replacing_all_triplets() -> None:
    result = score(hand("EW EW EW SW SW SW WW WW WW RD RD RD GD GD", "GD", seat="N", round="N"), DEFAULTS)
    assert fan(result)["Pure Words"] == MAX_FAN
    assert "All Triplets" not in fan(result)


def test_sets_of_suit_tiles_all_holding_a_1_or_a_9_are_all_1_and_9() -> None:
    result = score(hand("1B 2B 3B 7C 8C 9C 9D 9D 9D RD RD RD 1C 1C", "1C"), DEFAULTS)
    assert fan(result)["All 1&9"] == 2


def test_the_pair_counts_for_all_1_and_9() -> None:
    result = score(hand("1B 2B 3B 7C 8C 9C 9D 9D 9D RD RD RD 5C 5C", "5C"), DEFAULTS)
    assert "All 1&9" not in fan(result)


def test_one_suit_with_words_is_one_mixed_suit() -> None:
    result = score(hand("1B 2B 3B 4B 5B 6B 7B 7B 7B RD RD RD EW EW", "EW"), DEFAULTS)
    assert fan(result) == {"Dragon": 1, "One Mixed Suit": 3, "Front Door Clean": 1}


def test_one_suit_without_words_is_one_pure_suit_replacing_one_mixed_suit() -> None:
    result = score(hand("1B 2B 3B 4B 5B 6B 2B 3B 4B 7B 7B 7B 9B 9B", "9B"), DEFAULTS)
    assert fan(result) == {"One Pure Suit": 6, "Front Door Clean": 1}


def test_no_revealed_set_is_front_door_clean_even_on_a_discard() -> None:
    assert "Front Door Clean" in fan(score(hand(PLAIN, "5C", "discard", discarder="W"), DEFAULTS))


def test_a_revealed_connection_spoils_front_door_clean() -> None:
    result = score(hand("4C 5C 6C 7D 8D 9D 2B 3B 4B 5C 5C", "5C", exposed=("chow 1B",)), DEFAULTS)
    assert "Front Door Clean" not in fan(result)


def test_a_concealed_quadruplet_has_revealed_status_and_spoils_front_door_clean() -> None:
    result = score(hand("4C 5C 6C 7D 8D 9D 2B 3B 4B 5C 5C", "5C", exposed=("concealed kong 1B",)), DEFAULTS)
    assert "Front Door Clean" not in fan(result)


def test_every_set_and_the_pair_grabbed_is_all_grabs() -> None:
    exposed = ("chow 1B", "chow 4C", "pung RD", "kong 7D")
    result = score(hand("9C 9C", "9C", "discard", exposed=exposed, discarder="W"), DEFAULTS)
    assert fan(result) == {"Dragon": 1, "Quadruplet": 1, "All Grabs": 1}
    assert "All Grabs" not in fan(score(hand("9C 9C", "9C", exposed=exposed), DEFAULTS))


def test_a_concealed_quadruplet_was_not_grabbed() -> None:
    exposed = ("chow 1B", "chow 4C", "pung RD", "concealed kong 7D")
    assert "All Grabs" not in fan(score(hand("9C 9C", "9C", "discard", exposed=exposed, discarder="W"), DEFAULTS))


def test_winning_on_a_robbed_quadruplet_is_rob_quadruplet() -> None:
    result = score(hand(PLAIN, "6C", "robbed-kong", discarder="W"), DEFAULTS)
    assert fan(result)["Rob Quadruplet"] == 1


def test_winning_on_a_loose_tile_is_win_on_flower() -> None:
    result = score(hand(PLAIN, "6C", "loose-tile", flowers="2F"), DEFAULTS)
    assert fan(result)["Win on Flower"] == 1


def test_a_hand_with_no_element_has_0_fan_and_scores_1() -> None:
    result = score(
        hand("4C 5C 6C 7D 7D 7D 2B 3B 4B 5C 5C", "5C", "discard", exposed=("chow 1B",), discarder="W"), DEFAULTS
    )
    assert (result.fan_lines, result.fan, result.bonus, result.score) == ((), 0, 0, 1)


def test_every_fan_element_is_named_by_a_test_here() -> None:
    """Each row of the table has a test above whose name says its rule (guards new rows without tests)."""
    names = {e.name for e in FAN_ELEMENTS}
    assert names == {
        "Seat Wind", "Round Wind", "Dragon", "Quadruplet", "All Connections", "3 Sisters", "Revealed Snake",
        "Concealed Snake", "All Triplets", "Pure Words", "All 1&9", "One Mixed Suit", "One Pure Suit",
        "Front Door Clean", "All Grabs", "Rob Quadruplet", "Win on Flower", "7 Pairs", "Pure 7 Pairs",
        "13 Individuals", "13 Orphans",
    }  # fmt: skip


# ----------------------------------------------------------------------------------- special patterns


def test_seven_pairs_are_worth_5_fan_and_never_front_door_clean() -> None:
    result = score(hand("1B 1B 3C 3C 5D 5D 7B 7B 9C 9C EW EW RD RD", "RD"), DEFAULTS)
    assert (result.shape, fan(result)) == (Shape.SEVEN_PAIRS, {"7 Pairs": 5})


def test_normal_elements_add_to_seven_pairs() -> None:
    result = score(hand("1B 1B 2B 2B 5B 5B 7B 7B 9B 9B EW EW RD RD", "RD", "loose-tile", flowers="1S"), DEFAULTS)
    assert fan(result) == {"One Mixed Suit": 3, "Win on Flower": 1, "7 Pairs": 5}


def test_seven_pairs_of_1s_9s_and_words_add_all_1_and_9_and_13_individuals_add_rob_quadruplet() -> None:
    # Only Front Door Clean is kept from the special patterns ("does not apply to special patterns
    # below"), and "a pair is a set": so pairs each holding a 1 or a 9 are "all non-word sets".
    pairs = score(hand("1B 1B 9B 9B 1C 1C 9C 9C 9D 9D EW EW RD RD", "RD", "discard", discarder="W"), DEFAULTS)
    assert fan(pairs) == {"All 1&9": 2, "7 Pairs": 5}
    robbed = score(hand("1B 4B 7B 2C 5C 8C 3D 6D 9D EW SW WW RD RD", "9D", "robbed-kong", discarder="W"), DEFAULTS)
    assert fan(robbed) == {"Rob Quadruplet": 1, "13 Individuals": 6}


def test_four_of_a_kind_are_two_of_the_seven_pairs() -> None:
    assert score(hand("1B 1B 1B 1B 5D 5D 7B 7B 9C 9C EW EW RD RD", "RD"), DEFAULTS).shape is Shape.SEVEN_PAIRS


def test_seven_pairs_of_one_suit_are_pure_7_pairs_at_max_fan_replacing_7_pairs_and_one_pure_suit() -> None:
    result = score(hand("1B 1B 2B 2B 3B 3B 5B 5B 6B 6B 8B 8B 9B 9B", "9B"), DEFAULTS)
    assert fan(result) == {"Pure 7 Pairs": MAX_FAN}


def test_seven_pairs_of_words_are_pure_7_pairs() -> None:
    result = score(hand("EW EW SW SW WW WW NW NW RD RD WD WD GD GD", "GD"), DEFAULTS)
    assert fan(result) == {"Pure 7 Pairs": MAX_FAN}


def test_1_4_7_2_5_8_3_6_9_in_three_suits_with_three_words_and_a_word_pair_are_13_individuals() -> None:
    result = score(hand("1B 4B 7B 2C 5C 8C 3D 6D 9D EW SW WW RD RD", "RD"), DEFAULTS)
    assert (result.shape, fan(result)) == (Shape.THIRTEEN_INDIVIDUALS, {"13 Individuals": 6})


def test_13_individuals_are_strict() -> None:
    result = score(hand("1B 4B 7B 2C 5C 8C 3D 6D 8D EW SW WW RD RD", "RD"), DEFAULTS)
    assert not result.allowed and result.shape is None


def test_the_1s_9s_and_words_with_one_more_are_13_orphans_at_max_fan() -> None:
    result = score(hand("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD GD GD", "GD"), DEFAULTS)
    assert (result.shape, fan(result), result.fan) == (Shape.THIRTEEN_ORPHANS, {"13 Orphans": MAX_FAN}, MAX_FAN)


def test_tiles_of_no_winning_pattern_are_not_allowed() -> None:
    result = score(hand("1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5B 5C 5C", "5C"), DEFAULTS)
    assert not result.allowed and "not a winning pattern" in result.reason


def test_the_scorer_takes_the_arrangement_scoring_most() -> None:
    # 111222333 of one suit: three triplets (All Triplets) or three connections; the triplets score more.
    result = score(hand("1D 1D 1D 2D 2D 2D 3D 3D 3D 7D 7D 7D 9D 9D", "9D"), DEFAULTS)
    assert fan(result) == {"All Triplets": 3, "One Pure Suit": 6, "Front Door Clean": 1}


# ------------------------------------------------------------------------------------ maximum, formula


def test_fan_is_capped_at_13_before_the_formula() -> None:
    result = score(hand("EW EW EW SW SW SW WW WW WW RD RD RD GD GD", "GD", seat="S"), DEFAULTS)
    assert sum(fan(result).values()) > MAX_FAN
    assert (result.fan, result.score) == (MAX_FAN, MAX_FAN**2)


@pytest.mark.parametrize(
    ("fan_", "bonus_", "expected"), [(0, 0, 1), (1, 2, 4), (3, 5, 13), (4, 0, 16), (5, 1, 26), (13, 7, 176)]
)
def test_the_score_is_2_to_the_fan_up_to_4_and_the_fan_squared_from_4_plus_the_bonus(
    fan_: int, bonus_: int, expected: int
) -> None:
    assert score_of(fan_, bonus_) == expected


# ---------------------------------------------------------------------------------------------- bonus


def test_with_count_flowers_each_flower_or_season_is_1_bonus() -> None:
    result = score(hand(PLAIN, "5C", flowers="1F 3F 2S"), DEFAULTS)
    assert (bonus(result), result.score) == ({"Flowers": 3}, 2**2 + 3)


def test_without_count_flowers_flowers_are_no_bonus() -> None:
    result = score(hand(PLAIN, "5C", flowers="1F 3F 2S"), with_options(CountFlowers=False))
    assert (bonus(result), result.score) == ({}, 2**2)


def test_each_concealed_quadruplet_is_2_bonus() -> None:
    exposed = ("concealed kong 1B", "concealed kong 9C", "kong 5D")
    result = score(hand("EW EW EW 2B 2B", "2B", exposed=exposed), DEFAULTS)
    assert bonus(result) == {"Concealed Quadruplet": 4}


def test_a_winning_dealer_has_5_bonus() -> None:
    assert bonus(score(hand(PLAIN, "5C", seat="E"), DEFAULTS)) == {"Dealer": 5}
    assert bonus(score(hand(PLAIN, "5C", seat="W"), DEFAULTS)) == {}


# ------------------------------------------------------------------------------------------ Minimum Fan


ONE_FAN = hand("4C 5C 6C 7D 7D 7D 2B 3B 4B RD RD RD 5C 5C", "5C", "discard", discarder="W", exposed=())
ONE_FAN_OPEN = hand("4C 5C 6C 7D 7D 7D RD RD RD 5C 5C", "5C", "discard", exposed=("chow 1B",), discarder="W")


def test_minimum_fan_0_lets_a_hand_of_any_fan_go_out() -> None:
    result = score(ONE_FAN_OPEN, with_options(MinimumFan=0))
    assert (result.allowed, result.fan) == (True, 1)


def test_minimum_fan_2_refuses_a_hand_of_1_fan() -> None:
    result = score(ONE_FAN_OPEN, with_options(MinimumFan=2))
    assert not result.allowed
    assert result.reason == "1 fan is below the table's Minimum Fan of 2"


def test_minimum_fan_2_lets_a_hand_of_2_fan_go_out() -> None:
    result = score(ONE_FAN, with_options(MinimumFan=2))  # Dragon and Front Door Clean
    assert (result.allowed, result.fan) == (True, 2)


# --------------------------------------------------------------------------------------------- options


def test_the_options_default_to_count_flowers_on_multiple_wins_off_minimum_fan_0() -> None:
    assert dict(DEFAULTS.values) == {"CountFlowers": 1, "MultipleWins": 0, "MinimumFan": 0}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"Flowers": True}, "unknown IMS option 'Flowers'"),
        ({"MinimumFan": 1}, "option MinimumFan must be 0 or 2, not 1"),
        ({"MinimumFan": "2"}, "option MinimumFan must be 0 or 2, not '2'"),
        ({"MinimumFan": True}, "option MinimumFan must be 0 or 2, not True"),
        ({"CountFlowers": "yes"}, "option CountFlowers must be true or false, not 'yes'"),
        ({"MultipleWins": 2}, "option MultipleWins must be true or false, not 2"),
    ],
)
def test_an_unknown_option_or_a_bad_value_is_a_clear_error(given: dict[str, object], message: str) -> None:
    with pytest.raises(IMSOptionError) as raised:
        ims_options.parse(given)
    assert str(raised.value).startswith(message)


# -------------------------------------------------------------------------------------------- payments


def payments_of(h: WinningHand) -> dict[str, int]:
    result = score(h, DEFAULTS)
    return dict(zip(SEAT_LETTERS, pay(h.seat, h.how, h.discarder, result.score, result.bonus).changes, strict=True))


def test_self_drawn_every_player_pays_the_score() -> None:
    # 2 fan (All Connections, Front Door Clean), 1 flower: 2^2 + 1 = 5.
    assert payments_of(hand(PLAIN, "5C", flowers="1F")) == {"E": -5, "S": 15, "W": -5, "N": -5}


def test_fed_the_feeder_pays_the_score_and_the_others_the_bonus() -> None:
    h = hand(PLAIN, "5C", "discard", discarder="N", flowers="1F 2F")
    assert payments_of(h) == {"E": -2, "S": 10, "W": -2, "N": -6}


def test_a_win_on_a_loose_tile_is_paid_as_self_drawn() -> None:
    # All Connections, Front Door Clean, Win on Flower: 2^3 + 1.
    assert payments_of(hand(PLAIN, "6C", "loose-tile", flowers="1F")) == {"E": -9, "S": 27, "W": -9, "N": -9}


def test_the_robbed_player_pays_as_the_feeder() -> None:
    # All Connections, Front Door Clean, Rob Quadruplet: 2^3, no bonus.
    assert payments_of(hand(PLAIN, "6C", "robbed-kong", discarder="E")) == {"E": -8, "S": 8, "W": 0, "N": 0}


def test_several_winners_on_one_discard_are_each_paid_as_fed() -> None:
    south = pay(1, How.DISCARD, 0, 10, 2)
    north = pay(3, How.DISCARD, 0, 6, 1)
    assert total([south, north]) == (-10 - 6, 10 + 2 + 2 - 1, -2 - 1, -2 + 6 + 1 + 1)


# ---------------------------------------------------------------------------- property: random complete hands


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[WinningHand, IMSOptions]:
    """A random complete hand: four sets and a pair (some declared) or a special pattern, won any way."""
    left = dict.fromkeys(KINDS, 4)
    exposed: list[dict[str, Any]] = []
    declared_tiles: list[list[int]] = []
    concealed: list[int] = []
    shape = draw(st.sampled_from(["sets", "sets", "sets", "7 pairs", "13 orphans"]))
    if shape == "sets":
        declared = draw(st.integers(0, 4))
        for n in range(4):
            kind = draw(
                st.sampled_from(["chow", "pung", "kong", "concealed kong"] if n < declared else ["chow", "pung"])
            )
            if kind == "chow":
                tile = draw(
                    st.sampled_from(
                        [t for t in KINDS if is_suited(t) and t % 10 <= 7 and all(left[t + i] for i in range(3))]
                    )
                )
                tiles = [tile, tile + 1, tile + 2]
            else:
                need = 4 if kind.endswith("kong") else 3
                tile = draw(st.sampled_from([t for t in KINDS if left[t] >= need]))
                tiles = [tile] * need
            for t in tiles:
                left[t] -= 1
            if n < declared:
                exposed.append({"set": kind.split()[-1], "tile": code(tile), "concealed": kind.startswith("concealed")})
                declared_tiles.append(tiles)
            else:
                concealed.extend(tiles)
        pair = draw(st.sampled_from([t for t in KINDS if left[t] >= 2]))
        concealed.extend([pair, pair])
    elif shape == "7 pairs":
        for t in draw(st.lists(st.sampled_from(KINDS), min_size=7, max_size=7, unique=True)):
            concealed.extend([t, t])
    else:
        majors = [t for t in KINDS if not is_suited(t) or t % 10 in (1, 9)]
        concealed = [*majors, draw(st.sampled_from(majors))]
    winning = draw(st.sampled_from(concealed))
    how = draw(st.sampled_from(list(How)))
    if how is How.ROBBED_KONG and concealed.count(winning) + sum(held.count(winning) for held in declared_tiles) > 1:
        how = How.DISCARD
    flowers = [code(t) for t in draw(st.lists(st.sampled_from(SPECIALS), unique=True, max_size=8))]
    if how is How.LOOSE_TILE and not flowers and all(e["set"] != "kong" for e in exposed):
        how = How.SELF_DRAWN  # a loose tile replaces a kong's or a flower's draw
    seat = draw(st.sampled_from(SEAT_LETTERS))
    data = {
        "seat": seat,
        "round": draw(st.sampled_from(SEAT_LETTERS)),
        "exposed": exposed,
        "concealed": " ".join(code(t) for t in draw(st.permutations(concealed))),
        "winning_tile": code(winning),
        "how": how.value,
        "discarder": draw(st.sampled_from([s for s in SEAT_LETTERS if s != seat])) if how.fed else None,
        "flowers": flowers,
    }
    options = ims_options.parse({"CountFlowers": draw(st.booleans()), "MinimumFan": draw(st.sampled_from([0, 2]))})
    return parse_request(data).hand, options


@settings(max_examples=300, deadline=None)
@given(complete_hands())
def test_every_complete_hand_scores_and_its_payments_sum_to_zero(case: tuple[WinningHand, IMSOptions]) -> None:
    h, options = case
    result = score(h, options)
    assert result.shape is not None, "every generated hand is complete"
    assert 0 <= result.fan <= MAX_FAN
    assert result.score == score_of(result.fan, result.bonus)
    assert result.allowed == (result.fan >= options["MinimumFan"])
    changes = pay(h.seat, h.how, h.discarder, result.score, result.bonus).changes
    assert sum(changes) == 0
    assert changes[h.seat] > 0
