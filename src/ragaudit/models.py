"""Typed data that flows between the pipeline stages, and the canonical report.

Stages: segment → align → judge → checks → score → gate → render. Each stage takes and
returns these models; nothing passes dicts around. The report's field names are part of the
public contract (other tools parse them): ``id``, ``label``, ``faithfulness``, ``claims``; each
claim's ``text``, ``start``, ``end``, ``status``, ``confidence``, ``evidence``; each evidence
item's ``source_id``, ``start``, ``end``, ``quote``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# The allowed values live in one module; re-exported here because the report's types use them.
from ragaudit._vocab import (
    CLAIM_STATUSES as CLAIM_STATUSES,
)
from ragaudit._vocab import (
    CLAIM_TYPES as CLAIM_TYPES,
)
from ragaudit._vocab import (
    ClaimStatus as ClaimStatus,
)
from ragaudit._vocab import (
    ClaimType as ClaimType,
)
from ragaudit._vocab import (
    EvidenceRelation as EvidenceRelation,
)
from ragaudit._vocab import (
    GateAction as GateAction,
)
from ragaudit._vocab import (
    Label as Label,
)
from ragaudit._vocab import (
    RiskLevel as RiskLevel,
)
from ragaudit._vocab import (
    Severity as Severity,
)

REPORT_SCHEMA_VERSION = "1.0"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Source(_Model):
    """One passage the generator saw."""

    id: str = Field(min_length=1)
    """Identifier the answer may cite (``"1"``, ``"S2"``, ``"doc-3"`` …)."""
    text: str
    """The passage text: prose, a list, a table or a JSON record."""


class AuditRequest(BaseModel):
    """One audit: the answer, the exact sources, and the question if there was one."""

    model_config = ConfigDict(extra="ignore")

    id: str | None = None
    """Caller's identifier, echoed in the report."""
    question: str | None = None
    """The user's question, when the answer responds to one."""
    answer: str
    """The generated answer to audit."""
    sources: list[Source]
    """The passages the generator saw, in the order it saw them (positions are 1-based)."""


class Claim(_Model):
    """One atomic assertion of the answer (the segment stage's output)."""

    id: str
    """``c1``, ``c2`` … in answer order."""
    text: str
    """Exactly ``answer[start:end]``."""
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    """End offset, exclusive."""
    type: ClaimType
    citations: list[str] = Field(default_factory=list)
    """Source references written inline in the answer (ids or 1-based positions, as written)."""


class Evidence(_Model):
    """A verbatim span of one source: ``source.text[start:end] == quote`` always holds."""

    source_id: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    quote: str
    relation: EvidenceRelation = "supports"
    """Whether the span supports the claim, contradicts it, or is only the closest text."""


class FabricatedEvidence(_Model):
    """A quote or source id a judge returned that is not in the sources."""

    source_id: str
    quote: str
    reason: str
    """``unknown source`` or ``quote not found in the source``."""


class JudgeCall(_Model):
    """One call to an LLM judge, as recorded in the report."""

    judge: str
    model: str
    prompt_version: str
    prompt_hash: str
    claims: int
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    attempt: int = 1
    outcome: str = "ok"
    """``ok``, ``cached``, ``retry: …``, ``repair: …`` or ``failed: …``."""


class Verdict(_Model):
    """A judge's decision on one claim."""

    status: ClaimStatus
    confidence: float = Field(ge=0.0, le=1.0)
    explanation: str
    """One sentence naming what matched and what did not."""
    evidence: list[Evidence] = Field(default_factory=list)
    inferable: bool = False
    """Not stated, but derivable from the sources (arithmetic, a stated rule applied)."""
    judge: str = "offline"
    """Name of the judge that decided this claim."""
    escalation: str | None = None
    """Why no judge could decide this claim reliably; the gate sends it to human review."""
    fabricated_evidence: list[FabricatedEvidence] = Field(default_factory=list)
    agreement: float | None = None
    """For consensus judges: the share of judges that gave the winning status."""
    decided_by: str | None = None
    """The signal that decided: ``detector:number``, ``rule:antonym``, ``model`` (the learned verifier) …"""


class CitationCheck(_Model):
    """Whether a claim's inline citations name real sources that support it."""

    cited: list[str]
    """Source ids the markers resolve to (positions are mapped to ids)."""
    unknown: list[str] = Field(default_factory=list)
    """Markers that name no source: fabricated citations."""
    unsupportive: list[str] = Field(default_factory=list)
    """Cited sources that exist but do not support the claim."""
    supporting_sources: list[str] = Field(default_factory=list)
    """Sources that do support the claim (the right ones to cite)."""
    valid: bool


