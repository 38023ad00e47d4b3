"""Who does what: the words a sentence binds to each named party, and claims that swap them.

A party's role is read from where its name stands, without a parse (linear in the text):

* a name in subject place binds the words after it, up to the next party or the clause's end
  ("Keystrel *is the authorization server: it authenticates users*");
* a name after a preposition binds the words before it ("alerts *based on forecasts supplied* by
  the Weather Office") and, after a comma, its appositive ("through Meridale, *the airline that
  issued your ticket*");
* "the R, N" and "the R is N" bind R to N.

A claim swaps roles when the words it binds to one party are words its evidence window binds to
another party, and no source binds them to the first one ("Portcullis authenticates users" where
"Keystrel … authenticates users").
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from ragaudit._mentions import index_words, words_around
from ragaudit._role_nouns import ROLE, role_forms, titled
from ragaudit._slot_data import LEXICON, MONTHS, WEEKDAYS
from ragaudit._text import LIGHT_WORDS, STOPWORDS, stem
from ragaudit.slots import MAX_CHARS, Slots, extract

_CLAUSE_RE = re.compile(r"(?<=[.;!?])\s+|\n+|\s\|\s|\s[—–]\s|[()]")
_WORD_RE = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
_PREPOSITIONS = frozenset(
    {"by", "with", "from", "through", "for", "via", "to", "under", "of", "at", "on", "in", "like", "including", "as"}
)
# "with" and "from" name company and places as often as agents ("a handshake with Raul Castro",
# "a launch from Cape Canaveral"): only these mark who did the deed.
AGENT = frozenset({"by", "through", "via"})
"""Prepositions whose object does or gives what comes before ("handled *by* N", "check in *with* N");
after the others ("a degree *at* N", "the envoy *of* N") the name only places the words."""
_COPULAS = frozenset({"is", "are", "was", "were"})
_CONJUNCTIONS = frozenset(
    {"and", "but", "so", "then", "while", "although", "though", "because", "since", "when", "where", "if", "or"}
)
_SPEECH = re.compile(
    r"(?:\s+of\s+(?:the\s+)?[A-Z][\w.&' -]{0,30}?)?,?\s+(?:" + "|".join(LEXICON["cues"]["speech"]) + r")\b"
)
"""A verb of saying right after a name (past "of The Associated Press"): the name reports, not acts."""
_SALUTATIONS = frozenset({"dear", "hi", "hello"})
_SUBORDINATE = frozenset({"that", "which", "who", "whom", "then", "also", "now"})
_COORDINATION = frozenset({"and", "or", "as", "well"})
_DETERMINERS = frozenset({"the", "a", "an", "your", "our", "its", "their", "his", "her", "same"})
_POSSESSIVE_RE = re.compile(r"(?<![\w'’-])(?:[A-Z][\w-]*+\s++){0,3}[\w-]++['’]s\s*+$")
"""A possessive that ends a text ("by the Wheelchair Service's "), from a word's start (so each run is read once)."""


def _possessive_cut(before: str, fill: str = "") -> str | None:
    """``before`` with the possessive that ends it replaced by ``fill``, or ``None`` where none ends it."""
    cut, count = _POSSESSIVE_RE.subn(fill, before)
    return cut if count else None


ROOT = 6
"""Letters of a stem compared: "underwriter" and "underwritten", "supplier" and "supplied" meet."""
MAX_CLAUSES = 64


def roots(text: str, names: frozenset[str]) -> frozenset[str]:
    """Content roots of ``text`` (no function word, generic word or name word)."""
    out = set()
    for w in _WORD_RE.findall(text.lower()):
        w = re.sub(r"['’]s$", "", w)
        if w in STOPWORDS or w in names:
            continue
        s = stem(w)
        if s not in LIGHT_WORDS and len(s) > 2 and w not in MONTHS and w not in WEEKDAYS:
            out.add(s[:ROOT])
    return frozenset(out)


