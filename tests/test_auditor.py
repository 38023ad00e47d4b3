"""One Auditor: one configuration for every entry point, the same arguments everywhere, close() and `with`."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ClassVar

import pydantic
import pytest

import ragaudit
from fake_llm import FakeLLM, Handler
from ragaudit import evaluate as ev
from ragaudit.batch import audit_stream
from ragaudit.config import AuditorConfig, Limits
from ragaudit.errors import ConfigError, InputError, LimitError
from ragaudit.gate import Policy
from ragaudit.judges import Alignment, Judge, JudgeContext, JudgePrompt, Verdict
from ragaudit.models import AuditRequest, Report
from ragaudit.score import finding_strength, shipped_calibration

SOURCES = [{"id": "1", "text": "The plant opened in 2012. It employs 500 people in two shifts."}]
ANSWER = "The plant opened in 2010. It employs 500 people."
QUESTION = "When did the plant open?"
STRICT = Policy(name="strict-test", threshold=0.99)


def same(a: Report, b: Report) -> bool:
    return a.to_json(timings=False) == b.to_json(timings=False)


def test_audit_and_auditor_audit_take_the_same_arguments() -> None:
    request = {"answer": ANSWER, "sources": SOURCES, "question": QUESTION}
    reference = ragaudit.audit(ANSWER, SOURCES, QUESTION)
    with ragaudit.Auditor() as auditor:
        assert same(auditor.audit(ANSWER, SOURCES, QUESTION), reference)
        assert same(auditor.audit(ANSWER, SOURCES, question=QUESTION), reference)
        assert same(auditor.audit(request), reference)
        assert same(auditor.audit(AuditRequest.model_validate(request)), reference)
    assert same(ragaudit.audit(request), reference)
    assert ragaudit.audit(ANSWER, SOURCES, id="r1").id == "r1"


def test_mixing_a_request_with_loose_arguments_is_refused() -> None:
    with pytest.raises(InputError, match="not both"):
        ragaudit.audit({"answer": ANSWER, "sources": SOURCES}, SOURCES)
    with pytest.raises(InputError, match="sources"):
        ragaudit.Auditor().audit(ANSWER)


def test_the_config_is_applied_by_audit_stream_and_evaluate(tmp_path: Path) -> None:
    config = AuditorConfig(risk_level="high", claim_types=["temporal"], policy=STRICT)
    request = AuditRequest.model_validate({"answer": ANSWER, "sources": SOURCES, "question": QUESTION})
    direct = ragaudit.Auditor(config).audit(request)
    assert direct.options.claim_types == ["temporal"] and [c.type for c in direct.claims] == ["temporal"]
    assert direct.decision.policy == "strict-test" and direct.decision.risk_level == "high"
    assert same(ragaudit.audit(request, config=config), direct)
    for workers in (1, 2):
        streamed = list(audit_stream([request, request], config, workers=workers))
        assert all(same(r, direct) for r in streamed)
    row = {"id": "x", "answer": ANSWER, "sources": SOURCES, "question": QUESTION, "label": "hallucinated"}
    (tmp_path / "d.jsonl").write_text(json.dumps(row) + "\n")
    examples, _ = ev.load_examples([tmp_path / "d.jsonl"])
    (outcome,) = ev.run(examples, config, workers=1, cache=tmp_path / "cache.db")
    assert same(outcome.report, direct.model_copy(update={"id": "x"}))
    # The cache key holds the whole configuration: another policy is not served the cached report.
    (other,) = ev.run(examples, config.replace(policy=Policy(name="other")), workers=1, cache=tmp_path / "cache.db")
    assert other.report.decision.policy == "other"


def test_keyword_overrides_change_one_field_of_the_config() -> None:
    auditor = ragaudit.Auditor(AuditorConfig(risk_level="high", policy=STRICT), claim_types=["temporal"])
    assert auditor.config.risk_level == "high" and auditor.config.claim_types == ("temporal",)
    assert auditor.gate.policy.name == "strict-test"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"risk_level": "extreme"}, "risk_level"),
        ({"claim_types": ["opinion"]}, "unknown claim type"),
        ({"claim_types": "temporal"}, "list of types"),
    ],
)
def test_a_bad_configuration_is_one_clear_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        AuditorConfig(**options)  # type: ignore[arg-type]


def test_limits_come_from_the_config() -> None:
    small = AuditorConfig(limits=Limits(answer_chars=10))
    with pytest.raises(LimitError, match="over the limit of 10"):
        ragaudit.audit(ANSWER, SOURCES, config=small)
    with pytest.raises(LimitError, match="sources is over the limit of 1"):
        ragaudit.audit(ANSWER, [*SOURCES, {"id": "2", "text": "More."}], limits=Limits(sources=1))
    with pytest.raises(ConfigError, match="positive integer"):
        Limits(sources=0)


def test_report_decision_is_required() -> None:
    data = json.loads(ragaudit.audit(ANSWER, SOURCES).to_json())
    del data["decision"]
    with pytest.raises(pydantic.ValidationError, match="decision"):
        Report.model_validate(data)


def test_a_closed_auditor_refuses_to_audit() -> None:
    auditor = ragaudit.Auditor()
    auditor.close()
    auditor.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        auditor.audit(ANSWER, SOURCES)


class KeepAlive(Handler):
    """The fake LLM over HTTP/1.1 keep-alive, recording each TCP connection's client port."""

    protocol_version = "HTTP/1.1"
    ports: ClassVar[set[int]] = set()

    def do_POST(self) -> None:
        KeepAlive.ports.add(self.client_address[1])
        super().do_POST()


