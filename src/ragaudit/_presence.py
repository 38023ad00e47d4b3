"""What a place or a booking comes with, and what it allows: a thing the claim says is provided that a source says
there is none of ("A dishwasher is provided as well" where "There is no dishwasher"; "Bedding is provided" where
"Bedding … and kitchen packs … are not included"), or the reverse ("Life jackets are not included" where "Life
jackets … are provided free of charge"); a thing the claim says is allowed that a source bans ("Drinks are fine in
the control room" where "food and drink are not allowed in … the control room"), or the reverse. The two sentences
share little besides the thing itself, too little for a denial read word by word (:mod:`ragaudit._denials`) to
count as about the claim; the thing named is what ties them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ragaudit._text import STOPWORDS, stem
from ragaudit.slots import MAX_CHARS

_PRESENT = r"(?:provided|included|supplied|available|offered|laid\s+on|fitted|installed)"
_BE = r"(?:is|are|will\s+be|comes?|come)"
_NOT_BE = r"(?:is\s+not|are\s+not|isn't|aren't|will\s+not\s+be|won't\s+be|not)"
_THING = r"[^\W\d][\w'’ \-,()]{0,100}?"
"""A thing named before its verb (a short noun phrase, perhaps with a list in brackets), lazily: linear."""
_AFTER = r"(?:an?\s+|any\s+|some\s+)?([^\W\d][\w\-]*+(?:\s+[^\W\d][\w\-]*+){0,2})"
"""A thing named after its verb: up to three words."""

_ALLOWED = r"(?:allowed|permitted|welcome|fine|ok|okay|acceptable)"
_BANNED = r"(?:prohibited|forbidden|banned|barred)"


def _patterns(kind: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Denied before and after its verb, stated before and after it: of what there is, or of what is allowed."""
    if kind == "present":
        denied_after = (
            rf"\b(?:there\s+(?:is|are)\s+no|there['’]s\s+no|no\s+(?=\w+\s+(?:is|are)\s+{_PRESENT})"
            rf"|(?:does\s+not|do\s+not|doesn't|don't|cannot|can't|won't)\s+(?:provide|include|supply|offer|come\s+with))"
            rf"\s+{_AFTER}"
        )
        stated_after = (
            rf"\b(?:there\s+(?:is|are)|there['’]s|provides?|includes?|supplies|supply|offers?|comes?\s+with"
            rf"|equipped\s+with)\s+{_AFTER}"
        )
        denied_before = rf"({_THING})\s+{_NOT_BE}\s+{_PRESENT}\b"
        stated_before = rf"({_THING})\s+{_BE}\s+(?:also\s+)?{_PRESENT}\b"
    else:
        denied_after = rf"\bno\s+(?=\w+\s+(?:is|are)\s+(?:{_ALLOWED}|{_BANNED}))\s*+{_AFTER}"
        stated_after = rf"\b(?:we\s+(?:welcome|allow|accept))\s+{_AFTER}"
        denied_before = rf"({_THING})\s+(?:{_NOT_BE}\s+{_ALLOWED}|(?:is|are)\s+{_BANNED})\b"
        stated_before = rf"({_THING})\s+(?:is|are)\s+(?:also\s+)?{_ALLOWED}\b"
    return tuple(re.compile(p, re.IGNORECASE) for p in (denied_before, denied_after, stated_before, stated_after))  # type: ignore[return-value]


_KINDS = {kind: _patterns(kind) for kind in ("present", "allowed")}
_NEGATED_RE = re.compile(r"\b(?:not|no|never|none|without)\b|n't\b", re.IGNORECASE)
_CONDITION_RE = re.compile(
    r"\b(?:if|unless|when|once|on\s+request|by\s+arrangement|extra|additional|hire|pre-order)\b|[£$€]", re.IGNORECASE
)
"""A thing provided on some condition or at a price ("bedding can be provided for £65"): no plain presence."""
_SENTENCE_RE = re.compile(r"[.!?;:\n]|(?<!\s)\s++(?:but|while|whereas|although|though)\b", re.IGNORECASE)
_WORD_RE = re.compile(r"[^\W\d_]++")
MAX_SENTENCES = 64
"""Sentences of a source read at most."""


