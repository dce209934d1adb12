"""The ``mj`` command's own argument handling, shared by all its subcommands."""

from __future__ import annotations

import pytest

from mj.cli import main


@pytest.mark.parametrize(
    ("argv", "prog", "unknown"),
    [
        (["lobby", "--htp", "127.0.0.1:0"], "mj lobby", "--htp 127.0.0.1:0"),
        (["arena", "level=1", "level=2", "level=3", "level=3", "--bogus"], "mj arena", "--bogus"),
        (["bench", "score", "--bogus"], "mj bench score", "--bogus"),
    ],
)
def test_a_wrong_flag_is_answered_with_the_subcommands_own_usage(
    argv: list[str], prog: str, unknown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {prog} ")
    assert err.rstrip().endswith(f"{prog}: error: unrecognized arguments: {unknown}")
