"""Hostile inputs: each audit stage finishes in time linear in its input (issue 11, rows 1 and 7).

Times are compared with a benign input of the same size audited in the same run (a ratio, not
absolute seconds). A timer stops a run that would hang, so the old exponential code fails fast.
"""

from __future__ import annotations

import functools
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest

from ragaudit import Auditor
from ragaudit.requests import MAX_ANSWER_CHARS
from ragaudit.segment import segment

RATIO_LIMIT = 6.0
"""Hostile vs benign input of the same length; quadratic paths were 50-1000x."""


class _Hung(Exception):
    pass


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _Hung


@pytest.fixture(autouse=True)
def _alarm() -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def timed(run: Callable[[], object], budget: float = 20.0) -> float:
    """Best of two runs, in seconds; fails the test when a run passes ``budget`` (a hang)."""
    best = float("inf")
    for _ in range(2):
        signal.setitimer(signal.ITIMER_REAL, budget)
        t0 = time.perf_counter()
        try:
            run()
        except _Hung:
            pytest.fail(f"did not finish in {budget}s")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        best = min(best, time.perf_counter() - t0)
    return best


SIZE = MAX_ANSWER_CHARS // 2
"""Half the answer limit: long enough to show quadratic growth (50x and more), quick when linear."""


def fit(chunk: str, size: int = SIZE, prefix: str = "") -> str:
    """``prefix`` and ``chunk`` repeated, cut to ``size`` characters."""
    return (prefix + chunk * (size // len(chunk) + 1))[:size]


BENIGN = fit("The plant opened in 2012 and it employs many people in the town. ")

HOSTILE = {
    "unclosed citation list (row 1)": fit(", 1", prefix="[1"),
    "unclosed S-citation list (row 7)": fit(" and S1", prefix="Cats are big [S1"),
    "many coordinations (row 7)": fit(", and it ", prefix="Cats are big"),
    "unclosed source parentheses (row 7)": fit("(source 1 and "),
    "whitespace run": fit(" ", prefix="Cats are big ") + "and it is.",
    "newline run": fit("\n", prefix="Cats are big ") + "x",
    "citation then spaces": fit("  ", prefix="Cats are big [1 ,"),
    "many cited sentences (row 7)": fit("Cats are big [1]. "),
    "many markers in one sentence": fit(" [1]", prefix="Cats are big"),
    "footnote-like digits": fit("a.1 "),
}


@functools.cache
def benign_segment_time() -> float:
    """Seconds to segment the benign answer (once per run)."""
    return timed(lambda: segment(BENIGN))


@pytest.mark.parametrize("name", list(HOSTILE))
def test_segmenting_hostile_answers_is_linear(name: str) -> None:
    base = benign_segment_time()
    took = timed(lambda: segment(HOSTILE[name]))
    assert took <= max(RATIO_LIMIT * base, 0.05), f"{name}: {took:.2f}s vs {base:.2f}s for benign text"


@pytest.mark.parametrize(
    "name", ["unclosed citation list (row 1)", "unclosed S-citation list (row 7)", "many coordinations (row 7)"]
)
def test_auditing_hostile_answers_is_linear(name: str) -> None:
    auditor = Auditor()
    sources = [{"id": "1", "text": "The plant opened in 2012."}, {"id": "S1", "text": "Cats are big."}]
    size = 20_000  # the whole pipeline: a fifth of the limit keeps the test quick
    base = timed(lambda: auditor.audit({"answer": BENIGN[:size], "sources": sources}))
    took = timed(lambda: auditor.audit({"answer": HOSTILE[name][:size], "sources": sources}))
    assert took <= max(RATIO_LIMIT * base, 0.05), f"{name}: {took:.2f}s vs {base:.2f}s for benign text"


# --- row 6: inputs that crashed the CLI with a traceback ------------------------------------
def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "ragaudit", *args], capture_output=True, timeout=300)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


GOOD_LINE = json.dumps({"id": "good", "answer": "Paris is big.", "sources": [{"id": "1", "text": "Paris is big."}]})
CRASHERS = {
    "lone surrogate": (
        '{"answer": "Paris \\ud800 is big.", "sources": [{"id": "1", "text": "Paris"}]}',
        2,
        "surrogate",
    ),
    "309+ digit number": (
        json.dumps(
            {"answer": f"It has {'9' * 400} people.", "sources": [{"id": "1", "text": f"It has {'9' * 500}.5 people."}]}
        ),
        0,
        "",
    ),
    "citation with 5,000 digits": (
        json.dumps({"answer": f"Paris is big [{'9' * 5000}].", "sources": [{"id": "1", "text": "Paris is big."}]}),
        0,
        "",
    ),
    "deeply nested JSON source": (
        json.dumps({"answer": "Paris is big.", "sources": [{"id": "1", "text": "[" * 50_000 + "]" * 50_000}]}),
        0,
        "",
    ),
    "deeply nested request": (
        '{"answer": "x", "sources": ' + "[" * 50_000 + "]" * 50_000 + "}",
        2,
        "nested too deeply",
    ),
    "huge integer": ('{"answer": "x", "id": ' + "9" * 5000 + ', "sources": [{"id": "1", "text": "a"}]}', 2, "digits"),
}


