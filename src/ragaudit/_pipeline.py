"""The pipeline: segment → align → judge → checks → score, as :class:`Auditor` and :func:`audit`."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ragaudit import checks
from ragaudit._answer_level import read_together
from ragaudit._budget import NOT_CHECKED, EmbeddingBudget, claims_note, sources_note
from ragaudit._cache import IndexCache, shared_index_cache
from ragaudit._hashing import request_hashes
from ragaudit._text import question_keys
from ragaudit.align import SourceIndex, align, build_index
from ragaudit.config import AuditorConfig, Limits
from ragaudit.errors import InputError
from ragaudit.gate import Calibration, Gate, Policy
from ragaudit.judges import Judge, JudgeContext, JudgePrompt, get_judge
from ragaudit.models import (
    AuditOptions,
    AuditRequest,
    Claim,
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
from ragaudit.score import NO_CLAIMS_NOTE, count, faithfulness, hallucination_score, label
from ragaudit.segment import segment


class Auditor:
    """Audits many requests with one configuration, reusing source indexes across them.

    Like an ``httpx.Client``: configure once, use for many calls, then :meth:`close` it (or use it as
    a context manager) to release what its judge holds open (an LLM judge's pooled HTTP connections).
    It is safe to share between threads.

    Args:
        config: An :class:`~ragaudit.config.AuditorConfig`, or just the judge (a spec such as
            ``"offline"`` or a :class:`~ragaudit.judges.Judge`).
        judge, policy, risk_level, claim_types, calibration, limits: Override that field of ``config``.
        index_cache: Where source indexes are kept between audits; default: one cache for the whole
            process (bounded: 4 M source characters), whatever the number of auditors.

    Example:
        >>> with Auditor(risk_level="high") as auditor:
        ...     auditor.audit("Paris is in France.", ["Paris is in France."]).label
        'faithful'
    """

    def __init__(
        self,
        config: AuditorConfig | str | Judge | None = None,
        *,
        judge: str | Judge | None = None,
        policy: Policy | Path | str | None = None,
        risk_level: RiskLevel | None = None,
        claim_types: Sequence[ClaimType] | None = None,
        calibration: Calibration | None = None,
        limits: Limits | None = None,
        index_cache: IndexCache | None = None,
    ) -> None:
        if not isinstance(config, AuditorConfig):
            config = AuditorConfig() if config is None else AuditorConfig(judge=config)
        self.config = config.replace(
            judge=judge,
            policy=policy,
            risk_level=risk_level,
            claim_types=claim_types,
            calibration=calibration,
            limits=limits,
        )
        # A judge built here from a spec is this auditor's to close; a Judge object passed in is the caller's.
        self._owns_judge = isinstance(self.config.judge, str)
        self.judge = get_judge(self.config.judge)
        self.gate = Gate(self.config.policy)
        self.calibration = self.config.calibration or self.gate.policy.calibration
        claim_list = list(self.config.claim_types) if self.config.claim_types else None
        self.options = AuditOptions(risk_level=self.config.risk_level, claim_types=claim_list)
        self.index_cache = index_cache if index_cache is not None else shared_index_cache()
        self._closed = False

    def close(self) -> None:
        """Release what the judge holds open (idempotent); the auditor cannot audit afterwards."""
        if self._closed:
            return
        self._closed = True
        close = getattr(self.judge, "close", None)
        if self._owns_judge and callable(close):
            close()

    def __enter__(self) -> Auditor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _index(self, sources: list[Source], answer: str) -> SourceIndex:
        budget = self.config.limits.indexed_chars
        if sum(len(s.text) for s in sources) > budget:
            # Over the budget the index depends on the answer: built for this audit, never cached.
            return build_index(sources, focus=answer, max_chars=budget)
        return self.index_cache.get(sources)

    def audit(
        self,
        answer: str | AuditRequest | Mapping[str, Any],
        sources: SourcesLike | None = None,
        question: str | None = None,
        *,
        id: str | None = None,
    ) -> Report:
        """Audit one answer against its sources, or one request (an :class:`AuditRequest` or its JSON mapping)."""
        if self._closed:
            raise RuntimeError("this Auditor is closed; create a new one")
        request = as_request(answer, sources, question, id=id, limits=self.config.limits)
        t0 = time.perf_counter()
        seg = segment(request.answer)
        wanted = self.options.claim_types
        claims = [c for c in seg.claims if wanted is None or c.type in wanted]
        budget = self.config.limits.checked_claims
        claims, unchecked = claims[:budget], claims[budget:]
        t1 = time.perf_counter()
        index = self._index(request.sources, request.answer)
        presupposed = question_keys(request.question)
        alignments = [align(c, index, presupposed=presupposed) for c in claims]
        t2 = time.perf_counter()
        calls: list[JudgeCall] = []
        tokens = EmbeddingBudget(self.config.limits.embedded_tokens)
        context = JudgeContext(
            index=index,
            question=request.question,
            risk_level=self.options.risk_level,
            answer=request.answer,
            calls=calls,
            embedded_texts=self.config.limits.embedding_budget(len(claims)),
            embedded_tokens=tokens,
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
        # A judge that reads meaning from words alone (offline:no-embeddings) makes the checks do so too.
        embeddings = getattr(self.judge, "embeddings", True)
        outcome = checks.run_checks(request, seg, alignments, results, index, embeddings=embeddings, tokens=tokens)
        # The offline judge's model doubts, read per answer once the checks have read each claim's verdict.
        answer_model = getattr(self.judge, "answer_model", None)
        if answer_model is not None:
            beyond = outcome.abstention is not None and outcome.abstention.answer_abstained_correctly is False
            outcome.claims = read_together(outcome.claims, answer_model, answers_beyond=beyond)
        calibration = self.calibration
        if calibration is not None:
            outcome.claims = [
                c.model_copy(update={"confidence": round(calibration.apply(c.confidence), 4)}) for c in outcome.claims
            ]
        outcome.claims += [not_checked(c, self.judge.name, budget) for c in unchecked]
        t4 = time.perf_counter()
        counts = count(outcome.claims)
        notes = [NO_CLAIMS_NOTE] if counts.total == 0 else []
        source_chars = sum(len(s.text) for s in request.sources)
        if index.examined < source_chars:
            notes.append(sources_note(index.examined, source_chars))
        if unchecked:
            notes.append(claims_note(len(claims), len(claims) + len(unchecked)))
        fields: dict[str, Any] = dict(
            id=request.id,
            label=label(outcome.claims),
            faithfulness=faithfulness(counts),
            hallucination_score=hallucination_score(outcome.claims, self.judge.name),
            note=" ".join(notes) or None,
            counts=counts,
            claims=outcome.claims,
            abstention=outcome.abstention,
            conflicts=outcome.conflicts,
            hashes=request_hashes(request.answer, request.sources, request.question),
            judge=judge_info(self.judge),
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
        # The gate reads the finished report; it gets it unvalidated once, then the decision completes it.
        decision = self.gate.decide(Report.model_construct(**fields))
        return Report(**fields, decision=decision)

    def audit_many(self, requests: Iterable[AuditRequest | Mapping[str, Any]]) -> list[Report]:
        """Audit requests in order, in this process."""
        return [self.audit(r) for r in requests]


def not_checked(claim: Claim, judge: str, budget: int) -> ClaimResult:
    """A claim past the per-request budget: reported unsupported, with why, never as supported."""
    return ClaimResult(
        id=claim.id,
        text=claim.text,
        start=claim.start,
        end=claim.end,
        type=claim.type,
        status="unsupported",
        confidence=0.5,
        explanation=f"Not checked: the answer has more claims than the {budget:,} checked per request.",
        evidence=[],
        citations=claim.citations,
        judge=judge,
        decided_by=NOT_CHECKED,
    )


def as_request(
    answer: str | AuditRequest | Mapping[str, Any],
    sources: SourcesLike | None = None,
    question: str | None = None,
    *,
    id: str | None = None,
    limits: Limits | None = None,
) -> AuditRequest:
    """The checked request the audit arguments describe: ``(answer, sources, question)`` or one request."""
    if isinstance(answer, str):
        if sources is None:
            raise InputError("give the sources the answer was generated from: audit(answer, sources, question)")
        request = AuditRequest(id=id, question=question, answer=answer, sources=coerce_sources(sources))
    elif sources is not None or question is not None or id is not None:
        raise InputError("give either a request or (answer, sources, question), not both")
    elif isinstance(answer, AuditRequest):
        request = answer
    else:
        return validate_request(answer, limits)
    check_request(request, limits)
    return request


def judge_info(judge: Judge) -> JudgeInfo:
    """What the report records about the judge."""
    # Judges written before the protocol named ``model`` and ``prompt`` still work (as rule-based ones).
    prompt: JudgePrompt | None = getattr(judge, "prompt", None)
    return JudgeInfo(
        name=judge.name,
        version=judge.version,
        model=getattr(judge, "model", None),
        prompt_version=prompt.version if prompt else None,
        prompt_hash=prompt.hash if prompt else None,
    )


def audit(
    answer: str | AuditRequest | Mapping[str, Any],
    sources: SourcesLike | None = None,
    question: str | None = None,
    *,
    id: str | None = None,
    config: AuditorConfig | None = None,
    judge: str | Judge | None = None,
    policy: Policy | Path | str | None = None,
    risk_level: RiskLevel | None = None,
    claim_types: Sequence[ClaimType] | None = None,
    calibration: Calibration | None = None,
    limits: Limits | None = None,
) -> Report:
    """Audit one answer against its sources (or one request) and return the canonical report.

    Takes what :meth:`Auditor.audit` takes, plus the auditor's configuration; for many audits,
    make one :class:`Auditor` and reuse it.

    >>> audit("The plant opened in 2010.", ["The plant opened in 2012."]).claims[0].status
    'contradicted'
    """
    with Auditor(
        config,
        judge=judge,
        policy=policy,
        risk_level=risk_level,
        claim_types=claim_types,
        calibration=calibration,
        limits=limits,
    ) as auditor:
        return auditor.audit(answer, sources, question, id=id)