def _things(text: str, named_after: bool = False) -> set[str]:
    """Content stems of a thing's name (and of any list in brackets after it); a name after its verb ends at its
    first small word ("no charge *for* parking" names a charge)."""
    words = _WORD_RE.findall(text)
    if named_after:
        cut = next((i for i, w in enumerate(words) if w.lower() in STOPWORDS), len(words))
        words = words[:cut]
    return {stem(w.lower()) for w in words if w.lower() not in STOPWORDS and len(w) > 2}


def _head(text: str, named_after: bool = False) -> tuple[str, str]:
    """The stem of the last content word of a short name ("a four-ring *hob*", "life *jackets*"), and the word."""
    words = _WORD_RE.findall(text.split("(")[0])
    if named_after:
        words = words[: next((i for i, w in enumerate(words) if w.lower() in STOPWORDS), len(words))]
    words = [w for w in words if w.lower() not in STOPWORDS and len(w) > 2]
    return (stem(words[-1].lower()), words[-1].lower()) if words else ("", "")


def _told(sentence: str, kind: str) -> tuple[set[str], set[str]]:
    """The things a sentence says there are (or are allowed) and those it says there are none of (or are not)."""
    denied_before, denied_after, stated_before, stated_after = _KINDS[kind]
    denied: set[str] = set()
    for pattern, after in ((denied_before, False), (denied_after, True)):
        for m in pattern.finditer(sentence):
            denied |= _things(m.group(1), after)
    stated: set[str] = set()
    for pattern, after in ((stated_before, False), (stated_after, True)):
        for m in pattern.finditer(sentence):
            if not _NEGATED_RE.search(m.group(0)):
                stated |= _things(m.group(1), after)
    return stated, denied


@lru_cache(maxsize=256)  # a request's sources, read for each of its claims (texts cut to MAX_CHARS)
def _source_things(text: str, kind: str) -> tuple[frozenset[str], frozenset[str]]:
    stated: set[str] = set()
    denied: set[str] = set()
    for sentence in _SENTENCE_RE.split(text)[:MAX_SENTENCES]:
        s, d = _told(sentence, kind)
        stated |= s
        denied |= d
    return frozenset(stated), frozenset(denied)


def presence_clash(claim_text: str, window_text: str, sources: Sequence[str] = ()) -> str | None:
    """What the claim says is provided (or allowed) that the window says there is none of (or is not), or the
    reverse, where no source says the other way too (a thing provided in one place and not another is no clash)."""
    if _CONDITION_RE.search(claim_text):
        return None
    for kind in _KINDS:
        found = _clash(claim_text, window_text, sources, kind)
        if found:
            return found
    return None


def _clash(claim_text: str, window_text: str, sources: Sequence[str], kind: str) -> str | None:
    denied_before, denied_after, stated_before, stated_after = _KINDS[kind]
    found = [
        (m, after, True)
        for pattern, after in ((stated_before, False), (stated_after, True))
        if (m := pattern.search(claim_text))
    ]
    found = [(m, after, said) for m, after, said in found if not _NEGATED_RE.search(m.group(0))]
    found += [
        (m, after, False)
        for pattern, after in ((denied_before, False), (denied_after, True))
        if (m := pattern.search(claim_text))
    ]
    if not found:
        return None
    # The first statement is the claim's own ("Linen is included, so there's no need to pack sheets").
    match, after, said = min(found, key=lambda t: t[0].start())
    head, word = _head(match.group(1), after)
    if not head or any(other != said and _head(m.group(1), a)[0] == head for m, a, other in found):
        return None
    stated, denied = _source_things(window_text[:MAX_CHARS], kind)
    every = [_source_things(text[:MAX_CHARS], kind) for text in sources[:32]]
    if said and head in denied and not any(head in s for s, _ in every) and head not in stated:
        return f"the source says there is no {word}" if kind == "present" else f"the source does not allow {word}"
    if not said and head in stated and not any(head in d for _, d in every) and head not in denied:
        return f"the source provides {word}" if kind == "present" else f"the source allows {word}"
    return None
