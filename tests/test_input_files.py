"""Every file ``mj-server`` reads is checked before use: one line on stderr, exit status 2, no hang.

Each case runs the real server as a subprocess with a deadline and a cap on its
address space, so a file that made it block (a FIFO), read without end
(``/dev/zero``) or hold a huge file in memory fails the test instead of the machine.
The valid save these cases corrupt is a hand-history file of the reference games.
"""

from __future__ import annotations

import os
import re
import resource
import socket
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import ORIGINAL_SERVER, OUR_SERVER, require_original
from mj import tiles
from mj.inputfile import InputFileError, read_capped
from mj.outputfile import OutputFileError, check_replaceable, open_appending
from mj.protocol import cmsg as C
from mj.rules.options import GameOptions, OptionError, check_value
from mj.savefile import SaveFileError, parse_save
from mj.table import Table, TableSettings

VALID_SAVE = Path(__file__).parent / "data" / "reference" / "hand-history-seed31-hand-01.mjs"
MIDHAND_SAVE = VALID_SAVE.parent / "saved-game-midhand-seed21.mjs"
#: A file must be refused well within this; a hang is what it guards against.
DEADLINE = 5.0
#: Python, uvloop and our modules take well under this; /dev/zero or a 52 MB file held whole would not fit.
ADDRESS_SPACE = 1024 * 1024 * 1024


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_server(workdir: Path, *arguments: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*OUR_SERVER, "--server", "sock", *arguments],
        cwd=workdir,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=DEADLINE,
        check=False,
        preexec_fn=_limit_memory,
    )


def assert_refused(done: subprocess.CompletedProcess[bytes], reason: str) -> None:
    """Status 2, nothing on stdout (nothing listened), one line on stderr matching ``reason``."""
    err = done.stderr.decode(errors="replace")
    assert done.returncode == 2, err
    assert done.stdout == b"", "refused before listening"
    assert err.count("\n") == 1 and err.startswith("mj-server: "), err
    assert re.search(reason, err), err


def save_text() -> str:
    return VALID_SAVE.read_bytes().decode("latin-1")


def _replace_line(prefix: str, change: Callable[[list[str]], list[str]]) -> Callable[[str], str]:
    def corrupt(text: str) -> str:
        lines = text.split("\r\n")
        index = next(i for i, line in enumerate(lines) if line.startswith(prefix))
        lines[index] = " ".join(change(lines[index].split(" ")))
        return "\r\n".join(lines)

    return corrupt


def _set(field: int, value: str) -> Callable[[list[str]], list[str]]:
    return lambda words: [*words[:field], value, *words[field + 1 :]]


def _comment(text: str) -> Callable[[str], str]:
    """The save with the comment ``# text`` before its options, where saves write ``# CompletedRounds``."""
    return lambda save: save.replace("\r\nGameOption 0 Timeout ", f"\r\n# {text}\r\nGameOption 0 Timeout ", 1)


