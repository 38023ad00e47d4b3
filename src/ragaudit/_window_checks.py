"""The checks of one claim against one window about it: figures, dates, units and times (:func:`compare`),
quantifiers, certainty, names and roles. The verifier asks them of the windows closest to the claim."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from ragaudit._calendar import same_date, stated_in_context
from ragaudit._certainty import closest_clause, concludes, hedges_what_is_stated, keeps_hedge
from ragaudit._duty import duty_clash
from ragaudit._figure_context import about_the_same_figure
from ragaudit._identity import ENDS_ON_NAME_RE, identity_swap, misplaced_deed, misplaced_party
from ragaudit._rivals import date_rival, told_date
from ragaudit._roles import name_swap, role_swap
from ragaudit._scope import quantifiers_clash, restricted, table_exception
from ragaudit._slot_data import Quantity
from ragaudit._text import SENTENCE_BREAK_RE, stem
from ragaudit._verifier_model import VerifierModel
from ragaudit._windows import Window
from ragaudit.align import Alignment, SourceIndex
from ragaudit.matching import Mismatch, compare
from ragaudit.slots import MAX_CHARS, Slots, extract

MIN_TIME_CONTEXT = 3
"""Words a source sentence stating the claim's times must share with the claim for them to be stated there."""


def times_told(claim: Slots, sources: Sequence[str]) -> bool:
    """Whether one source sentence states every time of day of the claim among :data:`MIN_TIME_CONTEXT` of its
    words ("arrival at 23:30 on Thursday" where the advisory gives "Revised ETA: Thursday 11 June, 23:30" and the
    berth list another time)."""
    for text in sources:
        for sentence in SENTENCE_BREAK_RE.split(text[:MAX_CHARS])[:64]:
            theirs = extract(sentence)
            # A date the two share stands for one of the words ("23:30 on Thursday 11 June").
            dated = any(same_date(d, t) and d.day is not None for d in claim.dates for t in theirs.dates)
            if claim.times <= theirs.times and len(claim.stems & theirs.stems) + dated >= MIN_TIME_CONTEXT:
                return True
    return False


def loosely_related(model: VerifierModel, claim_text: str, claim: Slots, window: Window) -> bool:
    """Whether a window about the claim is too loosely related for a differing figure to contradict it (perhaps
    another event): neither close in meaning nor covering the claim, and not about the same figure."""
    return (
        window.word_coverage < model.contradiction_coverage
        and window.similarity < model.contradiction_similarity
        and not about_the_same_figure(claim_text, claim, window.text, extract(window.text))
    )


_NO_NOUN_RE = re.compile(r"(?<![\w-])(?:no|none of (?:the|our|its|their))\s++([^\W\d_]++)", re.IGNORECASE)
"""A noun the text quantifies with "no" ("No lender on our panel accepts …")."""
_A_FEW_RE = re.compile(r"(?<![\w-])a\s++few(?![\w-])", re.IGNORECASE)


def _quantifier_clash(
    claim: Slots, theirs: Slots, claim_text: str, window_text: str, pairs: frozenset[tuple[str, str]] | None = None
) -> Mismatch | None:
    """The claim's quantifier of a noun that the window quantifies otherwise ("all of the affected properties" where
    "most affected homes"; "a few lenders" where "no lender")."""
    # "A few" says some, not few; "no lender" says none of them.
    ours = {("some" if q == "few" and _A_FEW_RE.search(claim_text) else q, n) for q, n in claim.quantified}
    denied = {("none", stem(m[1].lower())) for m in itertools.islice(_NO_NOUN_RE.finditer(window_text[:MAX_CHARS]), 16)}
    if not quantifiers_clash(ours, set(theirs.quantified) | denied, pairs):
        return None
    said = "/".join(sorted(q for q, _ in ours))
    told = "/".join(sorted(theirs.quantifiers | {q for q, _ in denied})) or "no"
    return Mismatch("quantifier", f"'{said}' where the source says '{told}'")


_SAYS_MORE = frozenset(
    {
        ("all", "few"),
        ("all", "most"),
        ("all", "none"),
        ("most", "few"),
        ("most", "none"),
        ("some", "none"),
        ("many", "none"),
    }
)
"""Quantifier clashes where the claim says more than the source, read in a loosely related window ("several systems
work together" says that some do, not that the others do not)."""


