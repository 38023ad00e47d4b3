"""What a place or a booking comes with, and what it allows: a thing the claim says is provided that a source says
there is none of ("A dishwasher is provided as well" where "There is no dishwasher"; "Bedding is provided" where
"Bedding … and kitchen packs … are not included"), or the reverse ("Life jackets are not included" where "Life
jackets … are provided free of charge"); a thing the claim says is allowed that a source bans ("Drinks are fine in
the control room" where "food and drink are not allowed in … the control room"), or the reverse. The two sentences
share little besides the thing itself, too little for a denial read word by word (:mod:`ragaudit._denials`) to
count as about the claim; the thing named is what ties them.

A thing is matched by its head word and the words before it ("no washing machine" denies no coffee machine; "no
towels" denies beach towels). Where the source says where or when ("in the studio", "on the Free plan", "on
Fridays"), the claim must name the same place or none. "Available" and "offered" say a thing can be had, perhaps at
a price: "towels are not included" does not deny "towels are available to hire", nor does "parking is available"
make "parking isn't included" wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ragaudit._text import STOPWORDS, stem
from ragaudit._textcache import text_cache
from ragaudit.slots import MAX_CHARS

_PRESENT = r"(?:provided|included|supplied|laid on|available|offered|fitted|installed)"
_BE = r"(?:is|are|will be|comes?|come)"
_ADVERB = r"(?:(?:also|all|both|always|still|usually|normally|now|each|already|generally|then) )?"
_NOT_BE = r"(?:is not|are not|isn't|aren't|will not be|won't be|not)"
_THING = r"[^\W\d][\w'’ \-,()]{0,100}?"
"""A thing named before its verb (a short noun phrase, perhaps with a list in brackets), lazily: linear, on text whose
runs of white space are single spaces (so that no space is both the name's and the gap's)."""
_NOT_WITH = r"(?:(?<=included)|(?<=available)|(?<=offered)|(?! with\b))"
"""'Every room is provided with a fan': the fan is the thing, not the room ('included with the rental' is)."""
_ITEM = r"(?:(?:an?|any|some|the) )?[^\W\d][\w\-]*+(?: (?!(?:and|or)\b)[^\W\d][\w\-]*+){0,2}"
_VERB_NEXT = r"(?! (?:is|are|was|were|has|have|had|can|will|would|may|might|must|should|do|does|did)\b)"
_AFTER = rf"({_ITEM}(?:(?: ?, ?(?:and |or )?| (?:and|or) )(?!(?:the|so|but|yet|then|which|who|that|as|if|please|we|you|they|it|this|there)\b){_ITEM}{_VERB_NEXT}){{0,6}})"
"""A thing named after its verb: up to three words, or a short list of such ('wetsuits and boards')."""

_ALLOWED = r"(?:allowed|permitted|welcome|fine|ok|okay|acceptable)"
_BANNED = r"(?:prohibited|forbidden|banned|barred)"


def _patterns(kind: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Denied before and after its verb, stated before and after it: of what there is, or of what is allowed (on
    text whose runs of white space are single spaces)."""
    if kind == "present":
        denied_before = rf"({_THING}) {_NOT_BE} {_ADVERB}{_PRESENT}\b{_NOT_WITH}"
        denied_after = (
            rf"\b(?:there (?:is|are) no|there['’]s no|there (?:isn't|aren't|is not|are not)(?: an?| any)?|(?:has|have) no"
            rf"|no(?= [\w\-]+(?: [\w\-]+)? (?:(?:is|are) )?{_PRESENT})|(?:bring|pack) (?:your|their) own"
            rf"|(?:does not|do not|doesn't|don't|cannot|can't|won't) (?:provide|include|supply|offer|cover|come with)"
            rf"|{_NOT_BE} (?:provided|supplied|fitted|equipped) with) {_AFTER}"
        )
        stated_before = rf"({_THING}) {_BE} {_ADVERB}{_PRESENT}\b{_NOT_WITH}"
        stated_after = (
            rf"\b(?:there (?:is|are)|there['’]s|provides?|includes?|supplies|supply|offers?|covers?|comes? with"
            rf"|you['’]ll find|(?:equipped|provided|supplied|fitted) with) {_AFTER}"
        )
    else:
        denied_before = rf"({_THING}) (?:{_NOT_BE} {_ADVERB}{_ALLOWED}|(?:is|are) {_ADVERB}{_BANNED})\b"
        denied_after = rf"\bno(?= [\w\-]+(?: [\w\-]+)? (?:is|are) (?:{_ALLOWED}|{_BANNED})) {_AFTER}"
        stated_before = rf"({_THING}) (?:is|are) {_ADVERB}{_ALLOWED}\b"
        stated_after = rf"\b(?:we (?:welcome|allow|accept)) {_AFTER}"
    patterns = (denied_before, denied_after, stated_before, stated_after)
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)  # type: ignore[return-value]


