"""Evaluate the auditor on labelled datasets in the shared benchmark format.

Response level: the report's ``label`` against the gold ``label`` (hallucinated is the positive
class); AUROC and AUPRC rank answers by the report's ``hallucination_score``. Span level: every
claim that is not supported is a predicted span, compared by characters with the gold ``spans``.
Claim level (rows with gold ``claims``, e.g. exported reviews): statuses of claims matched by
answer offsets (see :func:`ragaudit.agreement.match_claims`). Every figure gets a 95% percentile
bootstrap interval over examples. Rows without a gold label are reported and skipped.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ragaudit.batch import audit_stream
from ragaudit.config import AuditorConfig

# Reading datasets lives in its own module; re-exported because evaluation callers use these names.
from ragaudit.datasets import Example as Example
from ragaudit.datasets import load_examples as load_examples
from ragaudit.datasets import parse_where as parse_where
from ragaudit.errors import InputError
from ragaudit.metrics import (
    average_precision,
    brier_score,
    covered_chars,
    expected_calibration_error,
    pr_curve,
    reliability_bins,
    roc_auc,
    roc_curve,
)
from ragaudit.models import CLAIM_STATUSES, AuditRequest, ClaimType, Report, RiskLevel
from ragaudit.requests import validate_request

METRICS = (
    "precision",
    "recall",
    "f1",
    "balanced_accuracy",
    "auroc",
    "auprc",
    "span_precision",
    "span_recall",
    "span_f1",
)


@dataclass(slots=True)
class Outcome:
    """What the auditor said about one example, reduced to what the metrics need."""

    example: Example
    report: Report

    @property
    def predicted(self) -> bool:
        """The report calls the answer hallucinated."""
        return self.report.label == "hallucinated"

    @property
    def predicted_spans(self) -> list[tuple[int, int]]:
        """Claims that are not supported, as answer spans."""
        return [(c.start, c.end) for c in self.report.claims if c.status != "supported"]


def _arrays(outcomes: list[Outcome]) -> dict[str, np.ndarray]:
    """Per-example columns the vectorised metrics use."""
    overlap, predicted, gold = [], [], []
    for o in outcomes:
        p, g = covered_chars(o.predicted_spans), covered_chars((s, e) for s, e, _ in o.example.gold_spans)
        overlap.append(len(p & g))
        predicted.append(len(p))
        gold.append(len(g))
    return {
        "y": np.array([o.example.gold for o in outcomes], dtype=bool),
        "pred": np.array([o.predicted for o in outcomes], dtype=bool),
        "score": np.array([o.report.hallucination_score for o in outcomes], dtype=float),
        "overlap": np.array(overlap, dtype=float),
        "span_pred": np.array(predicted, dtype=float),
        "span_gold": np.array(gold, dtype=float),
    }


def _safe(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.divide(num, den, out=np.zeros_like(num, dtype=float), where=den > 0)
    return out


def _binary(cols: dict[str, np.ndarray], idx: np.ndarray) -> dict[str, np.ndarray]:
    """Vectorised metrics for each row of resample indices ``idx`` (shape: resamples × n)."""
    y, pred = cols["y"][idx], cols["pred"][idx]
    tp = (y & pred).sum(axis=1).astype(float)
    fp = (~y & pred).sum(axis=1).astype(float)
    fn = (y & ~pred).sum(axis=1).astype(float)
    tn = (~y & ~pred).sum(axis=1).astype(float)
    precision, recall = _safe(tp, tp + fp), _safe(tp, tp + fn)
    sp = _safe(cols["overlap"][idx].sum(axis=1), cols["span_pred"][idx].sum(axis=1))
    sr = _safe(cols["overlap"][idx].sum(axis=1), cols["span_gold"][idx].sum(axis=1))
    return {
        "precision": precision,
        "recall": recall,
        "f1": _safe(2 * precision * recall, precision + recall),
        "balanced_accuracy": (recall + _safe(tn, tn + fp)) / 2,
        "span_precision": sp,
        "span_recall": sr,
        "span_f1": _safe(2 * sp * sr, sp + sr),
    }


@dataclass(slots=True)
class Figure:
    """A metric's value on the slice and its 95% bootstrap interval."""

    value: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        """Rounded to 4 places."""
        return {"value": round(self.value, 4), "ci_low": round(self.low, 4), "ci_high": round(self.high, 4)}


