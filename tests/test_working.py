"""Arithmetic an answer shows: a total worked out in two steps from the claim's own figures, a share of a band,
an area from its sides, the calendar's factors, a conversion in the clause after its figure. Each faithful
working passes and the same working with one figure wrong is caught.

Written for these tests (fictional, not taken from any benchmark).
"""

from __future__ import annotations

import pytest

from audit_helpers import flagged
from ragaudit._working import _two_steps, calendar_factors, shown_working
from ragaudit.slots import extract

PASSES = (
    "Glenmarrow Lakes Park: three-day passes cost £126 for an adult and £66 for a child (5-15). "
    "Children under 5 go free. Booking online at least two days ahead takes 10% off the total."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Two adult three-day passes (£126 each) plus a child's pass (£66) add up to £318.", False),
        ("Two adult three-day passes (£126 each) plus a child's pass (£66) add up to £328.", True),
        ("Two adult three-day passes (£126 each) plus a child's pass (£66) add up to £308.", True),
    ],
)
def test_a_total_worked_in_two_steps_from_the_claims_figures(answer: str, caught: bool) -> None:
    assert flagged(answer, PASSES) is caught


LEVY = (
    "Land Transaction Levy rates: 0% on the portion up to £180,000; 3% on the portion from £180,001 to £300,000; "
    "6% on the portion from £300,001 to £600,000."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("You would pay £3,600 on the band between £180,000 and £300,000.", False),
        ("You would pay £4,600 on the band between £180,000 and £300,000.", True),
    ],
)
def test_a_stated_rate_on_a_band_between_two_figures(answer: str, caught: bool) -> None:
    assert flagged(answer, LEVY) is caught


PITCHES = (
    "Riverside Festival camping: tents may be no larger than 4 m × 4 m. Each pitch is numbered. "
    "Gazebos are not allowed in the camping field."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Tents can be at most four metres by four, a footprint of 16 square metres.", False),
        ("Tents can be at most four metres by four, a footprint of 20 square metres.", True),
    ],
)
def test_an_area_is_the_product_of_its_sides(answer: str, caught: bool) -> None:
    assert flagged(answer, PITCHES) is caught


MEMBERSHIP = "Kestrel Gym: the Off-Peak membership is £16.50 a month, paid by direct debit. There is no joining fee."


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Off-Peak at £16.50 a month comes to £198 across a full year.", False),
        ("Off-Peak at £16.50 a month comes to £210 across a full year.", True),
    ],
)
def test_twelve_months_make_a_year(answer: str, caught: bool) -> None:
    assert flagged(answer, MEMBERSHIP) is caught


GARDEN = "Detached bungalow. Rear garden approximately 30 metres long, mainly laid to lawn, with a patio. Freehold."


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("The back garden is roughly 30 m long, which is just under 100 feet.", False),
        ("The back garden is roughly 30 m long, which is just under 150 feet.", True),
    ],
)
def test_a_conversion_in_the_clause_after_its_figure(answer: str, caught: bool) -> None:
    assert flagged(answer, GARDEN) is caught


def test_shown_working_never_reads_a_hedged_figure_or_one() -> None:
    """Thousands of results fall within a tenth of almost anything; any two equal figures give one."""
    slots = extract("about 400 visitors, 126 and 66 and 3 more, a week")
    figures = slots.quantities
    hedged = [q for q in figures if q.approx]
    assert hedged and shown_working(figures, hedged) == hedged
    assert shown_working(figures[:2], figures[:1]) == figures[:1]  # fewer than three figures: no working


def test_two_steps_are_bounded_and_use_each_figure_once() -> None:
    results = _two_steps((126.0, 66.0, 2.0), ())
    assert 318.0 in results and 192.0 in results
    assert 126.0 * 126.0 not in results  # a figure twice over
    assert len(_two_steps(tuple(float(v) for v in range(3, 11)), (0.1, 0.9, 1.1))) < 20_000


def test_calendar_factors_need_both_periods_named() -> None:
    assert calendar_factors("£16.50 a month comes to £198 across a full year") == (12.0,)
    assert calendar_factors("£16.50 a month") == ()
    assert 7.0 in calendar_factors("twice a week, every day")


ROOMS = (
    "Hazelbrook Nursery rooms. Willow Room (2–3 years): maximum 16 children. Oak Room (3–5 years): one practitioner "
    "to every four children at mealtimes and every eight otherwise, maximum 24 children."
)
METRICS = "Annals of Hydrology: journal metrics 2025. Submissions received: 1,240. Acceptance rate: 22%."


@pytest.mark.parametrize(
    ("answer", "sources", "caught"),
    [
        ("The three-to-fives are in Oak Room at one adult for every eight, with a cap of 28 children.", ROOMS, True),
        ("The three-to-fives are in Oak Room at one adult for every eight, with a cap of 24 children.", ROOMS, False),
        ("Between them, Willow and Oak Room hold 40 children in total.", ROOMS, False),
        ("The journal received 1,240 submissions in 2025.", METRICS, False),
    ],
)
def test_a_count_of_what_the_window_counts_must_be_one_of_its_counts(answer: str, sources: str, caught: bool) -> None:
    """28 is 24 + 4 of the same sentence, but a clause that works out no total states the count, and states it
    wrong (before, arithmetic on the window's figures excused it)."""
    assert flagged(answer, sources) is caught


@pytest.mark.parametrize(
    ("source", "answer", "caught"),
    [
        ("The plot covers 0.5 hectares.", "The plot is about 1.2 acres.", False),
        ("The plot covers 0.5 hectares.", "The plot is about 2.5 acres.", True),
        ("Visits are limited to 14 days.", "Visits are capped at a fortnight.", False),
        ("Visits are limited to 21 days.", "Visits are capped at a fortnight.", True),
        ("Maximum pressure is 2 bar.", "Maximum pressure is about 29 psi.", False),
        ("Maximum pressure is 2 bar.", "Maximum pressure is about 45 psi.", True),
    ],
)
def test_a_figure_in_another_unit_is_the_sources_figure_not_new_wording(source: str, answer: str, caught: bool) -> None:
    """The converted figure's number and unit count as the source's (for the model too), a wrong one as a slip."""
    assert flagged(answer, f"Facility notes. {source} Further details are on the website.") is caught