@pytest.fixture
def keepalive_llm() -> Iterator[FakeLLM]:
    server = FakeLLM()
    server.httpd.RequestHandlerClass = KeepAlive
    KeepAlive.ports.clear()
    with server:
        yield server


def test_an_llm_judge_pools_one_client_that_close_releases(keepalive_llm: FakeLLM) -> None:
    spec = f"openai-compatible:{keepalive_llm.url('ok')}#fake?retries=2&timeout=10&concurrency=1"
    with ragaudit.Auditor(spec) as auditor:
        for _ in range(3):
            assert auditor.audit(ANSWER, SOURCES).llm_calls
        client = auditor.judge.provider._client  # type: ignore[attr-defined]
        assert not client.is_closed
    assert KeepAlive.ports and len(KeepAlive.ports) == 1, "three audits should reuse one pooled connection"
    assert client.is_closed


def test_threads_share_an_llm_judge_and_negotiate_the_output_mode_once() -> None:
    with FakeLLM() as llm:
        spec = f"openai-compatible:{llm.url('no_json_schema')}#fake?retries=2&timeout=10&concurrency=8"
        Handler.formats.clear()
        start = threading.Barrier(8)
        with ragaudit.Auditor(spec) as auditor:

            def one(_: int) -> Report:
                start.wait()
                return auditor.audit(ANSWER, SOURCES)

            with ThreadPoolExecutor(8) as pool:
                reports = list(pool.map(one, range(8)))
            modes = list(auditor.judge._modes)  # type: ignore[attr-defined]
        with ragaudit.Auditor(spec) as alone:  # the same audit, one thread
            expected = [(c.status, c.escalation) for c in alone.audit(ANSWER, SOURCES).claims]
    assert all([(c.status, c.escalation) for c in r.claims] == expected for r in reports)
    # json_schema is refused, json_object works: whatever the interleaving, the judge settles on json_object
    # (a race that dropped two modes would leave plain text).
    assert modes[0] == "json_object"
    used = [fmt for scenario, fmt in Handler.formats if scenario == "no_json_schema"]
    Handler.formats.clear()  # the list is shared with the harness tests, which read it whole
    assert "text" not in {str(f) for f in used} and None not in used


class EchoJudge:
    """A judge written against the public protocol: every claim it is given is supported by its best unit."""

    name = "echo"
    version = "1"
    model: str | None = "echo-model"
    prompt: JudgePrompt | None = JudgePrompt(version="p1", hash="abc", task="claim_audit")

    def __init__(self) -> None:
        self.closed = False
        self.seen: list[tuple[str, str | None]] = []

    def judge(self, alignments: list[Alignment], context: JudgeContext) -> list[Verdict]:
        self.seen += [(a.claim.text, context.question) for a in alignments]
        return [Verdict(status="supported", confidence=0.5, explanation="echo") for _ in alignments]

    def close(self) -> None:
        self.closed = True


def test_a_judge_of_ones_own_plugs_in_and_stays_the_callers_to_close() -> None:
    judge = EchoJudge()
    assert isinstance(judge, Judge)
    with ragaudit.Auditor(judge) as auditor:
        report = auditor.audit(ANSWER, SOURCES, QUESTION)
    assert judge.seen and judge.seen[0][1] == QUESTION
    info = report.judge
    assert (info.name, info.model, info.prompt_version, info.prompt_hash) == ("echo", "echo-model", "p1", "abc")
    assert not judge.closed  # passed in by the caller: the auditor does not close it


@pytest.mark.parametrize(
    "answer",
    [
        "The ferry leaves at 07:40 and takes 55 minutes.",  # faithful
        "The ferry leaves at 07:40 and takes 75 minutes.",  # one wrong figure
        "The ferry leaves at 07:40 [2].",  # true, but credited to the wrong passage
    ],
)
def test_the_hallucination_score_ranks_as_the_label_decides(answer: str) -> None:
    sources = ["The first ferry leaves Castlebay at 07:40; the crossing takes 55 minutes.", "Cabins cost £40."]
    report = ragaudit.audit(answer, sources)
    strength = finding_strength(report.claims)
    assert (strength >= 0.5) is (report.label == "hallucinated")
    # The shipped calibration turns the strength into a probability without changing the ranking.
    _, calibration = shipped_calibration()
    assert (calibration.a or 0) > 0 and report.hallucination_score == round(calibration.apply(strength), 6)


def test_a_report_does_not_depend_on_what_was_audited_before_on_the_same_sources() -> None:
    from hostile_inputs import prose

    # Enough passages that each request embeds only those its claims point to.
    sources = [{"id": str(k), "text": prose(3000, seed=k)} for k in range(3)]
    first = " ".join(sources[0]["text"].split(". ")[:6]) + "."
    second = " ".join(sources[1]["text"].split(". ")[3:8]).replace("0", "7") + "."
    alone = ragaudit.Auditor(index_cache=ragaudit.IndexCache()).audit(second, sources)
    shared = ragaudit.Auditor(index_cache=ragaudit.IndexCache())
    shared.audit(first, sources)  # leaves vectors of its passages on the cached index
    assert same(shared.audit(second, sources), alone)
