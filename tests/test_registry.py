"""Rule systems are found by name (mj.rules.registry); a name without its code yet says so in one line."""

from __future__ import annotations

import pytest

from mj.rules import registry
from mj.rules.classical.rules import CLASSICAL


def test_classical_is_found_by_name_and_is_the_default() -> None:
    assert registry.get("classical") is CLASSICAL
    assert registry.DEFAULT is registry.get(registry.DEFAULT_NAME)


def test_the_systems_of_the_issue_are_known_names() -> None:
    assert {"classical", "ims", "beijing"} <= set(registry.names())


def test_an_unknown_name_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(registry.RulesError, match=r"unknown rule system 'riichi' \(known: classical, ims, beijing"):
        registry.get("riichi")


def test_a_known_name_whose_code_is_missing_is_not_available_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.SYSTEMS, "future", ("mj.rules.future.rules", "FUTURE"))
    with pytest.raises(registry.RulesError, match=r"^the future rules are not available yet$"):
        registry.get("future")


def test_a_module_without_its_ruleset_is_not_available_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.SYSTEMS, "half", ("mj.rules.classical.rules", "HALF_WRITTEN"))
    with pytest.raises(registry.RulesError, match=r"^the half rules are not available yet$"):
        registry.get("half")
