"""The arena: tournaments between robots played in-process, without sockets.

Four players, each a robot given by a specification (``"level=2,chowness=0.5"``,
see :mod:`mj.arena.players`), play games on the server's own table
(:mod:`mj.arena.game`); every seed is played in the four rotations of the seats
(the duplicate format) on all cores (:mod:`mj.arena.runner`), and each player's
win rate, self-drawn share, deal-in rate, winning and final scores are reported
with 95% confidence intervals (:mod:`mj.arena.stats`), with the throughput. The
command is ``mj arena`` (:mod:`mj.arena.cli`); in Python::

    from mj import arena

    result = arena.run(["level=1", "level=2", "level=3", "level=1,chowness=-1"], games=8,
                       options=arena.game_options(settings=["NumRounds=1"]))
    for player in result.players:
        print(player.name, player.spec, player.figures.final_score.text())
"""

from mj.arena.game import GameError, GameRecord
from mj.arena.options import game_options
from mj.arena.players import PlayerSpec, SpecError, parse_player
from mj.arena.runner import ArenaResult, PlayerResult, Throughput, run
from mj.arena.stats import Estimate, Figures

__all__ = [
    "ArenaResult",
    "Estimate",
    "Figures",
    "GameError",
    "GameRecord",
    "PlayerResult",
    "PlayerSpec",
    "SpecError",
    "Throughput",
    "game_options",
    "parse_player",
    "run",
]
