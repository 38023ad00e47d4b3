"""A figure the claim gives for a slot the window fills with another figure: the same bound ("capped at 12
people" where "each course takes a maximum of 10 participants") or the same rate ("a late fee of £10 for every
15 minutes" where "£5 per 15 minutes"). Arithmetic on the window's other figures may well give the claim's
number (10 = 5 × 2); a clause that states a bound or a rate, working nothing out, states it, and states it wrong.
"""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from ragaudit._calendar import in_date, same_date
from ragaudit._figures import close, readings
from ragaudit._slot_data import (
    AGGREGATION,
    LEXICON,
    MONTHS,
    UNITS,
    WEEKDAYS,
    WORKING_OUT,
    Date,
    Quantity,
    Slots,
    words_re,
)
from ragaudit._text import STOPWORDS, stem
from ragaudit.slots import MAX_CHARS, extract

MAX_FIGURES = 16
"""Figures of a claim, and of a window, paired at most (bounded work: 16 × 16 pairs)."""
_BEFORE = 32
"""Characters before a figure read for the bound that opens it ("a maximum of 10")."""
_AROUND = 48
"""Characters either side of a figure read for the words saying what it bounds."""
_STATED = 256
"""Figures of the request read for the claim's own figure at most (a hostile request may hold thousands)."""
_ROUNDING = 0.03
"""How far a bound's number may be rounded in another unit."""
_CONTEXT = 3
"""Content words either side of a figure that say what it bounds."""

_UPPER_RE = words_re(LEXICON["cues"]["upper_bound_phrases"])
_LOWER_RE = words_re(LEXICON["cues"]["lower_bound_phrases"])
_BOUND_WORDS = frozenset(
    stem(w)
    for p in (*LEXICON["cues"]["upper_bound_phrases"], *LEXICON["cues"]["lower_bound_phrases"])
    for w in p.split()
)
_GAP_RE = re.compile(r"[\s£$€]*+(?:(?:of|a|an|about|around)[\s£$€]++)?[\s£$€]*+")
"""What may stand between a bound and its figure ("a maximum of 10", "up to £50")."""
_PER_RE = re.compile(r"\s*+(?:per|an?|each|every|for\s++every|for\s++each)\s++", re.IGNORECASE)
_WORD_RE = re.compile(r"[^\W\d_]++")
_PER_INSIDE_RE = re.compile(
    r"(?<!\bof)(?<!\bhalf)(?<!\bquarter)\s(?:per|an?|each|every)\s++([^\W\d_]++)$", re.IGNORECASE
)
"""A rate read as one figure ("£40 per hour")."""
_PER_WORDS = frozenset({"per", "everi", "each"})
_RANGE_RE = re.compile(r"\s*+(?:to|and|until|till|through|-|–|—)\s*+", re.IGNORECASE)
_SOURCES = 32
"""Sources read for a claim's date in words as close as the rival's, at most."""
_DATE_CONTEXT = 5
"""Content words before a date that say what happens on it ("the salon … *reopens on*")."""
_CLAUSE_RE = re.compile(r"[,;:()\n.]")
_EACH_RE = re.compile(r"\b(?:each|apiece)\b", re.IGNORECASE)
_TALLY_WORDS = (
    WORKING_OUT
    | (AGGREGATION - {"each", "both"})
    | {"among", "between", "share", "shared", "split", "sum", "works"}
    | {"cheaper", "discount", "discounted", "drops", "falls", "instead", "reduced", "reduces", "rises"}
)
"""Words of a clause that works a figure out ("split between the four of you, £12 a night each"): its figures
may differ from any the window bounds or rates."""


def _bound(text: str, q: Quantity) -> str | None:
    """``"upper"`` or ``"lower"`` when a bound opens the figure ("capped at 12", "at least 22 hours")."""
    before = text[max(0, q.start - _BEFORE) : q.start]
    for direction, pattern in (("upper", _UPPER_RE), ("lower", _LOWER_RE)):
        ends = [m.end() for m in pattern.finditer(before)]
        if ends and _GAP_RE.fullmatch(before, ends[-1]):
            return direction
    return None


