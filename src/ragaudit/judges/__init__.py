"""Judges: they label each claim against its aligned evidence.

A judge has a ``name``, a ``version`` and one method, :meth:`Judge.judge`, that turns the
claims of one request (with their alignments) into verdicts. Judges are looked up by name with
:func:`get_judge`; :func:`judge_names` lists them.
"""

from __future__ import annotations

from collections.abc import Callable

from ragaudit.align import Alignment
from ragaudit.errors import MissingExtraError
from ragaudit.judges._base import REGISTRY, Judge, JudgeContext, JudgePrompt, build_judge, register_judge
from ragaudit.models import Verdict


def judge_names() -> list[str]:
    """Names of the registered judges."""
    _load_builtin()
    return sorted(REGISTRY)


def get_judge(spec: str | Judge) -> Judge:
    """Build a judge from a spec such as ``"offline"``; a Judge instance is returned as is."""
    if isinstance(spec, str):
        _load_builtin()
    return build_judge(spec)


_LLM_JUDGES = ("openai", "openai-compatible", "anthropic")


def _load_builtin() -> None:
    from ragaudit.judges import _combine, _offline  # noqa: F401  (register the built-in judges)

    if all(name in REGISTRY for name in _LLM_JUDGES):
        return
    if _have("httpx") and _have("tenacity"):
        from ragaudit.judges import _llm  # noqa: F401

        return
    for name in _LLM_JUDGES:  # named, so the spec gets the install line rather than "unknown judge"
        REGISTRY[name] = _needs_llm_extra(name)


def _have(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _needs_llm_extra(name: str) -> Callable[[str], Judge]:
    def factory(_argument: str) -> Judge:
        raise MissingExtraError(f"the {name} judge", "llm")

    return factory


__all__ = [
    "Alignment",
    "Judge",
    "JudgeContext",
    "JudgePrompt",
    "Verdict",
    "get_judge",
    "judge_names",
    "register_judge",
]
