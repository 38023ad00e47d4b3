"""Evaluation metrics: response-level classification and character-level span overlap.

Pure functions over plain values, in the shape of scikit-learn's metrics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BinaryScores:
    """Precision, recall and F1 of the positive class, and balanced accuracy."""

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float:
        """tp / (tp + fp); 0.0 when nothing was predicted positive."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        """tp / (tp + fn); 0.0 when there are no positives."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def balanced_accuracy(self) -> float:
        """Mean of the recall of each class (a class with no examples counts as 0)."""
        tnr = self.tn / (self.tn + self.fp) if self.tn + self.fp else 0.0
        return (self.recall + tnr) / 2

    def as_dict(self) -> dict[str, float | int]:
        """Counts and scores, rounded to 4 places."""
        return {
            "n": self.tp + self.fp + self.fn + self.tn,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "balanced_accuracy": round(self.balanced_accuracy, 4),
        }


def binary_scores(y_true: Sequence[bool], y_pred: Sequence[bool]) -> BinaryScores:
    """Confusion counts of a binary labelling (True is the positive class).

    >>> binary_scores([True, True, False, False], [True, False, True, False]).f1
    0.5
    """
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} items but y_pred has {len(y_pred)}")
    tp = sum(1 for t, p in zip(y_true, y_pred, strict=True) if t and p)
    fp = sum(1 for t, p in zip(y_true, y_pred, strict=True) if not t and p)
    fn = sum(1 for t, p in zip(y_true, y_pred, strict=True) if t and not p)
    return BinaryScores(tp, fp, fn, len(y_true) - tp - fp - fn)