def _per(text: str, q: Quantity, figures: Sequence[Quantity]) -> tuple[tuple[str | None, object] | None, int]:
    """What the figure is a rate per (the figure after "per" in "£5 per 15 minutes", the unit of "22 hours a day" or
    of "£40 per hour", read as one figure), and where the rate ends."""
    inside = _PER_INSIDE_RE.search(q.text)
    if inside is not None:
        return _unit_key(inside.group(1)), q.end
    m = _PER_RE.match(text, q.end)
    if m is None:
        return None, q.end
    after = next((p for p in figures if p.start <= m.end() < p.end or p.start == m.end()), None)
    if after is not None and after is not q:
        return (after.dimension, after.value), after.end
    part = _PART_HOUR_RE.match(text, m.end())
    if part is not None:  # "per half hour", "per quarter-hour"
        return ("time", 1800.0 if part.group(1).lower() == "half" else 900.0), part.end()
    word = _WORD_RE.match(text, m.end())
    return (_unit_key(word.group()), word.end()) if word else (None, q.end)


_PART_HOUR_RE = re.compile(r"(half|quarter)[\s-]++(?:an?\s++)?hour\b", re.IGNORECASE)


def _unit_key(word: str) -> tuple[str | None, object]:
    """A rate's unit as "an hour" reads it (dimension and size), else its stem ("per *person*")."""
    unit = UNITS.get(word.lower())
    return unit if unit is not None else ("word", stem(word.lower()))


def _around(text: str, q: Quantity, end: int) -> set[str]:
    """Content stems of the few words either side of a figure (after its rate, up to ``end``), within its clause."""
    before = _CLAUSE_RE.split(text[max(0, q.start - _AROUND) : q.start])[-1]
    after = _CLAUSE_RE.split(text[end : end + _AROUND])[0]
    keep = [[s for w in _WORD_RE.findall(part) if _content(s := stem(w.lower()), w)] for part in (before, after)]
    return {*keep[0][-_CONTEXT:], *keep[1][:_CONTEXT]}


def _content(key: str, word: str) -> bool:
    return word.lower() not in STOPWORDS and key not in _BOUND_WORDS and key not in _PER_WORDS


def _closest(near: set[str], candidates: list[tuple[Quantity, set[str]]]) -> list[Quantity]:
    """The one candidate sharing the most words with ``near`` (none on a tie or with none shared)."""
    scored = sorted(((len(near & words), p) for p, words in candidates), key=lambda t: -t[0])
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return []
    return [scored[0][1]]


def _same(a: Quantity, b: Quantity, approx: bool) -> bool:
    """Whether ``a`` states ``b``: a bound's number within a converted unit's rounding ("at least five feet" for
    "at least 1.5 m"), not within the tenth a hedged figure may stray."""
    return a.dimension == b.dimension and any(
        close(x, y, approx) or math.isclose(x, y, rel_tol=_ROUNDING) for x in readings(a) for y in readings(b)
    )


