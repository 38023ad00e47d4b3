"""Source conflicts: two sources, each about a claim, that state different values for the same slot.

For each claim, each source's best window about it (:mod:`ragaudit.checks._support`) gives its
value for every slot the claim states: the first figure of the same dimension, the first date,
year or clock time. Two sources disagree when one gives the claim's value and another gives a
different one, or when they give two different values and the claim neither: and when both
name whatever the claim names (otherwise they are about different things). An explicit
amendment (one text replacing or amending another of the same issuer) is not a conflict.

How the answer handled it: ``reported_conflict`` when the answer says the sources disagree,
``took_side_silently`` when the claim states one side's value without saying so (the claim then
becomes ``contradicted``, a recorded step), ``answer_error`` when it states neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ragaudit._text import LIGHT_WORDS, STOPWORDS
from ragaudit._textcache import text_cache
from ragaudit.checks._support import ClaimEvidence, SourceSupport
from ragaudit.models import ConflictSide, SourceConflict
from ragaudit.segment import Segmentation
from ragaudit.slots import extract

ABOUT_SIMILARITY = 0.5
"""Both windows must be at least this close in meaning to the claim (and about it) …"""
MAX_SOURCES = 16
"""Sources compared per claim (the best-matching ones)."""
NEAR_SIMILARITY = 0.4
"""… or this close and sharing another of its values, or in an answer that reports a disagreement."""

_REPORTED_RE = re.compile(
    r"\b(?:disagree\w*|differ(?:s|ed|ent)?\b(?!\s+(?:from|to)\b)|conflict\w*|inconsistent|discrepan\w*|contradict\w*|"
    r"(?:isn't|aren't|not)\s+consistent|don't\s+match|doesn't\s+match|"
    r"(?:(?:one|another|other|a\s+second)\s+(?:source|passage|document|report)s?\s+|while\s+another\s+|whereas\s+another\s+)"
    r"(?:says|gives|puts|states|reports))",
    re.IGNORECASE,
)
_AMENDS_RE = re.compile(
    r"\b(?:replace[sd]?|replacing|supersed\w+|amend\w*|no\s+longer\s+appl\w+|in\s+place\s+of|corrigendum|"
    r"correct(?:ion|ed)\b|revoke[sd]?|now\s+reads)",
    re.IGNORECASE,
)
_REVISES_RE = re.compile(r"\b(?:revised|updated?|rev\.|new\s+version|latest\s+version)\b", re.IGNORECASE)


_STAMP_RE = re.compile(r"\b(\d{1,2}):(\d{2})\.(\d{1,3})\b")
"""A race or lap time with fractions of a second ("1:43.92")."""
_ADDITIVE_RE = re.compile(r"\b(?:additional|extra|further|another|plus|bonus|top-up|supplementary)\b", re.IGNORECASE)
"""A value introduced as additional is another amount, not a different statement of the same one."""
_PLAIN_MIN = 1000
"""A figure without a unit is compared only from this size up (attendances, populations, counts)."""
_CODE_RE = re.compile(r"\d+(?:\.\d+){2,}|\d+\s*[A-Z]{2,}\b")
_RANGE_BOUND_RE = re.compile(r"(?:between|from)\s+\S+(?:\s*\S+)?\s+(?:and|to)\s+$|[–-]\s*$", re.IGNORECASE)


def _plain(text: str) -> str:
    """Lower case, words only: "Ellory & Finch" and "ellory finch" meet."""
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


def _after_letter(text: str, start: int) -> bool:
    return start > 0 and (text[start - 1].isalpha() or text[start - 1] in "-_/")


@dataclass(frozen=True, slots=True)
class Value:
    """One value a text states, with the slot kind it fills."""

    kind: str
    """A quantity's dimension (``plain`` without one), ``date``, ``clock`` (time of day) or ``stamp`` (a race time)."""
    number: float
    month: int = 0
    day: int | None = None
    text: str = ""
    start: int = 0
    approx: bool = False


