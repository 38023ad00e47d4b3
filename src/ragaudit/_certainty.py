"""What a claim asserts as fact that its source withholds: certainty ("will") or a plain statement
of fact against a hedge on what is known (:func:`modality_clash`, which :mod:`ragaudit.matching`
re-exports), a conclusion ("so …", "therefore …"), or an effect ("emissions *are raising* blood
lead") where the source says the cause is not proven. The words live in ``data/slots.toml``
(``[cues]``); every pattern is linear-time.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence

from ragaudit._slot_data import (
    ADVICE_VERBS,
    CAUSAL,
    CAUSAL_PHRASE_RE,
    CAUSAL_PHRASES,
    CERTAIN,
    HEDGES,
    LEXICON,
    MONEY,
    UNKNOWN_PHRASES,
    causal_plain,
    words_re,
)
from ragaudit._text import STOPWORDS, stem
from ragaudit._windows import Window
from ragaudit.slots import MAX_CHARS, Slots, extract

_CONCLUSION_RE = words_re(LEXICON["cues"]["conclusions"])
_MODAL_RE = words_re(LEXICON["cues"]["modals"])
_EFFECT_RE = words_re(LEXICON["cues"]["effects"])
_UNKNOWN_RE = words_re(list(UNKNOWN_PHRASES))
_CAUSE_RE = words_re([*CAUSAL, *CAUSAL_PHRASES])
_CLAUSE_RE = re.compile(r"(?<=[.;:!?])\s+|\n+|\\n")
SENTENCE_RE = re.compile(r"(?<=[.;:!?])\s+|(?<=[.!?][\"”’)])\s+|\n+|\\n|\s(?=\d{1,2}\.\d{1,2}\s)")
"""Clauses as :mod:`ragaudit.matching` reads them (a numbered item "6.2 " starts one), and at a
line break escaped in a JSON record's text ("…this review :)\\nOur server was …")."""
_PART_RE = re.compile(r",\s*(?=(?:but|although|though|while|whereas|yet)\s)|\s(?=(?:but|although|whereas)\s)")
"""Where a sentence turns ("…, but short scripts may run slower"): a hedge after it hedges only that part."""
_EPISTEMIC_RE = words_re(LEXICON["cues"]["epistemic"])
"""Hedges on what is known, not on what is allowed ("you may apply"): what a plain fact clashes with."""
_KEPT_RE = words_re([*LEXICON["cues"]["epistemic"], *LEXICON["cues"]["attributions"]])
"""What a claim says to keep a hedge: the hedges above, or whose word it reports ("alleges")."""
_STATE_RE = words_re(LEXICON["cues"]["epistemic_states"])
_INDEFINITE_RE = re.compile(r"\b(?:anyone|anybody|someone|somebody|whoever|those|people)\s+(?:who|that)\s+$", re.I)
_BARE_MODALS = frozenset({"may", "might", "could"})
HEDGE_REACH = 24
"""Words a hedge on what is known covers, to the end of its part of the clause ("it may have been
hidden during the disorder …, when the area changed hands"): a bound on the work, not a tuned reach."""


def keeps_hedge(text: str) -> bool:
    """Whether a claim itself says how sure it is ("is thought to", "possibly") or whose word it
    reports ("the ministry alleges that …")."""
    return _KEPT_RE.search(text[:MAX_CHARS]) is not None


def closest_clause(claim: Slots, window_text: str) -> tuple[str, Slots]:
    """The clause of the window that shares the most words with the claim, and its slots: the one a hedge
    must be in to hedge what the claim states (not a quote two sentences on)."""
    clauses = [(c, extract(c)) for c in SENTENCE_RE.split(window_text[:MAX_CHARS])[:64]]
    return max(clauses, key=lambda clause: len(claim.stems & clause[1].stems))


def hedges_what_is_stated(claim: Slots, clause: str, claim_text: str) -> bool:
    """Whether a hedge of ``clause`` bears on what the claim states: any but a modal permitting a state
    other than the one the claim is sure of ("may be inoperative provided that power is available" hedges no
    "must offer power"; "may approve", "may lead to", "may have been" do hedge)."""
    words = _plain_words(clause)
    if any(w in HEDGES and w not in _BARE_MODALS for w in words):
        return True
    mine = _plain_words(claim_text)
    sure = {_governed(mine, k) for k, w in enumerate(mine) if w in CERTAIN}
    for k, w in enumerate(words):
        if w in _BARE_MODALS and (k + 1 >= len(words) or words[k + 1] != "be" or _governed(words, k) in sure):
            return True
    return False


