"""The service against the local batch, same rows, same judge, same machine, one run.

    python benchmarks/bench_service.py [--rows 300] [--seconds 20] [--connections 4] [--db sqlite|postgresql]

1. Single-audit time: each of the first ``--rows`` RAGTruth rows audited once in this process by a
   warm auditor (one core); the median is the yardstick for the service's p99.
2. Local batch: the same rows repeated to ``--batch-rows`` through ``ragaudit audit --batch … --out
   x.parquet`` (one worker per core), rows/s end to end.
3. Service: ``ragaudit serve`` on 127.0.0.1 (audits in its process pool, audit trail in SQLite or
   PostgreSQL); wrk posts the same rows (rotating) to ``POST /v1/audits`` for ``--seconds`` with
   ``--connections`` connections; meanwhile a thread probes ``/healthz`` every 50 ms.

Needs Debian's wrk. Bounded in time; all traffic to 127.0.0.1. Writes benchmarks/results/service_<db>.json
and prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _load import ROOT, Server, database_url, lua_script, percentiles, require_wrk, run_wrk

DATA = ROOT.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"
RESULTS = Path(__file__).resolve().parent / "results"


def rows(n: int) -> list[dict[str, Any]]:
    out = []
    for line in DATA.open():
        row = json.loads(line)
        out.append({k: row[k] for k in ("id", "question", "answer", "sources")})
        if len(out) >= n:
            break
    return out


def single_audit_ms(requests: list[dict[str, Any]]) -> dict[str, float | None]:
    from ragaudit import Auditor

    auditor = Auditor()
    auditor.audit(requests[0])
    times = []
    for request in requests:
        t0 = time.perf_counter()
        auditor.audit(request)
        times.append((time.perf_counter() - t0) * 1000)
    return percentiles(times)


def local_batch(requests: list[dict[str, Any]], total: int, workdir: Path) -> dict[str, float]:
    source = workdir / "batch.jsonl"
    with source.open("w") as fh:
        for i in range(total):
            fh.write(json.dumps({**requests[i % len(requests)], "id": f"b{i}"}) + "\n")
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ragaudit", "audit", "--batch", str(source), "--out", str(workdir / "batch.parquet")],
        check=True,
        capture_output=True,
        timeout=1800,
    )
    seconds = time.perf_counter() - t0
    return {"rows": total, "seconds": round(seconds, 2), "rows_per_s": round(total / seconds, 1)}


def probe_healthz(url: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=url, timeout=5) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            client.get("/healthz").raise_for_status()
            out.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--batch-rows", type=int, default=3000)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    require_wrk()
    requests = rows(args.rows)
    load_before = os.getloadavg()
    single = single_audit_ms(requests)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        batch = local_batch(requests, args.batch_rows, workdir)
        server = Server(database_url(args.db, workdir), log=workdir / "serve.log").start()
        try:
            script = workdir / "rows.lua"
            lua_script(requests, server.admin_key, script)
            latencies: list[float] = []
            stop = threading.Event()
            prober = threading.Thread(target=probe_healthz, args=(server.url, stop, latencies))
            prober.start()
            service = run_wrk(server.url, script, args.seconds, args.connections)
            stop.set()
            prober.join()
        finally:
            server.stop()
    result = {
        "database": args.db,
        "rows": args.rows,
        "connections": args.connections,
        "seconds": args.seconds,
        "cpu_cores": len(os.sched_getaffinity(0)),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "single_audit_ms": single,
        "local_batch": batch,
        "service": service,
        "service_over_batch": round(service["audits_per_s"] / batch["rows_per_s"], 3),
        "p99_over_single_median": round(service["p99_ms"] / (single["median"] or float("nan")), 2),
        "healthz_ms": {"probes": len(latencies), **percentiles(latencies)},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"service_{args.db}.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