CORRUPT_SAVES = {
    "short wall": (_replace_line("Wall ", lambda w: w[:14]), "the wall has 13 tiles, the tile set has 144"),
    "wall of 143": (_replace_line("Wall ", lambda w: w[:-1]), "the wall has 143 tiles"),
    "wall of 145": (_replace_line("Wall ", lambda w: [*w, "1B"]), "the wall has 145 tiles"),
    "a fifth 1B": (_replace_line("Wall ", lambda w: ["Wall", "1B", *w[2:]]), "the wall has 5 of 1B"),
    "bad round wind": (_replace_line("Game ", _set(5, "X")), "the round is not a wind"),
    "first East no seat": (_replace_line("Game ", _set(7, "9")), r"first East \(9\) is not one of the seated"),
    "negative East count": (_replace_line("Game ", _set(6, "-1")), "East's hands"),
    "20-digit score": (_replace_line("Game ", _set(8, "9" * 20)), "a score is beyond"),
    "manager no seat": (_replace_line("Game ", _set(13, "7")), r"the manager \(7\)"),
    "negative timeout": (_replace_line("GameOption 0 Timeout ", _set(6, "-5")), "Can't set negative timeout!"),
    "huge NumRounds": (_replace_line("GameOption 0 NumRounds ", _set(6, "9" * 23)), "Number of rounds must be"),
    "NumRounds 104": (_replace_line("GameOption 0 NumRounds ", _set(6, "104")), "between 1 and 100"),
    "huge CompletedRounds": (_comment("CompletedRounds 77777777777"), "CompletedRounds .* must be below"),
    "negative CompletedRounds": (_comment("CompletedRounds     -3"), "completed rounds must be a whole number"),
    "CompletedRounds not a number": (_comment("CompletedRounds x"), "completed rounds must be a whole number"),
    # a keyword misspelt would be read as free text, and the game resume in another state
    "CompletedRounds misspelt": (
        _comment("Completedrounds      1"),
        r"line 6: unknown comment keyword 'Completedrounds' \(did you mean CompletedRounds\?\)$",
    ),
    "CompletedRounds singular": (
        _comment("CompletedRound 1"),
        r"line 6: unknown comment keyword 'CompletedRound' \(did you mean CompletedRounds\?\)$",
    ),
    "AfterDraw misspelt": (
        _comment("AfterDraws 1 BankerHands 2"),
        r"line 6: unknown comment keyword 'AfterDraws' \(did you mean AfterDraw\?\)$",
    ),
    # a comment of ours twice: which one holds is not known
    "CompletedRounds twice": (
        lambda text: _comment("CompletedRounds      1")(_comment("CompletedRounds      0")(text)),
        r"line 7: a second '# CompletedRounds' comment \(the first is line 6\): a save has one, so which holds",
    ),
    # the original never writes it, nor do we in a classical save: another system's save, or damage
    "AfterDraw in a classical save": (
        _comment("AfterDraw 0 BankerHands 0"),
        r"line 6: '# AfterDraw' in a save of the classical rules: only saves of rules the original cannot play",
    ),
    # a journal damaged inside its option list: the defaults would stand in for the rest
    "cut inside the option list": (
        lambda text: text[: text.index("GameOption 0 EastDoubles") + len("GameOption 0 EastDo")],
        "the option list has no End line",
    ),
    "an option line gone": (
        lambda text: re.sub(r"GameOption 0 NumRounds [^\r]*\r\n", "", text),
        "the option list lacks NumRounds:",
    ),
}


def test_the_valid_save_these_cases_corrupt_loads() -> None:
    """The guard for the cases below: each of them fails only for its corruption."""
    saved = parse_save(save_text())
    assert saved.wall is not None and len(saved.wall) == 144
    table = Table(TableSettings())
    table.load(save_text())
    assert table.game is not None and len(table.game.history) >= len(saved.history), "the whole hand replays"


@pytest.mark.parametrize("path", sorted(VALID_SAVE.parent.glob("*.mjs")), ids=lambda path: path.name)
def test_the_originals_own_save_files_load(path: Path) -> None:
    """Its garbage ``#`` comment (protocol.md §10.2) included: only a damaged list of options is refused."""
    text = path.read_bytes().decode("latin-1")
    table = Table(TableSettings())
    table.load(text)
    assert table.game is not None and table.game.history, "the hand in progress replays"


