"""Stage 4: checks that read the whole request: synthesis, source conflicts, abstention, citations.

Each check reads every source's best window for each claim (:mod:`ragaudit.checks._support`).
Checks that change a claim's status run after the judge and say so: the claim keeps the judge's
verdict in ``judge_status``, names the checks in ``amended_by`` and ``decided_by``, and gets a
confidence from the evidence the check read. Order: synthesis errors and arithmetic inference,
then source conflicts, then the abstention check (claims that answer an unanswerable ask), then
citations (which depend on the last).
"""

from __future__ import annotations

import bisect
import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ragaudit._budget import EmbeddingBudget
from ragaudit.align import Alignment, SourceIndex
from ragaudit.checks._abstention import check_abstention
from ragaudit.checks._citations import check_citations
from ragaudit.checks._conflicts import find_source_conflicts
from ragaudit.checks._inference import is_inferable
from ragaudit.checks._support import ClaimEvidence, claim_evidence
from ragaudit.checks._synthesis import find_synthesis_error
from ragaudit.models import AbstentionCheck, AuditRequest, ClaimResult, ClaimStatus, Evidence, SourceConflict
from ragaudit.segment import Segmentation


@dataclass(slots=True)
class CheckOutcome:
    """Claims as amended by the checks, plus the request-level findings."""

    claims: list[ClaimResult]
    abstention: AbstentionCheck | None = None
    conflicts: list[SourceConflict] = field(default_factory=list)


def amend(
    claim: ClaimResult,
    status: ClaimStatus,
    step: str,
    explanation: str,
    confidence: float,
    **update: object,
) -> ClaimResult:
    """A claim whose status a check changed, keeping the judge's verdict and naming the step."""
    return claim.model_copy(
        update={
            "judge_status": claim.judge_status or claim.status,
            "amended_by": [*claim.amended_by, step],
            "decided_by": step,
            "status": status,
            "explanation": explanation,
            "confidence": round(min(0.99, max(0.5, confidence)), 3),
            **update,
        }
    )


def _marker_groups(claims: Sequence[ClaimResult], segmentation: Segmentation) -> dict[str, list[int]]:
    """For each cited claim, the positions of every claim its marker cites."""
    owner: dict[int, int] = {}
    owned: dict[int, list[int]] = defaultdict(list)
    starts = [m.start for m in segmentation.markers]
    ordered = all(a <= b for a, b in itertools.pairwise(starts))
    for i, claim in enumerate(claims):
        if not claim.citations:
            continue
        # The first marker that starts at or after the claim's last character.
        if ordered:
            k = bisect.bisect_left(starts, claim.end - 1)
        else:
            k = next((k for k, start in enumerate(starts) if start >= claim.end - 1), len(starts))
        if k < len(starts):
            owner[i] = k
            owned[k].append(i)
    groups: dict[str, list[int]] = {}
    for i, claim in enumerate(claims):
        if i in owner:
            groups[claim.id] = [j for j in owned[owner[i]] if claims[j].citations == claim.citations]
        elif claim.citations:
            groups[claim.id] = [i]
    return groups


_CONTEXT_CHARS = 600
"""How far back in its sentence a claim's subject is looked for (a sentence may be 100,000 characters)."""


def _sentence_start(answer: str, position: int) -> int:
    floor = max(0, position - _CONTEXT_CHARS)
    cut = max(
        answer.rfind(". ", floor, position), answer.rfind("? ", floor, position), answer.rfind("! ", floor, position)
    )
    return cut + 2 if cut >= 0 else floor


_WORDS_DECIDED = frozenset(
    f"detector:{signal}" for signal in ("negation", "modality", "quantifier", "role", "name", "causal")
)
"""Detectors that contradict a claim by its words, not its figures."""


