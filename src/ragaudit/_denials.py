"""Denials: a predicate one side denies and the other asserts, read clause by clause, and the things an
instruction forbids ("do not use a lit match, alcohol or petroleum jelly")."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from functools import lru_cache

from ragaudit._polarity import denied_proposition, kinds_asserted, predicate_kind
from ragaudit._slot_data import INSTRUMENTAL_VERBS, NEGATIONS
from ragaudit._text import stem, with_parts
from ragaudit.slots import MAX_CHARS, Slots, extract

_CLAUSE_RE = re.compile(r"(?<=[.;:!?])\s+|\n+|\s(?=\d{1,2}\.\d{1,2}\s)")
_VERBAL_DENIAL_RE = re.compile(
    r"\b(?:do|does|did|need|must|will|shall|should|can|could|is|are|was|were)(?: not\b|n't)", re.I
)
"""A verb denied ("you do not need to claim"), not a thing ("no tiles", "not a substantial limit")."""
_CANNOT_RE = re.compile(r"\bcannot\b", re.I)
_CONDITION_RE = re.compile(r"\b(?:where|if|when|whenever|unless|provided)\b", re.IGNORECASE)
_REASON_RE = re.compile(r"\b(?:since|because)\b", re.IGNORECASE)
MAX_DENYING_SENTENCES = 512
"""Source sentences read for a denial that grounds a claim's (bounded work on a request of many sources)."""
MAX_GROUNDINGS = 4
"""Denials of the claim's looked for in other source sentences per window, at most."""
MIN_AGREEING = 3
"""Words of the claim a source sentence denying what the claim denies must hold to ground the denial."""
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|\n+")
_CONTRAST_RE = re.compile(r",\s(?=(?:while|whereas|but|except)\s)")
_EXCLUDING_RE = re.compile(r"\b(?:free\s++of|other\s++than|instead\s++of|rather\s++than|in\s++place\s++of)\b", re.I)
"""Words that deny what follows them without a negation ("free of charge" is "no charge")."""
_NEXT_WORD_RE = re.compile(r"\s++(?:(?:the|a|an)\s++)?([^\W\d_][\w'’-]*+)")


def _excluded(part: str, denied: set[str]) -> bool:
    """Whether the clause denies one of the claim's ``denied`` words by the word before it ("free of *charge*",
    "other than *English*"), not something else near it ("free of monthly fees, and overdraft fees are charged")."""
    for m in itertools.islice(_EXCLUDING_RE.finditer(part[:MAX_CHARS]), 8):
        word = _NEXT_WORD_RE.match(part, m.end())
        if word and stem(word[1].lower()) in denied:
            return True
    return False


_DENIAL_STEMS = frozenset(stem(w) for w in NEGATIONS)


