"""One configuration for every entry point: the library, batches, evaluation, the service and the CLI.

An :class:`AuditorConfig` says which judge labels claims, which policy gates the report (and at
which risk level), which claim types are audited, how confidences are calibrated and which size
limits a request must meet. It is immutable and picklable when its judge is a spec string, so
batch engines ship it to their worker processes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragaudit._vocab import CLAIM_TYPES, RISK_LEVELS, ClaimType, RiskLevel
from ragaudit.errors import ConfigError

if TYPE_CHECKING:
    from ragaudit.gate import Calibration, Policy
    from ragaudit.judges import Judge

MAX_ANSWER_CHARS = 100_000
MAX_SOURCE_CHARS = 2_000_000
MAX_SOURCES = 500
MAX_QUESTION_CHARS = 10_000
MAX_ID_CHARS = 200
MAX_CHECKED_CLAIMS = 64
"""Claims checked per request (a budget, not a refusal): later claims are reported unsupported, not checked."""
MAX_INDEXED_CHARS = 32_000
"""Source characters read per request (a budget): past it, the passages sharing most words with the answer."""
SMALL_INDEX_UNITS = 24
"""An index of at most this many passages is embedded whole (``verify._ALL_UNITS``: a short request is read in full)."""
MAX_EMBEDDED_TEXTS = 128
"""Texts the verifier embeds per request (a budget): its claims, then the passages nearest each."""
EMBEDDED_PER_CLAIM = 12
"""Texts embedded per claim checked (a budget), besides a small index's passages (embedded whole)."""
MAX_EMBEDDED_TOKENS = 2_048
"""Tokens the verifier and the checks embed per request together (a budget, the claims at most half):
bounds the embedding of long claims and passages (RAGTruth answers embed 500 tokens at the median,
under 1,900 at most)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Size limits a request must meet (a request over one is refused with :class:`~ragaudit.errors.LimitError`),
    and the budgets of work an audit spends on one (past a budget the report says what it left out)."""

    answer_chars: int = MAX_ANSWER_CHARS
    """Longest answer, in characters."""
    source_chars: int = MAX_SOURCE_CHARS
    """Most source text per request, all sources together, in characters."""
    sources: int = MAX_SOURCES
    """Most sources per request."""
    question_chars: int = MAX_QUESTION_CHARS
    """Longest question, in characters."""
    id_chars: int = MAX_ID_CHARS
    """Longest request or source id, in characters."""
    checked_claims: int = MAX_CHECKED_CLAIMS
    """Budget, not a limit: claims checked per request; the rest are reported unsupported, marked not checked."""
    indexed_chars: int = MAX_INDEXED_CHARS
    """Budget, not a limit: source characters read per request; the report's note says when it was reached."""
    embedded_texts: int = MAX_EMBEDDED_TEXTS
    """Budget: texts (claims and passages) the verifier embeds per request; past it, meaning is read from words."""
    embedded_per_claim: int = EMBEDDED_PER_CLAIM
    """Budget: texts embedded per claim checked (plus up to 24 passages of a small index), so that a request
    with few claims embeds few texts whatever the size of its sources."""
    embedded_tokens: int = MAX_EMBEDDED_TOKENS
    """Budget: model tokens embedded per request, claims and passages together (the claims at most half);
    past it, meaning is read from words."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(f"limit {f.name} must be a positive integer, not {value!r}")

    def embedding_budget(self, claims: int) -> int:
        """Texts the verifier may embed for a request with ``claims`` claims checked."""
        return min(self.embedded_texts, (1 + self.embedded_per_claim) * claims + SMALL_INDEX_UNITS)


@dataclass(frozen=True, slots=True)
class AuditorConfig:
    """How to audit: judge, policy, risk level, claim types, calibration and limits.

    >>> AuditorConfig(risk_level="high").replace(claim_types=["temporal"]).claim_types
    ('temporal',)
    """

    judge: str | Judge = "offline"
    """A judge spec (``"offline"``, ``"openai:gpt-4o"``, ``"cascade:offline,openai:gpt-4o"``) or a Judge."""
    policy: Policy | Path | str | None = None
    """Gate policy: a :class:`~ragaudit.gate.Policy` or a TOML/YAML path; default: the shipped one."""
    risk_level: RiskLevel = "medium"
    """``high``, ``medium`` or ``low``: how strictly partial support is read and which gate rules apply."""
    claim_types: Sequence[ClaimType] | None = None
    """Audit only these claim types; the others are left out of counts and score (``None``: all)."""
    calibration: Calibration | None = None
    """Confidence calibration; default: the policy's (``eval --calibrate`` writes one there)."""
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if self.risk_level not in RISK_LEVELS:
            raise ConfigError(f"risk_level must be high, medium or low, not {self.risk_level!r}")
        if self.claim_types is not None:
            if isinstance(self.claim_types, str):
                raise ConfigError(f"claim_types takes a list of types, not the string {self.claim_types!r}")
            types = tuple(self.claim_types)
            unknown = [t for t in types if t not in CLAIM_TYPES]
            if unknown:
                raise ConfigError(f"unknown claim type(s) {unknown}: choose from {', '.join(CLAIM_TYPES)}")
            # Stored as a tuple (hashable, immutable); an empty selection means "all".
            object.__setattr__(self, "claim_types", types or None)
        if not isinstance(self.limits, Limits):
            raise ConfigError(f"limits must be a ragaudit.config.Limits, not {type(self.limits).__name__}")

    def replace(self, **changes: Any) -> AuditorConfig:
        """A copy with ``changes`` applied; ``None`` values are ignored (they mean "keep")."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})
