"""LlamaIndex integration against the real llama-index-core: the evaluator alone and in the retry engines."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("llama_index.core", reason="needs the [llamaindex] extra")

import llamaindex_gate as example  # examples/ is on pytest's pythonpath
from llama_index.core import Document, SummaryIndex
from llama_index.core.base.response.schema import Response
from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
from llama_index.core.query_engine import RetrySourceQueryEngine

from ragaudit import Auditor
from ragaudit.integrations.llamaindex import RagauditEvaluator

CONTEXTS = [
    "The Lakeside aluminium plant opened in 2012 after three years of construction.",
    "Today the plant employs 1200 people.",
]
QUESTION = "When did the Lakeside plant open?"


@pytest.fixture(autouse=True)
def restore_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example sets LlamaIndex's global Settings.llm / embed_model; undo that after each test."""
    from llama_index.core import Settings

    monkeypatch.setattr(Settings, "_llm", Settings._llm)
    monkeypatch.setattr(Settings, "_embed_model", Settings._embed_model)


@pytest.fixture(scope="module")
def evaluator() -> RagauditEvaluator:
    return RagauditEvaluator(Auditor())


def test_is_a_base_evaluator_with_evaluation_results(evaluator: RagauditEvaluator) -> None:
    assert isinstance(evaluator, BaseEvaluator)
    good = evaluator.evaluate(QUESTION, "The Lakeside plant opened in 2012.", CONTEXTS)
    bad = evaluator.evaluate(QUESTION, "The Lakeside plant opened in 2010.", CONTEXTS)
    assert isinstance(good, EvaluationResult) and isinstance(bad, EvaluationResult)
    assert (good.passing, good.score, good.invalid_result) == (True, 1.0, False)
    assert (bad.passing, bad.score) == (False, 0.0)
    assert bad.feedback is not None and bad.feedback.startswith("ragaudit regenerate: faithfulness 0.00")
    assert "contradicted: The Lakeside plant opened in 2010." in bad.feedback
    assert bad.report is not None and bad.report.claims[0].evidence[0].source_id == "1"
    assert (bad.query, bad.response, list(bad.contexts or [])) == (
        QUESTION,
        "The Lakeside plant opened in 2010.",
        CONTEXTS,
    )


def test_aevaluate_and_evaluate_response(evaluator: RagauditEvaluator) -> None:
    from llama_index.core.schema import NodeWithScore, TextNode

    response = Response(
        response="The Lakeside plant opened in 2010.",
        source_nodes=[NodeWithScore(node=TextNode(text=t), score=1.0) for t in CONTEXTS],
    )
    by_response = evaluator.evaluate_response(QUESTION, response)
    by_async = asyncio.run(evaluator.aevaluate(QUESTION, "The Lakeside plant opened in 2012.", CONTEXTS))
    by_async_response = asyncio.run(evaluator.aevaluate_response(QUESTION, response))
    assert by_response.passing is False and by_async_response.passing is False
    assert by_async.passing is True and by_async.score == 1.0


def test_invalid_result_when_the_audit_cannot_run(evaluator: RagauditEvaluator) -> None:
    no_contexts = evaluator.evaluate(QUESTION, "It opened in 2012.", [])
    assert (no_contexts.invalid_result, no_contexts.invalid_reason, no_contexts.passing) == (
        True,
        "no contexts to audit",
        None,
    )
    no_response = evaluator.evaluate(QUESTION, None, CONTEXTS)
    assert no_response.invalid_result and no_response.invalid_reason == "no response to audit"
    too_long = evaluator.evaluate(QUESTION, "word " * 30_000, CONTEXTS)
    assert too_long.invalid_result and too_long.invalid_reason is not None and "100,000" in too_long.invalid_reason


def test_retry_query_engine_retries_until_the_audit_passes() -> None:
    bad, good = "The Lakeside plant opened in 2010.", "The Lakeside plant opened in 2012."
    engine, llm = example.build_engine([bad, good], Auditor())  # type: ignore[attr-defined]
    response = engine.query(QUESTION)
    assert response.response == good
    assert len(llm.prompts) == 2
    # The retry's prompt carries the rejected answer and ragaudit's feedback (FeedbackQueryTransformation).
    assert bad not in llm.prompts[0]
    assert "Here is a previous bad answer.\nThe Lakeside plant opened in 2010." in llm.prompts[1]
    assert "contradicted: The Lakeside plant opened in 2010. (" in llm.prompts[1]


def test_retry_query_engine_gives_up_after_max_retries() -> None:
    bad = "The Lakeside plant opened in 2010."
    engine, llm = example.build_engine([bad], Auditor(), max_retries=2)  # type: ignore[attr-defined]
    assert engine.query(QUESTION).response == bad
    assert len(llm.prompts) == 3  # the first try and two retries


def test_retry_source_query_engine_rebuilds_and_retries() -> None:
    from llama_index.core import Settings

    bad, good = "The Lakeside plant opened in 2010.", "The Lakeside plant opened in 2012."
    llm = example.ScriptedLLM(replies=[bad, good])  # type: ignore[attr-defined]
    Settings.llm = llm  # the engine it rebuilds on a failed audit answers with Settings.llm
    index = SummaryIndex.from_documents([Document(text=t) for t in CONTEXTS])
    engine = RetrySourceQueryEngine(
        index.as_query_engine(llm=llm), RagauditEvaluator(Auditor()), llm=llm, max_retries=2
    )
    response = engine.query(QUESTION)
    assert response.response == good and len(llm.prompts) == 2
    assert sorted(n.get_content() for n in response.source_nodes) == sorted(CONTEXTS)


def test_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example.main()  # type: ignore[attr-defined]
    assert capsys.readouterr().out.splitlines() == [
        "model calls: 2",
        "answer: The Lakeside plant opened in 2012.",
        "passing: True  score: 1.0",
    ]


def test_takes_an_auditor_config_and_closes_only_what_it_built() -> None:
    from ragaudit.config import AuditorConfig

    built = RagauditEvaluator(AuditorConfig(risk_level="high"))
    assert built.auditor.config.risk_level == "high"
    result = built.evaluate(QUESTION, "The Lakeside plant opened in 2012.", CONTEXTS)
    assert result.report is not None and result.report.options.risk_level == "high"
    built.close()
    with pytest.raises(RuntimeError, match="closed"):
        built.evaluate(QUESTION, "The Lakeside plant opened in 2012.", CONTEXTS)
    mine = Auditor()
    RagauditEvaluator(mine).close()
    assert mine.audit("It opened in 2012.", CONTEXTS).label == "faithful"  # still open: it is the caller's
