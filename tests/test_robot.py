"""The robot player (mj.robot): its view of the table, the level-1 strategy, the protocol
obligations of the agent, the socket client, ``mj-player``'s options, and whole games
against the original Unix Mah-Jong server and robots.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from conftest import load_script, require_original
from mj import hand, tiles
from mj.melds import KongOrigin, Meld, chow, kong, pair, pung
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import split_address
from mj.protocol.fields import ChowPosition, PlayerOption
from mj.robot import declare
from mj.robot.agent import Robot, declaration_message
from mj.robot.cli import main as cli_main
from mj.robot.client import Client, ClientConfig
from mj.robot.levels import DEFAULT_LEVEL, LEVELS, LevelOne, LevelTwo, make_strategy
from mj.robot.personality import Personality, PersonalityError, parse_list, parse_personality
from mj.robot.strategy import USES_PENDING, Claim, ClaimKind, Declaration, KongKind, KongMove, Step
from mj.seatview import CHOW_OFFSET, Pending, Phase, SeatView
from mj.tiles import BLANK, parse, parse_many

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = ROOT / "tests" / "data" / "options"
ME = 1


# -- building views by hand


def view_of(
    concealed: str,
    *,
    melds: Iterable[Meld] = (),
    seat: int = 0,
    options: dict[str, int] | None = None,
) -> SeatView:
    """A view in the middle of play: seat ``seat`` (0 = East) holds ``concealed`` and it is its turn."""
    view = SeatView(my_id=ME)
    others = iter((2, 3, 4))
    view.seats = [ME if s == seat else next(others) for s in range(4)]
    for pid in view.seats:
        view.player(pid)
    for name, value in (options or {}).items():
        view.options.set_value(name, value)
    view.changed()  # the options were edited directly
    view.phase = Phase.PLAYING
    view.active = True
    view.concealed = parse_many(concealed)
    view.me.melds = list(melds)
    view.turn = ME
    return view


def offered(view: SeatView, tile: str, by: int, serial: int = 7) -> Pending:
    """Player ``by`` has just discarded ``tile``: the claim window is open."""
    pending = Pending(by, parse(tile), serial)
    view.pending = view.last_discard = pending
    view.player(by).discards.append(pending.tile)
    view.turn = None
    return pending


def plays_out(view: SeatView, plan: list[Declaration]) -> bool:
    """Whether ``plan`` uses exactly the winner's tiles and leaves a complete hand."""
    left = Counter(t for t in view.concealed if not tiles.is_special(t))
    pending = view.winner_pending
    sets = view.declared_sets
    pairs = 0
    for n, step in enumerate(plan):
        if step.step in USES_PENDING:
            if n != 0 or pending is None:
                return False
            left[pending] += 1
        if step.step in (Step.USE_SPECIAL, Step.SPECIAL):
            return hand.is_thirteen_wonders(list(left.elements())) and n == len(plan) - 1
        if step.step in (Step.USE_CHOW, Step.CHOW):
            low = step.tile - CHOW_OFFSET[step.position] if step.position is not None else step.tile
            used = [low, low + 1, low + 2]
            sets += 1
        elif step.step in (Step.USE_PUNG, Step.PUNG):
            used = [step.tile] * 3
            sets += 1
        else:
            used = [step.tile] * 2
            pairs += 1
        for t in used:
            if left[t] <= 0:
                return False
            left[t] -= 1
    return sum(left.values()) == 0 and ((sets == 4 and pairs == 1) or (sets == 0 and pairs == 7))


# -- the level-1 strategy


def test_discards_the_isolated_honour() -> None:
    view = view_of("1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D NW")
    assert LevelOne().discard(view) == (parse("NW"), False)


def test_keeps_the_tiles_that_make_the_hand_ready() -> None:
    # 1C is the only tile whose discard leaves the hand waiting (on 1B/4B).
    view = view_of("2B 3B 4C 5C 6C 7D 8D 9D 5D 5D 1C RD RD RD")
    tile, calling = LevelOne().discard(view)
    assert tile == parse("1C")
    assert not calling


def test_discards_are_deterministic_for_a_seed() -> None:
    view = view_of("1B 9B 1C 9C 1D 9D EW SW WW 2B 5C 8D 3B 6C")
    choices = {LevelOne(seed=42).discard(view) for _ in range(5)}
    assert len(choices) == 1


def test_a_beginner_sees_how_far_a_hand_is_from_ready_not_how_many_tiles_would_improve_it() -> None:
    # 9C and 9D both leave the hand one from ready, and both are terminals; 9C keeps
    # twice as many useful tiles, which level 1 counts and the beginner does not: to
    # it the two are alike, and its seed decides.
    hand = "2B 3B 4B 1C 3C 9C 1D 2D 3D 5D 5D 7D 9D 9D"
    assert {LevelOne(seed=seed).discard(view_of(hand))[0] for seed in range(20)} == {parse("9C")}
    assert {LevelOne(seed=seed, slip=1.0).discard(view_of(hand))[0] for seed in range(20)} == {parse("9C"), parse("9D")}


