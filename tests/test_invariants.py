"""Properties every report must have: exact quotes, exact offsets, determinism, score formula."""

from __future__ import annotations

from typing import Any

import pytest

from ragaudit import Auditor, Report, audit
from ragaudit.models import AuditRequest

from .conftest import benchmark_rows

HAND_WRITTEN: list[dict[str, Any]] = [
    {
        "answer": "The plant opened in 2010 [1]. It employs 500 people and makes cars. Hello!",
        "sources": [{"id": "1", "text": "The plant opened in 2012. It employs 500 people."}],
    },
    {
        "question": "Where is the café?",
        "answer": "The café is on 5th Avenue (Source 2), and it opens at 7 a.m. The sources do not say who owns it.",
        "sources": [
            {"id": "1", "text": "Opening hours: 7:00–15:00 daily."},
            {"id": "2", "text": "Café Ümlaut — 12 5th Avenue, New York."},
        ],
    },
    {"answer": "Thanks for asking!", "sources": [{"id": "a", "text": "Nothing relevant here."}]},
]


def check_report(request: AuditRequest, report: Report) -> None:
    by_id = {s.id: s.text for s in request.sources}
    for claim in report.claims:
        assert request.answer[claim.start : claim.end] == claim.text
        assert 0 <= claim.start < claim.end <= len(request.answer)
        for ev in claim.evidence:
            assert by_id[ev.source_id][ev.start : ev.end] == ev.quote
    counts = report.counts
    assert counts.total == len(report.claims)
    assert counts.total == (
        counts.supported
        + counts.partially_supported
        + counts.unsupported
        + counts.contradicted
        + counts.synthesis_error
    )
    expected = 1.0 if counts.total == 0 else (counts.supported + 0.5 * counts.partially_supported) / counts.total
    assert report.faithfulness == pytest.approx(expected)
    assert report.label == ("faithful" if counts.supported == counts.total else "hallucinated")


@pytest.mark.parametrize("data", HAND_WRITTEN)
def test_hand_written_reports_hold_the_invariants(data: dict[str, Any]) -> None:
    request = AuditRequest.model_validate(data)
    check_report(request, Auditor().audit(request))


@pytest.mark.parametrize("dataset,split", [("ragtruth", "test"), ("faithbench", "dev"), ("begin", "dev")])
def test_benchmark_reports_hold_the_invariants(dataset: str, split: str) -> None:
    auditor = Auditor()
    for row in benchmark_rows(dataset, split, 60):
        request = AuditRequest.model_validate(row)
        check_report(request, auditor.audit(request))


def test_same_input_gives_byte_identical_json() -> None:
    data = HAND_WRITTEN[1]
    first = Auditor().audit(data).to_json(timings=False)
    second = Auditor().audit(data).to_json(timings=False)
    assert first == second


def test_no_claims_scores_one_and_says_so() -> None:
    report = audit("Hello! Here is a summary:", ["Some passage."])
    assert report.claims == []
    assert report.faithfulness == 1.0
    assert report.label == "faithful"
    assert report.note and "No checkable claims" in report.note


def test_hashes_identify_the_request() -> None:
    a = audit("The plant opened in 2012.", [{"id": "x", "text": "A"}, {"id": "y", "text": "B"}])
    b = audit("The plant opened in 2012.", [{"id": "y", "text": "B"}, {"id": "x", "text": "A"}])
    assert a.hashes.source_set == b.hashes.source_set
    assert a.hashes.answer == b.hashes.answer
    assert set(a.hashes.sources) == {"x", "y"}


def test_claim_types_option_filters_claims_and_score() -> None:
    answer = "The plant opened in 2012. It is a beautiful building."
    report = audit(answer, ["The plant opened in 2012."], claim_types=["temporal"])
    assert [c.type for c in report.claims] == ["temporal"]
    assert report.counts.total == 1
