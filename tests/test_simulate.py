"""Random play keeps every invariant of the game (mj.simulate); ``mj bench simulate`` runs it at length."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mj import tiles
from mj.arena.options import game_options
from mj.game.sends import Send
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules import registry
from mj.rules.base import SeatHand, Win
from mj.rules.beijing import options as beijing_options
from mj.rules.beijing.rules import BeijingRules
from mj.rules.classical.rules import CLASSICAL, ClassicalRules
from mj.rules.options import GameOptions
from mj.seatview import SeatView
from mj.simulate import InvariantError, _Probes, _Run, simulate

OPTION_FILES = sorted((Path(__file__).parent / "data" / "options").glob("*.opt"))


def options_of(*, path: Path | None = None, settings: tuple[str, ...] = ()) -> GameOptions:
    options = GameOptions()
    for entry in game_options(path, settings):
        options.apply_entry(entry)
    return options


def test_random_play_by_the_classical_legal_moves_keeps_every_invariant() -> None:
    figures = simulate(CLASSICAL, hands=120, seed=1)
    assert figures.hands >= 120 and figures.moves > 120 * 50 and figures.probes > 0


@pytest.mark.parametrize("path", OPTION_FILES, ids=[p.stem for p in OPTION_FILES])
def test_random_play_keeps_every_invariant_under_each_option_file(path: Path) -> None:
    simulate(CLASSICAL, hands=15, seed=7, options=options_of(path=path))


def test_without_a_dead_wall_the_seats_count_the_live_wall_as_the_engine_builds_it() -> None:
    """DeadWall off and DeadWall16 on: no dead wall at all (the rule system decides, for engine and views alike)."""
    options = options_of(settings=("DeadWall=0", "DeadWall16=1"))
    simulate(CLASSICAL, hands=20, seed=3, options=options)


class OffersAnUnheldDiscard(ClassicalRules):
    """Classical, but its legal moves also offer discarding a tile the seat does not hold."""

    def legal_moves(self, view: SeatView) -> list[P.PMsg]:
        moves = super().legal_moves(view)
        if any(isinstance(m, P.Discard) for m in moves):
            stranger = next(t for t in range(11, 20) if t not in view.concealed)
            return [P.Discard(stranger, False)]
        return moves


class HidesEveryDiscard(ClassicalRules):
    """Classical, but its legal moves never include a discard, which the engine accepts."""

    def legal_moves(self, view: SeatView) -> list[P.PMsg]:
        return [m for m in super().legal_moves(view) if not isinstance(m, P.Discard)]


def test_a_legal_move_the_engine_refuses_fails_the_simulation_naming_its_seed() -> None:
    with pytest.raises(InvariantError, match=r"^seed 5, hand 1: player \d's legal move 'Discard .*' was refused"):
        simulate(OffersAnUnheldDiscard(), hands=1, seed=5)


def test_a_seat_left_without_moves_is_a_deadlock_naming_its_seed() -> None:
    with pytest.raises(InvariantError, match=r"^seed 2, hand 1: deadlock"):
        simulate(HidesEveryDiscard(), hands=1, seed=2)


class HidesPungClaims(ClassicalRules):
    """Classical, but its legal moves never include claiming a pung, which the engine accepts."""

    def legal_moves(self, view: SeatView) -> list[P.PMsg]:
        return [m for m in super().legal_moves(view) if not isinstance(m, P.Pung) or m.discard == 0]


def test_a_move_the_engine_accepts_outside_the_legal_moves_fails_the_simulation() -> None:
    with pytest.raises(InvariantError, match=r"^seed 3, hand \d+: player \d's move 'Pung \d+' .* yet was accepted"):
        simulate(HidesPungClaims(), hands=50, seed=3)


@pytest.mark.parametrize(
    ("multiple_wins", "minimum_fan"), [(0, 0), (1, 2)], ids=["defaults", "multiple-wins-minimum-fan-2"]
)
def test_random_play_by_the_ims_legal_moves_keeps_every_invariant(multiple_wins: int, minimum_fan: int) -> None:
    """144 tiles once each, no concealed tile (nor hidden kong) elsewhere, moves legal, no deadlock, zero-sum pay."""
    ims = registry.get("ims")
    options = ims.new_options()
    options.set_value("MultipleWins", multiple_wins)
    options.set_value("MinimumFan", minimum_fan)
    figures = simulate(ims, hands=60, seed=11, options=options)
    assert figures.hands >= 60 and figures.probes > 0


BEIJING_VARIATIONS = ("AtMostOnce", "NoWinAfterPass", "VoidSuit", "BustedBanker", "Upstairs", "DiscPaysAll")


@pytest.mark.parametrize("variations", [(), BEIJING_VARIATIONS], ids=["defaults", "every-variation"])
def test_random_play_by_the_beijing_legal_moves_keeps_every_invariant_the_wild_rules_too(
    variations: tuple[str, ...],
) -> None:
    """136 tiles once each (the indicator out of play), no wild in a set, no win a wild rule forbids, zero-sum pay."""
    beijing = registry.get("beijing")
    options = beijing.new_options()
    for name in variations:
        options.set_value(name, 1)
    options.set_value("WallEnd", 2 if variations else 0)
    figures = simulate(beijing, hands=40, seed=3, options=options)
    assert figures.hands >= 40 and figures.probes > 0


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(1, 10**6),
    variations=st.sets(st.sampled_from([spec.name for spec in beijing_options.SCHEMA if spec.is_bool])),
    wall_end=st.integers(0, 2),
)
def test_property_any_seed_and_variations_random_beijing_play_pays_zero_sum_and_keeps_the_wild_rules(
    seed: int, variations: set[str], wall_end: int
) -> None:
    beijing = registry.get("beijing")
    options = beijing.new_options()
    for name in variations:
        options.set_value(name, 1)
    options.set_value("WallEnd", wall_end)
    simulate(beijing, hands=3, seed=seed, options=options)


class LetsWildsMeld(BeijingRules):
    """Beijing with the wild tiles allowed in sets, by the legal moves and the engine alike."""

    def forbids(self, move: P.PMsg, tile: tiles.Tile, hand: SeatHand, options: GameOptions) -> str:
        return ""


class ForgetsDeadHands(BeijingRules):
    """Beijing letting a player who threw a wild go out, by the legal moves and the engine alike."""

    def goes_out(self, hand: SeatHand, win: Win, options: GameOptions) -> bool:
        return super().goes_out(hand, replace(win, discards=()), options)


def test_a_wild_tile_in_a_set_fails_the_simulation_naming_its_seed() -> None:
    with pytest.raises(InvariantError, match=r"^seed 1, hand \d+: seat \d has the wild tile \w\w in a set"):
        simulate(LetsWildsMeld(), hands=40, seed=1)


def test_a_win_after_throwing_a_wild_fails_the_simulation_naming_its_seed() -> None:
    with pytest.raises(InvariantError, match=r"^seed 5, hand \d+: seat \d won after discarding the wild tile"):
        simulate(ForgetsDeadHands(), hands=40, seed=5)


def started_run(seed: int, moves: int) -> _Run:
    """A classical game of the simulation ``moves`` moves into its first hand."""
    run = _Run(CLASSICAL, seed, None, 1)
    run.start()
    for _ in range(moves):
        run.step()
    return run


def test_a_tile_swapped_for_another_kind_in_a_hand_is_unaccounted_for() -> None:
    run = started_run(4, 30)
    concealed = run.game.seats[2].concealed
    concealed[0] = tiles.RED_DRAGON if concealed[0] != tiles.RED_DRAGON else tiles.GREEN_DRAGON
    with pytest.raises(InvariantError, match=r"^seed 4, hand 1: tiles unaccounted for: .*[+-]1, .*[+-]1"):
        run.check()


def test_a_tile_lost_from_a_discard_pile_is_unaccounted_for() -> None:
    run = started_run(4, 30)
    pile = next(seat.discards for seat in run.game.seats if seat.discards)
    lost = pile.pop()
    with pytest.raises(InvariantError, match=rf"tiles unaccounted for: {tiles.code(lost)} \+1$"):
        run.check()


def test_a_seat_view_that_drifts_after_it_was_found_right_is_caught() -> None:
    """Views are compared again whenever either side's tiles change, not only when first matched."""
    run = started_run(4, 30)
    run.check()
    view = run.views[run.game.seats[1].player]
    view.concealed[0] = tiles.RED_DRAGON if view.concealed[0] != tiles.RED_DRAGON else tiles.GREEN_DRAGON
    with pytest.raises(InvariantError, match=r"^seed 4, hand 1: seat 1's view holds"):
        run.check()