def test_goes_out_as_soon_as_the_hand_is_complete() -> None:
    assert LevelOne().mahjong_now(view_of("1B 2B 3B 4C 5C 6C 7D 8D 9D RD RD RD 5D 5D"))
    assert not LevelOne().mahjong_now(view_of("1B 2B 3B 4C 5C 6C 7D 8D 9D RD RD RD 5D 6D"))


def test_seven_pairs_go_out_only_when_the_option_allows_them() -> None:
    hand_text = "1B 1B 4C 4C 7D 7D 9D 9D RD RD EW EW 2C 2C"
    assert not LevelOne().mahjong_now(view_of(hand_text))
    assert LevelOne().mahjong_now(view_of(hand_text, options={"SevenPairs": 1}))


def test_claims_mahjong_on_a_winning_discard_from_any_seat_even_to_complete_a_chow() -> None:
    view = view_of("1B 2B 4C 5C 6C 7D 8D 9D RD RD RD 5D 5D", seat=0)
    offered(view, "3B", by=3)  # West is not on East's left: no chow, but mah-jong is fine
    assert LevelOne().claim(view, parse("3B"), 7) == Claim(ClaimKind.MAHJONG)


def test_the_hands_counts_and_waits_follow_the_concealed_tiles_and_options() -> None:
    view = view_of("")
    for concealed, melds, seven in [
        ("1B 2B 4C 5C 6C 7D 8D 9D RD RD RD 5D 5D 1F", [], False),
        ("1B 1B 4C 4C 7D 7D 9D 9D RD RD EW EW 2C", [], False),
        ("1B 1B 4C 4C 7D 7D 9D 9D RD RD EW EW 2C", [], True),
        ("1B 2B 4C 5C 6C 7D 8D 9D 5D 5D", [pung(parse("RD"), False)], False),
    ]:
        view.concealed = parse_many(concealed)
        view.me.melds = list(melds)
        view.options.set_value("SevenPairs", int(seven))
        view.changed()  # edited directly, not through apply
        assert view.hand_counts() == hand.counts(view.concealed)
        assert view.waits() == set(hand.wait_indices(hand.counts(view.concealed), len(melds), seven))
        for tile in tiles.KINDS:
            going_out = hand.is_mahjong([*view.concealed, tile], len(melds), seven)
            assert (tiles.kind_index(tile) in view.waits()) == going_out
    # The counts are a fresh list each time: a strategy may change its copy.
    view.hand_counts()[0] = 9
    assert view.hand_counts() == hand.counts(view.concealed)


def test_hiddenness_one_only_claims_to_go_out() -> None:
    shy = LevelOne(Personality(hiddenness=(1.0,)))
    view = view_of("1B 2B 4C 5C 6C 7D 8D 9D RD RD GD 5D WW")
    offered(view, "RD", by=4)
    assert shy.claim(view, parse("RD"), 7) is None
    assert LevelOne().claim(view, parse("RD"), 7) == Claim(ClaimKind.PUNG)
    ready = view_of("1B 2B 4C 5C 6C 7D 8D 9D RD RD RD 5D 5D")
    offered(ready, "3B", by=4)
    assert shy.claim(ready, parse("3B"), 7) == Claim(ClaimKind.MAHJONG)


def test_claims_a_pung_only_when_it_brings_the_hand_closer() -> None:
    view = view_of("1B 2B 4C 5C 6C 7D 8D 9D RD RD GD 5D WW")
    offered(view, "RD", by=3)
    assert LevelOne().claim(view, parse("RD"), 7) == Claim(ClaimKind.PUNG)
    # Already waiting (on 3B): punging the pair of red dragons gains nothing.
    ready = view_of("1B 2B 4C 5C 6C 7D 8D 9D RD RD 5D 5D 5D")
    offered(ready, "RD", by=3)
    assert LevelOne().claim(ready, parse("RD"), 7) is None


def test_chows_only_the_discards_of_the_player_on_the_left() -> None:
    hand_text = "2B 3B 4C 5C 6C 7D 8D GD RD RD 5D 5D WW"
    left = view_of(hand_text, seat=1)  # South: East plays just before
    offered(left, "4B", by=left.seats[0])
    assert LevelOne().claim(left, parse("4B"), 7) == Claim(ClaimKind.CHOW, ChowPosition.UPPER)
    across = view_of(hand_text, seat=1)
    offered(across, "4B", by=across.seats[3])
    assert LevelOne().claim(across, parse("4B"), 7) is None


def test_chowness_minus_one_never_chows() -> None:
    view = view_of("2B 3B 4C 5C 6C 7D 8D GD RD RD 5D 5D WW", seat=1)
    offered(view, "4B", by=view.seats[0])
    assert LevelOne(Personality(chowness=(-1.0,))).claim(view, parse("4B"), 7) is None


def test_claims_a_kong_when_it_does_not_set_the_hand_back() -> None:
    view = view_of("1B 2B 3B 4C 5C 6C 7D 8D RD GD 9D 9D 9D")
    offered(view, "9D", by=2)
    assert LevelOne().claim(view, parse("9D"), 7) == Claim(ClaimKind.KONG)


