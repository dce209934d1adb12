"""Hand analysis: complete hands, waits, decompositions and shanten, on count vectors.

This is the project's hot path (the robots evaluate thousands of hands per decision),
so all of it works on 34-entry count vectors with memoised per-group tables rather
than on tile lists.  The submodules are implementation detail; import from here.
"""

from mj.hand.complete import (
    Decomposition,
    can_complete,
    decompositions,
    is_mahjong,
    is_seven_pairs,
    is_thirteen_wonders,
    waits,
)
from mj.hand.counting import counts
from mj.hand.distance import shanten, shanten_all, shanten_seven_pairs, shanten_thirteen

__all__ = [
    "Decomposition",
    "can_complete",
    "counts",
    "decompositions",
    "is_mahjong",
    "is_seven_pairs",
    "is_thirteen_wonders",
    "shanten",
    "shanten_all",
    "shanten_seven_pairs",
    "shanten_thirteen",
    "waits",
]