def values(text: str, *, years: bool = False) -> tuple[Value, ...]:
    """The values ``text`` states, in order (bare years only when ``years``)."""
    found = _values(text)
    # A bare year is as often a document's date as the fact's: compared only on request.
    return found if years else tuple(v for v in found if v.kind != "year")


@text_cache(max_chars=4_000_000, max_entries=20_000)
def _values(text: str) -> tuple[Value, ...]:
    """Every value ``text`` states, bare years included, in order (read once per text: windows and
    units are read again for each claim)."""
    slots = extract(text)
    out: list[Value] = []
    for q in slots.quantities:
        if q.dimension is None and q.raw.is_integer() and 1500 <= q.raw <= 2100:
            out.append(Value("year", q.raw, text=q.text, start=q.start))
            continue
        if q.dimension is None and (
            q.raw < _PLAIN_MIN or _CODE_RE.match(text, q.start) or _after_letter(text, q.start)
        ):
            continue  # small counts, versions and model numbers are not disputed figures
        number = q.value if q.dimension else q.raw
        out.append(Value(q.dimension or "plain", number, text=q.text, start=q.start, approx=q.approx))
    for d in slots.dates:
        out.append(
            Value("date", float(d.year or 0), d.month, d.day, text=text[d.start : d.end] or d.text, start=d.start)
        )
    stamps = list(_STAMP_RE.finditer(text))
    for m in stamps:
        parts = [float(x) for x in re.split(r"[:.]", m.group()) if x]
        seconds = parts[0] * 60 + parts[1] + (parts[2] / 10 ** len(m.group(3)) if m.group(3) else 0.0)
        out.append(Value("stamp", seconds, text=m.group(), start=m.start()))
    if not stamps:
        out.extend(
            Value("clock", float(t), text=f"{t // 60:02d}:{t % 60:02d}", start=len(text)) for t in sorted(slots.times)
        )
    return tuple(sorted(out, key=lambda v: v.start))


def same(a: Value, b: Value) -> bool:
    """Whether two values of one kind agree (figures within rounding, dates on day and month)."""
    if a.kind != b.kind:
        return False
    if a.kind == "date":
        return a.month == b.month and (a.day is None or b.day is None or a.day == b.day)
    if a.kind in ("clock", "stamp", "year"):
        return a.number == b.number
    # Within rounding as written ("2.4 million" for 2,430,000), wider when either is approximate.
    approx = a.approx or b.approx
    scale = max(abs(a.number), abs(b.number), 1e-9)
    return abs(a.number - b.number) <= (0.1 if approx else 0.02) * scale


def _issuer(text: str) -> str:
    head = re.split(r"\s[—–-]\s|[.:(]", text, maxsplit=1)[0]
    words = re.findall(r"[A-Z][\w&'-]+", head)
    return words[0].lower() if words else ""


def is_amendment(a: str, b: str) -> bool:
    """Whether one of two source texts explicitly amends or replaces the other (same issuer, or named)."""
    return _amendment(_Reading(a), _Reading(b))


