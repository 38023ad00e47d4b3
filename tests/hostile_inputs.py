"""Hostile requests at the documented size limits (issue 11), shared by tests and benchmarks/bench_hostile.py."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from ragaudit.requests import MAX_ANSWER_CHARS, MAX_QUESTION_CHARS, MAX_SOURCE_CHARS, MAX_SOURCES

NAMES = ["Lakeside", "Norwood", "Halvard", "Brixton", "Okafor", "Meridian", "Castell", "Vantor", "Ellery", "Quinlan"]
WORDS = [
    "plant",
    "opened",
    "employs",
    "people",
    "town",
    "river",
    "bridge",
    "company",
    "revenue",
    "grew",
    "percent",
    "council",
    "approved",
    "budget",
    "school",
    "students",
    "teachers",
    "hospital",
    "beds",
    "doctors",
    "museum",
    "visitors",
    "annual",
    "report",
    "stated",
    "increase",
    "decline",
]
Request = dict[str, object]


def prose(chars: int, seed: int) -> str:
    """Distinct factual sentences (names, years, figures) up to ``chars`` characters."""
    rng = random.Random(seed)
    out: list[str] = []
    n = 0
    while n < chars:
        w = rng.sample(WORDS, 6)
        s = (
            f"The {rng.choice(NAMES)} {w[0]} {w[1]} {rng.randint(1800, 2030)} and {w[2]} "
            f"{rng.randint(1, 10**5):,} {w[3]} in {w[4]} {w[5]}. "
        )
        out.append(s)
        n += len(s)
    return "".join(out)[:chars]


def fit(chunk: str, size: int, prefix: str = "") -> str:
    """``prefix`` and ``chunk`` repeated, cut to ``size`` characters."""
    return (prefix + chunk * (size // len(chunk) + 1))[:size]


def sources(total: int, count: int, seed: int = 0) -> list[dict[str, str]]:
    """``count`` prose sources of ``total`` characters together; their sentences share the answer's words."""
    return [{"id": str(k + 1), "text": prose(total // count, seed + k)} for k in range(count)]


def _json_wide() -> str:
    record = {f"Field{i}": f"value {i} of the Lakeside plant" for i in range(MAX_SOURCE_CHARS // 40)}
    text = json.dumps(record)
    return text[: text.rfind(",", 0, MAX_SOURCE_CHARS - 1)] + "}"


def _table() -> str:
    rows = ["| name | opened | staff |", "|---|---|---|"]
    rows += [f"| {NAMES[i % 10]} plant {i} | {1900 + i % 120} | {i * 7} |" for i in range(MAX_SOURCE_CHARS // 32)]
    return "\n".join(rows)[:MAX_SOURCE_CHARS]


ANSWER = MAX_ANSWER_CHARS
BASELINE = "baseline: benign, a tenth of the limits"
CASES: dict[str, Callable[[], Request]] = {
    BASELINE: lambda: {
        "answer": prose(ANSWER // 10, 99),
        "sources": sources(MAX_SOURCE_CHARS // 10, MAX_SOURCES // 10),
    },
    "benign at the limits (answer, 500 sources)": lambda: {
        "answer": prose(ANSWER, 99),
        "sources": sources(MAX_SOURCE_CHARS, MAX_SOURCES),
    },
    "answer at the limit, thousands of claims": lambda: {
        "answer": prose(ANSWER, 99),
        "sources": sources(20_000, 5),
    },
    "500 sources at the total limit": lambda: {
        "answer": prose(2_000, 99),
        "sources": sources(MAX_SOURCE_CHARS, MAX_SOURCES),
    },
    "one source of 2,000,000 characters": lambda: {
        "answer": prose(2_000, 99),
        "sources": sources(MAX_SOURCE_CHARS, 1),
    },
    "one sentence the size of the answer": lambda: {
        "answer": prose(ANSWER, 99).replace(". ", ", and ")[:ANSWER],
        "sources": sources(MAX_SOURCE_CHARS, MAX_SOURCES),
    },
    "citation markers in every sentence": lambda: {
        "answer": fit("The Lakeside plant opened in 1990 [1][2][3]. ", ANSWER),
        "sources": sources(MAX_SOURCE_CHARS, MAX_SOURCES),
    },
    "unclosed citation list": lambda: {
        "answer": fit(", 1", ANSWER, prefix="The Lakeside plant opened [1"),
        "sources": sources(MAX_SOURCE_CHARS, MAX_SOURCES),
    },
    "wide JSON source": lambda: {
        "answer": "The Lakeside plant has value 17. " * 50,
        "sources": [{"id": "1", "text": _json_wide()}],
    },
    "deeply nested JSON source": lambda: {
        "answer": "The Lakeside plant opened in 1990. " * 50,
        "sources": [{"id": "1", "text": "[" * (MAX_SOURCE_CHARS // 2) + "]" * (MAX_SOURCE_CHARS // 2)}],
    },
    "table source": lambda: {
        "answer": "The Lakeside plant 7 opened in 1907 and has 49 staff. " * 50,
        "sources": [{"id": "1", "text": _table()}],
    },
    "question at the limit, hundreds of asks": lambda: {
        "answer": prose(ANSWER, 99),
        "sources": sources(MAX_SOURCE_CHARS, MAX_SOURCES),
        "question": fit(
            " ".join(f"When did the {n} plant open, and how many people does it employ?" for n in NAMES),
            MAX_QUESTION_CHARS,
        ),
    },
    "one word repeated": lambda: {
        "answer": fit("plant ", ANSWER),
        "sources": [{"id": str(k), "text": fit("plant ", MAX_SOURCE_CHARS // 10)} for k in range(10)],
    },
}
