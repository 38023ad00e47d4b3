"""Speed of the offline audit on RAGTruth: per-example latency on one core, and batch throughput.

    python benchmarks/bench_speed.py [--data ../shared/benchmarks/ragtruth/test.jsonl]

Latency: every example audited by a fresh Auditor (no cache shared between examples) in this
one process, timed with perf_counter. Throughput: the whole file through `audit_stream` with one
worker per core. Prints a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from ragaudit import Auditor
from ragaudit.batch import audit_stream, default_workers
from ragaudit.requests import validate_request

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    requests = [validate_request(json.loads(line)) for line in args.data.open() if line.strip()]
    Auditor().audit(requests[0])  # warm imports and the model file
    latencies = []
    for request in requests:
        t0 = time.perf_counter()
        Auditor().audit(request)
        latencies.append((time.perf_counter() - t0) * 1000)
    latencies.sort()
    workers = default_workers()
    t0 = time.perf_counter()
    n = sum(1 for _ in audit_stream(requests, workers=workers))
    batch_s = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "examples": len(requests),
                "latency_ms_median": round(statistics.median(latencies), 2),
                "latency_ms_p90": round(latencies[int(0.9 * len(latencies))], 2),
                "latency_ms_p99": round(latencies[int(0.99 * len(latencies))], 2),
                "latency_ms_max": round(latencies[-1], 2),
                "batch_workers": workers,
                "batch_seconds": round(batch_s, 2),
                "batch_examples_per_s": round(n / batch_s, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