def test_declares_flowers_at_once_but_not_right_after_claiming() -> None:
    view = view_of("1B 2B 3B 4C 5C 6C 7D 8D 9D RD RD RD 5D 2F")
    assert LevelOne().declare_special(view) == parse("2F")
    view.after_claim = True
    view.changed()
    assert LevelOne().declare_special(view) is None


def test_declares_a_concealed_kong_unless_it_breaks_the_hand() -> None:
    harmless = view_of("5B 5B 5B 5B 1C 2C 3C 4D 5D 6D 9D 9D RD GD")
    assert LevelOne().kong(harmless) == KongMove(KongKind.CLOSED, parse("5B"))
    # Here the fourth 5B belongs in the 3B-4B-5B chow of a complete hand.
    needed = view_of("3B 4B 5B 5B 5B 5B 6B 7B 1C 2C 3C 9D 9D 9D")
    assert LevelOne().kong(needed) is None
    assert LevelOne().mahjong_now(needed)


def test_adds_a_drawn_fourth_tile_to_an_exposed_pung() -> None:
    view = view_of("5B 1C 2C 3C 4D 5D 6D 9D 9D RD GD", melds=[pung(parse("5B"), False)])
    assert LevelOne().kong(view) == KongMove(KongKind.ADD_TO_PUNG, parse("5B"))
    view.after_claim = True
    assert LevelOne().kong(view) is None


def test_robs_an_added_kong_that_completes_the_hand_but_a_concealed_one_only_for_thirteen_wonders() -> None:
    view = view_of("1B 2B 4C 5C 6C 7D 8D 9D RD RD RD 5D 5D")
    view.pending = Pending(3, parse("3B"), 9, KongOrigin.ANNEXED)
    assert LevelOne().rob_kong(view, parse("3B"), 9)
    view.pending = Pending(3, parse("3B"), 9, KongOrigin.CONCEALED)
    view.changed()
    assert not LevelOne().rob_kong(view, parse("3B"), 9)
    wonders = view_of("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD WD")
    wonders.pending = Pending(3, parse("GD"), 9, KongOrigin.CONCEALED)
    assert LevelOne().rob_kong(wonders, parse("GD"), 9)


# -- declaring hands after mah-jong


def won_with(view: SeatView, tile: str | None) -> SeatView:
    """The seat has just gone out: with the discard ``tile``, or from the wall (None)."""
    view.phase = Phase.MAHJONGING
    view.turn = None
    view.winner = ME
    if tile is None:
        view.win_tile = view.concealed[-1]
    else:
        view.win_tile = view.winner_pending = parse(tile)
        view.fed_by = 2
    return view


def test_the_winner_declares_the_claimed_tile_first_then_the_concealed_sets() -> None:
    view = won_with(view_of("1B 2B 4C 5C 6C 7D 8D 9D RD RD RD 5D 5D"), "3B")
    plans = LevelOne().winning_plans(view)
    best = plans[0]
    assert best[0] == Declaration(Step.USE_CHOW, parse("3B"), ChowPosition.UPPER)
    assert all(step.step not in (Step.USE_PUNG, Step.USE_PAIR, Step.USE_CHOW) for step in best[1:])
    assert all(plays_out(view, plan) for plan in plans)


def test_a_hand_read_two_ways_is_declared_as_pungs_which_score_more() -> None:
    view = won_with(view_of("1B 1B 1B 2B 2B 2B 3B 3B 3B 5D 5D 7C 8C 9C"), None)
    best = LevelOne().winning_plans(view)[0]
    assert [s.step for s in best].count(Step.PUNG) == 3
    assert plays_out(view, best)


def test_the_winner_with_a_pair_already_declared_forms_only_sets() -> None:
    view = won_with(view_of("1B 2B 3B 4C 5C 6C 7D 8D 9D RD RD RD", melds=[pair(parse("5D"), False)]), "5D")
    view.winner_pending = None  # the claimed 5D already made the pair
    plans = LevelOne().winning_plans(view)
    assert plans and all(s.step in (Step.PUNG, Step.CHOW) for s in plans[0])


def test_seven_pairs_and_thirteen_wonders_are_declared_as_such() -> None:
    pairs = won_with(view_of("1B 1B 4C 4C 7D 7D 9D 9D RD RD EW EW 2C", options={"SevenPairs": 1}), "2C")
    plan = LevelOne().winning_plans(pairs)[0]
    assert plan[0] == Declaration(Step.USE_PAIR, parse("2C"))
    assert [s.step for s in plan[1:]] == [Step.PAIR] * 6
    wonders = won_with(view_of("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD WD"), "GD")
    assert LevelOne().winning_plans(wonders)[0] == [Declaration(Step.USE_SPECIAL)]
    concealed = won_with(view_of("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD WD GD"), None)
    assert LevelOne().winning_plans(concealed)[0] == [Declaration(Step.SPECIAL)]