def slice_metrics(outcomes: list[Outcome], *, resamples: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Every response- and span-level figure of ``outcomes`` with bootstrap intervals."""
    cols = _arrays(outcomes)
    n = len(outcomes)
    full = _binary(cols, np.arange(n)[None, :])
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    boot = _binary(cols, idx)
    figures: dict[str, Figure] = {}
    for name, values in boot.items():
        lo, hi = np.percentile(values, [2.5, 97.5])
        figures[name] = Figure(float(full[name][0]), float(lo), float(hi))
    y, score = cols["y"].tolist(), cols["score"].tolist()
    # Ranking metrics are costlier; a smaller resample count keeps them fast.
    rank_idx = idx[: min(resamples, 200)]
    for name, fn in (("auroc", roc_auc), ("auprc", average_precision)):
        ranked = [fn([y[i] for i in row], [score[i] for i in row]) for row in rank_idx]
        lo, hi = np.percentile(ranked, [2.5, 97.5])
        figures[name] = Figure(fn(y, score), float(lo), float(hi))
    y_arr, p_arr = cols["y"], cols["pred"]
    return {
        "n": n,
        "positives": int(y_arr.sum()),
        "confusion": {
            "tp": int((y_arr & p_arr).sum()),
            "fp": int((~y_arr & p_arr).sum()),
            "fn": int((y_arr & ~p_arr).sum()),
            "tn": int((~y_arr & ~p_arr).sum()),
        },
        **{name: figures[name].as_dict() for name in METRICS},
    }


def error_type_recall(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """For each gold span type: how many spans, and the share overlapped by a flagged claim."""
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o in outcomes:
        flagged = o.predicted_spans
        for s, e, kind in o.example.gold_spans:
            found[kind][0] += 1
            found[kind][1] += int(any(min(e, fe) > max(s, fs) for fs, fe in flagged))
    return {k: {"spans": v[0], "recall": round(v[1] / v[0], 4)} for k, v in sorted(found.items())}


def threshold_sweep(outcomes: list[Outcome], steps: int = 20) -> list[dict[str, float]]:
    """Precision and recall if the gate flagged answers whose faithfulness is below each threshold."""
    y = [o.example.gold for o in outcomes]
    faith = [o.report.faithfulness for o in outcomes]
    rows = []
    for k in range(steps + 1):
        t = round(k / steps, 4)
        pred = [f < t for f in faith]
        tp = sum(1 for a, b in zip(y, pred, strict=True) if a and b)
        fp = sum(1 for a, b in zip(y, pred, strict=True) if not a and b)
        fn = sum(1 for a, b in zip(y, pred, strict=True) if a and not b)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        rows.append(
            {
                "threshold": t,
                "precision": round(p, 4),
                "recall": round(r, 4),
                "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
                "flagged": round(sum(pred) / len(pred), 4) if pred else 0.0,
            }
        )
    return rows


def claim_correctness(outcomes: list[Outcome]) -> tuple[list[float], list[bool]]:
    """Claim confidences and whether each verdict agrees with the gold spans (rows with spans only).

    A claim's verdict is right when it is supported and overlaps no gold span, or is flagged and
    overlaps one. Faithful rows count (no spans means every claim should be supported).
    """
    conf, right = [], []
    for o in outcomes:
        for c in o.report.claims:
            bad = any(min(c.end, e) > max(c.start, s) for s, e, _ in o.example.gold_spans)
            conf.append(c.confidence)
            right.append((c.status == "supported") != bad)
    return conf, right


def claim_confusion(outcomes: list[Outcome]) -> dict[str, Any] | None:
    """Confusion matrix of claim statuses against gold ``claims`` (matched by offsets), if any row has them."""
    from ragaudit.agreement import match_claims

    gold_rows = [o for o in outcomes if o.example.raw.get("claims")]
    if not gold_rows:
        return None
    matrix: dict[str, dict[str, int]] = {g: dict.fromkeys(CLAIM_STATUSES, 0) for g in CLAIM_STATUSES}
    matched = total = 0
    for o in gold_rows:
        gold = [(int(c["start"]), int(c["end"]), str(c["status"])) for c in o.example.raw["claims"]]
        predicted = [(c.start, c.end, c.status) for c in o.report.claims]
        for g, p in match_claims(gold, predicted):
            total += 1
            if p is not None and g[2] in matrix:
                matrix[g[2]][p[2]] += 1
                matched += 1
    correct = sum(matrix[s][s] for s in CLAIM_STATUSES)
    return {
        "gold_claims": total,
        "matched": matched,
        "accuracy": round(correct / matched, 4) if matched else 0.0,
        "matrix": matrix,
    }


@dataclass(slots=True)
class EvalResult:
    """Everything ``ragaudit eval`` measures."""

    datasets: list[str]
    judge: str
    overall: dict[str, Any]
    slices: dict[str, dict[str, dict[str, Any]]]
    error_types: dict[str, dict[str, float]]
    sweep: list[dict[str, float]]
    calibration: dict[str, Any] | None
    claims: dict[str, Any] | None
    curves: dict[str, list[list[float]]]
    worst: list[dict[str, Any]]
    skipped: list[str] = field(default_factory=list)
    response_calibration: dict[str, Any] | None = None
    """``hallucination_score`` read as the probability that an answer is hallucinated: ECE, Brier, bins."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (the format ``--baseline`` reads back)."""
        return asdict(self)


def _worst(outcomes: list[Outcome], k: int = 12) -> list[dict[str, Any]]:
    """The most confident mistakes: missed hallucinations and false alarms, worst first."""
    wrong = [o for o in outcomes if o.predicted != o.example.gold]
    wrong.sort(key=lambda o: -abs(o.report.hallucination_score - (1.0 if o.example.gold else 0.0)))
    out = []
    for o in wrong[:k]:
        out.append(
            {
                "id": o.example.raw.get("id") or f"{o.example.dataset}:{o.example.line}",
                "dataset": o.example.dataset,
                "gold": o.example.raw["label"],
                "predicted": o.report.label,
                "score": o.report.hallucination_score,
                "answer": o.example.raw["answer"],
                "gold_spans": [[s, e, t] for s, e, t in o.example.gold_spans],
                "claims": [
                    {
                        "start": c.start,
                        "end": c.end,
                        "status": c.status,
                        "explanation": c.explanation,
                        "evidence": [{"source_id": e.source_id, "quote": e.quote} for e in c.evidence[:2]],
                    }
                    for c in o.report.claims
                ],
            }
        )
    return out


def summarize(
    outcomes: list[Outcome], datasets: list[str], judge: str, skipped: list[str], *, resamples: int = 1000
) -> EvalResult:
    """Compute every figure from audited examples."""
    slices: dict[str, dict[str, dict[str, Any]]] = {}
    for key in ("dataset", "task", "domain", "generator"):
        groups: dict[str, list[Outcome]] = defaultdict(list)
        for o in outcomes:
            groups[o.example.dataset if key == "dataset" else o.example.field(key)].append(o)
        if len(groups) > 1 or key in ("task", "dataset"):
            slices[key] = {name: slice_metrics(g, resamples=resamples) for name, g in sorted(groups.items())}
    conf, right = claim_correctness([o for o in outcomes if o.example.raw.get("spans") is not None])
    calibration = None
    if conf:
        calibration = {
            "claims": len(conf),
            "ece": round(expected_calibration_error(conf, right), 4),
            "brier": round(brier_score(conf, right), 4),
            "bins": [asdict(b) for b in reliability_bins(conf, right)],
        }
    y = [o.example.gold for o in outcomes]
    score = [o.report.hallucination_score for o in outcomes]
    responses = (
        {
            "answers": len(y),
            "ece": round(expected_calibration_error(score, y), 4),
            "brier": round(brier_score(score, y), 4),
            "bins": [asdict(b) for b in reliability_bins(score, y)],
        }
        if outcomes
        else None
    )
    return EvalResult(
        datasets=datasets,
        judge=judge,
        overall=slice_metrics(outcomes, resamples=resamples),
        slices=slices,
        error_types=error_type_recall(outcomes),
        sweep=threshold_sweep(outcomes),
        calibration=calibration,
        claims=claim_confusion(outcomes),
        curves={
            "roc": [[round(a, 4), round(b, 4)] for a, b in roc_curve(y, score)],
            "pr": [[round(r, 4), round(p, 4)] for _, p, r in pr_curve(y, score)],
        },
        worst=_worst(outcomes),
        skipped=skipped,
        response_calibration=responses,
    )


class ReportCache:
    """Reports already computed, keyed by (judge, version, options, request); makes eval resumable."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS reports (key TEXT PRIMARY KEY, report TEXT NOT NULL)")

    @staticmethod
    def key(request: AuditRequest, salt: str) -> str:
        """Stable key of one request under one judge configuration."""
        return hashlib.sha256((salt + "\0" + request.model_dump_json()).encode()).hexdigest()

    def get(self, key: str) -> Report | None:
        """The cached report, if any."""
        row = self._db.execute("SELECT report FROM reports WHERE key = ?", (key,)).fetchone()
        return Report.model_validate_json(row[0]) if row else None

    def put(self, key: str, report: Report) -> None:
        """Store a report (committed at once, so an interrupt loses nothing)."""
        self._db.execute("INSERT OR REPLACE INTO reports VALUES (?, ?)", (key, report.model_dump_json()))
        self._db.commit()


def run(
    examples: list[Example],
    config: AuditorConfig | None = None,
    *,
    judge: str | None = None,
    risk_level: RiskLevel | None = None,
    claim_types: Sequence[ClaimType] | None = None,
    policy: Path | str | None = None,
    workers: int | None = None,
    cache: Path | None = None,
    on_result: Callable[[], None] | None = None,
) -> list[Outcome]:
    """Audit every example under ``config`` (fields overridable by keyword), reusing cached reports, in order."""
    from ragaudit import __version__
    from ragaudit._pipeline import Auditor

    config = (config or AuditorConfig()).replace(
        judge=judge, risk_level=risk_level, claim_types=claim_types, policy=policy
    )
    with Auditor(config) as auditor:  # fails fast on bad options; names the judge for the cache key
        j, gate_policy = auditor.judge, auditor.gate.policy
        calibration = auditor.calibration
    # Everything that changes a report is in the cache key: judge, risk level, claim types, policy, calibration.
    salt = json.dumps(
        [
            j.name,
            j.version,
            __version__,
            config.risk_level,
            list(config.claim_types or ()),
            gate_policy.model_dump(mode="json"),
            calibration.model_dump(mode="json") if calibration else None,
        ],
        sort_keys=True,
    )
    store = ReportCache(cache) if cache else None
    requests = [validate_request(e.raw, config.limits) for e in examples]
    keys = [ReportCache.key(r, salt) for r in requests]
    reports: list[Report | None] = [store.get(k) if store else None for k in keys]
    todo = [i for i, r in enumerate(reports) if r is None]
    for _ in range(len(examples) - len(todo)):
        if on_result:
            on_result()
    fresh: Iterator[Report] = audit_stream((requests[i] for i in todo), config, workers=workers)
    for i, report in zip(todo, fresh, strict=True):
        reports[i] = report
        if store:
            store.put(keys[i], report)
        if on_result:
            on_result()
    return [Outcome(e, r) for e, r in zip(examples, reports, strict=True) if r is not None]


def compare_to_baseline(result: dict[str, Any], baseline: dict[str, Any], max_drop: float) -> list[str]:
    """Overall figures that fell by more than ``max_drop`` against a previous ``--json`` output."""
    drops = []
    for name in METRICS:
        before = (baseline.get("overall") or {}).get(name)
        now = result["overall"].get(name)
        if not isinstance(before, dict) or not isinstance(now, dict):
            continue
        if before["value"] - now["value"] > max_drop + 1e-12:
            drops.append(f"{name} fell from {before['value']:.4f} to {now['value']:.4f} (allowed drop {max_drop})")
    return drops


def read_json(path: Path) -> dict[str, Any]:
    """Read a JSON file written by ``ragaudit eval --json``."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the baseline: {exc}", location=str(path)) from None
    if not isinstance(data, dict) or "overall" not in data:
        raise InputError("not an eval result (no 'overall'); write one with ragaudit eval --json", location=str(path))
    return data