def polarity_clash(
    claim: Slots, window_text: str, *, min_shared: int = 3, claim_text: str = "", sources: Sequence[str] = ()
) -> tuple[str, bool] | None:
    """A predicate the claim asserts and a clause of the window denies, or the reverse.

    Read clause by clause, each negation on the word it governs, so a denial elsewhere in a long
    passage, or two denials of different things, neither hide nor invent a clash. The clause must
    share ``min_shared`` words with the claim besides the predicate itself. Returns the predicate's
    stem and whether the *source* is the side that denies it. With ``claim_text``, a denied predicate
    the claim states in other words of its kind clashes when the claim holds every other word of what is
    denied ("the £25 joining fee is not refundable" against "you get back … the £25 joining fee").
    A denial of the claim's that a clause of ``sources`` states too, about as much of the claim's words, is no
    clash with a window stating the predicate of something else ("associates get the newsletter but no insurance").
    """
    if claim.question:
        return None
    asserted = kinds_asserted(claim_text) if claim_text and not (claim.negated_heads or claim.negated) else frozenset()
    grounding = [MAX_GROUNDINGS]  # denials looked for elsewhere per window: bounded work per claim and window
    ours = with_parts(claim.stems)
    for sentence in _CLAUSE_RE.split(window_text[:MAX_CHARS])[:64]:
        # Contrasted parts of a sentence ("… can be made, while essential amino acids cannot") speak of
        # different things: only the parts sharing most with the claim are about it.
        texts = _CONTRAST_RE.split(sentence)[:8]
        parts = [extract(part) for part in texts]
        most = max(len(ours & with_parts(theirs.stems)) for theirs in parts)
        for part, theirs in zip(texts, parts, strict=True):
            # A figure both give (the same measure, "£70") ties the clause to the claim as a shared word would, where
            # a verb is denied in so many words ("£70, which doesn't include neutering"; not "avoids", "no earlier").
            # It only adds to two words besides the predicate, never stands in for what is denied ("the £40 ticket does
            # not include parking" against "the £40 ticket includes entry"), nor reads a bound ("not more than £70").
            verbal = _VERBAL_DENIAL_RE.search(part) is not None or _VERBAL_DENIAL_RE.search(claim_text) is not None
            worded = ours & with_parts(theirs.stems)
            tied = verbal and len(worded) >= 3 and not _LIMIT_RE.search(f"{part} {claim_text}")
            figures = _shared_figures(claim, theirs) if tied else set()
            shared = worded | figures
            # A short clause the claim restates whole ("…; you do not need to claim") is about it however few its words.
            whole = (
                len(shared) >= 2
                and shared == theirs.stems - _DENIAL_STEMS  # "We cannot reupholster leather": "cannot" denies
                and not (theirs.quantifiers or claim.quantifiers)
                # "We cannot reupholster leather" restated whole; not read as a plain denial below, where "cannot …
                # online" often denies a means ("you cannot cancel online; phone the box office").
                and (_VERBAL_DENIAL_RE.search(part) is not None or _CANNOT_RE.search(part) is not None)
            )
            # A denial the claim restates in other words ("… along with the £25 joining fee") is about it, though
            # a condition follows it ("not required in scissor lifts, unless …").
            denied = extract(denied_proposition(part)) if asserted else None
            restated = bool(denied and denied.negated_heads) and len(shared) >= 2
            # A verb the clause denies in so many words that the claim states of a thing only that sentence names
            # ("nitrox does not shorten these intervals" against "breathing nitrox shortens those waiting times").
            plain = (
                _VERBAL_DENIAL_RE.search(part) is not None
                and len(shared) == 2
                and most <= 2
                and not (claim.negated_heads or claim.negated)
                and bool(shared & theirs.negated_heads)
                # The thing and the verb both told in that sentence alone: "It covers fire and theft" after "This
                # policy does not cover flood damage" states the verb of the thing again, unnamed.
                and all(_sentences_with(w, tuple(sources)) <= 1 for w in shared)
            )
            if (len(shared) < max(3, most) and not whole and not restated and not plain) or theirs.question:
                continue

            def enough(head: str, theirs: Slots = theirs, shared: set[str] = shared, whole: bool = whole) -> bool:
                # Most of the clause, or ``min_shared`` words of it, besides the predicate.
                rest = len(shared - {head})
                return whole or (rest >= 2 and rest >= min(min_shared, math.ceil(0.5 * len(theirs.stems - {head}))))

            # One side denies, the other holds no denial at all: "no outstanding recommendation" and
            # "doesn't recommend" are two ways of saying one thing, not a clash.
            # "Not required to tell" clashes only with "must tell", not with "may tell".
            if not claim.negated_heads and not claim.negated:
                for head in sorted(theirs.negated_heads - claim.nominal - claim.hypothetical):
                    if (
                        head in claim.stems
                        and (enough(head) or plain)
                        and (head not in theirs.denied_duties or claim.certain)
                    ):
                        return head, True
            reworded = _denied_in_other_words(denied, claim, asserted) if denied else None
            if reworded:
                return reworded, True
            if not theirs.negated_heads and not theirs.negated:
                for head in sorted(claim.negated_heads - theirs.nominal - theirs.hypothetical):
                    if (
                        head in theirs.stems
                        and enough(head)
                        and (head not in claim.denied_duties or theirs.certain)
                        and not _grounded(grounding, ours, head, sentence, len(shared), sources)
                        # Whole words only: a claim's "no road-crossing surcharge" is read against the source's words.
                        and enough(head, shared=claim.stems & theirs.stems | figures)
                        # "A surcharge where the main is on the far side" against "no surcharge, since the main is on
                        # your side": a predicate stated on a condition, denied for a reason the claim gives.
                        and not _reasoned_case(part, claim_text)
                        # "free of charge", "other than English", "instead of wine": the clause denies it in other words.
                        and not _excluded(part, {head, *claim.negated_stems})
                    ):
                        return head, False
    return None


