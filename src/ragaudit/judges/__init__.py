"""Judges: they label each claim against its aligned evidence.

A judge has a ``name``, a ``version`` and one method, :meth:`Judge.judge`, that turns the
claims of one request (with their alignments) into verdicts. Judges are looked up by name with
:func:`get_judge`; :func:`judge_names` lists them.
"""

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


_REGISTRY: dict[str, Callable[[str], Judge]] = {}


def register_judge(name: str) -> Callable[[Callable[[str], Judge]], Callable[[str], Judge]]:
    """Register a judge factory under ``name``; the factory gets the text after ``name:``."""

    def decorate(factory: Callable[[str], Judge]) -> Callable[[str], Judge]:
        _REGISTRY[name] = factory
        return factory

    return decorate


def judge_names() -> list[str]:
    """Names of the registered judges."""
    _load_builtin()
    return sorted(_REGISTRY)


def get_judge(spec: str | Judge) -> Judge:
    """Build a judge from a spec such as ``"offline"``; a Judge instance is returned as is."""
    if not isinstance(spec, str):
        return spec
    _load_builtin()
    name, _, argument = spec.partition(":")
    factory = _REGISTRY.get(name.strip().lower())
    if factory is None:
        raise ConfigError(
            f"unknown judge {spec!r}: use one of {', '.join(judge_names())} (for example --judge offline)"
        )
    return factory(argument)


def _load_builtin() -> None:
    from ragaudit.judges import _combine, _llm, _offline  # noqa: F401  (register the built-in judges)


__all__ = ["Judge", "JudgeContext", "get_judge", "judge_names", "register_judge"]
