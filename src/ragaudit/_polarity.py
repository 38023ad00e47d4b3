"""What each denial and quantifier in a text governs: the polarity slots of :func:`ragaudit.slots.extract`.

A negation denies the content word it governs ("no yield benefit" denies the benefit), not every word
near it; conditions, purposes, questions put indirectly and told experiences deny nothing.
"""

from __future__ import annotations

import re

from ragaudit import _slot_data as lex
from ragaudit._slot_data import Slots
from ragaudit._text import LIGHT_WORDS, STOPWORDS, stem

_AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could", "would", "should", "will"}
)
_PREVENTING = frozenset({"prevent", "prevents", "prevented", "preventing"})
_CLAUSE_BREAKS = frozenset({",", ";", ":", ".", "and", "or", "but", "nor", "while", "whereas"})


def read_polarity(text: str, tokens: list[tuple[str, str, int, int]], slots: Slots) -> None:
    """Fill ``slots``' denials, hypothetical words and quantifiers from the tokens of ``text``."""
    negations = 0
    last_denial, denied = -1, ""
    conditioned: set[int] = set()
    scope_end = -1  # end of the current "if …," / "whether …" / "so that …" clause
    for i, (kind, raw, start, _) in enumerate(tokens):
        if kind != "word":
            continue
        lower = raw.lower().replace("’", "'")
        nxt = tokens[i + 1][1].lower() if i + 1 < len(tokens) else ""
        # "asks him why is he not shocked": a question put indirectly denies nothing ("this is why
        # it is not used" does, so only "why" before an auxiliary opens one).
        asking = lower == "why" and nxt in _AUXILIARIES
        # "Chairs are provided" tells a deed; "provided you book" sets a condition.
        passive = lower == "provided" and i > 0 and tokens[i - 1][1].lower() in (*_AUXILIARIES, "be", "been", "being")
        if (lower in lex.HYPOTHETICAL or asking) and start > scope_end and not passive:
            stops = [p for p in (text.find(c, start) for c in ",;:.?!") if p >= 0]
            scope_end = min(stops, default=len(text))
        hypothetical = start < scope_end
        if hypothetical and lower not in STOPWORDS:
            slots.hypothetical.add(stem(lower))
        # "minority Shiites", "the majority Sunni country" name a group; "a minority of voters" counts.
        if lower in lex.QUANTIFIER_CLASS and (lower not in ("minority", "majority") or nxt == "of"):
            slots.quantifiers.add(lex.QUANTIFIER_CLASS[lower])
            after = [t[1].lower() for t in tokens[i + 1 : i + 5] if t[0] == "word"]
            noun = next((stem(w) for w in after if w not in STOPWORDS and w not in LIGHT_WORDS), "")
            if noun:
                slots.quantified.add((lex.QUANTIFIER_CLASS[lower], noun))
        prev = tokens[i - 1][1].lower() if i else ""
        if prev in lex.DETERMINERS:
            slots.nominal.add(stem(lower))
        if lower == "no" and (
            nxt in ("later", "earlier", "sooner", "more", "less", "fewer", "longer", "than")
            or nxt in ("frills", "nonsense", "fuss", "doubt", "matter", "wonder")
            or (
                prev in ("say", "says", "said")
                and (nxt == "to" or not text[tokens[i][3] : tokens[i][3] + 8].lstrip()[:1].isalnum())
            )
        ):
            # "no later than" is a bound, "no-frills" a kind and "say no (to it)" a refusal, not a denial ("says no
            # pets are allowed" reports one).
            continue
        if raw == "None" and i:
            continue  # a programming language's null ("base_url=None"), not a denial
        if lower == "not" and nxt in ("just", "only", "merely", "simply"):
            continue  # "not just a restaurant but also a deli" adds, it does not deny
        if lower in ("failure", "absence") and nxt not in ("to", "of"):
            continue  # "failure to pay" denies the paying; "the original failure was covered" denies nothing
        if lower in ("fail", "fails", "failed", "failing") and nxt != "to":
            # "failed to pay" denies the paying; "failed queens" are queens; "heating or hot water failing" denies
            # the heating and hot water, as "no heating or hot water" does ("any wafer fails inspection" does not:
            # what fails there is the inspection).
            before = [t[1].lower() for t in tokens[max(0, i - 4) : i] if t[0] == "word"]
            intransitive = not nxt or nxt in STOPWORDS or not nxt[:1].isalnum()
            if before and _content(before[-1]) and prev not in lex.DETERMINERS and intransitive and not hypothetical:
                negations += 1
                failed = [stem(w) for w in before if _content(w)]
                slots.negated_heads.update(failed)
                slots.negated_stems.update(failed)
            continue
        if lower in ("excluded", "exempt") and nxt != "from":
            continue  # "exempt from the fee" denies the fee; "exempt staff" are staff
        if (lower in lex.NEGATIONS or lower.endswith("n't")) and _bounds(tokens, i):
            continue  # "can't be more than two years old", "must not exceed 25 kg": a bound, as "no more than" is
        if lower in lex.NEGATIONS or lower.endswith("n't"):
            negations += 1
            between = [t[1].lower() for t in tokens[last_denial + 1 : i]] if last_denial >= 0 else [","]
            # Punctuation is no token: "not charged …, as the rules do not allow it" denies twice, in two clauses.
            broken = last_denial < 0 or any(c in text[tokens[last_denial][3] : start] for c in ",;:.")
            last_denial = i
            if len(between) <= 8 and not set(between) & _CLAUSE_BREAKS and not broken:
                # "never had a problem with the staff not wearing masks": the second denial undoes the first.
                slots.negated_heads.discard(denied)
                denied = ""
                continue
            if not slots.negated_head:
                following_head = [t[1].lower() for t in tokens[i + 1 : i + 6] if t[0] == "word"]
                heads = [stem(w) for w in following_head if _content(w)]
                slots.negated_head = heads[0] if heads else ""
            following = [t[1].lower() for t in tokens[i + 1 : i + 8] if t[0] == "word"]
            if lower in _PREVENTING and "from" in following:
                # "prevent Vergara from destroying the embryos" denies the destroying, not Vergara.
                following = following[following.index("from") + 1 :]
            content = [stem(w) for w in following if _content(w)]
            slots.negated_stems.update(content[:3])
            # "may not share … without consent" permits sharing on a condition: neither "share" nor
            # "consent" is denied.
            condition = next(
                (k for k in range(i + 1, min(len(tokens), i + 12)) if tokens[k][1].lower() in lex.CONDITIONS), None
            )
            if condition is not None:
                conditioned.add(condition)
            elif lower == "never" and any(t[1].lower() == "before" for t in tokens[i + 1 : i + 9]):
                pass  # "never had Roman-style pizza before" denies a past, not the pizza now had
            elif content and i not in conditioned and lower != "without" and not hypothetical:
                # "if it won't start", "so they don't swallow": a condition or a purpose, not a denial.
                duty = _duty_verb(tokens, i)
                if duty:
                    slots.denied_duties.add(duty)
                denied = duty or (_noun_head(text, tokens, i) if lower == "no" else "") or content[0]
                slots.negated_heads.add(denied)
    slots.negated = negations % 2 == 1


