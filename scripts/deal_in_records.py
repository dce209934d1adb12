#!/usr/bin/env python3
"""Record where the defending levels dealt in: every discard with what the defence saw.

Runs ``scripts/tournament.py`` (the same arguments) with every discard that level 2 or 3
chooses recorded, one JSON object a line in ``--records``: the tile, the hand's shanten,
the deal-in chance :mod:`mj.robot.defence` gave it, and per opponent its readiness, the
tile's wait chance against it and what it showed (sets by kind and suit, discards, discards
since its last claim); then, from the hand's result in our view, whether that discard dealt
in and to whom. ``docs/robot-tuning.md`` says how the defence's factors were fitted on such
records. The hook replaces a method of the robot's level classes, which a compiled class
ignores: run it where ``mj.robot.levels`` is pure Python (a tree set up by ``make venv``
alone, without ``make compiled``); it refuses a compiled one rather than record nothing.
Example::

    .venv/bin/python scripts/deal_in_records.py --records d.jsonl --seeds 2801-2900 --level 3 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tournament

from mj.compiled import compiled
from mj.hand.counting import HONOURS_START
from mj.melds import MeldKind
from mj.robot import defence, evaluate, levels
from mj.robot.games import GameReport
from mj.seatview import SeatView
from mj.tiles import Tile, kind_index

#: By id of our robot's view: the view and the records of its discards, in order.
_RECORDS: dict[int, tuple[SeatView, list[dict[str, Any]]]] = {}


def opponent(view: SeatView, pid: int, kind: int, unseen: list[int]) -> dict[str, Any]:
    """What the defence saw of opponent ``pid`` when we discarded ``kind``."""
    player = view.player(pid)
    suits = [0, 0, 0]
    chows = pungs = 0
    for meld in player.melds:
        if meld.kind is MeldKind.CHOW:
            chows += 1
        elif meld.kind in (MeldKind.PUNG, MeldKind.KONG):
            pungs += 1
        else:
            continue
        k = kind_index(meld.tile)
        if k < HONOURS_START:
            suits[k // 9] += 1
    since_claim = 0
    for record in reversed(view.timeline):
        if record.claimed_by == pid:
            break
        since_claim += record.who == pid
    return {
        "pid": pid,
        "sets": player.sets,
        "calling": player.calling,
        "chows": chows,
        "pungs": pungs,
        "suits": suits,
        "discards": len(view.discards_of(pid)),
        "since_claim": since_claim,
        "ready": defence.readiness(view, pid),
        "wait": defence.wait_chances(view, pid, unseen, [kind])[kind],
    }


def record(view: SeatView, vector: list[int], unseen: list[int], tile: Tile) -> None:
    """Keep what the defence saw when ``tile`` was discarded from ``vector``."""
    k = kind_index(tile)
    held = [j for j, copies in enumerate(vector) if copies]
    options = evaluate.discard_options(vector, view.declared_sets, view.seven_pairs, unseen)
    danger = defence.assess(view, unseen, held)
    entry = {
        "hand": view.hand_no,
        "tile": k,
        "live": view.live_tiles,
        "shanten": next(o.shanten for o in options if o.tile == tile),
        "best_shanten": min(o.shanten for o in options),
        "p": danger.deal_in[k],
        "p_least": min(danger.deal_in[j] for j in held),
        "opponents": [
            opponent(view, pid, k, unseen) for pid in view.seats if pid != view.my_id and pid in view.players
        ],
    }
    _RECORDS.setdefault(id(view), (view, []))[1].append(entry)


def labelled(reports: Sequence[GameReport]) -> list[dict[str, Any]]:
    """Every record, with the seed, our id and whom the discard dealt in to (None if nobody)."""
    out: list[dict[str, Any]] = []
    for report in reports:
        if report.view is None or id(report.view) not in _RECORDS:
            continue
        view, entries = _RECORDS[id(report.view)]
        results = {r.hand: r for r in view.results}
        last = {entry["hand"]: i for i, entry in enumerate(entries)}
        for i, entry in enumerate(entries):
            result = results.get(entry["hand"])
            fed = result is not None and result.fed_by == view.my_id and last[entry["hand"]] == i
            entry["dealt_to"] = result.winner if fed and result is not None else None
            entry["seed"], entry["me"] = report.seed, view.my_id
            out.append(entry)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0], add_help=False)
    parser.add_argument("--records", type=Path, required=True, help="JSON lines file to write")
    ours, rest = parser.parse_known_args(argv)
    if levels.__name__ in compiled():
        print(
            f"deal_in_records: {levels.__name__} is compiled, so its discards cannot be hooked; "
            "run this in a tree without the built extensions (make venv, not make compiled)",
            file=sys.stderr,
        )
        return 2
    choose = levels.LevelTwo._choose

    def recording(self: levels.LevelTwo, view: SeatView, vector: list[int], unseen: list[int]) -> Tile:
        tile = choose(self, view, vector, unseen)
        record(view, vector, unseen, tile)
        return tile

    analyse = tournament.analyse

    def analysed(reports: Sequence[GameReport]) -> dict[str, Any]:
        with ours.records.open("w", encoding="utf-8") as out:
            for entry in labelled(reports):
                out.write(json.dumps(entry) + "\n")
        return analyse(reports)

    setattr(levels.LevelTwo, "_choose", recording)  # noqa: B010 - the strategy is made deep in the tournament
    setattr(tournament, "analyse", analysed)  # noqa: B010
    return tournament.main(rest)


if __name__ == "__main__":
    sys.exit(main())
