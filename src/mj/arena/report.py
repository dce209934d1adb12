"""The arena's results as text for people: a row of figures per player, their paired differences, the throughput."""

from __future__ import annotations

from collections.abc import Sequence

from mj.arena.game import SEATS
from mj.arena.runner import ArenaResult
from mj.arena.stats import Estimate

#: Column headings and widths of the table of figures (after the player's name).
COLUMNS = (
    ("games", 5),
    ("hands", 6),
    ("win %", 18),
    ("self-drawn %", 18),
    ("deal-in %", 18),
    ("winning score", 17),
    ("final score", 20),
    ("refused", 7),
)


def _row(name: str, width: int, cells: Sequence[str]) -> str:
    return f"{name:<{width}}" + "".join(f" {cell:>{w}}" for cell, (_, w) in zip(cells, COLUMNS, strict=True))


def _percent(estimate: Estimate) -> str:
    return estimate.text(100, 1)


def _points(estimate: Estimate) -> str:
    return estimate.text(1, 0)


def format_result(result: ArenaResult) -> str:
    """The players and their specifications, the figures with 95% intervals, the throughput."""
    names = [p.name for p in result.players]
    width = max(len("player"), *map(len, names))
    seeds = sorted({g.seed for g in result.games})
    lines = [f"{p.name:<{width}}  {p.spec}" for p in result.players]
    options = ", ".join(f"{e.name}={e.value}" for e in result.options) or "defaults"
    lines.append(
        f"{len(result.games)} games: seeds {seeds[0]}-{seeds[-1]}, each in {SEATS} rotations; options: {options}"
    )
    lines.append(_row("player", width, [heading for heading, _ in COLUMNS]))
    for player in result.players:
        f = player.figures
        cells = (
            str(f.games),
            str(f.hands),
            _percent(f.win_rate),
            _percent(f.self_drawn_share),
            _percent(f.deal_in_rate),
            _points(f.winning_score),
            _points(f.final_score),
            str(player.refusals),
        )
        lines.append(_row(player.name, width, cells))
    if result.differences:
        lines.append("final score per game, paired by seed (the same deals from the same seats):")
        gap = max(len(d.player) + len(d.against) for d in result.differences) + 3
        for d in result.differences:
            lines.append(f"  {d.player + ' - ' + d.against:<{gap}} {d.estimate.text(sign=True)}")
    t = result.throughput
    lines.append(
        f"{t.hands} hands in {t.wall_seconds:.2f} s ({t.jobs} job{'s' if t.jobs > 1 else ''}), "
        f"{t.cpu_seconds:.2f} CPU-seconds: {t.hands_per_wall_second:.1f} hands per wall-second, "
        f"{t.hands_per_cpu_second:.1f} per CPU-second"
    )
    return "\n".join(lines) + "\n"
