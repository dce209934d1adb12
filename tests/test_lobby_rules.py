"""The rule systems the lobby offers: every one the registry knows, each with its own table options."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mj.lobby import rules
from mj.lobby.tables import TableRequestError, parse_request
from mj.rules import registry


@pytest.fixture(autouse=True)
def _registry_read_again() -> Iterator[None]:
    """The lobby reads the registry once per process; these tests change it."""
    rules.systems.cache_clear()
    yield
    rules.systems.cache_clear()


def test_every_registered_rule_system_is_offered_the_default_first_with_its_own_options() -> None:
    offered = rules.systems()
    assert offered[0]["name"] == registry.DEFAULT_NAME
    assert {s["name"] for s in offered} == set(registry.names())
    by_name = {s["name"]: s for s in offered}
    ims = {o["name"]: o for o in by_name["ims"]["options"]}
    assert ims["MinimumFan"]["choices"] == [0, 2] and "SevenPairs" not in ims
    classical = {o["name"]: o for o in by_name["classical"]["options"]}
    assert classical["SevenPairs"]["type"] == "bool" and "MinimumFan" not in classical
    assert classical["NumRounds"] == {"name": "NumRounds", "type": "nat", "default": 4, "min": 1, "max": 100,
                                      "choices": None, "description": "number of rounds to play"}  # fmt: skip
    assert all("End" not in {o["name"] for o in s["options"]} for s in offered)


def test_a_rule_system_not_written_yet_is_offered_as_not_available_and_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(registry.SYSTEMS, "riichi", ("mj.rules.riichi_not_written.rules", "RIICHI"))
    riichi = next(s for s in rules.systems() if s["name"] == "riichi")
    assert riichi == {"name": "riichi", "available": False, "reason": "the riichi rules are not available yet",
                      "options": []}  # fmt: skip
    assert "riichi" not in rules.playable()
    with pytest.raises(TableRequestError, match=r"^the riichi rules are not available yet \(playable here: "):
        parse_request({"rules": "riichi"})


def test_a_system_that_becomes_available_is_offered_with_its_options_without_a_change_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(registry.SYSTEMS, "ims2", ("mj.rules.ims.rules", "IMS"))
    assert "ims2" in rules.playable()
    assert parse_request({"rules": "ims2", "options": {"MinimumFan": 2}}).options == {"MinimumFan": 2}


@pytest.mark.parametrize(
    ("system", "options", "fault"),
    [
        ("ims", {"SevenPairs": 1}, "options: SevenPairs not an option of the ims rules (they have Timeout, "),
        ("classical", {"MinimumFan": 2}, "options: MinimumFan not an option of the classical rules"),
        ("ims", {"MinimumFan": 1}, "MinimumFan must be 0 or 2"),
        ("ims", {"NumRounds": 3}, "Number of rounds must be 1, 2 or a multiple of 4"),
    ],
)
def test_options_are_checked_against_the_tables_own_rule_system(
    system: str, options: dict[str, int], fault: str
) -> None:
    with pytest.raises(TableRequestError) as refused:
        parse_request({"rules": system, "options": options})
    assert fault in str(refused.value) and "\n" not in str(refused.value)
