"""The judge protocol, the context a judge sees, and the registry judges add themselves to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

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


@runtime_checkable
class Judge(Protocol):
    """Labels claims; one verdict per alignment, in order."""

    name: str
    version: str

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
