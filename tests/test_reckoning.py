"""Arithmetic an answer works out across its claims, from the sources' figures and the question's: a total given
before its items, a step whose intermediate is unstated, a rate, a count of one measure in another, a date counted
on in working days. Each faithful answer passes, and its twin with the result wrong is caught.

Written for these tests (fictional, not taken from any benchmark).
"""

from __future__ import annotations

import datetime as dt

import pytest

import ragaudit
from audit_helpers import flagged
from ragaudit._calendar import _working_days, date_derived
from ragaudit._figures import FigurePool
from ragaudit._reckoning import reckoned
from ragaudit.slots import extract

TICKETS = "Harbour Lido prices. Entry costs £12 per adult and £6 per child. Towels can be hired for £2."
COURSE = "The evening pottery course costs £240 and runs for 8 weeks. Clay and glazes are included."
FEED = "Layers pellets. A 20 kg bag costs £14 and feeds twelve hens for about three weeks."
POOL = "Kelby Baths. The main pool is 25 m long and 1.2 m deep throughout."
SESSIONS = "First-aid certificate. Sessions last 45 minutes and there are 6 in the course, one a week."


@pytest.mark.parametrize(
    ("answer", "source", "question", "caught"),
    [
        (
            "For two adults and three children you'd pay £42.",
            TICKETS,
            "What do two adults and three children pay?",
            False,
        ),
        (
            "For two adults and three children you'd pay £44.",
            TICKETS,
            "What do two adults and three children pay?",
            True,
        ),
        ("That works out at £30 a week.", COURSE, "How much is it per week?", False),
        ("That works out at £35 a week.", COURSE, "How much is it per week?", True),
        ("That's 70p per kilogram.", FEED, "What does a 20 kg bag cost per kg?", False),
        ("That's 80p per kilogram.", FEED, "What does a 20 kg bag cost per kg?", True),
        ("Forty lengths add up to 1 km.", POOL, "How far is 40 lengths?", False),
        ("Forty lengths add up to 1.5 km.", POOL, "How far is 40 lengths?", True),
        ("The course adds up to four and a half hours of teaching.", SESSIONS, "How long is the course in all?", False),
        ("The course adds up to five hours of teaching.", SESSIONS, "How long is the course in all?", True),
    ],
)
def test_a_figure_worked_out_from_the_sources_and_the_question(
    answer: str, source: str, question: str, caught: bool
) -> None:
    assert flagged(answer, source, question=question) is caught


PAYROLL = (
    "Brightledger payroll pricing (excluding VAT). Base fee per month, covering up to 5 employees: £45.00. "
    "Each additional employee per month: £3.20. Pension administration per enrolled employee per month: £0.90."
)


@pytest.mark.parametrize(("total", "caught"), [("£96.90", False), ("£98.90", True)])
def test_a_total_stated_before_the_figures_it_is_worked_from(total: str, caught: bool) -> None:
    answer = (
        f"Before VAT you'd be looking at {total} a month. The £45 base fee covers your first 5 staff, and the "
        "other 12 cost £3.20 each, which adds £38.40 and brings the payroll charge to £83.40. The pension work for "
        "the 15 enrolled staff at 90p a head comes to a further £13.50."
    )
    question = "We have 17 staff and 15 of them are in the pension scheme. What is the monthly charge?"
    report = ragaudit.audit(answer, [{"id": "S1", "text": PAYROLL}], question)
    first = report.claims[0]
    assert (first.status != "supported") is caught
    if not caught:
        assert first.decided_by == "detector:figures"
        assert "works out in its other claims" in first.explanation


LIFTS = (
    "Schedule of charges. Annual charge per passenger lift: £1,980. Annual charge for the goods lift: £2,460. "
    "Charges are payable quarterly in advance and rise each April by CPI, capped at 4%."
)


@pytest.mark.parametrize(("instalment", "caught"), [("£1,605", False), ("£1,650", True)])
def test_a_worked_out_total_divided_by_the_calendar(instalment: str, caught: bool) -> None:
    answer = (
        "For your lifts the contract comes to £6,420 a year: £1,980 for each of the two passenger lifts and "
        f"£2,460 for the goods lift. You pay quarterly in advance, so each instalment is {instalment}."
    )
    assert flagged(answer, LIFTS) is caught


NOTICE = "Planning notices. Objections may be lodged until 10 working days after the notice is published."