def _original_midhand_save(comment: str | None) -> str:
    """The original's save of a hand in progress, its garbage comment after the Game line replaced by
    ``# comment`` (``None``: deleted)."""
    lines = MIDHAND_SAVE.read_bytes().decode("latin-1").split("\r\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("# "))
    lines[index : index + 1] = [] if comment is None else [f"# {comment}"]
    return "\r\n".join(lines)


def _options_listed_on_loading(server: tuple[str, ...] | list[str], save: Path) -> bytes:
    """What ``server``, loading ``save``, answers its East's ``ListGameOptions 1``, from the Connect on."""
    workdir = save.parent
    process = subprocess.Popen(
        [*server, "--server", "sock", "--load-game", save.name, "--timeout", "0"],
        cwd=workdir,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == b"OK: sock\n"
        with socket.socket(socket.AF_UNIX) as client:
            client.settimeout(DEADLINE)
            client.connect(str(workdir / "sock"))
            client.sendall(b"Connect 1110 1 Robot1\r\nListGameOptions 1\r\n")
            answer = b""
            while b"GameOption 0 End " not in answer:
                received = client.recv(65536)
                assert received, f"the server closed the connection; it sent {answer!r}"
                answer += received
        return answer
    finally:
        process.kill()
        process.wait(timeout=DEADLINE)


def test_a_saved_option_without_a_description_takes_the_one_before_as_on_the_original(tmp_path: Path) -> None:
    """The original reads a save file's options as it reads an option file (one description buffer,
    :class:`mj.rules.options.DescriptionBuffer`): ScoreLimit, its text deleted, is listed with TimeoutGrace's."""
    require_original(ORIGINAL_SERVER)
    text = MIDHAND_SAVE.read_bytes().decode("latin-1")
    line = "GameOption 0 ScoreLimit nat 0 1 1000 limit on hand score"
    assert line in text
    answers = []
    for name, server in (("original", [ORIGINAL_SERVER]), ("ours", OUR_SERVER)):
        save = tmp_path / name / "g.mjs"
        save.parent.mkdir()
        save.write_bytes(text.replace(line, "GameOption 0 ScoreLimit nat 0 1 1000").encode("latin-1"))
        answers.append(_options_listed_on_loading(server, save))
    original, ours = answers
    assert b"ScoreLimit nat 0 1 1000 grace period when clients handle timeouts\r\n" in original
    assert ours == original


def test_a_save_of_a_hand_in_progress_without_its_rounds_comment_is_refused(tmp_path: Path) -> None:
    """Every save of a game in progress has a comment after its Game line (ours the count, the original's
    garbage); without one, the rounds already played are not known, and the game would play them again."""
    ours = Table(TableSettings())
    ours.load(_original_midhand_save("CompletedRounds      0"))
    assert ours.game is not None and ours.game.history, "the guard: as our server writes it, it loads"
    (tmp_path / "bad.mjs").write_bytes(_original_midhand_save(None).encode("latin-1"))
    assert_refused(
        run_server(tmp_path, "--load-game", "bad.mjs"),
        r"no '# CompletedRounds N' comment, .*the rounds already played are not known$",
    )


@pytest.mark.parametrize(
    "comment",
    ["", "saved after the tea break", "Afterwards we stopped", "After", "Completed 2 rounds so far", "Draw 3",
     "Rounds 2", "BankerHands", "\x01\x80\xad\xfb\xe6U"],
)  # fmt: skip
def test_free_text_comments_load_in_the_head_and_in_the_hand(comment: str) -> None:
    """A comment shaped as ours (a word, alone or before a number) is refused only if its word is close to one
    of ours; other text, the original's garbage among it, is a person's and changes nothing."""
    plain = Table(TableSettings())
    plain.load(MIDHAND_SAVE.read_bytes().decode("latin-1"))
    text = _original_midhand_save(comment).replace("\r\nWall ", f"\r\n# {comment}\r\nWall ")
    noted = Table(TableSettings())
    noted.load(text.replace("\r\nPlayerDiscards ", f"\r\n# {comment}\r\nPlayerDiscards ", 1))
    assert plain.game is not None and noted.game is not None
    assert [m.encode() for m in noted.game.history] == [m.encode() for m in plain.game.history]
    assert (noted.game.scores, noted.game.completed_rounds) == (plain.game.scores, plain.game.completed_rounds)


@pytest.mark.parametrize(
    ("junk", "quoted"),
    [("X" * 200_000, "unknown message keyword 'XXXX"), ("StopPlay " + "x" * 200_000, "history item 235 ('StopPlay xx")],
    ids=["unknown keyword", "history item"],
)
def test_a_huge_junk_line_is_refused_in_a_line_that_quotes_only_its_start(
    junk: str, quoted: str, tmp_path: Path
) -> None:
    (tmp_path / "bad.mjs").write_bytes((save_text() + junk + "\r\n").encode("latin-1"))
    done = run_server(tmp_path, "--load-game", "bad.mjs")
    assert_refused(done, re.escape(quoted) + r".*\.\.\. \(2000\d\d characters\)")
    assert len(done.stderr) < 400, "the quote is cut, not the 200 KB line"


@pytest.mark.parametrize("case", sorted(CORRUPT_SAVES), ids=str)
def test_a_corrupt_save_is_refused_in_one_line_with_status_2(case: str, tmp_path: Path) -> None:
    corrupt, reason = CORRUPT_SAVES[case]
    text = corrupt(save_text())
    assert text != save_text(), "precondition: the corruption applies"
    (tmp_path / "bad.mjs").write_bytes(text.encode("latin-1"))
    assert_refused(run_server(tmp_path, "--load-game", "bad.mjs"), reason)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("GameOption 0 Timeout nat 0 1 -5 time limit for claims", "Can't set negative timeout!"),
        ("GameOption 0 NumRounds nat 0 1 99999999999999999999999 number of rounds", "Number of rounds must be"),
        ("GameOption 0 NumRounds nat 0 1 400 number of rounds", "NumRounds must be between 1 and 100"),
        ("GameOption 0 TimeoutGrace nat 0 1 86400 grace", "TimeoutGrace must be between 0 and 3600"),
        ("GameOption 0 MahJongScore score 0 1 -20 base score", "MahJongScore must be between 0 and"),
    ],
)
def test_an_option_file_with_a_value_out_of_range_is_refused(line: str, reason: str, tmp_path: Path) -> None:
    (tmp_path / "x.opt").write_bytes(line.encode() + b"\r\n")
    assert_refused(run_server(tmp_path, "--option-file", "x.opt"), r"x\.opt:1: .*" + reason)


