"""Fit the offline judge's response-level calibration: finding strength → probability of a hallucination.

    python benchmarks/fit_score_calibration.py            # every 2nd RAGTruth dev-half answer, 2 workers

``score.finding_strength`` ranks answers as the label decides (at or over 0.5 exactly when a claim is
flagged or a citation fabricated); this fits Platt scaling (``p = 1 / (1 + exp(-(a·s + b)))``, the
project's ``calibrate.fit_platt``) of it to
the human labels of the RAGTruth dev half (``meta.hash_half == "dev"``: tuning data; the test half,
every ``test`` file and ``handcrafted_dev`` are never fitted on) and writes
``src/ragaudit/data/score_calibration.json`` with its card: data digest, rows, judge version,
reliability bins and ECE before and after. Deterministic (fixed-step gradient descent, fixed order).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
from pathlib import Path
from typing import Any

import numpy as np

from ragaudit import Auditor
from ragaudit.calibrate import fit_platt
from ragaudit.metrics import reliability_bins
from ragaudit.score import finding_strength

ROOT = Path(__file__).resolve().parent.parent
RAGTRUTH = ROOT.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"
OUT = ROOT / "src" / "ragaudit" / "data" / "score_calibration.json"
_AUDITOR: Auditor | None = None


def _strength(line: str) -> tuple[float, int, str]:
    global _AUDITOR
    _AUDITOR = _AUDITOR or Auditor()
    row = json.loads(line)
    report = _AUDITOR.audit({"answer": row["answer"], "sources": row["sources"], "question": row.get("question")})
    return finding_strength(report.claims), int(row["label"] == "hallucinated"), report.judge.version


def _ece(p: np.ndarray, y: np.ndarray) -> float:
    bins = reliability_bins(list(p), [bool(v) for v in y])
    return round(sum(b.count * abs(b.mean_confidence - b.accuracy) for b in bins) / len(p), 4)


def main() -> None:
    """Audit the dev half, fit, and write the calibration with its card."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=2, help="use every n-th dev-half answer")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    lines = [ln for ln in RAGTRUTH.read_text().splitlines() if json.loads(ln)["meta"].get("hash_half") == "dev"]
    lines = lines[:: args.every]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(_strength, lines, chunksize=8)
    s = np.array([r[0] for r in results])
    y = np.array([r[1] for r in results])
    platt = fit_platt(list(s), [bool(v) for v in y], iterations=5000)
    p = np.array([platt.apply(v) for v in s])
    card: dict[str, Any] = {
        "a": platt.a,
        "b": platt.b,
        "judge": "offline",
        "fitted_on": f"RAGTruth dev half (meta.hash_half == 'dev'), one answer in {args.every}",
        "rows": len(lines),
        "hallucinated_share": round(float(y.mean()), 4),
        "data_sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest(),
        "judge_version_when_fitted": results[0][2] if results else None,
        "ece_strength": _ece(s, y),
        "ece_calibrated": _ece(p, y),
        "reliability_calibrated": [
            {
                "from": bn.lower,
                "to": bn.upper,
                "count": bn.count,
                "mean_p": round(bn.mean_confidence, 4),
                "hallucinated": round(bn.accuracy, 4),
            }
            for bn in reliability_bins(list(p), [bool(v) for v in y])
        ],
    }
    OUT.write_text(json.dumps(card, indent=2) + "\n")
    print(json.dumps({k: v for k, v in card.items() if k != "reliability_calibrated"}, indent=2))


if __name__ == "__main__":
    main()
