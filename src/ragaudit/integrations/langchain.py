"""LangChain: a Runnable that gates a RAG chain's answer, and an evaluator for LangSmith-style runs.

:class:`AuditGate` goes at the end of a chain whose output is a mapping with the answer, the
retrieved documents and (optionally) the question, e.g. after
``RunnablePassthrough.assign(answer=prompt | llm | StrOutputParser())``. It audits the answer against
the documents and, when the gate's action is one of ``fail_on`` (by default regenerate, human_review
and block, as the policy decides), does what ``on_fail`` says:

- ``"annotate"``: pass the answer through, with the report under ``report_key``;
- ``"block"``: replace the answer with ``blocked_answer`` (the report is still attached);
- ``"raise"``: raise :class:`AnswerRejected`, which ``chain.with_fallbacks(..., exceptions_to_handle=
  (AnswerRejected,))`` turns into a fallback chain.

:class:`AuditEvaluator` scores a run (a ``langsmith.schemas.Run`` or a ``{"inputs", "outputs"}``
mapping) and returns ``{"key", "score", "comment"}``, the result shape LangSmith evaluators return.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Literal

from ragaudit._pipeline import Auditor
from ragaudit.config import AuditorConfig
from ragaudit.errors import ConfigError, InputError, MissingExtraError, RagAuditError
from ragaudit.integrations._common import (
    FAILING_ACTIONS,
    OwnsAuditor,
    answer_text,
    as_auditor,
    check_fail_on,
    lookup,
    summary,
    to_sources,
)
from ragaudit.models import AuditRequest, Report

try:
    from langchain_core.runnables import Runnable, RunnableConfig
except ImportError:
    raise MissingExtraError(__name__, "langchain", "LangChain (langchain-core)") from None

__all__ = ["AnswerRejected", "AuditEvaluator", "AuditGate"]

OnFail = Literal["annotate", "block", "raise"]

DEFAULT_BLOCKED_ANSWER = "I could not verify an answer to this question against the sources."


class AnswerRejected(RagAuditError):
    """The gate rejected a chain's answer (``on_fail="raise"``); ``report`` holds the audit."""

    def __init__(self, report: Report) -> None:
        self.report = report
        super().__init__(f"ragaudit gate rejected the answer: {summary(report)}")


class AuditGate(OwnsAuditor, Runnable[Mapping[str, Any], dict[str, Any]]):
    """Audits the answer in a chain's output mapping and gates it by the auditor's policy.

    Args:
        auditor: The :class:`ragaudit.Auditor` to use, or an :class:`ragaudit.config.AuditorConfig` to build one
            from (judge, policy, risk level, …); default: the offline judge and the shipped policy.
        on_fail: ``annotate``, ``block`` or ``raise``: what to do when the action is in ``fail_on``.
        fail_on: Gate actions that count as a failure.
        answer_key: Field holding the answer (a string or a chat message).
        sources_key: Field holding the documents the answer was generated from.
        question_key: Field holding the question; absent or None means no question.
        report_key: Field the :class:`ragaudit.Report` is written to.
        blocked_answer: The answer given instead when ``on_fail="block"`` rejects one.
        source_id_key: Document metadata field to use as the source id (default: positions 1, 2, …).
        on_report: Called with every report, before the gate acts (e.g.
            :func:`ragaudit.integrations.otel.record_report` to put it on the current span).
    """

    name = "AuditGate"

    def __init__(
        self,
        auditor: Auditor | AuditorConfig | None = None,
        *,
        on_fail: OnFail = "annotate",
        fail_on: Collection[str] = FAILING_ACTIONS,
        answer_key: str = "answer",
        sources_key: str = "context",
        question_key: str = "question",
        report_key: str = "audit",
        blocked_answer: str = DEFAULT_BLOCKED_ANSWER,
        source_id_key: str | None = None,
        on_report: Callable[[Report], object] | None = None,
    ) -> None:
        if on_fail not in ("annotate", "block", "raise"):
            raise ConfigError(f"on_fail must be annotate, block or raise, not {on_fail!r}")
        self.auditor = as_auditor(auditor)
        self._owns_auditor = not isinstance(auditor, Auditor)
        self.on_fail: OnFail = on_fail
        self.fail_on = check_fail_on(fail_on)
        self.answer_key = answer_key
        self.sources_key = sources_key
        self.question_key = question_key
        self.report_key = report_key
        self.blocked_answer = blocked_answer
        self.source_id_key = source_id_key
        self.on_report = on_report

    def audit(self, value: Mapping[str, Any]) -> Report:
        """The audit report for one chain output."""
        if not isinstance(value, Mapping):
            raise InputError(
                f"AuditGate takes a mapping with '{self.answer_key}' and '{self.sources_key}', got {type(value).__name__}",
                location="AuditGate input",
            )
        where = "AuditGate input"
        question = value.get(self.question_key)
        request = AuditRequest(
            question=question if isinstance(question, str) else None,
            answer=answer_text(lookup(value, self.answer_key, where=where), where=f"{where}.{self.answer_key}"),
            sources=to_sources(
                lookup(value, self.sources_key, where=where),
                where=f"{where}.{self.sources_key}",
                id_key=self.source_id_key,
            ),
        )
        return self.auditor.audit(request)

    def _gate(self, value: Mapping[str, Any]) -> dict[str, Any]:
        report = self.audit(value)
        if self.on_report is not None:
            self.on_report(report)
        output = {**value, self.report_key: report}
        action = report.decision.action if report.decision is not None else "deliver"
        if action in self.fail_on:
            if self.on_fail == "raise":
                raise AnswerRejected(report)
            if self.on_fail == "block":
                output[self.answer_key] = self.blocked_answer
        return output

    def invoke(self, input: Mapping[str, Any], config: RunnableConfig | None = None, **kwargs: Any) -> dict[str, Any]:
        """Audit and gate one chain output (``ainvoke``, ``batch`` and ``abatch`` come from ``Runnable``)."""
        # _call_with_config reports the step to LangChain callbacks and tracers like any built-in step.
        return self._call_with_config(self._gate, input, config, run_type="chain")


