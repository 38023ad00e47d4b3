"""The offline judge: deterministic, no network, no API key.

Each claim is verified against its best evidence windows by :class:`ragaudit.verify.Verifier`
(MiniLM embeddings and lexical coverage find the windows; slot detectors compare numbers, dates,
units, names, negation, quantifiers, modality and causal links; a logistic model trained by
``benchmarks/train_verifier.py`` on the RAGTruth dev half decides the rest). The record-field and
antonym rules of :func:`find_conflicts` read contradictions off the lexical alignment as well. The
judge's version carries a digest of ``verifier_model.json`` and of the verdict code, so report caches never go stale.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ragaudit._hashing import rules_digest, sha256
from ragaudit._hours import hours_clash
from ragaudit._pair import PairResult
from ragaudit._reckoning import WORKED_ACROSS
from ragaudit._records import field_number_clash
from ragaudit._text import ANTONYMS, CERTAINTY, LIGHT_WORDS, Term, analyze, is_year, name_keys, stem
from ragaudit._units import unit_changed
from ragaudit._verifier_model import load_model as load_verifier
from ragaudit._windows import Window
from ragaudit.align import Alignment, SourceIndex, Unit
from ragaudit.errors import ConfigError
from ragaudit.judges._base import JudgeContext, JudgePrompt, register_judge
from ragaudit.models import Evidence, EvidenceRelation, Verdict
from ragaudit.verify import ITEMISED_TOTAL, Verifier


@dataclass(frozen=True, slots=True)
class Conflict:
    """A specific disagreement between a claim and its best evidence unit."""

    kind: str
    detail: str
    unit: Unit


def find_conflicts(alignment: Alignment, index: SourceIndex) -> list[Conflict]:
    """Contradictions between the claim and the units it aligns to best.

    Each check needs the unit to be about the same thing as the claim (it holds most of the
    claim's words), and the difference to sit where it matters: the negated words, the noun a
    quantifier applies to, the swapped word itself.
    """
    conflicts: list[Conflict] = []
    keys = set(alignment.keys)
    claim_numbers = {k for k in keys if k[0] in "#@"}
    claim_cues = alignment.cues
    content = [k for k in alignment.keys if k[0] not in "#@"]
    novel_names = _names(alignment) - index.vocabulary
    if not claim_cues.negated and not claim_cues.negated_heads:
        for unit in alignment.best:
            # A record field set to false ("OutdoorSeating": false) that the claim asserts.
            if unit.leaf and unit.cues.negated and unit.cues.negated_heads and unit.cues.negated_heads <= keys:
                shown = _show(unit.cues.negated_heads)
                return [Conflict("negation", f"{shown} as true where the record sets it to false", unit)]
    for unit in alignment.best[:2]:
        shared_words = [k for k in content if k in unit.keys]
        share = len(shared_words) / max(1, len(content))
        if len(shared_words) < 2 or share < 0.5:
            continue

        def close(differing: set[str] | frozenset[str], shared_words: list[str] = shared_words) -> bool:
            # Apart from the words that differ, the claim says what the unit says.
            rest = [k for k in content if k not in differing]
            return len(shared_words) >= 0.85 * max(1, len(rest))

        unit_numbers = set(unit.numbers)
        absent = claim_numbers - index.numbers
        if absent and unit_numbers - keys:
            kind = "date" if any(k[0] == "@" or is_year(k) for k in absent) else "number"
            # Name like with like: a changed year against the source's years, a figure against figures.
            theirs = {
                k for k in unit_numbers - keys if (k[0] == "@" or is_year(k)) == (kind == "date")
            } or unit_numbers - keys
            conflicts.append(Conflict(kind, f"{_show(absent)} where the source has {_show(theirs)}", unit))
        unit_change = unit_changed(alignment.terms, list(analyze(unit.text)) if unit.text else [], unit.numbers)
        if unit_change:
            conflicts.append(Conflict("unit", unit_change, unit))
        # An even number of negations ("may not … without consent") asserts, so only odd counts deny.
        if not claim_cues.negated and unit.cues.negated and unit.cues.negated_heads & keys:
            denied = unit.cues.negated_keys & keys
            # The negated word itself is in the claim, so a looser match of the rest suffices.
            loose = len(shared_words) >= 0.7 * max(1, len(content))
            if len(denied) >= min(2, len(unit.cues.negated_keys)) and loose and (len(shared_words) >= 3 or unit.leaf):
                conflicts.append(Conflict("negation", f"{_show(denied)} as true where the source negates it", unit))
        elif (
            claim_cues.negated
            and claim_cues.negated_heads & unit.keys
            and not (claim_cues.negated_heads & unit.cues.negated_keys)
        ):
            asserted = claim_cues.negated_keys & unit.keys
            if len(asserted) >= min(2, len(claim_cues.negated_keys)) and close(set()) and len(shared_words) >= 3:
                conflicts.append(Conflict("negation", f"{_show(asserted)} as not so where the source states it", unit))
        for k in keys - unit.keys:
            if k in claim_cues.negated_heads:
                continue  # "VAT is not included" against "prices exclude VAT": the claim denies the opposite
            # "closed" against "not open" agrees: only an un-negated opposite contradicts.
            opposite = (ANTONYMS.get(k, frozenset()) & unit.keys) - unit.cues.negated_keys
            if opposite and not (ANTONYMS.get(k, frozenset()) & keys) and close({k}):
                mine = _raw(alignment.claim.text, alignment.terms, k)
                theirs_word = _raw(unit.text, list(analyze(unit.text)), sorted(opposite)[0])
                conflicts.append(Conflict("antonym", f"'{mine}' where the source says '{theirs_word}'", unit))
                break
        unit_quantified = dict((noun, q) for q, noun in unit.cues.quantified)
        for q, noun in claim_cues.quantified:
            if noun in unit_quantified and unit_quantified[noun] != q:
                conflicts.append(
                    Conflict("quantifier", f"'{q}' {noun} where the source says '{unit_quantified[noun]}'", unit)
                )
                break
        certainty_words = {t.key for t in alignment.terms if t.key in _CERTAIN_KEYS}
        if claim_cues.certain and unit.cues.hedged and not unit.cues.certain and close(certainty_words):
            conflicts.append(Conflict("certainty", "a certain statement where the source only hedges", unit))
        other_names = unit.entities - keys
        if novel_names and other_names and close(novel_names):
            conflicts.append(
                Conflict("name", f"{_show(novel_names)} where the source names {_show(other_names)}", unit)
            )
        if conflicts:
            break
    return conflicts


def record_agreement(alignment: Alignment) -> Unit | None:
    """A record field set to false that the claim denies too, when the chosen units cover most of the claim."""
    cues = alignment.cues
    if not (cues.negated or cues.negated_heads):
        return None
    # The denied verb ("does not *accept*") is what the field's false stands for: count it as covered.
    covered = set().union(*(u.keys for u in alignment.best)) | cues.negated_heads
    total = sum(alignment.weights.values()) or 1.0
    if sum(w for k, w in alignment.weights.items() if k in covered) / total < 0.6:
        return None
    keys = set(alignment.keys)
    return next(
        (
            u
            for u in alignment.best
            if u.leaf and u.cues.negated and u.cues.negated_heads and u.cues.negated_heads <= keys
        ),
        None,
    )


# (?<!\s) and possessive runs: a long whitespace run is not rescanned from each of its positions.
_PART_SPLIT_RE = re.compile(r",\s++(?:and\s+|or\s+)?|(?<!\s)\s++(?:and|with|including|plus|as well as|which|who)\s+")


def added_detail(alignment: Alignment, index: SourceIndex, *, strict: bool = False) -> str | None:
    """A part of an otherwise supported claim that no source mentions at all ("… and was funded by the NIH").

    Only specific details count (a name or a number), since novel plain words are usually
    paraphrase; with ``strict`` (high risk) any part made only of novel words counts.
    """
    text = alignment.claim.text
    cuts = [0, *(x for m in _PART_SPLIT_RE.finditer(text) for x in m.span()), len(text)]
    parts = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2) if cuts[i + 1] > cuts[i]]
    if len(parts) < 2:
        return None
    # Terms by start and key weights summed once: per-part scans of every term were quadratic
    # in the claim's length (a 100,000-character claim of ", and it" took minutes).
    content = sorted(
        (t for t in alignment.terms if t.kind in ("word", "num", "time") and t.key not in LIGHT_WORDS),
        key=lambda t: t.start,
    )
    starts = [t.start for t in content]
    covered = set().union(*(u.keys for u in alignment.best)) if alignment.best else set()
    key_counts = Counter(alignment.keys)
    total_weight = sum(alignment.weights.get(k, 0.0) * n for k, n in key_counts.items())
    covered_weight = sum(alignment.weights.get(k, 0.0) * n for k, n in key_counts.items() if k in covered)
    for start, end in parts:
        # The claim's own terms, so a capital keeps meaning "a name" inside the part.
        terms = content[bisect.bisect_left(starts, start) : bisect.bisect_left(starts, end)]
        part = text[start:end]
        if not terms or any(t.key in index.vocabulary for t in terms):
            continue
        specific = strict or any(t.kind != "word" or t.capital for t in terms)
        own = {t.key for t in terms}
        rest_weight = total_weight - sum(alignment.weights.get(k, 0.0) * key_counts[k] for k in own)
        rest_covered = covered_weight - sum(alignment.weights.get(k, 0.0) * key_counts[k] for k in own if k in covered)
        has_rest = any(k not in own for k in key_counts)
        rest_share = rest_covered / max(1e-9, rest_weight)
        if specific and has_rest and rest_share >= 0.8 - 1e-9:
            return part.strip()
    return None


_CERTAIN_KEYS = frozenset(stem(w) for w in CERTAINTY)


def _names(alignment: Alignment) -> set[str]:
    """Keys of names in the claim."""
    return name_keys(alignment.terms, alignment.claim.text)


def _raw(text: str, terms: Sequence[Term], key: str) -> str:
    """The word as written for a normalised key (the key itself if not found)."""
    return next((text[t.start : t.end] for t in terms if t.key == key), key)


def _show(keys: set[str] | frozenset[str]) -> str:
    return ", ".join(sorted(k.lstrip("#@") for k in keys)[:3])


def answer_novelty(alignments: list[Alignment], index: SourceIndex) -> float:
    """Share of the whole answer's content terms that no source contains (context for every claim)."""
    keys = [k for a in alignments for k in a.keys if k not in LIGHT_WORDS]
    return sum(1 for k in keys if k not in index.vocabulary) / max(1, len(keys))


class OfflineJudge:
    """The pair-level verifier (:mod:`ragaudit.verify`) plus the record-field rules; see the module docstring."""

    name = "offline"
    model: str | None = None  # rules and a small trained verifier: no model is asked, no prompt is sent
    prompt: JudgePrompt | None = None

    def __init__(self, switches: frozenset[str] = frozenset()) -> None:
        unknown = switches - _SWITCHES
        if unknown:
            raise ConfigError(
                f"unknown offline judge option(s) {sorted(unknown)}: use any of {sorted(_SWITCHES)}, "
                "comma-separated (offline:no-embeddings)"
            )
        self.embeddings = "no-embeddings" not in switches
        """Whether meaning is read with MiniLM embeddings (by this judge and by the checks after it)."""
        self.verifier = Verifier(
            embeddings=self.embeddings,
            detectors="no-detectors" not in switches,
            learned="no-model" not in switches,
        )
        self.answer_model = load_verifier() if "no-answer-level" not in switches and self.verifier.learned else None
        """The model whose doubts the pipeline reads per answer, after the checks (``_answer_level``); None: off."""
        # ``2.`` plus a digest of the shipped weights and thresholds and of the rules around them (the
        # package's verdict code and word lists): caches never serve stale reports.
        suffix = "".join(f"+{s}" for s in sorted(switches))
        self.version = f"2.{sha256(load_verifier().digest + rules_digest())[:12]}{suffix}"

    def judge(self, alignments: list[Alignment], context: JudgeContext) -> list[Verdict]:
        """Label each aligned claim."""
        novelty = answer_novelty(alignments, context.index)
        results = self.verifier.verify(
            alignments, context.index, novelty, context.question, context.embedded_texts, context.embedded_tokens
        )
        return [self._verdict(a, r, context) for a, r in zip(alignments, results, strict=True)]

    def _verdict(self, alignment: Alignment, result: PairResult, context: JudgeContext) -> Verdict:
        index = context.index
        found = _matched_words(alignment)
        # Record fields set to false, antonyms and unit swaps read off the lexical alignment.
        rules = [
            c
            for c in find_conflicts(alignment, index)
            if c.kind in _RULE_KINDS or (c.kind == "negation" and c.unit.leaf)
        ]
        if result.status != "contradicted" and rules:
            c = rules[0]
            quote = index.by_id[c.unit.source_id].text[c.unit.start : c.unit.end]
            evidence = [
                Evidence(
                    source_id=c.unit.source_id, start=c.unit.start, end=c.unit.end, quote=quote, relation="contradicts"
                )
            ]
            return Verdict(
                status="contradicted",
                confidence=round(max(0.75, result.probability), 3),
                explanation=f"Matches {found} in {c.unit.source_id}, but states {c.detail} ({c.kind}).",
                evidence=evidence,
                decided_by=f"rule:{c.kind}",
            )
        for rule, read in (("record number", field_number_clash), ("hours", _hours_clash)):
            clash = read(alignment, index) if result.status != "contradicted" else None
            if clash is not None:
                unit, detail = clash
                return Verdict(
                    status="contradicted",
                    confidence=round(max(0.75, result.probability), 3),
                    explanation=f"Matches {found} in {unit.source_id}, but states {detail} (record field).",
                    evidence=[_unit_evidence(index, unit, "contradicts")],
                    decided_by=f"rule:{rule}",
                )
        agreeing = record_agreement(alignment) if result.signal == "model" and result.status != "supported" else None
        if agreeing is not None:
            # "does not accept reservations" where the record sets "RestaurantsReservations" to false:
            # the claim denies what the record denies, in other words than the field's name.
            return Verdict(
                status="supported",
                confidence=round(max(0.6, 1.0 - result.probability), 3),
                explanation=f"The record sets {_show(agreeing.cues.negated_heads)} to false, as the claim says.",
                evidence=[_unit_evidence(index, agreeing, "supports")],
                decided_by="rule:record field",
            )
        best = result.windows[0] if result.windows else None
        confidence = result.probability if result.status != "supported" else 1.0 - result.probability
        if result.status == "contradicted" and best is not None:
            return Verdict(
                status="contradicted",
                confidence=round(confidence, 3),
                explanation=f"Matches {found} in {best.source_id}, but states {result.mismatches[0].detail} "
                f"({result.signal}).",
                evidence=[_evidence(index, best, "contradicts")],
                decided_by=f"detector:{result.signal}",
            )
        extra = added_detail(alignment, index, strict=True) if context.risk_level == "high" else None
        if result.status == "supported" and extra is not None:
            return Verdict(
                status="partially_supported",
                confidence=round(max(0.55, result.probability), 3),
                explanation=f"The evidence states {found}, but no source mentions '{extra}'.",
                evidence=[_evidence(index, w, "supports") for w in result.windows[:1]],
                decided_by="rule:added detail (high risk)",
            )
        if result.status == "supported":
            evidence = [_evidence(index, w, "supports") for w in result.windows[:1]]
            if best is not None and alignment.union_coverage > best.coverage + 0.1:
                # Parts of the claim stand in other units (a multi-source claim): show those too.
                covered = {(e.source_id, e.start) for e in evidence}
                evidence += [
                    e
                    for e in alignment.evidence(index)
                    if (e.source_id, e.start) not in covered
                    and not (e.source_id == best.source_id and best.start <= e.start < best.end)
                ]
            if result.signal == "figures":
                return Verdict(
                    status="supported",
                    confidence=round(confidence, 3),
                    explanation=(
                        "Its figure is the sum of figures the answer states, and supports, in the claims around it."
                        if result.detail == ITEMISED_TOTAL
                        else "Its figures follow by arithmetic from the sources' figures and those the answer "
                        "works out in its other claims."
                        if result.detail == WORKED_ACROSS
                        else "Every figure of the claim is stated in the sources or the question, or follows "
                        "from them by one step of arithmetic."
                    ),
                    evidence=evidence,
                    decided_by="detector:figures",
                )
            return Verdict(
                status="supported",
                confidence=round(confidence, 3),
                explanation=f"The evidence states {found}"
                + (f" (meaning similarity {best.similarity:.2f})." if best is not None else "."),
                evidence=evidence,
                decided_by="model",
            )
        if result.status == "partially_supported":
            detail = result.detail or f"not {_show_missing(alignment)}"
            return Verdict(
                status="partially_supported",
                confidence=round(confidence, 3),
                explanation=f"The evidence states {found}, but {detail}.",
                evidence=[_evidence(index, w, "supports") for w in result.windows[:1]],
                decided_by="model" if result.signal == "model" else f"detector:{result.signal}",
            )
        detail = result.detail or f"no source states {_show_missing(alignment)}"
        return Verdict(
            status="unsupported",
            confidence=round(confidence, 3),
            explanation=detail[0].upper() + detail[1:] + (f"; closest text shares only {found}." if best else "."),
            evidence=[],
            decided_by="model" if result.signal == "model" else f"detector:{result.signal}",
        )


_RULE_KINDS = frozenset({"antonym", "unit"})


def _unit_evidence(index: SourceIndex, unit: Unit, relation: EvidenceRelation) -> Evidence:
    quote = index.by_id[unit.source_id].text[unit.start : unit.end]
    return Evidence(source_id=unit.source_id, start=unit.start, end=unit.end, quote=quote, relation=relation)


def _evidence(index: SourceIndex, window: Window, relation: EvidenceRelation) -> Evidence:
    return Evidence(
        source_id=window.source_id, start=window.start, end=window.end, quote=window.text, relation=relation
    )


def _hours_clash(alignment: Alignment, index: SourceIndex) -> tuple[Unit, str] | None:
    return hours_clash(alignment.claim.text, index)


def _matched_words(alignment: Alignment) -> str:
    covered = set().union(*(u.keys for u in alignment.best)) if alignment.best else set()
    words = [t.key for t in alignment.terms if t.key in covered and t.kind in ("word", "num", "time")]
    raw = [
        alignment.claim.text[t.start : t.end]
        for t in alignment.terms
        if t.key in covered and t.kind != "stop" and alignment.claim.text[t.start : t.end].strip("%").strip()
    ]
    if not words:
        return "nothing of the claim"
    shown = list(dict.fromkeys(raw))[:6]
    return "'" + " ".join(shown) + "'" + ("…" if len(raw) > 6 else "")


def _show_missing(alignment: Alignment) -> str:
    missing = set(alignment.missing)
    raw = [alignment.claim.text[t.start : t.end] for t in alignment.terms if t.key in missing]
    shown = list(dict.fromkeys(raw))[:6]
    return "'" + " ".join(shown) + "'" if shown else "the claim as a whole"


@register_judge("offline")
def _make_offline(argument: str) -> OfflineJudge:
    return OfflineJudge(frozenset(a.strip() for a in argument.split(",") if a.strip()))


_SWITCHES = frozenset({"no-embeddings", "no-detectors", "no-model", "no-answer-level"})
