"""The pipeline: segment → align → judge → checks → score, as :class:`Auditor` and :func:`audit`."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ragaudit import checks
from ragaudit._cache import IndexCache, shared_index_cache
from ragaudit._hashing import request_hashes
from ragaudit._text import question_keys
from ragaudit.align import SourceIndex, align
from ragaudit.errors import ConfigError
from ragaudit.gate import Gate, Policy
from ragaudit.judges import Judge, JudgeContext, get_judge
from ragaudit.models import (
    CLAIM_TYPES,
    AuditOptions,
    AuditRequest,
    ClaimResult,
    ClaimType,
    JudgeCall,
    JudgeInfo,
    Report,
    RiskLevel,
    Source,
    Timings,
)
from ragaudit.requests import SourcesLike, check_request, coerce_sources, validate_request
from ragaudit.score import NO_CLAIMS_NOTE, count, faithfulness, hallucination_score
from ragaudit.segment import segment


class Auditor:
    """Audits many requests with one configuration, reusing source indexes across them.

    Args:
        judge: A judge spec (``"offline"``) or a :class:`~ragaudit.judges.Judge`.
        risk_level: ``high``, ``medium`` or ``low``: how strictly partial support is read.
        claim_types: Audit only these claim types; the others are left out of counts and score.
        policy: Gate policy (a :class:`~ragaudit.gate.Policy` or a TOML/YAML path); default: the shipped one.
        index_cache: Where source indexes are kept between audits; default: one cache for the whole
            process (bounded: 4 M source characters), whatever the number of auditors.

    Example:
        >>> auditor = Auditor()
        >>> report = auditor.audit({"answer": "Paris is in France.", "sources": [{"id": "1", "text": "Paris is in France."}]})
        >>> report.label
        'faithful'
    """

    def __init__(
        self,
        judge: str | Judge = "offline",
        *,
        risk_level: RiskLevel = "medium",
        claim_types: Sequence[ClaimType] | None = None,
        policy: Policy | Path | str | None = None,
        index_cache: IndexCache | None = None,
    ) -> None:
        if risk_level not in ("high", "medium", "low"):
            raise ConfigError(f"risk_level must be high, medium or low, not {risk_level!r}")
        unknown = [t for t in claim_types or () if t not in CLAIM_TYPES]
        if unknown:
            raise ConfigError(f"unknown claim type(s) {unknown}: choose from {', '.join(CLAIM_TYPES)}")
        self.judge = get_judge(judge)
        self.gate = Gate(policy)
        self.options = AuditOptions(risk_level=risk_level, claim_types=list(claim_types) if claim_types else None)
        # Shared by every auditor of a service (one per option set), bounded by size.
        self.index_cache = index_cache if index_cache is not None else shared_index_cache()

    def _index(self, sources: list[Source]) -> SourceIndex:
        return self.index_cache.get(sources)

    def audit(self, request: AuditRequest | Mapping[str, Any]) -> Report:
        """Audit one request (an :class:`AuditRequest` or its JSON-shaped mapping)."""
        if not isinstance(request, AuditRequest):
            request = validate_request(request)
        else:
            check_request(request)
        t0 = time.perf_counter()
        seg = segment(request.answer)
        wanted = self.options.claim_types
        claims = [c for c in seg.claims if wanted is None or c.type in wanted]
        t1 = time.perf_counter()
        index = self._index(request.sources)
        presupposed = question_keys(request.question)
        alignments = [align(c, index, presupposed=presupposed) for c in claims]
        t2 = time.perf_counter()
        calls: list[JudgeCall] = []
        context = JudgeContext(
            index=index,
            question=request.question,
            risk_level=self.options.risk_level,
            answer=request.answer,
            calls=calls,
        )
        verdicts = self.judge.judge(alignments, context)
        t3 = time.perf_counter()
        results = [
            ClaimResult(
                id=c.id,
                text=c.text,
                start=c.start,
                end=c.end,
                type=c.type,
                status=v.status,
                confidence=v.confidence,
                explanation=v.explanation,
                evidence=v.evidence,
                citations=c.citations,
                inferable=v.inferable,
                judge=v.judge,
                escalation=v.escalation,
                fabricated_evidence=v.fabricated_evidence,
                agreement=v.agreement,
                decided_by=v.decided_by,
            )
            for c, v in zip(claims, verdicts, strict=True)
        ]
        outcome = checks.run_checks(request, seg, alignments, results, index)
        calibration = self.gate.policy.calibration
        if calibration is not None:
            outcome.claims = [
                c.model_copy(update={"confidence": round(calibration.apply(c.confidence), 4)}) for c in outcome.claims
            ]
        t4 = time.perf_counter()
        counts = count(outcome.claims)
        report = Report(
            id=request.id,
            label="hallucinated" if counts.total != counts.supported else "faithful",
            faithfulness=faithfulness(counts),
            hallucination_score=hallucination_score(outcome.claims),
            note=NO_CLAIMS_NOTE if counts.total == 0 else None,
            counts=counts,
            claims=outcome.claims,
            abstention=outcome.abstention,
            conflicts=outcome.conflicts,
            hashes=request_hashes(request.answer, request.sources, request.question),
            judge=JudgeInfo(
                name=self.judge.name,
                version=self.judge.version,
                model=getattr(self.judge, "model", None),
                prompt_version=getattr(self.judge, "prompt_version", None),
                prompt_hash=getattr(self.judge, "prompt_hash", None),
            ),
            llm_calls=calls,
            options=self.options,
            timings=Timings(
                segment_ms=round((t1 - t0) * 1000, 3),
                align_ms=round((t2 - t1) * 1000, 3),
                judge_ms=round((t3 - t2) * 1000, 3),
                checks_ms=round((t4 - t3) * 1000, 3),
                total_ms=round((t4 - t0) * 1000, 3),
            ),
        )
        return report.model_copy(update={"decision": self.gate.decide(report)})

    def audit_many(self, requests: Iterable[AuditRequest | Mapping[str, Any]]) -> list[Report]:
        """Audit requests in order, in this process."""
        return [self.audit(r) for r in requests]


def audit(
    answer: str,
    sources: SourcesLike,
    question: str | None = None,
    *,
    judge: str | Judge = "offline",
    risk_level: RiskLevel = "medium",
    claim_types: Sequence[ClaimType] | None = None,
    policy: Policy | Path | str | None = None,
    id: str | None = None,
) -> Report:
    """Audit one answer against its sources and return the canonical report.

    >>> audit("The plant opened in 2010.", ["The plant opened in 2012."]).claims[0].status
    'contradicted'
    """
    request = AuditRequest(id=id, question=question, answer=answer, sources=coerce_sources(sources))
    return Auditor(judge, risk_level=risk_level, claim_types=claim_types, policy=policy).audit(request)