def test_a_date_counted_on_in_working_days() -> None:
    question = "The notice went up on Monday 2 March 2026. When is the last day to object?"
    assert not flagged("You can object until Monday 16 March 2026.", NOTICE, question=question)
    published, lengths = extract(question).dates, extract(NOTICE).quantities
    assert date_derived(extract("Monday 16 March 2026").dates[0], published, lengths)
    assert not date_derived(extract("Friday 20 March 2026").dates[0], published, lengths)
    assert not date_derived(extract("Thursday 12 March 2026").dates[0], published, lengths)  # ten calendar days


def test_working_days_step_over_weekends() -> None:
    assert _working_days(dt.date(2026, 3, 2), 10) == (dt.date(2026, 3, 16), dt.date(2026, 2, 16))
    assert _working_days(dt.date(2026, 3, 6), 1) == (dt.date(2026, 3, 9), dt.date(2026, 3, 5))


def _reckon(answer_claims: list[str], source: str, supported: list[bool] | None = None) -> list[list[str]]:
    slots = extract(source)
    pool = FigurePool(slots.quantities)
    claims = [extract(t) for t in answer_claims]
    found = reckoned(claims, answer_claims, supported or [False] * len(claims), pool)
    return [[q.text for q in row] for row in found]


def test_a_slip_one_step_from_two_stated_figures_is_not_reckoned_unless_said_to_be_worked_out() -> None:
    source = "Delays of 60 to 119 minutes: half the fare back. Delays of 120 minutes or more: the whole fare back."
    # 30 + 60 = 90 by chance: a slipped limit, not a sum.
    assert _reckon(["If you're held up for 90 minutes or more, you get the whole fare back."], source) == [[]]
    # Said to be a sum, it is one ("altogether").
    assert _reckon(["The two delays add up to 179 minutes altogether."], source) == [["179 minutes"]]


def test_a_figure_worked_from_a_worked_figure_needs_no_cue() -> None:
    source = "Guided dives cost €48 each. Dives booked with a course are discounted by 10%."
    claims = ["The two dives cost €96 in all.", "With the discount you pay €86.40 for them."]
    assert _reckon(claims, source) == [["€96"], ["€86.40"]]
    # Without the first figure worked out, the second is one step from nothing the answer shows.
    assert _reckon(claims[1:], source) == [[]]


def test_a_small_count_is_never_reckoned() -> None:
    source = "Cash must be banked within 5 working days. Two people must be present at every count."
    assert _reckon(["That leaves 3 people in total."], source) == [[]]


@pytest.mark.parametrize(
    ("answer", "source", "caught"),
    [
        ("The lease lasts three years.", "The lease runs for 36 months from the start date.", False),
        ("The lease lasts four years.", "The lease runs for 36 months from the start date.", True),
        ("The course runs for 42 days.", "The beginners' course is 6 weeks long.", False),
        ("The course runs for 35 days.", "The beginners' course is 6 weeks long.", True),
    ],
)
def test_a_figure_given_in_another_unit_with_a_verb_of_its_own(answer: str, source: str, caught: bool) -> None:
    assert flagged(answer, source) is caught


@pytest.mark.parametrize(
    ("answer", "source", "caught"),
    [
        ("Parking costs £3 an hour.", "Town car park: £1.50 per 30 minutes, free after 6 pm.", False),
        ("Parking costs £4 an hour.", "Town car park: £1.50 per 30 minutes, free after 6 pm.", True),
        ("Membership works out at £12 a week.", "Annual membership is £624 a year, payable in advance.", False),
        ("Membership works out at £13 a week.", "Annual membership is £624 a year, payable in advance.", True),
        ("Van hire is £315 a week.", "Van hire is £45 per day, fuel not included.", False),
        # A rate worked out is not rounded to its tens: £300 is no £315.
        ("Van hire is £300 a week.", "Van hire is £45 per day, fuel not included.", True),
    ],
)
def test_a_sum_paid_per_one_period_restated_per_another(answer: str, source: str, caught: bool) -> None:
    assert flagged(answer, source) is caught


@pytest.mark.parametrize(
    ("answer", "source", "caught"),
    [
        ("A five-hour stay costs £9.", "Parking is £1.80 an hour, up to a maximum of £6 a day.", True),
        ("A two-hour stay costs £3.60.", "Parking is £1.80 an hour after the first hour, which is free.", True),
        ("A two-hour stay costs £3.60.", "Parking: £0.90 per 30 minutes, maximum stay 2 hours.", False),
    ],
)
def test_a_rate_capped_or_free_at_first_does_not_scale_with_time_a_maximum_stay_does(
    answer: str, source: str, caught: bool
) -> None:
    assert flagged(answer, source) is caught


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("A two-hour stay costs £3.60.", False),
        ("Parking for 90 minutes comes to £2.70.", False),
        ("A three-hour stay costs £3.60.", True),
        ("Parking for 90 minutes comes to £3.70.", True),
    ],
)
def test_a_rate_over_a_length_of_time_the_claim_gives(answer: str, caught: bool) -> None:
    assert flagged(answer, "Riverside car park: £1.80 per hour, 7 am to 7 pm.") is caught