def test_the_winner_with_exposed_sets_declares_only_the_concealed_rest() -> None:
    melds = [chow(parse("1B"), False), kong(parse("RD"), KongOrigin.CLAIMED)]
    view = won_with(view_of("4C 5C 6C 7D 8D 5D 5D", melds=melds), "9D")
    plan = LevelOne().winning_plans(view)[0]
    assert [declaration_message(s).encode() for s in plan] == ["Chow 0 Upper", "FormClosedChow 4C", "FormClosedPair 5D"]


def test_a_loser_forms_what_scores_and_shows_the_rest() -> None:
    view = view_of("3B 3B 3B RD RD 5C 6C 7C EW EW 9D", seat=2)
    view.phase = Phase.MAHJONGING
    plan = declare.losing_plan(view)
    # West's own wind is WW, East is the prevailing wind: the EW pair scores, the chow does not.
    assert plan == [
        Declaration(Step.PUNG, parse("3B")),
        Declaration(Step.PAIR, parse("EW")),
        Declaration(Step.PAIR, parse("RD")),
        Declaration(Step.SHOW),
    ]


# -- the view


def feeder(view_or_robot: SeatView | Robot) -> Callable[[C.CMsg], list[P.PMsg]]:
    """Messages into a robot (what it answers) or a bare view (nothing)."""
    if isinstance(view_or_robot, Robot):
        return view_or_robot.receive
    view = view_or_robot

    def feed(msg: C.CMsg) -> list[P.PMsg]:
        view.apply(msg)
        return []

    return feed


def deal(view_or_robot: SeatView | Robot, mine: str, east: int = 1) -> list[P.PMsg]:
    """Feed a NewHand and the deal (protocol.md §7.2); ``mine`` are our 13 or 14 tiles in order."""
    feed = feeder(view_or_robot)
    out: list[P.PMsg] = []
    ours = iter(parse_many(mine))
    seats = [east, *[(east + k - 1) % 4 + 1 for k in (1, 2, 3)]]

    def draw(pid: int) -> None:
        out.extend(feed(C.PlayerDraws(pid, next(ours) if pid == ME else BLANK)))

    out.extend(feed(C.NewHand(east, 0, 0)))
    for _ in range(3):
        for pid in seats:
            for _ in range(4):
                draw(pid)
    for pid in seats:
        draw(pid)
    draw(east)
    return out


def joined(robot_or_view: Robot | SeatView, options: Iterable[C.GameOption] = ()) -> list[P.PMsg]:
    """Connected as id 1, seated East in a game of ids 1-4, play started, everybody ready for the first hand."""
    feed = feeder(robot_or_view)
    out: list[P.PMsg] = []
    for msg in (C.ConnectReply(1110, ME), C.Game(1, 2, 3, 4, tiles.EAST_WIND, 0, 1, 0, 0, 0, 0, 1110, 0), *options):
        out.extend(feed(msg))
    out.extend(feed(C.Pause(0, 0, "to start hand")))
    out.extend(feed(C.StartPlay(0)))
    for pid in (1, 2, 3, 4):  # the server deals only then (protocol.md §7.2)
        out.extend(feed(C.PlayerReady(pid)))
    return out


EAST_HAND = "1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D NW"


def test_the_view_follows_the_deal_and_the_declaring_turns() -> None:
    view = SeatView()
    joined(view)
    deal(view, EAST_HAND)
    assert view.phase is Phase.DECLARING and view.declarer == 0
    assert sorted(view.concealed) == sorted(parse_many(EAST_HAND))
    assert [view.player(p).concealed for p in (1, 2, 3, 4)] == [14, 13, 13, 13]
    for pid in (1, 2, 3):
        view.apply(C.PlayerDeclaresSpecial(pid, BLANK))
    assert (view.phase, view.declarer) == (Phase.DECLARING, 3)
    view.apply(C.PlayerDeclaresSpecial(4, BLANK))
    # North is done: East plays, once the "to start play" pause is over.
    assert (view.phase, view.turn, view.paused) == (Phase.PLAYING, 1, True)


def test_the_view_counts_the_live_wall_as_the_server_builds_it() -> None:
    view = SeatView()
    joined(view)
    deal(view, EAST_HAND)
    assert view.live_tiles == 144 - 14 - 53
    view.apply(C.PlayerDrawsLoose(2, BLANK))  # dead wall down to 13: still 13 or more
    assert view.live_tiles == 77
    view.apply(C.PlayerDrawsLoose(2, BLANK))  # 12 left: two tiles move from the live wall
    assert view.live_tiles == 75


def test_the_view_sees_only_what_a_client_sees() -> None:
    view = SeatView()
    joined(view)
    deal(view, EAST_HAND)
    unseen = view.unseen_counts()
    assert unseen[tiles.kind_index(parse("NW"))] == 3  # ours is seen, the others' tiles are not
    assert unseen[tiles.kind_index(parse("RD"))] == 4


def test_a_claimed_discard_moves_from_the_pile_into_the_claimers_set() -> None:
    view = SeatView()
    joined(view)
    deal(view, EAST_HAND)
    for pid in (1, 2, 3, 4):
        view.apply(C.PlayerDeclaresSpecial(pid, BLANK))
    view.apply(C.PlayerDiscards(1, parse("NW"), 1, False))
    assert view.pending == Pending(1, parse("NW"), 1)
    view.apply(C.PlayerPungs(3, parse("NW")))
    assert view.player(1).discards == [] and view.player(3).melds == [pung(parse("NW"), False)]
    assert view.player(3).concealed == 11 and view.turn == 3 and view.pending is None
    assert view.visible_counts()[tiles.kind_index(parse("NW"))] == 3