_KINDS = {kind: _patterns(kind) for kind in ("present", "allowed")}
_HAD_RE = re.compile(rf"\b(?:has|have|features?|boasts?|with) {_AFTER}", re.IGNORECASE)
"""A thing a place has: read only to hold back a clash."""
_MAYBE_RE = re.compile(r"\b(?:available|offered|offers?|offer)\b", re.IGNORECASE)
"""A thing one can have, perhaps at a price, rather than one given."""
_GIVEN_RE = re.compile(
    r"\b(?:provided|included|supplied|laid|provide|include|supply|cover|come|bring|pack)\b", re.IGNORECASE
)
"""A denial of a thing given ('towels are not included'), not of any to be had ('there is no sauna')."""
_NEGATED_RE = re.compile(r"\b(?:not|no|never|none|without)\b|n't\b", re.IGNORECASE)
_NEGATED_BEFORE_RE = re.compile(r"(?:\b(?:not|no|never|cannot|without)|n't) (?:[\w'’]+ )?$", re.IGNORECASE)
"""'does not *include* towels': the verb a stated thing follows is denied."""
_NO_NEED_RE = re.compile(r"(?:\b(?:not|no|never)|n't)(?: [\w'’]+){0,2} $", re.IGNORECASE)
_CONDITION_RE = re.compile(
    r"\b(?:if|unless|when|once|on request|by arrangement|extra|additional|hire|hired|rent|rented|pre-order"
    r"|add-on|optional|borrow|borrowed|buy|bought|purchase|purchased|paid|surcharge|supplement|upgrade|separately)\b"
    r"|[£$€]",
    re.IGNORECASE,
)
"""A thing provided on some condition or at a price ("bedding can be provided for £65"): no plain presence."""
_PRICED_RE = re.compile(
    r"\b(?:hire|hired|rent|rented|rental|extra|additional|charge|cost|costs|fee|paid|buy|bought|purchase)\b|[£$€]",
    re.IGNORECASE,
)
_UNTIL_RE = re.compile(r"\b(?:if|unless|once|after|before|until|while)\b", re.IGNORECASE)
_ONLY_RE = re.compile(r"\b(?:only|just|exclusively)\b", re.IGNORECASE)
_AGAIN_RE = re.compile(rf"\b(?:{_PRESENT}|can be|may be)\b", re.IGNORECASE)
"""A contrast that takes a denial back at no price ('Parking isn't included in the rate, but is available in the
garage'; 'there is no hairdryer in the rooms, but one can be borrowed')."""
_SENTENCE_RE = re.compile(r"[!?;:]|\.(?!\d)")
_CONTRAST_RE = re.compile(r"(?<! ) ++(?:but|while|whereas|although|though)\b", re.IGNORECASE)
_SPACES_RE = re.compile(r"\s+")
_CLAUSE_RE = re.compile(
    r", ?(?:and|but|so|or|while|whereas)\b|\b(?:has|have|had|get|gets|got|find|enjoy|enjoys|offers?|provides?"
    r"|includes?|features?|is|are|was|were|be|been|will|can|could|may|might|must|should|would|which|that|who|where"
    r"|when|while|so|there|yes|because|since|though|although|if|also|please|note)\b",
    re.IGNORECASE,
)
_LIST_RE = re.compile(r"[,()&]|\b(?:and|or|plus)\b", re.IGNORECASE)
_SCOPE_END_RE = re.compile(r"[,()]|\b(?:so|and|but|which|who|because|as|if|unless)\b", re.IGNORECASE)
_PREPOSITIONS = frozenset(
    [
        "for",
        "in",
        "at",
        "on",
        "from",
        "to",
        "with",
        "per",
        "during",
        "throughout",
        "under",
        "over",
        "inside",
        "outside",
        "by",
        "within",
        "across",
        "near",
        "into",
        "onto",
        "upon",
        "via",
        "after",
        "before",
        "until",
        "between",
        "among",
        "around",
        "about",
        "against",
        "beside",
        "behind",
        "below",
        "above",
        "off",
    ]
)
_VERB_WORDS = frozenset(
    [
        "provided",
        "included",
        "supplied",
        "laid",
        "available",
        "offered",
        "fitted",
        "installed",
        "equipped",
        "provide",
        "provides",
        "include",
        "includes",
        "supply",
        "supplies",
        "offer",
        "offers",
        "cover",
        "covers",
        "come",
        "comes",
        "find",
        "bring",
        "pack",
        "there",
    ]
)
_PLACE_RE = re.compile(
    r"\b(?:(?:in|at|on|during|throughout|within|after|before|until)\b|(?=(?:inside|outside)\b))(.*)", re.IGNORECASE
)
_WHEN_RE = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?|mornings?|evenings?|nights?)\b",
    re.IGNORECASE,
)
"""Where or when a thing is or is not had ('no hairdryer *in the rooms*', 'not available *on Fridays*')."""
_ARTICLES = frozenset(["a", "an", "the", "and", "or", "any", "some", "all", "every", "each", "your", "our", "their"])
_VERB_STEMS = frozenset(stem(w) for w in _VERB_WORDS)
_ANYWHERE = frozenset(stem(w) for w in ["site", "premises", "property", "grounds", "anywhere", "everywhere"])
"""Places that are everywhere ('prohibited on site')."""
_WORD_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def noun(word: str) -> str:
    """A noun's singular, lower case ('pillows' → 'pillow', 'batteries' → 'battery'): a thing's head is matched as
    written, not stemmed ('bedding' is no 'bed', 'parking' no 'park')."""
    w = word.lower().replace("-", "")
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("sses", "shes", "ches", "xes", "zes", "uses", "toes")):  # bonuses, potatoes
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


