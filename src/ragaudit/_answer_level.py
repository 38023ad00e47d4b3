"""The learned model's claim doubts read at the answer level (issue 9, item 5).

The claim model flags claims worded unlike their sources. That is often added content in a generated
answer, and often plain paraphrase in a careful one: one such claim used to fail a faithful eight-claim
answer. A logistic over the answer's strongest doubts (``answer`` in ``verifier_model.json``, fitted by
``benchmarks/train_answer_level.py``) decides whether the model's flags stand. It runs after the checks,
so they read the claim-level verdicts (an invented answer to an ask beyond the sources is still a missing
abstention), and it moves only what the model alone decided: a detector's or a check's finding stands
whatever the rest of the answer says. An answer with fewer than :data:`MIN_DOUBTS` claims the model
decided is read claim by claim: one invented claim is all a short answer may say.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragaudit._verifier_model import VerifierModel
from ragaudit.checks import amend
from ragaudit.models import ClaimResult

MIN_DOUBTS = 4
"""Claims the model decided that an answer needs before its doubts are read together."""
STEP = "answer level"
"""How a claim the answer level moved names what decided it (``decided_by``, ``amended_by``)."""


def doubt(claim: ClaimResult) -> float:
    """The model's probability that ``claim`` is not supported, from its verdict."""
    return claim.confidence if claim.status != "supported" else 1.0 - claim.confidence


def read_together(claims: Sequence[ClaimResult], model: VerifierModel, *, answers_beyond: bool) -> list[ClaimResult]:
    """The claims with the model's flags kept where the answer-level probability reaches its threshold and
    withdrawn where it does not; where the doubts pass together and no claim did alone, the most doubted
    claim carries them. ``answers_beyond``: the abstention check found the answer answering an ask the sources
    cannot, so the model's flags there are what it invented, and stand."""
    out = list(claims)
    doubted = [i for i, c in enumerate(out) if c.decided_by == "model"]
    if len(doubted) < MIN_DOUBTS:
        return out
    p, bar = model.answer_probability([doubt(out[i]) for i in doubted]), model.answer_threshold
    flagged = [i for i in doubted if out[i].status != "supported"]
    if p >= bar and not flagged:
        i = max(doubted, key=lambda k: doubt(out[k]))
        why = (
            f"Worded unlike its sources (the model's doubt {doubt(out[i]):.2f}); with the answer's other claims its "
            f"doubts reach the answer-level bar ({p:.3f} ≥ {bar:.3f})."
        )
        out[i] = amend(out[i], "unsupported", STEP, why, p)
    elif p < bar and not answers_beyond:
        for i in flagged:
            why = (
                f"{out[i].explanation} Read with the answer's other claims it stands: their doubts together stay "
                f"below the answer-level bar ({p:.3f} < {bar:.3f})."
            )
            out[i] = amend(out[i], "supported", STEP, why, 1.0 - p)
    return out