def test_tiles_traded_between_two_hands_behind_the_views_are_caught_though_every_tile_is_counted() -> None:
    """The engine's side changing alone is found: views are compared again when the ledger sees a hand change."""
    run = started_run(4, 30)
    run.check()
    first, second = run.game.seats[0].concealed, run.game.seats[1].concealed
    i = next(i for i, t in enumerate(first) if t not in second)
    first[i], second[0] = second[0], first[i]
    with pytest.raises(InvariantError, match=r"^seed 4, hand 1: seat 0's view holds"):
        run.check()


def test_a_wall_tile_changed_during_the_hand_is_caught() -> None:
    run = started_run(4, 30)
    wall = run.game.wall
    wall.tiles[wall.live_next] = (
        tiles.RED_DRAGON if wall.tiles[wall.live_next] != tiles.RED_DRAGON else tiles.WHITE_DRAGON
    )
    with pytest.raises(InvariantError, match=r"^seed 4, hand 1: the wall's tiles changed during the hand"):
        run.check()


def test_a_tile_drawn_from_the_wall_without_reaching_a_seat_is_unaccounted_for() -> None:
    run = started_run(4, 30)
    wall = run.game.wall
    drawn = wall.draw_live()
    assert drawn is not None
    with pytest.raises(InvariantError, match=rf"tiles unaccounted for: {tiles.code(drawn)} \+1$"):
        run.check()


