"""Quantifiers a window restricts: a claim that says "every", "all", "most" or "never" where its
evidence says less ("most people recover", "all SDKs except Node.js", a table column that holds
"no" in one row). Weaker claims are entailed ("some" where the source says "all" is fine), so only a
claim stronger than its source is reported. The words live in ``data/slots.toml``
(``[quantifier_scope]``); every pattern is linear-time.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragaudit._mentions import words_around
from ragaudit._number_words import word_number
from ragaudit._slot_data import LEXICON, words_re
from ragaudit._text import STOPWORDS, stem
from ragaudit.slots import MAX_CHARS, extract

_SCOPE: dict[str, list[str]] = LEXICON["quantifier_scope"]


_STRENGTH = {name: words_re(_SCOPE[name]) for name in ("universal", "majority", "nothing")}
_IDIOMS = words_re(_SCOPE["idioms"])
# "Platform 1 only", "only the morning crossing" restrict a set; "only if", "only while" a condition.
_ONLY = r"(?<![\w-])only(?![\w-])(?!\s++(?:if|when|while|whilst|where|after|before|once|until|unless|because|as|so)\b)"
_WEAKER = {
    "universal": re.compile(f"{words_re(_SCOPE['below_all']).pattern}|{_ONLY}", re.IGNORECASE),
    "majority": words_re(_SCOPE["below_most"]),
    "nothing": words_re(_SCOPE["above_nothing"]),
}
_PART_RE = re.compile(
    r"(?<=[.;:!?])\s+|\n+|,\s*(?=(?:but|although|though|while|whereas|yet)\s)|\s(?=(?:but|although|whereas)\s)"
)
_APPROX_SOME_RE = re.compile(r"\bsome\s+(?=\d|one\b|two\b|three\b|four\b|five\b|ten\b|hundred|thousand)", re.I)
_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|be|been|can|could|will|would|has|have|had|does|do|did|must|may|should|gets?|"
    r"offers?|pays?|includes?|covers?|supports?|needs?|requires?|runs?)\b",
    re.IGNORECASE,
)
# "two of the six drag lifts", "Of the resort's six drag lifts, only the two nursery tows …": a count of a whole.
_COUNT = r"(\d{1,6}|[a-z]{3,9}(?:-[a-z]{3,5})?)"
_WHOSE = r"(?:(?:the|its|their|our)\s++)?(?:[\w-]{1,30}['’]s\s++)?"
_SHARE_RE = re.compile(
    rf"\b{_COUNT}\s++(?:out\s++)?of\s++{_WHOSE}{_COUNT}\b"
    rf"|\bof\s++{_WHOSE}{_COUNT}\s++[^,.;:]{{1,40}}?,\s*+(?:only\s++)?(?:the\s++)?{_COUNT}\b",
    re.IGNORECASE,
)


def _count(word: str) -> float | None:
    return float(word) if word.isdigit() else word_number(word)


def _share_below(part: str, kind: str) -> str | None:
    """A count of a whole in ``part`` that says less than the claim's ``kind`` of quantifier: under half of
    it for "most", not all of it for "all"."""
    for m in _SHARE_RE.finditer(part[:MAX_CHARS]):
        n, total = (_count(m[1]), _count(m[2])) if m[1] else (_count(m[4]), _count(m[3]))
        if n is None or not total or n > total:
            continue
        if (kind == "majority" and n / total < 0.5) or (kind == "universal" and n < total):
            return m.group()
    return None


_PERCENT_RE = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,2})?)\s?(?:%|per\s?cent\b)", re.IGNORECASE)


def _percent_below(part: str, kind: str, nouns: set[str], own: set[float]) -> str | None:
    """A share of the claim's quantified noun in ``part`` that says less than ``kind``: at most half for "most",
    under all for "all" ("34% of respondents" against "most respondents"); not one of the claim's ``own``."""
    shares = [
        (float(m[1]), m.group())
        for m in _PERCENT_RE.finditer(part[:MAX_CHARS])
        # A share of the claim's noun; of anyone, where the claim quantifies people ("everyone who tried it").
        if float(m[1]) not in own and (nouns & words_around(part, m.group(), 3) or not nouns)
    ]
    # A clause that also gives the share the claim's word fits ("82% were satisfied and 12% were not", "from 48% to
    # 71%") does not say less than it.
    if kind == "majority" and any(share > 50 for share, _ in shares):
        return None
    for share, written in shares:
        if (kind == "majority" and share <= 50) or (kind == "universal" and share < 100):
            return written
    return None


