"""The worst inputs at the documented size limits: CPU seconds per audit, and the ratio to linear.

    python benchmarks/bench_hostile.py [--judge offline] [--cases "words;words"] [--repeats 3] [--write]

Each case is a request at the limits of SECURITY.md (answer 100,000 characters, sources 2,000,000
characters, 500 sources, question 10,000 characters), built to be hostile: thousands of claims,
sources at the total limit, one sentence the size of the answer, dense citation markers, JSON
sources wide or deeply nested, a table, a question of hundreds of asks, one repeated word. Each is
audited once by a warm auditor with its own index cache, in this process; the time is CPU time of
the process (one core: the embedding model runs on one thread), so other load on the machine does
not count. ``linear`` is the time a benign request of a tenth of the limits takes, scaled by size:
a ratio over 1 grows faster than the input. numpy's BLAS runs on one thread unless
``OPENBLAS_NUM_THREADS`` says otherwise.
``--repeats N`` runs the whole list N times, each in a fresh process (every cache cold again), and
reports each case's median with the range: a shared VM's speed moves by a third between runs.
``--write`` puts the table into benchmarks/RESULTS.md (block ``hostile``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# One core, as the target says: numpy's BLAS otherwise starts a thread per core, and its spinning
# between the small matrix-vector products of an audit counts as CPU time of this process (up to
# 0.7 s of an audit on the shared 2-core machine). Set OPENBLAS_NUM_THREADS to measure otherwise.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from ragaudit import Auditor  # noqa: E402
from ragaudit._cache import IndexCache  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests")]
from _results import replace_block  # noqa: E402
from hostile_inputs import CASES, Request  # noqa: E402


def size(request: Request) -> int:
    """Characters of the answer, the sources and the question."""
    texts = request["sources"]
    assert isinstance(texts, list)
    return len(str(request["answer"])) + sum(len(s["text"]) for s in texts) + len(str(request.get("question") or ""))


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


Row = tuple[str, int, list[float], int, str]
"""(case, characters, CPU seconds of each run, claims, budget note)."""


def table(rows: list[Row], judge: str) -> str:
    """A Markdown table of the figures (medians over runs), with the ratio to the linear baseline."""
    base = statistics.median(rows[0][2]) / rows[0][1]
    runs = len(rows[0][2])
    lines = [
        f"judge `{judge}`; CPU seconds of one audit (one core; BLAS threads: {os.environ['OPENBLAS_NUM_THREADS']}); "
        + (f"median of {runs} runs, each in a fresh process (min–max); " if runs > 1 else "")
        + "linear: the baseline's time scaled by size",
        "",
        "| case | characters | CPU s | linear s | ratio | claims | budget note |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, chars, cpus, claims, note in rows:
        cpu = statistics.median(cpus)
        spread = f" ({min(cpus):.2f}–{max(cpus):.2f})" if len(cpus) > 1 else ""
        budget = "claims" * ("claims were checked" in note) + " sources" * ("budget: only" in note)
        lines.append(
            f"| {name} | {chars:,} | {cpu:.2f}{spread} | {base * chars:.2f} | {cpu / (base * chars):.2f} | {claims:,} "
            f"| {budget.strip() or '-'} |"
        )
    return "\n".join(lines)


def repeated(argv: list[str], repeats: int) -> list[Row]:
    """The same run ``repeats`` times, each in a fresh process, merged per case."""
    merged: dict[str, Row] = {}
    for k in range(repeats):
        done = subprocess.run(
            [sys.executable, __file__, *argv, "--json"], check=True, capture_output=True, text=True
        ).stdout
        for name, chars, cpus, claims, note in json.loads(done):
            old = merged.get(name)
            merged[name] = (name, chars, (old[2] if old else []) + cpus, claims, note)
        print(f"run {k + 1} of {repeats} done", file=sys.stderr, flush=True)
    return list(merged.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", default="offline")
    parser.add_argument("--cases", help="';'-separated parts of case names (the baseline always runs)")
    parser.add_argument("--repeats", type=int, default=1, help="runs, each in a fresh process; the median is shown")
    parser.add_argument("--write", action="store_true", help="write the table into RESULTS.md")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one run's rows, for --repeats
    args = parser.parse_args()
    names = list(CASES)
    if args.cases:
        wanted = [n.strip() for n in args.cases.split(";")]
        names = [names[0], *[n for n in names[1:] if any(w in n for w in wanted)]]
    if args.repeats > 1:
        rows = repeated(["--judge", args.judge, *(["--cases", args.cases] if args.cases else [])], args.repeats)
    else:
        rows = [(name, chars, [cpu], claims, note) for name, chars, cpu, _, claims, note in run(args.judge, names)]
    if args.json:
        print(json.dumps(rows))
        return
    out = table(rows, args.judge)
    print(out)
    if args.write:
        block = "hostile-" + args.judge.replace(":", "-")
        replace_block(block, out)


if __name__ == "__main__":
    main()