def mentions(clause: str, forms: dict[str, str], order: list[str]) -> list[tuple[int, int, str]]:
    """(start, end, party) of each written name of ``forms`` (as written → party) in ``clause``, longest first
    (``order``: the names of a party, longest first)."""
    found: list[tuple[int, int, str]] = []
    for written in order:
        if written not in clause:
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(written)}(?![\w-])", clause):
            if not any(s < m.end() and m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), forms[written]))
    return sorted(found)


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    """Whole English words of the MiniLM vocabulary: one such capitalised word ("Fees", "Terminal") is
    a heading or a thing, not a party."""
    raw = resources.files("ragaudit.data").joinpath("minilm_tokenizer.json").read_text(encoding="utf-8")
    vocab = json.loads(raw)["model"]["vocab"]
    return frozenset(w for w in vocab if w.isalpha())


def _same(a: str, b: str) -> bool:
    """Whether two lower-cased names name one party: one's words within the other's, or initials."""
    wa, wb = set(a.split()), set(b.split())
    initials = "".join(w[0] for w in (b if len(wb) > 1 else a).split())
    return wa <= wb or wb <= wa or (a if len(wb) > 1 else b) == initials


def _names_of(texts: tuple[str, ...]) -> dict[str, set[str]]:
    """Lower-cased name → its written forms (without a possessive "'s") in ``texts``."""
    written: dict[str, set[str]] = {}
    for t in texts:
        for low, form in extract(t[:MAX_CHARS]).names.items():
            written.setdefault(low, set()).add(re.sub(r"['’]s$", "", form))
    return written


def _is_party(name: str, forms: set[str], initials: set[str]) -> bool:
    """A name that can be a party: no salutation ("Dear Ms Oyelaran"), no acronym that is nobody's
    initials ("JWT"), no single common word ("Fees", "Terminal")."""
    return (
        name.split()[0] not in _SALUTATIONS
        and (not any(f.rstrip("s").isupper() for f in forms) or name in initials)
        and (" " in name or not all(part in _common_words() for part in name.split("-")))
    )


@lru_cache(maxsize=4)  # the request's sources (each read to MAX_CHARS): bounded by size, not only count
def _source_parties(sources: tuple[str, ...]) -> tuple[dict[str, set[str]], frozenset[str], dict[str, str]]:
    """The sources' names, those that can be parties, and each one's party among the sources alone
    (its longest name, when its other names all fit that one), worked out once per request."""
    written = _names_of(sources)
    multi = [n for n in written if " " in n]
    initials = {"".join(w[0] for w in n.split()) for n in multi}
    names = frozenset(n for n in written if _is_party(n, written[n], initials))
    family: dict[str, str] = {}
    for n in names:
        kin = sorted((m for m in multi if m in names and _same(n, m)), key=len, reverse=True)
        family[n] = kin[0] if kin and all(_same(kin[0], m) for m in kin) else n
    return written, names, family


def party_forms(claim: str, sources: tuple[str, ...]) -> dict[str, str]:
    """Each name as written in the claim or the sources → its party: the claim's name it names
    ("Halvern Mutual Insurance Society", "ERHA" for a claim's "Eastmoor Regional Health Agency"),
    else its party among the sources. An acronym that is nobody's initials ("JWT", "API") is a thing,
    not a party; a claim's name within two different names ("Eastmoor" in two agencies' names)
    names no party; names that are no party map to ""."""
    source_written, source_names, family = _source_parties(tuple(t[:MAX_CHARS] for t in sources))
    written = {n: set(f) for n, f in source_written.items()}
    for n, f in _names_of((claim,)).items():
        written.setdefault(n, set()).update(f)
    initials = {"".join(w[0] for w in n.split()) for n in written if " " in n}
    names = source_names | {n for n in written if n not in source_written and _is_party(n, written[n], initials)}
    ours = [n for n in extract(claim[:MAX_CHARS]).names if n in names]
    distinct = [n for n in source_names if n not in ours and " " in n]
    ours = [n for n in ours if " " in n or sum(1 for d in distinct if _same(n, d)) < 2]
    out: dict[str, str] = {form: "" for n in written for form in written[n]}
    for n in names:
        owners = sorted((o for o in ours if _same(o, n)), key=len, reverse=True)
        for form in written[n]:
            out[form] = owners[0] if owners else family.get(n, n)
    return out


