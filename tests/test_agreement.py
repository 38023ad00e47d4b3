"""Claim matching by offsets and agreement between rater files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ragaudit.agreement import compare_raters, match_claims


def test_match_requires_half_the_union() -> None:
    items = [(0, 10, "supported"), (20, 40, "unsupported")]
    other = [(0, 9, "supported"), (30, 60, "supported")]
    pairs = match_claims(items, other)
    assert pairs[0][1] == (0, 9, "supported")
    assert pairs[1][1] is None  # overlap 10 of union 40


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_compare_raters_on_labels_and_claims(tmp_path: Path) -> None:
    a = write(
        tmp_path / "a.jsonl",
        [
            {"id": "1", "label": "faithful", "claims": [{"start": 0, "end": 10, "status": "supported"}]},
            {"id": "2", "label": "hallucinated", "claims": [{"start": 0, "end": 8, "status": "unsupported"}]},
        ],
    )
    b = write(
        tmp_path / "b.jsonl",
        [
            {"id": "2", "label": "hallucinated", "claims": [{"start": 1, "end": 8, "status": "unsupported"}]},
            {"id": "1", "label": "hallucinated", "claims": [{"start": 0, "end": 10, "status": "supported"}]},
        ],
    )
    stats = compare_raters([a, b])
    assert stats["response_label"].items == 2
    assert stats["response_label"].percent_agreement == 0.5
    assert stats["claim_status"].percent_agreement == 1.0
    assert stats["claim_status"].cohen_kappa == pytest.approx(1.0)


def test_agreement_cli_on_two_judge_runs(tmp_path: Path) -> None:
    rows = [
        {"id": "x", "answer": "The bridge is 3 km long.", "sources": [{"id": "1", "text": "The bridge is 3 km long."}]},
        {"id": "y", "answer": "The bridge is 5 km long.", "sources": [{"id": "1", "text": "The bridge is 3 km long."}]},
    ]
    requests = write(tmp_path / "req.jsonl", rows)  # type: ignore[arg-type]
    outs = []
    for risk in ("low", "high"):
        out = tmp_path / f"{risk}.jsonl"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "ragaudit",
                "audit",
                "--batch",
                str(requests),
                "--out",
                str(out),
                "--risk-level",
                risk,
                "--workers",
                "1",
            ],
            check=True,
            capture_output=True,
        )
        outs.append(str(out))
    proc = subprocess.run(
        [sys.executable, "-m", "ragaudit", "agreement", *outs, "--json"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    assert stats["response_label"]["percent_agreement"] == 1.0
    assert stats["claim_status"]["items"] == 2
