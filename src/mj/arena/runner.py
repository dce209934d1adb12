"""A tournament: games over seeds in the duplicate format, on several processes, figures per player.

Every seed is played four times, the players joining in each rotation of their
order, so each player meets every deal from every seat: the luck of the tiles
falls on all players alike, and what differs between them is their play. For the
same reason a player's mean final score gets its confidence interval from the
per-seed means over the four rotations, the independent units of the design (the
four games of one seed are not independent): four identical players then score
exactly 0 on every seed, with an interval of zero width, as they should. For the
same reason two players are compared by the difference of their per-seed means
(:class:`Difference`): a paired comparison on the same deals from the same seats,
far narrower than the two players' intervals side by side.

Games run on ``jobs`` worker processes (:mod:`mj.arena.workers`: one that dies ends
the run naming its game); their records are put back in seed and rotation order, so
every figure is the same with any number of jobs.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from mj.arena.game import SEATS, GameRecord, GameSetup, play
from mj.arena.players import PlayerSpec, SpecError, check_rules, parse_player
from mj.arena.stats import Estimate, Figures, Totals, finite_or_none, mean_ci
from mj.arena.workers import Workers
from mj.rules import registry
from mj.rules.options import OptionEntry

DEFAULT_GAMES: Final = 40


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's figures over the tournament."""

    spec: PlayerSpec
    #: The label in reports: the specification's name, else P1..P4 by position.
    name: str
    figures: Figures
    #: Moves of this player the table refused, over all games.
    refusals: int


@dataclass(frozen=True, slots=True)
class Difference:
    """A player's final score per game less another's, paired by seed (95% interval over the seeds)."""

    player: str
    against: str
    estimate: Estimate


