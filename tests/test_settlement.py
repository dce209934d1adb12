"""Settlement texts (protocol.md §9.9) and danger signals (§9.8).

``test_log_settlements_identical`` re-settles every hand of the original server logs
(default options, DiscDoubles without EastDoubles/LosersSettle, EastDoubles and
LosersSettle switched off separately in the settlement-variants corpus, a cannon).
"""

from __future__ import annotations

import itertools

import pytest

from mj.melds import chow, pung
from mj.rules.base import Payment, Settlement
from mj.rules.classical.danger import Signal, end_of_wall, signals, threatens, winning_signals
from mj.rules.classical.settlement import settle
from mj.rules.options import GameOptions
from mj.tiles import parse
from test_scoring import hand, options

E, S, W, N = range(4)


def test_verified_default_settlement() -> None:
    """§9.9 first example: North wins 32 from a wall tile; losers 0, 4, 4."""
    assert settle([0, 4, 4, 32], N, None, None, GameOptions()) == Settlement(
        (-80, -24, -24, 128),
        "East  pays North    64\n"
        "South pays North    32\n"
        "West  pays North    32\n"
        "North GAINS   128\n\n"
        "East  pays South     8\n"
        "East  pays West      8\n"
        "East  LOSES    80\n\n"
        "South and West  are even\n"
        "South LOSES    24\n\n"
        "West  LOSES    24\n\n",
        (Payment(E, N, 64), Payment(S, N, 32), Payment(W, N, 32), Payment(E, S, 8), Payment(E, W, 8)),
    )


def test_verified_cannon() -> None:
    """§9.9 second example (game-seed99): South pays everybody's debt to North."""
    assert settle([0, 14, 10, 28], N, S, S, GameOptions()) == Settlement(
        (0, -112, 0, 112),
        "South let off a cannon\n\n"
        "South pays North (for East )    56\n"
        "South pays North    28\n"
        "South pays North (for West )    28\n"
        "North GAINS   112\n\n"
        "East  GAINS     0\n\n"
        "South LOSES   112\n\n"
        "West  GAINS     0\n\n",
        (Payment(S, N, 56), Payment(S, N, 28), Payment(S, N, 28)),
    )


def test_verified_disc_doubles() -> None:
    """game-seed200 (DiscDoubles, no EastDoubles, no LosersSettle): East discarded."""
    opts = options(DiscDoubles=1, EastDoubles=0, LosersSettle=0)
    assert settle([20, 28, 4, 14], S, E, None, opts) == Settlement(
        (-56, 112, -28, -28),
        "East  pays South    56\n"
        "West  pays South    28\n"
        "North pays South    28\n"
        "South GAINS   112\n\n"
        "East  LOSES    56\n\n"
        "West  LOSES    28\n\n"
        "North LOSES    28\n\n",
        (Payment(E, S, 56), Payment(W, S, 28), Payment(N, S, 28)),
    )


def test_disc_doubles_self_draw_everybody_pays_double() -> None:
    opts = options(DiscDoubles=1, EastDoubles=0, LosersSettle=0)
    assert settle([0, 10, 0, 0], S, None, None, opts).changes == (-20, 60, -20, -20)


def test_east_winner_receives_double() -> None:
    result = settle([50, 10, 10, 10], E, W, None, GameOptions())
    assert result.changes == (300, -100, -100, -100)
    assert result.text.startswith(
        "South pays East    100\nWest  pays East    100\nNorth pays East    100\nEast  GAINS   300\n\n"
    )
    assert "South and West  are even\nSouth and North are even\nSouth LOSES   100\n\n" in result.text


@pytest.mark.parametrize(
    ("east_doubles", "losers_settle", "disc_doubles", "winner", "discarder", "cannoneer"),
    [
        (ed, ls, dd, w, d, c)
        for ed, ls, dd in itertools.product((0, 1), repeat=3)
        for w, d, c in ((E, S, None), (W, None, None), (W, N, None), (W, E, E), (N, S, S))
    ],
)
def test_every_option_combination(
    east_doubles: int, losers_settle: int, disc_doubles: int, winner: int, discarder: int | None, cannoneer: int | None
) -> None:
    """Payments computed independently from §9.9, for every option setting."""
    scores = [12, 30, 64, 6]
    opts = options(EastDoubles=east_doubles, LosersSettle=losers_settle, DiscDoubles=disc_doubles)
    result = settle(scores, winner, discarder, cannoneer, opts)
    expected = [0, 0, 0, 0]
    for loser in (s for s in range(4) if s != winner):
        amount = scores[winner] * (2 if east_doubles and E in (loser, winner) else 1)
        amount *= 2 if disc_doubles and discarder in (None, loser) else 1
        expected[loser if cannoneer is None else cannoneer] -= amount
        expected[winner] += amount
    if losers_settle and cannoneer is None:
        for i, j in itertools.combinations([s for s in range(4) if s != winner], 2):
            m = (scores[i] - scores[j]) * (2 if east_doubles and E in (i, j) else 1)
            expected[i] += m
            expected[j] -= m
    assert result.changes == tuple(expected)
    assert sum(result.changes) == 0
    assert result.text.endswith("\n\n")
    assert ("let off a cannon" in result.text) == (cannoneer is not None)
    assert ("are even" in result.text or " pays " in result.text.split("GAINS", 1)[1]) == bool(
        losers_settle and cannoneer is None
    )


