"""The learned model's claim doubts read at the answer level (issue 9, item 5).

The claim model flags claims worded unlike their sources. That is often added content in a generated
answer, and often plain paraphrase in a careful one: one such claim used to fail a faithful eight-claim
answer. A logistic over the answer's strongest doubts (``answer`` in ``verifier_model.json``, fitted by
``benchmarks/train_answer_level.py``) decides whether the model's flags stand. Only the model's own
flags move: a detector's finding stands whatever the rest of the answer says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ragaudit._verifier_model import VerifierModel

ANSWER_LEVEL = "worded unlike its sources, but the answer's doubts together stay below the answer-level bar"
TOGETHER = "with the answer's other doubts it reaches the answer-level bar"


class Reading(Protocol):
    """What the answer level reads and moves of one claim's reading (``verify.PairResult``)."""

    status: str
    probability: float
    signal: str
    detail: str


def read_together(readings: Sequence[Reading], model: VerifierModel) -> None:
    """Keep the model's flags where the answer-level probability reaches its threshold, else withdraw them;
    where the doubts pass together and no claim did alone, the most doubted claim carries them (in place)."""
    doubted = [r for r in readings if r.signal == "model"]
    if not doubted:
        return
    p = model.answer_probability([r.probability for r in doubted])
    flagged = [r for r in doubted if r.status != "supported"]
    if p >= model.answer_threshold:
        if not flagged:
            top = max(doubted, key=lambda r: r.probability)
            top.status, top.detail = "unsupported", f"{TOGETHER} ({p:.2f} ≥ {model.answer_threshold:.2f})"
        return
    for r in flagged:
        r.status, r.probability = "supported", min(r.probability, p)
        r.detail = f"{ANSWER_LEVEL} ({p:.2f} < {model.answer_threshold:.2f})"
