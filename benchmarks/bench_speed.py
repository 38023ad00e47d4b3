"""Speed of the offline audit on RAGTruth: per-example latency on one core, and batch throughput.

    python benchmarks/bench_speed.py [--data ../shared/benchmarks/ragtruth/test.jsonl] [--every 5]

Latency: every example (or every k-th) audited by a fresh Auditor with the embedding cache emptied
first (nothing shared between examples: RAGTruth repeats each source for six answers), in this one
process, timed with perf_counter (and its CPU time, steadier on a shared machine). Pairs: (claim,
evidence window) pairs the verifier scored, per second of audit. Throughput: the same examples through `audit_stream` with one worker per core.
Prints a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import ragaudit.verify as verify
from ragaudit import Auditor
from ragaudit.batch import audit_stream, default_workers
from ragaudit.embed import _encoder
from ragaudit.requests import validate_request

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--every", type=int, default=1, help="audit every k-th example (a fixed spread)")
    parser.add_argument("--judge", default="offline")
    args = parser.parse_args()
    lines = [line for line in args.data.open() if line.strip()][:: args.every]
    requests = [validate_request(json.loads(line)) for line in lines]
    Auditor(args.judge).audit(requests[0])  # warm imports and the model file
    pairs = 0
    windows = verify.candidate_windows

    def counted(*a: Any, **k: Any) -> list[verify.Window]:
        nonlocal pairs
        found = windows(*a, **k)
        pairs += len(found)
        return found

    verify.candidate_windows = counted  # type: ignore[assignment]
    latencies = []
    cpu = []  # this process's CPU time: steadier than the wall clock on a machine shared with other jobs
    for request in requests:
        _encoder().cache.clear()
        t0, c0 = time.perf_counter(), time.process_time()
        Auditor(args.judge).audit(request)
        latencies.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    verify.candidate_windows = windows  # type: ignore[assignment]
    latencies.sort()
    workers = default_workers()
    t0 = time.perf_counter()
    n = sum(1 for _ in audit_stream(requests, workers=workers, judge=args.judge))
    batch_s = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "examples": len(requests),
                "judge": args.judge,
                "pairs_scored": pairs,
                "pairs_per_s": round(pairs / (sum(latencies) / 1000), 1),
                "latency_ms_median": round(statistics.median(latencies), 2),
                "latency_ms_p90": round(latencies[int(0.9 * len(latencies))], 2),
                "latency_ms_p99": round(latencies[int(0.99 * len(latencies))], 2),
                "latency_ms_max": round(latencies[-1], 2),
                "cpu_ms_median": round(statistics.median(cpu), 2),
                "cpu_ms_mean": round(statistics.fmean(cpu), 2),
                "batch_workers": workers,
                "batch_seconds": round(batch_s, 2),
                "batch_examples_per_s": round(n / batch_s, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
