"""A question's information needs, and how well the sources answer each one.

A need is one thing the question asks: a clause ("who commissioned the bridge"), one of two
coordinated asks ("can I take my dog …, and how much does it cost?"). Its *target* is the kind
of answer a wh-word wants (an amount, a date, a person …). A need is answerable when some
source window is about it (close in meaning or covering its words) and, for a typed target,
holds a value of that type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ragaudit._budget import EmbeddingBudget
from ragaudit._slot_data import MONEY
from ragaudit._text import LIGHT_WORDS, STOPWORDS, analyze
from ragaudit._windows import unit_vectors
from ragaudit.align import SourceIndex
from ragaudit.checks._support import candidate_units
from ragaudit.embed import embed
from ragaudit.slots import extract

_ASK = (
    r"(?:what|what's|whats|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|"
    r"will|would|should|has|have|may|must)"
)
# A new ask starts after a comma, "and"/"or" or a semicolon, with a wh-word or an auxiliary.
# Possessive runs, and a whitespace run entered only at its start: linear on any input.
_SPLIT_RE = re.compile(
    rf"(?:[;?]\s++|,\s*+(?:(?:and|or|but)\s++)?|(?<!\s)\s++(?:and|or|but)\s++)(?={_ASK}\b)", re.IGNORECASE
)
_ASK_WORD_RE = re.compile(rf"(?i){_ASK}|it|its|they|them|this|that|these|those|i|we|you|me|my|a|an|the")
# "When"/"who" ask only at the head of the ask or of an embedded question ("tell me when …"); in
# "how hot does it need to get when we cook it" the "when" is a conjunction.
_ASKS_IF_LEADING = r"(?:^\W*(?:(?:and|or|but|so)\s+)?|\b(?:me|know|ask|out|wondering|sure|idea|say|says)\s+)"
_TARGETS: tuple[tuple[str, str], ...] = (
    (r"\bhow much\b|\bcost\b|\bprice\b|\bfee\b|\bfare\b|\bpremium\b|\bprize money\b", "amount"),
    (
        r"\bhow many\b|\bwhat (?:number|percentage|share|proportion|rate|fraction)\b|\bhow (?:high|low|big|large|fast|far|heavy|old)\b",
        "number",
    ),
    (r"\bhow long\b|\bhow often\b|\bhow quickly\b", "number"),
    (rf"{_ASKS_IF_LEADING}when\b|\bwhat (?:date|year|day|month|time)\b", "date"),
    (rf"{_ASKS_IF_LEADING}(?:who|whom|whose)\b", "name"),
)


@dataclass(frozen=True, slots=True)
class Need:
    """One ask of the question."""

    text: str
    start: int
    end: int
    keys: frozenset[str]
    """Content keys of the ask (shared subject words included)."""
    target: str | None
    """``amount``, ``number``, ``date``, ``name`` or ``None`` (a yes/no or open ask)."""
    years: frozenset[int]
    """Years the ask is about ("the population in 1700")."""


@dataclass(frozen=True, slots=True)
class Relevance:
    """How well the best source window answers a need."""

    similarity: float
    """Cosine of the need and its closest unit."""
    coverage: float
    """Share of the ask's own content words held by the best unit."""
    typed: bool
    """The relevant units hold a value of the ask's target type (always true without a target)."""
    years_found: bool
    """Every year the ask names appears in the sources."""
    source_id: str | None
    quote: str

    def answerable(self, *, similarity: float, coverage: float) -> bool:
        """Whether the sources hold an answer to the need, at these thresholds."""
        about = self.similarity >= similarity or self.coverage >= coverage
        return about and self.typed and self.years_found


def _target(text: str) -> str | None:
    for pattern, target in _TARGETS:
        if re.search(pattern, text, re.IGNORECASE):
            return target
    return None


