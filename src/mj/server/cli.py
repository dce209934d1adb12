"""The ``mj-server`` command line: the original's options (protocol.md §11.1), then serve one table.

Options are checked before anything listens, so a mistyped value fails at once
with a message and status 1 (the original's status for a bad option) instead of
surfacing in the middle of a game. Files named by options (option file, wall
file, saved game, log) are read or opened here too, for the same reason.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final, NoReturn

import uvloop

from mj import tiles
from mj.argtypes import seconds, whole
from mj.inputfile import SAVE_FILE_CAP, SMALL_FILE_CAP, InputFileError, read_capped
from mj.outputfile import OutputFileError
from mj.protocol import cmsg as C
from mj.protocol.fields import ProtocolError
from mj.protocol.framing import ENCODING, MAX_LINE, LineDecoder
from mj.quoting import quoted
from mj.rules import registry
from mj.rules.options import DescriptionBuffer, GameOptions, OptionEntry, OptionError, check_value
from mj.rules.ruleset import Ruleset
from mj.server.address import DEFAULT_ADDRESS, Address, TcpAddress, parse_address
from mj.server.diskqueue import DiskQueue
from mj.server.guard import FIRST_DELAY, MAX_DELAY
from mj.server.journal import Journal
from mj.server.logwriter import LogWriter
from mj.server.saver import make_saver, write_atomically
from mj.server.transport import Limits, Server
from mj.table import MAX_CHAT, MAX_SAVE_NAMES, LoadError, SeededWalls, Table, TableSettings, save_file_name

#: The original accepts at most four ``--auth-basic`` entries, one per seat.
MAX_AUTH: Final = 4
#: The exit status for a file (option, wall, saved game; a log or journal not a regular file) that is refused:
#: one line on stderr says why.
BAD_FILE: Final = 2


class _Parser(argparse.ArgumentParser):
    """Exits with status 1 on a bad command line, as the original does (argparse would use 2)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


#: A whole number of at least 0: a seed, a pause, a timeout.
_natural: Final = whole(0)


def _timeout(text: str) -> int:
    """``--timeout``: the Timeout option's value, in its range."""
    value = _natural(text)
    try:
        check_value("Timeout", value)
    except OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _penalties(text: str) -> tuple[int, int, int]:
    """``N1,N2,N3``; missing trailing values are 0, as the manual says."""
    parts = text.split(",")
    if len(parts) > 3:
        raise argparse.ArgumentTypeError(f"at most three penalties: {text!r}")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"penalties must be integers N1,N2,N3: {text!r}") from None
    values += [0] * (3 - len(values))
    return values[0], values[1], values[2]


