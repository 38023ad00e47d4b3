"""What the service benchmarks share: a server on 127.0.0.1 over SQLite or PostgreSQL, wrk posting
audits to it, and the percentiles they report."""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from service_helpers import PG_URL, Server, reset_postgres  # noqa: E402

__all__ = [
    "Server",
    "children",
    "cpu_seconds",
    "database_url",
    "lua_script",
    "percentiles",
    "require_wrk",
    "run_wrk",
]


def require_wrk() -> None:
    """Exit with the install command when Debian's wrk is missing."""
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")


def database_url(db: str, workdir: Path) -> str:
    """A fresh audit trail: a SQLite file in ``workdir``, or the emptied local PostgreSQL (exit if it is down)."""
    if db == "postgresql":
        if not reset_postgres():
            sys.exit("PostgreSQL is not running on 127.0.0.1:5432")
        return PG_URL
    return f"sqlite:///{workdir / 'audits.db'}"


def lua_script(bodies: list[dict[str, Any]], key: str, path: Path) -> None:
    """Write a wrk script that POSTs ``bodies`` in turn to ``/v1/audits`` with the bearer ``key``."""
    entries = ",\n".join(f"[==[{json.dumps(body)}]==]" for body in bodies)
    path.write_text(
        f"bodies = {{\n{entries}\n}}\n"
        "counter = 0\n"
        "request = function()\n"
        "  counter = counter + 1\n"
        "  local body = bodies[(counter % #bodies) + 1]\n"
        "  return wrk.format('POST', '/v1/audits', {['Content-Type'] = 'application/json', "
        f"['Authorization'] = 'Bearer {key}'}}, body)\n"
        "end\n"
    )


def run_wrk(url: str, script: Path, seconds: int, connections: int) -> dict[str, Any]:
    """Run wrk with ``script`` against ``url``; audits/s, latency percentiles (ms) and failures."""
    command = ["wrk", "-t", "1", "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "10s"]
    out = subprocess.run(
        [*command, "-s", str(script), url],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    ).stdout

    def ms(label: str) -> float:
        m = re.search(rf"{label}\s+([\d.]+)(us|ms|s)\b", out)
        return float(m[1]) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m[2]] if m else float("nan")

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    done = re.search(r"(\d+) requests in", out)
    return {
        "requests": int(done[1]) if done else 0,
        "audits_per_s": float(rps[1]) if rps else 0.0,
        "p50_ms": ms("50%"),
        "p90_ms": ms("90%"),
        "p99_ms": ms("99%"),
        "non_2xx": int(non2xx[1]) if non2xx else 0,
        "socket_errors": errors[1] if errors else None,
    }


def percentiles(values: list[float]) -> dict[str, float | None]:
    """Median, p99 and max of ``values`` (milliseconds), rounded; ``None`` when there are none."""
    ordered = sorted(values)
    if not ordered:
        return {"median": None, "p99": None, "max": None}
    return {
        "median": round(statistics.median(ordered), 2),
        "p99": round(ordered[int(0.99 * (len(ordered) - 1))], 2),
        "max": round(ordered[-1], 2),
    }


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The ids of ``pid``'s child processes."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(x) for x in (task / "children").read_text().split()]
    return found
