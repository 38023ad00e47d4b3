"""Who is who: names a text equates, and claims that give one party's title or part to another.

A text equates two parties it names side by side with nothing but a link between them:

* apposition, closed by a comma ("The Returning Officer, Chief Executive Marion Achterberg, is …",
  "Marion Achterberg, the Chief Executive, …"); a name in a list ("A, B, C and D") is no apposition;
* a copula or a part ("N is the R", "N plays R", "N as R", "N is cast as R");
* a label ("Marta Vell: Priya Keswani.") or a bracket ("Dev Raman (Electoral Registration Officer)").

A claim swaps identities when it equates two parties that the sources never equate and that the sources
each equate with someone else ("Laurel Fisk plays Marta" where the cast list has "Marta Vell: Priya
Keswani" and "Ilse Brandt: Laurel Fisk"): one party may hold two titles, so a single other identity
proves nothing; both sides taken proves a swap. Linear in the text: each clause's mentions are read once.

A claim misplaces a deed when the one source clause telling what it tells credits the deed to another party
(:func:`misplaced_deed`); the sources are read for it once per request, at most :data:`MAX_DEED_CLAUSES` clauses.
"""

from __future__ import annotations

import itertools
import math
import re
from functools import lru_cache
from typing import NamedTuple

from ragaudit._mentions import words_around
from ragaudit._polarity import DENIAL_RE
from ragaudit._role_nouns import ROLE, role_forms, source_roles, titled
from ragaudit._roles import AGENT, mentions, party_forms, place, roots, shape
from ragaudit._slot_data import LEXICON
from ragaudit._text import RECORD_FIELD_RE, SENTENCE_BREAK_RE, stem
from ragaudit.slots import MAX_CHARS, extract

_ARTICLE = r"(?:(?:the|a|an|its|their|our|your)\s++)?"
_APPOSITION_RE = re.compile(rf"\s*+,\s*+{_ARTICLE}(?:[A-Z][\w'’-]*+\s++(?:of\s++(?:the\s++)?)?){{0,3}}")
_LINK_RE = re.compile(
    rf"\s*+(?::|\()\s*+|,?\s*+(?:is|was|will\s++be|becomes|became|remains|plays|played|will\s++play|sings|sang|dances|as|"
    rf"is\s++cast\s++as|was\s++cast\s++as|is\s++played\s++by|takes\s++the\s++part\s++of)\s++{_ARTICLE}"
)
_CLAUSE_RE = re.compile(r"(?<=[.;!?])\s+|\n+|\s\|\s|\s[—–]\s")
"""Clauses as :mod:`ragaudit._roles` reads them, brackets kept: "Dev Raman (Electoral Registration Officer)"."""
MAX_CLAUSES = 64
_CLOSED_RE = re.compile(r"\s*+[,)]")
_LIST_RE = re.compile(r"\s*+,?\s*+(?:and|or)\s", re.IGNORECASE)
MAX_MENTIONS = 32
"""Mentions of one clause read (a hostile clause of hundreds of names costs no more)."""


