"""``mj arena --plot``: each player's score distributions as a PNG image.

Two panels, one box per player: the final score of each game (with the mean and
its 95% interval drawn over the box, the figure the table reports) and the hand
score of each hand won. The figure is drawn with matplotlib's object interface
on the Agg canvas, so no display or global plotting state is involved; matplotlib
is imported only when a plot is asked for, since it takes longer to import than
a small tournament takes to play.
"""

from __future__ import annotations

from pathlib import Path

from mj.arena.players import SpecError
from mj.arena.runner import ArenaResult
from mj.outputfile import OutputFileError, check_writable

#: Image formats matplotlib writes without extra packages, by file suffix.
FORMATS = (".png", ".svg", ".pdf")


def check_plot_path(path: Path) -> None:
    """:class:`SpecError` unless an image can be written at ``path``: checked before the games, not after."""
    if path.suffix.lower() not in FORMATS:
        raise SpecError(f"--plot {path}: the file name must end in {', '.join(FORMATS)}")
    try:
        check_writable(path)
    except OutputFileError as exc:
        raise SpecError(f"--plot {exc}") from None


def plot_scores(result: ArenaResult, path: Path) -> None:
    """Draw the distributions of ``result`` into the image file ``path`` (its suffix picks the format)."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import ScalarFormatter

    names = [p.name for p in result.players]
    finals = [[game.players[i].final_score for game in result.games] for i in range(len(names))]
    wins = [[score for game in result.games for score in game.players[i].win_scores] for i in range(len(names))]
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    left, right = figure.subplots(1, 2)
    positions = range(1, len(names) + 1)
    left.boxplot(finals, tick_labels=names)
    left.axhline(0, color="grey", linewidth=0.5)
    for position, player in zip(positions, result.players, strict=True):
        estimate = player.figures.final_score
        # A single seed gives no interval (an infinite one): the mean alone is drawn.
        spread = [[estimate.mean - estimate.low], [estimate.high - estimate.mean]] if estimate.n > 1 else None
        left.errorbar([position], [estimate.mean], yerr=spread, fmt="D", color="tab:red", capsize=4)
    left.set_title(f"final score per game ({len(result.games)} games; mean and 95% CI in red)")
    left.set_ylabel("points")
    right.boxplot(wins, tick_labels=names)
    right.set_yscale("log", base=2)
    right.yaxis.set_major_formatter(ScalarFormatter())
    right.set_title("hand score of each hand won")
    right.set_ylabel("points (log scale)")
    figure.savefig(path)
