"""The verifier's shipped artifact (logistic weights over :data:`FEATURES`, thresholds, model card) and
the features it reads.

Written by ``benchmarks/train_verifier.py`` to ``judges/verifier_model.json``; its digest is part of
the offline judge's version, so report caches never serve verdicts of other weights.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

from ragaudit._mentions import novel_name
from ragaudit._text import LIGHT_WORDS, stem
from ragaudit.align import Alignment, SourceIndex
from ragaudit.matching import quantity_supported, unsupported_figures
from ragaudit.slots import Slots, extract


class Window(Protocol):
    """What the features read of an evidence window (``_windows.Window``)."""

    @property
    def text(self) -> str: ...
    @property
    def similarity(self) -> float: ...
    @property
    def coverage(self) -> float: ...


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
    figure_coverage: float
    """A figure no source states is added detail where the closest passage covers this share of the claim."""
    answer_coef: tuple[float, ...]
    """Weights of the answer-level model over the answer's strongest claim doubts, strongest first."""
    answer_intercept: float
    answer_threshold: float
    """The model's claim flags stand only where the answer-level probability reaches this."""
    digest: str

    def probability(self, features: dict[str, float]) -> float:
        """Probability that the claim is not supported."""
        z = self.intercept + sum(c * features[name] for c, name in zip(self.coef, FEATURES, strict=True))
        return _sigmoid(z)

    def answer_probability(self, doubts: Sequence[float]) -> float:
        """Probability that an answer is not supported, from the model's doubts about its claims (any order)."""
        top = sorted(doubts, reverse=True)[: len(self.answer_coef)]
        return _sigmoid(self.answer_intercept + sum(c * d for c, d in zip(self.answer_coef, top, strict=False)))


def _sigmoid(z: float) -> float:
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
        figure_coverage=float(t["figure_coverage"]),
        answer_coef=tuple(float(c) for c in data["answer"]["coef"]),
        answer_intercept=float(data["answer"]["intercept"]),
        answer_threshold=float(data["answer"]["threshold"]),
        digest=hashlib.sha256(raw).hexdigest()[:12],
    )


def _figure_keys(text: str) -> set[str]:
    """The alignment keys of a figure as written: its numbers ("#700") and its unit's words ("ft")."""
    return {f"#{n}" for n in re.findall(r"\d+(?:\.\d+)?", text.replace(",", ""))} | {
        stem(w.lower()) for w in re.findall(r"[^\W\d_]+", text)
    }


def claim_features(
    alignment: Alignment,
    index: SourceIndex,
    claim: Slots,
    windows: Sequence[Window],
    about: Sequence[Window],
    pool: list[Any],
    all_text: str,
    novelty: float,
    given: Slots | None = None,
) -> dict[str, float]:
    """The learned model's inputs for one claim and its ranked evidence windows (see :data:`FEATURES`)."""
    best = windows[0]
    content = [k for k in alignment.keys if k not in LIGHT_WORDS]
    stated = unsupported_figures(
        claim.quantities,
        lambda q, known: quantity_supported(q, pool, operands=known),
        given.quantities if given else (),
    )
    # A figure stated in another unit ("700 ft" for 214 m) is no new wording: its number and unit are the source's.
    converted = {k for q in claim.quantities if q.dimension and q not in stated for k in _figure_keys(q.text)}
    novel = [k for k in content if k not in index.vocabulary and k not in converted]
    window_slots = [extract(w.text) for w in about[:3]]
    hedge_gap = float(any(s.hedged or s.unknown for s in window_slots) and not (claim.hedged or claim.unknown))
    causal_gap = float(claim.causal and not any(s.causal for s in window_slots))
    sim = max(w.similarity for w in windows)
    lex = max(w.coverage for w in windows)
    words = [t.key for t in alignment.terms if t.kind in ("word", "num", "time")]
    pairs = list(itertools.pairwise(words))
    novel_pairs = sum(1 for p in pairs if p not in index.bigrams) / len(pairs) if pairs else 0.0
    structured = float(bool(alignment.best) and alignment.best[0].leaf)
    novel_share = len(novel) / max(1, len(content))
    return {
        "bias_free_sim": 1.0 - sim,
        "sim_best": best.similarity,
        "lex_best": lex,
        "lex_union": alignment.union_coverage,
        "lex_global": alignment.global_coverage,
        "novel_stems": novel_share,
        "novel_numbers": float(len(stated)),
        "novel_names": float(sum(1 for n, w in claim.names.items() if novel_name(n, w, all_text, index))),
        "log_length": math.log1p(len(alignment.keys)),
        "structured": structured,
        "answer_novelty": novelty,
        "hedge_gap": hedge_gap,
        "causal_gap": causal_gap,
        "sim_x_lex": sim * lex,
        "miss_best": 1.0 - alignment.best_coverage,
        "log_missing": math.log1p(len(alignment.missing)),
        "novel_bigrams": novel_pairs,
        "sim_best_structured": best.similarity * structured,
        "lex_best_structured": lex * structured,
        "novel_stems_structured": novel_share * structured,
        "novel_bigrams_structured": novel_pairs * structured,
    }
