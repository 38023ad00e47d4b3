"""The verifier's shipped artifact: logistic weights over :data:`FEATURES`, thresholds, model card.

Written by ``benchmarks/train_verifier.py`` to ``judges/verifier_model.json``; its digest is part of
the offline judge's version, so report caches never serve verdicts of other weights.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

FEATURES: tuple[str, ...] = (
    "bias_free_sim",
    "sim_best",
    "lex_best",
    "lex_union",
    "lex_global",
    "novel_stems",
    "novel_numbers",
    "novel_names",
    "log_length",
    "structured",
    "answer_novelty",
    "hedge_gap",
    "causal_gap",
    "sim_x_lex",
    "miss_best",
    "log_missing",
    "novel_bigrams",
    "sim_best_structured",
    "lex_best_structured",
    "novel_stems_structured",
    "novel_bigrams_structured",
)


@dataclass(frozen=True, slots=True)
class VerifierModel:
    """Logistic weights over :data:`FEATURES`, the thresholds, and the artifact's identity."""

    coef: tuple[float, ...]
    intercept: float
    threshold: float
    partial_threshold: float
    about_similarity: float
    """A window at least this close in meaning (or covering ``about_coverage``) is about the claim."""
    about_coverage: float
    contradiction_similarity: float
    """A differing slot contradicts only in a window this close in meaning, or covering ``contradiction_coverage``."""
    contradiction_coverage: float
    digest: str

    def probability(self, features: dict[str, float]) -> float:
        """Probability that the claim is not supported."""
        z = self.intercept + sum(c * features[name] for c, name in zip(self.coef, FEATURES, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def load_model() -> VerifierModel:
    """The shipped weights and thresholds (``judges/verifier_model.json``)."""
    raw = resources.files("ragaudit.judges").joinpath("verifier_model.json").read_bytes()
    data: dict[str, Any] = json.loads(raw)
    if tuple(data["features"]) != FEATURES:
        raise RuntimeError("verifier_model.json does not match FEATURES; rerun benchmarks/train_verifier.py")
    t = data["thresholds"]
    return VerifierModel(
        coef=tuple(float(c) for c in data["coef"]),
        intercept=float(data["intercept"]),
        threshold=float(t["unsupported"]),
        partial_threshold=float(t["partial"]),
        about_similarity=float(t["about_similarity"]),
        about_coverage=float(t["about_coverage"]),
        contradiction_similarity=float(t["contradiction_similarity"]),
        contradiction_coverage=float(t["contradiction_coverage"]),
        digest=hashlib.sha256(raw).hexdigest()[:12],
    )
