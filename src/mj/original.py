"""Where Debian's package ``mah-jong`` installs the original Unix Mah-Jong 1.11, our compatibility oracle.

Tests, benchmarks and scripts run these programs as black boxes next to ours.
"""

from __future__ import annotations

from typing import Final

SERVER: Final = "/usr/games/mj-server"
PLAYER: Final = "/usr/games/mj-player"
XMJ: Final = "/usr/games/xmj"
