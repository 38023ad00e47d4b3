"""The service's memory across many large requests, and /healthz while a worst-case audit runs.

    python benchmarks/bench_memory.py [--requests 100] [--kind varied|repeated] [--processes 1]

Starts ``ragaudit serve`` (default judge, SQLite in a temporary folder, ``--processes`` audit
processes), posts ``--requests`` synchronous audits of 1.4 MB of sources each (``varied``: distinct
sentences, a new text per request, so every cache sees new keys; ``repeated``: one sentence
repeated) and prints the resident memory of the whole process tree (the HTTP process plus its
audit processes, summed) every 10 requests. Then it probes ``/healthz`` every 50 ms for 15 s with
no audit running (on a loaded machine, scheduling alone delays probes), then while one audit at
the size limits runs, and prints median, p99 and slowest probe of each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from hostile_inputs import prose as varied_text  # noqa: E402
from processes import rss_mb  # noqa: E402
from ragaudit.requests import MAX_ANSWER_CHARS, MAX_SOURCE_CHARS  # noqa: E402
from service_helpers import Server  # noqa: E402


def probe(client: httpx.Client, stop: threading.Event, seconds: float = 900.0) -> list[float]:
    """Seconds of each ``/healthz`` call, one every 50 ms, until ``stop`` is set or ``seconds`` pass."""
    out: list[float] = []
    end = time.perf_counter() + seconds
    while not stop.is_set() and time.perf_counter() < end:
        t0 = time.perf_counter()
        client.get("/healthz", timeout=30)
        out.append(time.perf_counter() - t0)
        time.sleep(0.05)
    return out


def summary(times: list[float]) -> str:
    """Count, median, 99th percentile and slowest, in ms."""
    if not times:
        return "no probes"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{len(times)} probes, median {statistics.median(ordered) * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, slowest {ordered[-1] * 1000:.0f} ms"
    )


def request(i: int, kind: str) -> dict[str, object]:
    """One request with 1.4 MB of sources that no earlier request had."""
    if kind == "repeated":
        sentence = f"Plant {i} opened in {1900 + i % 100} and employs {i * 7} people on site {i}. "
        text = (sentence * (1_400_000 // len(sentence)))[:1_400_000]
    else:
        text = varied_text(1_400_000, i)
    return {"answer": f"The Lakeside plant opened in {1900 + i % 100}.", "sources": [{"id": "1", "text": text}]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--kind", choices=["varied", "repeated"], default="varied")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"RAGAUDIT_AUDIT_PROCESSES": str(args.processes)}
        srv = Server(f"sqlite:///{Path(tmp) / 'audits.db'}", log=Path(tmp) / "serve.log", env=env).start()
        try:
            assert srv.proc is not None
            print(f"started: RSS {rss_mb(srv.proc.pid):.0f} MB", flush=True)
            with srv.client() as c:
                slowest = 0.0
                for i in range(args.requests):
                    t0 = time.perf_counter()
                    r = c.post("/v1/audits", json=request(i, args.kind), timeout=600)
                    slowest = max(slowest, time.perf_counter() - t0)
                    assert r.status_code == 200, r.text[:300]
                    if i % 10 == 9 or i == args.requests - 1:
                        print(f"after {i + 1} requests: RSS {rss_mb(srv.proc.pid):.0f} MB", flush=True)
                print(f"slowest request: {slowest:.1f} s", flush=True)
                worst = {
                    "answer": varied_text(MAX_ANSWER_CHARS, 10**6),
                    "sources": [{"id": str(k), "text": varied_text(MAX_SOURCE_CHARS // 500, k)} for k in range(500)],
                }
                done = threading.Event()
                took: list[float] = []

                def audit() -> None:
                    t0 = time.perf_counter()
                    try:
                        with srv.client() as other:
                            other.post("/v1/audits", json=worst, timeout=900)
                    finally:
                        took.append(time.perf_counter() - t0)
                        done.set()

                quiet = probe(c, threading.Event(), seconds=15)
                print(f"/healthz with no audit running: {summary(quiet)}", flush=True)
                threading.Thread(target=audit, daemon=True).start()
                time.sleep(1.0)  # the request is parsed and in the audit process
                busy = probe(c, done)
                print(
                    f"worst-case audit {took[0]:.1f} s; /healthz during it: {summary(busy)}; "
                    f"RSS {rss_mb(srv.proc.pid):.0f} MB",
                    flush=True,
                )
        finally:
            srv.stop()


if __name__ == "__main__":
    main()
