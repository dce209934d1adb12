"""Which modules are compiled to C with mypyc, and whether this installation runs them compiled.

A robot's every decision walks the hand analysis, the table runs the engine for
every message, and the server frames, logs and routes every line, so these modules
are where the arena and the server spend their CPU. mypyc compiles them from the same
typed source (``setup.py`` builds what :data:`MODULES` lists); compiled, the arena
plays about twice as many hands per CPU-second, and the server's own work per line
costs about a third less. The random-move simulation asks every seat's legal moves
and counts every tile after every move, so it, the IMS moves and scorer, and
Beijing's moves and scorer with the wild-aware hand test they ask at every discard are
compiled too (docs/performance.md). The robots' strategies per rule system
(``mj.robot.ims``, ``mj.robot.beijing``) subclass the compiled levels, so they must
be compiled as well: a compiled class refuses an interpreted subclass at run time.
Everything else stays Python: the server's start-up and command line, the web
client, the arena's set-up and reports, and the protocol codec, whose per-message
methods are generated with ``exec`` when a message is first used.

Left out on purpose, though they are on hot paths:

* ``mj.rules.classical.rules``: other rule systems subclass :class:`ClassicalRules`
  in Python, which a compiled class forbids (so ``mj.rules.ims.rules`` and
  ``mj.rules.beijing.rules``, two of them, stay Python too; the legal moves and scorers
  they call are compiled);
* ``mj.robot.personality`` and ``mj.rules.options``: their frozen dataclasses travel
  to the arena's worker processes by pickle, which mypyc's frozen classes refuse.

Value classes that the hot modules build for every message or every discard
weighed are dataclasses with ``init=False`` and an ``__init__`` written out: mypyc
compiles that one to C, while the ``__init__`` a dataclass generates stays Python
(about fifteen times slower to call). Such classes are not frozen, since a frozen
one can only be built through ``object.__setattr__``; nothing assigns to them.

Tables of floats held in a ``Final`` are typed as variable-length tuples
(``tuple[float, ...]``): mypyc 2.4 loses a fixed-length tuple of floats held in a
``Final`` ("value for final name was not set").

An edited module keeps running its old compiled code until it is rebuilt (``make
compiled``, which ``make test`` and ``make play`` run); :func:`stale` names such
modules so that the tests and the benchmarks can refuse them.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path
from typing import Final

#: The compiled modules (``setup.py`` builds these; ``MJ_NO_EXTENSIONS=1`` builds none).
MODULES: Final = (
    "mj.tiles",
    "mj.melds",
    "mj.hand",
    "mj.hand.complete",
    "mj.hand.counting",
    "mj.hand.distance",
    "mj.hand.wild",
    "mj.game.engine",
    "mj.game.seat",
    "mj.game.sends",
    "mj.game.wall",
    "mj.rules.ruleset",
    "mj.rules.classical.danger",
    "mj.rules.classical.moves",
    "mj.rules.base",
    "mj.rules.classical.scoring",
    "mj.rules.classical.settlement",
    "mj.rules.ims.moves",
    "mj.rules.ims.scoring",
    "mj.rules.beijing.moves",
    "mj.rules.beijing.scoring",
    "mj.rules.beijing.wilds",
    "mj.robot.agent",
    "mj.robot.declare",
    "mj.robot.defence",
    "mj.robot.evaluate",
    "mj.robot.levels",
    "mj.robot.strategy",
    "mj.robot.ims",
    "mj.robot.beijing",
    "mj.seatview",
    "mj.table",
    "mj.arena.exchange",
    "mj.protocol.framing",
    "mj.protocol.messagetable",
    "mj.server.logwriter",
    "mj.server.transport",
    "mj.simulate",
)

#: The root of the ``mj`` package (a namespace package: no ``__init__`` to ask).
PACKAGE: Final = Path(__file__).parent


def source(module: str) -> Path:
    """The Python source of ``module``, one of :data:`MODULES`."""
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def extension(module: str) -> Path | None:
    """The compiled file Python would import for ``module``, or None when it would import the source."""
    spec = importlib.util.find_spec(module)
    if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        return None
    return Path(spec.loader.path)


def compiled() -> list[str]:
    """The modules of :data:`MODULES` that this installation runs compiled."""
    return [module for module in MODULES if extension(module) is not None]


def stale() -> list[str]:
    """Compiled modules whose source was edited after they were built: they run the old code.

    Only a source checkout (``setup.py`` beside ``src``) is checked: there the build
    is in place and edits happen. An installed wheel's file dates say nothing.
    """
    if not (PACKAGE.parent.parent / "setup.py").exists():
        return []
    result = []
    for module in MODULES:
        built = extension(module)
        if built is not None and source(module).stat().st_mtime > built.stat().st_mtime:
            result.append(module)
    return result


def describe() -> str:
    """One line saying how this installation runs: what benchmark figures depend on."""
    done = compiled()
    if not done:
        return "build: pure Python (no module compiled; `make compiled` compiles them with mypyc)"
    old = stale()
    note = f"; STALE, edited since built: {', '.join(old)} (run `make compiled`)" if old else ""
    return f"build: {len(done)} of {len(MODULES)} hot modules compiled with mypyc{note}"