@pytest.mark.parametrize("name", list(CRASHERS))
def test_hostile_request_gives_a_report_or_one_line_exit_2(name: str, tmp_path: Path) -> None:
    content, code, message = CRASHERS[name]
    path = tmp_path / "request.json"
    path.write_text(content, encoding="utf-8")
    proc = run_cli("audit", str(path))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == code, proc.stderr[-500:]
    if code == 2:
        assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    else:
        assert json.loads(proc.stdout)["claims"]


def test_batch_audits_every_good_line_between_hostile_ones(tmp_path: Path) -> None:
    lines = [GOOD_LINE]
    for content, _, _ in CRASHERS.values():
        lines += [content, GOOD_LINE]
    batch = tmp_path / "mixed.jsonl"
    batch.write_bytes("\n".join(lines).encode() + b"\n\xff\xfe not utf-8\n" + GOOD_LINE.encode())
    out = tmp_path / "reports.jsonl"
    proc = run_cli("audit", "--batch", str(batch), "--out", str(out), "--workers", "2")
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 0, proc.stderr[-500:]
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    good = sum(1 for content, code, _ in CRASHERS.values() if code == 0)
    assert ids.count("good") == len(CRASHERS) + 2
    assert len(ids) == len(CRASHERS) + 2 + good
    assert "mixed.jsonl:" in proc.stderr  # each bad line is reported with its place


# --- row 12: unchecked CLI parameters and files -----------------------------------------------
LABELLED = [
    {
        "id": "a",
        "answer": "The plant opened in 2010.",
        "sources": [{"id": "1", "text": "The plant opened in 2012."}],
        "label": "hallucinated",
        "spans": [{"start": 0, "end": 25}],
    },
    {
        "id": "b",
        "answer": "The plant opened in 2012.",
        "sources": [{"id": "1", "text": "The plant opened in 2012."}],
        "label": "faithful",
        "spans": [],
    },
]
BAD_SPANS = [{"start": "x"}], [{"start": 0, "end": 10_000_000}], [{"start": 5, "end": 2}], "bad", [[0, 3]]


def test_eval_skips_rows_with_malformed_or_huge_gold_spans(tmp_path: Path) -> None:
    rows = LABELLED + [{**LABELLED[0], "id": f"bad{i}", "spans": spans} for i, spans in enumerate(BAD_SPANS)]
    data = tmp_path / "gold.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    proc = run_cli("eval", str(data), "--bootstrap", "10", "--workers", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr[-500:]
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("row skipped") == len(BAD_SPANS)
    assert json.loads(proc.stdout)["overall"]["n"] == 2


@pytest.mark.parametrize(
    "args",
    [
        ["eval", "{gold}", "--bootstrap", "0"],
        ["gate", "{gold}", "--policy", "{policy}"],
        ["log", "prune", "--older-than", "99999999999d", "--db", "sqlite:///{tmp}/a.db"],
    ],
)
def test_bad_parameters_exit_2_without_a_traceback(args: list[str], tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(json.dumps(r) for r in LABELLED) + "\n")
    policy = tmp_path / "policy.toml"
    policy.write_bytes(b'name = "\xff"\n')
    proc = run_cli(*(a.format(gold=gold, policy=policy, tmp=tmp_path) for a in args))
    assert proc.returncode == 2, proc.stderr[-500:]
    assert "Traceback" not in proc.stderr and proc.stderr.strip()


def test_source_conflicts_scale_linearly_with_the_number_of_sources() -> None:
    """Every pair of matching sources was compared: 10x the sources cost 100x the time."""
    auditor = Auditor()
    answer = "The Lakeside plant opened in 2010 and employs 1,200 people. " * 5

    def request(n: int) -> dict[str, object]:
        texts = [f"The Lakeside plant opened in {1900 + i % 120} and employs {i + 5} people." for i in range(n)]
        return {"answer": answer, "sources": [{"id": str(i), "text": t} for i, t in enumerate(texts)]}

    few, many = request(50), request(500)
    base = timed(lambda: auditor.audit(few))
    took = timed(lambda: auditor.audit(many))
    assert took <= max(3 * 10 * base, 0.5), f"500 sources: {took:.2f}s vs {base:.2f}s for 50"
