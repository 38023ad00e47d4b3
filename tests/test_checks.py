"""Each request-level check on its own."""

from __future__ import annotations

from ragaudit import audit

PLANT = [
    {"id": "1", "text": "The plant opened in 2012."},
    {"id": "2", "text": "The plant employs 500 people."},
    {"id": "3", "text": "The plant makes aluminium."},
]


def test_fabricated_citation_names_no_source() -> None:
    (claim,) = audit("The plant opened in 2012 [7].", PLANT).claims
    assert claim.citation_check is not None
    assert claim.citation_check.unknown == ["7"]
    assert not claim.citation_check.valid


def test_wrong_source_citation_names_the_right_source() -> None:
    (claim,) = audit("The plant opened in 2012 [2].", PLANT).claims
    check = claim.citation_check
    assert check is not None and not check.valid
    assert check.unsupportive == ["2"]
    assert check.supporting_sources == ["1"]


def test_correct_multi_citation_is_valid() -> None:
    (claim,) = audit("The plant opened in 2012 and employs 500 people [1, 2].", PLANT).claims
    assert claim.citation_check is not None
    assert claim.citation_check.cited == ["1", "2"]
    assert claim.citation_check.valid


def test_positional_and_prefixed_citations_resolve() -> None:
    sources = [{"id": "doc-1", "text": "The plant opened in 2012."}, {"id": "doc-2", "text": "It employs 500 people."}]
    report = audit("The plant opened in 2012 (Source 1). It employs 500 people [doc-2].", sources)
    assert [c.citation_check.cited for c in report.claims if c.citation_check] == [["doc-1"], ["doc-2"]]


def test_query_gap_with_correct_abstention() -> None:
    report = audit(
        "The plant opened in 2012. The sources do not say who owns the plant.",
        PLANT,
        question="When did the plant open and who owns it?",
    )
    ab = report.abstention
    assert ab is not None and ab.query_has_gap and ab.answer_abstained_correctly is True
    assert report.counts.total == 1  # the abstention is not a claim
    assert report.decision is not None
    assert not any(i.type == "MISSING_ABSTENTION" for i in report.decision.issues)


def test_query_gap_filled_with_claims_is_missing_abstention() -> None:
    report = audit(
        "The plant opened in 2012. It is owned by Norsk Hydro.",
        PLANT,
        question="When did the plant open and who owns it?",
    )
    ab = report.abstention
    assert ab is not None and ab.query_has_gap and ab.answer_abstained_correctly is False
    assert report.decision is not None
    assert any(i.type == "MISSING_ABSTENTION" for i in report.decision.issues)


def test_no_gap_when_the_sources_answer() -> None:
    ab = audit("The plant opened in 2012.", PLANT, question="When did the plant open?").abstention
    assert ab is not None and not ab.query_has_gap and ab.answer_abstained_correctly is None


BRIDGE = [{"id": "a", "text": "The bridge is 300 meters long."}, {"id": "b", "text": "The bridge is 320 meters long."}]


def test_numeric_source_conflict_taken_silently() -> None:
    report = audit("The bridge is 300 meters long.", BRIDGE)
    (conflict,) = report.conflicts
    assert conflict.answer_handling == "took_side_silently"
    assert {s.source_id for s in conflict.sides} == {"a", "b"}
    assert {s.value for s in conflict.sides} == {"300", "320"}
    for side in conflict.sides:
        assert {"a": BRIDGE[0], "b": BRIDGE[1]}[side.source_id]["text"][side.start : side.end] == side.quote


def test_numeric_source_conflict_reported() -> None:
    report = audit("One source gives the bridge's length as 300 meters, while another says 320 meters.", BRIDGE)
    assert report.conflicts and all(c.answer_handling == "reported_conflict" for c in report.conflicts)


def test_conflict_where_the_answer_matches_neither_source() -> None:
    report = audit("The bridge is 310 meters long.", BRIDGE)
    assert report.conflicts and report.conflicts[0].answer_handling == "answer_error"


COMPANIES = [{"id": "a", "text": "Acme was founded in 1990."}, {"id": "b", "text": "Beta was founded in 1985."}]


def test_synthesis_error_binds_a_figure_to_the_wrong_entity() -> None:
    (claim,) = audit("Acme was founded in 1985.", COMPANIES).claims
    assert claim.status == "synthesis_error"
    assert claim.involved_sources == ["a", "b"]
    assert "Beta" in claim.explanation


def test_same_facts_combined_correctly_are_not_flagged() -> None:
    report = audit("Acme was founded in 1990 and Beta was founded in 1985.", COMPANIES)
    assert [c.status for c in report.claims] == ["supported"]


def test_arithmetic_on_stated_figures_is_an_inference() -> None:
    (claim,) = audit(
        "Sales totalled 100 units over the two months.", ["Sales were 40 units in May and 60 units in June."]
    ).claims
    assert claim.status != "supported"
    assert claim.inferable
