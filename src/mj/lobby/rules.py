"""The rule systems a lobby table may be created with, by name.

Tables and games store the rule system's *name*; this is the one place in the lobby
that turns a name into the :class:`~mj.rules.ruleset.Ruleset` the table plays by,
asking the registry (:mod:`mj.rules.registry`), so a system becomes playable here
as soon as it is written.
"""

from __future__ import annotations

from typing import Final

from mj import tiles
from mj.rules import registry
from mj.rules.ruleset import Ruleset

DEFAULT: Final = registry.DEFAULT_NAME


class UnknownRules(ValueError):
    """A rule system no table here can play; the message names the ones it can."""


def playable() -> tuple[str, ...]:
    """The names of the rule systems a table can be created with, the default first."""
    found = []
    for name in registry.names():
        try:
            registry.get(name)
        except registry.RulesError:
            continue
        found.append(name)
    return tuple(sorted(found, key=lambda name: name != DEFAULT))


def ruleset(name: str) -> Ruleset:
    """The rules called ``name``; :class:`UnknownRules` if no table can play them."""
    if name not in playable():
        raise UnknownRules(f"unknown rule system {name!r} (playable here: {', '.join(playable())})")
    return registry.get(name)


def wild_tiles(ruleset: Ruleset) -> dict[str, str]:
    """The wild tile each indicator names under ``ruleset`` (codes; empty without wilds): what the
    spectator's page needs to mark wilds without knowing any rule."""
    found = {}
    for kind in tiles.KINDS:
        wild = ruleset.wild_of(kind)
        if wild is not None:
            found[tiles.code(kind)] = tiles.code(wild)
    return found
