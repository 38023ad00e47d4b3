"""The service against the local batch, same requests, same judge, same machine, one run.

    python benchmarks/bench_service.py [--request rows|fixed] [--rows 300] [--seconds 20]
                                       [--connections 2 4] [--db sqlite|postgresql] [--judge offline]

``--request rows`` posts the first ``--rows`` RAGTruth test rows, each once while they last (so no
audit is served from the caches a repeated row would warm); ``--request fixed`` posts one fixed
3-claim request (``benchmarks/load.py``), as the issue's first service figures did.

1. Single-audit time: one warm auditor in this process (one core) audits each row once, or the
   fixed request ``--fixed-repeats`` times; its median is the yardstick of the service's p99 and
   its p99 shows how much the requests themselves vary.
2. Local batch: the same requests through ``ragaudit audit --batch … --out x.parquet`` (one worker
   per core), rows/s as the CLI reports them (worker start included, interpreter start not) and end
   to end; ``--batch-rows`` rows: the first RAGTruth rows (default 384: six 64-row chunks, so the
   batch's last chunk does not leave a core idle for long), or copies of the fixed request (2,000).
3. Service, for each ``--connections``: a fresh ``ragaudit serve`` on 127.0.0.1 (audits in its
   process pool, audit trail in SQLite or PostgreSQL); wrk posts the requests in turn to
   ``POST /v1/audits`` for ``--seconds``; meanwhile a thread probes ``/healthz`` every 50 ms.

Needs Debian's wrk. Bounded in time; all traffic to 127.0.0.1. Writes
benchmarks/results/service_<db>_<request>.json and the matching block of RESULTS.md, and prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _load import ROOT, Server, children, cpu_seconds, database_url, lua_script, percentiles, require_wrk, run_wrk
from _results import replace_block
from load import REQUEST

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


def interleave(requests: list[dict[str, Any]], streams: int) -> list[dict[str, Any]]:
    """The same rows, with the answers of each ``streams`` consecutive documents dealt in turn.

    RAGTruth's consecutive rows share a document (their sources); dealt this way, consecutive
    requests are about different documents, as when several clients each audit answers about their
    own. Every row still appears once.
    """
    groups: list[list[dict[str, Any]]] = []
    for row in requests:
        if groups and groups[-1][0]["sources"] == row["sources"]:
            groups[-1].append(row)
        else:
            groups.append([row])
    out: list[dict[str, Any]] = []
    for first in range(0, len(groups), streams):
        dealt = groups[first : first + streams]
        for i in range(max(len(g) for g in dealt)):
            out += [g[i] for g in dealt if i < len(g)]
    return out


def single_audit_ms(requests: list[dict[str, Any]], judge: str) -> dict[str, Any]:
    from ragaudit import Auditor

    auditor = Auditor(judge)
    auditor.audit("The plant opened in 2012.", ["The plant opened in 2012."])  # models loaded
    times = []
    for request in requests:
        t0 = time.perf_counter()
        auditor.audit(request)
        times.append((time.perf_counter() - t0) * 1000)
    return {"audits": len(times), **percentiles(times)}


def local_batch(requests: list[dict[str, Any]], total: int, workdir: Path, judge: str) -> dict[str, float]:
    source = workdir / "batch.jsonl"
    with source.open("w") as fh:
        for i in range(total):
            fh.write(json.dumps({**requests[i % len(requests)], "id": f"b{i}"}) + "\n")
    t0 = time.perf_counter()
    out = workdir / "batch.parquet"
    done = subprocess.run(
        [sys.executable, "-m", "ragaudit", "audit", "--batch", str(source), "--out", str(out), "--judge", judge],
        check=True,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    seconds = time.perf_counter() - t0
    # The CLI's own figure leaves out the interpreter's start and imports (its pool's start stays in):
    # the higher of the two, so the stricter yardstick for the service.
    reported = re.search(r"audited \d+ row\(s\) in [\d.]+ s \(([\d,.]+) rows/s\)", done.stderr)
    return {
        "rows": total,
        "seconds": round(seconds, 2),
        "rows_per_s_end_to_end": round(total / seconds, 2),
        "rows_per_s": float(reported[1].replace(",", "")) if reported else round(total / seconds, 2),
    }


def probe_healthz(url: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=url, timeout=5) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            client.get("/healthz").raise_for_status()
            out.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.05)


def serve(db: str, workdir: Path, requests: list[dict[str, Any]], args: argparse.Namespace, c: int) -> dict[str, Any]:
    """One fresh server (empty caches), wrk with ``c`` connections, /healthz probed meanwhile."""
    folder = workdir / f"connections_{c}"
    folder.mkdir()
    server = Server(database_url(db, folder), log=workdir / "serve.log", env={"RAGAUDIT_JUDGE": args.judge}).start()
    try:
        script = workdir / "rows.lua"
        lua_script(requests, server.admin_key, script)
        latencies: list[float] = []
        stop = threading.Event()
        prober = threading.Thread(target=probe_healthz, args=(server.url, stop, latencies))
        prober.start()
        assert server.proc is not None
        http, workers = server.proc.pid, children(server.proc.pid)
        http0, audit0 = cpu_seconds(http), sum(cpu_seconds(w) for w in workers)
        service = run_wrk(server.url, script, args.seconds, c)
        http1, audit1 = cpu_seconds(http), sum(cpu_seconds(w) for w in workers)
        stop.set()
        prober.join()
        with server.client() as client:
            dispatch = dispatches(client.get("/metrics").text)
    finally:
        server.stop()
    return {
        "connections": c,
        **service,
        "healthz_ms": {"probes": len(latencies), **percentiles(latencies)},
        "dispatch": dispatch,
        # CPU per answered request: less moved by the other jobs on the machine than audits/s
        "http_process_cpu_ms": round(1000 * (http1 - http0) / max(1, service["requests"]), 1),
        "audit_processes_cpu_ms": round(1000 * (audit1 - audit0) / max(1, service["requests"]), 1),
    }


def indexed(dispatch: dict[str, int]) -> str:
    """The share of audits sent to a process that had their sources indexed ("n/a" before the counter)."""
    total = sum(dispatch.values())
    return f"{dispatch.get('indexed', 0)} of {total}" if total else "n/a"


def dispatches(metrics: str) -> dict[str, int]:
    """Audits sent to a process that had indexed their sources recently, and the others (``/metrics``)."""
    found = re.findall(r'^ragaudit_audit_dispatch_total\{sources="(\w+)"\} ([\d.e+]+)$', metrics, re.M)
    return {kind: int(float(value)) for kind, value in found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--request", choices=["rows", "fixed"], default="rows")
    parser.add_argument("--rows", type=int, default=300, help="distinct RAGTruth rows (--request rows)")
    parser.add_argument("--fixed-repeats", type=int, default=200, help="single audits of the fixed request")
    parser.add_argument("--batch-rows", type=int, help="default: 384 rows, or 2,000 fixed requests")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--judge", default="offline")
    parser.add_argument(
        "--interleave", type=int, default=1, help="rows: deal the answers of this many documents in turn"
    )
    args = parser.parse_args()
    require_wrk()
    fixed = args.request == "fixed"
    requests = [REQUEST] if fixed else interleave(rows(args.rows), args.interleave)
    load_before = os.getloadavg()
    single = single_audit_ms(requests * args.fixed_repeats if fixed else requests, args.judge)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if fixed:
            batch = local_batch(requests, args.batch_rows or 2000, workdir, args.judge)
        else:
            batch_rows = args.batch_rows or 384
            batch = local_batch(requests[:batch_rows], batch_rows, workdir, args.judge)
        runs = [serve(args.db, workdir, requests, args, c) for c in args.connections]
    for run in runs:
        run["service_over_batch"] = round(run["audits_per_s"] / batch["rows_per_s"], 3)
        run["p99_over_single_median"] = round(run["p99_ms"] / single["median"], 2)
        run["p99_over_single_p99"] = round(run["p99_ms"] / single["p99"], 2)
        run["rows_repeated"] = not fixed and run["requests"] > len(requests)
    name = args.request if args.interleave <= 1 else f"{args.request}-interleaved-{args.interleave}"
    result = {
        "database": args.db,
        "request": name,
        "judge": args.judge,
        "rows": len(requests),
        "seconds": args.seconds,
        "cpu_cores": len(os.sched_getaffinity(0)),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "single_audit_ms": single,
        "local_batch": batch,
        "service": runs,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"service_{args.db}_{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    what = "fixed 3-claim request" if fixed else f"{len(requests)} RAGTruth rows"
    if args.interleave > 1:
        what += f", {args.interleave} documents interleaved"
    lines = [
        "| database | requests | judge | connections | single audit median / p99 | batch rows/s | service audits/s "
        "| service / batch | p50 | p99 | p99 / single median | p99 / single p99 | non-2xx | /healthz median / p99 / max "
        "| sent where indexed | CPU ms per audit: audit / HTTP processes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        health = run["healthz_ms"]
        lines.append(
            f"| {args.db} | {what} | `{args.judge}` | {run['connections']} | {single['median']:.0f} / {single['p99']:.0f} ms "
            f"| {batch['rows_per_s']} | {run['audits_per_s']:.2f} | {run['service_over_batch']:.2f} "
            f"| {run['p50_ms']:.0f} ms | {run['p99_ms']:.0f} ms | {run['p99_over_single_median']:.1f} "
            f"| {run['p99_over_single_p99']:.1f} | {run['non_2xx']} "
            f"| {health['median']:.0f} / {health['p99']:.0f} / {health['max']:.0f} ms | {indexed(run['dispatch'])} "
            f"| {run['audit_processes_cpu_ms']:.0f} / {run['http_process_cpu_ms']:.1f} |"
            + (" rows repeated |" if run["rows_repeated"] else "")
        )
    lines.append(f"\nLoad average before/after: {result['load_average_before']} / {result['load_average_after']}.")
    replace_block(f"service-{args.db}-{name}", "\n".join(lines))


if __name__ == "__main__":
    main()