@pytest.mark.parametrize(
    ("answer", "source", "caught"),
    [
        ("The filters are changed roughly four times a year.", "Filters are changed every 3 months.", False),
        ("The filters are changed about five times a year.", "Filters are changed every 3 months.", True),
        # Only a length a source says something recurs at: "lasts 8 hours" states no "three times a day".
        ("Take the tablet three times a day.", "Its effect lasts 8 hours.", True),
    ],
)
def test_a_rate_is_stated_by_the_interval_it_recurs_at(answer: str, source: str, caught: bool) -> None:
    assert flagged(answer, source) is caught


def test_a_degree_sign_s_letter_is_a_unit_not_a_party() -> None:
    assert not flagged("The studio is kept at 68 °F.", "The studio is kept at 20 °C all year.")
    assert flagged("The studio is kept at 75 °F.", "The studio is kept at 20 °C all year.")


def test_a_discount_scales_one_figure_not_a_sum_it_does_not_name() -> None:
    source = (
        "Workshop menu. Full service £85. Club members get 10% off all workshop labour, including service "
        "prices; parts are charged at full price. Touring tyres £34 each."
    )
    answer = (
        "The service is £76.50 with your 10% discount, and two tyres add £68 at full price. That makes the bill {}."
    )
    question = "What will a full service and two touring tyres cost me as a club member?"
    assert not flagged(answer.format("£144.50"), source, question=question)
    assert flagged(answer.format("£137.70"), source, question=question)  # 10% off the tyres too: (£85 + £68) × 0.9


def test_a_figure_the_question_asks_for_and_the_answer_works_out_fills_no_gap() -> None:
    source = "Kettlebrook Roasters price list. House espresso beans: 250 g bag £6.50; 1 kg bag £22."
    question = "What do the small bags of house espresso work out at per kilo?"
    answer = "The 250 g bags work out at £26 per kilo, against £22 for the 1 kg bag."
    report = ragaudit.audit(answer, [{"id": "S1", "text": source}], question)
    assert [c.status for c in report.claims] == ["supported"] * len(report.claims)
    wrong = ragaudit.audit(answer.replace("£26", "£24"), [{"id": "S1", "text": source}], question)
    assert any(c.status != "supported" for c in wrong.claims)


def test_a_share_of_two_figures_the_clause_gives() -> None:
    source = "Hall bookings 2024: 240 in all, of which children's parties 66 and weekly classes 84."
    assert not flagged("Children's parties made up 66 of the 240 bookings, which is 27.5%.", source)
    assert flagged("Children's parties made up 66 of the 240 bookings, which is 29.5%.", source)


BOOKINGS = (
    "Mossgate Sports Centre — Year in review. The courts took 400 bookings: 140 badminton sessions, 110 squash "
    "matches, 90 table tennis sessions and 60 coaching hours. Membership income totalled £52,500, up from £42,000 "
    "the year before."
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Badminton sessions made up 35% of the bookings.", False),
        ("Squash matches were 27.5% of the bookings.", False),
        ("Membership income rose by 25% on the year before.", False),
        # The share of another figure, a share of the wrong whole, and the change reckoned on the wrong base.
        ("Squash matches made up 65% of the bookings.", True),  # 400 and its first item, 140, are no change
        ("Squash matches made up 35% of the bookings.", True),
        ("Badminton sessions made up 40% of the bookings.", True),
        ("Membership income rose by 20% on the year before.", True),
    ],
)
def test_a_share_or_change_of_the_figures_whose_words_the_claim_gives(answer: str, caught: bool) -> None:
    assert flagged(answer, BOOKINGS) is caught


CATTERY = "Fernhill Cattery — Fees. One cat: £15 per night. A second cat sharing the same pen: £9 per night."


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Sharing a pen, your two cats cost £24 a night.", False),
        ("Sharing a pen, your two cats cost £30 a night.", True),
    ],
)
def test_a_sum_of_two_figures_whose_words_the_claim_gives(answer: str, caught: bool) -> None:
    # A price the source gives for one thing is never the sum of two others' where the claim counts nothing.
    assert flagged("A peak return to Leeds costs £70.", "Peak return to Leeds £42. Off-peak return to Leeds £28.")
    assert flagged(answer, CATTERY, question="What do my two cats cost a night if they share a pen?") is caught


