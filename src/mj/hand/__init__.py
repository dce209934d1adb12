"""Hand analysis: complete hands, waits, decompositions and shanten, on count vectors.

This is the project's hot path (the robots evaluate thousands of hands per decision),
so all of it works on 34-entry count vectors with memoised per-group tables rather
than on tile lists.  The submodules are implementation detail; import from here.
"""

from mj.hand.complete import (
    Decomposition,
    can_complete,
    decompositions,
    group_splits,
    group_waits,
    is_mahjong,
    is_seven_pairs,
    is_thirteen_wonders,
    wait_indices,
    waits,
)
from mj.hand.counting import GROUP_OF, counts
from mj.hand.distance import (
    IMPOSSIBLE,
    shanten,
    shanten_after_discards,
    shanten_after_draws,
    shanten_all,
    shanten_seven_pairs,
    shanten_thirteen,
    useful_draws,
)

__all__ = [
    "GROUP_OF",
    "IMPOSSIBLE",
    "Decomposition",
    "can_complete",
    "counts",
    "decompositions",
    "group_splits",
    "group_waits",
    "is_mahjong",
    "is_seven_pairs",
    "is_thirteen_wonders",
    "shanten",
    "shanten_after_discards",
    "shanten_after_draws",
    "shanten_all",
    "shanten_seven_pairs",
    "shanten_thirteen",
    "useful_draws",
    "wait_indices",
    "waits",
]
