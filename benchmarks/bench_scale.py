"""Batch throughput at scale: Spark local[N] against the local ``--batch`` pool, in one run.

    python benchmarks/bench_scale.py [--rows 20000] [--cores 2] [--judge offline] [--price 0.048]

Builds RAGTruth-shaped rows by repeating ../shared/benchmarks/ragtruth/test.jsonl (each copy gets a
distinct id, so every row is its own request), writes them as Parquet (sources as a list of
``{id, text}`` structs), then audits the same file with both engines through the CLI, one after the
other: ``ragaudit audit --batch rows.parquet --out … --workers N`` and ``… --engine spark --master
local[N]``, both with ``--judge``. Rows/s are end to end (process start, JVM and session start
included for Spark). CPU seconds are those of the local batch's processes (``getrusage`` of the
children; Spark's JVM and its Python workers are not waited for by the CLI, so they escape it).
Writes benchmarks/results/scale_<rows>.json (``scale_<rows>_<judge>.json`` for a judge other than
the default) and the matching block of RESULTS.md, with a paper model of cost per million answers
from the measured per-core rate.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import replace_block

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"
OUT = Path(__file__).resolve().parent / "results" / "scale.json"  # scale_<rows>[_<judge>].json


def build_rows(path: Path, n: int, target: Path) -> None:
    base = [json.loads(line) for line in DATA.open() if line.strip()]
    rows = []
    for i in range(n):
        row = base[i % len(base)]
        rows.append(
            {
                "id": f"{row['id']}#{i // len(base)}",
                "question": row.get("question"),
                "answer": row["answer"],
                "sources": row["sources"],
                "task": row.get("task"),
                "label": row.get("label"),
            }
        )
    pq.write_table(pa.Table.from_pylist(rows), target)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the finished child processes, and stderr of one CLI run."""
    started, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(args, capture_output=True, text=True, timeout=4 * 3600, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return time.perf_counter() - started, _children_cpu() - cpu, result.stderr


def slug(rows: int, judge: str) -> str:
    """``20000``, ``offline`` → ``"20000"``; ``offline:no-embeddings`` → ``"20000_offline-no-embeddings"``."""
    return str(rows) + ("" if judge == "offline" else "_" + re.sub(r"[^a-z0-9]+", "-", judge.lower()).strip("-"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--judge", default="offline", help="judge spec for both engines (offline:no-embeddings, …)")
    parser.add_argument("--price", type=float, default=0.048, help="USD per vCPU-hour for the cost model")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows = work / "rows.parquet"
        build_rows(DATA, args.rows, rows)
        cli = [sys.executable, "-m", "ragaudit", "audit", "--batch", str(rows), "--judge", args.judge]
        local_s, local_cpu, local_err = timed(
            [*cli, "--out", str(work / "local.parquet"), "--workers", str(args.cores)]
        )
        spark_s, _, spark_err = timed(
            [*cli, "--out", str(work / "spark.parquet"), "--engine", "spark", "--master", f"local[{args.cores}]"]
        )
        local_rows = ds.dataset(work / "local.parquet").count_rows()
        spark_rows = ds.dataset(work / "spark.parquet").count_rows()
        same = sorted(ds.dataset(work / "local.parquet").to_table(columns=["request_hash"])["request_hash"].to_pylist())
        same_spark = sorted(
            ds.dataset(work / "spark.parquet").to_table(columns=["request_hash"])["request_hash"].to_pylist()
        )
    job = re.search(r"in ([\d.]+)\s+s\b", spark_err)  # rich may wrap the line before "s"
    local_rate = local_rows / local_s
    spark_rate = spark_rows / spark_s
    per_core = spark_rate / args.cores
    core_hours = 1e6 / per_core / 3600
    result = {
        "rows": args.rows,
        "cores": args.cores,
        "judge": args.judge,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "local": {
            "seconds": round(local_s, 1),
            "rows_per_s": round(local_rate, 1),
            "cpu_seconds": round(local_cpu, 1),
            "cpu_ms_per_row": round(1000 * local_cpu / local_rows, 1),
            "summary": local_err.strip()[-400:],
        },
        "spark": {
            "seconds": round(spark_s, 1),
            "rows_per_s": round(spark_rate, 1),
            "job_seconds_reported": float(job[1]) if job else None,
            "summary": spark_err.strip()[-400:],
        },
        "same_request_hashes": same == same_spark,
        "spark_over_local": round(spark_rate / local_rate, 3),
        "per_core_rows_per_s": round(per_core, 1),
        "core_hours_per_million": round(core_hours, 2),
        "usd_per_million_at_price": round(core_hours * args.price, 2),
        "price_usd_per_vcpu_hour": args.price,
        "core_hours_per_million_from_local_cpu": round(local_cpu / local_rows * 1e6 / 3600, 2),
        "wall_minutes_per_million": {
            f"{n}x{c}": round(1e6 / (per_core * n * c) / 60, 1) for n, c in ((4, 4), (10, 8), (50, 8))
        },
    }
    out = OUT.with_name(f"scale_{slug(args.rows, args.judge)}.json")
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    wall = result["wall_minutes_per_million"]
    judge = f"`{args.judge}`"
    replace_block(
        "scale-" + slug(args.rows, args.judge).replace("_", "-"),
        "\n".join(
            [
                "| judge | engine | rows | seconds | rows/s | vs local | CPU ms / row |",
                "|---|---|---|---|---|---|---|",
                f"| {judge} | local `--batch` ({args.cores} workers) | {local_rows} | {local_s:.1f} | {local_rate:.1f} "
                f"| 1.00 | {result['local']['cpu_ms_per_row']} |",
                f"| {judge} | Spark local[{args.cores}] | {spark_rows} | {spark_s:.1f} | {spark_rate:.1f} "
                f"| {spark_rate / local_rate:.2f} | – |",
                "",
                f"Per core (Spark): {per_core:.1f} rows/s → {core_hours:.1f} core-hours per million answers, "
                f"${core_hours * args.price:.2f} at ${args.price}/vCPU-hour; wall time per million: "
                f"{wall['4x4']} min on 4 executors × 4 cores, {wall['10x8']} min on 10 × 8, {wall['50x8']} min on 50 × 8 "
                "(linear in cores: partitions are audited independently; the only shuffle is the initial repartition).",
                "From CPU time instead of wall time (what the local batch's processes used, whatever else "
                f"ran on the machine): {result['core_hours_per_million_from_local_cpu']} core-hours per million, "
                f"${result['core_hours_per_million_from_local_cpu'] * args.price:.2f}.",
                f"Load average before/after: {result['load_average_before']} / {result['load_average_after']}.",
            ]
        ),
    )


if __name__ == "__main__":
    main()
