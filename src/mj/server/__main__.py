"""``python -m mj.server``: the same as the ``mj-server`` command (used by the tests)."""

import sys

from mj.launch import server

sys.exit(server())