def _plain_words(text: str) -> list[str]:
    return [w.strip(",.;:()\"'") for w in text[:MAX_CHARS].lower().split()]


def _governed(words: list[str], k: int) -> str:
    """The stem of the first content word within three after ``words[k]`` (a modal's verb or state)."""
    return next((stem(x) for x in words[k + 1 : k + 4] if x not in STOPWORDS), "")


_HAVING_RE = re.compile(r"(?<=\bhave)\s+(?:a|an|the|some|up|one|two|your|their|his|her|its|\d)\b", re.IGNORECASE)
_AS_HEDGED_RE = re.compile(r"\bas\s+(?:(?:the|a|an)\s+)?(?:most\s+)?$", re.IGNORECASE)


def hedged_parts(clause: str) -> Iterator[tuple[str, str, str]]:
    """Each part of ``clause`` with a hedge on what is known: (the words the hedge covers, those from the hedge on,
    the hedge).

    A hedge covers what follows it ("it was probably *worn* …", not the "made from eight strands"
    before it); a state covers the words on both sides ("it is unclear whether …", "… is speculative"),
    and so does a hedge that names something ("identified *the pâté as the most likely* vehicle").
    """
    for part in _PART_RE.split(clause)[:8]:
        state = _STATE_RE.search(part)
        m = state or _EPISTEMIC_RE.search(part)
        if m and not state and _HAVING_RE.match(part, m.end()):
            m = None  # "you may have a light meal": a permission to have something, not "may have been"
        # "anyone who may have known him": a hedge on whoever it may be, not on a fact.
        if m and not _INDEFINITE_RE.search(part[max(0, m.start() - 30) : m.start()]):
            # "identified the pâté *as the most likely* vehicle": the hedge covers what it names too.
            named = state or _AS_HEDGED_RE.search(part[max(0, m.start() - 20) : m.start()])
            before = part[: m.start()].split()[-HEDGE_REACH:] if named else []
            after = part[m.start() :].split()[:HEDGE_REACH]
            yield " ".join(before + after), " ".join(after), m.group()


def concludes(text: str) -> bool:
    """Whether a claim opens with a conclusion ("so …", "therefore …"): a causal link of its own."""
    m = _CONCLUSION_RE.search(text[:40])
    return m is not None and not text[: m.start()].strip(" ,;:—–-\"'“")


def plain_statement(text: str) -> bool:
    """Whether a claim states a fact with no modal verb ("can affect", "should check" state a
    possibility or advice, which a source's hedge does not contradict)."""
    return _MODAL_RE.search(text[:MAX_CHARS]) is None


def asserts_effect(text: str) -> str | None:
    """The verb by which a claim says one thing acts on another ("are raising", "reduces"), if any."""
    m = _EFFECT_RE.search(text[:MAX_CHARS])
    return m.group() if m else None


def disclaims_cause(window: str) -> str | None:
    """The words by which a clause of the window withholds a cause ("does not prove that the smelter
    caused"), if one does: the clause must both name a cause and say it is not known."""
    for clause in _CLAUSE_RE.split(window[:MAX_CHARS])[:64]:
        unknown = _UNKNOWN_RE.search(clause)
        if unknown and _CAUSE_RE.search(clause):
            return unknown.group()
    return None


def _stems(text: str) -> set[str]:
    """Content stems, word by word ("blood-lead" is blood and lead, "children's" is children)."""
    return {stem(w) for w in re.findall(r"[^\W\d_]+", text[:MAX_CHARS].lower()) if len(w) > 2 and w not in STOPWORDS}


