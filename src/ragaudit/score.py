"""Stage 5: count claim statuses and compute the faithfulness score."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

from ragaudit._vocab import Label
from ragaudit.gate import Calibration
from ragaudit.models import ClaimResult, Counts

NO_CLAIMS_NOTE = "No checkable claims were found in the answer; the score is 1.0 by definition."


def count(claims: Sequence[ClaimResult]) -> Counts:
    """Count the claims of each status."""
    counts = Counts(total=len(claims))
    for claim in claims:
        setattr(counts, claim.status, getattr(counts, claim.status) + 1)
    return counts


def faithfulness(counts: Counts) -> float:
    """``(supported + 0.5 × partially_supported) / claims``, or 1.0 with no claims.

    >>> faithfulness(Counts(total=4, supported=2, partially_supported=1, unsupported=1))
    0.625
    """
    if counts.total == 0:
        return 1.0
    return round((counts.supported + 0.5 * counts.partially_supported) / counts.total, 6)


MISATTRIBUTION_STRENGTH = 0.75
"""How strongly a fabricated citation counts in :func:`hallucination_score` (the citation check gives no
confidence of its own)."""


def misattributed(claims: Sequence[ClaimResult]) -> bool:
    """Whether an inline citation names no source, or a source that does not hold the claim it cites."""
    return any(c.citation_check is not None and not c.citation_check.valid for c in claims)


def label(claims: Sequence[ClaimResult]) -> Label:
    """``hallucinated`` when a claim is not supported or a citation attributes a claim to the wrong source."""
    return "hallucinated" if misattributed(claims) or any(c.status != "supported" for c in claims) else "faithful"


def finding_strength(claims: Sequence[ClaimResult]) -> float:
    """How strongly the answer holds an unsupported claim, in [0, 1], ranked as the label decides: at or
    over 0.5 exactly when the answer is labelled hallucinated (0.5 plus half the strongest finding's
    confidence: a flagged claim's, 0.75 for a fabricated citation), under it otherwise (half the weakest
    supported claim's doubt, one minus its confidence); 0 with no claims.

    >>> finding_strength([])
    0.0
    """
    flagged = [c.confidence for c in claims if c.status != "supported"]
    if misattributed(claims):
        flagged.append(MISATTRIBUTION_STRENGTH)
    if flagged:
        return round(0.5 + 0.5 * max(flagged), 6)
    return round(0.5 * max((1.0 - c.confidence for c in claims), default=0.0), 6)


@cache
def shipped_calibration() -> tuple[str, Calibration]:
    """The judge the shipped calibration is for, and its Platt scaling of :func:`finding_strength`
    (``data/score_calibration.json``, written by ``benchmarks/fit_score_calibration.py`` on the
    RAGTruth dev half)."""
    card = json.loads(resources.files("ragaudit").joinpath("data/score_calibration.json").read_text())
    return str(card["judge"]), Calibration(method="platt", a=float(card["a"]), b=float(card["b"]))


def hallucination_score(claims: Sequence[ClaimResult], judge: str = "offline") -> float:
    """The probability that the answer holds a hallucination: the finding strength calibrated for the
    judge that found it, where a calibration is shipped for it (else the strength itself); 0 with no claims.

    Ranks answers exactly as :func:`finding_strength` does (the calibration is monotone).
    """
    if not claims:
        return 0.0
    strength = finding_strength(claims)
    fitted_for, calibration = shipped_calibration()
    return round(calibration.apply(strength) if judge == fitted_for else strength, 6)
