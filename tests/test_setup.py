"""The system set-up of ``make test`` / ``make play`` / ``.ci/run``: one script, one package list.

The script is run here with a PATH that hides the C compiler, make, apt-get and sudo,
so it finds packages missing and must stop at once, naming them and the one command
to run, without installing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETUP = ROOT / "scripts" / "setup-system.sh"
PACKAGES = ("mah-jong", "chromium", "fonts-noto-cjk", "xvfb", "xauth", "gcc", "python3-dev", "python3-venv")


def test_the_package_list_is_in_the_script_alone_and_make_and_ci_use_it() -> None:
    script = SETUP.read_text()
    for package in PACKAGES:
        assert f"missing+=({package}" in script, package
    ci, makefile = (ROOT / ".ci" / "run").read_text(), (ROOT / "Makefile").read_text()
    assert "scripts/setup-system.sh test" in ci and "scripts/setup-system.sh $(SYSTEM)" in makefile
    for text in (ci, makefile):
        assert "apt-get" not in text and not any(f" {package}" in text for package in ("mah-jong", "chromium"))
    assert "MJ_REQUIRE_ORIGINAL=1 MJ_REQUIRE_BROWSER=1" in makefile, "make test fails rather than skip"


def _bare_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH has only what the script needs to look, not gcc, make, apt-get or sudo."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for program in ("bash", "python3", "dpkg-query", "grep", "id", "env"):
        found = shutil.which(program)
        if found is not None:
            (bin_dir / program).symlink_to(found)
    return {**os.environ, "PATH": str(bin_dir)}


@pytest.mark.parametrize("mode", [["--check"], []], ids=["check", "install"])
def test_missing_packages_without_a_way_to_install_stop_at_once_with_the_command(
    mode: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        ["bash", str(SETUP), *mode, "build"],
        env=_bare_path(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0].startswith("mj: missing system packages for 'make build': ")
    assert "make" in lines[0].split() and "gcc" in lines[0].split()
    assert lines[1].startswith("mj: run:  sudo sh -c 'apt-get update && apt-get install -y")
    assert len(lines) == 2, "and nothing else happened"


def test_a_bad_profile_is_refused() -> None:
    done = subprocess.run(["bash", str(SETUP), "everything"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "usage" in done.stderr
