"""What a claim mentions that the sources may not: names, and figures that are no facts to check.

The verifier's added-detail and name-swap detectors read these: a literal (a file name, a flag, an
identifier) no source writes, a name no source gives (spelled
another way, nearly the same, or a state written out all count as given), a count that refers back
("the two leaders") or counts the list after it ("two reasons: …"), and the words of a request's
sources.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from rapidfuzz import fuzz, process

from ragaudit._number_words import word_number
from ragaudit._slot_data import COUNTRY_ALIASES, REFERENCES, US_STATES, Quantity
from ragaudit._textcache import text_cache
from ragaudit.align import SourceIndex
from ragaudit.slots import MAX_CHARS, extract

# Literal tokens that must come verbatim from somewhere: code spans, file names, command-line flags,
# identifiers (snake_case, dotted.names), web and mail addresses.
_LITERAL_RE = re.compile(
    r"`([^`\n]{1,80})`"
    r"|(?<![\w.-])((?:[\w-]{1,60}\.)+(?:json|ya?ml|csv|txt|py|js|ts|md|xml|html?|toml|ini|cfg|conf|log|sh|exe|zip|pdf|docx?|xlsx?))\b"
    r"|(?<![\w-])(--?[a-z][\w-]{1,40})"
    r"|\b([a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6})\b"
    r"|\b(https?://[^\s)>\]]{1,200}|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,4})",
    re.IGNORECASE,
)


@text_cache(max_chars=4_000_000, max_entries=8)  # the request's sources joined, read per claim: lowered once
def _lowered(text: str) -> str:
    """``text`` lower-cased."""
    return text.lower()


def novel_literals(claim_text: str, known_text: str) -> list[str]:
    """Code spans, file names, flags, identifiers and addresses in the claim that the sources (and the
    question) never write: such tokens are copied, never paraphrased, so a new one is made up."""
    lowered = _lowered(known_text)
    found: list[str] = []
    for m in _LITERAL_RE.finditer(claim_text):
        # A code span may join what the sources write apart ("terrane apply --dry-run"): word by word.
        found += m[1].split() if m[1] else [next(g for g in m.groups() if g)]
    return [t for t in dict.fromkeys(found) if t.lower().rstrip(".") not in lowered][:8]


_OWNED_RE = re.compile(
    r"\b(?:[Mm]y|[Oo]ur)\s++(?:(?!(?:on|in|at|for|to|of|with|from|by|and|or|is|are|was|be|will|can)\b)[a-z][\w'’-]*+\s++){0,2}"
    r"([A-Z][\w-]*+(?:\s[A-Z][\w-]*+){0,3})"
)


def owned_names(question: str) -> frozenset[str]:
    """The names the asker gives their own things ("my large Labrador"): what the answer calls them is no added
    detail; a name the question only asks about ("Is the Leeds branch open?") is not the asker's."""
    names = [m[1].lower() for m in _OWNED_RE.finditer(question[:MAX_CHARS])]
    return frozenset(names + [n.split()[-1] for n in names])  # "my landlord Mr Hughes": "mr hughes", "hughes"


