"""The Beijing rules played on the engine (seed 004, issue 20 items 1-3 and 5): each rule, each variation on and off.

Every test plays a hand dealt from a wall it writes (:mod:`beijing_hand`): the
engine's answer and the seat's legal moves (what the robot chooses among and the
browser offers) are checked together, since they are the one rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from beijing_hand import EAST, NORTH, PLAYERS, SOUTH, WEST, Hand, ts, wall_of
from mj import tiles
from mj.game.engine import Config, Phase
from mj.game.restore import restore_game
from mj.melds import KongOrigin, Meld, kong, pung
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import HandScore, SeatHand, Win, WinSource
from mj.rules.beijing import options as opt
from mj.rules.beijing.rules import BEIJING, tiles_kept
from mj.rules.beijing.seating import draw_seats
from mj.savefile import completed_rounds_comment, format_save, hand_start_comment, parse_save
from mj.tiles import GlibcRandom

LOWER = ChowPosition.LOWER
# East discards 3D first. South (on East's right) can chow it with 4D 5D, West can pung it
# (or, in KONG_WEST, kong it), North waits for it with 1D 2D, closed and without wilds.
E_HAND = "3D 1B 1B 2C 5C 8C EW EW SW RD RD 9B 9B 6C"
S_HAND = "4D 5D 1C 1C 7B 8B 2C 3C 4C 6D 7D 8D SW"
W_HAND = "3D 3D 4D 5D 1C 5B 3B 3B 9C 9C WW WW NW"
N_HAND = "1D 2D 4B 5B 6B 7C 8C 9C 2B 2B 2B NW NW"
#: The Green Dragon turned up: the White Dragon is wild, and nobody holds one.
CLAIMS = wall_of(E_HAND, S_HAND, W_HAND, N_HAND, "GD", draws="6D 7D 1D 3D")
KONG_WEST = wall_of(E_HAND, S_HAND, "3D 3D 3D 4D 1C 5B 3B 3B 9C 9C WW WW NW", N_HAND, "GD", loose="8B")
#: The 2 of Dots turned up: East's first discard, the 3 of Dots, is a wild tile.
WILD_3D = wall_of(E_HAND, S_HAND, W_HAND, N_HAND, "2D", draws="6D 7D 1D 5C")


def claim(hand: Hand, pid: int, move: P.PMsg) -> None:
    assert move in hand.moves(pid)
    hand.play(pid, move)


# -- the course of a hand


def test_a_hand_is_136_tiles_without_flowers_dealt_three_fours_and_one_the_banker_taking_the_first_and_fifth() -> None:
    hand = Hand(CLAIMS)
    assert len(hand.game.wall.tiles) == 136 and sorted(hand.game.wall.tiles) == sorted(tiles.full_set(False))
    draws = hand.messages(C.PlayerDraws)
    assert len(draws) == 53  # the deal; East's first turn draws nothing
    assert [m.id for m in draws[:16]] == [EAST] * 4 + [SOUTH] * 4 + [WEST] * 4 + [NORTH] * 4
    assert [(m.id, m.tile) for m in draws[48:]] == list(
        zip([EAST, SOUTH, WEST, NORTH, EAST], CLAIMS[48:53], strict=True)
    )
    assert sorted(hand.views[EAST].concealed) == sorted(ts(E_HAND))
    assert all(len(hand.views[pid].concealed) == 13 for pid in PLAYERS[1:])


def test_the_indicator_is_turned_up_from_the_head_after_the_deal_shown_to_all_and_out_of_play() -> None:
    hand = Hand(CLAIMS)
    shown = [(msg, to) for msg, to in hand.sent if isinstance(msg, C.WildIndicator)]
    assert shown == [(C.WildIndicator(tiles.parse("GD")), PLAYERS)]
    assert all(view.indicator == tiles.parse("GD") for view in hand.views.values())
    assert BEIJING.wild_of(tiles.parse("GD")) == tiles.parse("WD")
    assert hand.game.wall.live_left == 136 - 53 - 1
    assert all(view.live_tiles == hand.game.wall.live_left - 14 for view in hand.views.values())


def test_the_banker_plays_first_without_a_draw() -> None:
    hand = Hand(CLAIMS)
    assert P.Discard(tiles.parse("3D"), False) in hand.moves(EAST)
    assert all(not hand.moves(pid) for pid in PLAYERS[1:])
    hand.turn(EAST, "3D")
    assert hand.messages(C.PlayerDraws)[-1] == C.PlayerDraws(SOUTH, tiles.parse("6D"))


def test_chow_only_from_the_left_pung_from_anyone_a_win_from_anyone() -> None:
    hand = Hand(CLAIMS)
    serial = hand.discard(EAST, "3D")
    assert P.Chow(serial, LOWER) in hand.moves(SOUTH)
    assert P.Pung(serial) in hand.moves(WEST) and not any(isinstance(m, P.Chow) for m in hand.moves(WEST))
    assert P.MahJong(serial) in hand.moves(NORTH)
    assert hand.refused(WEST, P.Chow(serial, LOWER)) == "Can't chow out of turn"


def test_a_pung_beats_a_chow_and_the_punger_may_then_only_discard() -> None:
    hand = Hand(CLAIMS)
    serial = hand.discard(EAST, "3D")
    claim(hand, SOUTH, P.Chow(serial, LOWER))
    claim(hand, WEST, P.Pung(serial))
    hand.play(NORTH, P.NoClaim(serial))
    assert hand.messages(C.PlayerPungs) == [C.PlayerPungs(WEST, tiles.parse("3D"))]
    assert all(isinstance(m, P.Discard) for m in hand.moves(WEST))


def test_a_direct_kong_beats_a_chow_and_its_replacement_comes_from_the_tail() -> None:
    hand = Hand(KONG_WEST)
    serial = hand.discard(EAST, "3D")
    claim(hand, SOUTH, P.Chow(serial, LOWER))
    claim(hand, WEST, P.Kong(serial))
    hand.play(NORTH, P.NoClaim(serial))
    assert hand.messages(C.PlayerKongs) == [C.PlayerKongs(WEST, tiles.parse("3D"))]
    assert hand.messages(C.PlayerDrawsLoose)[-1] == C.PlayerDrawsLoose(WEST, tiles.parse("8B"))
    assert KONG_WEST[-1] == tiles.parse("8B")


def test_a_win_beats_every_other_claim_and_each_payer_pays_the_unit_doubled_by_their_doubles() -> None:
    hand = Hand(CLAIMS)
    serial = hand.discard(EAST, "3D")
    claim(hand, SOUTH, P.Chow(serial, LOWER))
    claim(hand, WEST, P.Pung(serial))
    claim(hand, NORTH, P.MahJong(serial))
    assert hand.messages(C.PlayerMahJongs) == [C.PlayerMahJongs(NORTH, tiles.BLANK)]
    # Closed and Straight for everyone (1 x 2^2), East, the banker who discarded, adds Banker and Own
    # Tile (2^4); on the banker's first discard, an Earthly Win: 20 points from each, undoubled.
    settled = hand.settlement()
    assert (settled.east, settled.south, settled.west, settled.north) == (-36, -24, -24, 84)
    assert hand.messages(C.Payment) == [
        C.Payment(EAST, NORTH, 36),
        C.Payment(SOUTH, NORTH, 24),
        C.Payment(WEST, NORTH, 24),
    ]
    assert sum(p[2] for p in hand.views[NORTH].payments) == 84  # the views read the payments


def test_two_calls_of_hu_on_one_discard_the_first_in_turn_after_the_discarder_wins_alone() -> None:
    # The seed: "A hand ends when a player wins": one winner. South and North both wait for the 3D.
    south_waits = "1D 2D 4B 5B 6B 7C 8C 9C 6C 6C 6C 5D 5D"
    hand = Hand(wall_of(E_HAND, south_waits, W_HAND, N_HAND, "GD"))
    serial = hand.discard(EAST, "3D")
    claim(hand, NORTH, P.MahJong(serial))
    claim(hand, SOUTH, P.MahJong(serial))
    hand.play(WEST, P.NoClaim(serial))
    assert hand.messages(C.PlayerMahJongs) == [C.PlayerMahJongs(SOUTH, tiles.BLANK)]
    assert [m.payee for m in hand.messages(C.Payment) if isinstance(m, C.Payment)] == [SOUTH] * 3


def test_the_three_kinds_of_kong_closed_added_and_direct() -> None:
    closed = Hand(wall_of("9B 9B 9B 9B 1B 1B 2C 5C EW EW SW RD RD 6C", S_HAND, W_HAND, N_HAND, "GD", loose="7C"))
    assert P.DeclareClosedKong(tiles.parse("9B")) in closed.moves(EAST)
    closed.play(EAST, P.DeclareClosedKong(tiles.parse("9B")))
    closed.pass_all()  # nobody can rob it
    assert closed.messages(C.PlayerDrawsLoose) == [C.PlayerDrawsLoose(EAST, tiles.parse("7C"))]
    added = Hand(wall_of(E_HAND, S_HAND, W_HAND, N_HAND, "GD", draws="6D 1B 6C 3D", loose="7C"))
    serial = added.discard(EAST, "3D")
    added.play(WEST, P.Pung(serial))
    added.pass_all(WEST)
    added.turn(WEST, "NW")
    for pid in (NORTH, EAST, SOUTH):
        added.turn(pid)
    assert P.AddToPung(tiles.parse("3D")) in added.moves(WEST)
    added.play(WEST, P.AddToPung(tiles.parse("3D")))
    added.pass_all()
    assert added.messages(C.PlayerAddsToPung) and added.messages(C.PlayerDrawsLoose)[-1].tile == tiles.parse("7C")  # type: ignore[attr-defined]


# -- the wild tiles


def test_no_wild_tile_in_an_open_chow_pung_or_kong_even_at_face_value() -> None:
    hand = Hand(WILD_3D)
    serial = hand.discard(EAST, "3D")
    for pid, move in ((SOUTH, P.Chow(serial, LOWER)), (WEST, P.Pung(serial))):
        assert move not in hand.moves(pid)
        assert hand.refused(pid, move) == "A wild tile may not be in an open set or a kong"
    four = Hand(
        wall_of(
            "3D 3D 3D 3D 1B 1B 2C 5C EW EW SW RD RD 6C", S_HAND, "1C 5B 3B 3B 9C 9C WW WW NW 4D 5D 6D 7D", N_HAND, "2D"
        )
    )
    assert P.DeclareClosedKong(tiles.parse("3D")) not in four.moves(EAST)
    assert (
        four.refused(EAST, P.DeclareClosedKong(tiles.parse("3D"))) == "A wild tile may not be in an open set or a kong"
    )


def test_a_discarded_wild_tile_can_never_be_claimed_to_win_even_at_face_value() -> None:
    hand = Hand(WILD_3D)
    serial = hand.discard(EAST, "3D")
    assert P.MahJong(serial) not in hand.moves(NORTH)
    assert hand.refused(NORTH, P.MahJong(serial)) == "Can't mah-jong with that tile"


def test_a_player_who_discarded_a_wild_tile_plays_on_but_may_not_win_that_hand() -> None:
    # North draws the wild White Dragon and throws it; East's next 3D would have completed North's hand.
    wall = wall_of(E_HAND, S_HAND, W_HAND, N_HAND, "GD", draws="6D 7D WD 1B")
    hand = Hand(wall)
    hand.turn(EAST, "6C")
    hand.turn(SOUTH)
    hand.turn(WEST)
    assert P.Discard(tiles.parse("WD"), False) in hand.moves(NORTH)
    hand.turn(NORTH, "WD")
    serial = hand.discard(EAST, "3D")
    assert P.MahJong(serial) not in hand.moves(NORTH)
    assert hand.refused(NORTH, P.MahJong(serial)) == "Can't mah-jong with that tile"
    alive = Hand(wall)
    alive.turn(EAST, "6C")
    alive.turn(SOUTH)
    alive.turn(WEST)
    alive.turn(NORTH, "NW")
    assert P.MahJong(alive.discard(EAST, "3D")) in alive.moves(NORTH)


def goes_out(
    concealed: str,
    tile: str,
    source: WinSource,
    melds: tuple[Meld, ...] = (),
    indicator: str = "GD",
    options: dict[str, int] | None = None,
    **facts: Any,
) -> bool:
    """Whether South may go out holding ``concealed`` (the winning ``tile`` among them), as the engine asks."""
    hand = SeatHand(melds, tuple(ts(concealed)), (), tiles.SOUTH_WIND, tiles.EAST_WIND, tiles.parse(indicator))
    feeder = 0 if source in (WinSource.DISCARD, WinSource.ROBBED_KONG) else None
    win = Win(tiles.parse(tile), source, len(melds), (), False, False, False, False, False, 0, False, feeder, **facts)
    table = BEIJING.new_options()
    for name, value in (options or {}).items():
        table.set_value(name, value)
    return BEIJING.goes_out(hand, win, table)


def test_with_an_open_set_a_player_wins_only_by_their_own_tile_a_closed_kong_is_not_open() -> None:
    held = "1D 2D 3D 4B 5B 6B 2B 2B 2B NW NW"
    assert not goes_out(held, "3D", WinSource.DISCARD, (pung(tiles.parse("RD"), False),))
    assert goes_out(held, "3D", WinSource.WALL, (pung(tiles.parse("RD"), False),))
    assert goes_out(held, "3D", WinSource.DISCARD, (kong(tiles.parse("RD"), KongOrigin.CONCEALED),))


def test_with_more_than_two_wilds_a_player_wins_only_by_their_own_tile() -> None:
    three = "1D 2D 3D 4B 5B 6B WD WD WD 2B 2B 2B NW NW"
    assert not goes_out(three, "3D", WinSource.DISCARD)
    assert goes_out(three, "3D", WinSource.WALL)
    assert goes_out("1D 2D 3D 4B 5B 6B WD WD 7C 2B 2B 2B NW NW", "3D", WinSource.DISCARD)


def test_a_hand_waiting_for_its_eye_with_a_wild_wins_only_by_its_own_tile() -> None:
    waiting = "1D 2D 3D 4B 5B 6B 7C 8C 9C 2B 2B 2B WD NW"
    assert not goes_out(waiting, "NW", WinSource.DISCARD)
    assert goes_out(waiting, "NW", WinSource.WALL)


def test_an_added_kong_may_be_robbed_a_closed_one_only_to_complete_a_flush() -> None:
    plain = "1D 2D 3D 4B 5B 6B 7C 8C 9C 2B 2B 2B NW NW"
    assert goes_out(plain, "3D", WinSource.ROBBED_KONG, robbed=KongOrigin.ANNEXED)
    assert not goes_out(plain, "3D", WinSource.ROBBED_KONG, robbed=KongOrigin.CONCEALED)
    flush = "1B 2B 3B 4B 5B 6B 7B 8B 9B 6C 6C 6C 5C 5C"
    assert goes_out(flush, "9B", WinSource.ROBBED_KONG, robbed=KongOrigin.CONCEALED)


def test_a_closed_kong_is_robbed_only_for_a_tile_that_completes_one_of_the_flushs_runs() -> None:
    # The seed: "The exception is one of three sets of flush, which can be completed by robbing a
    # closed kong as well." This hand holds its Flush of Bamboos already; the 5 of Characters would
    # complete 4-5-6 of Characters, not the Flush: it robs an added kong, never a closed one.
    flush_held = "1B 2B 3B 4B 5B 6B 7B 8B 9B 2D 2D 4C 6C 5C"
    assert goes_out(flush_held, "5C", WinSource.ROBBED_KONG, robbed=KongOrigin.ANNEXED)
    assert not goes_out(flush_held, "5C", WinSource.ROBBED_KONG, robbed=KongOrigin.CONCEALED)
    # A wild may hold the run's place: the robbed tile still completes the Flush (White Dragon wild).
    wild_in_run = "1B 2B 3B 4B WD 6B 7B 8B 2D 2D 4C 5C 6C 9B"
    assert goes_out(wild_in_run, "9B", WinSource.ROBBED_KONG, robbed=KongOrigin.CONCEALED)


def test_a_closed_kong_is_robbed_on_the_table_only_by_the_hand_it_completes_a_flush_for() -> None:
    hand = Hand(
        wall_of(
            "9B 9B 9B 9B 1B 1B 2C 5C EW EW SW RD RD 6C",
            "1B 2B 3B 4B 5B 6B 7B 8B 6C 6C 6C 5C 5C",  # waits 9B for a Flush
            "7B 8B 1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C",  # waits 9B, no Flush
            N_HAND,
            "GD",
        )
    )
    hand.play(EAST, P.DeclareClosedKong(tiles.parse("9B")))
    serial = hand.serial()
    assert P.MahJong(serial) not in hand.moves(WEST)
    assert hand.refused(WEST, P.MahJong(serial)) == "Can't mah-jong with that tile"
    claim(hand, SOUTH, P.MahJong(serial))
    hand.pass_all(SOUTH)
    assert hand.messages(C.PlayerRobsKong) == [C.PlayerRobsKong(SOUTH, tiles.parse("9B"))]
    figures = hand.messages(C.ScoreFigure)
    assert C.ScoreFigure(SOUTH, 1, "double:Flush") in figures


def test_heavenly_win_the_banker_dealt_a_winning_hand_goes_out_at_once() -> None:
    hand = Hand(wall_of("1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 5C 5C", S_HAND, W_HAND, N_HAND, "GD"))
    claim(hand, EAST, P.MahJong(0))
    assert C.ScoreFigure(EAST, 20, "rare:Heavenly Win") in hand.messages(C.ScoreFigure)
    settled = hand.settlement()
    assert settled.east == -(settled.south + settled.west + settled.north) > 60


# -- QueryMahJong, the original protocol's question, answered by the rule system


def can_mahjong(hand: Hand, pid: int, code: str) -> bool:
    """The engine's answer to ``pid``'s QueryMahJong for ``code`` ("--", the blank: the hand as it is)."""
    hand.play(pid, P.QueryMahJong(tiles.parse(code)))
    answer = hand.messages(C.CanMahJong)[-1]
    assert isinstance(answer, C.CanMahJong)
    return answer.answer


def test_query_mahjong_counts_a_wild_tile_for_the_tile_it_stands_for() -> None:
    # The White Dragon is wild: it pairs the Red Dragon.
    hand = Hand(wall_of("1B 2B 3B 4C 5C 6C 7D 8D 9D EW EW EW RD WD", S_HAND, W_HAND, N_HAND, "GD"))
    assert can_mahjong(hand, EAST, "--")
    assert P.MahJong(0) in hand.moves(EAST)


def test_query_mahjong_says_no_to_a_discard_win_the_wild_rules_forbid() -> None:
    # North's hand is complete with East's West Wind, but holds three wilds: it wins only by its own tile.
    hand = Hand(wall_of(E_HAND, S_HAND, W_HAND, "WD WD WD 1B 2B 3B 4C 5C 6C 7D 8D 9D EW", "GD"))
    serial = hand.discard(EAST, "EW")
    assert not can_mahjong(hand, NORTH, "EW")
    assert P.MahJong(serial) not in hand.moves(NORTH)
    hand.pass_all(NORTH)
    assert hand.refused(NORTH, P.MahJong(serial))


# -- the end of the wall


def test_the_wall_ends_at_the_agreed_tiles_seven_stacks_or_eight_after_two_kongs_or_fourteen_and_one_a_kong() -> None:
    assert [tiles_kept(0, k) for k in (0, 1, 2, 3)] == [14, 14, 14, 14]
    assert [tiles_kept(1, k) for k in (0, 1, 2, 3)] == [14, 14, 16, 16]
    assert [tiles_kept(2, k) for k in (0, 1, 2, 3)] == [14, 15, 16, 17]


@pytest.mark.parametrize(("wall_end", "left"), [(0, 14), (1, 14), (2, 15)])
def test_a_hand_is_drawn_when_the_agreed_tiles_remain_the_indicator_not_counted(wall_end: int, left: int) -> None:
    hand = Hand(wall_of("9B 9B 9B 9B 1B 1B 2C 5C EW EW SW RD RD 6C", S_HAND, W_HAND, N_HAND, "GD"), WallEnd=wall_end)
    hand.play(EAST, P.DeclareClosedKong(tiles.parse("9B")))
    hand.pass_all()
    hand.draw_out()
    assert hand.messages(C.WashOut) == [C.WashOut("wall exhausted")]
    assert hand.game.wall.tiles_left == left


@pytest.mark.parametrize("wall_end", [0, 1, 2])
def test_every_seat_counts_the_tiles_still_to_draw_up_to_the_agreed_end_after_a_kong_too(wall_end: int) -> None:
    hand = Hand(wall_of("9B 9B 9B 9B 1B 1B 2C 5C EW EW SW RD RD 6C", S_HAND, W_HAND, N_HAND, "GD"), WallEnd=wall_end)
    hand.play(EAST, P.DeclareClosedKong(tiles.parse("9B")))
    hand.pass_all()
    draws = 0
    counted = hand.views[NORTH].live_tiles
    while hand.game.phase is not Phase.HAND_COMPLETE:
        assert {view.live_tiles for view in hand.views.values()} == {counted - draws}
        hand.turn(hand.game.seating[hand.game.turn])
        draws += 1
    assert hand.messages(C.WashOut) == [C.WashOut("wall exhausted")]
    assert counted == draws - 1  # the last discard is followed by no draw
    assert all(view.live_tiles == 0 for view in hand.views.values())


# -- the variations, each on and off


def test_at_most_once_a_player_may_chow_or_pung_only_once_a_hand() -> None:
    for once in (0, 1):
        hand = Hand(CLAIMS, AtMostOnce=once)
        serial = hand.discard(EAST, "3D")
        claim(hand, SOUTH, P.Chow(serial, LOWER))
        hand.pass_all(SOUTH)
        hand.turn(SOUTH, "SW")
        serial = hand.discard(WEST, "1C")
        assert (P.Pung(serial) in hand.moves(SOUTH)) is not bool(once)
        if once:
            assert hand.refused(SOUTH, P.Pung(serial)) == "Only one chow or pung a hand at this table"


NO_WIN_AFTER_PASS = wall_of(
    "1D 1B 1B 2C 5C 8C EW EW SW RD RD 9B 9B 6C",
    S_HAND,
    W_HAND,
    "2D 3D 4B 5B 6B 7C 8C 9C 2B 2B 2B NW NW",  # waits 1D or 4D
    "GD",
    draws="6D",
)


@pytest.mark.parametrize("rule", [0, 1])
def test_no_win_after_pass_a_player_who_let_a_winning_tile_pass_wins_on_no_discard_until_their_turn(rule: int) -> None:
    hand = Hand(NO_WIN_AFTER_PASS, NoWinAfterPass=rule)
    serial = hand.discard(EAST, "1D")
    assert P.MahJong(serial) in hand.moves(NORTH)
    hand.pass_all()
    serial = hand.discard(SOUTH, "4D")
    assert (P.MahJong(serial) in hand.moves(NORTH)) is not bool(rule)
    if rule:
        assert hand.refused(NORTH, P.MahJong(serial)) == "Can't mah-jong with that tile"


def test_no_win_after_pass_ends_when_anyone_makes_a_pung() -> None:
    # The seed: "until his/her turn comes or is passed by a pung or a kong". North lets East's 1D
    # pass; West pungs South's 9C and discards 4D, which North may take before its own turn.
    wall = wall_of(
        "1D 1B 1B 2C 5C 8C EW EW SW RD RD 9B 9B 6C",
        S_HAND,
        W_HAND,
        "2D 3D 4B 5B 6B 7C 8C 9C 2B 2B 2B NW NW",  # waits 1D or 4D
        "GD",
        draws="9C",
    )
    hand = Hand(wall, NoWinAfterPass=1)
    hand.discard(EAST, "1D")
    hand.pass_all()
    claim(hand, WEST, P.Pung(hand.discard(SOUTH, "9C")))
    hand.pass_all(WEST)
    claim(hand, NORTH, P.MahJong(hand.discard(WEST, "4D")))
    hand.pass_all(NORTH)
    assert hand.messages(C.PlayerMahJongs) == [C.PlayerMahJongs(NORTH, tiles.BLANK)]


def test_void_suit_a_winning_hand_must_lack_one_suit() -> None:
    three_suits = "1D 2D 3D 4B 5B 6B 7C 8C 9C 2B 2B 2B NW NW"
    two_suits = "1D 2D 3D 4B 5B 6B 7D 8D 9D 2B 2B 2B NW NW"
    assert goes_out(three_suits, "3D", WinSource.DISCARD)
    assert not goes_out(three_suits, "3D", WinSource.DISCARD, options={opt.VOID_SUIT: 1})
    assert goes_out(two_suits, "3D", WinSource.DISCARD, options={opt.VOID_SUIT: 1})


BUSTED = wall_of(
    "EW 1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 5C",
    "4D 5D 1C 1C 7B 8B 2C 3C 4C 6D 7D 8D EW",
    "3D 3D 4D 5D 1C 5B 3B 3B 9C 9C WW WW EW",
    "1D 2D 4B 5B 6B 7C 8C 9C 2B 2B 2B NW EW",
    "GD",
    draws="6D 7D 1D 5C",
)


def _changes(settled: C.Settlement) -> tuple[int, int, int, int]:
    return settled.east, settled.south, settled.west, settled.north


def _busted_hand(rule: int) -> Hand:
    hand = Hand(BUSTED, BustedBanker=rule)
    for pid in PLAYERS:
        hand.turn(pid, "EW")  # all four open with the East Wind
    claim(hand, EAST, P.MahJong(0))
    return hand


def test_busted_banker_when_all_four_open_with_the_same_tile_the_banker_pays_each_player() -> None:
    off, on = _changes(_busted_hand(0).settlement()), _changes(_busted_hand(1).settlement())
    assert [b - a for a, b in zip(off, on, strict=True)] == [-30, 10, 10, 10]
    assert C.Payment(EAST, SOUTH, 10) in _busted_hand(1).messages(C.Payment)


def test_a_busted_banker_pays_nothing_when_the_hand_is_drawn() -> None:
    # The seed: "... and the hand does not end in a draw, the banker is busted".
    hand = Hand(BUSTED, BustedBanker=1)
    for pid in PLAYERS:
        hand.turn(pid, "EW")
    hand.draw_out()
    assert hand.messages(C.WashOut) and not hand.messages(C.Payment)


def test_upstairs_after_a_drawn_hand_everything_paid_is_doubled() -> None:
    def won(rule: int) -> tuple[int, int, int, int]:
        hand = Hand(wall_of(E_HAND, S_HAND, W_HAND, N_HAND, "GD"), CLAIMS, Upstairs=rule)
        hand.draw_out()
        hand.start_hand()
        hand.play(NORTH, P.MahJong(hand.discard(EAST, "3D")))
        hand.pass_all(NORTH)
        return _changes(hand.settlement())

    off, on = won(0), won(1)
    assert off == (-36, -24, -24, 84)
    assert on == tuple(2 * change for change in off)


def _win(**facts: Any) -> Win:
    return Win(tiles.parse("3D"), WinSource.DISCARD, 0, (), False, False, False, False, False, 0, False, 0, **facts)


def _north_wins_3d(options: dict[str, int], **facts: Any) -> tuple[int, ...]:
    table = BEIJING.new_options()
    for name, value in options.items():
        table.set_value(name, value)
    hand = SeatHand((), tuple(ts(N_HAND + " 3D")), (), tiles.NORTH_WIND, tiles.EAST_WIND, tiles.parse("GD"))
    result: HandScore = BEIJING.score(hand, _win(**facts), table, True)
    return BEIJING.settle_wins([(3, result, _win(**facts))], table).changes


def test_upstairs_banker_the_banker_s_third_stay_is_upstairs_too() -> None:
    plain = _north_wins_3d({})
    assert _north_wins_3d({opt.UPSTAIRS_BANKER: 1}, banker_hands=2) == plain
    assert _north_wins_3d({opt.UPSTAIRS_BANKER: 1}, banker_hands=3) == tuple(2 * c for c in plain)
    assert _north_wins_3d({}, banker_hands=3) == plain


def test_discarder_pays_all_the_discarder_pays_for_the_three_losers() -> None:
    assert _north_wins_3d({}) == (-16, -4, -4, 24)
    assert _north_wins_3d({opt.DISCARDER_PAYS_ALL: 1}) == (-24, 0, 0, 24)


def test_the_unit_two_four_eight_doubles_every_amount() -> None:
    assert _north_wins_3d({opt.UNIT: 2}) == (-32, -8, -8, 48)


# -- seats, the banker and the game


def test_seats_are_drawn_by_the_ceremony_from_the_seed() -> None:
    seatings = {tuple(draw_seats(GlibcRandom(seed), [11, 12, 13, 14])) for seed in range(1, 40)}
    assert all(sorted(s) == [11, 12, 13, 14] for s in seatings) and len(seatings) > 4
    assert draw_seats(GlibcRandom(7), [11, 12, 13, 14]) == draw_seats(GlibcRandom(7), [11, 12, 13, 14])
    assert BEIJING.draw_seats(GlibcRandom(7), [11, 12, 13, 14]) == draw_seats(GlibcRandom(7), [11, 12, 13, 14])


def test_the_banker_stays_on_a_win_or_a_draw_and_a_game_is_four_banker_rotations() -> None:
    assert not BEIJING.dealer_rotates(0, 5) and not BEIJING.dealer_rotates(None, 0)
    assert BEIJING.dealer_rotates(2, 0)
    options = BEIJING.new_options()
    assert not BEIJING.game_ends(0, True, False, options)
    assert BEIJING.game_ends(0, True, True, options)
    assert not BEIJING.game_ends(0, False, True, options)


def test_a_drawn_hand_keeps_the_banker_and_the_next_hand_knows_it_follows_a_draw() -> None:
    hand = Hand(wall_of(E_HAND, S_HAND, W_HAND, N_HAND, "GD"), CLAIMS)
    hand.draw_out()
    hand.start_hand()
    assert hand.game.seating[0] == EAST and hand.game.after_draw and hand.game.banker_hands == 1


class _NoMoreWalls:
    def next_hand(self, flowers: bool) -> tuple[list[tiles.Tile], int, int]:
        raise AssertionError("the restored hand needs no other wall")


def test_a_beijing_hand_saved_after_a_kong_and_a_claim_is_restored_by_its_history_indicator_and_all() -> None:
    hand = Hand(KONG_WEST)
    serial = hand.discard(EAST, "3D")
    hand.play(WEST, P.Kong(serial))
    hand.pass_all(WEST)
    hand.turn(WEST, "NW")
    game = hand.game
    head: list[C.CMsg] = [C.Player(p, f"P{p}") for p in game.seating]
    head += [game.hand_start, completed_rounds_comment(0), hand_start_comment(game.after_draw, game.banker_hands)]
    head += [C.GameOption(0, e) for e in game.options.entries()]
    head.append(C.Wall(tiles.codes(game.hand_wall)))
    saved = parse_save(format_save([*head, *game.history]), BEIJING)
    again = restore_game(saved, _NoMoreWalls(), Config(rules=BEIJING))
    assert [m.encode() for m in again.history] == [m.encode() for m in game.history]
    assert again.indicator == tiles.parse("GD") and again.seats[2].melds == game.seats[2].melds


def test_the_last_tile_is_the_last_one_drawn_before_the_agreed_tiles_remain() -> None:
    hand = Hand(CLAIMS)
    game = hand.game
    while game.wall.tiles_left > 15:
        hand.turn(game.seating[game.turn])
    drawer = game.turn
    assert not game._win_facts(drawer, game.seats[drawer].concealed[-1], WinSource.WALL).last_tile
    hand.turn(game.seating[drawer])
    drawer = game.turn
    assert game.wall.tiles_left == 14 and game.phase is not Phase.HAND_COMPLETE
    assert game._win_facts(drawer, game.seats[drawer].concealed[-1], WinSource.WALL).last_tile


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [("Unit", "3", "Unit must be between 1 and 2"), ("WallEnd", "5", "WallEnd must be between 0 and 2")],
)
def test_a_table_option_outside_the_agreements_is_refused_in_one_line_and_changes_nothing(
    name: str, value: str, error: str
) -> None:
    hand = Hand(CLAIMS)
    before = hand.game.options[name]
    assert hand.refused(EAST, P.SetGameOption(name, value)) == error
    assert hand.game.options[name] == before


def test_kong_bloom_doubles_the_hand_and_the_kong_points_and_a_closed_kong_is_worth_two() -> None:
    hand = Hand(wall_of("9B 9B 9B 9B 1B 2B 3B 4B 5B 6B 7C 8C RD RD", S_HAND, W_HAND, N_HAND, "GD", loose="9C"))
    hand.play(EAST, P.DeclareClosedKong(tiles.parse("9B")))
    hand.pass_all()
    claim(hand, EAST, P.MahJong(0))
    figures = hand.messages(C.ScoreFigure)
    assert C.ScoreFigure(EAST, 1, "double:Kong Bloom") in figures and C.ScoreFigure(EAST, 2, "kongs") in figures
    # Banker, Closed, Own Tile, Straight, Kong Bloom: 2^5; the closed kong's 2 points doubled by the
    # bloom. The banker was not dealt a winning hand (the loose tile completed it): no Heavenly Win.
    assert _changes(hand.settlement()) == (3 * 36, -36, -36, -36)
    assert not any(f.name == "rare:Heavenly Win" for f in figures)