# --- danger signals ---------------------------------------------------------------------------


def test_end_of_wall_is_always_signalled() -> None:
    assert signals(()) == frozenset({Signal.END_OF_WALL})


@pytest.mark.parametrize(
    ("sets", "signal", "present"),
    [
        ("1B-2B-3B 5B-5B-5B 7B-8B-9B", Signal.BAMBOO_SUIT, True),
        ("1C-2C-3C 5C-5C-5C 7C-8C-9C 1C-1C-1C", Signal.CHARACTER_SUIT, True),
        ("1C-2C-3C 5C-5C-5C EW-EW-EW 7C-8C-9C", Signal.CHARACTER_SUIT, False),  # seed 6051 of the corpus
        ("1D-2D-3D 5D-5D-5D 7C-8C-9C", Signal.CIRCLE_SUIT, False),
        ("1D-2D-3D 5D-5D-5D", Signal.CIRCLE_SUIT, False),
        ("EW-EW-EW SW-SW-SW NW-NW-NW", Signal.WINDS, True),
        ("EW-EW-EW SW-SW-SW", Signal.WINDS, False),
        ("RD-RD-RD GD-GD-GD", Signal.DRAGONS, True),
        ("RD-RD-RD EW-EW-EW SW-SW-SW", Signal.HONOURS, True),
        ("RD-RD-RD EW-EW-EW 1B-1B-1B", Signal.HONOURS, False),
        ("2B-3B-4B 6B-6B-6B GD-GD-GD", Signal.GREEN, True),
        ("2B-3B-4B 6B-6B-6B RD-RD-RD", Signal.GREEN, False),
        ("1B-1B-1B 9C-9C-9C 1D-1D-1D", Signal.TERMINALS, True),
        ("1B-2B-3B 9C-9C-9C 1D-1D-1D", Signal.TERMINALS, False),
    ],
)
def test_signals(sets: str, signal: Signal, present: bool) -> None:
    assert (signal in signals(hand(sets).melds)) == present


@pytest.mark.parametrize(
    ("tile", "shown", "dangerous"),
    [
        ("5B", {Signal.BAMBOO_SUIT}, True),
        ("5C", {Signal.BAMBOO_SUIT}, False),
        ("EW", {Signal.BAMBOO_SUIT}, False),
        ("NW", {Signal.WINDS}, True),
        ("RD", {Signal.WINDS}, False),
        ("GD", {Signal.DRAGONS}, True),
        ("WD", {Signal.HONOURS}, True),
        ("8B", {Signal.GREEN}, True),
        ("GD", {Signal.GREEN}, True),
        ("5B", {Signal.GREEN}, False),
        ("9D", {Signal.TERMINALS}, True),
        ("8D", {Signal.TERMINALS}, False),
        ("8D", {Signal.END_OF_WALL}, False),
    ],
)
def test_threatens(tile: str, shown: set[Signal], dangerous: bool) -> None:
    assert threatens(parse(tile), frozenset(shown)) == dangerous


def test_end_of_wall_danger() -> None:
    assert end_of_wall(4, 1)
    assert not end_of_wall(5, 1)
    assert not end_of_wall(3, 2)


def test_winning_signals_need_the_whole_hand() -> None:
    winning = hand("1B-2B-3B 5B-5B-5B 7B-8B-9B 2B+3B+4B 6B+6B")
    assert winning_signals(winning) == frozenset({Signal.END_OF_WALL, Signal.BAMBOO_SUIT})
    mixed = hand("1B-2B-3B 5B-5B-5B 7B-8B-9B 2C+3C+4C 6B+6B")
    assert winning_signals(mixed) == frozenset({Signal.END_OF_WALL})
    # seed 2013, hand 19 on the original server: West's characters with a pair of West
    # winds; the discard South fed into three sets of characters was no cannon
    with_honours = hand("3C-4C-5C 1C-1C-1C 2C-2C-2C 9C-9C-9C WW+WW")
    assert winning_signals(with_honours) == frozenset({Signal.END_OF_WALL})
    assert Signal.DRAGONS in winning_signals(hand("RD-RD-RD GD+GD+GD 1B-2B-3B 5C+6C+7C 2D+2D"))
    assert chow(parse("1B"), False) in winning.melds and pung(parse("5B"), False) in winning.melds
