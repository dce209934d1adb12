"""The IMS table options (the seed's "IMS Table Options"): one schema with types, defaults and checks.

Every fact about an option (its name, type, default, allowed values, text) is one row
of :data:`SCHEMA`; :func:`parse` checks a mapping of names to values against it, and
:class:`IMSOptions` holds the result. Booleans are stored as 0/1, as the protocol
carries them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

COUNT_FLOWERS: Final = "CountFlowers"
MULTIPLE_WINS: Final = "MultipleWins"
MINIMUM_FAN: Final = "MinimumFan"


class IMSOptionError(ValueError):
    """An unknown option name or a bad value; ``str()`` is one line naming it."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option. ``allowed`` lists the values of an int option (None: a boolean)."""

    name: str
    default: int
    allowed: tuple[int, ...] | None
    description: str

    @property
    def is_bool(self) -> bool:
        return self.allowed is None

    def check(self, value: object) -> int:
        """``value`` (from JSON or a table) as the stored int, or :class:`IMSOptionError`."""
        if self.is_bool:
            # JSON true/false, or the protocol's 0/1.
            if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
                return int(value)
            raise IMSOptionError(f"option {self.name} must be true or false, not {value!r}")
        assert self.allowed is not None
        if isinstance(value, int) and not isinstance(value, bool) and value in self.allowed:
            return value
        allowed = " or ".join(str(v) for v in self.allowed)
        raise IMSOptionError(f"option {self.name} must be {allowed}, not {value!r}")


#: The table options in the seed's order, with the defaults mj chose (docs/rules-ims.md).
SCHEMA: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(COUNT_FLOWERS, 1, None, "each flower or season counts 1 bonus"),
    OptionSpec(MULTIPLE_WINS, 0, None, "every player bidding MahJong on a discard wins, not only the closest"),
    OptionSpec(MINIMUM_FAN, 0, (0, 2), "the fan a hand needs to go out"),
)
_BY_NAME: Final = {spec.name: spec for spec in SCHEMA}


@dataclass(frozen=True, slots=True)
class IMSOptions:
    """The values of every IMS table option, by name (``options["MinimumFan"]``)."""

    values: Mapping[str, int]

    def __getitem__(self, name: str) -> int:
        return self.values[name]

    def flag(self, name: str) -> bool:
        return self.values[name] != 0


def parse(given: Mapping[str, object]) -> IMSOptions:
    """The options ``given`` by name, the others at their defaults; unknown names and bad values are errors."""
    for name in given:
        if name not in _BY_NAME:
            known = ", ".join(_BY_NAME)
            raise IMSOptionError(f"unknown IMS option {name!r} (the options are {known})")
    return IMSOptions(
        {spec.name: spec.check(given[spec.name]) if spec.name in given else spec.default for spec in SCHEMA}
    )


#: Every option at its default.
DEFAULTS: Final = parse({})
