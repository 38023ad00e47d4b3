"""Who does what when parties are named by their roles, how many a quantifier claims, fractions of a unit, bounds
and avoidance read as such. Each faithful reading passes and its twin with one word or figure wrong is caught.

Written for these tests (fictional, not taken from any benchmark).
"""

from __future__ import annotations

import pytest

import ragaudit
from audit_helpers import flagged
from ragaudit._role_nouns import role_forms
from ragaudit.slots import extract

SURGERY = (
    "Fernhollow Surgery — who does what. Blood tests are taken by our healthcare assistant, Dana Pryce, on weekday "
    "mornings. Travel vaccinations are given by the practice nurse, Owen Lusk, after a consultation. "
    "Repeat prescriptions are signed off by the duty doctor within two working days."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Travel vaccinations are given by the practice nurse after a consultation.", False),
        ("Travel vaccinations are given by the healthcare assistant after a consultation.", True),
        ("Blood tests are taken on weekday mornings by the healthcare assistant.", False),
        ("Blood tests are taken on weekday mornings by the practice nurse.", True),
    ],
)
def test_a_task_given_to_another_role_noun_is_a_swap(answer: str, caught: bool) -> None:
    assert flagged(answer, SURGERY) is caught


LETTINGS = (
    "Ashcombe Lettings guide. Once a tenancy is agreed, the landlord instructs an inventory clerk to record the "
    "condition of the property. Ashcombe Lettings collects the first month's rent and the deposit."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        (
            "Once the tenancy is agreed, the landlord instructs an inventory clerk to record the property's condition.",
            False,
        ),
        (
            "Once the tenancy is agreed, Ashcombe Lettings instructs an inventory clerk to record the property's condition.",
            True,
        ),
    ],
)
def test_a_party_given_the_deed_of_a_role_the_sources_name(answer: str, caught: bool) -> None:
    assert flagged(answer, LETTINGS) is caught


def test_role_nouns_count_only_where_the_sources_name_the_role() -> None:
    forms = role_forms("The nurse gives the injection.", (SURGERY,))
    assert forms["practice nurse"] == "role:nurse" and forms["healthcare assistant"] == "role:assistant"
    assert role_forms("The surveyor values the house.", (SURGERY,)) == {}


def test_a_role_the_claim_names_beside_a_name_is_no_swap() -> None:
    source = "A nurse on the ferry treated a passenger who had fainted. Later Mia Thorne, a doctor, checked him."
    assert not flagged("A nurse on the ferry, Mia Thorne, treated a passenger who had fainted.", source)


FLOOD = (
    "Kelbridge Mutual flood update. Drying equipment is now running in most affected homes. "
    "None of our approved builders starts work before the loss adjuster's visit. "
    "Of those who used the new claims app, 74% rated it easy to use."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Dehumidifiers are now working in most of the affected houses.", False),
        ("Dehumidifiers are now working in all of the affected houses.", True),
        ("About three-quarters of people who tried the new claims app found it easy.", False),
        ("Everyone who tried the new claims app found it easy.", True),
    ],
)
def test_a_quantifier_read_against_a_loosely_worded_window(answer: str, caught: bool) -> None:
    assert flagged(answer, FLOOD) is caught


def test_a_few_is_some_and_no_noun_is_none() -> None:
    source = "No lender on our panel accepts an unpaid county court judgment of more than £800."
    assert flagged("A few lenders on the panel will take an unpaid county court judgment above £800.", source)
    assert not flagged("No panel lender will take an unpaid county court judgment above £800.", source)


@pytest.mark.parametrize(
    ("text", "value", "dimension"),
    [
        ("a mile and a half on foot", 2414.016, "length"),
        ("over a metre and a half", 1.5, "length"),
        ("about an hour and a quarter", 4500.0, "time"),
        ("two days and a half", 216000.0, "time"),
        ("tones up to 8,000 hertz", 8000.0, "frequency"),
        ("tones up to 8 kHz", 8000.0, "frequency"),
    ],
)
def test_fractions_of_any_unit_and_frequencies(text: str, value: float, dimension: str) -> None:
    (q,) = extract(text).quantities
    assert q.value == pytest.approx(value) and q.dimension == dimension


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Your hearing is tested with tones from 250 hertz up to 8,000 hertz.", False),
        ("Your hearing is tested with tones from 250 hertz up to 6,000 hertz.", True),
        ("The walk up to the ridge is about a mile and a half.", False),
        ("The walk up to the ridge is about a mile and a quarter.", True),
    ],
)
def test_conversions_of_frequencies_and_fractions(answer: str, caught: bool) -> None:
    source = "Pure-tone testing covers 250 Hz to 8 kHz. The ridge walk is 2.4 km long."
    assert flagged(answer, source) is caught


