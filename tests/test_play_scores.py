"""Play and ``mj score`` agree under every rule system: the hands robots win, and where a hand may go out.

Each case is one seeded game of four robots (default ones, save the cannon's) on the server's table
(``tests/playaudit.py``): every winning hand, written as score-json.md's input from what
the winner's seat knew, gets from the calculator the table's score and, summed over the
hand's winners, its settlement (classical: what the winner collects from each loser); and
wherever a seat's tiles made a winning pattern, the rules offered the win exactly when the
calculator allows it. The seeds are chosen for what they reach: several winners on one
discard, a Minimum Fan refusing hands, upstairs hands and a busted banker, every optional
Beijing double and variation switched on, classical's scoring options away from their
defaults with seven pairs won, and a classical loser letting off a cannon.
"""

from __future__ import annotations

import pytest

import playaudit

#: Every Beijing option away from its default (VoidSuit aside: it leaves few hands won).
BEIJING_ALL = {
    "Unit": 2,
    "HeavenlyWin": 5,
    "EarthlyWin": 7,
    "WildKong": 9,
    "WildEye": 1,
    "NativeWildFlush": 1,
    "BankerKongs": 1,
    "Upstairs": 1,
    "UpstairsBanker": 1,
    "BustedBanker": 1,
    "BustedPoints": 7,
    "AtMostOnce": 1,
    "PureOneSuit": 1,
    "AllPungs": 1,
    "SingleTile": 1,
    "LastTile": 1,
    "DiscPaysAll": 1,
    "NoWinAfterPass": 1,
    "WallEnd": 2,
}
#: Classical's options that bear on scoring and settlement away from their defaults (a score option worth
#: points where its default is a double, or the other way round), seven pairs allowed.
CLASSICAL_ALL = {
    "NumRounds": 1,
    "NoLimit": 1,
    "MahJongScore": 30,
    "SevenPairs": 1,
    "SevenPairsVal": 10020,
    "FlowersLoose": 1,
    "FlowersOwnEach": 4,
    "FlowersOwnBoth": 20000,
    "DeadWall16": 1,
    "ConcealedAlmost": 10000,
    "KongHas3Types": 1,
    "EastDoubles": 0,
    "LosersSettle": 0,
    "DiscDoubles": 1,
}
DEFAULT = ("default",) * 4
#: Robots who let a cannon off: one that never chows, one that only claims to go out, ...
CARELESS = ("chowness=-1", "hiddenness=1", "majorness=1", "suitness=1")
CASES = [
    pytest.param("ims", 1, {"NumRounds": 1, "MultipleWins": 1}, DEFAULT, "Multiple Wins", id="ims-multiple-wins"),
    pytest.param("ims", 1, {"NumRounds": 1, "MinimumFan": 2, "CountFlowers": 0}, DEFAULT, "", id="ims-minimum-fan"),
    pytest.param("beijing", 1, BEIJING_ALL, DEFAULT, "Upstairs", id="beijing-upstairs"),
    pytest.param("beijing", 9, BEIJING_ALL, DEFAULT, "Busted Banker", id="beijing-busted-banker"),
    pytest.param("classical", 30, CLASSICAL_ALL, DEFAULT, "seven pairs", id="classical-options"),
    pytest.param("classical", 13, {"NumRounds": 1}, CARELESS, playaudit.CANNON, id="classical-cannon"),
]


@pytest.mark.parametrize(("rules", "seed", "settings", "players", "reached"), CASES)
def test_the_table_settles_every_hand_as_mj_score_does(
    rules: str, seed: int, settings: dict[str, int], players: tuple[str, ...], reached: str
) -> None:
    audit = playaudit.play(rules, seed, settings, players)
    assert audit.disagreements == [], "\n\n".join(audit.disagreements)
    assert audit.wins >= 4
    assert audit.positions >= audit.wins  # every win was weighed as a position first
    # Some winning patterns may not go out, where a Minimum Fan or the wild-tile rules forbid them; else all may
    # (classical's seven pairs without SevenPairs would be refused too: the cannon's game meets none).
    assert (audit.refused > 0) == (rules == "beijing" or settings.get("MinimumFan", 0) > 0)
    if reached:
        assert audit.elements[reached] >= 1