def novel_name(name: str, written: str, all_text: str, index: SourceIndex) -> bool:
    """A name no source gives, not even word by word or as the initials of one ("EPC" for Energy
    Performance Certificate)."""
    lowered = _lowered(all_text)
    if name in lowered or (name.endswith("s") and name[:-1] in lowered):
        return False  # "Fridays" for "Friday"
    if name.split()[0] in REFERENCES:
        return False  # "Passage 2", "Source B": which text, not a party
    aliases = next((group for group in COUNTRY_ALIASES if name.rstrip(".") in group), ())
    if any(re.search(rf"\b{re.escape(alias)}\b", lowered) for alias in aliases):
        return False  # "the USA" where the source says "the US"
    # A people for its country ("a Chinese cyclist" riding across China, "British" for "Britain").
    demonym = re.fullmatch(r"([a-z]{4,})(?:ese|ian|an|ish|i)", name)
    if demonym and re.search(rf"\b{demonym[1]}", lowered):
        return False
    words = [w for w in re.findall(r"[^\W\d_]+", name) if len(w) > 2]
    # A state written out where the source abbreviates it ("California" for "CA") is the same place.
    unstated = [w for w in words if not (w in US_STATES and re.search(rf"\b{US_STATES[w]}\b", all_text))]
    if words and all(re.search(rf"\b{re.escape(w)}", lowered) for w in unstated):
        return False
    words = unstated
    known = _source_names(index)
    # Half the words of a longer name suffice when the sources use them as a name ("Saudi Arabia"
    # for "a Saudi general", "President Obama" for "Barack Obama"; not "Corrin Construction" for
    # "two years of construction").
    named = sum(1 for w in words if w in known[2])
    if len(words) > 1 and 2 * named >= len(words):
        return False
    compact = re.sub(r"[\W_]+", "", name)
    # Spelled another way ("Wi-Fi" for "WiFi") or nearly the same ("Metropolulos" for "Metropulos").
    if compact in known[1] or process.extractOne(name, known[0], scorer=fuzz.ratio, score_cutoff=88):
        return False
    acronym = written.rstrip("s")
    if acronym.isupper() and len(acronym) >= 2:
        initials = index.__dict__.get("_initials")
        if initials is None:
            initials = {
                "".join(w[0] for w in n.split()).upper()
                for s in index.sources
                for n in extract(s.text).names.values()
                if " " in n
            }
            index.__dict__["_initials"] = initials
        return acronym not in initials and not _spelled_out(acronym, all_text)
    return True


def _spelled_out(acronym: str, text: str) -> bool:
    r"""Whether ``text`` writes the words an acronym stands for, in any case ("FAQ" for "Frequently asked
    questions"): each letter starts one word, the words next to each other (linear: ``\w`` and the gaps
    between words never overlap)."""
    if not 2 <= len(acronym) <= 6 or not acronym.isalpha():
        return False
    pattern = r"[\s-]+".join(rf"{re.escape(letter)}\w*" for letter in acronym)
    return re.search(rf"\b{pattern}\b", text, re.IGNORECASE) is not None


# Up to five words, then a colon: "two reasons: …", "three kinds of argument are accepted: …"; or a comma, bracket or
# dash before the items themselves ("two car parks, North and Riverside").
_LIST_AFTER_RE = re.compile(r"(?:\s[^\W\d_]{1,30}){0,5}\s?(?::|(,\s|\s?\(|\s[—–-]\s))")
_ITEM_BREAK_RE = re.compile(r"(?<!\s)\s*+,\s*+(?:(and|or)\s++)?|(?<!\s)\s++(and|or)\s++")
_LIST_END_RE = re.compile(r"[,;:.!?)\n]|\s[—–-]\s")
MAX_ITEM_WORDS = 6
_NO_ITEM = frozenset(
    {"and", "or", "but", "so", "which", "who", "where", "when", "while", "with", "without", "for", "from", "in", "on"}
    | {"at", "to", "by", "of", "as", "including", "plus", "each", "both", "then", "the", "a", "an", "it", "its", "this"}
)
"""First words of a clause that goes on, not of a list's first item ("two rooms, with a stage and a bar")."""


def _items(text: str) -> int:
    """How many named items the list opening ``text`` gives ("North, Riverside and Quay Street" → 3), the last one
    after its "and" or "or"; 0 where ``text`` opens no such list."""
    pos = 0
    for count, found in enumerate(itertools.islice(_ITEM_BREAK_RE.finditer(text), 12), start=1):
        words = text[pos : found.start()].split()
        if not _named(words) or _LIST_END_RE.search(text, pos, found.start()):
            return 0
        pos = found.end()
        if found[1] or found[2]:  # the last item follows "and" / "or"
            last = _LIST_END_RE.search(text, pos)
            return count + 1 if _named(text[pos : last.start() if last else len(text)].split()) else 0
    return 0


def _named(words: list[str]) -> bool:
    """Whether ``words`` make one item of a list of named things ("North", "Quay Street", "Monday"): few, first
    capitalised ("two tablets, morning and evening" lists times, not the tablets)."""
    return 0 < len(words) <= MAX_ITEM_WORDS and words[0][:1].isupper() and words[0].lower() not in _NO_ITEM