OFFERS = (
    "Typical offer: 136 tariff points. Contextual offer: 120 points for applicants who meet one or more of our "
    "widening participation criteria. Tariff values per A level: A = 48, B = 40, C = 32."
)
GRADES = "The typical offer is 136 tariff points."


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        (
            f"{GRADES} The contextual offer, for applicants who meet a widening criterion, is 16 points lower at 120.",
            False,
        ),
        (
            f"{GRADES} The contextual offer, for applicants who meet a widening criterion, is 16 points lower at 112.",
            True,
        ),
    ],
)
def test_a_difference_between_counts_is_no_count(answer: str, caught: bool) -> None:
    assert flagged(answer, OFFERS) is caught


@pytest.mark.parametrize(
    ("text", "denies"),
    [
        ("the certificate can't be more than three years old", False),
        ("the load must not exceed 25 kg", False),
        ("do not go to the office", True),
        ("you cannot park here", True),
    ],
)
def test_a_negated_comparison_is_a_bound_not_a_denial(text: str, denies: bool) -> None:
    assert bool(extract(text).negated_heads) is denies


CARE = (
    "Caring for a restored print: dust the frame only, with a soft brush; never clean the print surface yourself. "
    "Do not use alcohol or solvents on the glass. Do not hang the print above a radiator."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Dust just the frame with a soft brush and leave the print surface alone.", False),
        ("Keep the print away from radiators.", False),
        ("Wiping the glass with a little alcohol is fine.", True),
    ],
)
def test_a_claim_that_keeps_away_from_what_is_forbidden(answer: str, caught: bool) -> None:
    assert flagged(answer, CARE) is caught


def test_a_tariff_applied_for_a_fact_of_the_case() -> None:
    source = (
        "Adoption fees: adult cats £80, kittens £95. Bonded pairs adopted together receive 25% off the combined fee."
    )
    assert not flagged("Because they're a bonded pair, the combined fee of £175 is cut by 25%.", source)
    assert flagged("Because they're a bonded pair, the combined fee of £175 is cut by 35%.", source)


def test_a_sentence_about_the_material_at_hand_is_no_claim() -> None:
    source = "Parking income 2025: £1.2 million. Enforcement statistics will be published in the annual report."
    report = ragaudit.audit(
        "The material I have doesn't include the number of tickets issued. Parking brought in £1.2 million in 2025.",
        [{"id": "S1", "text": source}],
    )
    assert [c.text for c in report.claims] == ["Parking brought in £1.2 million in 2025."]


TURNAROUND = (
    "Turnaround plan, narrow-body aircraft. Minimum ground time is 45 minutes from on-blocks to off-blocks. "
    "Disembarkation is planned at 10 minutes and boarding at 20 minutes; cabin cleaning between the two is "
    "allocated 8 minutes. Refuelling may overlap with cleaning only with a fire-trained agent present."
)


@pytest.mark.parametrize(
    ("total", "caught"),
    [("38 of the 45 minutes", False), ("36 of the 45 minutes", True), ("41 of the 45 minutes", True)],
)
def test_a_length_of_time_summed_from_the_items_before_it(total: str, caught: bool) -> None:
    answer = (
        "The plane gets at least 45 minutes on the ground. Getting passengers off is budgeted at 10 minutes, "
        f"the clean that follows at 8 and boarding at 20, so those three cabin stages use up {total}."
    )
    assert flagged(answer, TURNAROUND) is caught


LOANS = (
    "Inter-library loans. Requests are checked by the reference librarian, who searches the regional catalogue "
    "first; items not held in the region are ordered from the British Library by the inter-library loans officer. "
    "Loans last three weeks and can be renewed once, for a further week, if the lending library agrees."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        (
            "Anything from outside the region is ordered from the British Library by the inter-library loans officer.",
            False,
        ),
        ("Anything from outside the region is ordered from the British Library by the reference librarian.", True),
    ],
)
def test_a_deed_done_with_a_named_third_party_given_to_another_role(answer: str, caught: bool) -> None:
    assert flagged(answer, LOANS) is caught


@pytest.mark.parametrize(("total", "caught"), [("four weeks", False), ("five weeks", True)])
def test_another_week_is_one_week_of_a_total(total: str, caught: bool) -> None:
    answer = (
        "You can keep the book for three weeks and renew it once for another week, provided the lending library "
        f"agrees, so a loan can run to {total} in all."
    )
    assert flagged(answer, LOANS) is caught
    assert [q.value for q in extract("for another week, or a further week").quantities] == [604800.0, 604800.0]
