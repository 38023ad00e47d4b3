"""Stage 1: split an answer into atomic claims with character offsets.

Sentences first (blingfire, which handles abbreviations, decimals and quotes), with lines and bullet items as
hard boundaries; then compound sentences into their assertions (coordinated clauses, appended ``which``/``while``
qualifiers). Inline citation markers are parsed into each claim's cited source references and kept out of its
text. Sentences with nothing checkable (greetings, "Here is a summary:") and abstentions ("the sources do not
say…") are not claims; abstentions are returned separately for the abstention check.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field

import blingfire

from ragaudit._markers import CitationMarker, find_citations
from ragaudit._source_talk import (
    ABSTENTION_RE,
    CONFLICT_NOTE_RE,
    FRAMING_RE,
    WORTH_ASKING_RE,
    conflict_note_length,
    is_referral,
)
from ragaudit._text import LABEL_LETTER_END_RE
from ragaudit.models import Claim, ClaimType

# --- sentences and clauses ----------------------------------------------------------------
_BULLET_RE = re.compile(r"(?:[-*•▪◦‣]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)](?=\s))\s+")
# Openings that announce or introduce the answer: cut off, so what follows them is still checked.
_META_PREFIX_RE = re.compile(
    r"^(?:(?:based on|according to|from|using|per) (?:the )?(?:provided |given |above |available )?"
    r"(?:passages?|sources?|documents?|context|information|text|data|reviews?|article|records?)"
    r"(?: provided| given| above)?,\s*"
    r"|(?:sure|certainly|of course|absolutely)[,!.]\s*"
    r"|(?:here|below)(?:'s|’s|\s+(?:is|are)\b)[^.!?:]{0,120}:(?:\s+|$)){1,3}",
    re.IGNORECASE,
)
_NON_CLAIM_RE = re.compile(
    r"""^(?:
        (?:hi|hello|hey|thanks\ for|thank\ you|great\ question|good\ question)\b[^\d]{0,40}$
      | (?:sure|certainly|of\ course|absolutely|thanks)[.!]?$
      | (?:here|below)\s+(?:is|are)\b[^.!?:]{0,120}:$
      | (?:here|below)\s+(?:is|are)\s+(?:a|an|the|my|some)\s+(?:short\s|brief\s|quick\s)?
           (?:summary|overview|answer|breakdown|rundown|recap)\b[^.!?:\d]{0,80}[.]?$
      | (?:i hope|hope)\s+this\s+helps.*
      | (?:let me know|feel free)\b.*
      | (?:in summary|to summarize|overall|summary|answer|note)[:.]?$
      | [^.!?]{0,80}:$
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# "Yes, in most cases." answers and states nothing yet; "Yes, there is a cafe on board." states (a verb).
_ANSWER_PARTICLE_RE = re.compile(
    r"(?:yes|no|yep|nope|correct|true|false)\b"
    r"(?![^\d]{0,30}?\b(?:is|are|was|were|can|will|do|does|did|has|have|had|must|may|should|could|would)\b)"
    r"[^\d]{0,30}",
    re.IGNORECASE,
)
_CLAUSE_SPLIT_RE = re.compile(
    r"(?:;\s++|,\s++(?:and|but|while|whereas|although|though|yet|so|which|who)\s++"
    r"|(?<!\s)\s++(?:and|but)\s++(?=(?:it|they|he|she|we|this|that|these|those|its|their|the)\s)"
    r"|(?<!\s)\s++(?:while|whereas|although)\s++)",
    re.IGNORECASE,
)
_MIN_CLAUSE_WORDS = 4
_WORD_RE = re.compile(r"\S+")
# A clause has a verb; a list item ("…, and the state they work in") has none of these.
_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|will|would|can|could|may|might|should|must|does|"
    r"did|do|[a-z]{3,}ed|[a-z]{3,}(?<!s)s)\b",
    re.IGNORECASE,
)

