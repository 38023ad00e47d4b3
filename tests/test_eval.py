"""`ragaudit eval` end to end: figures with intervals, slices, cache, regression gate, calibration."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ragaudit import evaluate as ev
from ragaudit.gate import load_policy

ROWS = [
    {
        "id": f"r{i}",
        "task": task,
        "meta": {"model": model},
        "answer": answer,
        "sources": [{"id": "1", "text": "The bridge is 3 km long. It opened in 1990."}],
        "label": label,
        "spans": spans,
    }
    for i, (task, model, answer, label, spans) in enumerate(
        [
            ("qa", "m1", "The bridge is 3 km long.", "faithful", []),
            (
                "qa",
                "m2",
                "The bridge is 5 km long.",
                "hallucinated",
                [{"start": 14, "end": 18, "text": "5 km", "type": "Evident Conflict"}],
            ),
            ("summarization", "m1", "It opened in 1990.", "faithful", []),
            (
                "summarization",
                "m2",
                "It opened in 1990 and cost 9 million euros.",
                "hallucinated",
                [{"start": 22, "end": 42, "text": "cost 9 million euros", "type": "Evident Baseless Info"}],
            ),
            (
                "qa",
                "m1",
                "The bridge opened in 1995.",
                "hallucinated",
                [{"start": 21, "end": 25, "text": "1995", "type": "Evident Conflict"}],
            ),
            ("qa", "m2", "The bridge is 3 km long and opened in 1990.", "faithful", []),
        ]
    )
]


@pytest.fixture()
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "golden.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n")
    return path


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ragaudit", "eval", *args, "--workers", "1", "--bootstrap", "200"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_figures_slices_and_intervals(dataset: Path) -> None:
    examples, _ = ev.load_examples([dataset])
    result = ev.summarize(ev.run(examples, workers=1), [str(dataset)], "offline", [], resamples=200)
    o = result.overall
    assert o["n"] == 6 and o["positives"] == 3
    assert o["confusion"] == {"tp": 3, "fp": 0, "fn": 0, "tn": 3}
    for name in ev.METRICS:
        assert o[name]["ci_low"] <= o[name]["value"] <= o[name]["ci_high"]
    assert set(result.slices["task"]) == {"qa", "summarization"}
    assert set(result.slices["generator"]) == {"m1", "m2"}
    assert result.error_types["Evident Conflict"] == {"spans": 2, "recall": 1.0}
    assert result.calibration is not None and result.calibration["claims"] >= 6
    responses = result.response_calibration
    assert responses is not None and responses["answers"] == 6 and sum(b["count"] for b in responses["bins"]) == 6
    assert result.sweep[0]["threshold"] == 0.0 and result.sweep[-1]["threshold"] == 1.0


def test_cache_makes_eval_resumable(dataset: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache.db"
    examples, _ = ev.load_examples([dataset])
    first = ev.run(examples[:3], workers=1, cache=cache)
    calls: list[int] = []
    second = ev.run(examples, workers=1, cache=cache, on_result=lambda: calls.append(1))
    assert len(calls) == 6
    assert [o.report.to_json(timings=False) for o in second[:3]] == [o.report.to_json(timings=False) for o in first]
    import sqlite3

    assert sqlite3.connect(cache).execute("SELECT COUNT(*) FROM reports").fetchone()[0] == 6


def test_baseline_regression_exits_1(dataset: Path, tmp_path: Path) -> None:
    good = tmp_path / "baseline.json"
    assert cli(str(dataset), "--json", str(good)).returncode == 0
    assert cli(str(dataset), "--baseline", str(good), "--max-drop", "0.01").returncode == 0
    inflated = json.loads(good.read_text())
    inflated["overall"]["f1"]["value"] = 1.5
    bad = tmp_path / "inflated.json"
    bad.write_text(json.dumps(inflated))
    proc = cli(str(dataset), "--baseline", str(bad), "--max-drop", "0.01")
    assert proc.returncode == 1
    assert "f1 fell from 1.5000" in proc.stderr


def test_threshold_and_calibration_written_to_a_policy(dataset: Path, tmp_path: Path) -> None:
    policy = tmp_path / "tuned.toml"
    proc = cli(str(dataset), "--target-precision", "0.9", "--calibrate", "platt", "--write-policy", str(policy))
    assert proc.returncode == 0, proc.stderr
    tuned = load_policy(policy)
    assert tuned.name == "default-tuned"
    assert tuned.calibration is not None and tuned.calibration.method == "platt"
    assert 0.0 < tuned.threshold <= 1.0
    # The calibration is applied at audit time.
    from ragaudit import audit

    raw = audit("The bridge is 3 km long.", ["The bridge is 3 km long."]).claims[0].confidence
    calibrated = audit("The bridge is 3 km long.", ["The bridge is 3 km long."], policy=policy).claims[0].confidence
    assert calibrated == pytest.approx(tuned.calibration.apply(raw), abs=1e-4)


def test_html_report_is_written(dataset: Path, tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    assert cli(str(dataset), "--html", str(html)).returncode == 0
    text = html.read_text()
    assert "ROC curve" in text and "Worst errors" in text and "<svg" in text


def test_isotonic_fit_is_monotone() -> None:
    from ragaudit.calibrate import fit_isotonic

    cal = fit_isotonic([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [False, True, False, True, True, True])
    assert cal.y == sorted(cal.y or [])
    assert cal.apply(0.05) <= cal.apply(0.55)