def withheld_cause(claim: Slots, claim_text: str, window: str, min_shared: int = 3) -> str | None:
    """Why a claim asserts an effect ("emissions *are raising* blood lead") that a window about the same
    things says is not proven ("this association does not prove that the smelter caused …")."""
    if claim.hedged or claim.unknown or claim.question or len(_stems(claim_text) & _stems(window)) < min_shared:
        return None
    effect = asserts_effect(claim_text)
    open_cause = disclaims_cause(window) if effect else None
    return f"'{effect}' where the source says it does '{open_cause}' a cause" if open_cause else None


_HEDGED_SHARE = 0.4
"""Share of a hedged part's content words a plain claim must restate to be the proposition it hedges."""


def modality_clash(
    claim: Slots, window_text: str, *, min_shared: int = 3, plain: bool = False, claim_text: str = ""
) -> str | None:
    """Why the claim states as certain ("will", "must") what a clause about it only hedges ("may");
    with ``plain``, also a plain statement of fact ("were buried") against a hedge on what is known
    in a part of a clause ("it may have been hidden", "the evidence suggests … could"). None when it
    does not."""
    if claim.hedge_word or claim.unknown or claim.question or not (claim.certain or plain):
        return None
    if keeps_hedge(claim_text):
        return None  # "is thought to come from", "it is predicted that … will": the claim keeps the hedge
    # A plain statement is a weaker cue than "will": its hedged part must share more of it.
    needed = min_shared if claim.certain else max(min_shared + 1, math.ceil(0.3 * len(claim.stems)))
    for clause in SENTENCE_RE.split(window_text[:MAX_CHARS])[:64]:
        if not claim.certain:
            for scope, hedged, hedge in hedged_parts(clause):
                theirs = extract(scope)
                shared = len(claim.stems & theirs.stems)
                # The hedged words must be mostly the claim's: a hedge on something else nearby is not; and the
                # claim must state what is hedged ("identified the pâté" alone leaves "as the likely vehicle").
                if (
                    not theirs.certain
                    and shared >= needed
                    and shared >= _HEDGED_SHARE * len(theirs.stems)
                    and claim.stems & extract(hedged).stems
                ):
                    return f"a plain statement where the source says '{hedge}'"
            continue
        theirs = extract(clause)
        if (
            theirs.hedged
            and not theirs.certain
            and len(claim.stems & theirs.stems) >= needed
            and (not theirs.hedge_word or hedges_what_is_stated(claim, clause, claim_text))
        ):
            hedge = next((w for w in re.findall(r"[^\W\d_]+", clause.lower()) if w in HEDGES), "")
            return (
                f"a certain statement where the source says '{hedge}'"
                if hedge
                else "a certain statement the source hedges"
            )
    return None


_COORDINATION_RE = re.compile(r",\s(?:and|but|while|whereas|so)\s|;\s")


def causal_sides(text: str) -> tuple[str, str] | None:
    """The claim's text before and after its first causal cue ("X *because* Y"), if it has one."""
    lowered = text[:MAX_CHARS].lower()
    plain = causal_plain(lowered)
    cuts = [m.span() for m in re.finditer(r"[^\W\d_]+", plain) if m.group() in CAUSAL]
    cuts += [m.span() for m in [CAUSAL_PHRASE_RE.search(plain)] if m]
    if not cuts:
        return None
    start, end = min(cuts)
    if not text[:start].strip(" ,;:—–-\"'“"):
        # "Because you'd buy a block, your first session counts": the cause runs to the comma, the effect after.
        cause, comma, effect = text[end:].partition(",")
        return (effect, cause) if comma and effect.strip() else (text[:start], text[end:])
    # The side before the cue starts at its own clause ("Rent rises by 4.2%, and the main reason for the
    # increase is …": the increase, not the whole first clause).
    clause = max((m.end() for m in _COORDINATION_RE.finditer(text, 0, start)), default=0)
    return text[clause:start], text[end:]


def hedges_link(claim: Slots, claim_text: str) -> bool:
    """Whether the claim hedges its causal link ("probably because", "may be due to"), not just a word of its
    cause ("…, because the orchestra wanted to arrive before high winds *could* close the ferry")."""
    sides = causal_sides(claim_text)
    return claim.hedged and (sides is None or extract(sides[0]).hedged)