_LIMIT_RE = re.compile(
    r"\b(?:(?:more|less|fewer|longer|later|earlier)\s++than|exceed|go\s++(?:over|above|past))\b", re.I
)
"""A limit, not a denial that the thing happens ("will not be charged more than £70", "should not exceed")."""
MAX_FIGURES = 8
"""Figures of a claim read as words it shares with a clause (bounded work on a claim of many)."""


def _shared_figures(claim: Slots, theirs: Slots) -> set[str]:
    """The measures (with a unit, or sums of money) both give, as pseudo-words ("#gbp:70")."""
    mine = {(q.dimension, round(q.value, 6)) for q in claim.quantities[:MAX_FIGURES] if q.dimension and q.value}
    return {
        f"#{d}:{v}" for d, v in mine if any(p.dimension == d and math.isclose(p.value, v) for p in theirs.quantities)
    }


@lru_cache(maxsize=8)  # one request's sources, read once for all its claims
def _sentence_stems(sources: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """The stems of each sentence of ``sources`` (at most :data:`MAX_DENYING_SENTENCES` sentences read)."""
    sentences = [s for text in sources for s in _SENTENCE_RE.split(text[:MAX_CHARS])[:64]][:MAX_DENYING_SENTENCES]
    return tuple(frozenset(extract(s).stems) for s in sentences)


def _sentences_with(word: str, sources: tuple[str, ...]) -> int:
    """In how many sentences of ``sources`` the stem ``word`` occurs: a word of one sentence names what it tells."""
    return sum(word in stems for stems in _sentence_stems(sources))


@lru_cache(maxsize=8)  # one request's sources, read once for all its claims
def _source_denials(sources: tuple[str, ...]) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    """Each sentence of ``sources`` that denies something (at most :data:`MAX_DENYING_SENTENCES` sentences read): its
    text, what it denies and its stems with their hyphenated parts."""
    out = []
    sentences = [s for text in sources for s in _SENTENCE_RE.split(text[:MAX_CHARS])[:64]][:MAX_DENYING_SENTENCES]
    for sentence in sentences:
        theirs = extract(sentence)
        if theirs.negated_heads or theirs.negated_stems:
            out.append(
                (sentence, frozenset(theirs.negated_heads | theirs.negated_stems), frozenset(with_parts(theirs.stems)))
            )
    return tuple(out)


def _grounded(left: list[int], ours: set[str], head: str, stating: str, shared: int, sources: Sequence[str]) -> bool:
    """:func:`_denied_too`, while ``left[0]`` lookups remain (each spends one)."""
    if left[0] <= 0:
        return False
    left[0] -= 1
    return _denied_too(ours, head, stating, shared, sources)


def _reasoned_case(part: str, claim_text: str) -> bool:
    """Whether the source states its predicate on a condition ("where the main is on the far side") and the claim
    denies it for a reason about the same thing ("since the main is on your side")."""
    condition, reason = _CONDITION_RE.search(part), _REASON_RE.search(claim_text)
    if condition is None or reason is None:
        return False
    stated, given = (
        re.split(r"[,;:]", text[at:], maxsplit=1)[0]
        for text, at in ((part, condition.end()), (claim_text, reason.end()))
    )
    return bool(extract(stated).stems & extract(given).stems)


def _denied_too(ours: set[str], head: str, stating: str, shared: int, sources: Sequence[str]) -> bool:
    """Whether a sentence of ``sources`` other than the one ``stating`` the predicate denies ``head`` too, sharing
    :data:`MIN_AGREEING` of the claim's words and as many as the stating clause (``shared``)."""
    # Whole sentences: "Associate membership is for people who do not keep bees; it includes … but not insurance";
    # "no late payment charges apply" denies the charges.
    return any(
        head in denied and stating not in sentence and len(ours & stems) >= max(MIN_AGREEING, shared)
        for sentence, denied, stems in _source_denials(tuple(sources))
    )


def _denied_in_other_words(denied: Slots, claim: Slots, asserted: frozenset[str]) -> str | None:
    """The predicate ``denied`` denies that the claim asserts in another word of its kind, holding every other
    word of what is denied ("not refundable" against "you get … back")."""
    for head in sorted(denied.negated_heads):
        rest = denied.stems - {head} - _DENIAL_STEMS  # "cannot" is the denial, not a word of what is denied
        # Every other word, or all but one of four or more ("not permitted inside or outside the hall" against
        # "allowed outside the hall": the claim names one of the places the denial covers).
        missing = len(rest - claim.stems)
        if predicate_kind(head) in asserted and len(rest) >= 2 and (missing == 0 or (missing == 1 and len(rest) >= 4)):
            return head
    return None


# "Do not use a lit match, alcohol or petroleum jelly to make …": the things up to the purpose.
_PROHIBITION_RE = re.compile(
    r"\W{0,3}(?:\d{1,2}[.)]\s{0,3})?(?:please\s)?(?:do not|don't|never)\s"
    # An instruction names a deed: "Never had potato pizza before" tells, "Don't think of …" corrects.
    r"(?!(?:had|has|was|were|been|did|think|worry|assume|believe|expect|forget|panic|feel|know|mistake|confuse)\b)"
    r"(?![a-z]{1,20}[^e\W]ed\b)"
    r"(?P<things>[^.;:]{1,200}?)(?:\s(?:to|as|because|since|so|which|unless|or else)\s|[.;:]|$)",
    re.IGNORECASE,
)
_INSTRUMENTAL = frozenset(stem(w) for w in INSTRUMENTAL_VERBS)
# "Do not give more than 20 mg in any 24-hour period" bounds an amount; it forbids nothing it names.
_BOUND_RE = re.compile(
    r"(?:[a-z]+\s){0,2}(?:(?:more|less|fewer|longer|later|earlier)\sthan|exceed|go\s(?:over|above|past))\b", re.I
)


_ABSTAINS_RE = re.compile(
    r"\b(?:wait|steer clear|stay away|keep away|hold off)\b|\bleave\b[^.;]{0,40}\balone\b",
    re.IGNORECASE,
)
"""A claim that keeps away from what it names ("wait four months … before giving", "leave the painted surface
alone"): it puts nothing to use."""


def forbidden_things(claim: Slots, window_text: str, claim_text: str = "") -> str | None:
    """What a clause of the window forbids ("Do not use alcohol or petroleum jelly to …") and the claim
    puts to use, whatever verb it uses; a denial in the claim's own condition ("if it won't come off")
    denies nothing of them, nor does a claim that keeps away from them (``claim_text``). Returns one of the
    things' stems."""
    if claim.negated_heads or claim.question or (claim_text and _ABSTAINS_RE.search(claim_text[:MAX_CHARS])):
        return None
    for clause in _CLAUSE_RE.split(window_text[:MAX_CHARS])[:64]:
        forbidden = _PROHIBITION_RE.match(clause)
        if forbidden and _BOUND_RE.match(forbidden["things"]):
            continue
        # A deed named by its own verb ("Do not *wash* any oil into the drainage") is done only with that verb; one
        # named by a verb of using ("Do not use alcohol") is done whatever the claim's verb.
        verb = stem(forbidden["things"].split()[0].lower()) if forbidden else ""
        if forbidden and verb not in _INSTRUMENTAL and verb not in claim.stems:
            continue
        shared = claim.stems & (extract(forbidden["things"]).stems - _INSTRUMENTAL) if forbidden else set()
        if len(shared) >= 2:
            return sorted(shared)[0]
    return None
