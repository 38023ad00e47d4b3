"""OpenTelemetry integration: events on the caller's span, read back through the SDK's in-memory exporter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="needs the [test] extra (opentelemetry-sdk)")

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Tracer

import ragaudit
from ragaudit.integrations import otel

SOURCES = [
    {"id": "1", "text": "The Lakeside aluminium plant opened in 2012 after three years of construction."},
    {"id": "2", "text": "Today the plant employs 1200 people."},
]
HALLUCINATED = "The Lakeside plant opened in 2010 [1]. It employs about 1,200 people [2]. It was built by Norsk Hydro."
FAITHFUL = "The Lakeside plant opened in 2012 [1]. It employs about 1,200 people [2]."


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def tracer(exporter: InMemorySpanExporter) -> Iterator[Tracer]:
    # A provider of the test's own: the global one can be set only once per process.
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider.get_tracer("test")
    provider.shutdown()


def _only_span(exporter: InMemorySpanExporter) -> ReadableSpan:
    (span,) = exporter.get_finished_spans()
    return span


def test_events_on_current_span_follow_the_genai_conventions(tracer: Tracer, exporter: InMemorySpanExporter) -> None:
    report = ragaudit.audit(HALLUCINATED, SOURCES, question="When did the Lakeside plant open?")
    with tracer.start_as_current_span("rag.answer"):
        assert otel.record_report(report, response_id="chatcmpl-7") is True
    span = _only_span(exporter)
    assert [e.name for e in span.events] == [
        "gen_ai.evaluation.result",
        "gen_ai.evaluation.result",
        "gen_ai.guardrail.result",
    ]
    faith, halluc, guard = (dict(e.attributes or {}) for e in span.events)
    assert faith["gen_ai.evaluation.name"] == "faithfulness"
    assert faith["gen_ai.evaluation.score.value"] == report.faithfulness < 1.0
    assert faith["gen_ai.evaluation.score.label"] == "hallucinated"
    assert faith["gen_ai.evaluation.explanation"] == "1 of 3 claims supported (1 unsupported, 1 contradicted)"
    assert faith["gen_ai.response.id"] == "chatcmpl-7"
    assert (faith["ragaudit.claims.total"], faith["ragaudit.claims.supported"]) == (3, 1)
    assert halluc["gen_ai.evaluation.name"] == "hallucination"
    assert halluc["gen_ai.evaluation.score.value"] == report.hallucination_score > 0.5
    assert halluc["gen_ai.evaluation.score.label"] == "hallucinated"
    assert report.decision is not None
    assert guard == {
        "gen_ai.guardrail.component.name": "ragaudit",
        "gen_ai.guardrail.policy.id": report.decision.policy,
        "gen_ai.guardrail.source": "output",
        "gen_ai.guardrail.result.type": "action",
        "gen_ai.guardrail.result.value": "regenerate",
        "gen_ai.guardrail.result.reason": ", ".join(sorted({i.type for i in report.decision.issues})),
        "gen_ai.guardrail.risk.score": report.hallucination_score,
        "ragaudit.decision.risk_level": "medium",
    }
    assert "CONTRADICTION" in str(guard["gen_ai.guardrail.result.reason"])


def test_no_answer_or_source_text_unless_opted_in(tracer: Tracer, exporter: InMemorySpanExporter) -> None:
    report = ragaudit.audit(HALLUCINATED, SOURCES)
    with tracer.start_as_current_span("quiet"):
        otel.record_report(report)
    with tracer.start_as_current_span("verbose"):
        otel.record_report(report, capture_content=True)
    quiet, verbose = exporter.get_finished_spans()

    def text_of(span: ReadableSpan) -> str:
        return " ".join(str(v) for e in span.events for v in (e.attributes or {}).values())

    fragments = ["Norsk Hydro", "2010", "Lakeside", "aluminium", "three years"]
    assert not [f for f in fragments if f in text_of(quiet)]
    assert "Norsk Hydro" in text_of(verbose) and "2012" in text_of(verbose)
    guard = dict(verbose.events[-1].attributes or {})
    assert report.decision is not None
    assert list(guard["ragaudit.decision.reasons"]) == report.decision.reasons  # type: ignore[arg-type]


def test_faithful_answer_delivers(tracer: Tracer, exporter: InMemorySpanExporter) -> None:
    report = ragaudit.audit(FAITHFUL, SOURCES)
    with tracer.start_as_current_span("ok"):
        otel.record_report(report, extra_attributes={"app.tenant": "acme"})
    span = _only_span(exporter)
    faith, _, guard = (dict(e.attributes or {}) for e in span.events)
    assert (faith["gen_ai.evaluation.score.value"], faith["gen_ai.evaluation.score.label"]) == (1.0, "faithful")
    assert faith["gen_ai.evaluation.explanation"] == "2 of 2 claims supported"
    assert "gen_ai.response.id" not in faith
    assert (guard["gen_ai.guardrail.result.value"], guard["gen_ai.guardrail.result.reason"]) == ("deliver", "no issues")
    assert all(dict(e.attributes or {})["app.tenant"] == "acme" for e in span.events)


def test_explicit_span_and_no_span(tracer: Tracer, exporter: InMemorySpanExporter) -> None:
    report = ragaudit.audit(FAITHFUL, SOURCES)
    assert otel.record_report(report) is False  # no current span: nothing recorded, no error
    span = tracer.start_span("explicit")
    assert otel.record_report(report, span=span) is True
    span.end()
    assert len(_only_span(exporter).events) == 3
    with tracer.start_as_current_span("ended") as ended:
        pass
    assert otel.record_report(report, span=ended) is False  # an ended span is not recording


def test_pinned_convention_versions_are_documented() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert otel.SEMCONV_VERSION in readme
    assert otel.GUARDRAIL_CONVENTION.split()[0] in readme


def test_evaluation_names_match_the_semconv_package() -> None:
    from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as genai
    from opentelemetry.semconv.schemas import Schemas

    report = ragaudit.audit(FAITHFUL, SOURCES)
    names = set(otel.evaluation_attributes(report, response_id="r")[0])
    expected = {
        genai.GEN_AI_EVALUATION_NAME,
        genai.GEN_AI_EVALUATION_SCORE_VALUE,
        genai.GEN_AI_EVALUATION_SCORE_LABEL,
        genai.GEN_AI_EVALUATION_EXPLANATION,
        genai.GEN_AI_RESPONSE_ID,
    }
    assert expected <= names
    assert {n for n in names - expected if not n.startswith("ragaudit.")} == set()
    assert f"https://opentelemetry.io/schemas/{otel.SEMCONV_VERSION}" in {s.value for s in Schemas}


def test_langchain_gate_and_llamaindex_evaluator_record_on_the_callers_span(
    tracer: Tracer, exporter: InMemorySpanExporter
) -> None:
    pytest.importorskip("langchain_core")
    pytest.importorskip("llama_index.core")
    from ragaudit.integrations.langchain import AuditGate
    from ragaudit.integrations.llamaindex import RagauditEvaluator

    gate = AuditGate(on_report=otel.record_report)
    evaluator = RagauditEvaluator(on_report=otel.record_report)
    with tracer.start_as_current_span("chain"):
        gate.invoke({"context": [s["text"] for s in SOURCES], "answer": HALLUCINATED})
    with tracer.start_as_current_span("query"):
        evaluator.evaluate("When did it open?", FAITHFUL, [s["text"] for s in SOURCES])
    chain, query = exporter.get_finished_spans()
    assert [dict(e.attributes or {}).get("gen_ai.guardrail.result.value") for e in chain.events][-1] == "regenerate"
    assert [dict(e.attributes or {}).get("gen_ai.guardrail.result.value") for e in query.events][-1] == "deliver"
