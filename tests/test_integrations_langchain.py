"""LangChain integration against the real langchain-core: the gate Runnable in chains, and the evaluator."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain_core", reason="needs the [langchain] extra")

from langchain_core.documents import Document
from langchain_core.language_models import FakeListLLM
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from ragaudit import Auditor, ConfigError, InputError, Report
from ragaudit.gate import Policy
from ragaudit.integrations.langchain import AnswerRejected, AuditEvaluator, AuditGate

DOCS = [
    Document(page_content="The Lakeside aluminium plant opened in 2012 after three years of construction."),
    Document(page_content="Today the plant employs 1200 people."),
]
QUESTION = "When did the Lakeside plant open?"
GOOD = "The Lakeside plant opened in 2012 [1]."
BAD = "The Lakeside plant opened in 2010 [1]."


def rag_chain(replies: list[str], gate: AuditGate) -> Any:
    """question → retrieved docs → FakeListLLM answer → gate: a RAG chain made of LangChain's own parts."""
    llm = FakeListLLM(responses=replies)
    return (
        RunnablePassthrough.assign(context=RunnableLambda(lambda _: DOCS))
        | RunnablePassthrough.assign(answer=RunnableLambda(lambda x: x["question"]) | llm)
        | gate
    )


@pytest.fixture(scope="module")
def auditor() -> Auditor:
    return Auditor()


def test_annotate_passes_the_answer_with_the_report(auditor: Auditor) -> None:
    chain = rag_chain([GOOD, BAD], AuditGate(auditor))
    good, bad = chain.invoke({"question": QUESTION}), chain.invoke({"question": QUESTION})
    assert (good["answer"], bad["answer"]) == (GOOD, BAD)
    assert isinstance(good["audit"], Report) and good["audit"].decision.action == "deliver"
    assert bad["audit"].decision.action == "regenerate"
    assert bad["audit"].claims[0].status == "contradicted"
    assert bad["context"] == DOCS and bad["question"] == QUESTION  # the rest of the mapping is kept


def test_block_replaces_only_failing_answers(auditor: Auditor) -> None:
    gate = AuditGate(auditor, on_fail="block", blocked_answer="Cannot verify.")
    results = rag_chain([GOOD, BAD], gate).batch([{"question": QUESTION}] * 2, config={"max_concurrency": 1})
    assert [r["answer"] for r in results] == [GOOD, "Cannot verify."]
    assert results[1]["audit"].claims[0].text.startswith("The Lakeside plant opened in 2010")


def test_raise_feeds_with_fallbacks(auditor: Auditor) -> None:
    strict = rag_chain([BAD], AuditGate(auditor, on_fail="raise"))
    with pytest.raises(AnswerRejected) as info:
        strict.invoke({"question": QUESTION})
    assert info.value.report.decision is not None and info.value.report.decision.action == "regenerate"
    assert str(info.value).startswith("ragaudit gate rejected the answer: regenerate: faithfulness 0.00")
    fallback = RunnableLambda(lambda x: {**x, "answer": "fallback"})
    chain = rag_chain([BAD], AuditGate(auditor, on_fail="raise")).with_fallbacks(
        [fallback], exceptions_to_handle=(AnswerRejected,)
    )
    assert chain.invoke({"question": QUESTION})["answer"] == "fallback"


def test_policy_and_fail_on_decide() -> None:
    # One claim of two unsupported: the shipped policy (threshold 0.85) says regenerate; a policy with a
    # lower threshold says deliver_with_caveat, which fails only when the caller puts it in fail_on.
    unsupported = "The Lakeside plant opened in 2012 [1]. It was built by Norsk Hydro."
    lenient_policy = Auditor(policy=Policy(name="lenient", threshold=0.4))
    assert (
        AuditGate(Auditor()).invoke({"context": DOCS, "answer": unsupported})["audit"].decision.action == "regenerate"
    )
    lenient = AuditGate(lenient_policy, on_fail="raise")
    strict = AuditGate(
        lenient_policy, on_fail="raise", fail_on={"deliver_with_caveat", "regenerate", "human_review", "block"}
    )
    value = {"question": QUESTION, "context": DOCS, "answer": unsupported}
    assert lenient.invoke(value)["audit"].decision.action == "deliver_with_caveat"
    with pytest.raises(AnswerRejected):
        strict.invoke(value)


def test_ainvoke_abatch_and_chat_messages(auditor: Auditor) -> None:
    chat = GenericFakeChatModel(messages=iter([AIMessage(content=GOOD), AIMessage(content=BAD)]))
    gate = AuditGate(auditor, on_fail="block")
    chain = (
        RunnablePassthrough.assign(context=RunnableLambda(lambda _: DOCS))
        | RunnablePassthrough.assign(answer=RunnableLambda(lambda x: x["question"]) | chat)
        | gate
    )

    async def run() -> list[dict[str, Any]]:
        first = await chain.ainvoke({"question": QUESTION})
        rest = await gate.abatch([{"question": QUESTION, "context": DOCS, "answer": a} for a in (GOOD, BAD)])
        return [first, *rest]

    first, good, bad = asyncio.run(run())
    assert isinstance(first["answer"], AIMessage) and first["audit"].decision.action == "deliver"
    assert good["answer"] == GOOD and bad["answer"] == gate.blocked_answer