def slot_rivals(
    claim_text: str,
    window_text: str,
    figures: Sequence[Quantity],
    window: Sequence[Quantity],
    percents: Sequence[Quantity] = (),
    stated: Sequence[Sequence[Quantity]] = (),
) -> Iterator[tuple[Quantity, Quantity]]:
    """Pairs of a claim figure and the window figure for the same bound or rate that differs from it. A figure
    the window or ``stated`` (the request's figures) give anyway has no rival, nor has one that a percentage of
    the request turns the rival into, nor one in a clause that works a figure out."""
    if not figures or not window or _TALLY_WORDS & {w.lower() for w in _WORD_RE.findall(claim_text)}:
        return
    if any(q.dimension == "percent" for q in figures):
        return
    theirs = [p for p in window[:MAX_FIGURES] if not p.label and not p.frequency_word]
    bounds = {id(p): _bound(window_text, p) for p in theirs}
    rates = {id(p): _per(window_text, p, window) for p in theirs}
    if not any(bounds.values()) and not any(rate for rate, _ in rates.values()):
        return
    for q in figures[:MAX_FIGURES]:
        bound, (rate, rate_end) = _bound(claim_text, q), _per(claim_text, q, figures)
        # A bound reads as approximate ("at least 20 hours"); the number it bounds is exact all the same.
        approx = q.approx and bound is None
        if q.label or approx or q.frequency_word or _EACH_RE.search(claim_text, q.end):
            continue  # "£30 per night each": a share of the rate, worked out
        kind = [p for p in theirs if p.dimension == q.dimension]
        rivals = [p for p in kind if rate is not None and rates[id(p)][0] == rate]
        if not rivals and bound is not None:
            rivals = [p for p in kind if bounds[id(p)] == bound]

        # The window's own figure equal to the claim's states it, unless it fills another bound or rate.
        def free(p: Quantity) -> bool:
            return bounds[id(p)] is None and rates[id(p)][0] is None

        equal = [
            p
            for p in kind
            if _same(q, p, approx)
            and (bound is None or bounds[id(p)] in (None, bound))
            and (rate is None or rates[id(p)][0] in (None, rate))
        ]
        # "£36 an hour" for "£18 per half hour": the same rate over another length of time.
        if _per_time(q, rate, [(p, rates[id(p)][0]) for p in kind]):
            continue
        near = _around(claim_text, q, rate_end)
        ctx = {id(p): _around(window_text, p, rates[id(p)][1]) for p in kind}
        rivals = [p for p in rivals if not any(p is e for e in equal)]
        if equal:
            same_slot_equal = [p for p in equal if not free(p)]
            if not rivals or len(same_slot_equal) < len(equal):
                continue  # a figure filling no slot states it ("children under 8" for "capped at 8")
            # Two figures fill the slot ("up to 4 adults and up to 2 children"): the one for the claim's thing.
            won = _closest(near, [(p, ctx[id(p)]) for p in [*rivals, *same_slot_equal]])
            if not won or any(won[0] is p for p in same_slot_equal):
                continue
            rivals = won
        # The one for the same thing ("£9 per 30 minutes for guests"); a bound names what it bounds.
        elif len(rivals) > 1 or (rivals and rate is None):
            won = _closest(near, [(p, ctx[id(p)]) for p in rivals])
            # "An adult and a child pay £48 per day" (£30 + £18 per day): two rates of one period bought together.
            if (
                won
                and rate is not None
                and any(close(q.value, a.value + b.value, False) for i, a in enumerate(rivals) for b in rivals[i + 1 :])
            ):
                won = []
            rivals = won
        elif rivals:
            # A lone rate for another thing ("Drinks packages are £15 per person" beside "karaoke … £48 per
            # hour"): another figure of the window closer to the claim's words says what the claim is about.
            mine = len(near & ctx[id(rivals[0])])
            if any(len(near & ctx[id(p)]) > mine for p in kind if p is not rivals[0]):
                rivals = []
        # "£21.60 an hour" with a member's 10% off "£24 per hour": worked out, not misstated.
        rivals = [p for p in rivals if not any(_discounted(q, p, r) for r in percents)]
        # Stated more often in the request than in this window: perhaps for this same thing, elsewhere.
        here = sum(_same(q, p, approx) for p in theirs)
        if len(rivals) == 1 and sum(_same(q, p, approx) for told in stated for p in told[:_STATED]) <= here:
            yield q, rivals[0]


def _discounted(q: Quantity, p: Quantity, rate: Quantity) -> bool:
    share = rate.value / 100
    return any(close(q.value, p.value * f, False) for f in (1 - share, 1 + share, share))


def date_rival(
    claim_text: str, claim: Slots, window_text: str, window: Slots, sources: Sequence[str] = ()
) -> tuple[Date, Date] | None:
    """A date the claim gives for an event the window dates otherwise: the window date whose words before it say
    most of what the claim date's do ("reopens on Friday 2 January" where "… to 2 January inclusive, and reopens
    on Saturday 3 January"), where no source gives the claim's date in words as close. A claim that counts a
    length of time may work its date out ("two weeks later")."""
    if (
        not claim.dates
        or not window.dates
        or any(q.dimension == "time" and not q.frequency_word for q in claim.quantities)
    ):
        return None
    theirs = _dated(window_text[:MAX_CHARS], tuple(window.dates[:MAX_FIGURES]))
    ordered = sorted(claim.dates[:MAX_FIGURES], key=lambda d: d.start)
    for k, d in enumerate(ordered):
        if k and _RANGE_RE.fullmatch(claim_text, ordered[k - 1].end, d.start):
            continue  # a range's end ("from 1 to 25 October") shares its start's words
        anchor, mine = _lead(claim_text, d.start, ordered[k - 1].end if k else 0)
        scored = sorted(
            ((len(mine & words), a == anchor, w) for w, a, words in theirs), key=lambda t: t[:2], reverse=True
        )
        score, anchored, best = scored[0]
        tied = [w for s, a, w in scored if (s, a) == (score, anchored)]
        if any(same_date(d, w) for w in tied) or not (score >= 3 or (score == 2 and anchored)):
            continue
        told = [*theirs, *(t for text in sources[:_SOURCES] for t in _dated(text[:MAX_CHARS]))]
        if not any(same_date(d, w) and (len(mine & words), a == anchor) >= (score, anchored) for w, a, words in told):
            return d, best
    return None


