"""Where a service request's time and CPU go, apart from the audit itself.

    python benchmarks/bench_service_overhead.py [--requests 300] [--clients 2]

1. Dispatch: ``--clients`` concurrent callers send the fixed 3-claim request (``benchmarks/load.py``)
   to an audit pool of 2 processes, directly (no HTTP); for each audit, the wait from submission to
   the start of the audit in a worker, the wait from its end to the caller, and which worker ran it.
   With no more callers than workers, a wait is not queueing behind another audit (the dispatcher is
   work-conserving: the same sources go to both processes when both callers wait).
2. CPU per request: ``ragaudit serve`` (SQLite) answers ``--requests`` sequential fixed requests;
   CPU seconds of the HTTP process and of its audit processes (``/proc``), per request.
3. Source locality: CPU per audit of the first ``--rows`` RAGTruth test rows (consecutive rows share
   their sources: one document, several models' answers) in one process in file order, against
   two processes each taking every other row, as a pool's processes do when requests alternate.

Bounded; all traffic to 127.0.0.1. Prints JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _load import ROOT, Server, children, cpu_seconds, database_url, percentiles
from load import REQUEST

DATA = ROOT.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"


def _timed_audit(request: Any) -> tuple[int, float, float]:
    from ragaudit.service import pool

    start = time.monotonic()  # CLOCK_MONOTONIC: one clock for every process on Linux
    pool._audit_in_worker(request, None, None)
    return os.getpid(), start, time.monotonic()


async def dispatch(clients: int, total: int) -> dict[str, Any]:
    """Submission-to-start and end-to-caller waits of ``total`` audits from ``clients`` callers."""
    from ragaudit.config import AuditorConfig
    from ragaudit.models import AuditRequest
    from ragaudit.service.pool import AuditPool, sources_affinity

    audit_pool = AuditPool(AuditorConfig(), 2)
    await audit_pool.start()
    request = AuditRequest.model_validate(REQUEST)
    key = sources_affinity(request)
    waits: list[float] = []
    returns: list[float] = []
    workers: Counter[int] = Counter()

    async def caller() -> None:
        for _ in range(total // clients):
            submitted = time.monotonic()
            pid, start, end = await audit_pool.run(key, _timed_audit, request)
            returns.append((time.monotonic() - end) * 1000)
            waits.append((start - submitted) * 1000)
            workers[pid] += 1

    try:
        await asyncio.gather(*(caller() for _ in range(clients)))
    finally:
        audit_pool.close()
    return {
        "clients": clients,
        "submit_to_start_ms": percentiles(waits),
        "end_to_caller_ms": percentiles(returns),
        "audits_per_worker": sorted(workers.values()),
    }


def cpu_per_request(requests: int) -> dict[str, float]:
    """CPU milliseconds per sequential fixed request: the HTTP process and its audit processes."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(database_url("sqlite", Path(tmp)), log=Path(tmp) / "serve.log").start()
        try:
            assert server.proc is not None
            pid = server.proc.pid
            workers = children(pid)
            headers = {"Authorization": f"Bearer {server.admin_key}"}
            with httpx.Client(base_url=server.url, headers=headers, timeout=30) as client:
                for _ in range(10):
                    client.post("/v1/audits", json=REQUEST).raise_for_status()
                http0, audit0 = cpu_seconds(pid), sum(cpu_seconds(w) for w in workers)
                for _ in range(requests):
                    client.post("/v1/audits", json=REQUEST).raise_for_status()
                http1, audit1 = cpu_seconds(pid), sum(cpu_seconds(w) for w in workers)
        finally:
            server.stop()
    return {
        "requests": requests,
        "http_process_cpu_ms": round(1000 * (http1 - http0) / requests, 2),
        "audit_processes_cpu_ms": round(1000 * (audit1 - audit0) / requests, 2),
    }


def _audit_every(args: tuple[int, int, int]) -> float:
    from ragaudit import Auditor

    rows, part, step = args
    with DATA.open() as fh:
        requests = [json.loads(line) for _, line in zip(range(rows), fh, strict=False)]
    auditor = Auditor()
    auditor.audit("The plant opened in 2012.", ["The plant opened in 2012."])  # models loaded
    started = time.process_time()
    for row in requests[part::step]:
        auditor.audit({key: row[key] for key in ("id", "question", "answer", "sources")})
    return time.process_time() - started


def source_locality(rows: int) -> dict[str, float]:
    """CPU ms per audit: all rows in one process, in order; every other row in each of two processes."""
    context = multiprocessing.get_context("spawn")
    out = {}
    for step in (1, 2):
        with context.Pool(step) as pool:
            cpu = pool.map(_audit_every, [(rows, part, step) for part in range(step)])
        out[f"{step}_process_cpu_ms_per_audit"] = round(1000 * sum(cpu) / rows, 1)
    return {"rows": rows, **out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--rows", type=int, default=300)
    args = parser.parse_args()
    result = {
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "dispatch": asyncio.run(dispatch(args.clients, args.requests)),
        "cpu_per_request": cpu_per_request(args.requests),
        "source_locality": source_locality(args.rows),
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