@lru_cache(maxsize=512)  # a request's sources, each cut to MAX_CHARS: split once, not once per claim
def _clauses(text: str) -> tuple[str, ...]:
    """The clauses of ``text`` whose words are read for roles."""
    return tuple(_CLAUSE_RE.split(text[:MAX_CHARS])[:MAX_CLAUSES])


@lru_cache(maxsize=256)  # texts cut to MAX_CHARS by the callers: at most 256 × 20,000 characters
def bindings(
    text: str, forms_key: tuple[tuple[str, str], ...], generous: bool = False, only: tuple[str, ...] = ()
) -> dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]]:
    """Party → (the roots ``text`` binds to it, those of them it names it by: "N, the R", "N is the R",
    the parties those words relate it to).

    ``generous``: every word between a party and its neighbours, for "does any source say so".
    ``only``: read only the clauses that write one of these names (each clause is read alone, so the
    parties of these names get the same answer, and the other clauses cost nothing).
    """
    forms = dict(forms_key)
    order = sorted((f for f in forms if forms[f]), key=len, reverse=True)
    # A role noun stays a word of the roles it names ("Danecroft, the customs broker"), though it anchors its own.
    name_words = frozenset(w for f, p in forms.items() if not p.startswith(ROLE) for w in f.lower().split())
    roles: dict[str, set[str]] = {}
    nouns: dict[str, set[str]] = {}
    related: dict[str, set[str]] = {}
    for clause in _clauses(text):
        if only and not any(f in clause for f in only):
            continue
        every = [m for m in mentions(clause, forms, order) if clause[m[1] : m[1] + 2] not in ("'s", "’s")]
        # A name after "at", "of", "in" … ("a degree at N", "wheat with good N") only places the
        # words around it: it binds none and leaves its neighbours' words to them.
        placed: set[tuple[int, int, str]] = set()
        examples: set[tuple[int, int, str]] = set()
        for k, m in enumerate(every):
            between = clause[every[k - 1][1] : m[0]].lower().split() if k else ["-"]
            # A name listed as an example ("like Germany, the United States and France") stands
            # where the first one does, and a speaker ("N said", "N of AP reports") reports.
            if _example(clause[: m[0]]) or (
                k and every[k - 1] in examples and set(between) <= {",", "and", "or", "the", "a", "an"}
            ):
                examples.add(m)
            # A transcript's "Siham: We've been working …" labels a speaker, as "N said" does.
            speaker = _SPEECH.match(clause, m[1], m[1] + 60) is not None or clause[m[1] : m[1] + 1] == ":"
            if m in examples or speaker or place(clause[: m[0]]) == "placed":
                placed.add(m)
        anchors = [m for m in every if m not in placed]
        backward: dict[str, str] = {}
        for start, end, party in every if generous else anchors:
            left = max((m[1] for m in anchors if m[1] <= start), default=0)
            right = min((m[0] for m in anchors if m[0] >= end), default=len(clause))
            k = int(left > 0)
            before, after = clause[left:start], clause[end:right]
            words = re.findall(r"[a-z]+|[^a-z\s]", before.lower())
            if (cut := _possessive_cut(before, " ")) is not None and place(before) in AGENT:
                words = re.findall(r"[a-z]+|[^a-z\s]", cut.lower())
            words = [w for w in words if w not in _DETERMINERS]
            # The word right before the name (past an article), if nothing but spaces comes between.
            last = words[-1] if words and before[-1:].isspace() else ""
            noun = extra = ""
            tail = before.rsplit(",", 1)[-1].lower().split()
            if k and tail and set(tail) <= _COORDINATION | _PREPOSITIONS:
                # "by A and (by) B": B shares what A's preposition binds.
                bound = backward.get(last, "")
            elif last in _PREPOSITIONS:
                bound = _agent_words(before) if last in AGENT else ""
                backward[last] = bound
            else:
                bound = after
                if before.rstrip().endswith(","):
                    # "the underwriter, Corbrook": the noun phrase before the comma.
                    phrase = before.rstrip()[:-1].rsplit(",", 1)[-1].split()
                    at = max((i for i, w in enumerate(phrase) if w.lower() in _DETERMINERS), default=-1)
                    head = phrase[at + 1 :]
                    if at >= 0 and len(head) <= 3 and not any(w.lower() in _COPULAS for w in head):
                        noun = " ".join(head)
                        if at >= 1 and phrase[at - 1].lower() in AGENT:
                            # "given by the practice nurse, Owen Lusk,": the agent's deed is the name's.
                            bound = f"{' '.join(phrase[: at - 1])} {after}"
                elif last in _COPULAS:
                    noun = before.rsplit(",", 1)[-1]
            if last in _PREPOSITIONS or generous:
                lead = after.lstrip()[1:].split(",", 1)[0] if after.lstrip().startswith(",") else ""
                first = lead.split()[0].lower() if lead.split() else ""
                # A participle (", attacking …") tells what the sentence's subject did, and a conjunction
                # starts another clause: neither is about this name.
                if first.isalpha() and first not in _CONJUNCTIONS | _PREPOSITIONS and not first.endswith(("ing", "ed")):
                    extra = lead  # ", the airline that issued your ticket", ", which owns the cables"
                    # Only a noun phrase names the party by its role; a verb phrase says what it did.
                    noun = lead if first in _DETERMINERS else ""
            else:
                following = after.lstrip(" ,").split(",", 1)[0].split()
                if following and (following[0].lower() in _DETERMINERS or following[0].lower() in _COPULAS):
                    noun = " ".join(following)  # "N, the R," or "N is the R"
            if generous:
                bound += " " + before + " " + after
            roles.setdefault(party, set()).update(roots(f"{bound} {noun} {extra}", name_words))
            nouns.setdefault(party, set()).update(roots(noun, name_words))
            # Parties the same words relate it to ("married to her husband N"): their roles are shared.
            related.setdefault(party, set()).update(p for s, _, p in placed if left <= s < right and p != party)
            # "N was created by M": the words between a party and the agent after it bind both.
            nxt = next((m for m in anchors if m[0] >= end), None)
            if nxt and not place(clause[:start]) and place(clause[: nxt[0]]) in AGENT and nxt[2] != party:
                related[party].add(nxt[2])
                related.setdefault(nxt[2], set()).add(party)
    return {p: (frozenset(r), frozenset(nouns[p]), frozenset(related[p])) for p, r in roles.items()}


