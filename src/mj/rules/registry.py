"""The rule systems by name, as ``--rules NAME`` chooses them in every command.

Each name maps to the module and attribute holding its :class:`~mj.rules.ruleset.Ruleset`,
imported only when the name is asked for: a system that is not written yet is
still a known name, and asking for it says so in one line instead of failing on
an import. A new system is added here by one line of :data:`SYSTEMS`.
"""

from __future__ import annotations

import importlib
from typing import Final

from mj.rules.classical.rules import CLASSICAL
from mj.rules.ruleset import Ruleset

#: Every rule system mj knows: name -> (module, attribute of its Ruleset).
SYSTEMS: Final = {
    "classical": ("mj.rules.classical.rules", "CLASSICAL"),
    "ims": ("mj.rules.ims.rules", "IMS"),
    "beijing": ("mj.rules.beijing.rules", "BEIJING"),
}
#: The name each command plays without ``--rules``.
DEFAULT_NAME: Final = "classical"
#: The rule system of :data:`DEFAULT_NAME`.
DEFAULT: Final[Ruleset] = CLASSICAL


class RulesError(ValueError):
    """A rule system that cannot be had; ``str()`` is the one-line reason."""


def names() -> tuple[str, ...]:
    return tuple(SYSTEMS)


def get(name: str) -> Ruleset:
    """The rule system called ``name``; :class:`RulesError` for an unknown or missing one."""
    entry = SYSTEMS.get(name)
    if entry is None:
        raise RulesError(f"unknown rule system {name!r} (known: {', '.join(SYSTEMS)})")
    module_name, attribute = entry
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module_name.startswith(exc.name):
            raise
        raise RulesError(f"the {name} rules are not available yet") from None
    rules = getattr(module, attribute, None)
    if rules is None:
        raise RulesError(f"the {name} rules are not available yet")
    result: Ruleset = rules
    return result