_NO_THING = frozenset(
    noun(w)
    for w in [
        "need",
        "limit",
        "charge",
        "fee",
        "cost",
        "deposit",
        "surcharge",
        "restriction",
        "minimum",
        "maximum",
        "requirement",
        "obligation",
        "way",
        "problem",
        "catch",
        "option",
        "point",
        "reason",
        "difference",
        "everything",
        "anything",
        "nothing",
        "something",
    ]
)
"""Heads that name no thing a place comes with ('there's no need to bring …', 'there are no hidden fees')."""


_OWN = "own"
_PROVENANCE = {"outside": _OWN, "own": _OWN, "bring": _OWN, "bringing": _OWN, "brought": _OWN, "external": _OWN}
"""Words that say a thing is the guest's own ('outside alcohol', 'bringing your own alcohol'): one modifier."""
_BROUGHT_IN_RE = re.compile(
    r"(?:food|drinks?|alcohol|wine|beer|caterers?|catering|trainers?|instructors?|coach(?:es)?|contractors?|suppliers?)$"
)
"""What 'outside' makes the guest's own ('outside food'); elsewhere it is a place ('outside play equipment')."""


def _owned(words: list[str]) -> bool:
    """Whether the first of ``words`` makes what follows the guest's own ('own', 'bringing'; 'outside' before food or
    drink only)."""
    return words[0] in _PROVENANCE and (words[0] != "outside" or any(_BROUGHT_IN_RE.match(w) for w in words[1:3]))


class Item(NamedTuple):
    head: str
    """The thing's last word, singular ('life *jacket*'; see :func:`noun`)."""
    mods: frozenset[str]
    """The stems of the words before it ('*washing* machine')."""
    given: bool
    """Said provided, included, supplied (not merely available or offered); denied only as such ('towels are not
    included', not 'there are no towels')."""
    word: str
    scope: frozenset[str]
    """Where or when ('in the studio', 'on the Free plan')."""


def _stems(text: str) -> frozenset[str]:
    return frozenset(
        stem(w.lower().replace("-", "")) for w in _WORD_RE.findall(text) if w.lower() not in STOPWORDS and len(w) > 2
    )


def _marks(text: str) -> frozenset[str]:
    """Every word of a text, small ones and figures too ('under 12'), content words stemmed."""
    return frozenset(stem(w) if w.isalpha() else w for w in re.findall(r"[\w\-]+", text.lower()) if w not in _ARTICLES)


