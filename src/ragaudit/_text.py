"""Shared text normalisation: tokens, stems, numbers, negation and hedging cues.

Every stage compares claims and sources through :func:`analyze`, so that "1,000" and "1000",
"5%" and "five percent", "5 PM" and "17:00", "accepts" and "accepted" meet as equal terms.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import snowballstemmer

from ragaudit._textcache import text_cache

_STEMMER = snowballstemmer.stemmer("english")
_WORDS = tomllib.loads(resources.files("ragaudit.data").joinpath("words.toml").read_text(encoding="utf-8"))

STOPWORDS = frozenset(_WORDS["stopwords"])
SENTENCE_BREAK_RE = re.compile(r"(?<=[.;!?])\s+|\n+")
"""Where a source's sentences (and semicolon clauses) break: what the per-sentence reading rules read."""
RECORD_FIELD_RE = re.compile(r'"[\w ]+"\s*+:')
"""A record's field ('"sample_date":'): a text holding one is read as fields of one thing, not as sentences."""
"""Function words: they carry no checkable content on their own."""

NEGATIONS = frozenset(_WORDS["negations"])

QUANTIFIERS: dict[str, str] = _WORDS["quantifiers"]
"""Quantifier word → its strength class; a changed class changes the claim."""

HEDGES = frozenset(_WORDS["hedges"])
CERTAINTY = frozenset(_WORDS["certainty"])

_NUMBER_WORDS: dict[str, int] = _WORDS["number_words"]
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "k": 1e3, "m": 1e6, "bn": 1e9}
_MONEY_ONLY_SCALES = frozenset({"k", "m"})
"""Scale letters only after a sum of money ("£3m", "$40k"): "272 m long" is metres, "a 10k run" kilometres."""


def _after_currency(text: str, start: int) -> bool:
    """Whether the number at ``start`` is a sum of money (a currency sign before it)."""
    return text[start : start + 1] == "$" or text[max(0, start - 1) : start] in ("£", "€", "$", "¥")


_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})
_MONTHS.pop("may")  # "may" is mostly a modal verb; "May 5" is caught by the date pattern.
_MONTHS.pop("mar")