def split_needs(question: str) -> list[Need]:
    """Split a question into its asks.

    >>> [n.text for n in split_needs("Can I take my dog on the coach, and how much does it cost?")]
    ['Can I take my dog on the coach', 'how much does it cost?']
    """
    separators = list(_SPLIT_RE.finditer(question))
    bounds = zip([0, *(m.end() for m in separators)], [*(m.start() for m in separators), len(question)], strict=True)
    needs: list[Need] = []
    for a, b in bounds:
        piece = question[a:b]
        # Statements before the ask ("I'm still calling /v2. What do I change?") set the scene.
        statement = max(piece.rfind(". "), piece.rfind("! "))
        if statement >= 0 and piece[statement + 2 :].strip():
            a += statement + 2
            piece = question[a:b]
        text = piece.strip().rstrip(",;").strip()
        # A condition ("If I catch the 07:42, …") sets the scene; it asks nothing.
        if len(text) < 3 or re.match(r"(?i)(?:if|as|since|because|given|assuming)\b", text):
            continue
        start = a + piece.index(text[:1])
        # The wh-phrase ("how long", "what percentage") says what kind of answer is wanted, not
        # what it is about.
        wh = {m.start(1) for m in re.finditer(r"(?i)\bhow\s+(\w+)", text)}
        # The verb right after "who" is what is asked even when it is a stop word ("who owns it").
        verb = {m.start(1) for m in re.finditer(r"(?i)\b(?:who|what)\s+(\w+)", text)}
        keys = frozenset(
            t.key
            for t in analyze(text)
            if t.kind in ("word", "num", "time")
            and (t.key not in STOPWORDS or (t.start in verb and not _ASK_WORD_RE.fullmatch(text[t.start : t.end])))
            and t.start not in wh
        )
        if not keys:
            # "who owns it?": every word is a stop word but the verb still says what is asked.
            keys = frozenset(
                t.key for t in analyze(text) if t.kind == "word" and not _ASK_WORD_RE.fullmatch(text[t.start : t.end])
            )
        years = frozenset(int(k[1:]) for k in keys if k[1:].isdecimal() and 1000 <= int(k[1:]) <= 2100)
        # An ask with no content words of its own ("is it paid?") still counts; one with none at all
        # (a stray "and") does not.
        if not keys:
            continue
        needs.append(Need(text, start, start + len(text), keys, _target(text), years))
    return needs


def _has_target(text: str, target: str) -> bool:
    slots = extract(text)
    if target == "amount":
        return any(q.dimension in MONEY or q.dimension is None for q in slots.quantities) or "free" in text.lower()
    if target == "number":
        return bool(slots.quantities or slots.times) or bool(
            re.search(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b", text, re.I)
        )
    if target == "date":
        return bool(slots.dates or slots.years or slots.times) or bool(
            re.search(
                r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|daily|weekly|annually|each)\b",
                text,
                re.I,
            )
        )
    if target == "name":
        return bool(slots.names)
    return True


def need_relevance(
    need: Need,
    index: SourceIndex,
    subject: frozenset[str] = frozenset(),
    *,
    embeddings: bool = True,
    tokens: EmbeddingBudget | None = None,
) -> Relevance:
    """How well the sources of ``index`` answer ``need`` (``subject``: keys shared by every ask;
    ``embeddings=False``: by its words alone; ``tokens``: the request's embedding budget, past which
    a passage is read by its words)."""
    if not index.units:
        return Relevance(0.0, 0.0, False, False, None, "")
    own = [k for k in need.keys if k not in subject and k not in LIGHT_WORDS] or [
        k for k in need.keys if k not in LIGHT_WORDS
    ]
    positions = candidate_units(dict.fromkeys(need.keys, 1.0), index) or [0]
    sims = np.zeros(len(positions), dtype=np.float32)
    tokens = tokens or EmbeddingBudget()
    if embeddings and tokens.admit([need.text]):
        chosen = tokens.admit([index.units[i].text or " " for i in positions])
        # Only the passages embedded for this request count: vectors an earlier one left do not.
        rows = [positions[k] for k in chosen]
        sims[chosen] = unit_vectors(index, rows)[0][rows] @ embed([need.text])[0]
    units = [index.units[i] for i in positions]
    covers = np.array([sum(1 for k in own if k in u.keys) / max(1, len(own)) for u in units])
    score = 0.5 * sims + 0.5 * covers
    order = np.argsort(-score)
    best = int(order[0])
    typed = need.target is None or any(
        _has_target(units[int(i)].text, need.target) for i in order[:3] if score[int(i)] >= 0.5 * score[best]
    )
    years_found = all(f"#{y}" in index.numbers for y in need.years)
    unit = units[best]
    return Relevance(
        similarity=float(sims.max()),
        coverage=float(covers.max()),
        typed=typed,
        years_found=years_found,
        source_id=unit.source_id,
        quote=unit.text,
    )
