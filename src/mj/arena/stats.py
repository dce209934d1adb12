"""Per-player figures over many games, with 95% confidence intervals.

Shared by the arena and ``scripts/tournament.py`` (our robot against the original
ones on the original server), so both report the same figures computed the same
way: rates (win, self-drawn share, deal-in) with Wilson intervals, which stay
inside 0..1 and behave for rare events such as deal-ins; means (winning hand
score, final score) with normal-approximation intervals.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mj.arena.tally import GameTally

#: 1.96: the normal quantile of a two-sided 95% interval.
Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% confidence interval, from ``n`` observations (NaN when n is 0)."""

    mean: float
    low: float
    high: float
    n: int

    def text(self, scale: float = 1.0, digits: int = 1, sign: bool = False) -> str:
        """``mean [low, high]`` (``sign``: each with its sign, as a difference); ``n/a`` for a figure
        not there (no observation, or one: no interval)."""
        form = f"{'+' if sign else ''}.{digits}f"
        if not math.isfinite(self.mean):
            return "n/a"
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return f"{self.mean * scale:{form}} [n/a]"
        return f"{self.mean * scale:{form}} [{self.low * scale:{form}}, {self.high * scale:{form}}]"

    def as_dict(self) -> dict[str, float | None]:
        """The figures for JSON, a figure not there as null: JSON has no NaN or infinity."""
        return {
            "mean": finite_or_none(self.mean),
            "low": finite_or_none(self.low),
            "high": finite_or_none(self.high),
            "n": self.n,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, float | None]) -> Estimate:
        """An estimate :meth:`as_dict` wrote (a null read back as NaN)."""

        def read(key: str) -> float:
            value = d[key]
            return math.nan if value is None else float(value)

        return cls(read("mean"), read("low"), read("high"), int(d["n"] or 0))


def finite_or_none(value: float) -> float | None:
    """A figure for JSON, which has no NaN or infinity: null for one that is not there."""
    return value if math.isfinite(value) else None


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean of ``values`` with a normal-approximation 95% interval (infinite for a single value)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
    return Estimate(mean, mean - half, mean + half, n)


def proportion_ci(successes: int, trials: int) -> Estimate:
    """A rate with a Wilson 95% interval."""
    if trials == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return Estimate(p, centre - half, centre + half, trials)


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One player's figures in one game."""

    hands: int
    wins: int
    self_drawn: int
    deal_ins: int
    #: The hand score of each hand this player won.
    win_scores: tuple[int, ...]
    final_score: int

    @classmethod
    def from_tally(cls, tally: GameTally, pid: int) -> PlayerGame:
        """Player ``pid``'s figures in the game ``tally`` counted."""
        return cls(
            tally.hands,
            tally.wins_by.get(pid, 0),
            tally.self_drawn_by.get(pid, 0),
            tally.deal_ins_by.get(pid, 0),
            tuple(tally.win_scores_by.get(pid, ())),
            tally.scores.get(pid, 0),
        )


@dataclass(frozen=True, slots=True)
class Figures:
    """What is reported for one player (or one kind of player) over games."""

    games: int
    hands: int
    win_rate: Estimate
    #: Of the wins, the share drawn from the wall (not from a discard or a robbed kong).
    self_drawn_share: Estimate
    #: Hands in which this player's discard or kong gave another player mah-jong.
    deal_in_rate: Estimate
    winning_score: Estimate
    final_score: Estimate

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "hands": self.hands,
            "win_rate": self.win_rate.as_dict(),
            "self_drawn_share": self.self_drawn_share.as_dict(),
            "deal_in_rate": self.deal_in_rate.as_dict(),
            "winning_score": self.winning_score.as_dict(),
            "final_score": self.final_score.as_dict(),
        }


@dataclass
class Totals:
    """Everything counted for one player (or one kind of player) over games, to turn into :class:`Figures`."""

    games: int = 0
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    win_scores: list[int] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=list)

    def add(self, game: PlayerGame) -> None:
        self.games += 1
        self.hands += game.hands
        self.wins += game.wins
        self.self_drawn += game.self_drawn
        self.deal_ins += game.deal_ins
        self.win_scores += game.win_scores
        self.final_scores.append(game.final_score)

    def figures(self, final_score: Estimate | None = None) -> Figures:
        """The rates and means; ``final_score`` replaces the estimate over games (the arena's is per seed)."""
        return Figures(
            self.games,
            self.hands,
            proportion_ci(self.wins, self.hands),
            proportion_ci(self.self_drawn, self.wins),
            proportion_ci(self.deal_ins, self.hands),
            mean_ci(self.win_scores),
            final_score if final_score is not None else mean_ci(self.final_scores),
        )
