"""Hostile inputs: each audit stage finishes in time linear in its input (issue 11, rows 1 and 7).

Times are compared with a benign input of the same size audited in the same run (a ratio, not
absolute seconds). A timer stops a run that would hang, so the old exponential code fails fast.
"""

from __future__ import annotations

import functools
import signal
import time
from collections.abc import Callable, Iterator
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


def fit(chunk: str, size: int = MAX_ANSWER_CHARS, prefix: str = "") -> str:
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