@dataclass(frozen=True, slots=True)
class SpanScores:
    """Character-level overlap between predicted and gold spans, summed over documents."""

    overlap: int
    predicted: int
    gold: int

    @property
    def precision(self) -> float:
        """Share of predicted characters that are gold."""
        return self.overlap / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        """Share of gold characters that were predicted."""
        return self.overlap / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of character precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: SpanScores) -> SpanScores:
        return SpanScores(self.overlap + other.overlap, self.predicted + other.predicted, self.gold + other.gold)

    def as_dict(self) -> dict[str, float | int]:
        """Character counts and scores, rounded to 4 places."""
        return {
            "predicted_chars": self.predicted,
            "gold_chars": self.gold,
            "overlap_chars": self.overlap,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


def covered_chars(spans: Iterable[tuple[int, int]]) -> set[int]:
    """The character positions covered by (start, end) spans (end exclusive).

    >>> sorted(covered_chars([(0, 2), (1, 3)]))
    [0, 1, 2]
    """
    covered: set[int] = set()
    for start, end in spans:
        covered.update(range(start, end))
    return covered


def span_scores(predicted: Iterable[tuple[int, int]], gold: Iterable[tuple[int, int]]) -> SpanScores:
    """Character overlap of two sets of (start, end) spans over one text (overlaps merged).

    >>> span_scores([(0, 10)], [(5, 15)]).f1
    0.5
    """
    p, g = covered_chars(predicted), covered_chars(gold)
    return SpanScores(len(p & g), len(p), len(g))


# --- ranking metrics ------------------------------------------------------------------------
def roc_auc(y_true: Sequence[bool], scores: Sequence[float]) -> float:
    """Area under the ROC curve (ties count half); 0.5 when one class is absent.

    >>> roc_auc([False, False, True, True], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    pos = [s for s, t in zip(scores, y_true, strict=True) if t]
    neg = [s for s, t in zip(scores, y_true, strict=True) if not t]
    if not pos or not neg:
        return 0.5
    # Rank-sum (Mann-Whitney U) with average ranks for ties.
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    rank_sum = sum(r for r, t in zip(ranks, y_true, strict=True) if t)
    return (rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def average_precision(y_true: Sequence[bool], scores: Sequence[float]) -> float:
    """Area under the precision-recall curve as scikit-learn's ``average_precision_score`` defines it."""
    n_pos = sum(1 for t in y_true if t)
    if n_pos == 0:
        return 0.0
    points = pr_curve(y_true, scores)
    ap, prev_recall = 0.0, 0.0
    for _, precision, recall in points:
        ap += (recall - prev_recall) * precision
        prev_recall = recall
    return ap


def pr_curve(y_true: Sequence[bool], scores: Sequence[float]) -> list[tuple[float, float, float]]:
    """(threshold, precision, recall) at each distinct score, highest threshold first."""
    pairs = sorted(zip(scores, y_true, strict=True), key=lambda p: -p[0])
    n_pos = sum(1 for t in y_true if t) or 1
    points: list[tuple[float, float, float]] = []
    tp = fp = 0
    for i, (score, truth) in enumerate(pairs):
        tp += int(truth)
        fp += int(not truth)
        if i + 1 == len(pairs) or pairs[i + 1][0] != score:
            points.append((score, tp / (tp + fp), tp / n_pos))
    return points


def roc_curve(y_true: Sequence[bool], scores: Sequence[float]) -> list[tuple[float, float]]:
    """(false positive rate, true positive rate) points from (0, 0) to (1, 1)."""
    pairs = sorted(zip(scores, y_true, strict=True), key=lambda p: -p[0])
    n_pos = sum(1 for t in y_true if t) or 1
    n_neg = sum(1 for t in y_true if not t) or 1
    points = [(0.0, 0.0)]
    tp = fp = 0
    for i, (score, truth) in enumerate(pairs):
        tp += int(truth)
        fp += int(not truth)
        if i + 1 == len(pairs) or pairs[i + 1][0] != score:
            points.append((fp / n_neg, tp / n_pos))
    return points


# --- calibration ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ReliabilityBin:
    """One bin of a reliability diagram."""

    lower: float
    upper: float
    count: int
    mean_confidence: float
    accuracy: float


def reliability_bins(confidence: Sequence[float], correct: Sequence[bool], *, bins: int = 10) -> list[ReliabilityBin]:
    """Equal-width confidence bins with each bin's mean confidence and accuracy (empty bins omitted)."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, c in enumerate(confidence) if lo <= c < hi or (b == bins - 1 and c == 1.0)]
        if idx:
            out.append(
                ReliabilityBin(
                    lo,
                    hi,
                    len(idx),
                    sum(confidence[i] for i in idx) / len(idx),
                    sum(1 for i in idx if correct[i]) / len(idx),
                )
            )
    return out


def expected_calibration_error(confidence: Sequence[float], correct: Sequence[bool], *, bins: int = 10) -> float:
    """Count-weighted mean |accuracy − confidence| over equal-width bins.

    >>> expected_calibration_error([0.9, 0.9, 0.6, 0.6], [True, True, True, False])
    0.1
    """
    n = len(confidence)
    if n == 0:
        return 0.0
    return round(
        sum(b.count * abs(b.accuracy - b.mean_confidence) for b in reliability_bins(confidence, correct, bins=bins))
        / n,
        12,
    )


def brier_score(confidence: Sequence[float], correct: Sequence[bool]) -> float:
    """Mean squared difference between confidence and correctness (0 is perfect)."""
    if not confidence:
        return 0.0
    return sum((c - float(k)) ** 2 for c, k in zip(confidence, correct, strict=True)) / len(confidence)


# --- agreement ------------------------------------------------------------------------------
def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float:
    """Cohen's kappa between two raters' labels of the same items.

    >>> round(cohen_kappa(["x", "x", "y", "y"], ["x", "y", "y", "y"]), 3)
    0.5
    """
    if len(a) != len(b) or not a:
        raise ValueError("cohen_kappa needs two equally long, non-empty label lists")
    n = len(a)
    labels = sorted(set(a) | set(b))
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    expected = sum((a.count(label) / n) * (b.count(label) / n) for label in labels)
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def fleiss_kappa(ratings: Sequence[Sequence[str | None]]) -> float:
    """Fleiss' kappa; ``ratings[item][rater]`` with the same number of raters per item (no ``None``)."""
    items = [list(r) for r in ratings]
    if not items:
        raise ValueError("fleiss_kappa needs at least one item")
    raters = len(items[0])
    if raters < 2 or any(len(r) != raters or None in r for r in items):
        raise ValueError("fleiss_kappa needs every item rated by the same number (≥ 2) of raters")
    labels = sorted({label for r in items for label in r if label is not None})
    n = len(items)
    counts = [[r.count(label) for label in labels] for r in items]
    p_j = [sum(c[j] for c in counts) / (n * raters) for j in range(len(labels))]
    p_i = [(sum(x * x for x in c) - raters) / (raters * (raters - 1)) for c in counts]
    p_bar, p_e = sum(p_i) / n, sum(p * p for p in p_j)
    return 1.0 if p_e == 1 else (p_bar - p_e) / (1 - p_e)


def krippendorff_alpha(ratings: Sequence[Sequence[str | None]]) -> float:
    """Krippendorff's alpha for nominal labels; ``ratings[item][rater]``, ``None`` = missing."""
    units = [[x for x in r if x is not None] for r in ratings]
    units = [u for u in units if len(u) >= 2]
    if not units:
        raise ValueError("krippendorff_alpha needs items rated by at least two raters")
    labels = sorted({x for u in units for x in u})
    # Coincidence matrix.
    o = {(c, k): 0.0 for c in labels for k in labels}
    for u in units:
        m = len(u)
        for i, c in enumerate(u):
            for j, k in enumerate(u):
                if i != j:
                    o[(c, k)] += 1 / (m - 1)
    n_c = {c: sum(o[(c, k)] for k in labels) for c in labels}
    n = sum(n_c.values())
    observed = sum(o[(c, k)] for c in labels for k in labels if c != k)
    expected = sum(n_c[c] * n_c[k] for c in labels for k in labels if c != k) / (n - 1)
    return 1.0 if expected == 0 else 1 - observed / expected


# --- resampling -----------------------------------------------------------------------------
def bootstrap_ci(
    values: Sequence[object],
    statistic: Callable[[Sequence[object]], float],
    *,
    resamples: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of ``statistic`` over ``values`` (seeded, deterministic)."""
    import random

    if not values:
        return (0.0, 0.0)
    rng = random.Random(seed)
    n = len(values)
    stats = sorted(statistic([values[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples))
    lo = stats[int((1 - level) / 2 * resamples)]
    hi = stats[min(resamples - 1, int((1 + level) / 2 * resamples))]
    return (lo, hi)