_COMPARATIVES = frozenset(
    {"more", "less", "fewer", "longer", "later", "earlier", "older", "younger", "higher", "lower", "greater", "heavier"}
)


def _bounds(tokens: list[tuple[str, str, int, int]], i: int) -> bool:
    """Whether the denial at ``i`` sets a bound on a figure: "not (be) more than …", "cannot exceed …"."""
    after = [t[1].lower() for t in tokens[i + 1 : i + 4] if t[0] == "word"]
    after = after[1:] if after[:1] == ["be"] else after
    if after[:1] == ["exceed"] or after[:2] in (["go", "over"], ["go", "above"], ["go", "beyond"]):
        return True
    return bool(after) and after[0] in _COMPARATIVES and after[1:2] == ["than"]


def _content(word: str) -> bool:
    """A word a denial can govern: not a function word, a light word or an adverb of time ("not yet")."""
    return word not in STOPWORDS and word not in LIGHT_WORDS and word not in lex.NEGATION_ADVERBS


_DUTIES = frozenset({"obligation", "requirement", "duty", "need", "obliged", "required", "bound", "expected"})


def _duty_verb(tokens: list[tuple[str, str, int, int]], i: int) -> str:
    """The deed a denied duty is about: "under no obligation to tell", "not required to display" deny the
    telling and the displaying (as "must tell" asserts it), not the obligation as a thing."""
    words = [t[1].lower() for t in tokens[i + 1 : i + 5] if t[0] == "word"]
    for k, w in enumerate(words[:-2]):
        if w in _DUTIES and words[k + 1] == "to" and _content(words[k + 2]):
            return stem(words[k + 2])
    return ""


