"""Date arithmetic: whether a claimed date is a stated one, or follows from one by a stated length of time."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from ragaudit._mentions import words_around
from ragaudit._text import RECORD_FIELD_RE, SENTENCE_BREAK_RE
from ragaudit.slots import MAX_CHARS, Date, Quantity, extract

MAX_DATES = 64
"""Dates of one text compared at most (a hostile text may write thousands)."""
_DAY = 86_400.0
_MONTH = 2_629_800.0
"""A month in seconds as the slot reader counts it (a twelfth of 365.25 days)."""
_SOME_COMMON_YEAR = 2025
"""Day counts between two dates written without a year are reckoned in a common (non-leap) year."""


def date_derived(d: Date, known: Sequence[Date], lengths: Sequence[Quantity]) -> bool:
    """Whether ``d`` is a known date plus or minus a stated length: whole days or weeks ("eight weeks
    after 5 March" is 30 April), or whole months or years, which keep the day of the month ("one month
    after 10 September" is 10 October). A span of days counted from its first day ends a day earlier
    ("a seven-day course from 3 March" has its last dose on 9 March).
    """
    spans = [q.value for q in lengths if q.dimension == "time" and q.value >= _DAY]
    days = {n for n in (round(v / _DAY) for v in spans) if n * _DAY in spans and n <= 3_660}
    months = {round(v / _MONTH) for v in spans if abs(round(v / _MONTH) * _MONTH - v) < 1 and v <= 120 * _MONTH}
    # Only a span counted in days has a last day inside it ("for 7 days", "a seven-day course").
    counted = {
        n for q in lengths if q.dimension == "time" and "day" in q.text.lower() for n in days if n * _DAY == q.value
    }
    # Working days step over weekends ("10 working days after Monday 2 March" is Monday 16 March).
    working = {round(q.raw) for q in lengths if q.dimension == "working_time" and q.raw.is_integer() and q.raw <= 366}
    if d.day is None or not (days or months or working):
        return False
    for k in known[:MAX_DATES]:
        if k.day is None or k is d:
            continue
        try:
            start = dt.date(k.year or d.year or _SOME_COMMON_YEAR, k.month, k.day)
        except ValueError:  # "31 February" as written
            continue
        for n in days:
            last = (start + dt.timedelta(days=n - 1),) if n in counted else ()
            for moved in (start + dt.timedelta(days=n), start - dt.timedelta(days=n), *last):
                if (moved.month, moved.day) == (d.month, d.day) and d.year in (None, moved.year):
                    return True
        for n in working:
            if any((m.month, m.day) == (d.month, d.day) and d.year in (None, m.year) for m in _working_days(start, n)):
                return True
        for n in months:
            for shift in (n, -n):
                total = start.year * 12 + start.month - 1 + shift
                if (total % 12 + 1, k.day) == (d.month, d.day) and d.year in (None, total // 12):
                    return True
    return False


def _working_days(start: dt.date, n: int) -> tuple[dt.date, dt.date]:
    """The dates ``n`` working days (Monday to Friday) after and before ``start``."""
    out = []
    for step in (1, -1):
        day, left = start, n
        while left:
            day += dt.timedelta(days=step)
            left -= day.weekday() < 5
        out.append(day)
    return out[0], out[1]


DATE_REACH = 60
"""Characters between a passage's length of time and its date for the two to make a derived date."""
_CLAUSE_ENDS = frozenset(";.!?\n")


def beside_dates(text: str, quantities: Sequence[Quantity], dates: Sequence[Date]) -> list[Quantity]:
    """The lengths of time in ``text`` (read into ``quantities`` and ``dates``) that sit beside one of its dates,
    in the same clause: "one month after 10 September" gives 10 October, but "before 15 February; otherwise
    one month's notice applies" gives no 15 March."""

    def beside(q: Quantity, d: Date) -> bool:
        lo, hi = min(q.start, d.start), max(q.start, d.start)
        return hi - lo <= DATE_REACH and not any(c in _CLAUSE_ENDS for c in text[lo:hi])

    return [q for q in quantities if q.dimension == "time" and any(beside(q, d) for d in dates[:MAX_DATES])]


def in_date(q: Quantity, dates: Sequence[Date]) -> bool:
    """Whether ``q`` is the day or year of one of ``dates``."""
    return any(d.start <= q.start < d.end for d in dates)


def same_date(a: Date, b: Date) -> bool:
    """Whether two dates can be the same day (a part one leaves out matches any)."""
    return (
        a.month == b.month
        and (a.day == b.day or a.day is None or b.day is None)
        and (a.year is None or b.year is None or a.year == b.year)
    )


def unstated_dates(claimed: Sequence[Date], stated: Sequence[Date], lengths: Sequence[Quantity]) -> list[Date]:
    """The claim's full dates that no date of ``stated`` is, nor follows from by a stated length of time."""
    return [
        d
        for d in claimed[:MAX_DATES]
        if d.day is not None and not any(same_date(d, s) for s in stated) and not date_derived(d, stated, lengths)
    ]


MAX_CONTEXT_DATES = 8
"""Dates of a claim, and source statements of each, read in their context at most."""
MAX_SOURCE_DATES = 512
"""Dates of a request's sources compared with a claim's at most."""


def stated_in_context(claim_text: str, claimed: Sequence[Date], sources: Sequence[str]) -> list[Date]:
    """The claim's dates a source states beside a word the claim has beside it too ("joining after 1 April"
    and "members joining after 1 April"): stated, whichever window the claim is compared with."""
    stated = [(text, s) for text in sources for s in extract(text).dates[:MAX_DATES] if s.day is not None]
    found: list[Date] = []
    for d in claimed[:MAX_CONTEXT_DATES]:
        around = words_around(claim_text, claim_text[d.start : d.end], 3)
        # Only the same day is read in its context: bounded by the sources' dates, not their product with the claim's.
        same = [(text, s) for text, s in stated[:MAX_SOURCE_DATES] if same_date(d, s)][:MAX_CONTEXT_DATES]
        if d.day is not None and around and any(around & words_around(t, t[s.start : s.end], 3) for t, s in same):
            found.append(d)
    return found


MAX_SPAN_DATES = 16
"""Dates whose pairwise spans a length of time is compared with (120 pairs at most)."""


MAX_SPAN_GROUPS = 256
"""Groups of dates (the claim's, each source sentence's) a length of days is compared with, at most."""


def date_span(q: Quantity, own: Sequence[Date], sources: Sequence[str]) -> bool:
    """Whether ``q``, a whole number of days or weeks, is the span between two dates of the claim's ``own`` (with the
    question's) or of one sentence of ``sources`` (or one record), counted with or without its first day ("from 2 March to 8 March,
    seven days"; "reported on 5 February, two days after the sample of 3 February"). Dates without a year may run
    over a year's end ("28 December to 3 January")."""
    n = round(q.value / _DAY) if q.dimension == "time" else 0
    if not 1 <= n <= 366 or abs(n * _DAY - q.value) > 1:
        return False
    # A record's dates are all of one thing ("sample_date", "reported_date"), however its values break sentences.
    texts = [t[:MAX_CHARS] for t in sources]
    parts = ([t] if RECORD_FIELD_RE.search(t) else SENTENCE_BREAK_RE.split(t)[:64] for t in texts)
    sentences = (extract(s).dates for part in parts for s in part)
    groups = [own, *(g for g in sentences if len(g) >= 2)]
    for group in groups[:MAX_SPAN_GROUPS]:
        days: list[tuple[dt.date, bool]] = []
        for d in group[:MAX_SPAN_DATES]:
            try:
                days.append((dt.date(d.year or _SOME_COMMON_YEAR, d.month, d.day), d.year is None)) if d.day else None
            except ValueError:  # "31 February" as written
                continue
        for i, (a, a_open) in enumerate(days):
            for b, b_open in days[i + 1 :]:
                gap = abs((b - a).days)
                gaps = {gap, 365 - gap} if a_open and b_open else {gap}
                if gap and gaps & {n, n - 1}:
                    return True
    return False


_SHIFT_RE = re.compile(r"\s*+(later|earlier|sooner|after|before)\b", re.IGNORECASE)
_REFERENCE_RE = re.compile(r"[^\W\d_][\w'’-]*+")


def shift_told(q: Quantity, text: str, dates: Sequence[Date], sources: Sequence[str], earlier_days: set[float]) -> bool:
    """Whether length ``q``, said to move something later or earlier, is the gap between a date of the claim that a
    source states and the date it is counted from: one a source gives beside the words after "after"/"before" ("a
    week after *the start of term*"), or, after "later"/"earlier", one the answer gave before it (``earlier_days``:
    the figures of its earlier claims; "the FAQ puts it a week later, on Sunday 19 April")."""
    shift = _SHIFT_RE.match(text, q.end) if q.dimension == "time" else None
    if shift is None:
        return False
    told = [(s, extract(s)) for t in sources for s in SENTENCE_BREAK_RE.split(t[:MAX_CHARS])[:64]][:MAX_SPAN_GROUPS]
    stated = [d for _, slots in told for d in slots.dates]
    if shift[1].lower() in ("after", "before"):
        words = _REFERENCE_RE.findall(text[shift.end() : shift.end() + 60])[:6]
        reference = extract(" ".join(words)).stems
        known = [d for _, slots in told if reference & slots.stems for d in slots.dates]
    else:
        known = [d for d in stated if d.day in earlier_days]
    # The claim's date must be a stated one itself: a date the length moves it to is no anchor of its own.
    anchored = [d for d in dates[:MAX_DATES] if any(same_date(d, k) for k in stated[:MAX_DATES])]
    return any(date_derived(d, [k for k in known if not same_date(k, d)], [q]) for d in anchored)