def test_the_view_rotates_seats_with_each_new_hand() -> None:
    view = SeatView()
    joined(view)
    deal(view, "1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D", east=2)
    assert view.seats == [2, 3, 4, 1] and view.my_seat == 3 and view.own_wind == tiles.NORTH_WIND
    assert view.left_of(4) and not view.left_of(2)


# -- the agent: protocol obligations


def robot_in_play(mine: str = EAST_HAND) -> tuple[Robot, list[P.PMsg]]:
    """A level-1 robot as East, past the declarations and the start-of-play pause."""
    robot = Robot(LevelOne())
    out = joined(robot)
    out += deal(robot, mine)
    for pid in (1, 2, 3, 4):
        out += robot.receive(C.PlayerDeclaresSpecial(pid, BLANK))
    out += robot.receive(C.Pause(1, 0, "to start play"))
    for pid in (2, 3, 4):
        out += robot.receive(C.PlayerReady(pid))
    return robot, out


def test_ready_for_every_pause_it_is_not_exempt_from() -> None:
    robot = Robot(LevelOne())
    assert joined(robot) == [P.Ready()]
    assert robot.receive(C.Pause(ME, 0, "to start play")) == []
    assert robot.receive(C.Pause(0, 0, "to start next hand")) == [P.Ready()]


def test_pauses_replayed_to_a_rejoining_player_are_answered_only_once_play_starts() -> None:
    robot = Robot(LevelOne())
    joined(robot)
    robot.receive(C.Game(1, 2, 3, 4, tiles.EAST_WIND, 0, 1, 0, 0, 0, 0, 1110, 0))  # rejoined: inactive
    assert robot.receive(C.Pause(0, 0, "to start hand")) == []  # from the hand's history
    for pid in (1, 2, 3, 4):
        assert robot.receive(C.PlayerReady(pid)) == []
    assert deal(robot, EAST_HAND) == []
    assert robot.receive(C.Pause(0, 0, "to continue play")) == []
    assert robot.receive(C.StartPlay(0)) == [P.Ready()]
    for pid in (1, 2, 3):
        assert robot.receive(C.PlayerReady(pid)) == []
    assert robot.receive(C.PlayerReady(4)) == [P.DeclareSpecial(BLANK)]  # the pause is over: its move


def test_no_declaration_while_a_pause_awaits_readies_so_none_is_made_twice() -> None:
    """The server takes a declaration during a pause, but the robot moving then moved again when it ended."""
    robot = Robot(LevelOne())
    joined(robot)
    assert deal(robot, "1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D 1F") == [P.DeclareSpecial(parse("1F"))]
    assert robot.receive(C.StopPlay("Lost connection to player 3; game suspended")) == []
    assert robot.refused(P.DeclareSpecial(parse("1F")), "Game not active") == []  # made again after the pause
    assert robot.receive(C.Pause(0, 0, "to continue play")) == []
    assert robot.receive(C.StartPlay(0)) == [P.Ready()]
    assert robot.receive(C.PlayerReady(ME)) == []
    assert robot.receive(C.PlayerReady(2)) == []
    assert robot.receive(C.PlayerReady(3)) == []
    assert robot.receive(C.PlayerReady(4)) == [P.DeclareSpecial(parse("1F"))]
    assert robot.receive(C.PlayerDeclaresSpecial(ME, parse("1F"))) == []


def test_east_declares_then_waits_for_the_start_of_play_pause_before_discarding() -> None:
    robot = Robot(LevelOne())
    joined(robot)
    assert deal(robot, EAST_HAND) == [P.DeclareSpecial(BLANK)]
    for pid in (1, 2, 3, 4):
        assert robot.receive(C.PlayerDeclaresSpecial(pid, BLANK)) == []
    assert robot.receive(C.Pause(ME, 0, "to start play")) == []
    assert robot.receive(C.PlayerReady(2)) == []
    assert robot.receive(C.PlayerReady(3)) == []
    assert robot.receive(C.PlayerReady(4)) == [P.Discard(parse("NW"), False)]


def test_specials_are_declared_one_at_a_time_waiting_for_each_replacement() -> None:
    robot = Robot(LevelOne())
    joined(robot)
    assert deal(robot, "1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D 1F") == [P.DeclareSpecial(parse("1F"))]
    assert robot.receive(C.PlayerDeclaresSpecial(ME, parse("1F"))) == []
    assert robot.receive(C.PlayerDraws(ME, parse("3S"))) == [P.DeclareSpecial(parse("3S"))]
    assert robot.receive(C.PlayerDeclaresSpecial(ME, parse("3S"))) == []
    assert robot.receive(C.PlayerDraws(ME, parse("EW"))) == [P.DeclareSpecial(BLANK)]


