"""Metrics against hand-computed values and scikit-learn."""

from __future__ import annotations

import random

import pytest
from sklearn.metrics import balanced_accuracy_score, f1_score, precision_score, recall_score

from ragaudit.metrics import binary_scores, span_scores


def test_hand_computed() -> None:
    s = binary_scores([True, True, True, False, False], [True, True, False, True, False])
    assert (s.tp, s.fp, s.fn, s.tn) == (2, 1, 1, 1)
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == pytest.approx(2 / 3)
    assert s.f1 == pytest.approx(2 / 3)
    assert s.balanced_accuracy == pytest.approx((2 / 3 + 1 / 2) / 2)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_sklearn(seed: int) -> None:
    rng = random.Random(seed)
    y = [rng.random() < 0.4 for _ in range(200)]
    p = [rng.random() < 0.5 for _ in range(200)]
    s = binary_scores(y, p)
    assert s.precision == pytest.approx(precision_score(y, p))
    assert s.recall == pytest.approx(recall_score(y, p))
    assert s.f1 == pytest.approx(f1_score(y, p))
    assert s.balanced_accuracy == pytest.approx(balanced_accuracy_score(y, p))


def test_span_overlap_by_characters() -> None:
    s = span_scores([(0, 10), (5, 12)], [(8, 20)])
    assert (s.overlap, s.predicted, s.gold) == (4, 12, 12)
    assert s.f1 == pytest.approx(4 / 12)
    assert span_scores([], []).f1 == 0.0


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="y_true has 1 items"):
        binary_scores([True], [])
