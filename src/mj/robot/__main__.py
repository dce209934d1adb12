"""``python -m mj.robot``: the same as the ``mj-player`` command."""

import sys

from mj.robot.cli import main

sys.exit(main())