def test_answers_every_discard_of_another_player_exactly_once() -> None:
    robot, out = robot_in_play()
    assert out[-1] == P.Discard(parse("NW"), False)
    assert robot.receive(C.PlayerDiscards(ME, parse("NW"), 1, False)) == []  # our own: no answer
    assert robot.receive(C.PlayerDraws(2, BLANK)) == []
    assert robot.receive(C.PlayerDiscards(2, parse("GD"), 2, False)) == [P.NoClaim(2)]
    assert robot.receive(C.PlayerDiscards(2, parse("GD"), 2, False)) == []
    assert robot.receive(C.PlayerDoesntClaim(ME, 2, False)) == []
    assert robot.receive(C.PlayerDraws(3, BLANK)) == []
    assert robot.receive(C.PlayerDiscards(3, parse("4B"), 3, False)) == [P.MahJong(3)]


def test_answers_a_kong_that_might_be_robbed() -> None:
    robot, _ = robot_in_play()
    robot.receive(C.PlayerDiscards(ME, parse("NW"), 1, False))
    robot.receive(C.PlayerDraws(2, BLANK))
    assert robot.receive(C.PlayerDeclaresClosedKong(2, parse("GD"), 2)) == [P.NoClaim(2)]
    assert robot.receive(C.PlayerDrawsLoose(2, BLANK)) == []


def test_a_chow_granted_at_any_position_is_placed_when_the_server_asks() -> None:
    robot = Robot(LevelOne())
    joined(robot)
    deal(robot, "1B 2B 4C 5C 6C 7D 8D GD RD RD 5D 5D WW", east=4)  # we are South, East is 4
    for pid in (4, 1, 2, 3):
        robot.receive(C.PlayerDeclaresSpecial(pid, BLANK))
    robot.receive(C.PlayerDiscards(4, parse("3B"), 1, False))
    assert robot.receive(C.PlayerChows(ME, parse("3B"), ChowPosition.ANYPOS)) == [P.Chow(1, ChowPosition.UPPER)]


def test_the_view_records_the_claims_on_the_open_tile() -> None:
    view = view_of("1B 2B 4C 5C 6C 7D 8D GD RD RD 5D 5D WW")
    offered(view, "RD", by=2, serial=4)
    view.apply(C.PlayerClaimsPung(3, 4))
    view.apply(C.PlayerClaimsMahJong(4, 4))
    view.apply(C.PlayerClaimsChow(3, 3, ChowPosition.LOWER))  # an older discard: ignored
    assert view.claims == {3: "pung", 4: "mah-jong"}
    view.apply(C.ClaimDenied(ME, "There was a prior claim"))
    assert view.denied == ["There was a prior claim"]


def test_a_refused_claim_is_withdrawn_with_no_claim() -> None:
    robot, _ = robot_in_play()
    robot.receive(C.PlayerDiscards(ME, parse("NW"), 1, False))
    robot.receive(C.PlayerDraws(2, BLANK))
    assert robot.receive(C.PlayerDiscards(2, parse("1B"), 2, False)) == [P.MahJong(2)]
    assert robot.refused(P.MahJong(2), "Can't mah-jong with that tile") == [P.NoClaim(2)]


def test_a_refused_discard_falls_back_to_another_tile_and_never_repeats_itself() -> None:
    robot, out = robot_in_play()
    first = out[-1]
    assert isinstance(first, P.Discard)
    second = robot.refused(first, "You can't discard that tile")
    assert len(second) == 1 and isinstance(second[0], P.Discard) and second[0] != first
    assert robot.receive(C.Message(0, 0, "hello")) == []  # nothing new: no third discard
    assert robot.receive(C.PlayerReady(2)) == []  # nor when a player gets ready meanwhile


def test_a_discard_refused_during_a_players_pause_is_made_again_when_everybody_is_ready() -> None:
    robot, out = robot_in_play()
    first = out[-1]
    assert robot.receive(C.Pause(0, 3, "to have a cup of tea")) == [P.Ready()]
    assert robot.refused(first, "Can't discard until everybody's ready") == []
    assert robot.receive(C.PlayerReady(2)) == [first]


def server_echo(msg: P.PMsg) -> C.CMsg:
    """What the server announces when it accepts one of our declarations (the claimed tile is 3B)."""
    match msg:
        case P.Chow(cpos=position):
            return C.PlayerChows(ME, parse("3B"), position)
        case P.FormClosedPung(tile=tile):
            return C.PlayerFormsClosedPung(ME, tile)
        case P.FormClosedChow(tile=tile):
            return C.PlayerFormsClosedChow(ME, tile)
        case P.FormClosedPair(tile=tile):
            return C.PlayerFormsClosedPair(ME, tile)
    raise AssertionError(f"unexpected declaration {msg.encode()}")


