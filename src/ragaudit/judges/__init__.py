"""Judges: they label each claim against its aligned evidence.

A judge has a ``name``, a ``version`` and one method, :meth:`Judge.judge`, that turns the
claims of one request (with their alignments) into verdicts. Judges are looked up by name with
:func:`get_judge`; :func:`judge_names` lists them.
"""

from __future__ import annotations

from ragaudit.judges._base import REGISTRY, Judge, JudgeContext, build_judge, register_judge


def judge_names() -> list[str]:
    """Names of the registered judges."""
    _load_builtin()
    return sorted(REGISTRY)


def get_judge(spec: str | Judge) -> Judge:
    """Build a judge from a spec such as ``"offline"``; a Judge instance is returned as is."""
    if isinstance(spec, str):
        _load_builtin()
    return build_judge(spec)


def _load_builtin() -> None:
    from ragaudit.judges import _combine, _llm, _offline  # noqa: F401  (register the built-in judges)


__all__ = ["Judge", "JudgeContext", "get_judge", "judge_names", "register_judge"]