class _Groups:
    """Parties joined into identities (union-find over a few dozen names)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, party: str) -> str:
        """The identity ``party`` belongs to."""
        root = party
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        self.parent[party] = root
        return root

    def join(self, a: str, b: str) -> None:
        """Make ``a`` and ``b`` one identity."""
        self.parent[self.find(a)] = self.find(b)

    def known(self, party: str) -> bool:
        """Whether some text equates ``party`` with anyone."""
        return party in self.parent


def _equated(text: str, forms: dict[str, str], order: list[str], groups: _Groups) -> list[tuple[str, str]]:
    """Join the parties ``text`` equates; the pairs it equates, in order."""
    pairs: list[tuple[str, str]] = []
    for clause in _CLAUSE_RE.split(text[:MAX_CHARS])[:MAX_CLAUSES]:
        found = [m for m in mentions(clause, forms, order) if m[2]][:MAX_MENTIONS]
        for k in range(len(found) - 1):
            (_, a_end, a), (b_start, b_end, b) = found[k], found[k + 1]
            if a == b or clause[b_end : b_end + 2] in ("'s", "’s"):
                continue
            gap = clause[a_end:b_start]
            if _APPOSITION_RE.fullmatch(gap):
                # Closed by a comma or bracket and not followed by the next name of a list.
                rest = clause[b_end:]
                closed = _CLOSED_RE.match(rest)
                nxt = found[k + 2][0] - b_end if k + 2 < len(found) else None
                listed = nxt is not None and (not rest[:nxt].strip(" ,") or _LIST_RE.match(rest[:nxt]) is not None)
                if not closed or listed or _LIST_RE.match(rest):
                    continue
            elif not _LINK_RE.fullmatch(gap):
                continue
            groups.join(a, b)
            pairs.append((a, b))
    return pairs


@lru_cache(maxsize=32)  # one claim's names over its request's sources: read once per claim, not per window
def _source_groups(sources: tuple[str, ...], forms_key: tuple[tuple[str, str], ...]) -> _Groups:
    forms = dict(forms_key)
    order = sorted((f for f in forms if forms[f]), key=len, reverse=True)
    groups = _Groups()
    for text in sources:
        _equated(text, forms, order, groups)
    return groups


def _short_forms(claim: str, forms: dict[str, str]) -> dict[str, str]:
    """``forms`` with a claim's one-word name mapped to the one party whose name starts with it ("Marta" for
    "Marta Vell")."""
    parties = {p for p in forms.values() if p}
    out = dict(forms)
    for written, party in forms.items():
        if not party and " " not in written and written in claim:
            owners = [p for p in parties if p.split()[0] == written.lower()]
            if len(owners) == 1:
                out[written] = owners[0]
    return out


@lru_cache(maxsize=32)  # asked once per evidence window of a claim; the answer depends on the claim alone
def identity_swap(claim: str, sources: tuple[str, ...]) -> str | None:
    """Why the claim equates two parties the sources keep apart ("'Laurel Fisk' is 'Marta' where the sources pair
    'Laurel Fisk' with 'Ilse Brandt' and 'Marta' with 'Priya Keswani'"), if it does."""
    claim = claim[:MAX_CHARS]
    sources = tuple(t[:MAX_CHARS] for t in sources)
    forms = _short_forms(claim, party_forms(claim, sources))
    order = sorted((f for f in forms if forms[f]), key=len, reverse=True)
    theirs = _source_groups(sources, tuple(sorted(forms.items())))
    ours = _Groups()
    named = list(dict.fromkeys(p for pair in _equated(claim, forms, order, ours) for p in pair))
    written = {v: k for k, v in forms.items() if k in claim}
    for written_form, party in forms.items():
        written.setdefault(party, written_form)
    for i, a in enumerate(named):
        for b in named[i + 1 :]:
            if ours.find(a) != ours.find(b) or not (theirs.known(a) and theirs.known(b)):
                continue
            if theirs.find(a) == theirs.find(b):
                continue
            other_a = next(p for p in theirs.parent if p != a and theirs.find(p) == theirs.find(a))
            other_b = next(p for p in theirs.parent if p != b and theirs.find(p) == theirs.find(b))
            return (
                f"'{written.get(a, a)}' is '{written.get(b, b)}' where the sources pair '{written.get(a, a)}' with "
                f"'{written.get(other_a, other_a)}' and '{written.get(b, b)}' with '{written.get(other_b, other_b)}'"
            )
    return None


_NAME_WORD_RE = re.compile(r"[^\W\d_]+")
_PRONOUN_RE = re.compile(r"\b(?:he|she|his|her|hers|him|they|them|their|theirs)\b", re.IGNORECASE)
MIN_PLACE = 3
"""Words besides names a source sentence must share with a claim to be the place of what the claim tells (all of a
shorter claim's, two at least)."""
PLACE_SHARE = 0.4
"""The share of the claim's words besides names that place must hold: one sentence tells most of the claim."""


def _name_stems(text: str) -> set[str]:
    """Stems of the words of the names ``text`` gives (a sentence's own party names are no words of what it tells)."""
    return {stem(w) for n in extract(text).names for w in _NAME_WORD_RE.findall(n)}


@lru_cache(maxsize=32)  # asked once per evidence window of a claim; the answer depends on the claim alone
def misplaced_party(claim: str, sources: tuple[str, ...]) -> str | None:
    """A party the claim credits with what one sentence of the sources tells of another party of its shape, the
    claim's party told of only elsewhere ("claims are handled by Sentinel Guard" where "insurance claims are
    handled by … Cavell Underwriting" and Sentinel Guard monitors the alarms)."""
    ours = extract(claim[:MAX_CHARS])
    names = {n: w for n, w in ours.names.items() if shape(n) and not w.rstrip("s").isupper()}
    if not names:
        return None
    name_stems = {stem(w) for n in names for w in _NAME_WORD_RE.findall(n)}
    content = ours.stems - name_stems
    sentences = [s for text in sources for s in SENTENCE_BREAK_RE.split(text[:MAX_CHARS])[:MAX_CLAUSES]][:256]
    shared = [len(content & (extract(s).stems - name_stems - _name_stems(s))) for s in sentences]
    best = max(shared, default=0)
    if best < min(MIN_PLACE, max(2, len(content))) or shared.count(best) > 1:
        return None  # no one sentence tells what the claim tells
    if best < PLACE_SHARE * len(content):
        return None  # the claim gathers what several sentences tell
    place = sentences[shared.index(best)]
    if _PRONOUN_RE.search(place):
        return None  # "She now manages the office": the place may speak of the claim's party without its name
    words = set(_NAME_WORD_RE.findall(place.lower()))
    theirs = extract(place).names
    for n, written in names.items():
        # Where the sources tell of this party, by its name without a title ("Giles Penrose" of "Auctioneer Giles …").
        core = " ".join(n.split()[-2:])
        own = [k for k, s in zip(shared, sentences, strict=True) if core in s.lower()]
        if set(_NAME_WORD_RE.findall(n)) & words or not own or 2 * max(own) >= best:
            continue  # named there (if only "Vergara"), nowhere (another check's), or told of much the same elsewhere
        others = [w for o, w in theirs.items() if shape(o) == shape(n) and o not in names and not w.isupper()]
        # The other party stands where the claim's does (the same words beside it), or each is the one party
        # of its sentence ("Jade Simmons is the person to contact" for "Marek Nowak (practice manager): complaints").
        around = words_around(claim, written, 4)
        alone = len(names) == 1 and len(others) == 1
        for other in others:
            if alone or around & words_around(place, other, 4):
                return f"'{written}' where the source names '{other}'"
    return None


_PART_RE = re.compile(r";\s+|,\s+(?=(?:and|but|while|whereas|so|then|which|who)\b)|\s[—–]\s|\s\((?=[^)]{0,200}\))")
"""Where a sentence's parts each tell their own deed: a semicolon, a dash, ", and …", ", which …", a bracket (not a
colon: "X-Men: Apocalypse", "Company Accountant: Rhian Pugh")."""
_DEED_PRONOUN_RE = re.compile(r"\b(?:he|she|his|her|him|they|them|their|we|our|us|it|its|this|these|those)\b", re.I)
_LIST_WORDS = frozenset({"and", "or", "alongside", "including", "with"})


def _listed(before: str) -> bool:
    """Whether a name after ``before`` is an item of a list ("A, B and C", "alongside N"): no subject of its own deed."""
    words = before[-80:].split()
    last = words[-1] if words else ""
    return (last.endswith(",") and last[:1].isupper()) or last.lower() in _LIST_WORDS


_NOUNS_TOO = frozenset({"claims", "reports", "notes", "states"})
"""Verbs of saying that are as often nouns ("claims on your insurance are handled by …")."""
_REPORTS_RE = re.compile(
    r"\b(?:"
    + "|".join(w for w in LEXICON["cues"]["speech"] if w not in _NOUNS_TOO)
    + r"|according\s+to|insists?|insisted)\b",
    re.IGNORECASE,
)
_DEED_UNSAID_RE = re.compile(f"{_DEED_PRONOUN_RE.pattern}|{_REPORTS_RE.pattern}|{DENIAL_RE.pattern}", re.IGNORECASE)
"""A place that may speak of the claim's party unnamed ("she"), reports speech, or denies the deed ("does not provide")."""
_RELATIVE_RE = re.compile(r"(?:which|who|whom|whose|that)\b", re.IGNORECASE)
ENDS_ON_NAME_RE = re.compile(r"(?<![\w.&'’-])[A-Z][\w.&'’-]*+[\s,;]*+$")
"""A part that ends on a capitalised word: a party a relative clause after it tells of ("run by the County FA")."""
_ADDRESSEE_RE = r"\b(?:dear|hi|hello)\s+(?:\w+\s+)?"
MAX_DEED_CLAUSES = 512
"""Source clauses read for the one that tells a claim's deed (bounded work on a request of many sources)."""


class _Deeds(NamedTuple):
    """What :func:`misplaced_deed` reads off a request's sources, once for all its claims."""

    forms: dict[str, str]
    """Each party name or role as the sources write it → its party (a role set in apposition to a name dropped)."""
    names: frozenset[str]
    """The words of those names (no content words of a deed)."""
    clauses: tuple[tuple[str, frozenset[str], frozenset[str], frozenset[str], frozenset[str]], ...]
    """Each clause: its text, its content roots, the parties it has act, the parties it sends the reader to ("report
    any fault to N") and every party it names."""
    same: _Groups
    """Names a clause equates ("the Tour Manager, Ingrid Solberg") are one party."""


@lru_cache(maxsize=4)  # the request's sources: read once for all its claims, at most MAX_DEED_CLAUSES clauses
def _deeds(sources: tuple[str, ...]) -> _Deeds:
    """The parties, clauses and equated names of the request's sources, for :func:`misplaced_deed`."""
    # A record's fields ('"name": "Kyle's Kitchen", "city": …') name things, not parties that act: prose only.
    every = (
        c
        for t in sources
        if not RECORD_FIELD_RE.search(t[:MAX_CHARS])
        for s in SENTENCE_BREAK_RE.split(t[:MAX_CHARS])[:MAX_CLAUSES]
        for c in _PART_RE.split(s)
        if c
    )
    texts = list(itertools.islice(every, MAX_DEED_CLAUSES))
    found = {f: p for f, p in {**party_forms("", sources), **source_roles(sources)}.items() if p}
    # A role the sources set in apposition to a name ("your customs broker, Greyquill") is that party's title (read
    # clause by clause: apposition never spans two).
    titles = {p for c in texts for p in set(found.values()) - {p for _, p in titled(c, found)}}
    forms = {f: p for f, p in found.items() if p not in titles}
    order = sorted(forms, key=len, reverse=True)
    names = frozenset(w for f in forms for w in f.lower().split())
    same = _Groups()
    clauses = []
    for c in texts:
        _equated(c, forms, order, same)
        named = mentions(c, forms, order)
        # A possessor acts through what it owns ("Tarnfield's certifying staff issue …").
        acting = frozenset(p for start, end, p in named if _acts(c, start, end, possessor=True))
        sent_to = frozenset(p for start, end, p in named if _addressed(c, start, end))
        clauses.append((c, roots(c, names), acting, sent_to, frozenset(p for _, _, p in named)))
    return _Deeds(forms, names, tuple(clauses), same)


_SENT_TO_RE = re.compile(
    r"\b(?:(?:report|send|submit|go|goes|apply|write|complain|refer|direct|forward|escalate|made|make)\w*+"
    r"(?:\s++\S++){0,6}?\s++to|call|contact|phone|ring|ask|tell)\s++(?:the\s++|your\s++)?$",
    re.IGNORECASE,
)
"""Whom a text sends the reader to: "report it to", "should be made first to", "call", "contact"."""
_DUTY_RE = re.compile(r"^['’]s\s++(?:job|responsibility|duty|role|task|decision|call)\b", re.IGNORECASE)


def _addressed(text: str, start: int, end: int) -> bool:
    """Whether the name at ``start:end`` is whom the text sends the reader to ("report it to N", "call N") or whose
    task it names ("it's N's job")."""
    return bool(_SENT_TO_RE.search(text[max(0, start - 60) : start]) or _DUTY_RE.match(text[end : end + 40]))


def _owns(text: str, end: int, named: list[tuple[int, int, str]]) -> bool:
    """Whether the possessive name ending at ``end`` owns another name within three words ("N's rehabilitation R")."""
    return any(start > end and len(text[end:start].split()) <= 3 for start, _, _ in named)


def _acts(text: str, start: int, end: int, *, possessor: bool = False) -> bool:
    """Whether the name at ``start:end`` acts: a subject or an agent, not a possessor ("Brightwater Foods' Owen Kerr")
    nor an item of a list ("alongside A, B and C")."""
    return (
        place(text[:start]) in AGENT | {""}
        and not _listed(text[:start])
        and (possessor or text[end : end + 1] not in ("'", "’"))
    )


def _claim_forms(claim: str, named: dict[str, str], theirs: dict[str, str]) -> dict[str, str]:
    """Each party name or role as the claim writes it → the sources' party it names (``named``: the claim's parties of
    every form, ``theirs``: the sources' forms); a name that is no one party of the sources is left out."""
    found = {f: p for f, p in named.items() if p}
    out: dict[str, str] = {}
    for written, party in dict(titled(claim[:MAX_CHARS], found)).items():
        if written not in claim:
            continue
        kin = {theirs[f] for f, p in found.items() if p == party and theirs.get(f)}
        if len(kin) == 1 or written in theirs:
            out[written] = next(iter(kin)) if len(kin) == 1 else theirs[written]
    return out


@lru_cache(maxsize=32)  # asked once per evidence window of a claim: one answer per claim and its request's sources
def misplaced_deed(claim: str, sources: tuple[str, ...]) -> str | None:
    """A party (by name or role) the claim credits with a deed that the one source clause telling it credits to another
    party, the claim's party told of only elsewhere ("the claimant pays the counterclaim fee" where "the defendant pays
    the counterclaim fee"). Each part of the claim naming one party is read alone ("…, on a recommendation from N")."""
    sources = tuple(t[:MAX_CHARS] for t in sources)
    deeds = _deeds(sources)
    named = {**party_forms(claim, sources), **role_forms(claim, sources)}
    forms = _claim_forms(claim, named, deeds.forms)
    if not forms:
        return None
    order = sorted(forms, key=len, reverse=True)
    read, same = deeds.clauses, deeds.same
    # The roles the claim names, not as a title of a name ("Leah Brennan, the hygienist,").
    roles = {p for _, p in titled(claim[:MAX_CHARS], named) if p.startswith(ROLE)}
    before: frozenset[str] = frozenset()
    for part in _PART_RE.split(claim[:MAX_CHARS])[:MAX_CLAUSES]:
        # The claim credits the deed to the party that acts in it, else to the one it sends the reader to ("report it
        # to N", "N's job"); a possessor is the party of what it owns ("the Wheelchair Service's engineers").
        marked = [(start, end, p) for start, end, p in mentions(part, forms, order) if not _listed(part[:start])]
        marked = [m for m in marked if not (part[m[1] : m[1] + 1] in ("'", "’") and _owns(part, m[1], marked))]
        acting = {p for start, end, p in marked if _acts(part, start, end)}
        ours = acting or {p for start, end, p in marked if _addressed(part, start, end)}
        content = roots(part, deeds.names | frozenset(w for f in forms for w in f.lower().split()))
        relative = _RELATIVE_RE.match(part) is not None
        # Whom a relative clause's subject contacts is no one the reader is sent to ("…, who contacts N").
        routed = (
            len(ours) == 1 and not acting and content and not relative and _misrouted(part, min(ours), content, deeds)
        )
        if routed:
            return routed
        # A relative clause tells of what the part before it names ("the orchid project, which is funded by N"),
        # unless that part ends on a party, which the clause then tells of ("run by the County FA, which is …").
        content, before = (
            (content | before if relative else content),
            frozenset() if ENDS_ON_NAME_RE.search(part) else content,
        )
        if len(ours) != 1 or len(content) < 2:
            continue
        (party,) = ours
        if _REPORTS_RE.search(part):
            continue  # "the attorney believes that …": what a party says or thinks is not its deed
        shared = [len(content & r) for _, r, _, _, _ in read]
        best = max(shared, default=0)
        if best < max(2, math.ceil(0.5 * len(content))):
            continue  # no one clause tells most of what this part tells
        # A party named by its role counts where the claim names that role too ("the lender" against "the borrower").
        # The party the claim sends the reader to is set against the one the place sends the reader to, if any
        # ("report the fault to N" against "the tenant reports any fault to M"), else against its actor.
        places = [
            (
                c,
                frozenset(
                    same.find(p)
                    for p in (sent_to if sent_to and not acting else q)
                    if not p.startswith(ROLE) or p in roles
                ),
                frozenset(map(same.find, every)),
            )
            for k, (c, _, q, sent_to, every) in zip(shared, read, strict=True)
            if k == best
        ]
        if any(same.find(party) in every or not q or _DEED_UNSAID_RE.search(c) for c, q, every in places):
            continue  # its party is named there, or no other, or the place may speak of it unnamed, report or deny
        if party.startswith(ROLE) and any(party[len(ROLE) :] in o for _, q, _ in places for o in q):
            continue  # one party in other words: "patent attorney" of "European Patent Attorney"
        if any(re.search(_ADDRESSEE_RE + re.escape(o.split()[-1]), c, re.I) for c, q, _ in places for o in q):
            continue  # a letter's addressee ("Dear Ms Oyelaran") is the reader, not a party that acts
        own = [k for k, (*_, every) in zip(shared, read, strict=True) if same.find(party) in map(same.find, every)]
        if not own or 2 * max(own) >= best:
            continue  # told of nowhere (another check's), or told of much the same elsewhere
        where, theirs, _ = places[0]
        said = next(f for f, p in forms.items() if p == party and f in part)
        other = next(
            (f for f, p in deeds.forms.items() if same.find(p) in theirs and f in where),
            sorted(theirs)[0].removeprefix(ROLE),
        )
        return f"'{said}' where the source has '{other}' do it"
    return None


def _misrouted(part: str, party: str, content: frozenset[str], deeds: _Deeds) -> str | None:
    """The party the sources send the reader to on the claim's matter, where the claim sends the reader to one that no
    source sends anyone to ("report faults to N" where "faults are reported to M, who contacts N"). The matter is the
    clause's own words besides its verbs of sending; a party the sources tell of on that matter as much is no error
    ("go to the Baggage Desk to make a claim" where "the Baggage Desk handles claims")."""
    same = deeds.same
    home = same.find(party)
    matter = content - _SENDING
    if not matter or DENIAL_RE.search(part) or any(home in map(same.find, sent) for *_, sent, _ in deeds.clauses):
        return None
    shared = [len(matter & (words - _SENDING)) for _, words, *_ in deeds.clauses]
    sending = [
        (k, p)
        for k, (c, words, _, sent, _) in zip(shared, deeds.clauses, strict=True)
        if k >= min(2, len(words - _SENDING)) and k and not DENIAL_RE.search(c)
        for p in sent
        if same.find(p) != home
    ]
    if not sending:
        return None
    best = max(k for k, _ in sending)
    if any(k >= best and home in map(same.find, every) for k, (*_, every) in zip(shared, deeds.clauses, strict=True)):
        return None
    others = {p for k, p in sending if k == best}
    said = next((f for f, p in deeds.forms.items() if p == party and f.lower() in part.lower()), party)
    other = next((f for f, p in deeds.forms.items() if p in others), min(others))
    return f"the reader is sent to '{said}' where the source sends it to '{other.removeprefix(ROLE)}'"


_SENDING = roots(
    "report reported reports send sent submit go goes apply write refer direct forward escalate make made call "
    "contact contacts phone ring ask tell email raise take taken",
    frozenset(),
)
"""Roots of the verbs that send the reader to a party: what a clause sends about is its other words."""
