"""``mj bench fuzz``: mutated lines of real games sent to one server, every one read, no crash, memory reported."""

from __future__ import annotations

import random
import re

import pytest

from mj.bench.fuzz import DEFAULT_CORPUS, MUTATIONS, Mutator, corpus_lines
from mj.cli import main
from mj.protocol.framing import LineDecoder, encode_line


def test_a_small_fuzz_run_reads_every_line_and_reports_no_crash(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "fuzz", "--lines", "5000", "--clients", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    sent = int(re.search(r"lines sent and read: ([\d,]+)", out)[1].replace(",", ""))  # type: ignore[index]
    errors = int(re.search(r"errors answered: ([\d,]+)", out)[1].replace(",", ""))  # type: ignore[index]
    assert sent >= 5000 and errors > sent // 2, "most mutated lines are refused"
    assert re.search(r"server memory \(RSS\): [\d,]+ kB after [\d,]+ lines, [\d,]+ kB at the end", out)
    assert out.rstrip().endswith("crashes: 0")


def test_mutations_are_of_real_lines_and_each_stays_one_logical_line() -> None:
    lines = corpus_lines(DEFAULT_CORPUS)
    assert len(lines) > 10_000 and any(line.startswith("Discard ") for line in lines)
    mutator = Mutator(lines, seed=3)
    texts = [mutator.line() for _ in range(3000)]
    assert sum(text not in lines for text in texts) > 1000, "most lines are changed"
    decoded = LineDecoder().feed(b"".join(encode_line(text) for text in texts))
    assert len(decoded) == len(texts)
    rng = random.Random(1)
    for mutation in MUTATIONS:
        assert isinstance(mutation(rng, "Discard 1B 0", mutator.tokens), str)
