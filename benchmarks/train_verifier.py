"""Train the verifier's logistic weights and pick its threshold; write ``verifier_model.json``.

    python benchmarks/train_verifier.py            # features are cached in benchmarks/out/

Training data: every claim of the RAGTruth dev half (``meta.hash_half == "dev"``), labelled "not
supported" when it overlaps a human hallucination span. Only claims no detector decided are fitted
(the detectors' verdicts are rules, not weights). The test half, every ``test`` file and
``handcrafted_dev`` are never fitted on; ``handcrafted_dev`` is read only to *choose* the
threshold together with the dev half (it is the tuning set its README names), which the model card
records. Deterministic: liblinear-free lbfgs, fixed order, no sampling.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import platform
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression

from ragaudit._text import question_keys
from ragaudit._verifier_model import FEATURES
from ragaudit.align import align, build_index
from ragaudit.judges._offline import answer_novelty
from ragaudit.models import Source
from ragaudit.segment import segment
from ragaudit.verify import Verifier

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "benchmarks"
RAGTRUTH = SHARED / "ragtruth" / "test.jsonl"
HANDCRAFTED = SHARED / "handcrafted_dev" / "cases.jsonl"
OUT = ROOT / "src" / "ragaudit" / "judges" / "verifier_model.json"
CACHE = ROOT / "benchmarks" / "out"


def _claims(row: dict[str, Any], gold: list[tuple[int, int]]) -> Iterator[dict[str, Any]]:
    index = build_index([Source(id=s["id"], text=s["text"]) for s in row["sources"]])
    presupposed = question_keys(row.get("question"))
    alignments = [align(c, index, presupposed=presupposed) for c in segment(row["answer"]).claims]
    results = Verifier().verify(alignments, index, answer_novelty(alignments, index), row.get("question"))
    for a, r in zip(alignments, results, strict=True):
        bad = any(min(a.claim.end, e) - max(a.claim.start, s) > 3 for s, e in gold)
        yield {
            "x": [r.features.get(f, 0.0) for f in FEATURES],
            "y": int(bad),
            # A figure the model doubts and a detector names is still the model's decision (``by_model``).
            "detector": r.signal != "model" and not r.by_model,
        }


def _response(item: tuple[str, str]) -> dict[str, Any] | None:
    kind, line = item
    row = json.loads(line)
    if kind == "ragtruth" and row["meta"].get("hash_half") != "dev":
        return None
    label, gold = gold_of(kind, row)
    return {"label": label, "claims": list(_claims(row, gold))}


def gold_of(kind: str, row: dict[str, Any]) -> tuple[int, list[tuple[int, int]]]:
    """The answer's gold label (1: hallucinated) and the answer spans of its unsupported text: RAGTruth's
    spans, or the hand-written cases' claims that are not supported."""
    if kind == "ragtruth":
        return int(row["label"] == "hallucinated"), [(s["start"], s["end"]) for s in row["spans"]]
    answer = row["answer"]
    gold = []
    for claim in row["expect"]["claims"]:
        if claim["status"] != "supported":
            start = answer.find(claim["quote"])
            gold.append((start, start + len(claim["quote"])))
    return int(row["expect"]["label"] == "hallucinated"), gold


def rows_of(path: Path, kind: str, limit: int, workers: int) -> list[dict[str, Any]]:
    """Claims of the first ``limit`` RAGTruth dev-half answers (``kind="ragtruth"``) or of the
    hand-written cases, with gold labels; cached by data and code digest."""
    cache = CACHE / f"verifier_features_{kind}.json"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    code = hashlib.sha256(b"".join((ROOT / "src" / "ragaudit" / m).read_bytes() for m in ("verify.py", "slots.py")))
    key = f"{digest}:{code.hexdigest()}:{limit}"
    if cache.exists():
        cached = json.loads(cache.read_text())
        if cached["key"] == key:
            return list(cached["responses"])
    lines = path.read_text().splitlines()
    if kind == "ragtruth":
        dev = [line for line in lines if '"hash_half": "dev"' in line]
        # An even spread over the file (it is ordered by task): every k-th dev-half answer.
        lines = dev[:: max(1, len(dev) // limit)][:limit]
    with multiprocessing.Pool(workers) as pool:
        responses = [r for r in pool.imap(_response, [(kind, line) for line in lines], chunksize=4) if r is not None]
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"key": key, "responses": responses}))
    return responses


