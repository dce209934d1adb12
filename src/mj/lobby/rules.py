"""The rule systems a lobby table may be created with, by name, and the options each offers.

Tables and games store the rule system's *name*; this is the one place in the lobby
that turns a name into the :class:`~mj.rules.ruleset.Ruleset` the table plays by,
asking the registry (:mod:`mj.rules.registry`), so a system becomes playable here
(and offered by the lobby page) as soon as it is written.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from mj import tiles
from mj.rules import registry
from mj.rules.options import END, OPTION_RANGES, OptionType
from mj.rules.ruleset import Ruleset

DEFAULT: Final = registry.DEFAULT_NAME
#: Pseudo options of the protocol's option list that a table cannot set.
_NOT_SETTABLE: Final = frozenset({END})


class UnknownRules(ValueError):
    """A rule system no table here can play; the message names the ones it can."""


def playable() -> tuple[str, ...]:
    """The names of the rule systems a table can be created with, the default first."""
    return tuple(system["name"] for system in systems() if system["available"])


@functools.cache
def systems() -> tuple[dict[str, Any], ...]:
    """Every rule system the registry knows, the default first: whether a table can play it
    (else the registry's one-line reason) and the options a table of it may set.

    Asked once per process (the registry does not change while it runs): every table
    made or resumed asks for its rules.
    """
    found: list[dict[str, Any]] = []
    for name in sorted(registry.names(), key=lambda name: name != DEFAULT):
        try:
            ruleset = registry.get(name)
        except registry.RulesError as exc:
            found.append({"name": name, "available": False, "reason": str(exc), "options": []})
            continue
        found.append({"name": name, "available": True, "reason": None, "options": options_schema(ruleset)})
    return tuple(found)


def options_schema(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The options of ``ruleset`` a table may set: name, type, default, text, and the values allowed."""
    schema = []
    for entry in ruleset.new_options().entries():
        if entry.name in _NOT_SETTABLE:
            continue
        bounds = entry.bounds or OPTION_RANGES.get(entry.name)
        low, high = bounds if bounds is not None else (None, None)
        if entry.type is OptionType.NAT and low is None:
            low = 0
        schema.append({
            "name": entry.name, "type": entry.type.value, "default": entry.value, "description": entry.description,
            "choices": list(entry.allowed) or None,
            "min": low, "max": high,
        })  # fmt: skip
    return schema


def option_types(name: str) -> dict[str, str]:
    """The options a table of the rule system ``name`` may set, with their types (none for a system not offered)."""
    return next(({o["name"]: o["type"] for o in s["options"]} for s in systems() if s["name"] == name), {})


def ruleset(name: str) -> Ruleset:
    """The rules called ``name``; :class:`UnknownRules` if no table can play them."""
    for system in systems():
        if system["name"] == name and not system["available"]:
            raise UnknownRules(f"{system['reason']} (playable here: {', '.join(playable())})")
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
