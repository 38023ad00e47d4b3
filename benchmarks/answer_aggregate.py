"""Would a learned answer-level aggregate beat "any flagged claim fails the answer"? (issue 9, item 5)

    python benchmarks/answer_aggregate.py            # ~3 minutes on 2 cores; prints a JSON summary

Audits the RAGTruth dev half (``meta.hash_half == "dev"``, the only half tuned on) and handcrafted_dev
with the default offline judge, reads each report's claims (status, confidence, deciding signal),
and compares, on both sets:

- the shipped rule (hallucinated when any claim is not supported or a citation misattributes);
- the same rule with the learned model's claim threshold moved (detector and check findings kept);
- a logistic aggregate over the report's claims (strongest and second model doubt, mean, noisy-or,
  counts, and one indicator per detector), fitted on the dev half (5-fold out-of-fold figures there)
  and applied to handcrafted_dev as it is, and a variant that fits only answers no detector flagged.

handcrafted_dev is read, never fitted on. Deterministic (fixed folds and seed).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict

SHARED = Path(__file__).resolve().parents[2] / "shared" / "benchmarks"
DETECTORS = ("added detail", "causal", "modality", "negation", "quantifier", "role", "name", "number", "date", "unit")
_auditor: Any = None


def _audit(line: str) -> dict[str, Any]:
    global _auditor
    from ragaudit import Auditor

    _auditor = _auditor or Auditor()
    row = json.loads(line)
    report = _auditor.audit(answer=row["answer"], sources=row["sources"], question=row.get("question"))
    claims = []
    for c in report.claims:
        soft = c.decided_by == "model"
        doubt = (c.confidence if c.status != "supported" else 1 - c.confidence) if soft else None
        hard = (not soft and c.status != "supported") or (c.citation_check is not None and not c.citation_check.valid)
        claims.append({"doubt": doubt, "hard": hard, "by": (c.decided_by or "").split(":", 1)[-1]})
    return {"gold": row["label"] == "hallucinated", "label": report.label == "hallucinated", "claims": claims}


def _features(answer: dict[str, Any]) -> list[float]:
    doubts = sorted((c["doubt"] for c in answer["claims"] if c["doubt"] is not None), reverse=True) or [0.0]
    found = Counter(c["by"] for c in answer["claims"] if c["hard"])
    return [
        doubts[0],
        doubts[1] if len(doubts) > 1 else 0.0,
        float(np.mean(doubts)),
        1 - math.prod(1 - d for d in doubts),
        math.log1p(len(answer["claims"])),
        float(any(c["hard"] and c["by"] not in DETECTORS for c in answer["claims"])),
        *(min(2, found[d]) for d in DETECTORS),
    ]


def _score(gold: np.ndarray, flagged: np.ndarray) -> dict[str, float]:
    tpr = (flagged & gold).sum() / max(1, gold.sum())
    tnr = (~flagged & ~gold).sum() / max(1, (~gold).sum())
    tp, fp, fn = (flagged & gold).sum(), (flagged & ~gold).sum(), (~flagged & gold).sum()
    return {
        "balanced_accuracy": round(float((tpr + tnr) / 2), 3),
        "f1": round(float(2 * tp / max(1, 2 * tp + fp + fn)), 3),
    }


def main() -> None:
    """Audit both sets, then print each decision rule's figures on both."""
    dev_lines = [x for x in (SHARED / "ragtruth" / "test.jsonl").open() if '"hash_half": "dev"' in x]
    hand_lines = list((SHARED / "handcrafted_dev" / "dev.jsonl").open())
    with Pool(2) as pool:
        dev = pool.map(_audit, dev_lines, chunksize=8)
        hand = pool.map(_audit, hand_lines, chunksize=8)
    out: dict[str, Any] = {"rows": {"ragtruth_dev": len(dev), "handcrafted_dev": len(hand)}}
    data = {}
    for name, answers in (("ragtruth_dev", dev), ("handcrafted_dev", hand)):
        data[name] = (
            np.array([_features(a) for a in answers]),
            np.array([a["gold"] for a in answers]),
            np.array([any(c["hard"] for c in a["claims"]) for a in answers]),
            answers,
        )
        out[f"shipped rule on {name}"] = _score(data[name][1], np.array([a["label"] for a in answers]))
    for threshold in (0.6, 0.7, 0.76, 0.8, 0.9):
        out[f"model claim threshold {threshold}"] = {
            name: _score(gold, hard | (x[:, 0] >= threshold)) for name, (x, gold, hard, _) in data.items()
        }
    x_dev, y_dev, hard_dev, _ = data["ragtruth_dev"]
    x_hand, y_hand, hard_hand, _ = data["handcrafted_dev"]
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    for variant, cols in (("every signal", slice(None)), ("model doubts only, detectors kept as rules", slice(0, 5))):
        model = LogisticRegression(max_iter=2000)
        oof = cross_val_predict(model, x_dev[:, cols], y_dev, cv=folds, method="predict_proba")[:, 1]
        hand_p = model.fit(x_dev[:, cols], y_dev).predict_proba(x_hand[:, cols])[:, 1]
        if variant != "every signal":
            oof, hand_p = np.where(hard_dev, 1.0, oof), np.where(hard_hand, 1.0, hand_p)
        out[f"logistic aggregate, {variant}"] = {
            "auroc": {
                "ragtruth_dev_out_of_fold": round(float(roc_auc_score(y_dev, oof)), 3),
                "handcrafted_dev": round(float(roc_auc_score(y_hand, hand_p)), 3),
            },
            **{
                f"threshold {t}": {
                    "ragtruth_dev": _score(y_dev, oof >= t),
                    "handcrafted_dev": _score(y_hand, hand_p >= t),
                }
                for t in (0.35, 0.5, 0.6)
            },
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