def test_a_drawn_tile_sent_to_another_seat_gives_away_a_concealed_tile() -> None:
    run = started_run(4, 30)
    with pytest.raises(InvariantError, match=r"^seed 4, hand 1: player 1 was sent player 2's concealed tile"):
        run.deliver([Send(None, C.PlayerDraws(2, tiles.RED_DRAGON), ())])


def test_a_hidden_concealed_kong_sent_to_another_seat_is_given_away() -> None:
    run = _Run(registry.get("ims"), 4, None, 1)
    run.start()
    with pytest.raises(InvariantError, match=r"^seed 4, hand 1: player 1 was sent player 2's concealed kong"):
        run.deliver([Send(None, C.InfoTiles(2, "-- -- *  1B+1B+1B+1B * "), ())])


def test_probes_number_every_candidate_move_once_in_order() -> None:
    """The moves a probe draws from: those naming no tile, those on the open tile, then each of two tiles'."""
    run = started_run(4, 30)
    view = run.views[1]
    probes = _Probes(view, random.Random(1))
    serial = view.pending.serial if view.pending is not None else 0
    expected: list[P.PMsg] = [P.MahJong(0), P.Pair(), P.Pung(0), P.SpecialSet(), P.FormClosedSpecialSet()]
    expected += [P.Pung(serial), P.Kong(serial), P.MahJong(serial)]
    expected += [P.Chow(serial, p) for p in (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)]
    for tile in probes.some:
        expected += [P.Discard(tile, False), P.Discard(tile, True), P.DeclareClosedKong(tile), P.AddToPung(tile)]
        expected += [P.FormClosedPung(tile), P.FormClosedChow(tile), P.FormClosedPair(tile)]
        if tiles.is_special(tile):
            expected.append(P.DeclareSpecial(tile))
    assert [probes.move(i).encode() for i in range(probes.count)] == [m.encode() for m in expected]
    assert probes.some[0] in view.concealed
