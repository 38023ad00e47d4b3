"""The worst inputs at the documented size limits: CPU seconds per audit, and the ratio to linear.

    python benchmarks/bench_hostile.py [--judge offline] [--cases "words;words"] [--write]

Each case is a request at the limits of SECURITY.md (answer 100,000 characters, sources 2,000,000
characters, 500 sources), built to be hostile: thousands of claims, sources at the total limit,
one sentence the size of the answer, dense citation markers, JSON sources wide or deeply nested,
a table, one repeated word. Each is audited once by a warm auditor with its own index cache, in
this process; the time is CPU time of the process (one core: the embedding model runs on one
thread), so other load on the machine does not count. ``linear`` is the time a benign request of
a tenth of the limits takes, scaled by size: a ratio over 1 grows faster than the input.
``--write`` puts the table into benchmarks/RESULTS.md (block ``hostile``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import replace_block
from ragaudit import Auditor
from ragaudit._cache import IndexCache
from ragaudit.requests import MAX_ANSWER_CHARS, MAX_SOURCE_CHARS, MAX_SOURCES

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
CASES: dict[str, Callable[[], Request]] = {
    "baseline: benign, a tenth of the limits": lambda: {
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
    "one word repeated": lambda: {
        "answer": fit("plant ", ANSWER),
        "sources": [{"id": str(k), "text": fit("plant ", MAX_SOURCE_CHARS // 10)} for k in range(10)],
    },
}


def size(request: Request) -> int:
    """Characters of the answer and the sources."""
    texts = request["sources"]
    assert isinstance(texts, list)
    return len(str(request["answer"])) + sum(len(s["text"]) for s in texts)


def run(judge: str, names: list[str]) -> list[tuple[str, int, float, float, int, str]]:
    """(case, characters, CPU seconds, wall seconds, claims, note) per case."""
    warm = Auditor(judge=judge, index_cache=IndexCache())
    warm.audit("Paris is in France.", ["Paris is in France."])  # loads the models
    rows = []
    for name in names:
        request = CASES[name]()
        auditor = Auditor(judge=judge, index_cache=IndexCache())
        wall, cpu = time.perf_counter(), time.process_time()
        report = auditor.audit(request)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rows.append((name, size(request), cpu, wall, len(report.claims), report.note or ""))
        print(f"{name}: {cpu:.2f} s CPU, {wall:.2f} s wall, {len(report.claims)} claims", file=sys.stderr, flush=True)
    return rows


def table(rows: list[tuple[str, int, float, float, int, str]], judge: str) -> str:
    """A Markdown table of the figures, with the ratio to the linear baseline."""
    base = rows[0][2] / rows[0][1]
    lines = [
        f"judge `{judge}`; CPU seconds of one audit (one core); linear: the baseline's time scaled by size",
        "",
        "| case | characters | CPU s | linear s | ratio | claims | budget note |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, chars, cpu, _, claims, note in rows:
        budget = "claims" * ("claims were checked" in note) + " sources" * ("budget: only" in note)
        lines.append(
            f"| {name} | {chars:,} | {cpu:.2f} | {base * chars:.2f} | {cpu / (base * chars):.2f} | {claims:,} "
            f"| {budget.strip() or '-'} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", default="offline")
    parser.add_argument("--cases", help="';'-separated parts of case names (the baseline always runs)")
    parser.add_argument("--write", action="store_true", help="write the table into RESULTS.md")
    args = parser.parse_args()
    names = list(CASES)
    if args.cases:
        wanted = [n.strip() for n in args.cases.split(";")]
        names = [names[0], *[n for n in names[1:] if any(w in n for w in wanted)]]
    out = table(run(args.judge, names), args.judge)
    print(out)
    if args.write:
        block = "hostile-" + args.judge.replace(":", "-")
        replace_block(block, out)


if __name__ == "__main__":
    main()
