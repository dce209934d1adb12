"""The game options of an arena: an option file as ``mj-server --option-file`` reads it, and ``NAME=VALUE`` settings.

The server reads option files leniently, as the original does: a line it cannot
use costs a warning and the server plays on. An arena run is a measurement, and a
measurement under options other than those asked for is worthless, so here every
such warning, unknown option, type clash or value the original would refuse
(``NumRounds 3``) is an error, reported before any game starts. An option given
twice (in the file, then on the command line) is played with its last value, and
the options returned, which the report echoes, are those played: one per name.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from mj.arena.players import SpecError
from mj.rules import registry
from mj.rules.options import END, GameOptions, OptionEntry, OptionError, OptionType
from mj.rules.ruleset import Ruleset
from mj.server.cli import read_option_file

_BOOL_WORDS: Final = {"true": "1", "false": "0"}


def game_options(
    option_file: Path | None = None, settings: Sequence[str] = (), rules: Ruleset = registry.DEFAULT
) -> tuple[OptionEntry, ...]:
    """The entries of ``option_file`` then of each ``NAME=VALUE`` setting, checked against ``rules``' options."""
    options = rules.new_options()
    entries = list(_read(option_file, rules)) if option_file is not None else []
    for setting in settings:
        name, equals, value = setting.partition("=")
        name = name.strip()
        try:
            if not equals:
                raise OptionError("expected NAME=VALUE")
            if name == END:
                raise OptionError("End marks the end of the protocol's option list; it is not an option to set")
            entries.append(_setting(options, name, value))
        except OptionError as exc:
            raise SpecError(f"option {setting!r}: {exc}") from None
    played: dict[str, OptionEntry] = {}
    for entry in entries:
        if entry.name != END:
            played[entry.name] = entry  # the last one given wins, as the table applies them in order
    return tuple(played.values())


def _setting(options: GameOptions, name: str, value: str) -> OptionEntry:
    """The entry ``NAME=VALUE`` sets, checked as ``SetGameOption`` checks it; a bool option also takes ``true``
    and ``false``, the words the docs, the lobby and ``mj score`` use (the protocol takes only 1 and 0)."""
    if name not in options or options.entry(name).type is not OptionType.BOOL:
        return options.set_from_text(name, value)
    try:
        return options.set_from_text(name, _BOOL_WORDS.get(value.strip().lower(), value))
    except OptionError as exc:
        raise OptionError(f"{exc} (true, false, 1 or 0)") from None


def _read(path: Path, rules: Ruleset) -> tuple[OptionEntry, ...]:
    """The server's reading of an option file, its first warning turned into an error."""
    warnings = io.StringIO()
    try:
        with contextlib.redirect_stderr(warnings):
            entries = read_option_file(path, rules)
    except (OSError, ValueError) as exc:
        raise SpecError(f"cannot read option file {path}: {exc}") from None
    first = warnings.getvalue().partition("\n")[0]
    if first:
        raise SpecError(f"{first.removeprefix('+W+ ')}: a server would skip the line and play on; an arena refuses it")
    return entries
