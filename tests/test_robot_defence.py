"""Defence of the robot (mj.robot.defence and the defending levels), the discard timeline of
the seat's view it reads, the win-chance model it weighs risks against, and the switching
between personality combinations.

Views are built by hand: our seat (id 1) holds the tiles and it is its turn, and the
other players' discards are fed through :meth:`SeatView.apply` as the server would send
them, so the view's own bookkeeping (piles, timeline) is what the strategies read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

import pytest

from mj import tiles
from mj.melds import Meld, chow, pung
from mj.protocol import cmsg as C
from mj.robot import defence, evaluate
from mj.robot.levels import (
    DEFAULT_LEVEL,
    LEVEL_THREE,
    LEVEL_TWO,
    LEVELS,
    Defence,
    LevelOne,
    LevelTwo,
    hand_value,
    loser_value,
    make_strategy,
    prospect,
)
from mj.robot.personality import Combination, Personality, Switcher, combinations, parse_personality
from mj.robot.strategy import Claim, ClaimKind
from mj.seatview import DiscardRecord, Phase, SeatView
from mj.tiles import kind_index, parse, parse_many

ME = 1


def view_of(concealed: str, *, seat: int = 0, melds: Iterable[Meld] = ()) -> SeatView:
    """A view in the middle of play: seat ``seat`` (0 = East) holds ``concealed`` and it is its turn."""
    view = SeatView(my_id=ME)
    others = iter((2, 3, 4))
    view.seats = [ME if s == seat else next(others) for s in range(4)]
    for pid in view.seats:
        view.player(pid)
    view.phase = Phase.PLAYING
    view.active = True
    view.concealed = parse_many(concealed)
    view.me.melds = list(melds)
    return view


def drawn(view: SeatView, count: int) -> SeatView:
    """``count`` tiles drawn from the live wall by player 3 (53 were dealt)."""
    for _ in range(count):
        view.apply(C.PlayerDraws(3, tiles.BLANK))
    view.turn = ME
    return view


def discarded(view: SeatView, moves: str, *, serial: int = 1) -> SeatView:
    """Feed discards ``"2:1C 3:5D"`` (player:tile) in order, then give the turn back to us."""
    for n, move in enumerate(moves.split(), start=serial):
        who, tile = move.split(":")
        view.apply(C.PlayerDiscards(int(who), parse(tile), n, False))
    view.pending = None
    view.turn = ME
    return view


def risk(view: SeatView, tile: str) -> float:
    return defence.assess(view).of(parse(tile))


# -- the discard timeline of the view


def test_the_timeline_keeps_every_discard_in_order_with_who_claimed_it() -> None:
    view = discarded(view_of("1B 2B 3B"), "2:NW 3:5D 4:9C")
    view.apply(C.PlayerPungs(2, parse("9C")))
    assert view.timeline == [
        DiscardRecord(2, parse("NW"), 1),
        DiscardRecord(3, parse("5D"), 2),
        DiscardRecord(4, parse("9C"), 3, claimed_by=2),
    ]
    # The pile loses the claimed tile; the record of what player 4 gave up keeps it.
    assert view.player(4).discards == [] and view.discards_of(4) == [parse("9C")]


def test_a_new_hand_starts_a_new_timeline() -> None:
    view = discarded(view_of("1B 2B 3B"), "2:NW")
    view.seats = [1, 2, 3, 4]
    view.apply(C.NewHand(1, 0, 0))
    assert view.timeline == []


def test_the_tiles_let_pass_since_a_players_last_discard_are_those_discarded_after_it() -> None:
    view = discarded(view_of("1B 2B 3B"), "2:NW 3:5D 4:9C 1:7B 2:RD 3:1C")
    assert view.passed_since_turn(2) == {kind_index(parse("1C"))}
    assert view.passed_since_turn(4) == {kind_index(parse(t)) for t in ("7B", "RD", "1C")}
    # A player who has not discarded yet let everything pass.
    assert len(discarded(view_of("1B"), "2:NW 3:5D").passed_since_turn(4)) == 2


# -- readiness and wait chances


def test_readiness_grows_with_discards_and_with_the_sets_exposed() -> None:
    view = view_of("1B 2B 3B")
    early = defence.readiness(view, 2)
    discarded(view, " ".join(f"2:{t}" for t in ("NW", "1C", "9D", "EW", "2B", "8C", "1D", "9B", "SW", "3C")))
    late = defence.readiness(view, 2)
    assert early == 0.0 < late
    view.player(2).melds = [pung(parse("3B"), False), pung(parse("6C"), False)]
    assert defence.readiness(view, 2) > late
    view.player(2).melds += [pung(parse("WW"), False), chow(parse("4D"), False)]
    assert defence.readiness(view, 2) == 1.0  # four sets out: a single tile held, always ready


def test_an_opponent_who_has_declared_calling_is_ready() -> None:
    view = view_of("1B 2B 3B")
    view.apply(C.PlayerDiscards(3, parse("NW"), 1, True))
    assert defence.readiness(view, 3) == 1.0


def test_a_tile_let_pass_since_the_opponents_last_discard_is_almost_never_its_wait() -> None:
    view = discarded(view_of("5C 5D"), "2:1B 3:5C")
    unseen = view.unseen_counts()
    chances = defence.wait_chances(view, 2, unseen)
    assert chances[kind_index(parse("5C"))] < 0.01 < chances[kind_index(parse("5D"))]


def test_the_opponents_own_discards_are_nearly_safe_though_the_rules_know_no_furiten() -> None:
    view = discarded(view_of("4B 4C"), "2:4B 3:9D")
    chances = defence.wait_chances(view, 2, view.unseen_counts())
    assert 0 < chances[kind_index(parse("4B"))] < chances[kind_index(parse("4C"))] / 10


def test_middle_tiles_are_likelier_waits_than_terminals_and_seen_copies_lower_the_chance() -> None:
    view = view_of("1B 3B 5C 5D")
    chances = defence.wait_chances(view, 2, view.unseen_counts())
    assert chances[kind_index(parse("1B"))] < chances[kind_index(parse("3B"))]
    discarded(view, "3:5C 4:5C")  # two more 5C in sight: no pair or pung of 5C can wait
    after = defence.wait_chances(view, 2, view.unseen_counts())
    assert after[kind_index(parse("5C"))] < after[kind_index(parse("5D"))]


def test_an_honour_with_only_one_copy_unseen_is_hardly_a_wait() -> None:
    view = view_of("RD GD GD GD")
    chances = defence.wait_chances(view, 2, view.unseen_counts())
    # Three RD unseen (a pung or pair wait possible), one GD unseen (a single-tile wait at best).
    assert chances[kind_index(parse("GD"))] < chances[kind_index(parse("RD"))] / 5


def waits_of(view: SeatView, pid: int, tile: str) -> float:
    return defence.wait_chances(view, pid, view.unseen_counts())[kind_index(parse(tile))]


def test_suji_the_opponents_discard_three_ranks_away_lowers_the_chance() -> None:
    plain = waits_of(view_of("7B"), 2, "7B")
    assert waits_of(discarded(view_of("7B"), "2:4B"), 2, "7B") < plain
    # Another player's 4B says nothing of player 2's two-sided waits.
    assert waits_of(discarded(view_of("7B"), "3:4B"), 2, "7B") == plain


def test_a_kind_another_player_discarded_earlier_and_nobody_claimed_is_safer() -> None:
    # 5B went out between player 2's two discards: it may have been no wait of 2 then, but
    # the kind is less wanted; 5D was never seen.
    view = discarded(view_of("5B 5D"), "2:1C 3:5B 2:9D")
    assert waits_of(view, 2, "5B") < waits_of(view, 2, "5D")


def test_the_deal_in_chance_combines_the_opponents_and_the_threat_is_the_likeliest_ready() -> None:
    view = discarded(view_of("5C 5D 1B"), " ".join(f"2:{t}" for t in ("NW", "1C", "9D", "EW", "2B", "8C")))
    view.player(2).melds = [pung(parse("3B"), False), pung(parse("6C"), False), pung(parse("WW"), False)]
    danger = defence.assess(view)
    assert danger.threat == defence.readiness(view, 2) > 0.5
    assert danger.of(parse("1C")) < 0.01 < danger.of(parse("1B")) < danger.of(parse("5D"))


# -- the win chance the risks are weighed against


def test_the_win_chance_falls_with_the_distance_from_ready_and_the_wall_and_rises_with_useful_tiles() -> None:
    assert evaluate.win_chance(0, 8, 50) > evaluate.win_chance(1, 8, 50) > evaluate.win_chance(2, 8, 50)
    assert evaluate.win_chance(1, 20, 50) > evaluate.win_chance(1, 8, 50)
    assert evaluate.win_chance(1, 8, 60) > evaluate.win_chance(1, 8, 10)
    assert 0 < evaluate.win_chance(6, 0, 5) < evaluate.win_chance(3, 0, 5)


def test_discard_options_count_useful_tiles_for_every_discard_on_request() -> None:
    vector = tiles_vector("1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D NW")
    unseen = [4] * tiles.NUM_KINDS
    lean = {o.tile: o for o in evaluate.discard_options(vector, 0, False, unseen)}
    full = {o.tile: o for o in evaluate.discard_options(vector, 0, False, unseen, every=True)}
    worse = parse("1B")
    assert lean[worse].shanten > lean[parse("NW")].shanten
    assert lean[worse].ukeire == 0 < full[worse].ukeire
    assert full[parse("NW")] == lean[parse("NW")]


def tiles_vector(text: str) -> list[int]:
    vector = [0] * tiles.NUM_KINDS
    for tile in parse_many(text):
        vector[kind_index(tile)] += 1
    return vector


# -- the defending levels

#: Two from ready: 1B2B3B 4C5C6C 7D8D 2B3B 5D5D, and loose RD 9B.
FAR = "1B 2B 3B 4C 5C 6C 7D 8D 2D 9B 5B RD NW 9D"


def threatened(concealed: str, *, seat: int = 0, live: int = 57) -> SeatView:
    """Player 2 has three pungs out and ten discards (1C among them): very likely ready."""
    view = drawn(view_of(concealed, seat=seat), 53 + 77 - live)
    opponent = 2
    view.player(opponent).melds = [pung(parse("3D"), False), pung(parse("6C"), False), pung(parse("WW"), False)]
    tiles_thrown = ("1C", "9C", "1D", "EW", "8B", "9D", "2D", "5D", "4B", "7C")
    others = iter((3, 4))
    moves = []
    for tile in tiles_thrown:
        moves.append(f"{opponent}:{tile}")
        moves.append(f"{next(others, 3)}:SW")
    return discarded(view, " ".join(moves[:-1]))


def test_the_defending_levels_play_level_ones_shape_when_nobody_threatens() -> None:
    view = view_of("1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D NW")
    assert LevelTwo().discard(view) == LevelOne().discard(view) == (parse("NW"), False)


def test_far_from_ready_late_against_a_likely_ready_opponent_it_folds_with_a_safe_tile() -> None:
    view = threatened(FAR, live=20)
    assert LevelOne().discard(view) == (parse("NW"), False)
    choice, _ = LevelTwo().discard(view)
    assert risk(view, tiles.code(choice)) < 0.01 < risk(view, "NW")


def test_a_ready_hand_is_not_broken_for_a_small_risk() -> None:
    # Ready on 6B-9B after letting 4D go; the only safe tile (1C) would break the pair.
    view = threatened("1B 2B 3B 7B 8B 4C 5C 6C 7D 8D 9D 1C 1C 4D")
    assert risk(view, "1C") < 0.01 < risk(view, "4D")
    assert LevelTwo().discard(view) == (parse("4D"), False)


def test_between_equally_good_shapes_the_safer_tile_goes() -> None:
    # NW and EW leave the same shape; player 2 discarded EW, so EW is the safe one.
    view = threatened("1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D NW EW")
    assert risk(view, "EW") < risk(view, "NW")
    assert LevelTwo().discard(view) == (parse("EW"), False)


def test_the_likelier_an_opponent_is_ready_the_sooner_a_far_hand_gives_up() -> None:
    # Two from ready against player 2's three pungs, 45 tiles left: weighing only the risk, level 3's
    # shape would let the fresh white dragon go; knowing the hand will likely end before
    # it gets there, it throws 7C, the ready player's own discard. A ready hand, needing
    # no more turns than the threat leaves, keeps its choice.
    far = "8D 3D 4D 4C 7C 6D 3B 3C 3C 9C WD 2B 5D 9B"
    ready = "1B 2B 3B 7B 8B 4C 5C 6C 7D 8D 9D 1C 1C 4D"
    unhurried = LevelTwo(rules=replace(LEVEL_THREE, hurry=0.0))
    assert risk(threatened(far, seat=1, live=45), "7C") < 0.01 < risk(threatened(far, seat=1, live=45), "WD")
    assert unhurried.discard(threatened(far, seat=1, live=45)) == (parse("WD"), False)
    assert make_strategy(3).discard(threatened(far, seat=1, live=45)) == (parse("7C"), False)
    assert (
        make_strategy(3).discard(threatened(ready, live=45))
        == unhurried.discard(threatened(ready, live=45))
        == (parse("4D"), False)
    )


def test_a_higher_cost_of_dealing_in_folds_sooner() -> None:
    def folds(cost: float) -> int:
        """How many of a set of threatened hands, each holding the safe 1C, discard it at this cost."""
        hands = [
            "1B 2B 3B 4C 5C 6C 7D 8D 5B 6B 1C 2C 5D RD",
            "1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 6B 1C 2C 5D",
            "2B 3B 4C 5C 6C 7D 8D 9D 5B 6B 1C 1C 3C 5D",
            "1B 2B 3B 7B 8B 4C 5C 6C 7D 8D 9D 1C 1C 4D",
        ]
        return sum(LevelTwo(rules=Defence(cost=cost)).discard(threatened(h)) == (parse("1C"), False) for h in hands)

    assert folds(0.0) <= folds(1.0) <= folds(10.0)
    assert folds(0.0) < folds(10.0)


def test_levels_are_ordered_and_the_default_is_one_of_them() -> None:
    # Level 1 never counts the useful tiles, level 2 on some discards, level 3 always;
    # levels 2 and 3 defend, and only level 3 weighs what its hand is worth.
    one, two, three = make_strategy(1), make_strategy(2), make_strategy(3)
    assert isinstance(one, LevelOne) and not isinstance(one, LevelTwo)
    assert isinstance(two, LevelTwo) and isinstance(three, LevelTwo)
    assert one.slip == 1.0 > two.slip > three.slip == 0.0
    assert two.rules.cost > 0.0 and three.rules.cost > 0.0
    assert not two.rules.valued and three.rules.valued
    assert DEFAULT_LEVEL in LEVELS
    with pytest.raises(ValueError, match="unknown robot level"):
        make_strategy(4)


def test_level_two_plays_some_hands_without_counting_the_useful_tiles() -> None:
    # 9C keeps twice the useful tiles of 9D, both leaving the hand one from ready; each
    # robot below plays its first hand, which its seed decides to slip in or not.
    hand = "2B 3B 4B 1C 3C 9C 1D 2D 3D 5D 5D 7D 9D 9D"
    choices = Counter(make_strategy(2, seed=seed).discard(view_of(hand))[0] for seed in range(40))
    assert set(choices) == {parse("9C"), parse("9D")}
    assert choices[parse("9C")] > choices[parse("9D")]  # a slip picks either; the rest keep 9C
    assert {make_strategy(3, seed=seed).discard(view_of(hand))[0] for seed in range(10)} == {parse("9C")}


def test_a_slip_lasts_the_whole_hand() -> None:
    # Counting the useful tiles, 3C goes (twenty of them left); by shanten alone 1B, 1C
    # and 9C are as good. Within a hand a robot either always counts or never does.
    hand = "1B 2B 6B 6B 6B 1C 2C 3C 3C 7C 9C 2D 3D 4D"
    counted = set()
    for seed in range(6):
        strategy, view = make_strategy(2, seed=seed), view_of(hand)
        for _ in range(3):
            choices = {strategy.discard(view)[0] for _ in range(4)}
            assert choices == {parse("3C")} or parse("3C") not in choices
            counted.add(choices == {parse("3C")})
            view.hand_no += 1
    assert counted == {True, False}


def test_in_a_slip_the_defence_weighs_safety_alone_among_the_shortest_shapes() -> None:
    # Against player 2's three pungs 3C keeps the most useful tiles and is the riskiest;
    # 7C, the ready player's own discard, leaves the hand as near to ready.
    hand = "1B 2B 6B 6B 6B 1C 2C 3C 3C 7C 9C 2D 3D 4D"
    counting = LevelTwo(rules=LEVEL_TWO)
    slipping = LevelTwo(rules=LEVEL_TWO, slip=1.0)
    assert counting.discard(threatened(hand, seat=1)) == (parse("3C"), False)
    assert slipping.discard(threatened(hand, seat=1)) == (parse("7C"), False)


# -- personality combinations and hysteresis


def test_combinations_take_one_value_from_each_list_the_first_values_first() -> None:
    personality = parse_personality(chowness="0,-1", suitness="0,0.5")
    assert combinations(personality) == (
        Combination(0.0, 0.0, 0.0, 0.0),
        Combination(0.0, 0.0, 0.0, 0.5),
        Combination(-1.0, 0.0, 0.0, 0.0),
        Combination(-1.0, 0.0, 0.0, 0.5),
    )


def test_the_switcher_starts_with_the_best_fit_and_switches_only_past_the_hysteresis() -> None:
    switcher = Switcher(parse_personality(suitness="0,0.5", hysteresis="4"))
    plain, suited = switcher.combinations
    assert switcher.start(lambda c: 10.0 if c == plain else 9.0) == plain
    assert switcher.update(lambda c: 10.0 if c == plain else 13.0) == plain  # better, but by less than 4
    assert switcher.update(lambda c: 10.0 if c == plain else 14.5) == suited
    assert switcher.update(lambda c: 12.0 if c == plain else 10.0) == suited  # and it stays there


def test_a_one_suit_hand_switches_to_the_suit_loving_combination() -> None:
    personality = Personality(suitness=(0.0, 1.0), hysteresis=4.0)
    robot = LevelOne(personality)
    robot.discard(view_of("1B 4B 7B 2C 5C 8C 3D 6D 9D 1B 4C 7C 2D EW"))
    assert robot.combination.suitness == 0.0
    robot.discard(view_of("1B 2B 3B 4B 5B 6B 7B 8B 9B 2B 3B RD RD 5D"))
    assert robot.combination.suitness == 1.0


def test_the_combination_played_decides_the_claims() -> None:
    # Scattered suited tiles fit the chow-hating combination best, so 3B from the player
    # on the left, which would make a chow and bring the hand closer, is let pass.
    hand = "1B 2B 5B 8B 2C 5C 8C 4D 7D EW EW SW WW"
    claims = []
    for personality in (Personality(), Personality(chowness=(0.0, -1.0))):
        view = view_of(hand, seat=1)
        view.apply(C.PlayerDiscards(view.seats[0], parse("3B"), 5, False))
        robot = LevelOne(personality)
        claims.append(robot.claim(view, parse("3B"), 5))
        if len(personality.chowness) > 1:
            assert robot.combination.chowness == -1.0
    assert claims[0] is not None and claims[1] is None


def test_levels_two_and_three_claim_a_doubling_pung_that_does_not_set_the_hand_back() -> None:
    # Ready on 1B-4B with the red dragons as the eye; a pung of them keeps the hand ready
    # (waiting on a single tile after the discard) and doubles it.
    hand = "RD RD 1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B"
    claims = []
    for strategy in (LevelOne(), make_strategy(2), make_strategy(3)):
        view = view_of(hand, seat=1)
        view.apply(C.PlayerDiscards(view.seats[2], parse("RD"), 5, False))
        claims.append(strategy.claim(view, parse("RD"), 5))
    assert claims[0] is None
    assert claims[1] == claims[2] == Claim(ClaimKind.PUNG)


def test_level_three_pushes_as_east_where_it_folds_in_another_seat() -> None:
    # East's win is paid double by everybody: the same hand, one from ready with 23 tiles
    # left, lets the fresh green dragon go as East, and gives up the threatening player's
    # own 7C in the south seat.
    hand = "4D 5D NW 8C 5B 6B 3B 7C 2C GD NW 6C 7B 4C"
    strategy = make_strategy(3)
    east, south = threatened(hand, seat=0, live=23), threatened(hand, seat=1, live=23)
    assert risk(south, "7C") < 0.01 < risk(south, "GD")
    assert strategy.discard(east) == (parse("GD"), False)
    assert strategy.discard(south) == (parse("7C"), False)


def test_a_hand_is_valued_by_its_sets_flowers_and_doubles() -> None:
    plain = "1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D NW"
    dragons = "RD RD RD 1B 2B 3B 4C 5C 6C 7D 8D 9D 5D 5D"
    assert hand_value(view_of(dragons), tiles_vector(dragons)) == (20 + 8) * 2
    with_flowers = view_of(plain)
    with_flowers.me.specials = parse_many("1F 2S")
    assert hand_value(view_of(plain), tiles_vector(plain)) < hand_value(with_flowers, tiles_vector(plain))


def test_level_three_gives_up_a_few_useful_tiles_to_keep_a_hand_that_can_double() -> None:
    # East holds a pung of its own wind, a pair of red dragons, bamboo and two lone
    # characters: level 1 throws the lone south wind (more useful tiles kept), level 3
    # the character, for the hand leans to one suit with honours (a double).
    hand = "1B 3B 3C 4B 5B 8B 9B 9C EW EW EW RD RD SW"
    assert LevelOne().discard(view_of(hand)) == (parse("SW"), False)
    assert make_strategy(3).discard(view_of(hand)) == (parse("9C"), False)


def test_a_ready_hands_waits_count_more_on_the_kinds_the_others_throw() -> None:
    # Each hand waits on a single tile with three copies unseen.
    on_middle = tiles_vector("1C 2C 3C 2C 3C 4C 7B 8B 9B 4D 5D 6D 5B")
    on_terminal = tiles_vector("1C 2C 3C 2C 3C 4C 7B 8B 9B 4D 5D 6D 1D")
    on_honour = tiles_vector("1C 2C 3C 2C 3C 4C 7B 8B 9B 4D 5D 6D NW")
    unseen = [3] * tiles.NUM_KINDS
    assert {evaluate.lured_waits(hand, 0, False, unseen, 0.0) for hand in (on_middle, on_terminal, on_honour)} == {3}
    lured = [evaluate.lured_waits(hand, 0, False, unseen, 3.0) for hand in (on_middle, on_terminal, on_honour)]
    assert lured[0] == 3 < lured[1] < lured[2]


def test_level_three_waits_on_a_tile_the_others_throw_rather_than_on_one_they_keep() -> None:
    # Ready either way on a single tile with three copies unseen: the north wind, which
    # nobody keeps for a set, or the five of bamboo, which fits everybody's chows. Level 1
    # keeps the five (a middle tile is worth more among equal shapes); level 3 the wind.
    hand = "1C 2C 3C 2C 3C 4C 7B 8B 9B 4D 5D 6D 5B NW"
    assert LevelOne().discard(view_of(hand)) == (parse("NW"), False)
    assert make_strategy(3, rules=replace(LEVEL_THREE, lure=0.0)).discard(view_of(hand)) == (parse("NW"), False)
    assert make_strategy(3).discard(view_of(hand)) == (parse("5B"), False)


def test_a_hands_prospect_counts_the_flush_it_leans_to_and_doubling_pairs() -> None:
    def of(concealed: str) -> float:
        view = view_of(concealed)
        return prospect(view, view.hand_counts(), view.unseen_counts(), ([0, 0, 0], 0))

    mixed = of("1B 2B 3B 4B 5B 6B 2C 3C 4C 7C 8C NW NW")
    assert of("1B 2B 3B 4B 5B 6B 2B 3B 4B 7B 8B NW NW") == pytest.approx(2 * mixed, rel=0.01)  # one suit with honours
    assert of("1B 2B 3B 4B 5B 6B 2B 3B 4B 7B 8B 9B 9B") == pytest.approx(8 * mixed, rel=0.01)  # one suit alone
    assert of("1B 2B 3B 4B 5B 6B 2B 3B 4B 7B 8B 9C NW NW") > mixed  # one tile from a flush
    assert of("1B 2B 3B 4B 5B 6B 2C 3C 4C 7C 8C RD RD") > mixed  # a pair that may become a doubling pung


def test_a_losers_hand_is_scored_by_its_pungs_specials_and_doubling_pairs() -> None:
    chows = "1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5D 5D NW"
    assert loser_value(view_of(chows), tiles_vector(chows)) == 0  # no going-out points, no no-score double
    dragons = "RD RD RD 1C 1C 1C 4C 5C 6C 7D 8D 9D WD WD"
    # A concealed pung of a dragon (8) doubles, a concealed pung of terminals (8), the pair of dragons (2).
    assert loser_value(view_of(dragons), tiles_vector(dragons)) == (8 + 8 + 2) * 2
    with_flowers = view_of(chows)
    with_flowers.me.specials = parse_many("1F 2S")
    assert loser_value(with_flowers, tiles_vector(chows)) == 8


def test_weighing_the_losers_score_keeps_a_doubling_pung_when_folding() -> None:
    # Far from ready against a likely ready opponent; the only safe tile is the red dragon,
    # three of which are held: a concealed pung that a loser scores 16 for (settled with
    # the other losers). Weighing that, the robot throws the north wind instead.
    hand = "RD RD RD 3B 5B 6D 7D 4C 5C 8C 2C NW 2B 6B"
    assert risk(threatened(hand, seat=1, live=30), "RD") < 0.01 < risk(threatened(hand, seat=1, live=30), "NW")
    unweighed = LevelTwo(rules=replace(LEVEL_THREE, loser=0.0))
    weighed = LevelTwo(rules=replace(LEVEL_THREE, loser=1.0))
    assert unweighed.discard(threatened(hand, seat=1, live=30)) == (parse("RD"), False)
    assert weighed.discard(threatened(hand, seat=1, live=30)) == (parse("NW"), False)


def test_with_major_pungs_a_pung_of_terminals_that_keeps_the_hand_ready_is_claimed() -> None:
    # Ready on 1B-4B with the 9B pair as the eye; a pung of 9B keeps it ready and scores
    # 4 whether the hand wins or loses. Without ``major_pungs`` only doubling pungs are.
    hand = "9B 9B 1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B"
    claims = []
    for rules in (replace(LEVEL_THREE, major_pungs=False), replace(LEVEL_THREE, major_pungs=True)):
        view = view_of(hand, seat=1)
        view.apply(C.PlayerDiscards(view.seats[2], parse("9B"), 5, False))
        claims.append(LevelTwo(rules=rules).claim(view, parse("9B"), 5))
    assert claims == [None, Claim(ClaimKind.PUNG)]


def test_a_level_plays_the_rules_it_is_given_and_level_1_has_none() -> None:
    folding = replace(LEVEL_THREE, cost=9.0)
    assert make_strategy(3, rules=folding).rules == folding
    assert make_strategy(3).rules == LEVEL_THREE
    with pytest.raises(ValueError, match="level 1 does not defend"):
        make_strategy(1, rules=folding)
    with pytest.raises(ValueError, match="unknown robot level"):
        make_strategy(4, rules=folding)