_NOT_ANY_RE = re.compile(
    r"(?:\b(?:not|no|never|nor|if|whether|without|hardly|barely|cannot|before|than)|n't)(?:\W++\w++){0,2}\W*+$"
)
"""Words before "any" that make it no universal ("do not charge any fee", "if any", "before any")."""
_EXCEPTION_RE = re.compile(
    r"\b(?:though|but|except|unless|apart from|other than)\s++(?:not|for|on|in|when|where)\b", re.I
)
"""A claim that states its own exception ("any seat, *though not* on Saturdays")."""
_WORD_AFTER_RE = re.compile(r"\W++(?:(?:of|the|your|our|their)\s++)?([^\W\d_][\w-]*+)")
"""The word a quantifier quantifies ("any *software-related* invention", "both *platforms*")."""


def _near_words(part: str, start: int, end: int) -> set[str]:
    """Stems (five letters) of the four words either side of ``part[start:end]``."""
    near = re.findall(r"[^\W\d_][\w-]*+", part[max(0, start - 60) : start])[-4:]
    near += re.findall(r"[^\W\d_][\w-]*+", part[end : end + 60])[:4]
    return {stem(w.lower())[:5] for w in near}


_FREQUENCY_RE = re.compile(
    r"\s++(?:(?:other|extra|additional|further|single|full|working|calendar)\s++)?(?:\d|one\b|two\b|three\b|four\b|"
    r"five\b|six\b|half\b|quarter\b|days?\b|weeks?\b|months?\b|years?\b|hours?\b|minutes?\b|mornings?\b|evenings?\b|"
    r"nights?\b|times?\b|weekdays?\b|weekends?\b|seasons?\b|terms?\b|semesters?\b|year\b)",
    re.IGNORECASE,
)
_ONE_OF_RE = re.compile(r"\s++one\s++of\b", re.IGNORECASE)
_COUNT_RE = re.compile(r"\s++(?:\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b", re.IGNORECASE)
"""A count after "all" ("all three tours") or "every one of": how many, not how often."""
_EXAMPLES_RE = re.compile(r"\b(?:including|such\s++as|e\.g\.|for\s++example|like)\b[^.;:()]{0,120}", re.IGNORECASE)
MIN_SHARED = 3
"""Content words a clause of the window must share with the claim to restrict its quantifier."""


def strength(text: str) -> tuple[str, str] | None:
    """The claim's strongest quantifier: (``universal``/``majority``/``nothing``, the word as written)."""
    plain = _IDIOMS.sub(" ", text[:MAX_CHARS])
    for name, pattern in _STRENGTH.items():
        for m in pattern.finditer(plain):
            before = plain[: m.start()].rstrip()
            # A capital inside a sentence is part of a title ("its 'Every Seat is an Award Seat' policy").
            if m.group()[0].isupper() and before.strip("\"'“‘(") and before[-1:] not in ".!?:":
                continue
            # "every extra half hour", "every 30 minutes", "each year": how often, not how many.
            if (
                m.group().lower() in ("every", "all")
                and _FREQUENCY_RE.match(plain, m.end())
                and not (
                    _ONE_OF_RE.match(plain, m.end()) or (m.group().lower() == "all" and _COUNT_RE.match(plain, m.end()))
                )
            ):
                continue
            # "not any", "if any", "without any": no claim about every one of them.
            if m.group().lower() == "any" and _NOT_ANY_RE.search(before.lower()[-24:]):
                continue
            # "they all", "systems all work", "are all": the parties just listed, each of them.
            if m.group().lower() == "all" and re.search(r"(?:s|they|we|you|are|were|be)$", before.lower()):
                continue
            return name, m.group()
    return None


