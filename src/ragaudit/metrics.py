"""Evaluation metrics: response-level classification and character-level span overlap.

Pure functions over plain values, in the shape of scikit-learn's metrics.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


def _chars(spans: Iterable[tuple[int, int]]) -> set[int]:
    covered: set[int] = set()
    for start, end in spans:
        covered.update(range(start, end))
    return covered


def span_scores(predicted: Iterable[tuple[int, int]], gold: Iterable[tuple[int, int]]) -> SpanScores:
    """Character overlap of two sets of (start, end) spans over one text (overlaps merged).

    >>> span_scores([(0, 10)], [(5, 15)]).f1
    0.5
    """
    p, g = _chars(predicted), _chars(gold)
    return SpanScores(len(p & g), len(p), len(g))
