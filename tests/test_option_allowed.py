"""Each rule system declares the values its options allow on its own option entries; the generic
option code (mj.rules.options) asks the entries and knows no rule system."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mj.rules import options
from mj.rules.beijing.options import UNIT
from mj.rules.beijing.rules import BEIJING
from mj.rules.classical.rules import CLASSICAL
from mj.rules.ims.rules import IMS
from mj.rules.options import OptionError


def test_the_generic_option_code_imports_no_rule_system() -> None:
    tree = ast.parse(Path(options.__file__).read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("mj.rules.")], imported


def test_ims_declares_minimum_fan_0_or_2_on_its_own_entry_and_refuses_other_values() -> None:
    ims = IMS.new_options()
    assert ims.entry("MinimumFan").allowed == (0, 2)
    assert ims.set_from_text("MinimumFan", "2").value == 2
    with pytest.raises(OptionError, match=r"^MinimumFan must be 0 or 2$"):
        ims.set_from_text("MinimumFan", "1")


def test_classical_entries_allow_any_value_in_range_and_encode_as_before() -> None:
    classical = CLASSICAL.new_options()
    assert all(entry.allowed == () for entry in classical.entries())
    assert classical.entry("NumRounds").encode() == "NumRounds nat 0 1 4 number of rounds to play"


def test_beijing_declares_its_ranges_on_its_own_entries_and_refuses_values_beyond_them() -> None:
    beijing = BEIJING.new_options()
    assert beijing.entry(UNIT).bounds == (1, 2)
    assert beijing.set_from_text(UNIT, "2").value == 2
    with pytest.raises(OptionError, match=rf"^{UNIT} must be between 1 and 2$"):
        beijing.set_from_text(UNIT, "3")
