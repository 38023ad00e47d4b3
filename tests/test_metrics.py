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


@pytest.mark.parametrize("seed", range(4))
def test_ranking_metrics_agree_with_sklearn(seed: int) -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    from ragaudit.metrics import average_precision, roc_auc

    rng = random.Random(seed)
    y = [rng.random() < 0.4 for _ in range(300)]
    # Coarse scores so ties occur, as they do with real reports.
    s = [round(rng.random() * 0.6 + (0.3 if t else 0.0), 1) for t in y]
    assert roc_auc(y, s) == pytest.approx(roc_auc_score(y, s))
    assert average_precision(y, s) == pytest.approx(average_precision_score(y, s))


def test_calibration_metrics_by_hand_and_sklearn() -> None:
    from sklearn.metrics import brier_score_loss

    from ragaudit.metrics import brier_score, expected_calibration_error, reliability_bins

    conf = [0.95, 0.95, 0.75, 0.75, 0.55, 0.55]
    right = [True, True, True, False, False, False]
    assert brier_score(conf, right) == pytest.approx(brier_score_loss(right, conf))
    # Bins: 0.9-1.0 acc 1.0 (gap .05), 0.7-0.8 acc .5 (gap .25), 0.5-0.6 acc 0 (gap .55).
    assert expected_calibration_error(conf, right) == pytest.approx((2 * 0.05 + 2 * 0.25 + 2 * 0.55) / 6)
    assert [b.count for b in reliability_bins(conf, right)] == [2, 2, 2]


@pytest.mark.parametrize("seed", range(4))
def test_agreement_metrics_agree_with_sklearn_and_krippendorff(seed: int) -> None:
    import krippendorff
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    from ragaudit.metrics import cohen_kappa, fleiss_kappa, krippendorff_alpha

    rng = random.Random(seed)
    labels = ["supported", "unsupported", "contradicted"]
    truth = [rng.choice(labels) for _ in range(80)]
    raters = [[t if rng.random() < 0.7 else rng.choice(labels) for t in truth] for _ in range(3)]
    assert cohen_kappa(raters[0], raters[1]) == pytest.approx(cohen_kappa_score(raters[0], raters[1]))
    items = [list(r) for r in zip(*raters, strict=True)]
    # With one rating missing here and there, alpha must match the reference package.
    items_missing = [[None if rng.random() < 0.1 else x for x in row] for row in items]
    code = {label: i for i, label in enumerate(labels)}
    reliability = np.array(
        [[np.nan if row[r] is None else code[row[r]] for row in items_missing] for r in range(3)], dtype=float
    )
    expected = krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal")
    assert krippendorff_alpha(items_missing) == pytest.approx(expected)
    # Fleiss by hand on a tiny table: 2 items, 3 raters.
    assert fleiss_kappa([["a", "a", "a"], ["b", "b", "b"]]) == pytest.approx(1.0)
    assert fleiss_kappa(items) < 1.0


def test_bootstrap_interval_contains_the_estimate_and_is_seeded() -> None:
    from ragaudit.metrics import bootstrap_ci

    values = [1.0] * 30 + [0.0] * 70

    def mean(v: list[object]) -> float:
        return sum(v) / len(v)  # type: ignore[arg-type]

    lo, hi = bootstrap_ci(values, mean, resamples=500)
    assert lo < 0.3 < hi and hi - lo < 0.25
    assert bootstrap_ci(values, mean, resamples=500) == (lo, hi)