def _clause(text: str) -> str:
    """A name before its verb, from its own clause on ('The studio has a kettle, and *a dishwasher* is not …')."""
    ends = [m.end() for m in _CLAUSE_RE.finditer(text)]
    return text[ends[-1] :] if ends else text


def _items(text: str, given: bool, after: bool, scope_text: str) -> list[Item]:
    """The things a name lists ('bed linen, towels and a hamper'), each without what follows its first preposition
    ('cots *for infants*'); a name after its verb ends at its first small word ('no charge *for* parking' names a
    charge; 'no towels *are* provided' names towels)."""
    named: list[tuple[list[str], str]] = []
    for part in _LIST_RE.split(text):
        words = [w.lower() for w in _WORD_RE.findall(part)]
        if not words or (words[0] in _PREPOSITIONS and not _owned(words)):
            continue
        if after:
            words = words[next((i for i, w in enumerate(words) if w not in STOPWORDS), len(words)) :]
        ends = (_PREPOSITIONS | STOPWORDS | _VERB_WORDS) if after else _PREPOSITIONS
        # 'outside alcohol': the guest's own, no place
        cut = next((i for i, w in enumerate(words) if w in ends and not (i == 0 and _owned(words))), len(words))
        post = ""
        if cut < len(words):
            at = re.search(rf"\b{re.escape(words[cut])}\b", part, re.IGNORECASE)
            post = part[at.start() :] if at else ""
        kept = [_PROVENANCE.get(w, w) if _owned(words[k:]) else w for k, w in enumerate(words[:cut])]
        named.append(([w for w in kept if (w not in STOPWORDS and len(w) > 2) or w == _OWN], post))
    own = {stem(w.replace("-", "")) for words, _ in named for w in words}
    place = _PLACE_RE.search(scope_text)
    scope = (_stems(place.group(1)) if place else frozenset()) | {stem(w.lower()) for w in _WHEN_RE.findall(scope_text)}
    scope = scope - own - _ANYWHERE - _VERB_STEMS
    found: list[Item] = []
    for words, post in named:
        if words and (head := noun(words[-1])) not in _NO_THING:
            mods = frozenset(stem(w.replace("-", "")) for w in words[:-1])
            # what follows the name narrows it as a place does ('children *under 12*', 'cots *for infants*')
            narrowed = scope | (_marks(post) - own - _ANYWHERE - _VERB_STEMS) if post else scope
            found.append(Item(head, mods, given, words[-1], narrowed))
    return found


def _read(sentence: str, pattern: re.Pattern[str], before: bool, stated: bool) -> tuple[list[Item], set[str]]:
    """The things a pattern finds in a sentence, in order, and the stems of every word of their names (to hold back a
    clash)."""
    items: list[Item] = []
    broad: set[str] = set()
    for m in pattern.finditer(sentence):
        verb = sentence[m.end(1) : m.end()] if before else m.group(0)  # ('no towels are provided')
        name = _clause(m.group(1)) if before else m.group(1)
        ahead = sentence[: m.start()][-40:]
        if stated and (_NEGATED_RE.search(name + (verb if before else "")) or _NEGATED_BEFORE_RE.search(ahead)):
            continue
        if not stated and not before and _NO_NEED_RE.search(ahead):  # 'you don't need to *bring your own* helmet'
            continue
        rest = sentence[m.end() :]
        end = _SCOPE_END_RE.search(rest)
        scope_text = (name if before else m.group(1)) + " " + (rest[: end.start()] if end else rest)
        given = not _MAYBE_RE.search(verb) if stated else bool(_GIVEN_RE.search(verb))
        found = _items(name, given, not before, scope_text)
        items += found
        broad |= {i.head for i in found}
        if stated:  # every word of a name read as present holds back a clash ('the studio has a kettle and a toaster')
            broad |= {noun(w) for w in _WORD_RE.findall(m.group(1))}
    return items, broad


