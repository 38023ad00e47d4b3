"""Load benchmark of `ragaudit serve` on 127.0.0.1: sustained sync audits, and an async burst
across a kill and restart of the server (no audit may be lost).

    python benchmarks/load.py [--seconds 20] [--connections 4] [--db sqlite|postgresql] [--burst 200]

Needs Debian's wrk (apt-get install wrk). Every loop is bounded in time and count, and all
traffic goes to 127.0.0.1. Prints a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from service_helpers import PG_URL, Server, reset_postgres  # noqa: E402

REQUEST = {
    "question": "When did the plant open and how many people work there?",
    "answer": "The Lakeside plant opened in 2010. It employs about 1,200 people, most of them on two shifts. "
    "The plant was built by Norsk Hydro.",
    "sources": [
        {"id": "1", "text": "The Lakeside aluminium plant opened in 2012 after three years of construction."},
        {"id": "2", "text": "Today the plant employs 1200 people. Most of them work on one of two shifts."},
    ],
}


def wrk(url: str, key: str, seconds: int, connections: int, workdir: Path) -> dict[str, float]:
    script = workdir / "post.lua"
    body = json.dumps(REQUEST).replace("\\", "\\\\").replace("'", "\\'")
    script.write_text(
        "wrk.method = 'POST'\n"
        f"wrk.body = '{body}'\n"
        "wrk.headers['Content-Type'] = 'application/json'\n"
        f"wrk.headers['Authorization'] = 'Bearer {key}'\n"
    )
    out = subprocess.run(
        [
            "wrk",
            "-t",
            "1",
            "-c",
            str(connections),
            "-d",
            f"{seconds}s",
            "--latency",
            "--timeout",
            "10s",
            "-s",
            str(script),
            url + "/v1/audits",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 30,
        check=True,
    ).stdout

    def ms(label: str) -> float:
        m = re.search(rf"{label}\s+([\d.]+)(us|ms|s)", out)
        if not m:
            return float("nan")
        return float(m[1]) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m[2]]

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "audits_per_s": float(rps[1]) if rps else 0.0,
        "p50_ms": ms("50%"),
        "p99_ms": ms("99%"),
        "non_2xx": int(non2xx[1]) if non2xx else 0,
    }


def burst(server: Server, n: int, log: Path, db: str) -> dict[str, int]:
    """Submit n async audits, kill the server half-way, restart it, and count what got recorded."""
    ids = []
    with server.client() as c:
        for i in range(n):
            r = c.post("/v1/audits?mode=async", json={**REQUEST, "trace_id": f"burst-{i}"})
            r.raise_for_status()
            ids.append(r.json()["id"])
            if i == n // 2:
                server.kill()
                server = Server(db, log=log).start()
                c.base_url = server.url  # type: ignore[assignment]
    deadline = time.monotonic() + 120
    with server.client() as c:
        pending = set(ids)
        while pending and time.monotonic() < deadline:
            pending = {i for i in pending if c.get(f"/v1/audits/{i}").json()["state"] != "done"}
            time.sleep(0.5)
    server.stop()
    return {"submitted": n, "recorded": n - len(pending), "lost": len(pending)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--burst", type=int, default=200)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if args.db == "postgresql":
            if not reset_postgres():
                sys.exit("PostgreSQL is not running on 127.0.0.1:5432")
            db = PG_URL
        else:
            db = f"sqlite:///{workdir / 'audits.db'}"
        server = Server(db, log=workdir / "serve.log").start()
        sync = wrk(server.url, server.admin_key, args.seconds, args.connections, workdir)
        lost = burst(server, args.burst, workdir / "serve.log", db)
    print(
        json.dumps(
            {
                "database": args.db,
                "seconds": args.seconds,
                "connections": args.connections,
                "sync": sync,
                "async_burst_with_kill": lost,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