@pytest.mark.parametrize(
    ("rules", "line", "reason"),
    [
        ("ims", "GameOption 0 MinimumFan nat 0 1 1 minimum fan", "MinimumFan must be 0 or 2"),
        ("beijing", "GameOption 0 Unit nat 0 1 7 unit", "Unit must be between 1 and 2"),
        ("beijing", "GameOption 0 WallEnd nat 0 1 5 tiles left", "WallEnd must be"),
    ],
)
def test_an_option_file_is_checked_by_the_tables_rules(rules: str, line: str, reason: str, tmp_path: Path) -> None:
    """A value the rule system cannot play stops the server at once (it used to stop it at the first win)."""
    (tmp_path / "x.opt").write_bytes(line.encode() + b"\r\n")
    assert_refused(run_server(tmp_path, "--rules", rules, "--option-file", "x.opt"), r"x\.opt:1: .*" + reason)


def test_an_option_of_another_rule_system_is_ignored_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "x.opt").write_bytes(b"GameOption 0 NoLimit bool 0 1 1 no limit\r\n")
    server = subprocess.Popen(
        [*OUR_SERVER, "--server", "sock", "--rules", "ims", "--option-file", "x.opt"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert server.stdout is not None and server.stdout.readline().startswith(b"OK"), "the server plays on"
    finally:
        server.kill()
        _, err = server.communicate(timeout=DEADLINE)
    assert b"x.opt:1: unknown option NoLimit ignored (ims rules)" in err


@pytest.mark.parametrize("option", ["--load-game", "--option-file", "--wallfile"])
def test_a_fifo_is_refused_at_once_without_waiting_for_a_writer(option: str, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    assert_refused(run_server(tmp_path, option, "fifo"), "fifo: not a regular file")


@pytest.mark.parametrize("option", ["--logfile", "--journal"])
def test_a_fifo_as_log_or_journal_is_refused_at_once_and_left_a_fifo(option: str, tmp_path: Path) -> None:
    """Appending to a FIFO would wait for a reader; the journal, replaced by renaming, would replace the FIFO."""
    os.mkfifo(tmp_path / "fifo")
    assert_refused(run_server(tmp_path, option, "fifo"), r"fifo: not a regular file")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)


def test_a_fifo_being_read_is_refused_as_a_log_too(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    reader = os.open(tmp_path / "fifo", os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert_refused(run_server(tmp_path, "--logfile", "fifo"), r"fifo: not a regular file")
    finally:
        os.close(reader)


@pytest.mark.parametrize(("option", "path"), [("--logfile", "."), ("--logfile", "/dev/zero"), ("--journal", "socket")])
def test_a_log_or_journal_that_is_no_regular_file_is_refused(option: str, path: str, tmp_path: Path) -> None:
    """Not a socket, a directory or a device (a journal is replaced by renaming: over ``/dev/null``, for root)."""
    with socket.socket(socket.AF_UNIX) as bound:
        bound.bind(str(tmp_path / "socket"))
        before = os.stat(tmp_path / path).st_mode
        assert_refused(run_server(tmp_path, option, path), f"{re.escape(path)}: not a regular file")
        assert os.stat(tmp_path / path).st_mode == before


def test_the_null_device_is_a_log_that_costs_nothing_to_keep() -> None:
    """``mj bench fuzz`` logs there: it never blocks and holds nothing."""
    with open_appending(Path(os.devnull)) as log:
        log.write(b">cnx1 Error 0 Protocol error\r\n")
    with pytest.raises(OutputFileError, match="not a regular file"):
        check_replaceable(Path(os.devnull))


@pytest.mark.parametrize(
    ("option", "path", "reason"),
    [
        ("--logfile", "nowhere/log", "cannot open log file nowhere/log: No such file or directory$"),
        ("--journal", "nowhere/game.mjs", "cannot write the journal nowhere/game.mjs: No such file or directory$"),
        ("--journal", "-", "a journal is a file for --load-game to read, not the standard output"),
    ],
)
def test_a_log_or_journal_that_cannot_be_written_is_refused_in_one_line(
    option: str, path: str, reason: str, tmp_path: Path
) -> None:
    assert_refused(run_server(tmp_path, option, path), reason)
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("option", ["--load-game", "--option-file", "--wallfile"])
def test_dev_zero_is_refused_without_reading_it(option: str, tmp_path: Path) -> None:
    assert_refused(run_server(tmp_path, option, "/dev/zero"), "/dev/zero: not a regular file")


def test_an_oversized_comment_only_save_is_refused_unread(tmp_path: Path) -> None:
    line = b"# " + b"x" * 98 + b"\r\n"
    with (tmp_path / "big.mjs").open("wb") as file:
        for _ in range(52 * 1024 * 1024 // len(line) // 1000):
            file.write(line * 1000)
    assert_refused(run_server(tmp_path, "--load-game", "big.mjs"), r"big\.mjs: too big \(\d+ bytes")


@pytest.mark.parametrize(
    ("words", "reason"),
    [
        (["1B"] * 144, "the wall has 144 of 1B, the tile set has 4"),
        ([*map(tiles.code, tiles.full_set(True))][:-1], "wall file has 143 tiles"),
        ([*map(tiles.code, tiles.full_set(True)), "1B"], "wall file has 145 tiles"),
        (["ZZ"] * 144, "not a tile code"),
    ],
    ids=["one tile 144 times", "143 tiles", "145 tiles", "bad code"],
)
def test_a_wall_file_must_hold_exactly_the_tile_set(words: list[str], reason: str, tmp_path: Path) -> None:
    (tmp_path / "x.wall").write_text(" ".join(words) + "\n")
    assert_refused(run_server(tmp_path, "--wallfile", "x.wall"), reason)


def test_a_missing_file_is_refused_with_its_reason(tmp_path: Path) -> None:
    assert_refused(run_server(tmp_path, "--load-game", "missing.mjs"), "missing.mjs: No such file or directory")


def test_a_save_cut_off_mid_line_loads_up_to_its_last_whole_line() -> None:
    """A journal of a server killed mid-write ends in half a line: that line alone is lost."""
    text = _comment("CompletedRounds      0")(save_text())  # a journal, not a hand history: it counts the rounds
    whole = parse_save(text)
    assert isinstance(whole.history[-1], C.Settlement), "precondition: the last message spans several lines"
    for cut in (text[: text.rindex("North LOSES") + 5], text[: text.rindex("\r\nSettlement ") + 7]):
        assert parse_save(cut).history == whole.history[:-1]


def test_read_capped_refuses_what_is_not_a_regular_file_within_the_cap(tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.write_bytes(b"x" * 10)
    assert read_capped(small, 10) == b"x" * 10
    with pytest.raises(InputFileError, match="too big"):
        read_capped(small, 9)
    with pytest.raises(InputFileError, match="not a regular file"):
        read_capped(tmp_path, 10)


def test_client_options_and_files_share_one_range_per_option() -> None:
    """SetGameOption is checked by the same function: the original's texts first, then the bounds."""
    options = GameOptions()
    for name, text, error in [
        ("Timeout", "-5", "Can't set negative timeout!"),
        ("Timeout", "3601", "Timeout must be between 0 and 3600"),
        ("NumRounds", "99999999999999999999999", "Number of rounds must be 1, 2 or a multiple of 4"),
        ("NumRounds", "400", "NumRounds must be between 1 and 100"),
        ("Timeout", "9" * 5000, "Timeout must be between 0 and 3600"),
    ]:
        with pytest.raises(OptionError) as refused:
            options.set_from_text(name, text)
        assert str(refused.value) == error
        with pytest.raises(OptionError, match=re.escape(error)):
            check_value(name, int(text[:30]))
    assert options.set_from_text("NumRounds", "100").value == 100
    assert options.set_from_text("Timeout", "3600").value == 3600


def test_a_bad_save_is_a_save_file_error_not_an_exception_of_the_engine() -> None:
    text = _replace_line("Game ", _set(5, "X"))(save_text())
    with pytest.raises(SaveFileError, match="not a wind"):
        parse_save(text)