class AuditEvaluator(OwnsAuditor):
    """An evaluator for LangSmith-style runs: ``evaluator(run, example)`` → ``{"key", "score", "comment"}``.

    The score is the report's faithfulness (1.0: every claim supported); the comment names the gate's
    action and the claims that are not supported. The answer is read from the run's outputs; the
    sources and the question from its outputs, then its inputs, then the example's inputs.
    """

    def __init__(
        self,
        auditor: Auditor | AuditorConfig | None = None,
        *,
        key: str = "ragaudit_faithfulness",
        answer_key: str = "answer",
        sources_key: str = "context",
        question_key: str = "question",
    ) -> None:
        self.auditor = as_auditor(auditor)
        self._owns_auditor = not isinstance(auditor, Auditor)
        self.key = key
        self.answer_key = answer_key
        self.sources_key = sources_key
        self.question_key = question_key

    def audit(self, run: object, example: object | None = None) -> Report:
        """The audit report for one run."""
        outputs = _fields(run, "outputs")
        places = [outputs, _fields(run, "inputs"), _fields(example, "inputs")]
        where = "run.outputs"
        if self.answer_key not in outputs:
            outputs_or_none = ", ".join(sorted(outputs)) or "none"
            raise InputError(f"no '{self.answer_key}' in the run's outputs (fields: {outputs_or_none})", location=where)
        sources = next((p[self.sources_key] for p in places if self.sources_key in p), None)
        if sources is None:
            raise InputError(
                f"no '{self.sources_key}' in the run's outputs or inputs, nor in the example's inputs",
                location="run",
            )
        question = next((p[self.question_key] for p in places if isinstance(p.get(self.question_key), str)), None)
        request = AuditRequest(
            question=question,
            answer=answer_text(outputs[self.answer_key], where=f"{where}.{self.answer_key}"),
            sources=to_sources(sources, where=f"run.{self.sources_key}"),
        )
        return self.auditor.audit(request)

    def __call__(self, run: object, example: object | None = None) -> dict[str, Any]:
        """Score one run: ``{"key": ..., "score": faithfulness, "comment": one line}``."""
        report = self.audit(run, example)
        return {"key": self.key, "score": report.faithfulness, "comment": summary(report)}


def _fields(record: object, name: str) -> Mapping[str, Any]:
    """``record.name`` or ``record[name]`` as a mapping; empty when absent."""
    if record is None:
        return {}
    value = record.get(name) if isinstance(record, Mapping) else getattr(record, name, None)
    return value if isinstance(value, Mapping) else {}
