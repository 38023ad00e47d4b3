"""Opening hours a claim states against a record's hours (``"Monday": "17:0-21:0"`` fields).

"Open Monday through Sunday from 9 am to 8 pm" where the record gives Thursday as 9:0-20:0 and
every other day as 9:0-18:0: the days and times are slots like any figure, but they sit in a week
the claim writes as a range ("Tuesday to Thursday", "daily", "weekends") and the record as one
field per day, so no single field states or denies the claim. Read only where the claim speaks of
opening (open / operates / hours), each clause at one range of times; a clause with several
ranges, a claim about closing, and a day the record gives as "0:0-0:0" are left to the other checks.
"""

from __future__ import annotations

import re

from ragaudit.align import SourceIndex, Unit

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_RANGE_RE = re.compile(rf"\b{_DAY}\s*(?:through|thru|to|until|till|-|–)\s*{_DAY}\b", re.IGNORECASE)
_NAMED_RE = re.compile(rf"\b{_DAY}\b", re.IGNORECASE)
_WEEK_RE = re.compile(
    r"\b(?:daily|every\s+day|(?:seven|7)\s+days\s+a\s+week|all\s+week)\b|(weekdays?)|(weekends?)", re.IGNORECASE
)
_CLOCK = r"(\d{1,2})(?::(\d{1,2}))?(?:\s?([ap])\.?\s?m\b\.?)?"
"""A time: hour, minutes, half of the day (one space at most before "am": no run of blanks is read twice)."""
_SPAN_RE = re.compile(rf"{_CLOCK}\s*(?:-|–|to|until|till)\s*{_CLOCK}", re.IGNORECASE)
_OPENING_RE = re.compile(r"\b(?:open|opens|opening|operates?|operating|hours)\b", re.IGNORECASE)
_CLAUSE_RE = re.compile(r";\s*|,\s*(?:and|but|while)\s+")
_CLOSED_RE = re.compile(r"\bclosed?\b", re.IGNORECASE)
_FIELD_RE = re.compile(rf'"{_DAY}"\s*:\s*"(\d{{1,2}}):(\d{{1,2}})\s*-\s*(\d{{1,2}}):(\d{{1,2}})"', re.IGNORECASE)

Hours = dict[str, tuple[int, int, Unit]]
"""Day → (opening minute, closing minute, the field stating them)."""


def _record_hours(index: SourceIndex) -> Hours:
    """The first record's hours, one field per day, read once per index."""
    found: Hours | None = index.__dict__.get("_record_hours")
    if found is None:
        found = {}
        for unit in index.units:
            m = _FIELD_RE.fullmatch(unit.text.strip().rstrip(",")) if unit.leaf else None
            if m and (not found or unit.source_id == next(iter(found.values()))[2].source_id):
                found.setdefault(m[1].lower(), (int(m[2]) * 60 + int(m[3]), int(m[4]) * 60 + int(m[5]), unit))
        index.__dict__["_record_hours"] = found
    return found


def _minute(hour: str, minute: str | None, half: str | None) -> int | None:
    """Minutes after midnight of a written time (``9 am``, ``14:00``, ``5:30 pm``); None for a bare number."""
    h, m = int(hour), int(minute or 0)
    if (half is None and minute is None) or h > 24 or m > 59:
        return None  # "from 9 to 5" may be anything
    if half and h <= 12:
        h = h % 12 + (12 if half.lower() == "p" else 0)
    return h * 60 + m


def _days(text: str) -> list[str]:
    """The days of the week the claim says its hours are for: a range ("Tuesday to Friday", "daily",
    "weekends") less the days it names on their own (its exceptions: "with longer hours on Fridays"),
    or else the days it names."""
    days: list[str] = []
    for m in _RANGE_RE.finditer(text):
        a, b = DAYS.index(m[1].lower()), DAYS.index(m[2].lower())
        days += [DAYS[(a + k) % 7] for k in range((b - a) % 7 + 1)]
    rest = _RANGE_RE.sub(" ", text)
    for m in _WEEK_RE.finditer(rest):
        days += list(DAYS[:5] if m[1] else DAYS[5:] if m[2] else DAYS)
    named = [m[1].lower() for m in _NAMED_RE.finditer(_WEEK_RE.sub(" ", rest))]
    return [d for d in dict.fromkeys(days) if d not in named] if days else list(dict.fromkeys(named))


def _shown(minute: int) -> str:
    return f"{minute // 60}:{minute % 60:02d}"


def hours_clash(claim_text: str, index: SourceIndex) -> tuple[Unit, str] | None:
    """The first day the claim gives opening times for that the record's hours contradict, with what
    to say of it; None when the claim states no opening times (or the record no hours)."""
    hours = _record_hours(index)
    if not hours or _CLOSED_RE.search(claim_text) or not _OPENING_RE.search(claim_text):
        return None  # "daily specials", "happy hour runs from 4 to 6", "closed on Mondays": not opening hours
    # "9 am to 6 pm Monday through Friday, and 10 am to 4 pm on Saturdays": each clause its own hours.
    return next(filter(None, (_clause_clash(part, hours) for part in _CLAUSE_RE.split(claim_text))), None)


def _clause_clash(clause: str, hours: Hours) -> tuple[Unit, str] | None:
    """:func:`hours_clash` for one clause that gives one range of times."""
    spans = list(_SPAN_RE.finditer(clause))
    if len(spans) != 1:
        return None
    m = spans[0]
    if _NAMED_RE.search(clause, 0, m.start()) and _NAMED_RE.search(clause, m.end()):
        return None  # days on both sides of the times: which hours go with which days is not said
    opens, closes = _minute(m[1], m[2], m[3]), _minute(m[4], m[5], m[6])
    if opens is None or closes is None:
        return None
    told = (opens, closes % 1440)
    for day in _days(clause):
        if day not in hours or hours[day][:2] == (0, 0):
            continue  # no field for that day, or "0:0-0:0" (closed, or open all day: not said)
        start, end, unit = hours[day]
        if told != (start, end % 1440):
            shown = f"{_shown(told[0])}-{_shown(told[1])}"
            return unit, f"{day.title()} {shown} where the record gives {_shown(start)}-{_shown(end)}"
    return None
