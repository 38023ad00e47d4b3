"""Pair-level verification: a claim against its best evidence windows, slot by slot.

For each claim the candidate windows are the units the lexical alignment chose, the units
closest in meaning (MiniLM embeddings), and each of those with its neighbour. Each window gets
a similarity (cosine) and a lexical coverage; the best is the one *about* the claim. Then:

1. **slots** (:mod:`ragaudit.slots`) compared with that window: a number, date, unit or time
   that differs contradicts; one the sources never state is an unsupported detail;
2. **cues** compared on the aligned predicate: negation flips, quantifier changes, certainty the
   source withholds (``may`` → ``will``, "still under investigation" → a cause), causal links no
   window makes, names the window gives to someone else;
3. a **learned model** (logistic, over similarity, coverage, novelty and the detectors; trained by
   ``benchmarks/train_verifier.py``) gives the probability that a claim with no detector firing is
   still not supported. Its weights and every threshold ship in ``verifier_model.json``.
Each result names the signal that decided it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ragaudit._budget import EmbeddingBudget
from ragaudit._calendar import date_derived, date_span, in_date, same_date, shift_told, unstated_dates
from ragaudit._certainty import plain_statement, unstated_link, withheld_cause
from ragaudit._denials import forbidden_things, polarity_clash
from ragaudit._figures import FigurePool, working_days_read
from ragaudit._mentions import (
    counts_list,
    novel_literals,
    novel_name,
    owned_names,
    particular,
    refers_back,
    share_in_words,
)
from ragaudit._pair import Earlier, PairResult
from ragaudit._presence import presence_clash
from ragaudit._reckoning import WORKED_ACROSS, itemised, read_pool, reckoned
from ragaudit._rivals import first_rival
from ragaudit._slot_data import APPROX, MONEY, UNIT_WORDS, WORKING_OUT, Quantity
from ragaudit._text import LIGHT_WORDS, stem
from ragaudit._verifier_model import VerifierModel, claim_features, load_model
from ragaudit._window_checks import deed_in_context, loosely_related, scope_mismatches, window_mismatches
from ragaudit._windows import candidate_windows, unit_positions, unit_vectors
from ragaudit._working import calendar_factors, shown_working, working_voice
from ragaudit.align import Alignment, SourceIndex, align
from ragaudit.embed import embed
from ragaudit.matching import (
    Mismatch,
    date_slips,
    modality_clash,
    quantity_supported,
    unit_converted,
    unsupported_figures,
    worked_from_earlier,
)
from ragaudit.slots import Slots, extract

_COORDINATED_RE = re.compile(r",\s(?:and|but|while|whereas|so)\s|;\s")

EMBED_BUDGET = 384
"""Texts embedded per request at most (claims first, then source units): bounded work per audit."""
_ALL_UNITS = 24
"""Indexes up to this many units are embedded whole; larger ones only where the words point."""
_ESTABLISHED = 12
"""Figures of the answer's earlier supported claims a later one may work out from (the latest)."""
_ARITHMETIC = frozenset(stem(w) for w in WORKING_OUT) | {"e", "pay", "per", "each"}
"""Words a working-out clause may use that no source needs to ("which *gives*", "i.*e*.", "you would *pay*")."""
_FIGURE_WORDS = frozenset(stem(w) for w in (*UNIT_WORDS, *APPROX))
"""A figure's unit and hedge ("about 17 *metres*", "*roughly* 8 km"): the figure's words, checked with it."""
_WORKING_WORDS = 3
"""Words besides its figures a clause that works figures out may have ("together you would pay …")."""
ITEMISED_TOTAL = "a total of the answer's own supported figures"
IN_CONTEXT = "read after the clause before it"
_CLAUSE_GAP = 10
"""Characters between two claims of one sentence (", and ", "; ", ", which ")."""
_FIGURE_SIGNALS = frozenset({"number", "added detail", "model"})
"""Signals a figure may have decided: a claim they flagged is read again when it states an itemised total."""
_PER_CLAIM = 6
"""Units embedded per claim in a larger index: its best lexical candidates (embedding is most of the cost)."""