def test_after_a_claimed_mahjong_the_winner_declares_step_by_step() -> None:
    robot, _ = robot_in_play("1B 2B 4C 5C 6C 7D 8D 9D RD RD RD 5D 5D NW")
    robot.receive(C.PlayerDiscards(ME, parse("NW"), 1, False))
    robot.receive(C.PlayerDraws(2, BLANK))
    assert robot.receive(C.PlayerDiscards(2, parse("3B"), 2, False)) == [P.MahJong(2)]
    robot.receive(C.PlayerClaimsMahJong(ME, 2))
    sent = robot.receive(C.PlayerMahJongs(ME, BLANK))
    assert sent == [P.Chow(0, ChowPosition.UPPER)]
    declared = []
    while sent:
        (msg,) = sent
        declared.append(msg.encode())
        sent = robot.receive(server_echo(msg))
    assert declared == [
        "Chow 0 Upper",
        "FormClosedPung RD",
        "FormClosedChow 4C",
        "FormClosedChow 7D",
        "FormClosedPair 5D",
    ]
    assert robot.view.concealed == []


def test_a_loser_waits_for_the_winners_score_then_forms_sets_and_shows() -> None:
    robot, _ = robot_in_play("1B 2B 3B 4C 5C 6C 7D 8D 9D RD RD RD 5D NW")
    robot.receive(C.PlayerDiscards(ME, parse("NW"), 1, False))
    robot.receive(C.PlayerDraws(2, BLANK))
    assert robot.receive(C.PlayerMahJongs(2, parse("3C"))) == []
    assert robot.receive(C.PlayerFormsClosedChow(2, parse("1C"))) == []
    assert robot.receive(C.HandScore(2, 30, "...")) == [P.FormClosedPung(parse("RD"))]
    assert robot.receive(C.PlayerFormsClosedPung(ME, parse("RD"))) == [P.ShowTiles()]
    assert robot.receive(C.PlayerShowsTiles(ME, "1B 2B 3B 4C 5C 6C 7D 8D 9D 5D")) == []
    assert robot.receive(C.HandScore(ME, 8, "...")) == []


def test_acknowledges_options_the_server_orders() -> None:
    robot = Robot(LevelOne())
    joined(robot)
    order = C.PlayerOptionSet(PlayerOption.LOCAL_TIMEOUTS, False, 0, "")
    assert robot.receive(order) == [P.SetPlayerOption(PlayerOption.LOCAL_TIMEOUTS, True, 0, "")]
    assert robot.receive(C.PlayerOptionSet(PlayerOption.LOCAL_TIMEOUTS, True, 1, "")) == []


def test_nothing_is_done_while_play_is_stopped_and_the_open_discard_is_answered_on_start() -> None:
    robot, _ = robot_in_play()
    robot.receive(C.PlayerDiscards(ME, parse("NW"), 1, False))
    robot.receive(C.StopPlay("Lost connection to player 2; game suspended"))
    assert robot.receive(C.PlayerDraws(3, BLANK)) == []
    assert robot.receive(C.PlayerDiscards(3, parse("GD"), 2, False)) == []
    assert robot.receive(C.StartPlay(0)) == [P.NoClaim(2)]


def test_a_claim_refused_because_play_stopped_meanwhile_is_made_again_when_play_restarts() -> None:
    """The original robot does the same: the server took no answer, so the window would stay open for ever."""
    robot, _ = robot_in_play()
    robot.receive(C.PlayerDiscards(ME, parse("NW"), 1, False))
    robot.receive(C.PlayerDraws(2, BLANK))
    assert robot.receive(C.PlayerDiscards(2, parse("GD"), 2, False)) == [P.NoClaim(2)]
    robot.receive(C.StopPlay("Lost connection to player 3; game suspended"))
    assert robot.refused(P.NoClaim(2), "Game not active") == []
    assert robot.receive(C.Pause(0, 0, "to continue play")) == []
    assert robot.receive(C.StartPlay(0)) == [P.Ready(), P.NoClaim(2)]
    assert robot.receive(C.PlayerDoesntClaim(ME, 2, False)) == []


def test_levels_are_checked() -> None:
    assert isinstance(make_strategy(1), LevelOne)
    assert isinstance(make_strategy(2), LevelTwo)
    assert DEFAULT_LEVEL in LEVELS
    with pytest.raises(ValueError, match="unknown robot level 4"):
        make_strategy(4)


# -- options of mj-player


def test_strategy_lists_are_parsed_and_checked_like_the_originals() -> None:
    assert parse_list("chowness", "0,-0.9,0.5") == (0.0, -0.9, 0.5)
    assert parse_personality(hiddenness="0,0.8", hysteresis="2").hiddenness == (0.0, 0.8)
    for name, text, error in (
        ("chowness", "2", "outside -1..1"),
        ("suitness", "-0.1", "outside 0..1"),
        ("majorness", "a", "'a' is not a number"),
        ("hiddenness", "0,,1", "comma-separated list"),
        ("chowness", "0,0,0,0,0,0", "at most 5 values"),
        ("suitness", "nan", "outside"),
    ):
        with pytest.raises(PersonalityError, match=error):
            parse_list(name, text)


def test_mj_player_rejects_bad_options_with_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli_main(["--chowness", "-1,3"])
    assert stop.value.code == 2
    assert "--chowness: 3 is outside -1..1" in capsys.readouterr().err


def test_mj_player_exits_1_when_there_is_no_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["--server", str(tmp_path / "none"), "--name", "X", "--chowness", "-1"]) == 1
    assert "cannot connect" in capsys.readouterr().err