class _Reading:
    """What :func:`is_amendment` reads off one whole source, read once (pairs of sources are many)."""

    __slots__ = ("amends", "issuer", "lower", "revises", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.issuer = _issuer(text)
        self.amends = bool(_AMENDS_RE.search(text))
        self.revises = bool(_REVISES_RE.search(text))
        self.lower = text.lower()


def _amendment(a: _Reading, b: _Reading) -> bool:
    for new, old in ((a, b), (b, a)):
        same_issuer = bool(new.issuer) and new.issuer == old.issuer
        if new.amends and (same_issuer or old.issuer in new.lower):
            return True
        # Here ``new`` states no amendment itself (it would have returned above): the other does,
        # or the two joined do.
        if new.revises and same_issuer and (old.amends or _AMENDS_RE.search(new.text + " " + old.text)):
            return True
    return False


class _SourceReadings:
    """What the conflict check reads off whole source texts, read once per request (sources reach megabytes)."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self._plain: dict[str, str] = {}
        self._amends: dict[tuple[str, str], bool] = {}
        self._readings: dict[str, _Reading] = {}
        self._lower: dict[str, bool] = {}

    def plain(self, source_id: str) -> str:
        """The source's plain form."""
        if source_id not in self._plain:
            self._plain[source_id] = _plain(self.texts[source_id])
        return self._plain[source_id]

    def amends(self, a: str, b: str) -> bool:
        """:func:`is_amendment` of two sources."""
        if (a, b) not in self._amends:
            self._amends[a, b] = self._amends[b, a] = _amendment(self._reading(a), self._reading(b))
        return self._amends[a, b]

    def _reading(self, source_id: str) -> _Reading:
        if source_id not in self._readings:
            self._readings[source_id] = _Reading(self.texts[source_id])
        return self._readings[source_id]

    def written_lower(self, word: str) -> bool:
        """Whether some source writes ``word`` (lower-cased) other than at a sentence start."""
        if word not in self._lower:
            pattern = re.compile(rf"(?<![.!?]\s)\b{re.escape(word)}\b")
            self._lower[word] = any(pattern.search(t) for t in self.texts.values())
        return self._lower[word]


@dataclass(frozen=True, slots=True)
class ConflictFinding:
    """A conflict on one claim, and whether the claim took one side."""

    conflict: SourceConflict
    holder: SourceSupport | None
    rival: SourceSupport


def _side(support: SourceSupport, value: Value) -> ConflictSide:
    w = support.window
    return ConflictSide(source_id=w.source_id, start=w.start, end=w.end, quote=w.text, value=value.text)


def _kind(value: Value) -> Literal["number", "date", "time", "quantity"]:
    if value.kind in ("date", "year"):
        return "date"
    if value.kind in ("clock", "stamp"):
        return "time"
    return "number" if value.kind == "plain" else "quantity"


def reported_in(answer: str, segmentation: Segmentation) -> bool:
    """Whether the answer says the sources disagree."""
    return bool(segmentation.conflict_notes) or bool(_REPORTED_RE.search(answer))


def find_conflicts(
    claim_id: str,
    evidence: ClaimEvidence,
    texts: dict[str, str],
    answer_reports: bool,
    readings: _SourceReadings | None = None,
    others: Sequence[ClaimEvidence] = (),
) -> list[ConflictFinding]:
    """Pairs of sources about the claim that state different values for a slot it states (``others``: the
    evidence of the answer's other claims)."""
    read = readings or _SourceReadings(texts)
    claim_text = evidence.alignment.claim.text
    claim_values = values(claim_text)

    def related(s: SourceSupport) -> bool:
        # About the claim, or nearly so and sharing another of its values (the same event), or
        # nearly so in an answer that itself says the sources disagree.
        if s.about and s.window.similarity >= ABOUT_SIMILARITY:
            return True
        if s.window.similarity < NEAR_SIMILARITY:
            return False
        return answer_reports or any(same(cv, v) for cv in claim_values for v in values(s.window.text))

    # by_source is best first; pairs grow with the square of the sources, so the best few decide.
    about = [s for s in evidence.by_source if related(s)][:MAX_SOURCES]
    if len(about) < 2:
        return []
    names = [_plain(n) for n in evidence.slots.names]
    first = re.match(r"\s*([A-Z][\w'-]+)", claim_text)
    # A capitalised first word is a name when the sources never write it in lower case.
    if first and first.group(1).lower() not in LIGHT_WORDS | STOPWORDS:
        word = first.group(1)
        if not read.written_lower(word.lower()):
            names.append(_plain(word))
    findings: list[ConflictFinding] = []
    seen: set[tuple[str, str, str]] = set()

    def compatible(a: SourceSupport, b: SourceSupport) -> bool:
        # Each source must name something the claim names, or they may be about different
        # subjects (two offices, two products).
        ta, tb = read.plain(a.source_id), read.plain(b.source_id)
        # Nor where each names another of them: a claim naming two subjects compares them ("£140 against £118 for
        # Bloomfield's"), and its sources give values of different things.
        if names and not {n for n in names if n in ta} & {n for n in names if n in tb}:
            return False
        return not read.amends(a.source_id, b.source_id)

    for cv in claim_values:
        holders: list[tuple[SourceSupport, Value]] = []
        rivals: list[tuple[SourceSupport, Value]] = []
        for s in about:
            text = s.window.text
            stated = [v for v in values(text) if v.kind == cv.kind]
            if not stated:
                continue
            # A value inside a range ("between 5 °C and 8 °C") bounds the range; it is not stated.
            matching = [
                v for v in stated if same(cv, v) and not _RANGE_BOUND_RE.search(text[max(0, v.start - 30) : v.start])
            ]
            if matching:
                holders.append((s, matching[0]))
            else:
                # Values the claim also states (items of one list) do not dispute it; another does.
                other = [
                    v
                    for v in stated
                    if not any(same(x, v) for x in claim_values)
                    and not _ADDITIVE_RE.search(text[max(0, v.start - 25) : v.start])
                ]
                if other:
                    rivals.append((s, other[0]))
        pairs: list[tuple[SourceSupport, Value, SourceSupport, Value, bool]] = []
        if holders:
            pairs = [(h, hv, r, rv, True) for h, hv in holders[:1] for r, rv in rivals]
        elif len(rivals) >= 2 and cv.kind not in ("plain", "time"):
            (a, av), *rest = rivals
            pairs = [(a, av, b, bv, False) for b, bv in rest if not same(av, bv)][:1]
        for a, av, b, bv, took in pairs:
            key = (min(a.source_id, b.source_id), max(a.source_id, b.source_id), _kind(cv))
            if key in seen or not compatible(a, b):
                continue
            seen.add(key)
            # An answer that gives the other value too, from the very passage that states it, for what that
            # passage speaks of, tells the two apart ("the bond pays 4.10% …, the saver it moves to pays
            # 3.25%"): it takes no side.
            if took and not answer_reports and any(_states_from(o, b, bv) for o in others):
                continue
            # A claim that states both values reports the conflict itself.
            states_both = took and any(same(x, bv) for x in values(claim_text))
            handling = (
                "reported_conflict"
                if answer_reports or states_both
                else ("took_side_silently" if took else "answer_error")
            )
            said = {
                "reported_conflict": "the answer reports the disagreement",
                "took_side_silently": "the answer states one side's value without saying the sources disagree",
                "answer_error": "the answer's own value matches neither source",
            }[handling]
            conflict = SourceConflict(
                claim_id=claim_id,
                kind=_kind(cv),
                sides=[_side(a, av), _side(b, bv)],
                answer_handling=handling,
                explanation=(
                    f"{a.source_id} gives '{av.text}' and {b.source_id} gives '{bv.text}' for "
                    f"'{claim_text.strip()[:80]}'; {said}."
                ),
            )
            findings.append(ConflictFinding(conflict, a if took else None, b))
    return findings


def find_source_conflicts(
    claim_ids: Sequence[str],
    evidence: Sequence[ClaimEvidence],
    texts: dict[str, str],
    answer: str,
    segmentation: Segmentation,
) -> list[ConflictFinding]:
    """Conflicts over every claim of one answer."""
    reports = reported_in(answer, segmentation)
    read = _SourceReadings(texts)
    return [
        f
        for k, (cid, ev) in enumerate(zip(claim_ids, evidence, strict=True))
        for f in find_conflicts(cid, ev, texts, reports, read, [*evidence[:k], *evidence[k + 1 :]])
    ]


def _states_from(other: ClaimEvidence, side: SourceSupport, value: Value) -> bool:
    """Whether another claim states ``value`` and rests on the window of ``side``'s source that gives it."""
    support = other.get(side.source_id)
    if support is None or not support.supports:
        return False
    at = side.window.start + value.start
    return support.window.start <= at < support.window.end and any(
        same(x, value) for x in values(other.alignment.claim.text)
    )