NARROWBOAT = "Narrowboat fuel is charged at £9 per engine hour on return; extra nights are £150 per additional night."


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        # A rate per a qualified period ("per engine hour") over the claim's own length of time.
        ("Running the engine for 20 hours adds £180 of fuel.", False),
        ("Running the engine for 20 hours adds £200 of fuel.", True),
        ("Two additional nights add £300.", False),
        ("Two additional nights add £350.", True),
    ],
)
def test_a_rate_per_qualified_period(answer: str, caught: bool) -> None:
    assert flagged(answer, NARROWBOAT) is caught


LETTINGS = "Hallam Court: en-suite rooms £168 per week on a 44-week contract. Studios £215 per week."


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        # The one period the clause names, before its figure: £168 a week is £728 a month.
        ("Monthly, an en-suite comes to about £728.", False),
        ("Monthly, an en-suite comes to about £800.", True),
        # A comparison of two figures the claim tells apart by its words.
        ("A studio is about 28% dearer than an en-suite.", False),
        ("A studio is about 38% dearer than an en-suite.", True),
    ],
)
def test_a_period_named_before_the_figure_and_a_share_of_a_comparison(answer: str, caught: bool) -> None:
    assert flagged(answer, LETTINGS) is caught


FERRY = (
    "Harbour ferry timetable. The summer service starts on Saturday 3 May and ends on Sunday 28 September.",
    "Ferry FAQ. The last crossing of the season runs on Sunday 5 October, weather permitting.",
)


FIRST = "The timetable ends the summer service on Sunday 28 September. "


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        (FIRST + "The FAQ has the last crossing a week later, on Sunday 5 October.", False),
        (FIRST + "The FAQ has the last crossing two weeks later, on Sunday 5 October.", True),
        # A date the length itself moves to is no anchor: 12 October is stated nowhere.
        (FIRST + "The FAQ has the last crossing a week later, on Sunday 12 October.", True),
        # "Later" counts from a date the answer gave before: here none.
        ("The FAQ has the last crossing a week later, on Sunday 5 October.", True),
    ],
)
def test_a_length_said_to_move_a_stated_date_to_another(answer: str, caught: bool) -> None:
    assert flagged(answer, *FERRY) is caught


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("The course fits 20 hours of tuition into two working weeks.", False),
        ("The course fits 20 hours of tuition into three working weeks.", True),
    ],
)
def test_weekdays_are_working_days(answer: str, caught: bool) -> None:
    assert flagged(answer, "Fast-track course: 20 hours of tuition over 10 weekdays, two hours a day.") is caught


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        # "After" counts from the date the source gives beside the words after it, not from any other.
        ("The coast trip on Thursday 19 September is a week after parents' evening.", False),
        ("The coast trip on Thursday 19 September is a week after the start of term.", True),
    ],
)
def test_a_length_after_a_named_event_counts_from_its_date(answer: str, caught: bool) -> None:
    source = (
        "School calendar. Autumn term starts on Monday 2 September. Parents' evening is on Thursday 12 September. "
        "The Year 6 trip to the coast is on Thursday 19 September."
    )
    assert flagged(answer, source) is caught


ROOM = (
    "Our main live room measures 9.5 m by 6 m, with a 4 m ceiling and wooden wall panels. It comfortably holds a "
    "full band or a string section of up to 12 players."
)


def test_the_answers_own_figure_restated_in_another_unit_is_no_added_detail() -> None:
    """'57 square metres, which is roughly 614 square feet': the second clause converts the first's figure."""
    assert not flagged("The floor area is 57 square metres (9.5 m by 6 m), which is roughly 614 square feet.", ROOM)
    assert flagged("The floor area is 57 square metres (9.5 m by 6 m), which is roughly 700 square feet.", ROOM)


def test_a_length_of_time_between_the_answers_clock_times_is_no_added_detail() -> None:
    """'By 11pm … half an hour later, at 11.30pm': two times two sources state, the span between them the answer's."""
    noise = (
        "Noise. Amplified music must stop by 11.00pm, and external doors must be kept closed while music is playing."
    )
    closing = "Closing. The hirer must ensure that all guests have left and the hall is locked by 11.30pm."
    answer = (
        "Amplified music has to stop by 11pm. {} later, at 11.30pm, all guests must have left and the hall be locked."
    )
    assert not flagged(answer.format("Half an hour"), noise, closing)
    assert flagged(answer.format("Two hours"), noise, closing)