def sides_told(claim_text: str, window_text: str, share: float = 0.6) -> bool:
    """Whether one window holds most of the words on both sides of the claim's causal cue."""
    sides = causal_sides(claim_text)
    if sides is None:
        return False
    theirs = extract(window_text).stems
    parts = [extract(side).stems for side in sides]
    return all(part and len(part & theirs) >= share * len(part) for part in parts)


_REASON_CUE_RE = re.compile(r"\b(?:because|since|thanks\s++to|owing\s++to)\b", re.IGNORECASE)
_CONSEQUENCE_RE = re.compile(
    r"\b(?:won't|wouldn't|would|will\s++not|can't|cannot|don't|doesn't|aren't|isn't|needn't|free)\b", re.IGNORECASE
)


# A rule that applies to a case: a charge, discount or entitlement that "applies", "comes off" or "is due"
# because of what the case is or has ("Because the lot carries the † mark, import VAT of 5% applies").
_RULE_EFFECT_RE = re.compile(
    r"\b(?:appl(?:y|ies)|comes?\s++off|earns?|qualif(?:y|ies)|(?:is|are)\s++(?:added|charged|due|payable|waived|"
    r"exempt|eligible|entitled|included))\b",
    re.IGNORECASE,
)
_CASE_STATE_RE = re.compile(
    r"\b(?:(?:you|they)(?:'re|’re|\s++are|'ve|\s++have)?|your|their|is|are|has|have|carries|carry|falls?|counts?)\b",
    re.IGNORECASE,
)


def reasons_from_rule(claim_text: str) -> bool:
    """Whether the claim gives its own reasoning: a consequence for the reader ("won't cost anything extra",
    "it would be safer …") or a rule applied to the case ("10% comes off") justified by a fact about it
    ("because Silver already includes two of each", "because you're booking online"). That link is the
    answer's inference from a rule, which the claim's other words check, not a causal link between two events
    that a source would have to state ("the rise was caused by …")."""
    sides = causal_sides(claim_text)
    if sides is None or _REASON_CUE_RE.search(claim_text) is None:
        return False
    effect, cause = sides
    # A tariff (a sum or a share the effect states: "the combined fee is cut by 20%") is a rule's effect too.
    tariff = any(q.dimension in MONEY or q.dimension == "percent" for q in extract(effect).quantities)
    rule = bool(_RULE_EFFECT_RE.search(effect)) or tariff
    return bool(_CONSEQUENCE_RE.search(effect)) or bool(rule and _CASE_STATE_RE.search(cause))


# An instruction to the reader, after any condition that opens it ("If Hatchwell is your registered office,
# update …"): the verbs of advice, in the imperative.
_INSTRUCTION_RE = re.compile(
    r"\s*+(?:(?:if|when|where|once|before|after|unless|for)\b[^,]{1,160},\s*+)?(?:please\s++)?(?:(?:do\s++not|don't|"
    r"don’t|never|always)\s++)?(?:" + "|".join(ADVICE_VERBS) + r")\b",
    re.IGNORECASE,
)
_ADVICE_REASON_SHARE = 0.2
"""Share of the reason's content words (and at least one) a passage must state for advice justified by it to
keep that reason: a reason told in other words ("post goes back to the sender" for "mail will be returned to
sender") shares few, an invented one ("because parking fills up") none."""


def advice_reason_told(claim_text: str, window_texts: Sequence[str]) -> bool:
    """Whether the claim is advice ("update Companies House within 30 days") justified by a reason one passage
    states ("because post arriving after that goes back to the sender"): the link is the answer's reading of a
    rule, not a causal link between events; the advice's own words are checked as any claim's."""
    sides = causal_sides(claim_text)
    if sides is None or _REASON_CUE_RE.search(claim_text) is None or not _INSTRUCTION_RE.match(sides[0]):
        return False
    reason = extract(sides[1]).stems
    shared = (len(reason & extract(text).stems) for text in window_texts)
    return bool(reason) and any(n and n >= _ADVICE_REASON_SHARE * len(reason) for n in shared)


_REFERRAL_CONSEQUENCE_RE = re.compile(
    r"(?:^|[,;:—–-])\s*+(?:and\s++)?(?:so|which\s++means|meaning)\b[^.;\d]{0,80}?\b(?:ask|check\s++with|confirm\s++with|"
    r"contact|get\s++in\s++touch|speak\s++to|talk\s++to|(?:call|phone)(?!\s++(?:in|off|out|up)\b))\b",
    re.IGNORECASE,
)
"""A consequence ("…, so you'd need to ask them"): "so" as a conjunction after a clause, not "so busy"."""


