"""The commands' entry points (mj.launch): modules load with the collector paused, then frozen out of its view."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import gc
COLLECTING_WHILE_LOADED = gc.isenabled()

def main():
    print(COLLECTING_WHILE_LOADED, gc.isenabled(), gc.get_freeze_count() > 0)
    return 7
"""


def test_a_command_loads_with_the_collector_paused_and_runs_with_it_on(tmp_path: Path) -> None:
    (tmp_path / "probe.py").write_text(PROBE)
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from mj.launch import _run; sys.exit(_run('probe'))"],
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 7, run.stderr
    assert run.stdout.split() == ["False", "True", "True"]


def test_every_command_starts_through_mj_launch() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {
        "mj": "mj.launch:mj",
        "mj-server": "mj.launch:server",
        "mj-player": "mj.launch:player",
        "xmj": "mj.launch:xmj",
    }
