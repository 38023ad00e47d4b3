"""The judge protocol, the context a judge sees, and the registry judges add themselves to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ragaudit._budget import EmbeddingBudget
from ragaudit.align import Alignment, SourceIndex
from ragaudit.errors import ConfigError
from ragaudit.models import JudgeCall, Verdict


@dataclass(frozen=True, slots=True)
class JudgeContext:
    """What a judge sees of one request besides the claims."""

    index: SourceIndex
    question: str | None = None
    risk_level: str = "medium"
    answer: str = ""
    calls: list[JudgeCall] = field(default_factory=list)
    """LLM judges append a record of every call here; it goes into the report."""
    embedded_texts: int | None = None
    """Texts a judge may embed for this request (the budget of :class:`~ragaudit.config.Limits`); ``None``: its default."""
    embedded_tokens: EmbeddingBudget | None = None
    """Tokens this request may embed, shared with the checks; ``None``: no bound but ``embedded_texts``."""


@dataclass(frozen=True, slots=True)
class JudgePrompt:
    """The prompt template an LLM judge asks with; reports record its version and hash."""

    version: str
    hash: str
    """SHA-256 of the template, so a changed prompt never hides behind the same version."""
    task: str | None = None
    """Which template: claim_audit, factual_audit, classification or discrepancy."""


@runtime_checkable
class Judge(Protocol):
    """Labels claims; one verdict per alignment, in order.

    Its input is public: each :class:`~ragaudit.align.Alignment` holds one claim (text, offsets,
    type, citations) with its best evidence units in the sources, and the :class:`JudgeContext`
    the request (question, answer, risk level, the source index). A judge says who it is: ``name``
    and ``version`` (caches key on them), the ``model`` it asks (``None`` for rules) and its
    ``prompt`` (``None`` when it has none). A judge that holds resources (HTTP connections) also
    has ``close()``, which the :class:`~ragaudit.Auditor` that built it calls.
    """

    name: str
    version: str
    model: str | None
    prompt: JudgePrompt | None

    def judge(self, alignments: list[Alignment], context: JudgeContext) -> list[Verdict]:
        """Return one verdict per alignment, in the same order."""
        ...


REGISTRY: dict[str, Callable[[str], Judge]] = {}


def register_judge(name: str) -> Callable[[Callable[[str], Judge]], Callable[[str], Judge]]:
    """Register a judge factory under ``name``; the factory gets the text after ``name:``."""

    def decorate(factory: Callable[[str], Judge]) -> Callable[[str], Judge]:
        REGISTRY[name] = factory
        return factory

    return decorate


def build_judge(spec: str | Judge) -> Judge:
    """Build a registered judge from its spec (``name:argument``); a Judge instance is returned as is."""
    if not isinstance(spec, str):
        return spec
    name, _, argument = spec.partition(":")
    factory = REGISTRY.get(name.strip().lower())
    if factory is None:
        raise ConfigError(
            f"unknown judge {spec!r}: use one of {', '.join(sorted(REGISTRY))} (for example --judge offline)"
        )
    return factory(argument)
