"""The slot lexicon (``data/slots.toml`` as typed tables) and the slot records the reader fills.

:mod:`ragaudit.slots` reads sentences into :class:`Slots`; :mod:`ragaudit.matching` compares them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources

# --- the lexicon ------------------------------------------------------------------------------
LEXICON = tomllib.loads(resources.files("ragaudit.data").joinpath("slots.toml").read_text(encoding="utf-8"))
WORD_NUMBERS: dict[str, float] = LEXICON["word_numbers"]
ORDINALS: dict[str, int] = LEXICON["ordinals"]
SCALES: dict[str, float] = LEXICON["scales"]
MONEY_SCALES: dict[str, float] = LEXICON["money_scales"]
MONTHS: dict[str, int] = LEXICON["months"]
FREQUENCIES: dict[str, str] = LEXICON["frequencies"]
UNIT_WORDS = frozenset(name for u in LEXICON["units"] for name in u["names"] if name.isalpha())
"""Unit names written as one word ("km", "miles", "percent")."""
MONEY = frozenset(str(u["dimension"]) for u in LEXICON["units"] if u["names"][0] in ("£", "$", "€"))
"""Dimensions of sums of money."""
US_STATES: dict[str, str] = LEXICON["us_states"]
COUNTRY_ALIASES: tuple[frozenset[str], ...] = tuple(frozenset(v) for v in LEXICON["country_aliases"].values())
"""Lower-cased US state names and their postal abbreviations (addresses abbreviate them)."""
REFERENCES = frozenset(LEXICON["cues"]["references"])
LABELS = frozenset(LEXICON["cues"]["labels"])
"""Words a number after them names rather than counts ("Schedule 2", "platform 1")."""
DETERMINERS = frozenset(
    {"the", "a", "an", "each", "every", "this", "that", "its", "their", "your", "his", "her", "our", "my"}
)
CONDITIONS = frozenset({"without", "unless", "except", "until"})
HYPOTHETICAL = frozenset({"if", "provided", "unless", "so", "whether", "when", "once", "lest", "even", "until"})
PRONOUN_ONE_BEFORE = frozenset(
    {"the", "this", "that", "which", "each", "any", "no", "another", "every", "a", "new", "other"}
)


def words_re(words: list[str]) -> re.Pattern[str]:
    """One linear-time pattern for any of ``words`` (phrases too) as whole words, longest first."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


UNITS: dict[str, tuple[str, float]] = {
    name: (str(u["dimension"]), float(u["factor"])) for u in LEXICON["units"] for name in u["names"]
}
"""Unit → (dimension, factor to the dimension's base unit)."""
UNIT_OFFSETS: dict[str, float] = {
    name: float(u["offset"]) for u in LEXICON["units"] if "offset" in u for name in u["names"]
}
"""Unit → what is added after the factor (°F to °C)."""
QUANTIFIER_CLASS: dict[str, str] = LEXICON["quantifiers"]
CUES = {name: frozenset(words) for name, words in LEXICON["cues"].items() if not name.endswith("phrases")}
APPROX = CUES["approx"]
UNIT_MODIFIERS = CUES["unit_modifiers"]
AGGREGATION = CUES["aggregation"]
WORKING_OUT = CUES["working_out"]
WEEKDAYS = CUES["weekdays"]
ADVICE_VERBS: tuple[str, ...] = tuple(LEXICON["cues"]["advice_verbs"])
"""Verbs that open an instruction in the imperative, in the lexicon's order (a pattern's alternation)."""
NEGATIONS = CUES["negations"]
NEGATION_ADVERBS = CUES["negation_adverbs"]
HEDGES = CUES["hedges"]
CERTAIN = CUES["certain"]
CAUSAL = CUES["causal"]
INSTRUMENTAL_VERBS = CUES["instrumental_verbs"]
CAUSAL_PHRASES: tuple[str, ...] = tuple(LEXICON["cues"]["causal_phrases"])
CAUSAL_PHRASE_RE = words_re(list(CAUSAL_PHRASES))
"""The causal phrases as whole words ("led to", not the "led to" inside "failed to")."""
CAUSAL_WHY_RE = re.compile(r"\b(?:that's|that’s|that\s{1,3}is|which\s{1,3}is|this\s{1,3}is)\s{1,3}why\b")
"""A reason given by pointing back ("so that's why"), read before the idioms that drop "so that's"."""
CAUSAL_IDIOMS: tuple[str, ...] = tuple(LEXICON["cues"]["causal_idioms"])
UNKNOWN_PHRASES: tuple[str, ...] = tuple(LEXICON["cues"]["unknown_phrases"])
RATE_QUALIFIERS = r"(?:additional|extra|further|engine|full|whole)"
"""Words that may stand between "per" and its period ("per additional day") without making it another thing."""