_RELATIVE_RE = re.compile(r",\s*+(?:which|who|that)\s")


def _agent_words(before: str) -> str:
    """What an agent after "by" does: the words back to the last comma, or back to the subject a relative clause
    describes, with that clause ("The final proofread, which compares figures, …, is done by")."""
    relative = _RELATIVE_RE.search(before)
    if relative:
        return before[before.rfind(",", 0, relative.start()) + 1 :]
    return before.rsplit(",", 1)[-1]


def _example(before: str) -> bool:
    """Whether a name stands in a list of examples: "such as" or "like", then only names, commas,
    "and"/"or" and articles up to it ("countries such as Germany, the United States and N")."""
    low = before.lower()
    at = max(low.rfind(" like "), low.rfind(" including "), low.rfind(" such as "))
    if at < 0:
        return False
    words = before[at:].replace(",", " ").split()[1:]
    words = words[1:] if words[:1] == ["as"] else words
    return all(w[:1].isupper() or w.lower() in ("the", "and", "or", "a", "an") for w in words)


def place(before: str) -> str:
    """Where a name stands, from the words before it: ``""`` as a subject (a clause's start, after a
    conjunction, a relative or a copula), the preposition it is the agent of ("by", "with"), or
    ``"placed"`` (after a verb or another preposition: "runs N", "a degree at N", "with good N")."""
    words = [w for w in re.split(r"[^\w\s'’-]", before)[-1].lower().split() if w not in _DETERMINERS]
    # After an agent's preposition a possessive stands where an article does ("by the Wheelchair Service's engineers").
    agent = [w for w in (_possessive_cut(before) or before).lower().split() if w not in _DETERMINERS][-1:]
    if agent and agent[0] in AGENT:
        return agent[0]
    if not words or words[-1] in _CONJUNCTIONS | _COORDINATION | _COPULAS | _SUBORDINATE:
        return ""
    return words[-1] if words[-1] in AGENT else "placed"