class Verifier:
    """Verifies each claim of one request against its windows."""

    def __init__(
        self,
        model: VerifierModel | None = None,
        *,
        embeddings: bool = True,
        detectors: bool = True,
        learned: bool = True,
    ) -> None:
        """``embeddings``/``detectors``/``learned`` switch a signal off (for ablations, or speed without embeddings)."""
        self.model = model or load_model()
        self.embeddings = embeddings
        self.detectors = detectors
        self.learned = learned

    def verify(
        self,
        alignments: Sequence[Alignment],
        index: SourceIndex,
        novelty: float,
        question: str | None = None,
        budget: int | None = None,
        tokens: EmbeddingBudget | None = None,
    ) -> list[PairResult]:
        """One :class:`PairResult` per alignment, in order (figures the question states count as given; at most
        ``budget`` texts embedded, default :data:`EMBED_BUDGET`, within ``tokens``, claims at most half of it)."""
        if not alignments:
            return []
        budget, tokens = EMBED_BUDGET if budget is None else budget, tokens or EmbeddingBudget()
        claim_vectors = np.zeros((len(alignments), 384), dtype=np.float32)
        claim_texts = [a.claim.text for a in alignments[: budget // 2 if self.embeddings else 0]]
        admitted = tokens.admit(claim_texts, claims=True)
        claim_vectors[admitted] = embed([claim_texts[i] for i in admitted])
        budget -= len(admitted)
        embedded = np.zeros(len(index.units), dtype=bool)  # this request's units, whatever the index holds
        if self.embeddings:
            if len(index.units) <= min(_ALL_UNITS, budget):
                wanted = list(range(len(index.units)))
            else:
                positions = unit_positions(index)
                chosen = (positions[id(u)] for a in alignments for u in a.best if id(u) in positions)
                ranked = (i for a in alignments for i in a.ranked[:_PER_CLAIM])
                wanted = list(dict.fromkeys(itertools.chain(chosen, ranked)))[:budget]
            wanted = [wanted[k] for k in tokens.admit([index.units[i].text or " " for i in wanted])]
            unit_vectors(index, wanted)
            embedded[wanted] = True
        all_text = "\n".join(s.text for s in index.sources)
        given = extract(question) if question else None
        # Indexed by value: each claim's figures look up the few near them (issue 11).
        read = [extract(s.text) for s in index.sources] + ([given] if given else [])
        read_texts = [s.text for s in index.sources] + ([question] if question else [])
        pool = read_pool(read_texts, read)
        known_text = f"{all_text}\n{question}" if question else all_text
        # What the answer's supported claims established: a later clause may work from it ("Together you'd pay €829").
        established: list[Quantity] = []
        said: set[str] = set(extract(question).stems) if question else set()
        results: list[PairResult] = []
        earliers: list[Earlier] = []
        # The clock times the answer has stated that a source states ("by 11pm … half an hour later, at 11.30pm").
        times, source_times = set[int](), {t for slots in read for t in slots.times}
        owned = owned_names(question) if question else frozenset()
        for i, a in enumerate(alignments):
            # The supported clause just before, in the same sentence, whose figures this one may restate in another unit.
            joined = (
                i and results[i - 1].status == "supported" and alignments[i - 1].claim.text.rstrip()[-1:] not in ".!?"
            )
            restatable = extract(alignments[i - 1].claim.text).quantities if joined else []
            earliers.append(Earlier(established[-_ESTABLISHED:], frozenset(said), frozenset(times), owned, restatable))
            result = self._one(
                a, index, claim_vectors[i], pool, all_text, novelty, given, known_text, embedded, earliers[-1]
            )
            results.append(result)
            times |= (read_claim := extract(a.claim.text)).times & source_times
            if result.status == "supported":
                established += read_claim.quantities
                said |= set(a.keys)
        # A total the answer itemises, before or after its items ("About £187.55 for the quarter. The water
        # costs £72.96, …"), or a figure it works out across its claims: read again with it counted as stated.
        read, texts = [extract(a.claim.text) for a in alignments], [a.claim.text for a in alignments]
        worked = reckoned(
            read, texts, [r.status == "supported" for r in results], pool, given.quantities if given else ()
        )
        for i, (a, result) in enumerate(zip(alignments, results, strict=True)):
            if result.status == "supported" or result.signal not in _FIGURE_SIGNALS or not self.detectors:
                continue
            extra = [*itemised(i, read, [r.status == "supported" for r in results], texts[i]), *worked[i]]
            if not extra:
                continue
            rest = (all_text, novelty, given, known_text, embedded, earliers[i])
            again = self._one(a, index, claim_vectors[i], pool.plus(extra), *rest, worked=worked[i])
            if again.status == "supported":
                detail = WORKED_ACROSS if worked[i] else ITEMISED_TOTAL
                results[i] = replace(again, signal="figures", detail=detail, mismatches=[])
        # A clause cut from the one before it in its sentence (", and warns that anything longer goes back
        # unreviewed") is paraphrase the model misreads alone: with no detector speaking and no figure, date or
        # name of its own, it is read again after that clause, as context only; only a supported reading counts.
        for i in range(1, len(alignments)) if self.learned else ():
            before, claim, result = alignments[i - 1].claim, alignments[i].claim, results[i]
            joined = self.detectors and result.status == "supported" and claim.start - before.end <= _CLAUSE_GAP
            if joined and (deed := deed_in_context(before.text, claim.text, tuple(s.text for s in index.sources))):
                found, p = [Mismatch("role", deed)], max(result.probability, 0.8)  # "a project, which is run by N"
                results[i] = replace(result, status="contradicted", signal="role", detail=deed, mismatches=found)
                results[i].probability = p
                continue
            if (
                result.status == "supported"
                or result.signal != "model"
                or results[i - 1].status != "supported"
                or claim.start - before.end > _CLAUSE_GAP
                or before.text.rstrip()[-1:] in ".!?"
            ):
                continue
            context = before.model_copy(update={"text": f"{before.text} {claim.text}", "end": claim.end})
            vector = claim_vectors[i]
            if self.embeddings and tokens.admit([context.text], claims=True):
                vector = embed([context.text])[0]
            again = self._one(
                align(context, index), index, vector, pool, all_text, novelty, given, known_text, embedded, earliers[i]
            )
            # A figure of the clause is still checked in context ("30 m long, which is just under 100 feet").
            if again.status == "supported" and (again.signal == "model" or particular(claim.text)):
                results[i] = replace(result, status="supported", probability=again.probability, detail=IN_CONTEXT)
        return results

    def _one(
        self,
        alignment: Alignment,
        index: SourceIndex,
        vector: np.ndarray,
        pool: FigurePool,
        all_text: str,
        novelty: float,
        given: Slots | None,
        known_text: str,
        embedded: np.ndarray,
        earlier: Earlier,
        worked: Sequence[Quantity] = (),
    ) -> PairResult:
        model = self.model
        claim = working_days_read(extract(alignment.claim.text), pool, earlier[1])
        windows = candidate_windows(alignment, index, vector, embedded=embedded)
        if not windows or not alignment.keys:
            return PairResult(
                "unsupported" if alignment.keys else "supported",
                0.9 if alignment.keys else 0.1,
                "nothing checkable" if not alignment.keys else "no evidence",
                "No source text is close to this claim." if alignment.keys else "Nothing checkable.",
                windows,
            )
        best = windows[0]
        about = [
            w for w in windows[:4] if w.similarity >= model.about_similarity or w.word_coverage >= model.about_coverage
        ]
        feats = claim_features(alignment, index, claim, windows, about, pool, all_text, novelty, given)
        # Only the model reads a record's scattered fields; the detectors read contiguous text.
        windows, about = [w for w in windows if not w.record] or windows, [w for w in about if not w.record]
        best = windows[0]
        # Without the learned model, the claim's uncovered weighted share stands in for its probability.
        p = model.probability(feats) if self.learned else 1.0 - feats["lex_best"]
        for window in about[:2] if self.detectors else ():
            if loosely_related(model, alignment.claim.text, claim, window):  # a weaker quantifier, not a figure
                found = scope_mismatches(model, claim, alignment.claim.text, window)
            else:
                found = window_mismatches(model, claim, alignment, window, pool, all_text, given, index, earlier[0])
            if found:
                return PairResult(
                    "contradicted", max(p, 0.8), found[0].kind, found[0].detail, [window, *windows], found, feats
                )
        # A full date no source states, where the passage closest to the claim has the same day in
        # another month (or another day of the month): a slipped date, however loosely the rest is
        # paraphrased ("let us know by 10 October" against "tell us by 10 September").
        stated = [d for s in index.sources for d in extract(s.text).dates] if claim.dates and self.detectors else []
        stated += given.dates if given else []
        slipped = (
            unstated_dates(claim.dates, stated, [*pool.date_lengths, *claim.quantities, *earlier[0]]) if stated else []
        )
        for window in windows[:1] if slipped else ():
            found = date_slips(slipped, extract(window.text).dates)
            if found:
                return PairResult(
                    "contradicted", max(p, 0.8), "date", found[0].detail, [window, *windows], found, feats
                )
        # Each coordinated clause of the claim denies or states on its own ("short scripts can run
        # slower, and the JIT doesn't yet run on 32-bit": the denial is the JIT's, not the scripts').
        text = alignment.claim.text
        parts = [(p, claim if p == text else extract(p)) for p in _COORDINATED_RE.split(text) if len(p.split()) >= 4]
        parts = parts or [(text, claim)]
        # Things an instruction forbids: the closest windows count, however far a ban sits in meaning from advice.
        texts = [s.text for s in index.sources]
        for window in dict.fromkeys([*windows[:2], *about[:4]]) if self.detectors else ():
            clashes = (polarity_clash(s, window.text, claim_text=t, sources=texts) for t, s in parts if window in about)
            clash = next((c for c in clashes if c), None)
            banned = None if clash else forbidden_things(claim, window.text, alignment.claim.text)
            if clash:
                side = "negates" if clash[1] else "states"
                found = [Mismatch("negation", f"the source {side} '{clash[0]}'")]
            elif banned:
                found = [Mismatch("negation", f"the source forbids '{banned}'")]
            elif absent := presence_clash(alignment.claim.text, window.text, texts):
                found = [Mismatch("negation", absent)]
            elif window in about and (
                hedge := modality_clash(
                    claim, window.text, plain=plain_statement(alignment.claim.text), claim_text=alignment.claim.text
                )
            ):
                found = [Mismatch("modality", hedge)]
            elif window in about and (withheld := withheld_cause(claim, alignment.claim.text, window.text)):
                found = [Mismatch("modality", withheld)]
            else:
                continue
            signal = found[0].kind
            return PairResult("contradicted", max(p, 0.8), signal, found[0].detail, [window, *windows], found, feats)
        # With no window about the claim, figures are read in the closest ones sharing enough of its words.
        figured = about[:3] or [w for w in windows[:2] if w.word_coverage >= model.figure_coverage]
        near_slots = [extract(w.text) for w in figured]
        near = [q for slots in near_slots for q in slots.quantities]
        dated = pool.dated | {id(q) for slots in near_slots for q in slots.quantities if in_date(q, slots.dates)}
        near_times = {t for slots in [*near_slots, claim, *([given] if given else [])] for t in slots.times}
        near_times |= earlier.times if claim.times else frozenset()  # "half an hour later, at 11.30pm": its own time
        given_q = given.quantities if given else []
        # A percentage anywhere in the request may discount or add to a sum of money ("60% off" in a
        # table row the windows missed); other figures derive only from what is near.
        rates = [q for q in pool if q.dimension == "percent"]
        doubling = claim.aggregates or any(slots.aggregates for slots in near_slots)
        # A bound, a rate or an event the closest windows fill otherwise, however it might be worked out (10 = 5 × 2).
        slots_of = [(w.text, slots) for w, slots in zip(figured, near_slots, strict=True)]
        rival = first_rival(text, claim, slots_of, rates, (pool, given_q), texts) if self.detectors else None
        if rival is not None:
            found = [Mismatch(rival[1], rival[2])]
            return PairResult(
                "contradicted", max(p, 0.8), rival[1], rival[2], [figured[rival[0]], *windows], found, feats
            )

        # A figure may be worked out from the answer's earlier supported figures ("a £96 fee and £48 for the
        # test would bring the bill to £144"); only a clause that says it works something out may add words.
        working = bool(WORKING_OUT & {w.strip(",.;:!?()").lower() for w in alignment.claim.text.split()})
        base = [*given_q, *earlier[0]]
        earlier_ids = {id(q) for q in earlier[0]}

        def figure_stated(q: Quantity, known: list[Quantity]) -> bool:
            if q in worked:
                return False  # worked out across the answer: no added detail, and the clause's working
            # The claim's own figures first: derivations read the first twelve operands only.
            known = known[len(base) :] + known[: len(base)]
            if not worked_from_earlier(q):
                known = [k for k in known if id(k) not in earlier_ids]
            operands = known + rates if q.dimension in MONEY else known
            # "Six litres" is not stated by the 6 of "6 August": a date's day states no measure (a length
            # of time between two dates it may: "four days later, on 6 March").
            measure = q.dimension not in (None, "time")
            close_by = [p for p in near if not (measure and id(p) in dated)]
            near_q = quantity_supported(q, close_by, times=near_times, operands=operands, doubling=doubling)
            stated = [p for p in pool.candidates(q) if not (measure and id(p) in dated)]
            # The answer's own figure restated in another unit ("57 square metres, roughly 614 square feet").
            restated = [k for k in earlier.restatable if k.dimension == q.dimension and unit_converted(q, k)]
            return near_q or quantity_supported(q, [*stated, *restated], allow_derived=False)

        unread = unsupported_figures(claim.quantities, figure_stated, base)
        own = [q for q in claim.quantities if not in_date(q, claim.dates)]
        novel_q = shown_working(own, unread, rates, calendar_factors(alignment.claim.text))
        # "One" is as often a pronoun as a count ("one customer noted"); a count before a colon counts
        # the list that follows it ("for two reasons: …").
        # A date the claim works out from a given date and a stated length of time is no added detail.
        known_dates = [
            *(given.dates if given else []),
            *(d for w in dict.fromkeys([*about[:3], *windows[:3]]) for d in extract(w.text).dates),
            *claim.dates,
        ]
        derived_days = [
            (d.start, d.end)
            for d in claim.dates
            if date_derived(d, known_dates, [*near, *given_q, *claim.quantities, *earlier[0]])
            # The question's own date counted on by any length a source states ("within 8 weeks of the inspection").
            or (given is not None and date_derived(d, given.dates, pool.lengths))
        ]
        novel_q = [
            q
            for q in novel_q
            if q.text.lower() != "one"
            and q not in worked
            and not counts_list(alignment.claim.text, q)
            and not refers_back(alignment.claim.text, q)
            and not share_in_words(alignment.claim.text, q, [*claim.quantities, *rates])
            and not any(a <= q.start < b for a, b in derived_days)
            and not date_span(q, [*claim.dates, *(given.dates if given else [])], texts)
            and not shift_told(q, alignment.claim.text, claim.dates, texts, {p.raw for p in earlier[0]})
            # The day of a date a source states is checked as a date ("19 August 2025" for "2025-08-19").
            and not any(in_date(q, [d]) and any(same_date(d, k) for k in stated) for d in claim.dates)
        ]
        novel_names = [
            n
            for n, written in claim.names.items()
            # The asker's own things keep the names the question gives them ("my Labrador"); "68 °F" names a unit.
            if novel_name(n, written, all_text, index) and f"°{written}" not in text and n not in earlier.owned
        ]
        literals = novel_literals(alignment.claim.text, known_text) if self.detectors else []
        # A figure or name no source states: an added detail beside supported text; a party no source
        # names is reported even with no window about the claim (figures may be derived across sources).
        if self.detectors and (novel_names or literals or (figured and novel_q)):
            what = "', '".join([q.text for q in novel_q[:2]] + [claim.names[n] for n in novel_names[:2]] + literals[:2])
            status = "partially_supported" if best.coverage >= 0.5 or best.similarity >= 0.6 else "unsupported"
            return PairResult(status, max(p, 0.7), "added detail", f"no source states '{what}'", windows, [], feats)
        if self.detectors and claim.causal and unstated_link(claim, alignment.claim.text, about, windows):
            why = "no source states this causal link"
            return PairResult("unsupported", max(p, 0.7), "causal", why, windows, [], feats)
        # A clause that only works figures out ("on the same £960 that would be £576", "together you would
        # pay €829.14") asserts nothing but its figures: with each one stated or derived (from the sources,
        # the question or what the answer established before it), a few words the sources, the question or
        # the answer already use cannot make it new. A clause whose figure or date no source states is working
        # one out even without saying so ("would bring the bill to £144"): one word of its own is its verb.
        words = [k for k in alignment.keys if k[0] not in "#@" and k not in LIGHT_WORDS and k not in _FIGURE_WORDS]
        fresh = [k for k in words if k not in index.vocabulary and k not in earlier[1] and k not in _ARITHMETIC]
        new_words = sum(not working_voice(k) for k in fresh)  # a period converted ("three years") is the working's

        def computed() -> bool:
            worked_dates = [d for d in claim.dates if (d.start, d.end) in derived_days]
            return any(not any(same_date(d, k) for k in stated) for d in worked_dates) or any(
                q in worked or not quantity_supported(q, pool, allow_derived=False) or pool.converted(q) for q in own
            )

        if (
            self.detectors
            and (claim.quantities or derived_days)
            and not novel_q
            and not novel_names
            and (
                sum(1 for k in alignment.keys if k not in LIGHT_WORDS) <= 1
                or (len(words) <= _WORKING_WORDS and ((working and not new_words) or (new_words <= 1 and computed())))
                # A clause showing its working ("two passes (£126 each) plus a child's (£66) add up to £318") or
                # saying it works one out asserts its figures; a few words of its own (besides its voice) are the working's.
                or (
                    (len(novel_q) < len(unread) or (working and computed()))
                    and sum(not working_voice(k) for k in fresh) <= 2
                )
            )
        ):
            return PairResult("supported", min(p, 0.3), "figures", "every figure stated or derived", windows, [], feats)
        if p >= model.threshold:
            status = "partially_supported" if best.coverage >= 0.5 and p < model.partial_threshold else "unsupported"
            if self.detectors and novel_q:
                # A figure no source states or derives is a particular, not wording: the answer level never
                # reads it away (``€380`` for 25% off €480 in a clause sharing no word with the table).
                what = "', '".join(q.text for q in novel_q[:2])
                detail = f"no source states '{what}'"
                return PairResult(status, p, "added detail", detail, windows, [], feats, by_model=True)
            return PairResult(status, p, "model", "", windows, [], feats)
        return PairResult("supported", p, "model", "", windows, [], feats)