def _auth(text: str) -> tuple[int, str]:
    """``ID:PASSWORD``; an empty password lets that id in without one."""
    ident, sep, password = text.partition(":")
    try:
        player = int(ident)
    except ValueError:
        player = 0
    if not sep or player <= 0:
        raise argparse.ArgumentTypeError(f"expected ID:PASSWORD with a positive id: {text!r}")
    return player, password


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mj-server",
        description="Unix Mah-Jong server (protocol 1110): one table for four players.",
        allow_abbrev=False,
    )
    add = parser.add_argument
    add("--server", "--address", dest="server", default=DEFAULT_ADDRESS, metavar="ADDRESS",
        help="HOST:PORT (':PORT' = localhost) or a Unix socket path (default %(default)s)")  # fmt: skip
    add("--timeout", type=_timeout, default=15, metavar="SECONDS", help="claim time limit, 0 = none (default 15)")
    add("--pause", type=_natural, default=0, metavar="DECISECONDS", help="minimum delay between tile movements")
    add("--random-seats", action="store_true", help="seat players randomly")
    add("--id-order-seats", action="store_true", help="seat players in increasing id order")
    add("--disconnect-penalties", type=_penalties, default=(0, 0, 0), metavar="N1,N2,N3",
        help="with --end-on-disconnect: penalty mid-hand, at the end of a hand, at the end of a round")  # fmt: skip
    add("--end-on-disconnect", action="store_true", help="a disconnection ends the game gracefully")
    add("--exit-on-disconnect", action="store_true", help="a disconnection makes the server quit")
    add("--save-on-exit", action="store_true",
        help="save the game when quitting because of a disconnection, SIGTERM or SIGINT")  # fmt: skip
    add("--option-file", type=Path, metavar="FILE", help="GameOption lines applied to every new game")
    add("--load-game", type=Path, metavar="FILE", help="resume a saved game (.mjs)")
    add("--no-id-required", action="store_true", help="match unknown players to free seats when resuming")
    add("--no-manager", action="store_true", help="nobody may change the game options")
    add("--auth-basic", type=_auth, action="append", default=[], metavar="ID:PASSWORD",
        help="only listed ids may connect, with that password (up to 4 times)")  # fmt: skip
    add("--debug", action="store_true", help="enable debugging commands (SwapTile)")
    add("--logfile", metavar="FILE",
        help="append a protocol log to FILE, a regular file or /dev/null ('-' = standard output)")  # fmt: skip
    add("--hand-history", action="store_true", help="write hand-NN.mjs after every settled hand")
    add("--no-special-scores", action="store_true", help="flowers and seasons score nothing")
    add("--seed", type=_natural, default=0, metavar="N", help="random seed (0 = walls from a secret random key)")
    add("--wallfile", type=Path, metavar="FILE", help="use this wall for every hand (testing)")
    add("--original-quirks", action="store_true",
        help="reproduce mj-server 1.11's faults, to compare the servers (blank first --wallfile hand)")  # fmt: skip
    add("--nohist", action="store_true", help="keep no hand history (no resumption in mid-hand)")
    add("--http", metavar="HOST:PORT", help="also serve the browser client (HTTP and WebSocket) on HOST:PORT")
    add("--rules", default=registry.DEFAULT_NAME, metavar="NAME",
        help=f"the rule system: {', '.join(registry.names())} (default %(default)s)")  # fmt: skip
    add("--allow-host", action="append", default=[], metavar="NAME",
        help="with --http: also answer pages calling this machine NAME (besides its address, localhost)")  # fmt: skip
    add("--journal", type=Path, metavar="FILE",
        help="keep the game in FILE (a regular file) as it happens: a save file that --load-game resumes")  # fmt: skip
    _add_limit_arguments(parser)
    return parser


# ---------------------------------------------------------------------- connection limits


#: A connection limit: at least one connection may wait.
_positive: Final = whole(1)
#: A connection's time limit: from a millisecond to a day.
_seconds: Final = seconds(0.001, 86400)


def _add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The limits that keep idle, slow and guessing clients from locking the players out."""
    defaults = Limits()
    group = parser.add_argument_group(
        "limits that protect the players",
        "A connection is 'waiting' until the table accepts its Connect. When too many wait, the oldest "
        "waiting one is cut off to let the newcomer in, so a player can always come back. Failed "
        f"--auth-basic passwords make the next attempt from that address or for that id wait, "
        f"doubling from {FIRST_DELAY:g} s up to {MAX_DELAY:g} s. Lines longer than {MAX_LINE // 1024} KiB, "
        f"or more than {defaults.max_pending} unanswered lines, cut their client off. A player may send "
        f"{defaults.chat_burst} chat lines at once, then {defaults.chat_rate:g} a second, of at most {MAX_CHAT} "
        f"characters, and save {defaults.save_burst} times at once, then {defaults.save_rate:g} times a second, "
        f"under at most {MAX_SAVE_NAMES} names a game.",
    )
    add = group.add_argument
    add("--connect-timeout", type=_seconds, default=defaults.connect_timeout, metavar="SECONDS",
        help="cut off a connection whose Connect is not accepted within SECONDS (default %(default)g)")  # fmt: skip
    add("--line-timeout", type=_seconds, default=defaults.line_timeout, metavar="SECONDS",
        help="cut off a client not finishing a line SECONDS after starting it (default %(default)g)")  # fmt: skip
    add("--max-waiting", type=_positive, default=defaults.max_waiting, metavar="N",
        help="waiting connections in all (default %(default)d)")  # fmt: skip
    add("--max-waiting-per-address", type=_positive, default=defaults.max_waiting_per_address, metavar="N",
        help="waiting connections from one address, an IPv6 /64 (default %(default)d)")  # fmt: skip


def limits_from(args: argparse.Namespace) -> Limits:
    """The server's :class:`Limits` from the parsed options: room for every waiting connection and the players."""
    defaults = Limits()
    return Limits(
        max_connections=max(defaults.max_connections, args.max_waiting + 16),
        max_waiting=args.max_waiting,
        max_waiting_per_address=args.max_waiting_per_address,
        connect_timeout=args.connect_timeout,
        line_timeout=args.line_timeout,
    )