def _noun_head(text: str, tokens: list[tuple[str, str, int, int]], i: int) -> str:
    """The head of the noun phrase a "no" at ``i`` denies: the last of the content words right after it
    ("no yield benefit" denies a benefit, not yields), up to any punctuation ("at no extra charge, routine
    X-rays" denies the charge)."""
    run: list[str] = []
    end = tokens[i][3]
    for kind, raw, start, stop in tokens[i + 1 : i + 5]:
        word = raw.lower()
        if kind != "word" or word in STOPWORDS or word in LIGHT_WORDS or text[end:start].strip():
            break
        run.append(word)
        end = stop
    return stem(run[-1]) if run else ""


# Predicates that say one thing in several words: a source denying one ("is not refundable") is denied by a
# claim asserting another of its kind ("you'll get it back"). Permission ("can", "may") is left out: too
# many sentences say what one can do for a denial nearby to be about them; but a thing that "can be done" is
# one the claim says is accepted, and the denial must hold every other word of the claim's to clash.
_KINDS = {
    "permission": r"allow(?:s|ed)?|permit(?:s|ted)?|eligible|entitled|qualif(?:y|ies|ied)|available|accept(?:s|ed)?|"
    r"can\ (?:also\ |still\ )?be\ (?:done|added|run|processed|carried\ out)",
    "requirement": r"requir(?:e|es|ed)|must|needs?\ to|needed|ha(?:s|ve|d)\ to|obliged|compulsory|mandatory",
    "refund": r"refund(?:s|ed|able)?|repa(?:id|y|ys)|reimburs(?:e|es|ed)|get\ (?:\w+\ ){0,4}?back|money\ back",
    "counting": r"counts?|counted|comes?\ out\ of|deducted\ from",
}
_KIND_RES = {kind: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for kind, words in _KINDS.items()}
_STEM_KINDS = {
    stem(w): kind
    for kind, words in {
        "permission": ("allowed", "permitted", "eligible", "entitled", "qualify", "available", "accepted"),
        "requirement": ("required", "obliged", "compulsory", "mandatory", "needed"),
        "refund": ("refundable", "refunded", "repaid", "reimbursed"),
        "counting": ("counts", "counted"),
    }.items()
    for w in words
}
DENIAL_RE = re.compile(r"\b(?:not|never|cannot)\b|n't\b", re.IGNORECASE)


def predicate_kind(head: str) -> str | None:
    """The kind of predicate a denied stem is (``refund`` for "refundable"), if it is one of several words."""
    return _STEM_KINDS.get(head)


def kinds_asserted(text: str) -> frozenset[str]:
    """The kinds of predicate ``text`` states in any of their words ("has to wear" states a requirement)."""
    return frozenset(kind for kind, pattern in _KIND_RES.items() if pattern.search(text[:2000]))


def denied_proposition(text: str) -> str:
    """What a clause's first denial denies, up to the next comma ("Harnesses are not required in scissor
    lifts" of "…, unless the lift plan identifies a risk"); "" without a denial."""
    denial = DENIAL_RE.search(text[:2000])
    if denial is None:
        return ""
    end = min((p for p in (text.find(c, denial.end()) for c in ",;:") if p >= 0), default=len(text))
    return text[:end]