def referral_consequence(claim_text: str) -> bool:
    """Whether the claim's consequence is only where to ask ("… on request, so you'd need to ask them about that
    leg"): advice, not a causal link of the world; what it gives as the reason is checked as any claim's words."""
    return _REFERRAL_CONSEQUENCE_RE.search(claim_text[:MAX_CHARS]) is not None


_CITED_REASON_RE = re.compile(
    r"\s*+(?:(?:the|this|that|your|its|their|our)\s++)?(?:clause|section|rule|paragraph|article|condition|term|"
    r"polic(?:y|ies)|contract|agreement|lease|regulation|law|guidance|schedule|notice|leaflet|handbook)s?\b",
    re.IGNORECASE,
)


def cites_reason(claim_text: str) -> bool:
    """Whether the claim's cause is a document's rule ("…, because clause 7.2 makes them responsible"): an
    attribution the rule's own words check, not a causal link of the world."""
    sides = causal_sides(claim_text)
    return sides is not None and _CITED_REASON_RE.match(sides[1]) is not None


_REASON_GIVEN_RE = re.compile(
    r",\s*+as\s++(?!(?:well|soon|long|far|much|many|part|of|usual|normal|such|if|though|follows|before|a|an|at|of|"
    r"from|per|with|in|to|for|on|by|is|are|was|were|necessary|possible|appropriate|applicable|below|above|"
    r"[a-z]++(?<=ed))\b)[a-z]"
    r"|\b(?:closed|shut|cancelled|canceled|suspended|delayed|postponed|halted|stopped)\s++for\s++(?!(?:\d|a|an|the|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|several|some|up|about|around|over|until|at|most|much|many|"
    r"part|another|this|that|each|every|all|good)\b)[a-z]",
    re.IGNORECASE,
)
"""A reason a source gives without a causal word ("book early, as slots fill up quickly", "closed for high winds")."""
_REASON_CHARS = 120
"""Characters of the reason read after ", as" or "closed for"."""


def tells_link(claim_text: str, window_text: str, share: float = 0.6) -> bool:
    """Whether the window states a causal link that can be the claim's: not one whose effect is the claim's cause
    and that never speaks of the claim's effect ("CW-2 tripped because of a board fault" explains the trip, not
    the overlay errors the claim blames on it)."""
    theirs = extract(window_text)
    if not theirs.causal:
        # A reason given without a causal word ("book early, as places fill up quickly") is the claim's only if
        # the claim's cause is told in it.
        given = _REASON_GIVEN_RE.search(window_text[:MAX_CHARS])
        sides = causal_sides(claim_text) if given else None
        if given is None or sides is None:
            return False
        reason = window_text[given.end() - 1 : given.end() + _REASON_CHARS]
        return bool(extract(sides[1]).stems & extract(reason).stems)
    mine, told = causal_sides(claim_text), causal_sides(window_text)
    if mine is None or told is None:
        return True
    effect, cause = (extract(side).stems for side in mine)
    explained = extract(told[0]).stems
    return not (effect and not effect & theirs.stems and cause and len(cause & explained) >= share * len(cause))


def unstated_link(claim: Slots, text: str, about: Sequence[Window], windows: Sequence[Window]) -> bool:
    """Whether the causal link a claim makes is one no window about it, nor one of the nearest, states. A claim
    that restates one passage nearly word for word, or whose cause and effect one passage tells side by side
    ("stalled after … a fallen object had blocked it"), keeps that passage's link."""
    near = [w.text for w in [*about[:3], *windows[:2]]]
    return (
        not hedges_link(claim, text)
        and not cites_reason(text)
        and not referral_consequence(text)
        and max(w.word_coverage for w in windows) < 0.75
        and not any(tells_link(text, w) for w in near)
        and not any(sides_told(text, w) for w in near)
        and not reasons_from_rule(text)
        and not advice_reason_told(text, [w.text for w in dict.fromkeys([*about[:3], *windows[:3]])])
    )
