"""Robot players: a seat's view, strategies by level, and a client for protocol-1110 servers.

The pieces, each with one job:

* :mod:`~mj.seatview` (shared with the browser gateway): what one seat knows, rebuilt
  from the messages it receives, and the moves its rule system allows now;
* :mod:`~mj.robot.strategy`: the decisions and the :class:`Strategy` protocol;
* :mod:`~mj.robot.evaluate`, :mod:`~mj.robot.declare`: shanten/ukeire, and how to
  declare a hand after mah-jong;
* :mod:`~mj.robot.levels`: the strategies (level 1: speed first);
* :mod:`~mj.robot.systems`: each table played by its rule system's strategy
  (:mod:`~mj.robot.ims`, :mod:`~mj.robot.beijing`; the levels for the others);
* :mod:`~mj.robot.agent`: :class:`Robot`, the protocol obligations without I/O (also
  what an in-process arena drives);
* :mod:`~mj.robot.client` and :mod:`~mj.robot.cli`: the ``mj-player`` program.
"""

from mj.robot.agent import Robot
from mj.robot.levels import LevelOne, make_strategy
from mj.robot.personality import Personality
from mj.robot.strategy import Claim, ClaimKind, Declaration, KongKind, KongMove, Step, Strategy
from mj.seatview import Phase, SeatView

__all__ = [
    "Claim",
    "ClaimKind",
    "Declaration",
    "KongKind",
    "KongMove",
    "LevelOne",
    "Personality",
    "Phase",
    "Robot",
    "SeatView",
    "Step",
    "Strategy",
    "make_strategy",
]
