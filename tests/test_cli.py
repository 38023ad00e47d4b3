"""The command line as a user runs it: a subprocess, real files, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import BENCHMARKS, EXAMPLES


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "ragaudit", *args], input=stdin, capture_output=True, timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_audit_prints_the_canonical_report() -> None:
    proc = run("audit", str(EXAMPLES / "request.json"))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["id"] == "example-1"
    assert report["label"] == "hallucinated"
    assert {c["status"] for c in report["claims"]} >= {"contradicted", "supported"}


def test_audit_reads_stdin() -> None:
    data = json.dumps({"answer": "The sky is blue.", "sources": [{"id": "1", "text": "The sky is blue."}]})
    proc = run("audit", "-", stdin=data.encode())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["label"] == "faithful"


def test_text_format_shows_verdicts_and_quotes() -> None:
    proc = run("audit", str(EXAMPLES / "request.json"), "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert "CONTRADICTED" in proc.stdout
    assert "The Lakeside aluminium plant opened in 2012" in proc.stdout


def test_batch_skips_the_bad_line_and_audits_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "reports.jsonl"
    proc = run("audit", "--batch", str(EXAMPLES / "batch.jsonl"), "--out", str(out), "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    assert "batch.jsonl:2" in proc.stderr and "sources" in proc.stderr
    reports = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in reports] == ["ok-1", "ok-2"]
    assert [r["label"] for r in reports] == ["faithful", "hallucinated"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"answer": "x"', "invalid JSON"),
        (b'{"sources": [{"id": "1", "text": "a"}]}', "'answer' is missing"),
        (b'{"answer": "x", "sources": []}', "no sources"),
        (b'{"answer": "x", "sources": [{"id": "1", "text": "a"}, {"id": "1", "text": "b"}]}', "used twice"),
        (b'{"answer": ["x"], "sources": [{"id": "1", "text": "a"}]}', "wrong type"),
        (b'{"answer": "caf\xe9", "sources": [{"id": "1", "text": "a"}]}', "not valid UTF-8"),
        (b'{"answer": "' + b"x" * 100_001 + b'", "sources": [{"id": "1", "text": "a"}]}', "over the limit"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "req.json"
    path.write_bytes(content)
    proc = run("audit", str(path))
    assert proc.returncode == 2
    assert message in proc.stderr
    assert str(path) in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 2  # one logical line (may wrap once)


def test_missing_file_is_a_clear_error() -> None:
    proc = run("audit", "no-such-file.json")
    assert proc.returncode == 2
    assert "no-such-file.json" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_judge_is_a_clear_error() -> None:
    proc = run("audit", str(EXAMPLES / "request.json"), "--judge", "gpt-imaginary")
    assert proc.returncode == 2
    assert "unknown judge" in proc.stderr and "offline" in proc.stderr


def test_eval_on_benchmark_rows(tmp_path: Path) -> None:
    dataset = BENCHMARKS / "ragtruth" / "test.jsonl"
    if not dataset.exists():
        pytest.skip("shared benchmarks not present")
    out = tmp_path / "m.json"
    proc = run("eval", str(dataset), "--limit", "30", "--where", "task=qa", "--json", str(out), "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    metrics = json.loads(out.read_text())
    assert metrics["overall"]["n"] == 30
    assert set(metrics["slices"]["task"]) == {"qa"}
    assert "task=qa" in proc.stdout and "F1" in proc.stdout


def test_eval_reports_rows_without_labels(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    rows = [
        {"answer": "The sky is blue.", "sources": [{"id": "1", "text": "The sky is blue."}], "label": "faithful"},
        {"answer": "The sky is green.", "sources": [{"id": "1", "text": "The sky is blue."}]},
        "not an object",
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    proc = run("eval", str(data), "--format", "json", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["overall"]["n"] == 1
    assert len(result["skipped"]) == 2