def _apply_synthesis(
    claim: ClaimResult, alignment: Alignment, evidence: ClaimEvidence, index: SourceIndex, answer: str
) -> ClaimResult:
    synthesis = None
    if claim.status != "unsupported" and answer[claim.start : claim.end] == claim.text:
        begin = _sentence_start(answer, claim.start)
        synthesis = find_synthesis_error(claim.text, answer[begin : claim.end], claim.start - begin, index)
    if synthesis is not None:
        holder = next((s for s in evidence.by_source if s.source_id in synthesis.sources), None)
        strength = holder.window.similarity if holder is not None else 0.6
        return amend(
            claim,
            "synthesis_error",
            "check:synthesis",
            synthesis.explanation,
            strength,
            involved_sources=synthesis.sources,
            evidence=synthesis.evidence,
        )
    # A contradiction of the claim's words (a denial, a swapped role) stands, whatever its figures ("within two
    # weeks" for "14 days").
    if claim.status == "contradicted" and claim.decided_by in _WORDS_DECIDED:
        return claim
    if claim.status in ("unsupported", "partially_supported", "contradicted") and is_inferable(alignment, index):
        # A figure that differs from every stated one but follows from them by arithmetic
        # is an unstated inference, not a contradiction.
        if claim.status == "contradicted":
            return amend(
                claim,
                "unsupported",
                "check:inference",
                "Not stated in the sources, but the figures follow by arithmetic from stated ones.",
                claim.confidence,
                inferable=True,
                evidence=[e.model_copy(update={"relation": "related"}) for e in claim.evidence],
            )
        return claim.model_copy(update={"inferable": True})
    return claim


def run_checks(
    request: AuditRequest,
    segmentation: Segmentation,
    alignments: Sequence[Alignment],
    claims: list[ClaimResult],
    index: SourceIndex,
    *,
    embeddings: bool = True,
    tokens: EmbeddingBudget | None = None,
) -> CheckOutcome:
    """Run every check over one audited request (``embeddings=False``: meaning read from words alone;
    ``tokens``: what is left of the request's embedding budget)."""
    evidence = claim_evidence(list(alignments), index, embeddings=embeddings, tokens=tokens)
    amended = [
        _apply_synthesis(claim, alignment, ev, index, request.answer)
        for claim, alignment, ev in zip(claims, alignments, evidence, strict=True)
    ]
    texts = {s.id: s.text for s in index.sources}  # what the audit read (blanked past the budget)
    findings = find_source_conflicts([c.id for c in amended], evidence, texts, request.answer, segmentation)
    position = {c.id: k for k, c in enumerate(amended)}
    for finding in findings:
        i = position[finding.conflict.claim_id]
        claim = amended[i]
        if finding.conflict.answer_handling == "answer_error" or claim.status not in (
            "supported",
            "partially_supported",
        ):
            continue
        if finding.conflict.answer_handling == "took_side_silently" and finding.holder is not None:
            sides = [finding.holder, finding.rival]
            amended[i] = amend(
                claim,
                "contradicted",
                "check:conflict",
                f"{finding.conflict.explanation[0].upper()}{finding.conflict.explanation[1:]}",
                min(s.window.similarity for s in sides),
                evidence=[
                    Evidence(
                        source_id=s.window.source_id,
                        start=s.window.start,
                        end=s.window.end,
                        quote=s.window.text,
                        relation="supports" if s is finding.holder else "contradicts",
                    )
                    for s in sides
                ],
                involved_sources=[s.source_id for s in sides],
            )
    abstention: AbstentionCheck | None = None
    invented: set[str] = set()
    if request.question:
        abstention, filled = check_abstention(
            request, segmentation, amended, index, evidence, embeddings=embeddings, tokens=tokens
        )
        invented = set(filled)
        for i, claim in enumerate(amended):
            if claim.id in invented and claim.status != "unsupported":
                amended[i] = amend(
                    claim,
                    "unsupported",
                    "check:abstention",
                    f"Answers '{'; '.join(abstention.gaps)}', which no source answers: the answer fills a gap.",
                    claim.confidence,
                    evidence=[],
                )
    groups = _marker_groups(amended, segmentation)
    for i, claim in enumerate(amended):
        if claim.citations:
            group = [evidence[j] for j in groups.get(claim.id, [i])]
            if i not in groups.get(claim.id, [i]):
                group.insert(0, evidence[i])
            check = check_citations(claim, group, request.sources, invented=claim.id in invented)
            amended[i] = claim.model_copy(update={"citation_check": check})
    return CheckOutcome(claims=amended, abstention=abstention, conflicts=[f.conflict for f in findings])


__all__ = [
    "CheckOutcome",
    "amend",
    "check_abstention",
    "check_citations",
    "find_source_conflicts",
    "find_synthesis_error",
    "is_inferable",
    "run_checks",
]
