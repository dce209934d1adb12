"""What a spectator may see of a table: the public part of the messages the table logs.

The table logs each broadcast once and each private message to its recipient. A
spectator is sent only the kinds of message that tell what everyone at the table
is told (discards, claims, declared sets, flowers, the wild indicator, scores with
the figures behind them and each payment ...), a player's draws with the tile
hidden, and chat to everybody; anything else (a player's own draws, the tiles of an
InfoTiles, answers to queries, errors, options acknowledged, a player's passes on a
claim) is left out. Concealed tiles become public only where the table shows them to
everybody: the hands shown after a mah-jong, and a concealed kong where the rule
system does not hide it (IMS hides it until the hand ends: the table logs the
owner's copy, so a spectator is sent the others' blank one, then the reveal).
"""

from __future__ import annotations

from typing import Final

from mj import tiles
from mj.protocol import cmsg as C
from mj.rules.ruleset import Ruleset

#: Messages the table sends every player alike.
PUBLIC: Final = frozenset(
    {
        C.Player, C.NewRound, C.Game, C.NewHand, C.PlayerDeclaresSpecial, C.StartPlay, C.StopPlay, C.Pause,
        C.PlayerReady, C.PlayerDiscards, C.DangerousDiscard, C.PlayerClaimsPung, C.PlayerPungs,
        C.PlayerFormsClosedPung, C.PlayerClaimsKong, C.PlayerKongs, C.PlayerDeclaresClosedKong, C.PlayerAddsToPung,
        C.PlayerRobsKong, C.PlayerClaimsChow, C.PlayerChows, C.PlayerFormsClosedChow, C.WashOut,
        C.PlayerClaimsMahJong, C.PlayerMahJongs, C.PlayerPairs, C.PlayerFormsClosedPair, C.PlayerShowsTiles,
        C.PlayerSpecialSet, C.PlayerFormsClosedSpecialSet, C.HandScore, C.ScoreFigure, C.Payment, C.Settlement,
        C.GameOver, C.GameOption, C.ChangeManager, C.WildIndicator, C.PlayerRevealsConcealedKong,
    }
)  # fmt: skip


def hides_concealed_kongs(ruleset: Ruleset) -> bool:
    """Whether the table keeps a concealed kong's tile from all but its owner (IMS): the
    system's course, which no option of any system changes."""
    return ruleset.course(ruleset.new_options()).hides_concealed_kongs


def public_view(message: C.CMsg, hidden_kongs: bool = False) -> C.CMsg | None:
    """``message`` as a spectator may see it, or None if it is none of a spectator's business.

    ``hidden_kongs``: the table hides concealed kongs (:func:`hides_concealed_kongs`).
    """
    if isinstance(message, C.PlayerDraws | C.PlayerDrawsLoose):
        return type(message)(message.id, tiles.BLANK)
    if isinstance(message, C.PlayerDeclaresClosedKong) and hidden_kongs:
        return C.PlayerDeclaresClosedKong(message.id, tiles.BLANK, message.discard)
    if isinstance(message, C.Message):
        return message if message.addressee == 0 else None
    return message if type(message) in PUBLIC else None