def test_addresses_with_a_colon_are_tcp_the_others_unix_sockets() -> None:
    assert split_address("localhost:5000") == ("localhost", 5000)
    assert split_address(":5000") == ("localhost", 5000)
    assert split_address("/tmp/mj.sock") == "/tmp/mj.sock"
    with pytest.raises(ValueError, match="bad port"):
        split_address("host:http")


# -- the client, against a scripted server


def run_against(tmp_path: Path, script: list[str], config: ClientConfig) -> tuple[int, list[str], Client]:
    """Run a client against a server that reads one line, then answers each line of ``script``.

    ``script`` entries are lines to send; ``<`` waits for the next line from the client.
    Returns the client's status, the lines it sent, and the client.
    """
    received: list[str] = []
    sock = tmp_path / "s"

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        received.append((await reader.readline()).decode().rstrip())
        for line in script:
            if line == "<":
                received.append((await reader.readline()).decode().rstrip())
            else:
                writer.write(line.encode() + b"\r\n")
                await writer.drain()
        writer.close()

    async def main() -> tuple[int, Client]:
        server = await asyncio.start_unix_server(serve, path=str(sock))
        client = Client(ClientConfig(str(sock), config.id, config.name, config.password), Robot(LevelOne()))
        async with server:
            status = await asyncio.wait_for(client.run(), 10)
        return status, client

    status, client = asyncio.run(main())
    return status, received, client


def test_client_authenticates_and_exits_0_on_game_over(tmp_path: Path) -> None:
    script = ["AuthReqd basic ", "<", "ConnectReply 1110 3 ", "Error 2 Game not active", "GameOver"]
    status, sent, client = run_against(tmp_path, script, ClientConfig(id=3, name="Me", password="pw"))
    assert status == 0
    assert sent[:2] == ["Connect 1900 3 Me", "AuthInfo basic pw"]
    assert [e.text for e in client.errors] == ["Game not active"]


def test_client_exits_1_when_refused_redirected_or_without_a_password(tmp_path: Path) -> None:
    assert run_against(tmp_path, ["ConnectReply 1110 0 Already have players"], ClientConfig(name="A"))[0] == 1
    assert run_against(tmp_path, ["ConnectReply 1110 1 ", "Redirect :6000"], ClientConfig(name="B"))[0] == 1
    assert run_against(tmp_path, ["AuthReqd basic "], ClientConfig(name="C"))[0] == 1
    assert run_against(tmp_path, ["ConnectReply 1110 1 "], ClientConfig(name="D"))[0] == 1  # closed early


def test_client_speaks_tcp_when_the_address_has_a_colon() -> None:
    received: list[str] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        received.append((await reader.readline()).decode().rstrip())
        writer.write(b"ConnectReply 1110 1 \r\nGameOver\r\n")
        await writer.drain()
        writer.close()

    async def main() -> int:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            client = Client(ClientConfig(f"127.0.0.1:{port}", 0, "T"), Robot(LevelOne()))
            return await asyncio.wait_for(client.run(), 10)

    assert asyncio.run(main()) == 0
    assert received == ["Connect 1900 0 T"]


def test_client_connects_again_when_the_server_grants_a_reconnect(tmp_path: Path) -> None:
    script = ["ConnectReply 1110 2 ", "Reconnect", "<", "GameOver"]
    status, sent, _ = run_against(tmp_path, script, ClientConfig(name="R"))
    assert status == 0
    assert sent[:2] == ["Connect 1900 0 R", "Connect 1900 2 R"]


# -- whole games on the original server


@pytest.mark.parametrize(
    ("seed", "option_file", "subprocess_robot"),
    [
        (3, None, True),
        (11, OPTIONS / "seven-pairs-half-limit.opt", False),
        (17, OPTIONS / "dead-wall-16-flowers-loose.opt", False),
    ],
)
def test_our_robot_plays_whole_games_with_original_robots_without_a_single_error(
    tmp_path: Path, seed: int, option_file: Path | None, subprocess_robot: bool
) -> None:
    require_original()
    games = load_script("robot_games")
    report = asyncio.run(
        games.play_game(seed, tmp_path, option_file=option_file, subprocess_robot=subprocess_robot, timeout=90)
    )
    summary = report.summary
    assert report.ok, f"{report.message}; see {tmp_path}"
    assert summary.game_over and summary.hands >= 4
    assert summary.errors == []
    assert sum(summary.scores.values()) == 0
    # Every discard and robbable kong of the others got exactly one answer from us.
    assert len(summary.answers) > 100 and summary.misanswered == 0
    if not subprocess_robot:
        # The robot's own bookkeeping agrees with the server's log.
        view = report.view
        assert sum(r.winner == 1 for r in view.results) == summary.wins
        assert sum(r.fed_by == 1 and r.winner != 1 for r in view.results) == summary.deal_ins
        assert view.scores[1] == summary.scores[1]
        assert all(r.live_tiles == 0 for r in view.results if r.washout_reason == "wall exhausted")
        assert len(report.decisions) > 100
