"""OpenTelemetry: a report as GenAI evaluation and guardrail events on the caller's current span.

For each report, :func:`record_report` adds to the span (default: the current one):

- two ``gen_ai.evaluation.result`` events, ``faithfulness`` and ``hallucination``, with
  ``gen_ai.evaluation.name``, ``gen_ai.evaluation.score.value``, ``gen_ai.evaluation.score.label``
  (``faithful`` / ``hallucinated``) and ``gen_ai.evaluation.explanation``;
- one ``gen_ai.guardrail.result`` event for the gate's decision: ``gen_ai.guardrail.component.name``
  ``ragaudit``, ``gen_ai.guardrail.policy.id`` (the policy's name), ``gen_ai.guardrail.source``
  ``output``, ``gen_ai.guardrail.result.type`` ``action``, ``gen_ai.guardrail.result.value`` (deliver,
  deliver_with_caveat, regenerate, human_review or block), ``gen_ai.guardrail.result.reason`` (the
  issue types) and ``gen_ai.guardrail.risk.score`` (the hallucination score).

No answer, question or source text is recorded unless ``capture_content=True``: then the explanation
also lists each claim that is not supported with the judge's explanation (which quotes the sources),
and the guardrail event carries the decision's full reasons and caveat under ``ragaudit.decision.*``.

The GenAI conventions are in development; the names followed are pinned in :data:`SEMCONV_VERSION`
(evaluation event) and :data:`GUARDRAIL_CONVENTION` (guardrail event, not yet in a release).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ragaudit.errors import MissingExtraError
from ragaudit.models import Report

try:
    from opentelemetry import trace
    from opentelemetry.trace import Span
except ImportError:
    raise MissingExtraError(__name__, "otel", "OpenTelemetry") from None

__all__ = [
    "EVALUATION_EVENT",
    "GUARDRAIL_CONVENTION",
    "GUARDRAIL_EVENT",
    "SEMCONV_VERSION",
    "evaluation_attributes",
    "guardrail_attributes",
    "record_report",
]

SEMCONV_VERSION = "1.44.0"
"""The semantic conventions release whose ``gen_ai.evaluation.*`` names are used (the last to list them
before they moved, unchanged, to open-telemetry/semantic-conventions-genai)."""

GUARDRAIL_CONVENTION = "open-telemetry/semantic-conventions-genai@f5e3733 docs/gen-ai/gen-ai-guardrails.md"
"""Where the ``gen_ai.guardrail.*`` names come from (a development draft, after the GenAI move)."""

EVALUATION_EVENT = "gen_ai.evaluation.result"
GUARDRAIL_EVENT = "gen_ai.guardrail.result"

AttributeValue = str | bool | int | float | Sequence[str]


def evaluation_attributes(
    report: Report, *, response_id: str | None = None, capture_content: bool = False
) -> list[dict[str, AttributeValue]]:
    """The attributes of the two ``gen_ai.evaluation.result`` events for ``report``."""
    counts = report.counts
    summary = (
        f"{counts.supported} of {counts.total} claims supported" if counts.total else "no claims found in the answer"
    )
    problems = [
        f"{n} {status.replace('_', ' ')}"
        for status, n in (
            ("partially_supported", counts.partially_supported),
            ("unsupported", counts.unsupported),
            ("contradicted", counts.contradicted),
            ("synthesis_error", counts.synthesis_error),
        )
        if n
    ]
    explanation = summary + (f" ({', '.join(problems)})" if problems else "")
    if capture_content:
        weak = [f"{c.id} {c.status}: {c.text!r}: {c.explanation}" for c in report.claims if c.status != "supported"]
        if weak:
            explanation += ". " + " ".join(weak)
    common: dict[str, AttributeValue] = {"gen_ai.evaluation.score.label": report.label}
    if response_id is not None:
        common["gen_ai.response.id"] = response_id
    return [
        {
            "gen_ai.evaluation.name": "faithfulness",
            "gen_ai.evaluation.score.value": report.faithfulness,
            **common,
            "gen_ai.evaluation.explanation": explanation,
            "ragaudit.claims.total": counts.total,
            "ragaudit.claims.supported": counts.supported,
        },
        {
            "gen_ai.evaluation.name": "hallucination",
            "gen_ai.evaluation.score.value": report.hallucination_score,
            **common,
            "gen_ai.evaluation.explanation": "the worst claim's chance of not being supported by the sources",
        },
    ]


def guardrail_attributes(report: Report, *, capture_content: bool = False) -> dict[str, AttributeValue]:
    """The attributes of the ``gen_ai.guardrail.result`` event for ``report``'s gate decision."""
    decision = report.decision
    if decision is None:  # every Auditor report has one; a hand-built report may not
        raise ValueError("the report has no gate decision: audit it with ragaudit.Auditor")
    issue_types = sorted({issue.type for issue in decision.issues})
    attributes: dict[str, AttributeValue] = {
        "gen_ai.guardrail.component.name": "ragaudit",
        "gen_ai.guardrail.policy.id": decision.policy,
        "gen_ai.guardrail.source": "output",
        "gen_ai.guardrail.result.type": "action",
        "gen_ai.guardrail.result.value": decision.action,
        # Issue types only: the convention asks for a low-cardinality reason without user content.
        "gen_ai.guardrail.result.reason": ", ".join(issue_types) if issue_types else "no issues",
        "gen_ai.guardrail.risk.score": report.hallucination_score,
        "ragaudit.decision.risk_level": decision.risk_level,
    }
    if capture_content:
        attributes["ragaudit.decision.reasons"] = list(decision.reasons)
        if decision.caveat is not None:
            attributes["ragaudit.decision.caveat"] = decision.caveat
    return attributes


def record_report(
    report: Report,
    *,
    span: Span | None = None,
    response_id: str | None = None,
    capture_content: bool = False,
    extra_attributes: Mapping[str, AttributeValue] | None = None,
) -> bool:
    """Add the evaluation and guardrail events for ``report`` to ``span`` (default: the current span).

    Returns False, recording nothing, when the span is not recording (no SDK, sampled out, no span).
    ``response_id`` is the evaluated completion's ``gen_ai.response.id``, when known;
    ``extra_attributes`` are added to every event (e.g. a tenant or a chain name).
    """
    target = span if span is not None else trace.get_current_span()
    if not target.is_recording():
        return False
    extra = dict(extra_attributes or {})
    for attributes in evaluation_attributes(report, response_id=response_id, capture_content=capture_content):
        target.add_event(EVALUATION_EVENT, {**attributes, **extra})
    if report.decision is not None:
        target.add_event(GUARDRAIL_EVENT, {**guardrail_attributes(report, capture_content=capture_content), **extra})
    return True
