"""Spark: a real local[2] session audits through mapInArrow exactly as one process does, and resumes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from batch_rows import BAD_ROWS, as_json_sources, make_rows
from ragaudit import Auditor
from ragaudit.kernel import BatchConfig

pytestmark = pytest.mark.slow  # a JVM start and two Spark jobs: 30-100 s on two cores

pyspark = pytest.importorskip("pyspark")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java 17 (apt-get install openjdk-17-jre-headless)", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402

from ragaudit import spark as ragaudit_spark  # noqa: E402


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    session = ragaudit_spark.session("local[2]", "ragaudit-tests")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _single_process(rows: list[dict[str, Any]]) -> dict[str | None, dict[str, Any]]:
    auditor = Auditor()
    out = {}
    for row in rows:
        report = json.loads(auditor.audit(row).to_json())
        report.pop("timings")
        out[row["id"]] = report
    return out


def test_spark_reports_equal_single_process_reports_and_bad_rows_get_errors(
    spark: SparkSession, tmp_path: Path
) -> None:
    good = make_rows(297, cycle=48)
    source = tmp_path / "logs.parquet"
    pq.write_table(pa.Table.from_pylist(good + BAD_ROWS), source)
    config = BatchConfig(keep=(("task", "task"), ("label", "gold_label")))
    result = ragaudit_spark.audit(spark.read.parquet(str(source)), config).toArrow()
    assert result.num_rows == 300
    rows = {row["id"]: row for row in result.to_pylist()}
    expected = _single_process(good)
    for row_id, report in expected.items():
        row = rows[row_id]
        assert row["error"] is None
        got = json.loads(row["report_json"])
        got.pop("timings")
        assert got == report, row_id
        assert (row["label"], row["faithfulness"]) == (report["label"], report["faithfulness"])
    for bad in BAD_ROWS:
        row = rows[bad["id"]]
        assert row["error"] and row["label"] is None and row["faithfulness"] is None
    assert {rows[r["id"]]["task"] for r in good} == {"qa", "summary", "data2txt"}


def test_spark_run_resumes_and_audits_every_row_exactly_once(spark: SparkSession, tmp_path: Path) -> None:
    rows = as_json_sources(make_rows(240, start=1000, cycle=24))
    source, partial, out = tmp_path / "logs.parquet", tmp_path / "first.parquet", tmp_path / "reports.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    pq.write_table(pa.Table.from_pylist(rows[:90]), partial)
    config = BatchConfig()
    assert ragaudit_spark.run(spark, partial, out, config) == (90, 0)
    with pytest.raises(Exception, match="--resume"):
        ragaudit_spark.run(spark, source, out, config)
    assert ragaudit_spark.run(spark, source, out, config, mode="resume") == (150, 90)
    table = pq.read_table(out)
    hashes = table.column("request_hash").to_pylist()
    assert len(hashes) == len(set(hashes)) == 240
    assert sorted(table.column("id").to_pylist()) == sorted(r["id"] for r in rows)
    assert ragaudit_spark.run(spark, source, out, config, mode="resume") == (0, 240)


def test_cli_spark_engine_writes_parquet_and_prints_the_metrics(tmp_path: Path) -> None:
    import subprocess
    import sys

    rows = make_rows(60, start=5000)
    source, out, summary = tmp_path / "logs.parquet", tmp_path / "reports.parquet", tmp_path / "summary.json"
    pq.write_table(pa.Table.from_pylist(rows + BAD_ROWS), source)
    command = [sys.executable, "-m", "ragaudit", "audit", "--batch", str(source), "--out", str(out)]
    spark_args = ["--engine", "spark", "--master", "local[2]", "--slice", "task", "--gold", "label"]
    result = subprocess.run(
        [*command, *spark_args, "--summary", str(summary)], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    assert "wrote 63 row(s)" in result.stderr and "hallucination rate" in result.stderr
    figures = json.loads(summary.read_text())
    assert (figures["rows"], figures["errors"]) == (63, 3) and set(figures["slices"]) == {"qa", "summary", "data2txt"}
    table = pq.read_table(out)
    assert sorted(table.column("id").to_pylist()) == sorted(r["id"] for r in rows + BAD_ROWS)


def test_cli_spark_kill_9_mid_job_then_resume_audits_every_row_exactly_once(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    rows = make_rows(960, start=20_000, cycle=16)
    source, out = tmp_path / "logs.parquet", tmp_path / "reports.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    command = [sys.executable, "-m", "ragaudit", "audit", "--batch", str(source), "--out", str(out)]
    spark_args = ["--engine", "spark", "--master", "local[2]", "--partitions", "16"]
    first = subprocess.Popen(
        [*command, *spark_args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline and len(list(out.glob("part-*.parquet"))) < 2 and first.poll() is None:
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)  # the driver JVM and its Python workers, mid-job
    first.wait(10)
    before = pq.read_table(out).num_rows if list(out.glob("part-*.parquet")) else 0
    assert 0 < before < len(rows), "the kill must land in the middle of the job"
    resumed = subprocess.run([*command, *spark_args, "--resume"], capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{before} already in the output" in resumed.stderr
    ids = pq.read_table(out).column("id").to_pylist()
    assert len(ids) == len(set(ids)) == len(rows) and set(ids) == {r["id"] for r in rows}
