"""What a spectator may see of a table: the public part of the messages the table logs.

The table logs each broadcast once and each private message to its recipient. A
spectator is sent only the kinds of message that tell what everyone at the table
is told (discards, claims, declared sets, flowers, the wild indicator, scores with
the figures behind them and each payment ...), a player's draws with the tile
hidden, and chat to everybody; anything else (a player's own draws, the tiles of an
InfoTiles, answers to queries, errors, options acknowledged, a player's passes on a
claim) is left out. Concealed tiles become public only where the table shows them to
everybody: the hands shown after a mah-jong.
"""

from __future__ import annotations

from typing import Final

from mj import tiles
from mj.protocol import cmsg as C

#: Messages the table sends every player alike.
PUBLIC: Final = frozenset(
    {
        C.Player, C.NewRound, C.Game, C.NewHand, C.PlayerDeclaresSpecial, C.StartPlay, C.StopPlay, C.Pause,
        C.PlayerReady, C.PlayerDiscards, C.DangerousDiscard, C.PlayerClaimsPung, C.PlayerPungs,
        C.PlayerFormsClosedPung, C.PlayerClaimsKong, C.PlayerKongs, C.PlayerDeclaresClosedKong, C.PlayerAddsToPung,
        C.PlayerRobsKong, C.PlayerClaimsChow, C.PlayerChows, C.PlayerFormsClosedChow, C.WashOut,
        C.PlayerClaimsMahJong, C.PlayerMahJongs, C.PlayerPairs, C.PlayerFormsClosedPair, C.PlayerShowsTiles,
        C.PlayerSpecialSet, C.PlayerFormsClosedSpecialSet, C.HandScore, C.ScoreFigure, C.Payment, C.Settlement,
        C.GameOver, C.GameOption, C.ChangeManager, C.WildIndicator,
    }
)  # fmt: skip


def public_view(message: C.CMsg) -> C.CMsg | None:
    """``message`` as a spectator may see it, or None if it is none of a spectator's business."""
    if isinstance(message, C.PlayerDraws | C.PlayerDrawsLoose):
        return type(message)(message.id, tiles.BLANK)
    if isinstance(message, C.Message):
        return message if message.addressee == 0 else None
    return message if type(message) in PUBLIC else None
