"""``python -m mj.robot``: the same as the ``mj-player`` command."""

import sys

from mj.launch import player

sys.exit(player())
