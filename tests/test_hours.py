"""Opening hours a claim states against a record's per-day hours (issue 9): days written as ranges,
exceptions, times in 12- and 24-hour form, and what is not opening hours at all."""

from __future__ import annotations

import json

import pytest

from ragaudit import Auditor
from ragaudit._hours import hours_clash
from ragaudit.align import build_index
from ragaudit.models import Source

CLINIC = {
    "name": "Riverside Dental Clinic",
    "hours": {
        "Monday": "0:0-0:0",
        "Tuesday": "8:30-17:0",
        "Wednesday": "8:30-17:0",
        "Thursday": "8:30-19:0",
        "Friday": "8:30-17:0",
        "Saturday": "9:0-13:0",
        "Sunday": "18:0-1:0",
    },
    "accepts_walk_ins": True,
}


def _clash(claim: str) -> str | None:
    index = build_index([Source(id="1", text=json.dumps(CLINIC, indent=2))])
    found = hours_clash(claim, index)
    return None if found is None else found[1]


@pytest.mark.parametrize(
    "claim",
    [
        "The clinic is open from 8:30 am to 5 pm, Tuesday to Wednesday.",
        "It opens at 8:30 and closes at 5 pm on Fridays.",  # no range of times: not read
        "On Saturdays it is open from 9 am to 1 pm.",
        "It is open from 8:30 am to 5 pm on weekdays, with longer hours on Thursdays.",  # Monday: 0:0-0:0
        "On Sundays it is open from 6 pm to 1 am.",  # past midnight
        "Its hours run from 8:30 to 17:00 Tuesday through Friday, except Thursday.",
        "The clinic runs a late session from 5 pm to 7 pm on Thursdays.",  # no opening hours named
        "Daily check-ups take from 9 am to 10 am.",
        "It is closed on Mondays and open from 9 am to 1 pm on Saturdays.",  # closing: left to the rest
        # Each clause gives its own days their own hours.
        "It is open from 8:30 am to 5 pm Tuesday to Wednesday, and from 9 am to 1 pm on Saturdays.",
    ],
)
def test_hours_the_record_gives_or_does_not_speak_of_raise_no_clash(claim: str) -> None:
    assert _clash(claim) is None


@pytest.mark.parametrize(
    ("claim", "day"),
    [
        ("The clinic is open from 8:30 am to 7 pm, Tuesday to Friday.", "Tuesday"),
        ("It is open from 9 am to 5 pm on Saturdays.", "Saturday"),
        ("Its opening hours are 8:30-17:00 every day of the week.", "Thursday"),
        ("On weekends it is open from 9 am to 1 pm.", "Sunday"),
        ("It is open from 8:30 am to 5 pm Tuesday to Friday, and from 9 am to 1 pm on Saturdays.", "Thursday"),
    ],
)
def test_hours_the_record_gives_otherwise_clash_on_the_first_day_that_differs(claim: str, day: str) -> None:
    found = _clash(claim)
    assert found is not None and found.startswith(day)


def test_the_auditor_reports_hours_the_record_contradicts() -> None:
    source = json.dumps(CLINIC, indent=2)
    report = Auditor().audit("Riverside Dental Clinic is open from 9 am to 5 pm on Saturdays.", [source])
    assert [(c.status, c.decided_by) for c in report.claims] == [("contradicted", "rule:hours")]
    assert report.claims[0].evidence[0].quote == '"Saturday": "9:0-13:0"'
    fine = Auditor().audit("Riverside Dental Clinic is open from 9 am to 1 pm on Saturdays.", [source])
    assert [c.decided_by for c in fine.claims] != ["rule:hours"]