# "Down to" names a cause after a form of "be" or a share ("the rise is largely down to demand"); before a
# figure it is a fall ("comes down to £384"), after a verb of motion a place ("go down to check on it").
_DOWN_TO_RE = re.compile(
    r"\b(?:(is|was|are|were|'s|’s|be|been|being|put|largely|mostly|partly|mainly|entirely|chiefly|all|simply|purely) )?"
    r"down to\b( (?:(?:about|around|roughly|just|only|under|below) )?[£$€¥]?\d)?"
)


def causal_plain(lowered: str) -> str:
    """``lowered`` with the phrases that contain a causal cue but state no cause blanked out (same length)."""
    plain = lowered
    for idiom in CAUSAL_IDIOMS:
        plain = plain.replace(idiom, " " * len(idiom))
    return _DOWN_TO_RE.sub(lambda m: m.group() if m.group(1) and not m.group(2) else " " * len(m.group()), plain)


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number as stated, with its unit converted to the dimension's base unit."""

    value: float
    """In base units when ``dimension`` is set, else as written."""
    raw: float
    dimension: str | None
    approx: bool
    start: int
    end: int
    text: str
    noun: str = ""
    """Stem of the word right after a plain count ("five *cases*"), else empty."""
    label: bool = False
    """A number that names something ("Schedule *2*", "clause *7.2*"): matched as written, never an operand."""

    @property
    def frequency_word(self) -> bool:
        """Read from one adverb ("hourly"): support for a claim's rate, never itself a detail to check."""
        return self.text.lower() in FREQUENCIES


@dataclass(frozen=True, slots=True)
class Date:
    """A calendar date as stated: day and month, and the year when written."""

    day: int | None
    month: int
    year: int | None
    start: int
    end: int
    text: str


@dataclass(slots=True)
class Slots:
    """Everything :func:`compare` looks at in one sentence."""

    quantities: list[Quantity] = field(default_factory=list)
    dates: list[Date] = field(default_factory=list)
    times: set[int] = field(default_factory=set)
    """Minutes after midnight of clock times."""
    years: set[int] = field(default_factory=set)
    names: dict[str, str] = field(default_factory=dict)
    """Lower-cased name (one or more capitalised words) → as written."""
    negated: bool = False
    negated_stems: set[str] = field(default_factory=set)
    negated_head: str = ""
    negated_heads: set[str] = field(default_factory=set)
    hypothetical: set[str] = field(default_factory=set)
    """Stems inside a condition, purpose or indirect question ("if …,", "so that …", "whether …"): not asserted."""
    question: bool = False
    nominal: set[str] = field(default_factory=set)
    """Stems used as nouns ("5 *marks*", "of the *mark*"): things, not predicates a negation could deny."""
    """Stems each negation applies to (its first content word), unless a "without"/"unless" turns it into a condition."""
    """The first content word a negation denies ("not *damaged*")."""
    quantifiers: set[str] = field(default_factory=set)
    quantified: set[tuple[str, str]] = field(default_factory=set)
    """(quantifier class, the content word it applies to): ("all", "patient")."""
    denied_duties: set[str] = field(default_factory=set)
    """Deeds a denial says are not required ("under no obligation to *tell*"): they clash only with a duty."""
    hedged: bool = False
    """A hedging word ("may", "likely") or a bound ("up to")."""
    hedge_word: bool = False
    """A hedging word: what makes a claim say how sure it is ("will approve up to three days" is sure)."""
    certain: bool = False
    causal: bool = False
    unknown: bool = False
    """States that something is not known or still open ("under investigation", "unclear")."""
    aggregates: bool = False
    """Speaks of a total, a multiple or a share ("in total", "twice", "half", "each"): figures may be worked out."""
    stems: set[str] = field(default_factory=set)
