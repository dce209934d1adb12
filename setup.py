"""Build of mj: the hot modules listed in ``mj.compiled`` become C extensions, compiled by mypyc.

``MJ_NO_EXTENSIONS=1`` builds pure Python (the same code, about half as fast). The
Makefile installs that way and then compiles in place with ``setup.py build_ext
--inplace``, which rebuilds only the modules whose generated C changed; pip, which
builds in a fresh directory each time, would recompile them all on every install.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
sys.path.insert(0, str(ROOT / "src"))
from mj.compiled import MODULES, source  # noqa: E402  (the list lives with the code that checks it)


class BuildExtensions(build_ext):
    """``build_ext`` that dates every extension from this build.

    mypyc rewrites only the C that changed, so an edit that changes no C (a comment)
    recompiles nothing. The extension still matches its source as it is now, and
    :func:`mj.compiled.stale`, which compares dates, must see that.
    """

    def run(self) -> None:
        super().run()
        for ext in self.extensions:
            built = Path(self.get_ext_fullpath(ext.name))
            if built.exists():
                built.touch()


def extensions() -> list[Extension]:
    if os.environ.get("MJ_NO_EXTENSIONS", "") not in ("", "0"):
        return []
    from mypyc.build import mypycify

    paths = [str(source(module).relative_to(ROOT)) for module in MODULES]
    # One extension per module, so a rebuild recompiles only what changed, on every core.
    return list(mypycify(paths, opt_level="3", separate=True))


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": BuildExtensions},
    options={"build_ext": {"parallel": os.cpu_count() or 1, "build_temp": "build/temp"}},
)