def restricted(claim: str, window: str) -> str | None:
    """Why the window says less than the claim's quantifier: a clause about the same thing with a
    weaker one ("'Everyone' where the source says 'Most'")."""
    found = strength(claim)
    if found is None:
        return None
    kind, word = found
    weaker = _WEAKER[kind]
    if weaker.search(_APPROX_SOME_RE.sub(" ", claim)) or _EXCEPTION_RE.search(claim[:MAX_CHARS]):
        return None  # the claim states the restriction itself ("any seat, though not on Saturdays")
    # "Any" and "both" quantify the word after them: the source's weaker word must stand by it.
    loose = word.lower() in ("any", "both")
    at_word = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", claim[:MAX_CHARS]) if loose else None
    after = _WORD_AFTER_RE.match(claim, at_word.end()) if at_word else None
    mine, text, at = extract(claim), window[:MAX_CHARS], 0
    nouns = {noun for _, noun in mine.quantified}
    own = {float(m[1]) for m in _PERCENT_RE.finditer(claim[:MAX_CHARS])}
    people = word.lower() in ("everyone", "everybody")
    # "All three tours": a part that tells the claim's predicate of fewer named ones says less.
    counted = _COUNT_RE.match(claim, claim.find(word) + len(word)) if word.lower() == "all" else None
    total = _count(counted.group().strip().lower()) if counted else None
    parts = _PART_RE.split(text)[:64]
    noun = _WORD_AFTER_RE.match(claim, counted.end()) if counted else None
    whole = (
        rf"\b{re.escape(counted.group().strip())}\s++(?:[\w'’-]++\s++)?{re.escape(noun[1][:4])}"
        if counted and noun
        else ""
    )
    listed = _fewer_listed(parts, total, mine.stems - {stem(word.lower())}, whole) if total and counted else None
    if listed and counted:
        return f"'{word}{counted.group()}' where the source names only {listed}"
    for part in parts:
        at = max(at, text.find(part, at))
        m = weaker.search(_IDIOMS.sub(" ", _APPROX_SOME_RE.sub(" ", part)))
        share = None if m else _share_below(part, kind)
        percent = None if m or share or not (nouns or people) else _percent_below(part, kind, nouns, own)
        says = m.group() if m else share or percent
        if says is None:
            continue
        if loose and not (m and after and stem(after[1].lower())[:5] in _near_words(part, m.start(), m.end())):
            continue
        theirs = extract(part)
        # A part about another named subject restricts someone else ("Ollerton Mill: platform 1 only"), its name
        # perhaps the label before its colon.
        before = text[text.rfind("\n", 0, at) + 1 : at]
        label = extract(re.split(r"[.!?;]\s", before)[-1] if before.rstrip().endswith(":") else "")
        # Names given as examples ("some centres, including Harwick and Lenmouth") are not the part's subject.
        names = extract(_EXAMPLES_RE.sub(" ", part)).names if theirs.names else label.names
        if names and not any(n in claim.lower() for n in names):
            continue
        said = theirs.stems | label.stems
        # A share of the claim's own noun binds closer than shared words: its noun and one more suffice.
        if len(mine.stems & said - {stem(word.lower()), stem(says.lower())}) >= (
            2 if percent and nouns else MIN_SHARED
        ):
            return f"'{word}' where the source says '{says}'"
    return None


_CALENDAR_WORDS = frozenset(LEXICON["months"]) | frozenset(LEXICON["cues"]["weekdays"])
"""Capitalised words that name no one ("Thursdays")."""


def _named(part: str) -> list[str]:
    """The names a part gives, as written (no month or weekday)."""
    return [n for k, n in extract(part).names.items() if k.removesuffix("s") not in _CALENDAR_WORDS]


def _fewer_listed(parts: list[str], total: float, stems: set[str], whole: str) -> str | None:
    """The named ones of a list of ``total`` (a part naming that many: "three tours: the Cellar Tour, the Garden Walk
    and the Vineyard Trek", or one naming some with the ``whole`` counted: "of our three tours, the Cellar Tour and
    …") that a part sharing two of the claim's other words ``stems`` (one outside the names)
    tells its predicate of, at least two but fewer than all ("The Cellar Tour and the Garden Walk are wheelchair
    accessible"); none where the parts telling it, or a universal word, cover the list."""
    named = [_named(part) for part in parts]
    lists = [set(n) for n in named if len(n) == total]
    # "Of our three tours, the Cellar Tour and the Tasting Masterclass are …": the part names the whole itself.
    counting = re.compile(whole, re.IGNORECASE) if whole else None
    lists += [{*n, whole} for part, n in zip(parts, named, strict=True) if counting and counting.search(part)]
    if not lists:
        return None
    covered: set[str] = set()
    fewer: list[list[str]] = []
    for part, names in zip(parts, named, strict=True):
        theirs = extract(part)
        shared = stems & theirs.stems
        name_stems = {stem(w.lower()) for n in names for w in re.findall(r"[^\W\d_]+", n)}
        if len(shared) < 2 or not shared - name_stems or len(names) == total:
            continue
        if strength(part) is not None:
            return None  # "All three are wheelchair accessible"
        covered.update(names)
        if len(names) >= 2 and any(set(names) <= group for group in lists):
            fewer.append(names)
    if not fewer or any(group <= covered for group in lists):
        return None
    return " and ".join(f"'{n}'" for n in fewer[0])