def _response_metrics(responses: list[dict[str, Any]], model: LogisticRegression, threshold: float) -> dict[str, float]:
    tp = fp = fn = tn = 0
    for r in responses:
        flagged = False
        for c in r["claims"]:
            p = model.predict_proba(np.array([c["x"]]))[0, 1]
            flagged = flagged or c["detector"] or p >= threshold
        pred = int(flagged)
        tp += pred and r["label"]
        fp += pred and not r["label"]
        fn += (not pred) and r["label"]
        tn += (not pred) and not r["label"]
    f1 = 2 * tp / max(1, 2 * tp + fp + fn)
    ba = 0.5 * (tp / max(1, tp + fn) + tn / max(1, tn + fp))
    return {"f1": round(f1, 4), "balanced_accuracy": round(ba, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=500, help="RAGTruth dev-half answers to read (of 1,282)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    dev = rows_of(RAGTRUTH, "ragtruth", args.limit, args.workers)
    tuning = rows_of(HANDCRAFTED, "handcrafted", 0, args.workers)
    fit = [c for r in dev for c in r["claims"] if not c["detector"]]
    x = np.array([c["x"] for c in fit])
    y = np.array([c["y"] for c in fit])
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=5000, random_state=args.seed)
    model.fit(x, y)
    best: tuple[float, float, dict[str, float], dict[str, float]] = (-1.0, 0.5, {}, {})
    for threshold in np.arange(0.40, 0.99, 0.01):
        on_dev = _response_metrics(dev, model, float(threshold))
        on_tuning = _response_metrics(tuning, model, float(threshold))
        objective = 0.5 * (on_dev["f1"] + on_dev["balanced_accuracy"]) / 2 + 0.5 * on_tuning["balanced_accuracy"]
        if objective > best[0]:
            best = (objective, float(threshold), on_dev, on_tuning)
    _, threshold, on_dev, on_tuning = best
    previous = json.loads(OUT.read_text())["thresholds"] if OUT.exists() else {}
    card: dict[str, Any] = {
        "features": list(FEATURES),
        "coef": [round(float(c), 6) for c in model.coef_[0]],
        "intercept": round(float(model.intercept_[0]), 6),
        "thresholds": {
            "unsupported": round(threshold, 3),
            "partial": round(min(0.99, threshold + 0.15), 3),
            "about_similarity": previous.get("about_similarity", 0.55),
            "about_coverage": previous.get("about_coverage", 0.6),
            "contradiction_similarity": previous.get("contradiction_similarity", 0.75),
            "contradiction_coverage": previous.get("contradiction_coverage", 0.4),
            "figure_coverage": previous.get("figure_coverage", 0.5),
        },
        "model_card": {
            "fitted_on": f"RAGTruth {RAGTRUTH.name}, meta.hash_half == 'dev' only, first {len(dev)} answers: "
            f"{len(fit)} claims "
            f"({int(y.sum())} not supported) that no detector decided",
            "threshold_chosen_on": "RAGTruth dev half (mean of F1 and balanced accuracy) and handcrafted_dev "
            "(balanced accuracy), equally weighted; neither test half nor any test file was read",
            "data_sha256": {
                "ragtruth": hashlib.sha256(RAGTRUTH.read_bytes()).hexdigest(),
                "handcrafted_dev": hashlib.sha256(HANDCRAFTED.read_bytes()).hexdigest(),
            },
            "seed": args.seed,
            "versions": {"python": platform.python_version(), "numpy": np.__version__},
            "metrics_at_threshold": {"ragtruth_dev": on_dev, "handcrafted_dev": on_tuning},
        },
    }
    if "answer" in (shipped := json.loads(OUT.read_text()) if OUT.exists() else {}):
        card["answer"] = shipped["answer"]  # the answer level's section: refit it with train_answer_level.py
    OUT.write_text(json.dumps(card, indent=1) + "\n")
    print(json.dumps(card["model_card"]["metrics_at_threshold"]), "threshold", round(threshold, 3))


if __name__ == "__main__":
    main()