@lru_cache(maxsize=256)  # a request's windows and sources, read for each of its claims
def _dated(text: str, dates: tuple[Date, ...] | None = None) -> tuple[tuple[Date, str, frozenset[str]], ...]:
    """Each date of ``text`` (the first :data:`MAX_FIGURES` × 4) with the words before it (see :func:`_lead`)."""
    found = tuple(sorted(dates if dates is not None else extract(text).dates[: 4 * MAX_FIGURES], key=lambda d: d.start))
    out: list[tuple[Date, str, frozenset[str]]] = []
    for k, w in enumerate(found):
        if k and out and _LIST_RE.fullmatch(text, found[k - 1].end, w.start):
            out.append((w, out[-1][1], out[-1][2]))  # "on 3 March, 17 March and 31 March": the list's words
        else:
            out.append((w, *_lead(text, w.start)))
    return tuple(out)


_LIST_RE = re.compile(r"\s*+(?:,|;|and|or|&|,\s*+and|,\s*+or)\s*+", re.IGNORECASE)


def _lead(text: str, start: int, floor: int = 0) -> tuple[str, frozenset[str]]:
    """The content word right before a date and the few before it, within its clause (no weekday, no month)."""
    before = _CLAUSE_RE.split(text[max(floor, start - 2 * _AROUND) : start])[-1]
    words = [
        key
        for w in _WORD_RE.findall(before)
        if len(w) > 1 and _content(key := stem(w.lower()), w) and w.lower() not in MONTHS and w.lower() not in WEEKDAYS
    ][-_DATE_CONTEXT:]
    return (words[-1] if words else ""), frozenset(words)


def first_rival(
    claim_text: str,
    claim: Slots,
    windows: Sequence[tuple[str, Slots]],
    percents: Sequence[Quantity] = (),
    stated: Sequence[Sequence[Quantity]] = (),
    sources: Sequence[str] = (),
) -> tuple[int, str, str] | None:
    """The first of ``windows`` (text, slots) to fill a bound, a rate or a dated event of the claim otherwise: its
    index, the mismatch's kind (``number`` or ``date``) and what it says (see :func:`slot_rivals`, :func:`date_rival`)."""
    figures = [q for q in claim.quantities if not in_date(q, claim.dates)]
    for i, (text, slots) in enumerate(windows):
        for q, p in slot_rivals(claim_text, text, figures, slots.quantities, percents, stated):
            return i, "number", f"{q.text} where the source has {p.text}"
        dated = date_rival(claim_text, claim, text, slots, sources)
        if dated is not None:
            return i, "date", told_date(*dated)
    return None


def told_date(mine: Date, theirs: Date) -> str:
    """What a date rival says ("2 January where the source has 3 January")."""
    return " where the source has ".join(
        " ".join(str(x) for x in (d.day, calendar.month_name[d.month], d.year) if x) for d in (mine, theirs)
    )


def _per_time(q: Quantity, rate: object, theirs: list[tuple[Quantity, object]]) -> bool:
    """Whether a window rate over another length of time comes to the claim's ("£18 per 30 minutes", "£36 an hour")."""
    if not (isinstance(rate, tuple) and rate[0] == "time" and isinstance(rate[1], (int, float)) and rate[1]):
        return False
    return any(
        isinstance(r, tuple)
        and r[0] == "time"
        and isinstance(r[1], (int, float))
        and r[1]
        and r != rate
        and math.isclose(q.value / rate[1], p.value / r[1], rel_tol=1e-6)
        for p, r in theirs
    )