class ClaimResult(_Model):
    """A claim with its verdict, evidence and checks, as reported."""

    id: str
    text: str
    start: int
    end: int
    type: ClaimType
    status: ClaimStatus
    confidence: float
    explanation: str
    evidence: list[Evidence]
    citations: list[str] = Field(default_factory=list)
    citation_check: CitationCheck | None = None
    inferable: bool = False
    involved_sources: list[str] = Field(default_factory=list)
    """For synthesis errors and conflicts: every source the claim draws on."""
    judge: str = "offline"
    escalation: str | None = None
    fabricated_evidence: list[FabricatedEvidence] = Field(default_factory=list)
    agreement: float | None = None
    decided_by: str | None = None
    """The signal that decided the status (see :class:`Verdict`); ``check:…`` when a check amended it."""
    judge_status: ClaimStatus | None = None
    """The judge's own verdict, when a check after the judge changed the status (else ``None``)."""
    amended_by: list[str] = Field(default_factory=list)
    """The checks that changed the status after the judge, in order (``check:synthesis``,
    ``check:conflict``, ``check:abstention``)."""


class Counts(_Model):
    """How many claims got each status."""

    total: int = 0
    supported: int = 0
    partially_supported: int = 0
    unsupported: int = 0
    contradicted: int = 0
    synthesis_error: int = 0


class RequestHashes(_Model):
    """SHA-256 digests that identify exactly what was audited."""

    answer: str
    question: str | None
    sources: dict[str, str]
    """Per source id."""
    source_set: str
    """Of the sorted (id, text digest) pairs: the same set of sources in any order."""


class JudgeInfo(_Model):
    """Which judge produced the verdicts."""

    name: str
    version: str
    model: str | None = None
    prompt_version: str | None = None
    prompt_hash: str | None = None


class AuditOptions(_Model):
    """Options the audit ran with."""

    risk_level: RiskLevel = "medium"
    claim_types: list[ClaimType] | None = None
    """Only these types were audited; ``None`` means all."""


class AbstentionCheck(_Model):
    """Did the sources answer the question, and if not, did the answer say so."""

    query_has_gap: bool
    gaps: list[str] = Field(default_factory=list)
    """Parts of the question (key terms) that no source addresses."""
    answer_abstained: bool
    """The answer contains an acknowledgement that the sources do not cover something."""
    answer_abstained_correctly: bool | None
    """``None`` when there is no gap to abstain on."""
    explanation: str


class ConflictSide(_Model):
    """One source's side of a disagreement."""

    source_id: str
    start: int
    end: int
    quote: str
    value: str
    """The disputed value as that source states it."""


class SourceConflict(_Model):
    """Two sources disagree on a fact a claim states or depends on."""

    claim_id: str
    kind: Literal["number", "date", "name", "negation", "quantity", "time"]
    """What the sources disagree on: a figure (``number``, or ``quantity`` with a unit), a date, a clock
    time, a name, or whether something holds (``negation``)."""
    sides: list[ConflictSide]
    answer_handling: Literal["took_side_silently", "reported_conflict", "answer_error"]
    explanation: str


class Issue(_Model):
    """One problem the gate weighs."""

    type: str
    """CONTRADICTION, SYNTHESIS_ERROR, CITATION_FABRICATION, INVALID_CITATION, UNSUPPORTED_CLAIM,
    PARTIAL_SUPPORT, MISSING_ABSTENTION or SOURCE_CONFLICT."""
    severity: Severity
    description: str
    claim_id: str | None = None


class Decision(_Model):
    """What the gate decided, and why."""

    action: GateAction
    reasons: list[str]
    caveat: str | None = None
    """For ``deliver_with_caveat``: the text to show with the answer, naming the weak claims."""
    issues: list[Issue] = Field(default_factory=list)
    risk_level: RiskLevel
    threshold: float
    policy: str


class Timings(_Model):
    """Wall-clock milliseconds per stage (the only non-deterministic part of a report)."""

    segment_ms: float = 0.0
    align_ms: float = 0.0
    judge_ms: float = 0.0
    checks_ms: float = 0.0
    total_ms: float = 0.0


class Report(_Model):
    """The canonical audit report; every view is rendered from it."""

    schema_version: str = REPORT_SCHEMA_VERSION
    id: str | None = None
    label: Label
    """``hallucinated`` iff an audited claim is not supported or an inline citation is fabricated (it names
    no source, or a source that does not hold the claim)."""
    faithfulness: float
    """(supported + 0.5 × partially_supported) / claims; 1.0 when there are no claims."""
    hallucination_score: float = 0.0
    """In [0, 1]: how strongly the answer holds an unsupported claim; at or over 0.5 exactly when the label
    is ``hallucinated``; ranks answers (AUROC, AUPRC)."""
    note: str | None = None
    """Set when the score is degenerate, e.g. no claims were found."""
    counts: Counts
    claims: list[ClaimResult]
    abstention: AbstentionCheck | None = None
    conflicts: list[SourceConflict] = Field(default_factory=list)
    hashes: RequestHashes
    judge: JudgeInfo
    options: AuditOptions
    decision: Decision
    """The gate's decision under the auditor's policy."""
    llm_calls: list[JudgeCall] = Field(default_factory=list)
    """Every LLM call made for this audit (none for the offline judge)."""
    timings: Timings = Field(default_factory=Timings)

    def to_json(self, *, indent: int | None = None, timings: bool = True) -> str:
        """Serialise deterministically; ``timings=False`` gives byte-identical output per input."""
        exclude = None if timings else {"timings"}
        return self.model_dump_json(indent=indent, exclude=exclude)
