"""The game options of an arena: an option file as ``mj-server --option-file`` reads it, and ``NAME=VALUE`` settings.

The server reads option files leniently, as the original does: a line it cannot
use costs a warning and the server plays on. An arena run is a measurement, and a
measurement under options other than those asked for is worthless, so here every
such warning, unknown option, type clash or value the original would refuse
(``NumRounds 3``) is an error, reported before any game starts.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from pathlib import Path

from mj.arena.players import SpecError
from mj.rules import registry
from mj.rules.options import OptionEntry, OptionError
from mj.rules.ruleset import Ruleset
from mj.server.cli import read_option_file


def game_options(
    option_file: Path | None = None, settings: Sequence[str] = (), rules: Ruleset = registry.DEFAULT
) -> tuple[OptionEntry, ...]:
    """The entries of ``option_file`` then of each ``NAME=VALUE`` setting, checked against ``rules``' options."""
    options = rules.new_options()
    entries = list(_read(option_file, rules)) if option_file is not None else []
    for setting in settings:
        name, equals, value = setting.partition("=")
        try:
            if not equals:
                raise OptionError("expected NAME=VALUE")
            entries.append(options.set_from_text(name.strip(), value))
        except OptionError as exc:
            raise SpecError(f"option {setting!r}: {exc}") from None
    return tuple(entries)


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
