"""Train the offline judge's logistic weights on the RAGTruth dev half, and only on it.

Each claim of a dev-half answer is labelled "not supported" when it overlaps a human
hallucination span. The decision threshold is the one that maximises the response-level mean of
F1 (hallucinated class) and balanced accuracy on the same dev half. The test half is never read.

    python benchmarks/train_offline.py [--data ../shared/benchmarks/ragtruth/test.jsonl]

Writes src/ragaudit/judges/offline_model.json.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from ragaudit._text import question_keys
from ragaudit.align import align, build_index
from ragaudit.checks import find_synthesis_error
from ragaudit.judges._offline import FEATURES, added_detail, answer_novelty, features, find_conflicts
from ragaudit.models import Source
from ragaudit.segment import segment

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"
OUT = ROOT / "src" / "ragaudit" / "judges" / "offline_model.json"


def claim_rows(path: Path) -> tuple[np.ndarray, np.ndarray, list[int], list[int], np.ndarray]:
    """Features and labels of every claim in the dev half; response ids and labels; rule flags."""
    xs, ys, groups, response_labels, forced = [], [], [], [], []
    for line in path.open():
        row = json.loads(line)
        if row["meta"].get("hash_half") != "dev":
            continue
        rid = len(response_labels)
        response_labels.append(int(row["label"] == "hallucinated"))
        index = build_index([Source(id=s["id"], text=s["text"]) for s in row["sources"]])
        presupposed = question_keys(row.get("question"))
        alignments = [align(claim, index, presupposed=presupposed) for claim in segment(row["answer"]).claims]
        novelty = answer_novelty(alignments, index)
        for a in alignments:
            claim = a.claim
            conflicts = find_conflicts(a, index)
            f = features(a, index, conflicts, novelty=novelty)
            xs.append([f[name] for name in FEATURES])
            # Claims the rules flag whatever the model says (as the pipeline does at medium risk).
            forced.append(
                bool(conflicts)
                or added_detail(a, index) is not None
                or find_synthesis_error(a.claim.text, a.claim.text, 0, index) is not None
            )
            overlap = any(min(claim.end, s["end"]) - max(claim.start, s["start"]) > 3 for s in row["spans"])
            ys.append(int(overlap))
            groups.append(rid)
    return np.array(xs), np.array(ys), groups, response_labels, np.array(forced)


def response_scores(p: np.ndarray, groups: list[int], n: int) -> np.ndarray:
    """A response's score is its worst claim's probability."""
    scores = np.zeros(n)
    for prob, g in zip(p, groups, strict=True):
        scores[g] = max(scores[g], prob)
    return scores


def f1_and_ba(y: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    tp = int(((pred == 1) & (y == 1)).sum())
    fp = int(((pred == 1) & (y == 0)).sum())
    fn = int(((pred == 0) & (y == 1)).sum())
    tn = int(((pred == 0) & (y == 0)).sum())
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    ba = 0.5 * (tp / max(1, tp + fn) + tn / max(1, tn + fp))
    return f1, ba


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    x, y, groups, labels, forced = claim_rows(args.data)
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=2000)
    model.fit(x, y)
    p = model.predict_proba(x)[:, 1]
    y_resp = np.array(labels)
    best = (0.0, 0.5, 0.0, 0.0)
    for threshold in np.arange(0.30, 0.96, 0.005):
        flagged = (p >= threshold) | forced
        pred = (response_scores(flagged.astype(float), groups, len(labels)) > 0).astype(int)
        f1, ba = f1_and_ba(y_resp, pred)
        if (f1 + ba) / 2 > best[0]:
            best = ((f1 + ba) / 2, float(threshold), f1, ba)
    _, threshold, f1, ba = best
    OUT.write_text(
        json.dumps(
            {
                "features": list(FEATURES),
                "coef": [round(float(c), 6) for c in model.coef_[0]],
                "intercept": round(float(model.intercept_[0]), 6),
                "threshold": round(threshold, 4),
                "trained_on": "RAGTruth test.jsonl, meta.hash_half == 'dev' only",
                "dev_claims": len(y),
                "dev_response_f1": round(f1, 4),
                "dev_response_balanced_accuracy": round(ba, 4),
            },
            indent=1,
        )
        + "\n"
    )
    print(f"claims={len(y)} positives={int(y.sum())} threshold={threshold:.3f} dev F1={f1:.3f} BA={ba:.3f}")


if __name__ == "__main__":
    main()
