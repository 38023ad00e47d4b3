"""The offline judge on every dataset's test file in ../shared/benchmarks, with 95% intervals.

    python benchmarks/run_offline.py [--bootstrap 1000]

Writes benchmarks/results/offline_<dataset>.json and rewrites the all-datasets table in
benchmarks/RESULTS.md (between its markers), plus docs/ragtruth-eval.html for RAGTruth.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from _results import replace_block
from ragaudit import evaluate as ev
from ragaudit.render import render_html

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT.parent / "shared" / "benchmarks"
OUT = ROOT / "benchmarks" / "results"


def cell(fig: dict[str, float]) -> str:
    return f"{fig['value']:.3f} ({fig['ci_low']:.3f}–{fig['ci_high']:.3f})"


def ragtruth_blocks(result: ev.EvalResult, examples: list[ev.Example]) -> None:
    """The RAGTruth per-task table and the dev/test-half table of RESULTS.md."""
    rows = [("overall", result.overall), *sorted(result.slices["task"].items())]
    table = "| slice | n | precision | recall | F1 | balanced acc. | AUROC | span P | span R | span F1 |\n|---|---|---|---|---|---|---|---|---|---|\n"
    table += "\n".join(
        f"| {name} | {m['n']} | "
        + " | ".join(
            f"{m[k]['value']:.3f}"
            for k in (
                "precision",
                "recall",
                "f1",
                "balanced_accuracy",
                "auroc",
                "span_precision",
                "span_recall",
                "span_f1",
            )
        )
        + " |"
        for name, m in rows
    )
    replace_block("ragtruth-tasks", table)
    halves = "| half | n | F1 | balanced acc. |\n|---|---|---|---|\n"
    for half, label in (("dev", "dev (tuned on)"), ("test", "test (never used for tuning)")):
        part = [e for e in examples if (e.raw.get("meta") or {}).get("hash_half") == half]
        m = ev.slice_metrics(ev.run(part), resamples=200)
        halves += f"| {label} | {m['n']} | {cell(m['f1'])} | {cell(m['balanced_accuracy'])} |\n"
    replace_block("ragtruth-halves", halves.rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", type=int, default=1000)
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    rows = []
    for folder in sorted(p for p in BENCHMARKS.iterdir() if p.is_dir()):
        test = folder / "test.jsonl"
        if not test.exists():
            continue
        t0 = time.perf_counter()
        examples, skipped = ev.load_examples([test])
        result = ev.summarize(
            ev.run(examples), [f"{folder.name}/test.jsonl"], "offline", skipped, resamples=args.bootstrap
        )
        seconds = time.perf_counter() - t0
        (OUT / f"offline_{folder.name}.json").write_text(json.dumps(result.as_dict(), indent=1) + "\n")
        if folder.name == "ragtruth":
            (ROOT / "docs" / "ragtruth-eval.html").write_text(render_html(result), encoding="utf-8")
            ragtruth_blocks(result, examples)
        o = result.overall
        has_spans = o["span_recall"]["value"] > 0 or any(e.gold_spans for e in examples)
        rows.append(
            f"| {folder.name} | {o['n']} | {o['positives'] / o['n']:.0%} | {cell(o['precision'])} | {cell(o['recall'])} | "
            f"{cell(o['f1'])} | {cell(o['balanced_accuracy'])} | {cell(o['auroc'])} | {cell(o['auprc'])} | "
            f"{cell(o['span_f1']) if has_spans else '–'} | {seconds:.0f} s |"
        )
        print(rows[-1], flush=True)
    table = (
        "| dataset (test file) | n | halluc. | precision | recall | F1 | balanced acc. | AUROC | AUPRC | span F1 | time |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows)
    )
    replace_block("all-datasets", table)


if __name__ == "__main__":
    main()