@lru_cache(maxsize=2)  # the request's sources: its claims naming the same parties share what they are told
def _told_by(
    sources: tuple[str, ...],
) -> dict[tuple[tuple[tuple[str, str], ...], tuple[str, ...]], dict[str, frozenset[str]]]:
    """(party forms, names) → what the sources tell of those parties, filled by :func:`_told`."""
    return {}


def _told(
    sources: tuple[str, ...], key: tuple[tuple[str, str], ...], wanted: tuple[str, ...]
) -> dict[str, frozenset[str]]:
    """Party → the roots any of ``sources`` binds to it (generously), for the parties written ``wanted``."""
    memo = _told_by(sources)
    if (key, wanted) in memo:
        return memo[key, wanted]
    told: dict[str, frozenset[str]] = {}
    # Only the claim's parties are looked up in ``told``: a source that writes none of their names
    # binds them nothing (and reading every source per claim cost seconds at 500 sources).
    for text in sources:
        if not any(w in text for w in wanted):
            continue
        for p, (r, _, _) in bindings(text, key, True, wanted).items():
            told[p] = told.get(p, frozenset()) | r
    memo[key, wanted] = told
    return told


def role_swap(claim: str, window: str, sources: tuple[str, ...], min_roles: int = 2, passage: str = "") -> str | None:
    """Why the claim gives a party the role its window gives another ("'Portcullis' … 'authenticates',
    'issues' where the source says 'Keystrel' does"), when no source gives those words to the first.
    The claim's party must be named in the window's ``passage`` (the whole source), if not in it."""
    by_role = role_forms(claim, sources)
    if not extract(claim[:MAX_CHARS]).names and not by_role:
        return None  # the claim names nobody
    forms = {**party_forms(claim, sources), **by_role}
    key = tuple(sorted(forms.items()))
    claim, window, passage = claim[:MAX_CHARS], window[:MAX_CHARS], passage[:MAX_CHARS]
    sources = tuple(t[:MAX_CHARS] for t in sources)
    ours = bindings(claim, titled(claim, forms))
    if len(forms) < 2 or not ours:
        return None
    theirs = bindings(window, titled(window, forms))
    wanted = tuple(w for w, p in forms.items() if p in ours)
    told = _told(sources, key, wanted)
    roles_named = {p for w, p in by_role.items() if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", claim)}
    for party, (roles, nouns, related) in ours.items():
        if party not in theirs and party not in bindings(passage or window, key, True, wanted):
            continue  # the window's passage does not name this party: nothing to compare
        own = told.get(party, frozenset())
        for other, (their_roles, _, around) in theirs.items():
            swapped = roles & their_roles - own
            # Two words of a role, the noun the claim names the party by ("N, the gateway"), or one word
            # each way when the two parties trade places ("authorised by A and regulated by B" where the
            # window has them the other way round); not when either text relates the two parties by
            # those words ("N made a landing" where the window has "M remembers being on the N flight").
            # Trading places: each holds the other's word and keeps none of its own.
            traded = (
                other in ours
                and party in theirs
                and bool(swapped)
                and bool(ours[other][0] & theirs[party][0])
                and not roles & theirs[party][0]
                and not ours[other][0] & their_roles
            )
            # A third party both texts relate it to ("instructs a surveyor", "ordered from the British Library") is a
            # word of the role, where a party is named by its role (between two names, only a role between them).
            beside = related & around - {party, other}
            if not (party.startswith(ROLE) or other.startswith(ROLE)):
                beside &= set(by_role.values())
            if other in roles_named and not traded:
                continue  # the claim names the role it would have confused ("a nurse on board, Mary Cunningham")
            if (
                other not in related
                and party not in around
                and other != party
                and (len(swapped) + len(beside) >= min_roles or swapped & nouns or traded)
                and len(swapped) + len(beside) > len(roles & own)
            ):
                said = _shown(claim, swapped, frozenset(w for f in forms for w in f.lower().split()))
                # Each party as the claim writes it, else as the window does.
                written = {v: k for k, v in forms.items() if k in window}
                written.update({v: k for k, v in forms.items() if k in claim})
                return (
                    f"'{written.get(party, party)}' {said} where the source says that of '{written.get(other, other)}'"
                )
    return None


def _shown(text: str, roots: frozenset[str], names: frozenset[str] = frozenset()) -> str:
    """The words of ``text`` with these roots, as written ("'authenticates', 'issues'"), not those of a name."""
    words = [w for w in _WORD_RE.findall(text) if stem(w.lower())[:ROOT] in roots and w.lower() not in names]
    return ", ".join(f"'{w}'" for w in dict.fromkeys(words))


def shape(name: str) -> int:
    # "Tish County's Reese Moore" describes, "K Explained" is a figure's tail: neither is one party's name.
    words = name.split()
    plain = len(words[0]) > 1 and not any(w.endswith(("'s", "’s")) for w in words[:-1])
    return len(words) if 2 <= len(words) <= 4 and plain else 0


def name_swap(
    claim: Slots, theirs: Slots, claim_text: str, window_text: str, all_text: str, *, related: bool
) -> str | None:
    """Another party in the window's place of one the claim names: a full name the sources give
    elsewhere, or one they never give where the window names someone of the same shape ("John Smith"
    for "Maria Lopez"). Full names only (two to four words, a different last word), so a region, a
    title word, a relative or a headline is not taken for a party."""
    window_words = set(re.findall(r"[^\W\d_]+", window_text.lower()))
    source_words = index_words(all_text)
    missing = [
        n
        for n in claim.names
        if shape(n)
        and not claim.names[n].rstrip("s").isupper()
        and not set(re.findall(r"[^\W\d_]+", n)) <= window_words
    ]
    others = {
        n
        for n, written in theirs.names.items()
        if shape(n)
        and n not in claim.names
        and not written.rstrip("s").isupper()
        and not any(n in c or c in n or n.split()[-1] == c.split()[-1] for c in claim.names)
    }
    known = [n for n in missing if set(re.findall(r"[^\W\d_]+", n)) <= source_words]
    missing = known or [n for n in missing if any(shape(o) == shape(n) for o in others)]
    if not (missing and others and related):
        return None
    # The other party must stand where the claim's does: the same words around it ("Dr. Maria
    # Lopez *led the study*"), not a reporter or a headline elsewhere in the window.
    for n in missing:
        around = words_around(claim_text, claim.names[n], 3)
        if n in known and around & words_around(all_text, claim.names[n], 3):
            continue  # a source puts this party among the same words itself
        for o in sorted(others):
            if around & words_around(window_text, theirs.names[o], 3):
                return f"'{claim.names[n]}' where the source names '{theirs.names[o]}'"
    return None