# ---------------------------------------------------------------------- files and settings


class OptionFileError(ValueError):
    """An option file whose option values are out of range; the message names the line."""


def read_option_file(path: Path, rules: Ruleset = registry.DEFAULT) -> tuple[OptionEntry, ...]:
    """The ``GameOption`` entries of an option file (protocol.md §5.5) for a table of ``rules``.

    The file holds controller messages framed as on the wire. Lines that are not
    GameOption messages, and options the rules do not have, are skipped with a
    warning, as the original skips lines it cannot apply; a missing final newline
    does not lose the last line. Values are checked as a client's ``SetGameOption``
    is, by the rules' own entries (:class:`OptionFileError`): a value the rules
    cannot play must stop the server before its first game, not at its first win.
    The file is read as :func:`~mj.inputfile.read_capped` allows (:class:`InputFileError`).
    """
    options = rules.new_options()
    text = read_capped(path, SMALL_FILE_CAP).decode(ENCODING)
    if not text.endswith("\n"):
        text += "\n"
    entries: list[OptionEntry] = []
    descriptions = DescriptionBuffer()
    for number, line in enumerate(LineDecoder(max_line=len(text) + 2).feed(text.encode(ENCODING)), start=1):
        if not line.strip():
            continue
        try:
            message = C.decode(line)
        except ProtocolError:
            print(f"+W+ {path}:{number}: cannot decode {quoted(line)}; line ignored", file=sys.stderr)
            continue
        if isinstance(message, C.GameOption):
            entry = descriptions.fill(message.entry)
            try:
                options.check_entry(entry)
            except OptionError as exc:
                raise OptionFileError(f"{path}:{number}: {entry.name}: {exc}") from None
            warning = options.apply_entry(entry)
            if warning is not None:
                print(f"+W+ {path}:{number}: {warning} ({rules.name} rules)", file=sys.stderr)
            entries.append(entry)
        elif not isinstance(message, C.Comment):
            print(f"+W+ {path}:{number}: only GameOption lines are applied; line ignored", file=sys.stderr)
    return tuple(entries)


def _reason(exc: OSError) -> str:
    """What went wrong with a file, without the temporary names the system call may have used."""
    return str(exc) if isinstance(exc, OutputFileError) or not exc.strerror else exc.strerror


def plays_flowers(entries: Sequence[OptionEntry], rules: Ruleset) -> bool:
    """Whether a table with these option-file entries plays flowers: the wall size a wall file must match."""
    options = GameOptions()
    for entry in entries:
        options.apply_entry(entry)
    return rules.flowers(options)