_ATTRIBUTION_RE = re.compile(
    r"\b(?:according to|said|says|stated|states|reported|reports|announced|claimed|claims|told|"
    r"wrote|argued|noted|explained|confirmed|denied|testified|quoted)\b",
    re.IGNORECASE,
)
_TEMPORAL_RE = re.compile(
    r"\b(?:1[5-9]\d\d|20\d\d|january|february|march|april|june|july|august|september|october|"
    r"november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday|today|"
    r"tomorrow|ago|since|until|decade|century|annually|weekly|daily|morning|evening|"
    r"\d{1,2}:\d{2}|\d{1,2}\s*[ap]\.?m\.?)\b",
    re.IGNORECASE,
)
_QUANT_RE = re.compile(
    r"(?:\d|\b(?:percent|half|twice|double|triple|dozen|hundred|thousand|million|billion|"
    r"two|three|four|five|six|seven|eight|nine|ten|majority|minority|average|median|rate)\b)",
    re.IGNORECASE,
)
_YEAR_ONLY_RE = re.compile(r"\b(?:1[5-9]\d\d|20\d\d)\b")
_INTERPRETIVE_RE = re.compile(
    r"\b(?:suggests?|indicates?|implies|likely|unlikely|probably|appears?|seems?|important|"
    r"significant(?:ly)?|best|worst|great|excellent|good|bad|poor|popular|highly|overall|"
    r"impressive|beautiful|delicious|friendly|reasonable|considered|believed|should|could|"
    r"may|might|highlights?|demonstrates?|shows? that|reflects?)\b",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Segmentation:
    """Claims and abstention statements found in one answer."""

    claims: list[Claim] = field(default_factory=list)
    abstentions: list[tuple[int, int]] = field(default_factory=list)
    """Offsets of sentences that acknowledge the sources do not cover something."""
    conflict_notes: list[tuple[int, int]] = field(default_factory=list)
    """Offsets of sentences that say the sources disagree ("the two documents give different limits")."""
    markers: list[CitationMarker] = field(default_factory=list)


def classify_claim(text: str) -> ClaimType:
    """Give a claim its type: attribution, temporal, quantitative, interpretive or factual.

    >>> classify_claim("Revenue grew 5% in 2020.")
    'quantitative'
    """
    if _ATTRIBUTION_RE.search(text):
        return "attribution"
    without_years = _YEAR_ONLY_RE.sub("", text)
    if _QUANT_RE.search(without_years) and not re.fullmatch(r"[^\d]*", without_years):
        return "quantitative"
    if _TEMPORAL_RE.search(text):
        return "temporal"
    if _QUANT_RE.search(without_years):
        return "quantitative"
    if _INTERPRETIVE_RE.search(text):
        return "interpretive"
    return "factual"


_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_ABBREVIATION_PIECE_RE = re.compile(r"\s*(?:\d{1,3}[.)]|[a-zA-Z][.)]|[A-Z][a-z]{0,3}\.)\s*")
# A numbered clause after a full stop starts a sentence ("… by the Authority. 7.2 The master shall …"), as does
# one after a lettered label: blingfire keeps a sentence going into a number or after a capital and a stop.
_NUMBER = r"(?<=[.;:])\s+(?=(?:\d{1,3}(?:\.\d{1,3})+|\(\d{1,3}\)|\d{1,3}\.)\s+[A-Z(])"
# blingfire also reads a unit ending in "mol." or "L." as an abbreviation or an initial ("… 75 mmol/mol. Above 90 …"),
# and a clock time's "pm." ("… until 9 pm. Specific hours are not given").
_UNIT_STOP = r"(?<=\d)\s?(?:(?:[a-zA-Zµμ]{1,4}/)?(?:[mnpµμ]?mol|[mdµμ]?L)|[ap]m)\.(?=\s+[A-Z])"
_CLAUSE_NUMBER_RE = re.compile(f"{_NUMBER}|{LABEL_LETTER_END_RE.pattern}|{_UNIT_STOP}")


def sentence_spans(text: str, base: int = 0) -> list[tuple[int, int]]:
    """Sentence spans of ``text`` (offset by ``base``): lines are hard boundaries, blingfire splits within a line,
    and a dangling list number or abbreviation ("1.", "Dr.") joins the sentence after it."""
    spans: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        if not line.group().strip():
            continue
        # blingfire needs UTF-8; a lone surrogate (valid in a Python str) becomes U+FFFD, one
        # code point for one, so offsets are unchanged.
        _, offsets = blingfire.text_to_sentences_and_offsets(_SURROGATE_RE.sub("\ufffd", line.group()))
        offsets = [piece for s, e in offsets for piece in _clause_pieces(line.group(), s, e)]
        merged: list[tuple[int, int]] = []
        for s, e in offsets:
            if merged and _ABBREVIATION_PIECE_RE.fullmatch(line.group()[merged[-1][0] : merged[-1][1]]):
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        spans.extend((base + line.start() + s, base + line.start() + e) for s, e in merged)
    return spans


def _clause_pieces(line: str, start: int, end: int) -> list[tuple[int, int]]:
    """``line[start:end]`` cut before each numbered clause it runs into and after a lettered label."""
    bounds = [start, *(m.end() for m in _CLAUSE_NUMBER_RE.finditer(line, start, end)), end]
    return [(a, b) for a, b in itertools.pairwise(bounds) if line[a:b].strip()]


def _trim(answer: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span past whitespace, bullet markers, stray quotes and trailing punctuation."""
    while start < end and answer[start] in " \t":
        start += 1
    bullet = _BULLET_RE.match(answer, start, end) if start < end else None
    if bullet:
        start = bullet.end()
    while start < end and answer[start] in " \t\"'“”‘’*_#>":
        start += 1
    while end > start and answer[end - 1] in " \t\r\n*_":
        end -= 1
    return start, end


_TRAILING_PUNCT_RE = re.compile(r"[\s.,;:!?)\]]*")
_FOLLOW_RE = re.compile(r"[\s,;:]+")
_NON_SPACE_RE = re.compile(r"\S")


def _strip_markers(answer: str, start: int, end: int, markers: list[CitationMarker]) -> tuple[int, int, list[str]]:
    """Collect the refs of markers inside the span and cut trailing markers out of it.

    ``markers`` are sorted by start; only those inside the span are looked at (bisect), so a
    sentence with thousands of markers stays linear.
    """
    lo = bisect.bisect_left(markers, start, key=lambda marker: marker.start)
    hi = bisect.bisect_left(markers, end, key=lambda marker: marker.start)
    inside = [m for m in markers[lo:hi] if m.end <= end]
    refs = list(dict.fromkeys(r for m in inside for r in m.refs))
    # Cut markers that trail the span ("… in 2015 [2]." or "… in 2015. [2]"), last first; the
    # first marker followed by words stops it (every earlier one is followed by those words too).
    for m in reversed(inside):
        if not (m.start > start and _TRAILING_PUNCT_RE.fullmatch(answer, m.end, end)):
            break
        end = m.start
        while end > start and answer[end - 1] == " ":
            end -= 1
    return start, end, refs


class _Words:
    """Whitespace-separated words of a span, counted in O(log n) per query (``str.split`` per cut was quadratic)."""

    def __init__(self, text: str, start: int, end: int) -> None:
        runs = [m.span() for m in _WORD_RE.finditer(text, start, end)]
        self.text = text
        self.starts = [a for a, _ in runs]
        self.ends = [b for _, b in runs]

    def count(self, start: int, end: int) -> int:
        """How many words ``text[start:end].split()`` gives."""
        return max(0, bisect.bisect_left(self.starts, end) - bisect.bisect_right(self.ends, start))

    def first(self, start: int, end: int, n: int) -> str:
        """The first ``n`` words of ``text[start:end]``, joined by single spaces."""
        first = bisect.bisect_right(self.ends, start)
        words = []
        for i in range(first, min(first + n, len(self.starts))):
            if self.starts[i] >= end:
                break
            words.append(self.text[max(self.starts[i], start) : min(self.ends[i], end)])
        return " ".join(words)


def _clauses(answer: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split a sentence into coordinated clauses, keeping each clause's exact offsets."""
    cuts: list[tuple[int, int]] = []
    for m in _CLAUSE_SPLIT_RE.finditer(answer, start, end):
        cuts.append((m.start(), m.end()))
    if not cuts:
        return [(start, end)]
    words = _Words(answer, start, end)
    pieces: list[tuple[int, int]] = []
    cursor = start
    for cut_start, cut_end in cuts:
        if (
            words.count(cursor, cut_start) >= _MIN_CLAUSE_WORDS
            and words.count(cut_end, end) >= _MIN_CLAUSE_WORDS
            and (answer[cut_start] == ";" or _VERB_RE.search(words.first(cut_end, end, 6)))
        ):
            pieces.append((cursor, cut_start))
            cursor = cut_end
    pieces.append((cursor, end))
    return pieces


_CONSEQUENCE_RE = re.compile(r"\b(?:so|which|who)\b", re.IGNORECASE)
_CONTRAST_RE = re.compile(r"\b(?:but|however|although|though|while|whereas|yet)\b", re.IGNORECASE)


def _abstaining_clauses(answer: str, start: int, end: int) -> tuple[list[tuple[int, int]], int]:
    """The clauses of an abstaining sentence that say what the sources lack, and where its claims end.

    A sentence may state something and then say what the sources leave open ("The table covers fees,
    but neither page gives a deadline"): the clauses before the first abstaining one remain claims
    unless it follows from them ("…, so it can't be worked out"), and the clauses after it continue the
    abstention. Returns the abstention spans and where the claims before them end (``start`` when none).
    """
    clauses = _clauses(answer, start, end)
    abstaining = [ABSTENTION_RE.search(answer[a:b]) is not None for a, b in clauses]
    if len(clauses) == 1 or not any(abstaining):
        return [(start, end)], start
    first = abstaining.index(True)
    gaps: list[tuple[int, int]] = [(clauses[first][0], end)]
    # "…, so it can't be worked out": what comes before gives the reason for the abstention, not a claim.
    if first and _CONSEQUENCE_RE.search(answer, clauses[first - 1][1], clauses[first][0]):
        return [(start, end)], start
    # A contrast after the abstention ("…, but the fee is £40") may open claims again: the whole sentence
    # stays one abstention then, as before, rather than guessing where each claim ends.
    if any(
        not abstaining[i] and _CONTRAST_RE.search(answer, clauses[i - 1][1], clauses[i][0])
        for i in range(first + 1, len(clauses))
    ):
        return [(start, end)], start
    return gaps, clauses[first - 1][1] if first else start


def _has_content(text: str) -> bool:
    return len(re.findall(r"[^\W_]{2,}", text)) >= 2


def segment(answer: str) -> Segmentation:
    """Split ``answer`` into claims (with offsets, types and cited refs) and abstentions.

    >>> [c.text for c in segment("Paris is the capital of France [1]. It has 2 million people.").claims]
    ['Paris is the capital of France', 'It has 2 million people.']
    """
    result = Segmentation(markers=find_citations(answer))
    marker_starts = [m.start for m in result.markers]  # sorted: finditer order
    after_gap = False  # a sentence before said what the sources lack, or that they disagree
    for sent_start, sent_end in sentence_spans(answer):
        start, end = _trim(answer, sent_start, sent_end)
        # Only this sentence's markers (scanning every marker per sentence was quadratic).
        markers = result.markers[bisect.bisect_left(marker_starts, start) : bisect.bisect_left(marker_starts, end)]
        if start >= end:
            continue
        sentence = answer[start:end]
        if _NON_CLAIM_RE.match(sentence.strip()) or sentence.rstrip().endswith("?") or not _has_content(sentence):
            continue
        if (after_gap or WORTH_ASKING_RE.match(sentence)) and is_referral(
            sentence
        ):  # "… gives no price. Ask the clinic.": where to find it
            result.abstentions.append((start, end))
            continue
        after_gap = after_gap or bool(ABSTENTION_RE.search(sentence) or CONFLICT_NOTE_RE.search(sentence))
        if ABSTENTION_RE.search(sentence):
            gap_clauses, end = _abstaining_clauses(answer, start, end)
            result.abstentions += gap_clauses
            start, end = _trim(answer, start, end)
            if start >= end or not _has_content(answer[start:end]):
                continue
            sentence = answer[start:end]
        if note := conflict_note_length(sentence):
            result.conflict_notes.append((start, start + note))
            start, sentence = start + note, sentence[note:]
        if not sentence or _ANSWER_PARTICLE_RE.fullmatch(sentence.strip()) or FRAMING_RE.fullmatch(sentence.strip()):
            continue  # "Yes, in most cases.", "It depends.": the claims follow in the next sentences
        meta = _META_PREFIX_RE.match(sentence)
        if meta:
            start += meta.end()
            if not _has_content(answer[start:end]):
                continue  # "Here's an overview based on the data in JSON format:" introduces, it states nothing
        # A marker that ends the sentence cites every clause of it.
        _, sentence_end, _ = _strip_markers(answer, start, end, markers)
        trailing = [ref for m in markers if m.start >= sentence_end and m.end <= end for ref in m.refs]
        # A marker inside the sentence ends the clauses it cites, back to the last marker ("… 1,200 people [2], most …").
        pieces: list[tuple[int, int]] = []
        cursor = start
        for m in markers:
            if cursor < m.start and m.end < sentence_end and m.start > start:
                follow = _FOLLOW_RE.match(answer, m.end, end)
                if follow and _NON_SPACE_RE.search(answer, m.end, end):
                    pieces.append((cursor, m.end))
                    cursor = follow.end()  # absolute: matched with pos=m.end
        pieces.append((cursor, end))
        cites = [[r for m in markers if a <= m.start < b for r in m.refs] for a, b in pieces]
        clauses = [
            (c, cites[k] if len(pieces) > 1 else trailing)
            for k, (a, b) in enumerate(pieces)
            for c in _clauses(answer, a, b)
        ]
        for (clause_start, clause_end), cited in clauses:
            c_start, c_end = _trim(answer, clause_start, clause_end)
            c_start, c_end, refs = _strip_markers(answer, c_start, c_end, markers)
            refs = list(dict.fromkeys(refs + cited))
            c_end = _trim(answer, c_start, c_end)[1]
            text = answer[c_start:c_end]
            if c_start >= c_end or not _has_content(text):
                continue
            result.claims.append(
                Claim(
                    id=f"c{len(result.claims) + 1}",
                    text=text,
                    start=c_start,
                    end=c_end,
                    type=classify_claim(text),
                    citations=refs,
                )
            )
    return result