_TOKEN_RE = re.compile(
    r"""
    (?P<time>\b\d{1,2}:\d{1,2}(?:\s*[ap]\.?m\.?\b)?)
  | (?P<ampm>\b\d{1,2}\s*[ap]\.?m\.?(?![a-z]))
  | (?P<num>\$?\d+(?:,\d{3})*(?:\.\d+)?%?)
  | (?P<word>[^\W\d_]+(?:['’][^\W\d_]+)?)
    """,
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Term:
    """One comparable unit of text."""

    key: str
    """Normalised form used for matching (a stem, ``#<number>`` or ``@<time>``)."""
    kind: str
    """``word``, ``num``, ``time``, ``neg``, ``stop``."""
    start: int
    end: int
    capital: bool = False
    """Written with an initial capital (a likely name) not at the start of the text."""


_MAX_NUMBER_DIGITS = 40
"""Longer digit strings are read as words, not numbers."""


def _fmt_number(value: float) -> str:
    if value == int(value):
        return f"#{int(value)}"
    return f"#{round(value, 4):g}"


def _time_key(hour: int, minute: int, suffix: str) -> str:
    suffix = suffix.replace(".", "").lower()
    if suffix == "pm" and hour < 12:
        hour += 12
    if suffix == "am" and hour == 12:
        hour = 0
    return f"@{hour:02d}:{minute:02d}"


_IRREGULAR: dict[str, str] = _WORDS["irregular"]


def stem(word: str) -> str:
    """Return the lower-cased Snowball stem of ``word`` (irregular forms mapped first)."""
    # A "word" may be a megabyte of letters: only words of a plausible length are cached.
    return _stem_cached(word) if len(word) <= _CACHE_WORD_CHARS else _stem(word)


def with_parts(stems: AbstractSet[str]) -> set[str]:
    """``stems`` and the stems of their hyphenated parts ("a missed-appointment fee" is about missed appointments;
    :func:`analyze` keys a compound by its parts, the stems of a text's slots keep it whole)."""
    return {*stems, *(stem(part) for s in stems if "-" in s for part in s.split("-") if part)}


def _stem(word: str) -> str:
    lower = word.lower().replace("’", "'")
    return str(_STEMMER.stemWord(_IRREGULAR.get(lower, lower)))


_CACHE_WORD_CHARS = 40
_stem_cached = lru_cache(maxsize=200_000)(_stem)


LIGHT_WORDS = frozenset(stem(w) for w in _WORDS["light_words"])
"""Generic words: they count, but little, towards a claim's coverage."""
ASK_FRAME_WORDS = frozenset(stem(w) for w in _WORDS["ask_frame_words"])
"""Words of a question's form ("need", "get back", "work out at per"), not of what it asks about."""
ASK_TARGET_WORDS: dict[str, frozenset[str]] = {
    target: frozenset(stem(w) for w in words) for target, words in _WORDS["ask_target_words"].items()
}
"""Per ask target (``amount``, ``number``), the words that name the kind of figure wanted."""


def analyze(text: str) -> list[Term]:
    """Tokenise ``text`` into normalised terms with offsets.

    >>> [t.key for t in analyze("Revenue rose 5% to $1,000 at 5 PM.") if t.kind != "stop"]
    ['revenu', 'rise', '#5', 'percent', '#1000', '@17:00']
    """
    if len(text) > _CACHE_LONG_CHARS:
        # Whole sources are analysed too; caching them would keep megabytes per request alive.
        return list(_analyze(text))
    if len(text) > _CACHE_TEXT_CHARS:
        return list(_analyze_long(text))
    return list(_analyze_cached(text))


_CACHE_TEXT_CHARS = 500
"""Texts up to this length (claims, sentences, table rows) are cached; longer ones are not."""
_CACHE_TEXTS = 4_096
"""Texts cached: a request's claims and the units it reads again. A cached text costs about 30
times its length (its terms), so the cache stays under ~60 MB whatever the requests hold."""


_CACHE_LONG_CHARS = 100_000
"""Longer texts up to this length (an answer-long claim, read by the aligner and the checks) are
cached two at a time: at most ~6 MB."""


@lru_cache(maxsize=_CACHE_TEXTS)
def _analyze_cached(text: str) -> tuple[Term, ...]:
    return _analyze(text)


@text_cache(max_chars=2 * _CACHE_LONG_CHARS, max_entries=2)
def _analyze_long(text: str) -> tuple[Term, ...]:
    return _analyze(text)


def _analyze(text: str) -> tuple[Term, ...]:
    terms: list[Term] = []
    pending_scale: Term | None = None
    for m in _TOKEN_RE.finditer(text):
        start, end = m.span()
        group = m.lastgroup
        raw = m.group()
        if group == "time":
            tm = re.match(r"(\d{1,2}):(\d{1,2})\s*([ap]\.?m\.?)?", raw, re.IGNORECASE)
            assert tm is not None
            terms.append(Term(_time_key(int(tm[1]), int(tm[2]), tm[3] or ""), "time", start, end))
            continue
        if group == "ampm":
            tm = re.match(r"(\d{1,2})\s*([ap]\.?m\.?)", raw, re.IGNORECASE)
            assert tm is not None
            terms.append(Term(_time_key(int(tm[1]), 0, tm[2]), "time", start, end))
            continue
        if group == "num":
            clean = raw.lstrip("$").rstrip("%").replace(",", "")
            if len(clean) > _MAX_NUMBER_DIGITS:
                # Not a quantity anyone compares (and float() of 309+ digits is infinite): a plain word.
                terms.append(Term(clean, "word", start, end))
                pending_scale = None
                continue
            terms.append(Term(_fmt_number(float(clean)), "num", start, end))
            if raw.endswith("%"):
                terms.append(Term("percent", "word", end - 1, end))
            pending_scale = terms[-1] if not raw.endswith("%") else None
            continue
        lower = raw.lower()
        if (
            lower in _SCALES
            and pending_scale is not None
            and terms
            and terms[-1] is pending_scale
            and (lower not in _MONEY_ONLY_SCALES or _after_currency(text, pending_scale.start))
        ):
            # "1.5 million" → one number term covering both words.
            value = float(pending_scale.key[1:]) * _SCALES[lower]
            terms[-1] = Term(_fmt_number(value), "num", pending_scale.start, end)
            pending_scale = None
            continue
        pending_scale = None
        if lower in _NUMBER_WORDS:
            terms.append(Term(_fmt_number(_NUMBER_WORDS[lower]), "num", start, end))
            pending_scale = terms[-1]
            continue
        if lower in ("percent", "per-cent", "pct"):
            terms.append(Term("percent", "word", start, end))
            continue
        if lower in _MONTHS:
            terms.append(Term(f"month{_MONTHS[lower]}", "word", start, end, capital=True))
            continue
        if lower in NEGATIONS or lower.endswith("n't"):
            terms.append(Term("not", "neg", start, end))
            continue
        if lower in STOPWORDS:
            terms.append(Term(lower, "stop", start, end))
            continue
        capital = raw[0].isupper() and start > 0 and not _sentence_initial(text, start)
        terms.append(Term(stem(lower), "word", start, end, capital))
    return tuple(terms)


def _sentence_initial(text: str, start: int) -> bool:
    before = text[max(0, start - 3) : start].rstrip(" \"'“(")
    return before == "" or before[-1] in ".!?:\n•-*"


def content_keys(terms: list[Term] | tuple[Term, ...]) -> list[str]:
    """The keys of the terms that carry content (words, numbers, times), in order."""
    return [t.key for t in terms if t.kind in ("word", "num", "time")]


def split_camel(name: str) -> str:
    """Turn a JSON key such as ``RestaurantsTakeOut`` or ``business_stars`` into words."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|_", " ", name)
    return spaced.lower()


_ANTONYM_PAIRS: list[str] = _WORDS["antonym_pairs"]


def _build_antonyms() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for line in _ANTONYM_PAIRS:
        for pair in line.strip().split("\n"):
            words = pair.split()
            for a, b in zip(words[::2], words[1::2], strict=False):
                table.setdefault(stem(a), set()).add(stem(b))
                table.setdefault(stem(b), set()).add(stem(a))
    return {k: frozenset(v) for k, v in table.items()}


ANTONYMS = _build_antonyms()
"""Stem → stems of words that state the opposite (a swapped one flips a claim)."""


def question_keys(question: str | None) -> frozenset[str]:
    """Content keys of a question (what an answer may restate without a source)."""
    return frozenset(content_keys(analyze(question))) if question else frozenset()


def name_keys(terms: list[Term] | tuple[Term, ...], text: str) -> set[str]:
    """Keys of names: words capitalised mid-sentence, and a capitalised first word followed by
    another capitalised word ("Maria Chen became …")."""
    words = [t for t in terms if t.kind == "word"]
    names = {t.key for t in words if t.capital}
    for first, second in itertools.pairwise(words):
        if text[first.start].isupper() and second.capital and first.key not in LIGHT_WORDS:
            names.add(first.key)
    return names


def is_year(key: str) -> bool:
    """Whether a number key (``#2019``) reads as a calendar year."""
    return key.startswith("#") and key[1:].isdecimal() and 1500 <= int(key[1:]) <= 2100


LABEL_LETTER_END_RE = re.compile(
    r"\b(?:Schedule|Annex|Appendix|Part|Section|Table|Figure|Exhibit|Clause|Article|Item|Group|Class|Zone|Grade|Type"
    r"|Plan|Form|Option|Category|Level|Block|Ward|Gate|Terminal|Bay|Platform|Unit|Phase|Stage|Tier|Band|Lot|Route"
    r"|Room|Wing|Building|Hall|Floor|Site|Area|Sector|Shift|Team|Vitamin|Hepatitis) [A-Z]\.(?= +[A-Z])"
)
"""A sentence that ends on a lettered label ("… set out in Schedule B. Separately, …"), which blingfire reads as
a person's initial and runs into the next sentence."""
