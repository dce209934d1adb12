"""``--rules NAME`` chooses the rule system in mj-server, mj arena and xmj; a bad name is one line and status 2."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mj.cli import main as mj_main
from mj.rules import registry
from mj.rules.classical.rules import CLASSICAL
from mj.server import cli as server_cli
from mj.web.cli import main as xmj_main


def server(argv: list[str]) -> int:
    return server_cli.main(argv)


def arena(argv: list[str]) -> int:
    return mj_main(["arena", *argv, "default", "default", "default", "default"])


def xmj(argv: list[str]) -> int:
    return xmj_main([*argv, "--no-browser"])


COMMANDS: dict[str, Callable[[list[str]], int]] = {"mj-server": server, "mj arena": arena, "xmj": xmj}


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_rule_system_is_refused_in_one_line_with_status_2(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert COMMANDS[command](["--rules", "riichi"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "unknown rule system 'riichi' (known: classical, ims, beijing)" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_rule_system_not_written_yet_is_refused_as_not_available(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.SYSTEMS, "future", ("mj.rules.future.rules", "FUTURE"))
    assert COMMANDS[command](["--rules", "future"]) == 2
    assert "the future rules are not available yet" in capsys.readouterr().err


def test_the_server_table_plays_the_rules_named() -> None:
    args = server_cli.build_parser().parse_args(["--rules", "classical"])
    assert args.rules == "classical"
    assert server_cli.build_settings(args, registry.get(args.rules)).rules is CLASSICAL
    assert server_cli.build_parser().parse_args([]).rules == registry.DEFAULT_NAME


@pytest.mark.parametrize("name", registry.names())
def test_every_option_name_of_a_rule_system_fits_the_protocol_s_word_of_15_characters(name: str) -> None:
    """Options travel as ``SetGameOption`` and ``GameOption`` words (protocol.md §2.1): a longer name is cut short
    on the way and the server no longer knows it."""
    long = [entry.name for entry in registry.get(name).new_options().entries() if len(entry.name) > 15]
    assert long == []