def _told(sentence: str, kind: str) -> tuple[list[Item], list[Item], set[str], set[str]]:
    """The things a sentence says there are (or are allowed) and those it says there are none of (or are not), each
    precisely, then broadly."""
    denied_before, denied_after, stated_before, stated_after = _KINDS[kind]
    denied, denied_broad = _read(sentence, denied_before, True, False)
    more, wide = _read(sentence, denied_after, False, False)
    denied += more
    denied_broad |= wide
    stated, stated_broad = _read(sentence, stated_before, True, True)
    more, wide = _read(sentence, stated_after, False, True)
    stated += more
    stated_broad |= wide
    if kind == "present":
        stated_broad |= _read(sentence, _HAD_RE, False, True)[1]
    if _CONDITION_RE.search(sentence) or _ONLY_RE.search(sentence):  # at a price, on a condition, or only somewhere
        stated = []
    if _UNTIL_RE.search(sentence):  # none only for a while ('no refunds after the course has started')
        denied = []
    return stated, denied, stated_broad, denied_broad


Things = tuple[tuple[Item, ...], tuple[Item, ...], frozenset[str], frozenset[str]]


@lru_cache(maxsize=256)  # a request's sources, read for each of its claims (texts cut to MAX_CHARS)
def _source_things(text: str, kind: str) -> Things:
    stated: list[Item] = []
    denied: list[Item] = []
    stated_broad: set[str] = set()
    denied_broad: set[str] = set()
    for sentence in _SENTENCE_RE.split(_SPACES_RE.sub(" ", text.replace("\n", ". "))):
        prior: list[Item] = []
        for k, piece in enumerate(_CONTRAST_RE.split(sentence)):
            s, d, sb, db = _told(piece, kind)
            taken_back = k and _AGAIN_RE.search(piece) and not _PRICED_RE.search(piece)
            if taken_back and not d and not _NEGATED_RE.search(piece):
                denied = [i for i in denied if i not in prior]  # taken back, at no price: there after all
                stated_broad |= {i.head for i in prior}
            prior = d
            stated += s
            denied += d
            stated_broad |= sb
            denied_broad |= db
    return tuple(stated), tuple(denied), frozenset(stated_broad), frozenset(denied_broad)


def _clash(denial: Item, statement: Item, claim: Item, claim_words: frozenset[str]) -> bool:
    """A denial of a thing against a statement of it: the same head, the denial no narrower ('no towels' denies
    beach towels; 'no washing machine' does not deny a coffee machine), not 'not included' against 'available', and
    the source's place or time the claim's own, or the claim naming none."""
    source = statement if denial is claim else denial
    return (
        denial.head == statement.head
        and denial.mods <= statement.mods
        and (statement.given or not denial.given)  # 'not included' against 'available' is no clash
        and (not claim.scope or source.scope <= claim_words or claim.scope <= source.scope)
    )


def presence_clash(claim_text: str, window_text: str, sources: Sequence[str] = ()) -> str | None:
    """What the claim says is provided (or allowed) that the window says there is none of (or is not), or the
    reverse, where no source says the other way too (a thing provided in one place and not another is no clash)."""
    claim_text = _SPACES_RE.sub(" ", claim_text)[:MAX_CHARS]
    if _CONDITION_RE.search(claim_text):
        return None
    for kind in _KINDS:
        found = _kind_clash(claim_text, window_text, sources, kind)
        if found:
            return found
    return None


@text_cache(max_chars=1_000_000, max_entries=512)  # a claim is read against each of its windows: once, not per window
def _claim_told(claim_text: str) -> dict[str, tuple[list[Item], list[Item], set[str], set[str]]]:
    return {kind: _told(claim_text, kind) for kind in _KINDS}


def _kind_clash(claim_text: str, window_text: str, sources: Sequence[str], kind: str) -> str | None:
    stated, denied, _, _ = _claim_told(claim_text)[kind]
    if not (stated or denied) or {i.head for i in stated} & {i.head for i in denied}:
        return None
    words = _stems(claim_text) | _marks(claim_text)
    window = _source_things(window_text[:MAX_CHARS], kind)
    every = [_source_things(text[:MAX_CHARS], kind) for text in sources[:32]]
    for item in stated:
        hit = next((d for d in window[1] if _clash(d, item, item, words)), None)
        if hit and item.head not in window[2] and not any(item.head in s[2] for s in every):
            return (
                f"the source says there is no {item.word}"
                if kind == "present"
                else f"the source does not allow {item.word}"
            )
    for item in denied:
        hit = next((s for s in window[0] if _clash(item, s, item, words)), None)
        if hit and item.head not in window[3] and not any(item.head in s[3] for s in every):
            return f"the source provides {item.word}" if kind == "present" else f"the source allows {item.word}"
    return None