def build_settings(args: argparse.Namespace, rules: Ruleset = registry.DEFAULT) -> TableSettings:
    """The table's settings from parsed options; :class:`OSError` / :class:`ValueError` for bad files."""
    if len(args.auth_basic) > MAX_AUTH:
        raise ValueError(f"--auth-basic may be given at most {MAX_AUTH} times")
    option_entries = read_option_file(args.option_file, rules) if args.option_file else ()
    wall = (
        tiles.read_wall_file(args.wallfile, tiles.wall_size(plays_flowers(option_entries, rules)))
        if args.wallfile
        else None
    )
    seed = args.seed or int(time.time())
    return TableSettings(
        timeout=args.timeout,
        seed=seed,
        wall_file=wall,
        option_entries=option_entries,
        random_seats=args.random_seats,
        id_order_seats=args.id_order_seats,
        no_manager=args.no_manager,
        special_scores=not args.no_special_scores,
        debug=args.debug,
        end_on_disconnect=args.end_on_disconnect,
        exit_on_disconnect=args.exit_on_disconnect,
        save_on_exit=args.save_on_exit,
        disconnect_penalties=args.disconnect_penalties,
        no_id_required=args.no_id_required,
        auth_basic=dict(args.auth_basic),
        nohist=args.nohist,
        hand_history=args.hand_history,
        pause=args.pause,
        rules=rules,
        original_quirks=args.original_quirks,
    )


def _unseeded_walls(args: argparse.Namespace, settings: TableSettings) -> SeededWalls | None:
    """Walls from a secret key where neither ``--seed`` nor ``--wallfile`` says which (None: the table's own).

    The original seeds its generator from the clock at start: a player who knows roughly when the
    server started tries the few thousand seconds around it against her own dealt tiles, finds the
    seed at once, and knows every wall of the game. What is sent is the same either way.
    """
    if args.seed or settings.wall_file is not None:
        return None
    return SeededWalls(tiles.KeyedRandom(secrets.token_bytes(tiles.KEY_BYTES)), None, settings.original_quirks)


def _load_game(table: Table, path: Path) -> None:
    """``--load-game``: the saved game becomes the table's; later saves default to its name.

    Whatever the file holds ends in :class:`InputFileError` or :class:`LoadError`: a
    file whose checked fields still trip the engine is a bad file, not a server bug
    to show as a traceback.
    """
    text = read_capped(path, SAVE_FILE_CAP).decode(ENCODING)
    try:
        table.load(text)
    except LoadError as exc:
        raise LoadError(f"{exc}{_rules_hint(text, table.settings.rules)}") from None
    except Exception as exc:
        hint = _rules_hint(text, table.settings.rules)
        raise LoadError(f"the rules cannot play this file ({type(exc).__name__}: {exc}){hint}") from None
    table.save_name = save_file_name(path.name)


def _rules_hint(text: str, rules: Ruleset) -> str:
    """Where a save file's options are another rule system's (a file does not name its system), which to try.

    A journal of an IMS game loaded without ``--rules ims`` fails on its history; the
    option names it holds say which system wrote it.
    """
    names = {line.split()[2] for line in text.splitlines() if line.startswith("GameOption ") and len(line.split()) > 2}
    if not names or names <= _option_names(rules):
        return ""
    for name in registry.names():
        try:
            other = registry.get(name)
        except registry.RulesError:
            continue
        if names <= _option_names(other):
            return f" (its options are those of the {name} rules: try --rules {name})"
    return ""


def _option_names(rules: Ruleset) -> set[str]:
    return {entry.name for entry in rules.new_options().entries()}


