"""Does the learned pair verifier help the offline judge? Its two outputs as features of the verifier's
logistic model, against the same model without them.

    python benchmarks/pair_ablation.py      # after benchmarks/train_pair_model.py; a markdown table

Data: the RAGTruth dev-half answers the logistic model is fitted on (the even-indexed ones; the pair
verifier was trained on the odd-indexed ones) and handcrafted_dev, both read the way
``benchmarks/train_verifier.py`` reads them (claims no detector decided are the model's). For each
claim the pair verifier reads the verifier's two best windows; its features are P(entailed) of the
window that best entails the claim and that window's P(contradicted). Reported: claim-level AUROC of
the logistic model with two-fold cross-validation over the dev answers, and response-level balanced
accuracy on both sets at a range of thresholds (the dev figures are in-sample for the weights, the
same for both variants).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from pair_model import load_pair_model
from ragaudit._text import question_keys
from ragaudit._verifier_model import FEATURES
from ragaudit.align import align, build_index
from ragaudit.judges._offline import answer_novelty
from ragaudit.models import Source
from ragaudit.segment import segment
from ragaudit.verify import Verifier
from train_verifier import HANDCRAFTED, RAGTRUTH, gold_of

CACHE = Path(__file__).resolve().parent / "out" / "pair_ablation_rows.json"
THRESHOLDS = (0.6, 0.7, 0.76, 0.8, 0.85, 0.9)


def _row(item: tuple[str, str]) -> dict[str, Any]:
    kind, line = item
    row = json.loads(line)
    answer = row["answer"]
    label, gold = gold_of(kind, row)
    index = build_index([Source(id=s["id"], text=s["text"]) for s in row["sources"]])
    presupposed = question_keys(row.get("question"))
    alignments = [align(c, index, presupposed=presupposed) for c in segment(answer).claims]
    results = Verifier().verify(alignments, index, answer_novelty(alignments, index), row.get("question"))
    claims = []
    for a, r in zip(alignments, results, strict=True):
        pair = [0.5, 0.0]
        if r.signal == "model" and r.windows:
            scores = load_pair_model().score([(a.claim.text, w.text) for w in r.windows[:2]])
            best = scores[int(scores[:, 0].argmax())]
            pair = [float(best[0]), float(best[2])]
        claims.append(
            {
                "x": [r.features.get(f, 0.0) for f in FEATURES] + pair,
                "y": int(any(min(a.claim.end, e) - max(a.claim.start, s) > 3 for s, e in gold)),
                "detector": r.signal != "model",
            }
        )
    return {"label": label, "claims": claims}


def _rows(workers: int) -> dict[str, list[dict[str, Any]]]:
    dev = [line for line in RAGTRUTH.read_text().splitlines() if '"hash_half": "dev"' in line][::2]
    items = [("ragtruth", line) for line in dev] + [
        ("handcrafted", line) for line in HANDCRAFTED.read_text().splitlines()
    ]
    with multiprocessing.Pool(workers) as pool:
        rows = list(pool.imap(_row, items, chunksize=4))
    return {"ragtruth": rows[: len(dev)], "handcrafted": rows[len(dev) :]}


def _fit(rows: list[dict[str, Any]], keep: np.ndarray) -> LogisticRegression:
    fit = [c for r in rows for c in r["claims"] if not c["detector"]]
    x = np.array([c["x"] for c in fit]) * keep
    y = np.array([c["y"] for c in fit])
    return LogisticRegression(C=1.0, class_weight="balanced", max_iter=5000, random_state=0).fit(x, y)


def _balanced_accuracy(rows: list[dict[str, Any]], model: LogisticRegression, keep: np.ndarray, t: float) -> float:
    tp = fp = fn = tn = 0
    for r in rows:
        xs = [c["x"] for c in r["claims"] if not c["detector"]]
        flagged = any(c["detector"] for c in r["claims"]) or bool(
            xs and (model.predict_proba(np.array(xs) * keep)[:, 1] >= t).any()
        )
        tp += flagged and r["label"]
        fp += flagged and not r["label"]
        fn += (not flagged) and r["label"]
        tn += (not flagged) and not r["label"]
    return 0.5 * (tp / max(1, tp + fn) + tn / max(1, tn + fp))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if CACHE.exists():
        data = json.loads(CACHE.read_text())
    else:
        data = _rows(args.workers)
        CACHE.write_text(json.dumps(data))
    dev, tuning = data["ragtruth"], data["handcrafted"]
    n = len(FEATURES)
    variants = {
        "logistic model (shipped features)": np.array([1.0] * n + [0.0, 0.0]),
        "+ pair verifier": np.array([1.0] * (n + 2)),
        "pair verifier alone": np.array([0.0] * n + [1.0, 1.0]),
    }
    print(
        "| variant | claim AUROC, RAGTruth dev (2-fold) | "
        + " | ".join(f"BA @ {t}: dev / hc" for t in THRESHOLDS)
        + " |"
    )
    print("|---|---|" + "---|" * len(THRESHOLDS))
    for name, keep in variants.items():
        aucs = []
        for train, test in ((dev[::2], dev[1::2]), (dev[1::2], dev[::2])):
            model = _fit(train, keep)
            fit = [c for r in test for c in r["claims"] if not c["detector"]]
            p = model.predict_proba(np.array([c["x"] for c in fit]) * keep)[:, 1]
            aucs.append(roc_auc_score([c["y"] for c in fit], p))
        model = _fit(dev, keep)
        cells = [
            f"{_balanced_accuracy(dev, model, keep, t):.3f} / {_balanced_accuracy(tuning, model, keep, t):.3f}"
            for t in THRESHOLDS
        ]
        print(
            f"| {name} | {np.mean(aucs):.3f} ({aucs[0]:.3f}, {aucs[1]:.3f}) | " + " | ".join(cells) + " |", flush=True
        )


if __name__ == "__main__":
    main()
