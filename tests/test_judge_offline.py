"""The offline judge against each error type it must catch, on small hand-written cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragaudit import audit

SOURCE = (
    "The trial enrolled 120 patients in 2019. All patients received the drug for 6 weeks. "
    "Aspirin may reduce the risk of stroke. Dr. Maria Lopez led the study at Boston General Hospital. "
    "The company's revenue increased by 5% to $2.3 million. The bridge is 3 km long. "
    "The museum is not open on Mondays."
)


def status(answer: str, **options: str) -> str:
    (claim,) = audit(answer, [SOURCE], **options).claims  # type: ignore[arg-type]
    return claim.status


@pytest.mark.parametrize(
    "answer",
    [
        "The trial enrolled 120 patients in 2019.",
        "In 2019, the study recruited 120 patients.",
        "The company's revenue increased by five percent to $2,300,000.",
        "The museum is closed on Mondays.",
    ],
)
def test_supported_including_paraphrase_and_number_formats(answer: str) -> None:
    assert status(answer) == "supported"


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        ("The trial enrolled 150 patients in 2019.", "number"),
        ("The trial enrolled 120 patients in 2017.", "date"),
        ("The bridge is 3 miles long.", "unit"),
        ("Dr. John Smith led the study at Boston General Hospital.", "name"),
        ("The museum is open on Mondays.", "negation"),
        ("Aspirin does not reduce the risk of stroke.", "negation"),
        ("Some patients received the drug for 6 weeks.", "quantifier"),
        ("Aspirin will reduce the risk of stroke.", "modality"),
        ("The company's revenue decreased by 5% to $2.3 million.", "antonym"),
    ],
)
def test_contradictions_are_caught_and_named(answer: str, error: str) -> None:
    report = audit(answer, [SOURCE])
    (claim,) = report.claims
    assert claim.status == "contradicted", claim.explanation
    assert f"({error})" in claim.explanation
    assert claim.evidence and all(e.relation == "contradicts" for e in claim.evidence)


def test_added_detail_makes_a_claim_partial() -> None:
    assert status("The trial enrolled 120 patients in 2019 and was funded by the NIH.") == "partially_supported"


def test_high_risk_treats_any_novel_qualifier_as_partial() -> None:
    answer = "The bridge is 3 km long and painted bright red."
    assert status(answer, risk_level="high") == "partially_supported"


def test_unsupported_when_no_source_says_it() -> None:
    report = audit("The drug was approved by the FDA in 2021.", [SOURCE])
    (claim,) = report.claims
    assert claim.status == "unsupported"
    assert claim.evidence == []
    assert "FDA" in claim.explanation


def test_confidence_and_explanation_are_always_present() -> None:
    report = audit("The trial enrolled 120 patients in 2019. The drug was approved in 2021.", [SOURCE])
    for claim in report.claims:
        assert 0.0 <= claim.confidence <= 1.0
        assert claim.explanation.endswith(".")


def test_json_record_sources_read_false_attributes_as_negation() -> None:
    record = (
        '{"name": "Finch & Fork", "attributes": {"OutdoorSeating": false, "WiFi": "free", "RestaurantsTakeOut": true}}'
    )
    report = audit("Finch & Fork offers outdoor seating. It has free WiFi and takeout.", [record])
    assert [c.status for c in report.claims] == ["contradicted", "supported"]
    quote = report.claims[0].evidence[0].quote
    assert "OutdoorSeating" in quote


def test_table_sources_are_read_by_row() -> None:
    table = "| city | population |\n|---|---|\n| Lyon | 513,000 |\n| Nice | 342,000 |"
    report = audit("Lyon has a population of 513000.", [table])
    assert report.claims[0].status == "supported"
    assert report.claims[0].evidence[0].quote == "| Lyon | 513,000 |"


def test_multi_source_claim_cites_evidence_from_both() -> None:
    report = audit(
        "The plant opened in 2012 and employs 500 people.",
        [{"id": "a", "text": "The plant opened in 2012."}, {"id": "b", "text": "The plant employs 500 people."}],
    )
    (claim,) = report.claims
    assert claim.status == "supported"
    assert {e.source_id for e in claim.evidence} == {"a", "b"}


def test_a_claim_that_denies_what_the_record_sets_to_false_agrees_with_it() -> None:
    from ragaudit.align import align, build_index
    from ragaudit.judges._offline import record_agreement
    from ragaudit.models import Claim, Source

    record = '{"name": "Luna Grill", "attributes": {"RestaurantsReservations": false, "OutdoorSeating": true}}'
    index = build_index([Source(id="r", text=record)])

    def agreeing(text: str) -> str | None:
        unit = record_agreement(align(Claim(id="c1", text=text, start=0, end=len(text), type="factual"), index))
        return unit.text if unit else None

    assert agreeing("The restaurant does not accept reservations.") == '"RestaurantsReservations": false'
    assert agreeing("The restaurant accepts reservations.") is None
    (claim,) = audit("The restaurant accepts reservations.", [record]).claims
    assert claim.status == "contradicted"


def test_not_just_adds_rather_than_denies() -> None:
    report = audit("It is not just a restaurant but also a deli.", ["The shop is a restaurant and a deli."])
    assert report.claims[0].status == "supported", report.claims[0].explanation


def test_no_embeddings_reaches_the_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """offline:no-embeddings is the fast mode: neither the verifier nor the checks after it embed."""
    import ragaudit.embed as embedding

    def forbidden(batch: list[list[int]]) -> None:
        raise AssertionError(f"{len(batch)} texts embedded")

    monkeypatch.setattr(embedding._encoder(), "_run", forbidden)
    report = audit(
        "The Zorvane plant opened in 2012 [1].",
        [{"id": "1", "text": "The Zorvane plant opened in 2012 and employs 500 people."}],
        question="When did the Zorvane plant open?",
        judge="offline:no-embeddings",
    )
    assert report.claims[0].status == "supported"
    assert report.abstention is not None and not report.abstention.query_has_gap


def test_the_judge_version_changes_with_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cached reports are keyed by the judge's version: other verdict code must give another version.
    from ragaudit import _hashing
    from ragaudit.judges._offline import OfflineJudge

    before = OfflineJudge().version
    monkeypatch.setattr(_hashing, "rules_digest", lambda: "0" * 12)
    monkeypatch.setattr("ragaudit.judges._offline.rules_digest", lambda: "0" * 12)
    assert OfflineJudge().version != before


def test_the_rules_digest_covers_the_verdict_code_and_word_lists() -> None:
    import ragaudit
    from ragaudit._hashing import verdict_files

    root = Path(ragaudit.__file__).parent
    names = {p.relative_to(root).as_posix() for p in verdict_files()}
    assert {"verify.py", "segment.py", "data/slots.toml", "checks/_citations.py", "judges/verifier_model.json"} <= names
    assert not any(n.startswith(("service/", "_cli/")) for n in names)


GYM = json.dumps(
    {
        "plan": "Flex",
        "joining_charge_gbp": 25,
        "monthly_price_gbp": 39,
        "freeze": {"max_months": 3},
        "ratings": {"editor_stars": 4, "member_stars": 3.6},
    },
    indent=2,
)


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # The field the claim names holds another figure: contradicted, though the record has £39 elsewhere.
        ("The Flex plan has a £39 joining charge.", "contradicted"),
        ("The Flex plan has a £25 joining charge.", "supported"),
        # A bound is no figure of the field's; a name that shares a word with another field's does not
        # say which one is meant.
        ("The Flex plan's joining charge is under £39.", None),
        ("Members give the Flex plan 4 stars.", None),
    ],
)
def test_a_numeric_record_field_the_claim_names_decides_its_figure(answer: str, status: str | None) -> None:
    (claim,) = audit(answer, [{"id": "plan", "text": GYM}]).claims
    if status is None:
        assert claim.decided_by != "rule:record number"
    else:
        assert claim.status == status
