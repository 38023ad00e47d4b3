"""``ragaudit audit --batch`` on Parquet and JSON Lines: error rows, resumable output, kill -9 and rerun."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from batch_rows import BAD_ROWS, as_json_sources, make_rows
from ragaudit import Auditor


def _cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "ragaudit", "audit", *args], capture_output=True, text=True, timeout=300
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def _write_jsonl(path: Path, rows: list[dict[str, Any]], extra: str = "") -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + extra)


def _without_timings(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "timings"}


def test_jsonl_in_parquet_out_with_error_rows_slices_and_summary(tmp_path: Path) -> None:
    rows = make_rows(24)
    source, out, summary = tmp_path / "logs.jsonl", tmp_path / "reports.parquet", tmp_path / "summary.json"
    _write_jsonl(source, rows + BAD_ROWS[:1], extra='{"id": "torn", "answer": \n')
    result = _cli(
        "--batch", str(source), "--out", str(out), "--slice", "task", "--gold", "label", "--summary", str(summary)
    )
    assert "rows/s" in result.stderr and "error row" in result.stderr
    assert f"{source}:25: " in result.stderr and f"{source}:26: invalid JSON" in result.stderr
    table = ds.dataset(out, format="parquet").to_table()
    assert table.num_rows == 26
    errors = [r for r in table.to_pylist() if r["error"]]
    assert len(errors) == 2 and all(r["faithfulness"] is None and r["report_json"] is None for r in errors)
    assert set(table.column("task").to_pylist()) == {"qa", "summary", "data2txt", None}
    figures = json.loads(summary.read_text())
    assert (figures["rows"], figures["errors"]) == (26, 2)
    assert set(figures["slices"]) == {"qa", "summary", "data2txt"}
    assert figures["overall"]["gold_hallucination_rate"]["rate"] == 0.5


def test_parquet_in_jsonl_out_equals_single_process_reports_in_order(tmp_path: Path) -> None:
    rows = make_rows(30, start=500)
    source, out = tmp_path / "logs.parquet", tmp_path / "reports.jsonl"
    pq.write_table(pa.Table.from_pylist(as_json_sources(rows)), source)
    _cli("--batch", str(source), "--out", str(out), "--workers", "2")
    auditor = Auditor()
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [_without_timings(r) for r in written] == [
        _without_timings(json.loads(auditor.audit(row).to_json())) for row in rows
    ]


def test_existing_output_needs_resume_or_overwrite_and_a_torn_line_is_redone(tmp_path: Path) -> None:
    rows = make_rows(20, start=900)
    source, out = tmp_path / "logs.jsonl", tmp_path / "reports.jsonl"
    _write_jsonl(source, rows)
    _cli("--batch", str(source), "--out", str(out))
    again = _cli("--batch", str(source), "--out", str(out), check=False)
    assert again.returncode == 2 and "--resume" in again.stderr and len(again.stderr.strip().splitlines()) == 1
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:12]) + lines[12][:40])  # a kill in the middle of writing line 13
    resumed = _cli("--batch", str(source), "--out", str(out), "--resume")
    assert "12 already in the output" in resumed.stderr
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == sorted(r["id"] for r in rows) and len(ids) == 20
    _cli("--batch", str(source), "--out", str(out), "--overwrite")
    assert len(out.read_text().splitlines()) == 20


@pytest.mark.slow
def test_kill_9_in_the_middle_then_rerun_audits_every_row_exactly_once(tmp_path: Path) -> None:
    rows = make_rows(10_000, cycle=16)  # distinct requests, repeated texts: cheap audits
    source, out = tmp_path / "logs.parquet", tmp_path / "reports.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    args = [sys.executable, "-m", "ragaudit", "audit", "--batch", str(source), "--out", str(out), "--workers", "2"]
    first = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(out.glob("part-*.parquet")):
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)  # the batch and its pool workers, mid-run
    first.wait(10)
    done_before = ds.dataset(out, format="parquet").count_rows()
    assert 0 < done_before < len(rows), "the kill must land in the middle of the batch"
    resumed = _cli("--batch", str(source), "--out", str(out), "--resume", "--workers", "2")
    assert f"{done_before} already in the output" in resumed.stderr
    table = ds.dataset(out, format="parquet").to_table(columns=["request_hash", "id", "error"])
    ids = table.column("id").to_pylist()
    assert len(ids) == len(set(ids)) == len(rows) and set(ids) == {r["id"] for r in rows}
    assert len(set(table.column("request_hash").to_pylist())) == len(rows)
    assert table.column("error").null_count == len(rows)