def say(text: str) -> None:
    """Write to standard output at once; a reader that went away (xmj reads only the OK line) is no error."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # nobody listens any more: send the rest, and Python's final flush, to /dev/null
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except ValueError:
        pass  # standard output was closed


async def serve(
    table: Table,
    address: Address,
    announce: str,
    log: LogWriter | None,
    http: TcpAddress | None = None,
    allow_hosts: Sequence[str] = (),
    limits: Limits | None = None,
) -> int:
    """Listen, print ``OK: ADDRESS`` (§1.1), run the table; the exit status.

    With ``http``, the browser client is served there too (after the OK line, which
    stays the first line printed): its gateway joins this table as any client does.
    """
    server = Server(table, log, limits)
    try:
        await server.start(address)
    except OSError as exc:
        say("FAILED: couldn't set up socket\n")
        print(f"mj-server: {announce}: {exc}", file=sys.stderr)
        return 1
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before the OK line: a signal sent on reading it stops us cleanly
        loop.add_signal_handler(signum, server.stop)
    bound = server.tcp_address
    if isinstance(address, TcpAddress) and address.port == 0 and bound is not None:
        announce = f"{address.host}:{bound.port}"  # port 0: say which port the system chose
    say(f"OK: {announce}\n")
    web_runner = None
    if http is not None:
        from mj.web.app import serve_table

        try:
            web_runner, url = await serve_table(address, bound, http, table.settings.rules, allow_hosts)
        except OSError as exc:
            print(f"mj-server: cannot serve the browser client on {http.host}:{http.port}: {exc}", file=sys.stderr)
            return 1
        say(f"HTTP: {url}\n")
    try:
        return await server.run()
    finally:
        if web_runner is not None:
            await web_runner.cleanup()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        address = parse_address(args.server)
    except ValueError as exc:
        parser.error(f"argument --server: {exc}")
    try:
        http = parse_address(args.http) if args.http else None
    except ValueError as exc:
        parser.error(f"argument --http: {exc}")
    if http is not None and not isinstance(http, TcpAddress):
        parser.error(f"argument --http: expected HOST:PORT, not {args.http!r}")
    try:
        rules = registry.get(args.rules)
    except registry.RulesError as exc:
        print(f"mj-server: --rules: {exc}", file=sys.stderr)
        return 2
    try:
        settings = build_settings(args, rules)
    except (InputFileError, OptionFileError, tiles.WallFileError) as exc:
        print(f"mj-server: {exc}", file=sys.stderr)
        return BAD_FILE
    except (OSError, ValueError) as exc:
        print(f"mj-server: {exc}", file=sys.stderr)
        return 1
    saves = DiskQueue(write_atomically)  # issue 17: saves are written off the event loop
    table = Table(settings, walls=_unseeded_walls(args, settings), saver=make_saver(Path.cwd(), saves.write))
    if args.load_game is not None:
        try:
            _load_game(table, args.load_game)
        except InputFileError as exc:
            print(f"mj-server: cannot load game: {exc}", file=sys.stderr)
            return BAD_FILE
        except LoadError as exc:
            print(f"mj-server: cannot load game from {args.load_game}: {exc}", file=sys.stderr)
            return BAD_FILE
    try:
        log = LogWriter.open(args.logfile) if args.logfile else None
    except OSError as exc:
        print(f"mj-server: cannot open log file {args.logfile}: {_reason(exc)}", file=sys.stderr)
        return BAD_FILE
    try:
        journal = Journal.start(args.journal, table) if args.journal else None
    except OSError as exc:
        if log is not None:
            log.close()
        print(f"mj-server: cannot write the journal {args.journal}: {_reason(exc)}", file=sys.stderr)
        return BAD_FILE
    try:
        # uvloop: asyncio's loop written in C (on libuv), a fraction of the CPU per wake-up of a busy table
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            limits = limits_from(args)
            served = serve(table, address, args.server, log, http, allow_hosts=args.allow_host, limits=limits)
            status = runner.run(served)
        if status == 0 and table.exit_status is None:  # stopped by SIGTERM or SIGINT, not by the game
            saved = table.save_on_exit()  # before the files are closed below
            if saved is not None:
                print(f"mj-server: stopped by a signal; the game is saved in {saved}", file=sys.stderr)
    finally:
        saves.close()  # every save queued, --save-on-exit's too, is on disk before we exit
        if log is not None:
            log.close()
        if journal is not None:
            journal.close()
    scores = table.final_scores()
    if scores is not None:
        say(scores if scores.endswith("\n") else scores + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
