"""Bounds and rates (:mod:`ragaudit._rivals`): a figure the claim gives for a bound or a rate the source fills
with another figure is a wrong number, whatever arithmetic on the source's other figures might give."""

from __future__ import annotations

import pytest
from tests.audit_helpers import flagged

from ragaudit._rivals import slot_rivals
from ragaudit.slots import extract

POOL_RULES = (
    "Lane hire: £6 per 30 minutes for members, £9 per 30 minutes for guests. Each lane takes a maximum of 6 "
    "swimmers at a time, and children under 8 must be accompanied by at least one adult. Sessions run for 2 hours."
)


def rivals(claim: str, window: str) -> list[tuple[str, str]]:
    """The (claim figure, window figure) pairs :func:`slot_rivals` finds."""
    mine, theirs = extract(claim), extract(window)
    return [(q.text, p.text) for q, p in slot_rivals(claim, window, mine.quantities, theirs.quantities)]


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Each lane is capped at 8 swimmers.", []),  # the source states 8 (of children): no slip read
        ("Each lane is capped at 9 swimmers.", [("9", "6")]),  # 9 = 6 + 3 by arithmetic: a bound all the same
        ("Guests pay £12 for every 30 minutes in a lane.", [("£12", "£9")]),  # 12 = 6 × 2
        ("Each lane takes no more than six swimmers.", []),
        ("Guests pay £9 for each 30 minutes.", []),
        ("A two-hour guest session therefore comes to £36 per lane.", []),  # working shown: not a stated rate
    ],
)
def test_a_bound_or_rate_is_read_against_the_one_the_source_gives(claim: str, expected: list[tuple[str, str]]) -> None:
    assert rivals(claim, POOL_RULES) == expected


def test_a_bound_in_another_unit_is_rounded_not_misstated() -> None:
    window = "Keep the stove at least 1.5 m from curtains and at least 30 cm from the wall."
    assert rivals("Keep it at least five feet from curtains.", window) == []
    assert rivals("Keep it at least ten feet from curtains.", window) == [("ten feet", "1.5 m")]


def test_a_rate_a_stated_percentage_turns_into_the_claims_is_worked_out() -> None:
    window = "Studio hire is £40 per hour."
    ten_off = extract("Members get 10% off.").quantities
    claim = "Members pay £36 an hour."
    assert list(slot_rivals(claim, window, extract(claim).quantities, extract(window).quantities, ten_off)) == []
    assert rivals(claim, window) == [("£36 an hour", "£40 per hour")]


def test_the_audit_flags_a_misstated_rate_and_passes_a_split_one() -> None:
    assert flagged("Guests pay £18 for every 30 minutes of lane hire.", POOL_RULES)
    assert not flagged("Guests pay £9 for every 30 minutes of lane hire.", POOL_RULES)
    source = "The cottage costs £120 per night and sleeps four."
    assert not flagged("Split between the four of you, that's £30 per night each.", source)


CLOSURE = (
    "The workshop closes from 22 December to 2 January inclusive and reopens on Monday 5 January. "
    "Orders placed after 15 December are made in the new year."
)


def test_a_date_given_for_an_event_the_source_dates_otherwise_is_flagged() -> None:
    assert flagged("The workshop reopens on Friday 2 January.", CLOSURE)  # 2 January ends the closure
    assert not flagged("The workshop reopens on Monday 5 January.", CLOSURE)
    # A range's end shares its start's words; a date counted from a stated length is worked out.
    assert not flagged("It is shut from 22 December to 2 January.", CLOSURE)


def test_rates_over_other_lengths_sums_of_rates_and_listed_dates_are_read_as_a_reader_would() -> None:
    halves = "Members pay £18 per half hour; non-members pay £40 per hour."
    assert rivals("Members pay £36 an hour.", halves) == []  # the same rate over an hour
    skis = "Ski hire is £30 per day for adults and £18 per day for children."
    assert rivals("An adult and a child hiring skis pay £48 per day.", skis) == []  # two rates bought together
    bins = "Garden waste is collected on 3 March, 17 March and 31 March."
    assert not flagged("There is a garden waste collection on 17 March.", bins)  # a list's dates share its words
    assert flagged("Garden waste goes out on 10 March.", bins)
