"""The commands' entry points: each loads its modules with the cyclic garbage collector paused.

Loading a command's modules (asyncio, the protocol, the compiled engine) makes a few
hundred thousand objects, none of them garbage and all of them kept for the life of
the process; the collector would still walk them all, again and again, while they
load: about a tenth of a server's start-up. So the collector is paused while the
modules load, and what they made is then frozen out of its view (``gc.freeze``),
which also spares every later full collection that walk. A process decision, taken
only here, in the commands' own entry points, never by a library module.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Callable


def _run(module: str) -> int:
    """Import ``module`` with the collector paused, then call its ``main()``; its exit status."""
    gc.disable()
    try:
        main: Callable[[], int] = importlib.import_module(module).main
    finally:
        gc.freeze()
        gc.enable()
    return main()


def mj() -> int:
    """``mj``: replay, arena, benchmarks."""
    return _run("mj.cli")


def server() -> int:
    """``mj-server``."""
    return _run("mj.server.cli")


def player() -> int:
    """``mj-player``."""
    return _run("mj.robot.cli")


def xmj() -> int:
    """``xmj``."""
    return _run("mj.web.cli")