def scope_mismatches(model: VerifierModel, claim: Slots, claim_text: str, window: Window) -> list[Mismatch]:
    """The quantifier a window restricts ("every centre" where "some centres" open) or, close in meaning, gives the
    same noun with less ("all of the affected properties" where "most affected homes"): read in a window related to
    the claim though too loosely for its figures to be compared."""
    scope = restricted(claim_text, window.text)
    if scope:
        return [Mismatch("quantifier", scope)]
    if window.similarity < model.about_similarity:
        return []
    clash = _quantifier_clash(claim, extract(window.text), claim_text, window.text, _SAYS_MORE)
    return [clash] if clash else []


def window_mismatches(
    model: VerifierModel,
    claim: Slots,
    alignment: Alignment,
    window: Window,
    pool: list[Any],
    all_text: str,
    given: Slots | None,
    index: SourceIndex,
    established: Sequence[Quantity] = (),
) -> list[Mismatch]:
    """Every slot and cue on which ``claim`` disagrees with ``window``, a window about the same thing."""
    theirs = extract(window.text)
    found = compare(
        claim,
        theirs,
        pool,
        given.quantities if given else (),
        texts=(alignment.claim.text, window.text),
        established=established,
        stated_dates=stated_in_context(alignment.claim.text, claim.dates, [s.text for s in index.sources]),
    )
    if any(m.kind == "time" for m in found) and times_told(claim, [s.text for s in index.sources]):
        found = [m for m in found if m.kind != "time"]  # stated beside the claim's words in another passage
    shared = claim.stems & theirs.stems
    similar = window.similarity >= model.about_similarity
    clash = _quantifier_clash(claim, theirs, alignment.claim.text, window.text) if similar else None
    if clash:
        found.append(clash)
    text = alignment.claim.text
    clause, near = closest_clause(claim, window.text)
    if not keeps_hedge(text) and (
        (near.hedge_word and claim.certain and not claim.hedge_word and hedges_what_is_stated(claim, clause, text))
        or (near.unknown and (claim.causal or concludes(text)) and not (claim.hedged or claim.unknown))
    ):
        found.append(Mismatch("modality", "a certain statement where the source only hedges or leaves it open"))
    dated = date_rival(alignment.claim.text, claim, window.text, theirs, [s.text for s in index.sources])
    if dated is not None and not any(m.kind == "date" for m in found):
        found.append(Mismatch("date", told_date(*dated)))
    duty = duty_clash(alignment.claim.text, window.text)
    if duty:
        found.append(Mismatch("modality", duty))
    related = window.word_coverage >= 0.6 and similar and len(shared) >= 3
    swap = name_swap(claim, theirs, alignment.claim.text, window.text, all_text, related=related)
    if swap:
        found.append(Mismatch("name", swap))
    passage = index.by_id[window.source_id].text
    texts, said = tuple(s.text for s in index.sources), alignment.claim.text
    scope = restricted(said, window.text) or table_exception(said, passage)
    if scope:
        found.append(Mismatch("quantifier", scope))
    roles = (
        role_swap(said, window.text, texts, passage=passage)
        or identity_swap(said, texts)
        or misplaced_party(said, texts)
        or misplaced_deed(said, texts)
    )
    if roles:
        found.append(Mismatch("role", roles))
    return found


_SUBJECTLESS_RE = re.compile(r"(?:is|are|was|were|has|have|had|will|would|can|could|may|must)\b")
"""A clause cut from the claim before it that opens on its verb ("is funded by N" of "…, which is funded by N")."""


def deed_in_context(before: str, claim: str, sources: tuple[str, ...]) -> str | None:
    """:func:`misplaced_deed` of a clause cut from the claim before it ("…, which is funded by N"), read after it:
    only what the clause adds (its party named in it, the claim before it read alone found nothing)."""
    if not _SUBJECTLESS_RE.match(claim) or ENDS_ON_NAME_RE.search(before):
        return None  # a clause with a subject of its own ("…, and the judging was done by N"), or of a party named last
    found = misplaced_deed(f"{before.rstrip(' ,;')}, which {claim}", sources)
    if found is None or misplaced_deed(before, sources) is not None:
        return None
    said = found.split("'")[1] if found.count("'") >= 2 else ""
    return found if said and said in claim and said not in before else None
