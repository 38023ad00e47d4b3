"""LlamaIndex: ragaudit as a ``BaseEvaluator``, for evaluation runs and the retry query engines.

:class:`RagauditEvaluator` audits a response against its retrieved contexts. The result passes when
the gate's action is not in ``fail_on`` (by default regenerate, human_review and block); its score is
the faithfulness; its feedback lists the claims that are not supported and why::

    from llama_index.core.query_engine import RetryQueryEngine
    engine = RetryQueryEngine(index.as_query_engine(), RagauditEvaluator(), max_retries=2)

``RetryQueryEngine`` puts the rejected answer and this feedback into the retry's query.
``RetrySourceQueryEngine`` also takes the evaluator, but as of llama-index-core 0.14 it keeps every
source node on a retry (it tests ``if result:``, which every ``EvaluationResult`` passes; making
results falsy would break ``FeedbackQueryTransformation``, which tests the same way).

An audit that cannot run (no contexts, an empty or over-long answer) gives ``invalid_result=True``
with the reason, not an exception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from typing import Any

from ragaudit._pipeline import Auditor
from ragaudit.config import AuditorConfig
from ragaudit.errors import MissingExtraError, RagAuditError
from ragaudit.integrations._common import FAILING_ACTIONS, OwnsAuditor, as_auditor, check_fail_on, feedback, summary
from ragaudit.models import AuditRequest, Report, Source

try:
    from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
    from llama_index.core.prompts.mixin import PromptDictType
except ImportError:
    raise MissingExtraError(__name__, "llamaindex", "LlamaIndex (llama-index-core)") from None

__all__ = ["AuditEvaluationResult", "RagauditEvaluator", "original_question"]

# What LlamaIndex's FeedbackQueryTransformation wraps around the question when RetryQueryEngine retries.
_FEEDBACK_TAIL = "\nNow answer the question.\n"
_FEEDBACK_HEAD = "\n----------------\nHere is a previous bad answer.\n"


def original_question(query: str | None) -> str | None:
    """The user's question inside a retry query (RetryQueryEngine passes its rewritten query on).

    Auditing against the rewritten query would count its "previous bad answer" text as parts of the
    question the answer leaves open.

    >>> original_question("Here is a previous bad answer.\\nX\\nNow answer the question.\\nWhen?")
    'When?'
    """
    if query is None:
        return None
    if _FEEDBACK_TAIL in query:
        return query.rsplit(_FEEDBACK_TAIL, 1)[1]
    return query.split(_FEEDBACK_HEAD, 1)[0]


class AuditEvaluationResult(EvaluationResult):
    """An ``EvaluationResult`` that also carries the ragaudit report."""

    report: Report | None = None
    """The full audit (claims, evidence, decision); None when the audit could not run."""


class RagauditEvaluator(OwnsAuditor, BaseEvaluator):
    """Audits a LlamaIndex response against its contexts with a :class:`ragaudit.Auditor`.

    Args:
        auditor: The :class:`ragaudit.Auditor` to use, or an :class:`ragaudit.config.AuditorConfig` to build one
            from; default: the offline judge and the shipped policy.
        fail_on: Gate actions that make a result fail.
        on_report: Called with every report (e.g. :func:`ragaudit.integrations.otel.record_report`).
    """

    def __init__(
        self,
        auditor: Auditor | AuditorConfig | None = None,
        *,
        fail_on: Collection[str] = FAILING_ACTIONS,
        on_report: Callable[[Report], object] | None = None,
    ) -> None:
        self.auditor = as_auditor(auditor)
        self._owns_auditor = not isinstance(auditor, Auditor)
        self.fail_on = check_fail_on(fail_on)
        self.on_report = on_report

    def _get_prompts(self) -> PromptDictType:
        return {}  # no prompts: the offline judge uses none, an LLM judge keeps its own

    def _update_prompts(self, prompts_dict: PromptDictType) -> None:
        return None

    def evaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> AuditEvaluationResult:
        """Audit ``response`` against ``contexts`` (``query`` is the question, if any)."""
        base = {"query": query, "response": response, "contexts": contexts}
        if response is None or not contexts:
            missing = "response" if response is None else "contexts"
            return AuditEvaluationResult(**base, invalid_result=True, invalid_reason=f"no {missing} to audit")
        try:
            report = self.auditor.audit(
                AuditRequest(
                    question=original_question(query),
                    answer=response,
                    sources=[Source(id=str(i), text=text) for i, text in enumerate(contexts, start=1)],
                )
            )
        except RagAuditError as exc:
            return AuditEvaluationResult(**base, invalid_result=True, invalid_reason=str(exc))
        if self.on_report is not None:
            self.on_report(report)
        action = report.decision.action if report.decision is not None else "deliver"
        return AuditEvaluationResult(
            **base,
            passing=action not in self.fail_on,
            score=report.faithfulness,
            feedback=f"ragaudit {summary(report)}\n{feedback(report)}",
            report=report,
        )

    async def aevaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> AuditEvaluationResult:
        """``evaluate`` in a worker thread, so a long audit does not block the event loop."""
        return await asyncio.to_thread(self.evaluate, query, response, contexts, **kwargs)
