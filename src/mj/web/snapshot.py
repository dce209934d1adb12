"""The JSON a browser draws: one seat's whole table, rebuilt after every change.

A full snapshot each time (a few kilobytes) keeps the browser stateless: a reload,
a second tab or a reconnection simply draws the latest one, and nothing can drift
out of step. Only this seat's concealed tiles are real codes; everybody else's
hands are counts until they are shown, exactly as the server told this seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mj import tiles
from mj.melds import Meld
from mj.rules.options import END, OptionType
from mj.seatview import Phase, SeatView
from mj.web.dialogs import Dialog, dead_hand
from mj.web.seatlog import LogLine, SeatLog

#: Notices sent with each snapshot (the newest last); the rest stay in the log.
NOTICES_SENT = 20
#: Lines of the move log sent with each snapshot (the newest last).
MOVES_SENT = 80
#: The kinds of figure saying what one payer owes (``owes:SEAT``) and why (``for:SEAT:DOUBLE``), and the
#: seats they name (Beijing: docs/protocol-extension.md).
OWES = "owes"
FOR = "for"
SEAT_NAMES = ("East", "South", "West", "North")

Json = dict[str, Any]


def _codes(tile_list: Any) -> list[str]:
    return [tiles.code(t) for t in tile_list]


def _meld(meld: Meld) -> Json:
    return {
        "kind": meld.kind.value,
        "tiles": _codes(meld.tiles),
        "concealed": meld.concealed,
        "kong": meld.kong_origin.value if meld.kong_origin is not None else None,
    }


def _players(view: SeatView, log: SeatLog) -> list[Json]:
    out = []
    me = view.my_seat
    for seat, pid in enumerate(view.seats):
        player = view.player(pid)
        out.append(
            {
                "id": pid,
                "name": player.name or f"player {pid}",
                "seat": seat,
                "rel": (seat - me) % 4 if me >= 0 else seat,
                "wind": tiles.code(tiles.WINDS[seat])[0],
                "score": view.scores.get(pid, 0),
                "concealed": player.concealed,
                "hand": _codes(view.concealed) if pid == view.my_id else None,
                "shown": _codes(player.shown) if player.shown is not None else None,
                "melds": [_meld(m) for m in player.melds],
                "specials": _codes(player.specials),
                "discards": _codes(player.discards),
                "calling": player.calling,
                # threw away a wild tile: may no longer win this hand
                "dead": dead_hand(view, pid),
                "hand_score": player.hand_score,
                "ready": pid in view.ready,
            }
        )
    return out


def _scoring(view: SeatView, log: SeatLog) -> Json | None:
    scoring = log.scoring
    if scoring is None:
        return None
    rows = []
    payer_names = [log.name(pid) for pid in scoring.seats]
    for seat, pid in enumerate(view.seats):
        score, text = scoring.hands.get(pid, (None, ""))
        rows.append(
            {
                "id": pid,
                "name": log.name(pid),
                "wind": tiles.code(tiles.WINDS[seat])[0],
                "score": score,
                "text": text,
                "change": scoring.changes.get(pid),
                "figures": _figures(scoring.figures.get(pid), payer_names),
            }
        )
    return {
        "hand": scoring.hand,
        "players": rows,
        "settlement": scoring.settlement,
        "rule": view.rules.score_rule(),
        "payments": [
            {"payer": log.name(payer), "payee": log.name(payee), "amount": amount}
            for payer, payee, amount in scoring.payments
        ],
        "revealed": [{"name": log.name(pid), "tile": tiles.code(tile)} for pid, tile in scoring.revealed],
    }


def _figures(figures: list[tuple[str, int]] | None, payer_names: Sequence[str]) -> Json | None:
    """A winner's ``ScoreFigure`` lines as totals (IMS: "fan", "bonus"), elements ("KIND:NAME") and payers.

    Beijing's ``owes:SEAT`` is what the player in that seat (``payer_names``, by seat)
    owes the winner, and ``for:SEAT:NAME`` each double that applies to that payer
    (docs/protocol-extension.md): they make "payers", there only when some are. A
    figure naming no seat of the hand is left out.
    """
    if not figures:
        return None
    totals = {name: value for name, value in figures if ":" not in name}
    elements = []
    payers: dict[int, Json] = {}
    for name, value in figures:
        kind, _, element = name.partition(":")
        if kind in (OWES, FOR):
            seat_name, _, double = element.partition(":")
            seat = SEAT_NAMES.index(seat_name) if seat_name in SEAT_NAMES else -1
            if not 0 <= seat < len(payer_names) or (kind == FOR) != bool(double):
                continue
            wind = tiles.code(tiles.WINDS[seat])[0]
            row = payers.setdefault(seat, {"name": payer_names[seat], "wind": wind, "amount": None, "doubles": []})
            if double:
                row["doubles"].append({"name": double, "value": value})
            else:
                row["amount"] = value
        elif element:
            elements.append({"kind": kind, "name": element, "value": value})
    out: Json = {"totals": totals, "elements": elements}
    if payers:
        out["payers"] = [payers[seat] for seat in sorted(payers)]
    return out


def _options(view: SeatView) -> list[Json]:
    return [
        {
            "name": e.name,
            "type": e.type.value,
            "value": e.value if e.type is not OptionType.BOOL else bool(e.value),
            "description": e.description,
            "enabled": e.enabled,
        }
        for e in view.options.entries()
        if e.name != END
    ]


def _turn(view: SeatView) -> int | None:
    """The player the table waits for: the declarer of specials, then whoever must draw or discard."""
    if view.phase is Phase.DECLARING and 0 <= view.declarer < len(view.seats):
        return view.seats[view.declarer]
    if view.phase is Phase.PLAYING and view.pending is None:
        return view.turn
    return None


@dataclass(frozen=True, slots=True)
class Sent:
    """The last chat line and the last line of the move log that every attached browser has."""

    chat: int
    moves: int

    @classmethod
    def of(cls, log: SeatLog) -> Sent:
        return cls(log.chat[-1].number if log.chat else 0, log.moves[-1].number if log.moves else 0)


def build(view: SeatView, log: SeatLog, dialog: Dialog | None, connection: Json, sent: Sent | None = None) -> Json:
    """The snapshot for the browser; ``connection`` describes the link to the game server.

    ``chat`` and ``moves`` carry only the lines numbered after those ``sent``, which the
    browsers add to those they have; with None they carry them all and ``chat_reset`` and
    ``moves_reset`` say so (a browser just attached). A snapshot goes out after every
    change, so sending the whole chat each time cost as much as the chat was long.
    """
    players = _players(view, log) if len(view.seats) == 4 else []
    waiting = [{"id": pid, "name": p.name} for pid, p in view.players.items() if pid not in view.seats]
    highlight = None
    if log.last_discard_at is not None:
        pid, index = log.last_discard_at
        if index < len(view.player(pid).discards):
            highlight = {"player": pid, "index": index}
    flowers = view.rules.flowers(view.options)
    wild = view.wild
    return {
        "type": "state",
        "connection": connection,
        "me": view.my_id,
        "players": players,
        "lobby": waiting,
        "game": {
            "round": tiles.code(view.prevailing)[0],
            "hand": view.hand_no,
            "hands_as_east": view.hands_as_east,
            "phase": view.phase.value,
            "active": view.active,
            "paused": view.paused,
            "pause_reason": log.pause_reason,
            "over": view.game_over,
            "manager": log.manager,
            "winner": view.winner,
            "winners": list(view.winners),
            "mahjong": log.mahjong_word(),
            "washout": log.washout,
            "protocol": view.protocol,
            "rules": view.rules.name,
            # what the page's playing preferences can do at this table: declare the hands after a win (the
            # rules have a declaring phase), declare flowers (the engine does not reveal them itself)
            "course": {
                "declares_hands": view.course.declares_hands,
                "reveals_flowers": view.course.reveals_flowers,
            },
            "started": len(view.seats) == 4,
            "turn": _turn(view),
        },
        "wall": {
            "size": tiles.wall_size(flowers),
            "live": view.live_tiles,
            "live_drawn": log.live_drawn,
            "loose_drawn": log.loose_drawn,
            "start_wall": log.start_wall,
            "start_stack": log.start_stack,
            "dealt": view.hand_no > 0,
            # the tile turned up after the deal and the wild tile it names (Beijing), None without one
            "indicator": tiles.code(view.indicator) if view.indicator is not None else None,
            "wild": tiles.code(wild) if wild is not None else None,
        },
        "drawn": tiles.code(view.last_drawn) if view.last_drawn is not None else None,
        "last_discard": highlight,
        "dialog": dialog.to_json() if dialog is not None else None,
        "scoring": _scoring(view, log),
        "options": _options(view),
        "chat": [
            {"n": c.number, "sender": c.sender, "name": c.name, "text": c.text, "private": c.private}
            for c in log.chat
            if sent is None or c.number > sent.chat
        ],
        "chat_reset": sent is None,
        "notices": list(log.notices)[-NOTICES_SENT:],
        "moves": [_move_line(m) for m in list(log.moves)[-MOVES_SENT:] if sent is None or m.number > sent.moves],
        "moves_reset": sent is None,
        # Marks the page draws on every tile of a code: the wild tiles of a rule system with wilds (Beijing).
        "marks": {tiles.code(wild): ["wild"]} if wild is not None else {},
    }


def _move_line(line: LogLine) -> Json:
    """A line of the move log; one that names tiles also cut at them (``parts``), for the page to name them."""
    shown: Json = {"n": line.number, "kind": line.kind, "text": line.text}
    if line.parts:
        shown["parts"] = list(line.parts)
    return shown
