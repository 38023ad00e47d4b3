"""Duties, advice and permissions: a claim that states a duty a source only advises or permits, or the reverse."""

from __future__ import annotations

import re

from ragaudit._certainty import SENTENCE_RE
from ragaudit._text import stem
from ragaudit.slots import MAX_CHARS, extract

_DUTY_RE = re.compile(
    r"\b(?:must|ha(?:s|ve|d) to|needs? to|required|mandatory|compulsory|obliged|obligatory)\b", re.IGNORECASE
)
_ADVICE_RE = re.compile(
    r"\b(?:recommend(?:s|ed)?(?!\s++(?:retail\s++)?price)|advis(?:e|es|ed|able)|encourag(?:e|es|ed)|suggest(?:s|ed)?|"
    r"optional|ideally)\b",
    re.IGNORECASE,
)
_OPTION_RE = re.compile(r"\b(?:optional|voluntary|up\s++to\s++you|your\s++choice)\b", re.IGNORECASE)
"""A claim that leaves a deed to the reader's choice."""
_SOFT_DUTY_RE = re.compile(
    r"\b(?:may|might|could|can|not|never)\s++(?:[a-z]++\s++){0,2}?(?:required|mandatory|compulsory|obliged|needed)\b"
    r"|n't\s++(?:[a-z]++\s++){0,2}?(?:required|mandatory|compulsory|obliged|needed)\b",
    re.IGNORECASE,
)
"""A duty hedged or denied: no duty of the clause's own (a denied one is the negation detector's to compare)."""
_HEDGED_DUTY_RE = re.compile(
    r"\b(?:may|might|could|can)\s++(?:[a-z]++\s++){0,2}?(?:required|mandatory|compulsory|obliged|needed)\b",
    re.IGNORECASE,
)
_PERMITTED_RE = re.compile(r"\bmay\s++(?!not\b|be\b|have\b)(?:also\s++)?([a-z]++)")
"""A deed the source permits ("if you are unsure, you may call the helpline"); lower case: "in May 2026" is a month."""
_CONDITION_RE = re.compile(r"\b(?:if|when|whenever|should\s++you)\b", re.IGNORECASE)
_JOINED_RE = re.compile(r"\s(?:and|but|while|whereas)\s|[,;]\s")
_SCOPED_RE = re.compile(r"\b(?:except|unless|under|over|aged|only|other\s++than)\b", re.IGNORECASE)
"""Words that give a choice to some only: the claim may speak of people or things the duty leaves out."""
_EXCEPTED_RE = re.compile(r"\b(?:except|unless|other\s++than|apart\s++from)\b", re.IGNORECASE)
_PERMITTING_RE = re.compile(r"\b(?:can|may|allowed|able|welcome)\b", re.IGNORECASE)
_CONTRASTED_RE = re.compile(
    r",\s*+(?=(?:but|although|though|while|whereas|yet)\s)"
    r"(?!but\s++not\s++(?:required|compulsory|mandatory|obligatory|essential|necessary|needed)\b)"
)
"""Contrasted parts of a sentence ("Insurance is optional, but a deposit is required"); not a duty denied beside
the advice it qualifies ("encouraged, but not required, to run the check")."""
MIN_DUTY_SHARED = 2
"""Words besides the modal words a clause of the source must share with a claim (all of a shorter one's) to be
about its duty."""
_MODAL_STEMS = frozenset(
    stem(w)
    for w in ("required", "mandatory", "compulsory", "recommended", "advised", "encouraged", "optional", "voluntary")
)


def _duty_verb(text: str) -> str:
    """The stem of the verb a claim's duty governs ("you need to *ring*", "has to be *set*"), or ""."""
    duty = _DUTY_RE.search(text)
    after = re.findall(r"[a-z]++", text[duty.end() : duty.end() + 40].lower()) if duty else []
    after = [w for w in after if w not in ("be", "to", "also", "always")]
    return stem(after[0]) if after else ""


def duty_clash(claim_text: str, window_text: str) -> str | None:
    """A duty the claim states ("a helmet is required", "have to be fitted") where a clause about it in the
    source only recommends it or makes it possible ("recommended but not compulsory", "recommended and may be
    required"); a claim that advises, hedges or denies the duty itself is not one."""
    said = claim_text[:MAX_CHARS]
    duty = _DUTY_RE.search(_SOFT_DUTY_RE.sub(" ", said)) is not None
    advice = _ADVICE_RE.search(said) or _OPTION_RE.search(said)
    if duty == bool(advice):
        return None  # neither, or both ("recommended and, for under-16s, required"): nothing of one kind to compare
    ours = extract(said)
    content = ours.stems - _MODAL_STEMS
    if ours.negated or ours.question or not content or (duty and ours.hedge_word):
        return None
    # The clause that shares most of the claim is the one about its duty ("Installation must be by a licensed
    # plumber", not the next sentence's "a device is recommended").
    # Contrasted parts speak of different things ("Insurance is optional, but a deposit is required").
    clauses = [p for c in SENTENCE_RE.split(window_text[:MAX_CHARS])[:64] for p in _CONTRASTED_RE.split(c)[:8]]
    shared = [len((content & extract(clause).stems) - _MODAL_STEMS) for clause in clauses]
    best = max(shared, default=0)
    if best < min(MIN_DUTY_SHARED, len(content)) or shared.count(best) > 1:
        return None
    clause = clauses[shared.index(best)]
    if advice:
        # The reverse: advice or a choice ("encouraged to attend", "optional") where the clause states a duty of
        # what the claim tells, and of nothing else ("guests must check out by 11am and breakfast can be added" puts
        # no duty on breakfast), for everyone ("helmets must be worn by riders under 16").
        stated = _DUTY_RE.search(_SOFT_DUTY_RE.sub(" ", clause))
        if stated is None or _ADVICE_RE.search(clause) or _OPTION_RE.search(clause) or extract(clause).negated:
            return None
        # The part of the clause the duty is in, up to a coordination ("… by 11am and breakfast can be added").
        cuts = [m.end() for m in _JOINED_RE.finditer(clause, 0, stated.start())]
        end = next((m.start() for m in _JOINED_RE.finditer(clause, stated.end())), len(clause))
        duty_words = extract(clause[max(cuts, default=0) : end]).stems - _MODAL_STEMS
        # Told of some only: the claim's choice for a group ("optional for riders aged 16 and over"), or the duty
        # with its exceptions ("every field …, except the description").
        segment = clause[max(cuts, default=0) : end]
        if len(duty_words & content) < min(2, len(content)) or _SCOPED_RE.search(said) or _EXCEPTED_RE.search(segment):
            return None
        return f"advice or a choice where the source states a duty ('{stated.group()}')"
    # A permission the claim gives as well ("you can apply …, and you need to put the request in") is the
    # source's "may apply": the duty is another deed's.
    permitted = None if _PERMITTING_RE.search(said) else _PERMITTED_RE.search(clause)
    if permitted is not None and not (
        _CONDITION_RE.search(clause, 0, permitted.start()) or _duty_verb(said) == stem(permitted.group(1))
    ):
        # "If unsure, you may call" leaves the reader a choice, and "you may set the timeout" a deed "has to be set"
        # makes a duty; "you may take one bag of up to 7kg" permits another deed than "need to keep it under 7kg".
        permitted = None
    weaker = _ADVICE_RE.search(clause) or _HEDGED_DUTY_RE.search(clause) or permitted
    if weaker is None or _DUTY_RE.search(_SOFT_DUTY_RE.sub(" ", clause)):
        return None  # no weaker modality, or the clause states a duty of its own
    return f"a duty where the source says '{weaker.group()}'"
