"""Parties named by their roles: "the lender", "our ear care nurse", "the patent attorney".

:mod:`ragaudit._roles` reads who does what for names; a role noun the claim and the sources both use names a
party as well ("Microsuction wax removal is handled by the audiology assistant" where the source has the ear
care nurse do it). A role set in apposition to a name ("Danecroft Shipping, the customs broker,") is that
party's title, not another party. Linear in the text: tokens are read once, apposition is read near each role.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from ragaudit._slot_data import DETERMINERS, LEXICON
from ragaudit._text import STOPWORDS
from ragaudit.slots import MAX_CHARS

ROLE = "role:"
"""How a party named by its role is keyed ("role:nurse"), apart from the names."""
_ROLE_NOUNS = frozenset(LEXICON["cues"]["role_nouns"])
_TOKEN_RE = re.compile(r"[\w'’-]+|[^\w\s]")
_NOT_MODIFIERS = STOPWORDS | DETERMINERS | {"by", "with", "from", "through", "for", "via", "to", "of", "at", "on", "in"}
MAX_ROLE_TOKENS = 4096
"""Tokens of one text read for role nouns."""
MAX_ROLE_FORMS = 64
"""Role forms of the sources read per request (the first ones): bounded work however many sources name roles."""
MAX_APPOSED = 16
"""Mentions of a role, names, and mentions of each name read for apposition in one text."""
_APPOSITION_GLUE_RE = re.compile(r"\s*+(?:,|\bis|\bwas|\bas)\s*+(?:(?:the|a|an|our|its|their|his|her)\s++)?")
"""What stands between a name and a role in apposition: ", the", " is the", ", our"."""


def role_noun(word: str) -> str:
    """The role noun a word is, singular ("lenders" → "lender"), else ``""``."""
    for noun in (word, word[:-1] if word.endswith("s") else "", word[:-2] if word.endswith("es") else ""):
        if noun in _ROLE_NOUNS:
            return noun
    return ""


def _mentions(text: str) -> dict[str, str]:
    """Each role noun of ``text`` as written with its modifiers ("audiology assistant") → its party ("role:assistant")."""
    tokens = [m[0] for m in itertools.islice(_TOKEN_RE.finditer(text[:MAX_CHARS]), MAX_ROLE_TOKENS)]
    found: dict[str, str] = {}
    for i, word in enumerate(tokens):
        noun = role_noun(word)
        if not noun:
            continue
        # Modifiers: the lower-case words right before it, back to a function word ("by our ear care nurse").
        start = i
        while (
            start > max(0, i - 2)
            and tokens[start - 1].replace("-", "").isalpha()
            and tokens[start - 1].islower()
            and tokens[start - 1] not in _NOT_MODIFIERS
            and not role_noun(tokens[start - 1])
        ):
            start -= 1
        found[" ".join(tokens[start : i + 1])] = ROLE + noun
        found.setdefault(word, ROLE + noun)
    return found


@lru_cache(maxsize=4)  # the request's sources (each read to MAX_CHARS): read once for all its claims
def source_roles(sources: tuple[str, ...]) -> dict[str, str]:
    """The role forms of the sources, the first :data:`MAX_ROLE_FORMS` of them."""
    found: dict[str, str] = {}
    for text in sources:
        for form, party in _mentions(text).items():
            found.setdefault(form, party)
            if len(found) >= MAX_ROLE_FORMS:
                return found
    return found


def role_forms(claim: str, sources: tuple[str, ...]) -> dict[str, str]:
    """Role nouns as the claim and the sources write them → their parties, where the claim names a role the
    sources name too: a party named by its role ("the lender") is read for who does what as a name is."""
    ours = _mentions(claim)
    if not ours:
        return {}
    theirs = source_roles(tuple(t[:MAX_CHARS] for t in sources))
    if not set(ours.values()) & set(theirs.values()):
        return {}
    return {**theirs, **ours}


def titled(text: str, forms: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The forms ``text`` is read with: a role it sets in apposition to a name ("Danecroft Shipping, the customs
    broker,", "our nurse, Priya Venn,") is that party's title there, not a party of its own."""
    titles = {p for f, p in forms.items() if p.startswith(ROLE) and f in text and _apposed(text, f, forms)}
    return tuple(sorted((f, p) for f, p in forms.items() if p not in titles))


def _apposed(text: str, role: str, forms: dict[str, str]) -> bool:
    """Whether ``role`` stands in ``text`` in apposition to a name of ``forms`` ("N, the R", "the R, N", "N is the R")."""
    names = [f for f, p in forms.items() if p and not p.startswith(ROLE) and f in text][:MAX_APPOSED]
    for m in itertools.islice(re.finditer(rf"(?<![\w-]){re.escape(role)}(?![\w-])", text), MAX_APPOSED):
        for name in names:
            for n in itertools.islice(re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), MAX_APPOSED):
                glue = text[n.end() : m.start()] if n.end() <= m.start() else text[m.end() : n.start()]
                if (n.end() <= m.start() or m.end() <= n.start()) and _APPOSITION_GLUE_RE.fullmatch(glue):
                    return True
    return False
