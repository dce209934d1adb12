"""``mj score [FILE] [--rules NAME] [--json]``: the calculator's command line.

Malformed input, unknown rules or options: one line on stderr, exit status 2, nothing
on stdout. A hand that is well formed but may not go out is an answer, not an error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Final

from mj.calculator import CALCULATORS, InputError, calculate, parse_request

#: The most input read: a hand is a few hundred bytes, and nothing a file says is held unbounded.
MAX_INPUT: Final = 1 << 20


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sp = commands.add_parser(
        "score",
        help="score one hand given as JSON (score-json.md)",
        description="Score one winning hand: a JSON object on stdin or in FILE; readable text, or --json.",
    )
    sp.add_argument("file", nargs="?", help="the JSON input (default: stdin)")
    sp.add_argument(
        "--rules",
        metavar="NAME",
        help=f"the rule system ({', '.join(CALCULATORS)}), over the input's own (default: classical)",
    )
    sp.add_argument("--json", action="store_true", help="print score-json.md's output object")
    sp.set_defaults(run=run)


def _read(path: str | None) -> str:
    try:
        if path is None:
            text = sys.stdin.read(MAX_INPUT + 1)
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read(MAX_INPUT + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path or 'stdin'}: {exc}") from None
    if len(text) > MAX_INPUT:
        raise InputError(f"the input is over {MAX_INPUT} characters")
    return text


def run(args: argparse.Namespace) -> int:
    try:
        text = _read(args.file)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise InputError(f"the input is not JSON: {exc}") from None
        outcome = calculate(parse_request(data), args.rules)
    except InputError as exc:
        print(f"mj score: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(outcome.to_json()))
    else:
        print(outcome.text)
    return 0
