"""The rule systems a lobby table may be created with, by name.

Tables and games store the rule system's *name*; this is the one place that turns a
name into the :class:`~mj.rules.ruleset.Ruleset` the table plays by. Until the rule
system registry exists, only Chinese Classical can be played at a table.
"""

from __future__ import annotations

from typing import Final

from mj.rules.classical.rules import CLASSICAL
from mj.rules.ruleset import Ruleset

DEFAULT: Final = "classical"
_PLAYABLE: Final[dict[str, Ruleset]] = {"classical": CLASSICAL}


class UnknownRules(ValueError):
    """A rule system no table here can play; the message names the ones it can."""


def playable() -> tuple[str, ...]:
    """The names of the rule systems a table can be created with, the default first."""
    return tuple(_PLAYABLE)


def ruleset(name: str) -> Ruleset:
    """The rules called ``name``; :class:`UnknownRules` if no table can play them."""
    try:
        return _PLAYABLE[name]
    except KeyError:
        raise UnknownRules(f"unknown rule system {name!r} (playable here: {', '.join(playable())})") from None