def counts_list(text: str, q: Quantity) -> bool:
    """Whether a plain count counts the list that follows it: a colon within a few words ("two reasons: …"), or the
    very items, as many as it says ("two car parks, North and Riverside", "three days (Monday, Wednesday and
    Friday)")."""
    found = _LIST_AFTER_RE.match(text, q.end, q.end + 95)
    if found is None or (found.start(1) == -1 and (q.dimension is not None or found.end() - q.end < 3)):
        return False  # a colon counts a plain count's list ("two reasons: …"), not a length's ("3 days: …")
    if found.start(1) == -1:
        return True
    return q.raw.is_integer() and 2 <= q.raw <= 12 and _items(text[found.end() : found.end() + 240]) == q.raw


_ONE_IN_RE = re.compile(r"\b([a-z]{3,9}|\d{1,3})\s(?:in|out\sof)\s$", re.IGNORECASE)
_IN_ONE_RE = re.compile(r"\s(?:in|out\sof)\s([a-z]{3,9}|\d{1,3})\b", re.IGNORECASE)
SHARE_TOLERANCE = 5.0
"""Percentage points between a share put in words and the percentage it rounds ("two in five" for 41%)."""


def share_in_words(text: str, q: Quantity, figures: Sequence[Quantity]) -> bool:
    """Whether ``q`` is the whole or the part of a share put in words ("about two in five", "one out of three") that
    a percentage among ``figures`` states (never the share's own numbers)."""
    percents = [f.value for f in figures if f.dimension == "percent"]
    if q.dimension is not None or not q.raw:
        return False
    found = _ONE_IN_RE.search(text[max(0, q.start - 16) : q.start])  # q is the whole: "two in *five*"
    is_whole = found is not None
    found = found or _IN_ONE_RE.match(text, q.end, q.end + 16)  # or the part: "*two* in five"
    value = (float(found[1]) if found[1].isdigit() else word_number(found[1].lower())) if found else None
    if not value:
        return False
    part, whole = (value, q.raw) if is_whole else (q.raw, value)
    return any(abs(100 * part / whole - p) <= SHARE_TOLERANCE for p in percents)


_BACK_RE = re.compile(r"(?:\b(?:the|these|those|both)\s|\bout of\s)$", re.IGNORECASE)


def refers_back(text: str, q: Quantity) -> bool:
    """A small count of parties already named ("the two leaders") or a scale ("out of 5")."""
    small = q.dimension is None and q.raw.is_integer() and q.raw <= 10
    return small and bool(_BACK_RE.search(text[max(0, q.start - 12) : q.start]))


def _source_names(index: SourceIndex) -> tuple[list[str], frozenset[str], frozenset[str]]:
    """The names the sources give (lower-cased), every word and name run together, and the words of
    the names, computed once per index."""
    known = index.__dict__.get("_names")
    if known is None:
        names = list(dict.fromkeys(n for s in index.sources for n in extract(s.text).names))[:_NAME_LIMIT]
        words = {re.sub(r"[\W_]+", "", w) for s in index.sources for w in s.text.lower().split()[:_WORD_LIMIT]}
        known = (
            names,
            frozenset(words | {re.sub(r"[\W_]+", "", n) for n in names}),
            frozenset(w for n in names for w in re.findall(r"[^\W\d_]+", n)),
        )
        index.__dict__["_names"] = known
    return known


_NAME_LIMIT = 2_000
_WORD_LIMIT = 200_000


@text_cache(max_chars=4_000_000, max_entries=256)  # keyed by all sources joined: bounded by size
def index_words(text: str) -> frozenset[str]:
    """Lower-cased words of ``text`` (the request's sources, joined)."""
    return frozenset(re.findall(r"[^\W\d_]+", text.lower()))


def words_around(text: str, name: str, words: int = 4) -> set[str]:
    """Content stems of the few words right before and after ``name`` in ``text``."""
    at = text.find(name)
    if at < 0:
        return set()
    before = re.findall(r"[^\W\d_]+", text[max(0, at - 80) : at])[-words:]
    after = re.findall(r"[^\W\d_]+", text[at + len(name) : at + len(name) + 80])[:words]
    return extract(" ".join(before)).stems | extract(" ".join(after)).stems


def particular(text: str) -> bool:
    """Whether a text states a figure, a date or a name: what a clause asserts on its own, whatever its context."""
    slots = extract(text)
    return bool(slots.quantities or slots.dates or slots.names)