@dataclass(frozen=True, slots=True)
class Throughput:
    """How fast the games were played; CPU time is that of the games, summed over the processes."""

    games: int
    hands: int
    wall_seconds: float
    cpu_seconds: float
    jobs: int

    @property
    def hands_per_wall_second(self) -> float:
        return self.hands / self.wall_seconds if self.wall_seconds else float("nan")

    @property
    def hands_per_cpu_second(self) -> float:
        return self.hands / self.cpu_seconds if self.cpu_seconds else float("nan")


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """A tournament's outcome: figures per player, every game's record, and the throughput.

    ``players`` and ``games`` depend only on the players, seeds and options;
    ``throughput`` is the only part that changes from run to run.
    """

    players: tuple[PlayerResult, ...]
    games: tuple[GameRecord, ...]
    options: tuple[OptionEntry, ...]
    throughput: Throughput
    #: Each player against each listed before it.
    differences: tuple[Difference, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data for ``--json``."""
        t = self.throughput
        return {
            "players": [
                {"name": p.name, "spec": str(p.spec), "refusals": p.refusals, **p.figures.as_dict()}
                for p in self.players
            ],
            "games": [
                {
                    "seed": g.seed,
                    "rotation": g.rotation,
                    "hands": g.hands,
                    "final_scores": [p.final_score for p in g.players],
                    "wins": [p.wins for p in g.players],
                    "deal_ins": [p.deal_ins for p in g.players],
                }
                for g in self.games
            ],
            "differences": [
                {"player": d.player, "against": d.against, "final_score": d.estimate.as_dict()}
                for d in self.differences
            ],
            "options": [entry.encode() for entry in self.options],
            "throughput": {
                "games": t.games,
                "hands": t.hands,
                "wall_seconds": t.wall_seconds,
                "cpu_seconds": t.cpu_seconds,
                "jobs": t.jobs,
                "hands_per_wall_second": finite_or_none(t.hands_per_wall_second),
                "hands_per_cpu_second": finite_or_none(t.hands_per_cpu_second),
            },
        }


def available_cores() -> int:
    """The cores this process may run on (all of them, unless restricted)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run(
    players: Sequence[PlayerSpec | str],
    *,
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    jobs: int | None = None,
    options: Sequence[OptionEntry] = (),
    log_dir: Path | None = None,
    progress: bool = False,
    rules: str = registry.DEFAULT_NAME,
) -> ArenaResult:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``... each in four rotations) between four players.

    Players are :class:`PlayerSpec` or specification strings (``"level=2,chowness=0.5"``);
    ``options`` are game option entries (:func:`mj.arena.game_options` reads them
    from an option file or ``NAME=VALUE`` settings); ``jobs`` defaults to every
    core; with ``log_dir``, each game is logged there as ``seed<S>-rotation<R>.log``
    in the server's log format; ``rules`` names the rule system (:mod:`mj.rules.registry`).
    Everything is checked before the first game: :class:`SpecError` says what is wrong.
    """
    try:
        registry.get(rules)
    except registry.RulesError as exc:
        raise SpecError(str(exc)) from None
    specs = _specs(players, rules, options)
    if games < SEATS or games % SEATS:
        raise SpecError(f"games must be a positive multiple of {SEATS} (each seed is played in {SEATS} rotations)")
    if seed < 1:
        raise SpecError("seeds start at 1")
    jobs = available_cores() if jobs is None else jobs
    if jobs < 1:
        raise SpecError("jobs must be at least 1")
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SpecError(f"cannot create log directory {log_dir}: {exc}") from None
    setups = [
        GameSetup(
            s, rotation, specs, tuple(options), log_dir / f"seed{s}-rotation{rotation}.log" if log_dir else None, rules
        )
        for s in range(seed, seed + games // SEATS)
        for rotation in range(SEATS)
    ]
    jobs = min(jobs, len(setups))
    started = time.perf_counter()
    timed = sorted(_play_all(setups, jobs, progress), key=lambda t: (t[0].seed, t[0].rotation))
    wall = time.perf_counter() - started
    records = tuple(record for record, _ in timed)
    throughput = Throughput(len(records), sum(r.hands for r in records), wall, sum(cpu for _, cpu in timed), jobs)
    results = _results(specs, records)
    return ArenaResult(results, records, tuple(options), throughput, _differences(results, records))


def _specs(players: Sequence[PlayerSpec | str], rules: str, options: Sequence[OptionEntry]) -> tuple[PlayerSpec, ...]:
    if len(players) != SEATS:
        raise SpecError(f"a table takes {SEATS} players, not {len(players)}")
    specs = []
    for number, player in enumerate(players, start=1):
        try:
            spec = player if isinstance(player, PlayerSpec) else parse_player(player)
            check_rules(spec, rules, options)
            specs.append(spec)
        except SpecError as exc:
            raise SpecError(f"player {number} ({player!r}): {exc}") from None
    return tuple(specs)


def play_timed(setup: GameSetup) -> tuple[GameRecord, float]:
    """One game and the CPU seconds it took (a worker process plays one game at a time)."""
    started = time.process_time()
    record = play(setup)
    return record, time.process_time() - started


def _play_all(setups: Sequence[GameSetup], jobs: int, progress: bool) -> list[tuple[GameRecord, float]]:
    """Every game, in the order they finish, ``jobs`` at a time."""
    if jobs == 1:
        return _tracked(map(play_timed, setups), len(setups), progress)
    # The workers are started before the progress display starts its thread, so a
    # forking start method never copies a running thread.
    with Workers(play_timed, jobs) as workers:
        return _tracked(workers.results(setups), len(setups), progress)


def _tracked(results: Iterator[tuple[GameRecord, float]], total: int, progress: bool) -> list[tuple[GameRecord, float]]:
    """Collect the results, with a progress bar on standard error when asked."""
    if not progress:
        return list(results)
    done: list[tuple[GameRecord, float]] = []
    hands = 0
    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[hands]} hands"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=total, hands=0)
        for result in results:
            done.append(result)
            hands += result[0].hands
            bar.update(task, advance=1, hands=hands)
    return done


def _results(specs: Sequence[PlayerSpec], records: Sequence[GameRecord]) -> tuple[PlayerResult, ...]:
    results = []
    for index, spec in enumerate(specs):
        totals = Totals()
        by_seed: dict[int, list[int]] = {}
        for record in records:
            game = record.players[index]
            totals.add(game)
            by_seed.setdefault(record.seed, []).append(game.final_score)
        final = mean_ci([statistics.fmean(scores) for scores in by_seed.values()])
        refusals = sum(record.refusals[index] for record in records)
        results.append(PlayerResult(spec, spec.name or f"P{index + 1}", totals.figures(final), refusals))
    return tuple(results)


def _differences(players: Sequence[PlayerResult], records: Sequence[GameRecord]) -> tuple[Difference, ...]:
    """Each player's final score less each earlier player's, over the per-seed means of the difference."""
    by_seed: dict[int, list[GameRecord]] = {}
    for record in records:
        by_seed.setdefault(record.seed, []).append(record)
    found = []
    for i, player in enumerate(players):
        for j in range(i):
            gaps = [
                statistics.fmean(r.players[i].final_score - r.players[j].final_score for r in games)
                for games in by_seed.values()
            ]
            found.append(Difference(player.name, players[j].name, mean_ci(gaps)))
    return tuple(found)