def _roots(text: str) -> frozenset[str]:
    return frozenset(stem(w)[:6] for w in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", text.lower()) if w not in STOPWORDS)


@lru_cache(maxsize=64)  # keyed by a source cut to MAX_CHARS
def _table(text: str) -> tuple[list[str], list[list[str]]] | None:
    """Header and rows of the first pipe table in ``text``."""
    lines = [ln.strip() for ln in text[:MAX_CHARS].splitlines() if ln.strip().startswith("|")]
    if len(lines) < 3:
        return None
    cells = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines if not re.fullmatch(r"[\s|:+-]*", ln)]
    header, rows = cells[0], [r for r in cells[1:] if len(r) == len(cells[0])]
    return (header, rows) if rows else None


def _value(cell: str) -> str:
    """A cell's value without its comment: "no (stairs only)" is "no"."""
    return cell.split("(", 1)[0].strip().lower()


def _subject_end(claim: str, start: int, *, singular: bool, limit: int = 6) -> int:
    """Where the noun phrase after a quantifier ends: at its verb ("every branch *opens*", "all
    branches *open*", "every SDK … *can*"), else after ``limit`` words ("pays for every type of …")."""
    previous = ""
    for k, m in enumerate(re.finditer(r"[^\W_]+(?:[-'’][^\W_]+)*", claim[start:])):
        word = m.group().lower()
        plural_verb = not singular and previous.endswith("s") and not previous.endswith("ss")
        singular_verb = singular and k and word.endswith("s") and not word.endswith("ss")
        if k >= limit or _VERB_RE.fullmatch(word) or plural_verb or singular_verb:
            return start + m.start()
        previous = word
    return len(claim)


def table_exception(claim: str, source: str) -> str | None:
    """Why a table denies the claim's "every"/"all"/"none": the column its predicate names holds
    another value in some row the claim covers ("'Every' where the table gives 'no' for 'Millbank'")."""
    found = strength(claim)
    table = _table(source[:MAX_CHARS]) if "|" in source else None
    if found is None or table is None or found[0] == "majority" or _WEAKER["universal"].search(claim):
        return None
    header, rows = table
    at = claim.lower().find(found[1].lower())
    end = _subject_end(claim, at + len(found[1]), singular=found[1].lower() != "all")
    subject, predicate = _roots(claim[at:end]), _roots(claim[:at] + " " + claim[end:])
    if not subject & _roots(header[0]):
        return None  # the claim quantifies over something else than the table's rows
    # Rows the claim's subject picks out by a value it names ("all *compulsory* modules").
    for c in range(len(header)):
        named = [r for r in rows if _roots(_value(r[c])) and _roots(_value(r[c])) <= subject]
        if named and len(named) < len(rows):
            rows = named
    for c, name in enumerate(header):
        values = [_value(r[c]) for r in rows]
        about = _roots(name) & predicate or any(_roots(v) and _roots(v) <= predicate for v in values)
        if c == 0 or not about or len(set(values)) < 2:
            continue
        # Show a row that denies it ("no", "not covered"), else one that differs from the most.
        common = max(set(values), key=values.count)
        odd = next((r for r in rows if _value(r[c]).split()[:1] in (["no"], ["not"])), None)
        odd = odd or next(r for r in rows if _value(r[c]) != common)
        return f"'{found[1]}' where the table gives '{_value(odd[c])}' for '{odd[0]}'"
    return None


_QUANTIFIER_CLASHES = frozenset(
    {
        ("all", "some"),
        ("all", "few"),
        ("all", "most"),
        ("all", "none"),
        ("most", "few"),
        ("most", "none"),
        ("many", "few"),
        ("many", "none"),
        ("few", "all"),
        ("few", "most"),
        ("few", "many"),
        ("none", "all"),
        ("none", "most"),
        ("none", "many"),
        ("none", "some"),
        ("none", "few"),
        ("some", "none"),
        ("some", "all"),
        ("many", "all"),
    }
)
"""(claim's quantifier, source's) pairs a careful reader calls a change of meaning: "some patients"
where the source says "all patients" misstates it, "many" where it says "most" does not."""


def quantifiers_clash(
    claim: set[tuple[str, str]], source: set[tuple[str, str]], pairs: frozenset[tuple[str, str]] | None = None
) -> bool:
    """Whether the claim quantifies a noun in a way the source's quantifier of it rules out
    ("all patients" where the source says "some patients"); ``pairs``: only these (claim's, source's) clashes."""
    said = {theirs for theirs, _ in source}  # "most homes … Few have insulation" also says "most"
    return any(
        noun == their_noun and q != theirs and (q, theirs) in (_QUANTIFIER_CLASHES if pairs is None else pairs)
        for q, noun in claim
        if q not in said
        for theirs, their_noun in source
    )
