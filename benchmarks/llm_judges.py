"""LLM judges against the offline judge: quality, LLM calls, tokens and time per audit.

    python benchmarks/llm_judges.py [--limit 100]   # RESULTS.md was made with --limit 20 (CPU time)

Data: the first N rows of the RAGTruth dev half (meta.hash_half == "dev"), and the project's own
hand-written cases (benchmarks/data/own_cases.jsonl). Judges: offline; Qwen2.5-Coder-1.5B
(Q4_K_M, llama.cpp server on 127.0.0.1, 2 CPU threads); cascade offline → Qwen at 0.85.
Reports are cached (benchmarks/out/llm_cache.db), so an interrupted run resumes.
Writes benchmarks/results/llm_judges.json and the table in RESULTS.md between its markers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ragaudit import evaluate as ev

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from _results import replace_block  # noqa: E402
from llm_server import LlamaServer, ensure_model  # noqa: E402

RAGTRUTH = ROOT.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"
OWN = ROOT / "benchmarks" / "data" / "own_cases.jsonl"


def measure(name: str, spec: str, examples: list[ev.Example], cache: Path) -> dict[str, object]:
    t0 = time.perf_counter()
    outcomes = ev.run(examples, judge=spec, workers=1, cache=cache)
    seconds = time.perf_counter() - t0
    result = ev.summarize(outcomes, [], name, [], resamples=300)
    calls = [c for o in outcomes for c in o.report.llm_calls if c.outcome != "cached"]
    n = len(outcomes)
    o = result.overall
    return {
        "judge": name,
        "n": n,
        "f1": o["f1"]["value"],
        "balanced_accuracy": o["balanced_accuracy"]["value"],
        "llm_calls_per_audit": round(len(calls) / n, 2),
        "tokens_per_audit": round(sum(c.input_tokens + c.output_tokens for c in calls) / n),
        "seconds_per_audit": round(sum(o.report.timings.total_ms for o in outcomes) / n / 1000, 2),
        "escalated_claims": sum(1 for o in outcomes for c in o.report.claims if c.escalation),
        "wall_seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    rag, _ = ev.load_examples([RAGTRUTH], limit=args.limit, where=["meta.hash_half=dev"])
    own, _ = ev.load_examples([OWN])
    cache = ROOT / "benchmarks" / "out" / "llm_cache.db"
    rows = []
    with LlamaServer(ensure_model("qwen"), threads=2) as qwen:
        qwen_spec = f"openai-compatible:{qwen.url}#qwen2.5-coder-1.5b?max_tokens=1500&timeout=300"
        for data_name, examples in (("own cases", own), (f"RAGTruth dev (first {args.limit})", rag)):
            for name, spec in (
                ("offline", "offline"),
                ("qwen-1.5b", qwen_spec),
                ("cascade offline→qwen", f"cascade:offline,{qwen_spec}"),
            ):
                row = {"data": data_name, **measure(name, spec, examples, cache)}
                print(json.dumps(row), flush=True)
                rows.append(row)
    (ROOT / "benchmarks" / "results" / "llm_judges.json").write_text(json.dumps(rows, indent=1) + "\n")
    table = "| data | judge | n | F1 | balanced acc. | LLM calls / audit | tokens / audit | s / audit | escalated claims |\n|---|---|---|---|---|---|---|---|---|\n"
    table += "\n".join(
        f"| {r['data']} | {r['judge']} | {r['n']} | {r['f1']:.3f} | {r['balanced_accuracy']:.3f} | {r['llm_calls_per_audit']} | "
        f"{r['tokens_per_audit']} | {r['seconds_per_audit']} | {r['escalated_claims']} |"
        for r in rows
    )
    replace_block("llm-judges", table)


if __name__ == "__main__":
    main()