def test_strings_mappings_and_metadata_ids(auditor: Auditor) -> None:
    as_strings = {"context": [d.page_content for d in DOCS], "answer": GOOD}
    as_mappings = {"context": [{"id": "doc-7", "text": DOCS[0].page_content}], "answer": "It opened in 2012 [doc-7]."}
    tagged = [Document(page_content=d.page_content, metadata={"doc": f"doc-{i}"}) for i, d in enumerate(DOCS)]
    gate = AuditGate(auditor, source_id_key="doc")
    assert gate.invoke(as_strings)["audit"].claims[0].status == "supported"
    report = gate.invoke(as_mappings)["audit"]
    assert report.claims[0].citations == ["doc-7"] and report.claims[0].evidence[0].source_id == "doc-7"
    report = gate.invoke({"context": tagged, "answer": "It opened in 2012 [doc-0]."})["audit"]
    assert report.claims[0].evidence[0].source_id == "doc-0" and report.decision.action == "deliver"
    assert report.claims[0].citation_check is not None and report.claims[0].citation_check.valid


def test_bad_input_is_one_clear_error(auditor: Auditor) -> None:
    gate = AuditGate(auditor)
    with pytest.raises(InputError, match=r"^AuditGate input: no 'context' field \(fields: answer, question\)"):
        gate.invoke({"question": QUESTION, "answer": GOOD})
    with pytest.raises(InputError, match=r"AuditGate input\.context: expected a list of documents"):
        gate.invoke({"context": "one string", "answer": GOOD})
    with pytest.raises(InputError, match=r"AuditGate input\.answer: the answer is a int"):
        gate.invoke({"context": DOCS, "answer": 42})
    with pytest.raises(ConfigError, match=r"^on_fail must be annotate, block or raise, not 'ignore'$"):
        AuditGate(auditor, on_fail="ignore")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^unknown gate action\(s\) in fail_on: regenrate; choose from deliver, "):
        AuditGate(auditor, fail_on={"regenrate"})


def test_evaluator_scores_langsmith_runs(auditor: Auditor) -> None:
    from langsmith.evaluation import run_evaluator
    from langsmith.schemas import Example, Run

    evaluator = AuditEvaluator(auditor)
    run = Run(
        id="00000000-0000-0000-0000-000000000001",
        name="rag",
        run_type="chain",
        start_time="2026-01-01T00:00:00Z",
        trace_id="00000000-0000-0000-0000-000000000001",
        inputs={"question": QUESTION},
        outputs={"answer": BAD, "context": DOCS},
    )
    result = evaluator(run)
    assert result["key"] == "ragaudit_faithfulness" and result["score"] == 0.0
    assert result["comment"] == "regenerate: faithfulness 0.00 (0/1 claims supported); c1 contradicted"
    # Sources in the example's inputs, the run as a plain mapping.
    example = Example(
        id="00000000-0000-0000-0000-000000000002",
        dataset_id="00000000-0000-0000-0000-000000000003",
        inputs={"question": QUESTION, "context": [d.page_content for d in DOCS]},
    )
    assert evaluator({"inputs": {"question": QUESTION}, "outputs": {"answer": GOOD}}, example)["score"] == 1.0
    # LangSmith's own wrapper accepts the result shape.
    wrapped = run_evaluator(lambda run, example: evaluator(run, example))
    checked = wrapped.evaluate_run(run, None)
    assert (checked.key, checked.score) == ("ragaudit_faithfulness", 0.0)
    with pytest.raises(InputError, match="no 'context' in the run's outputs or inputs"):
        evaluator({"inputs": {}, "outputs": {"answer": GOOD}})


def test_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import langchain_gate as example  # examples/ is on pytest's pythonpath

    example.main()
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["annotate", "deliver"],
        ["annotate", "regenerate"],
        ["block", "deliver"],
        ["block", "regenerate"],
        ["raise", "fallback"],
    ]
    assert "2010" in lines[1]  # annotate passes the bad answer through …
    assert "2010" not in lines[3] and "could not verify" in lines[3]  # … block replaces it
    assert "could not verify this" in lines[4]


def test_gate_is_a_traced_step(auditor: Auditor) -> None:
    from langchain_core.tracers.context import collect_runs

    with collect_runs() as collector:
        rag_chain([BAD], AuditGate(auditor)).invoke({"question": QUESTION})
    (root,) = collector.traced_runs
    gate_runs = [run for run in root.child_runs if run.name == "AuditGate"]
    assert len(gate_runs) == 1 and gate_runs[0].run_type == "chain"
    assert gate_runs[0].outputs is not None and gate_runs[0].outputs["audit"].decision.action == "regenerate"


def test_gate_takes_an_auditor_config() -> None:
    from ragaudit.config import AuditorConfig

    gate = AuditGate(AuditorConfig(policy=Policy(name="lenient", threshold=0.4)), on_fail="raise")
    unsupported = "The Lakeside plant opened in 2012 [1]. It was built by Norsk Hydro."
    report = gate.invoke({"context": DOCS, "answer": unsupported})["audit"]
    assert (report.decision.action, report.decision.policy) == ("deliver_with_caveat", "lenient")
    gate.close()
