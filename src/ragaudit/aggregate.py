"""Aggregate metrics of a batch output table (the kernel's flat schema), computed on one machine.

Only a few narrow columns are needed (``label``, ``faithfulness``, ``error`` and the slice and gold
columns), so on Spark they are collected to the driver and summarised here. Intervals are percentile
bootstraps: resampling rows of a binary outcome is resampling its counts (binomial, or multinomial
for a confusion matrix), so the intervals cost the same for a thousand rows as for a billion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa

RESAMPLES = 2000
HISTOGRAM_BINS = 10


def _gold(value: object) -> bool | None:
    """A gold label as hallucinated (True) / faithful (False); anything else is unlabelled."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        return {"hallucinated": True, "faithful": False, "true": True, "false": False, "1": True, "0": False}.get(
            value.strip().lower()
        )
    return None


def _interval(samples: np.ndarray[Any, Any]) -> list[float]:
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return [float("nan"), float("nan")]
    return [round(float(np.quantile(finite, 0.025)), 4), round(float(np.quantile(finite, 0.975)), 4)]


def rate_with_ci(positives: int, n: int, *, seed: int = 0) -> dict[str, Any]:
    """A rate and its 95% bootstrap interval."""
    if n == 0:
        return {"n": 0, "rate": None, "ci95": None}
    rng = np.random.default_rng(seed)
    samples = rng.binomial(n, positives / n, size=RESAMPLES) / n
    return {"n": n, "rate": round(positives / n, 4), "ci95": _interval(samples)}


def _detection(pred: list[bool], gold: list[bool], *, seed: int = 0) -> dict[str, Any]:
    """Precision, recall and F1 of predicted hallucinations against gold, with 95% bootstrap intervals."""
    tp = sum(p and g for p, g in zip(pred, gold, strict=True))
    fp = sum(p and not g for p, g in zip(pred, gold, strict=True))
    fn = sum(g and not p for p, g in zip(pred, gold, strict=True))
    n = len(pred)
    tn = n - tp - fp - fn
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(n, np.array([tp, fp, fn, tn]) / n, size=RESAMPLES).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = draws[:, 0] / (draws[:, 0] + draws[:, 1])
        recall = draws[:, 0] / (draws[:, 0] + draws[:, 2])
        f1 = 2 * precision * recall / (precision + recall)

    def point(num: int, den: int) -> float | None:
        return round(num / den, 4) if den else None

    p_hat, r_hat = point(tp, tp + fp), point(tp, tp + fn)
    f_hat = round(2 * p_hat * r_hat / (p_hat + r_hat), 4) if p_hat and r_hat else None
    return {
        "precision": p_hat,
        "precision_ci95": _interval(precision),
        "recall": r_hat,
        "recall_ci95": _interval(recall),
        "f1": f_hat,
        "f1_ci95": _interval(f1),
    }


def _group(labels: list[str], gold: list[bool | None] | None, *, seed: int) -> dict[str, Any]:
    pred = [label == "hallucinated" for label in labels]
    out: dict[str, Any] = {"hallucination_rate": rate_with_ci(sum(pred), len(pred), seed=seed)}
    if gold is not None:
        pairs = [(p, g) for p, g in zip(pred, gold, strict=True) if g is not None]
        if pairs:
            gold_flags = [g for _, g in pairs]
            out["gold_hallucination_rate"] = rate_with_ci(sum(gold_flags), len(gold_flags), seed=seed)
            out["detection"] = _detection([p for p, _ in pairs], gold_flags, seed=seed)
    return out


def summarize(table: pa.Table, *, slice_by: str | None = None, gold: str | None = None) -> dict[str, Any]:
    """Rows, errors, the faithfulness distribution and hallucination rates (overall and per slice).

    With a ``gold`` column (``hallucinated``/``faithful``, booleans or 0/1), each group also gets
    the gold hallucination rate and precision/recall/F1 of the predicted label, with 95% intervals.
    """
    error = table.column("error").to_pylist()
    ok = [i for i, e in enumerate(error) if e is None]
    labels_all = table.column("label").to_pylist()
    scores = np.array([table.column("faithfulness")[i].as_py() for i in ok], dtype=float)
    labels = [str(labels_all[i]) for i in ok]
    gold_all = [_gold(v) for v in table.column(gold).to_pylist()] if gold else None
    gold_ok = [gold_all[i] for i in ok] if gold_all is not None else None
    summary: dict[str, Any] = {"rows": table.num_rows, "audited": len(ok), "errors": table.num_rows - len(ok)}
    if scores.size:
        quantiles = np.quantile(scores, [0.1, 0.25, 0.5, 0.75, 0.9])
        counts, edges = np.histogram(scores, bins=HISTOGRAM_BINS, range=(0.0, 1.0))
        summary["faithfulness"] = {
            "mean": round(float(scores.mean()), 4),
            **{f"p{q}": round(float(v), 4) for q, v in zip((10, 25, 50, 75, 90), quantiles, strict=True)},
            "histogram": [
                {"from": round(float(lo), 2), "to": round(float(hi), 2), "count": int(c)}
                for lo, hi, c in zip(edges[:-1], edges[1:], counts, strict=True)
            ],
        }
    summary["overall"] = _group(labels, gold_ok, seed=0)
    if slice_by:
        slice_all = table.column(slice_by).to_pylist()
        groups: dict[str, list[int]] = {}
        for position, i in enumerate(ok):
            groups.setdefault(str(slice_all[i]), []).append(position)
        summary["slice_by"] = slice_by
        summary["slices"] = {
            name: _group(
                [labels[p] for p in members],
                [gold_ok[p] for p in members] if gold_ok is not None else None,
                seed=index + 1,
            )
            for index, (name, members) in enumerate(sorted(groups.items()))
        }
    return summary
