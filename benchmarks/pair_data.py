"""Training pairs for the learned pair verifier: (claim, evidence window) → entailed / neutral / contradicted.

    python benchmarks/pair_data.py          # writes benchmarks/out/pair_data.jsonl (deterministic)

Two kinds of pairs, from dev and validation splits only (never a ``test`` file's test rows, the RAGTruth
test half, or ``handcrafted_dev``):

* **labelled claims**: every claim of the answers of the RAGTruth dev half that the logistic model is
  *not* fitted on (``benchmarks/train_verifier.py`` fits on the even-indexed dev answers; these are the
  odd-indexed ones), FaithBench dev, XSumFaith dev, CLIFF val and QAGS dev, each paired with its two best
  windows as the auditor ranks them; a claim overlapping a human span is contradicted ("Conflict",
  "Intrinsic") or neutral (every other type); every other claim of the answer is entailed;
* **minimal pairs** generated from the source sentences of the same rows: the sentence (or a part of it,
  or its figures rewritten in a form that means the same) is entailed; one number, date, name, role,
  negation, quantifier, modality or direction word changed is contradicted; a detail the window lacks,
  or an unrelated sentence, is neutral.

Each pair carries its ``kind`` (the perturbation, or the dataset for labelled claims) and a ``split``
(``train`` / ``heldout``, by a hash of the source row's id) so the metrics on generated pairs are measured
on rows the model never saw.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ragaudit._text import question_keys
from ragaudit.align import align, build_index
from ragaudit.models import Source
from ragaudit.segment import segment

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "benchmarks"
OUT = ROOT / "benchmarks" / "out" / "pair_data.jsonl"
DATA: dict[str, Path] = {
    "ragtruth": SHARED / "ragtruth" / "test.jsonl",  # dev half only, odd-indexed answers (below)
    "faithbench": SHARED / "faithbench" / "dev.jsonl",
    "xsumfaith": SHARED / "xsumfaith" / "dev.jsonl",
    "cliff": SHARED / "cliff" / "val.jsonl",
    "qags": SHARED / "qags" / "dev.jsonl",
}
LABELS = ("entailed", "neutral", "contradicted")
HELDOUT_SHARE = 0.1
MINIMAL_PER_ROW = 8
"""Generated pairs per source row at most (so long documents do not outweigh the rest)."""

_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r")\b")
_NAME = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*\b")
_AUX = re.compile(
    r"\b(?:(?:is|are|was|were|will|can|could|would|should|may|must)|(?:has|have|had)(?= \w+(?:ed|en)\b))\b"
)
_NOT = re.compile(r"\b(is|are|was|were|has|have|had|will|can|could|would|should|does|do|did|may|must) not\b")
_SWAPS = {
    "increased": "decreased",
    "decreased": "increased",
    "rose": "fell",
    "fell": "rose",
    "higher": "lower",
    "lower": "higher",
    "more": "fewer",
    "before": "after",
    "after": "before",
    "all": "some",
    "always": "rarely",
    "every": "no",
    "most": "few",
    "first": "last",
    "last": "first",
    "largest": "smallest",
    "won": "lost",
    "lost": "won",
    "earlier": "later",
    "later": "earlier",
    "above": "below",
    "below": "above",
    "gained": "lost",
    "rising": "falling",
    "falling": "rising",
    "maximum": "minimum",
    "minimum": "maximum",
    "never": "often",
}
_MODAL = {"may": "will", "might": "will", "could": "will", "can": "must", "should": "must", "likely": "certain"}
_CONTRADICTING = ("conflict", "intrinsic")


def _half(key: str) -> str:
    digest = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16)
    return "heldout" if digest / 0xFFFFFFFF < HELDOUT_SHARE else "train"


def _rows(name: str, path: Path) -> Iterator[dict[str, Any]]:
    lines = path.read_text().splitlines()
    if name == "ragtruth":
        lines = [line for line in lines if '"hash_half": "dev"' in line][1::2]
    for line in lines:
        yield json.loads(line)


def _labelled(row: dict[str, Any], index: Any) -> Iterator[tuple[str, str, str]]:
    """(claim, window, label) for every claim of the answer, labelled by the human spans it overlaps."""
    presupposed = question_keys(row.get("question"))
    for claim in segment(row["answer"]).claims:
        alignment = align(claim, index, presupposed=presupposed, max_units=2)
        if not alignment.best:
            continue
        window = " ".join(unit.text for unit in alignment.best[:2])
        hit = [s for s in row["spans"] if min(claim.end, s["end"]) - max(claim.start, s["start"]) > 3]
        if not hit:
            label = "entailed"
        elif any(any(word in str(s.get("type", "")).lower() for word in _CONTRADICTING) for s in hit):
            label = "contradicted"
        else:
            label = "neutral"
        yield claim.text, window, label


def _other_number(token: str, rng: random.Random) -> str:
    digits = token.replace(",", "")
    if "." in digits:
        value = float(digits)
        changed = value + rng.choice((0.5, 1.2, 2.0, -0.3)) if value > 1 else value * 2
        return f"{changed:.{len(digits.split('.')[1])}f}"
    value = int(digits)
    if 1900 <= value <= 2100:
        return str(value + rng.choice((-2, -1, 1, 3)))
    changed = value + rng.choice((1, 2, 3, 5, 10)) if value < 20 else round(value * rng.choice((0.6, 1.3, 1.5, 2)))
    return f"{changed:,}" if "," in token else str(changed)


def _same_figures(sentence: str, rng: random.Random) -> str | None:
    """The sentence with one figure written in another form that means the same, or None."""
    for match in _NUMBER.finditer(sentence):
        digits = match.group().replace(",", "")
        after = sentence[match.end() : match.end() + 12]
        if "." in digits and after.startswith("%"):
            return f"{sentence[: match.start()]}about {round(float(digits))}{sentence[match.end() :]}"
        if digits.isdigit() and int(digits) >= 1_000_000 and int(digits) % 100_000 == 0:
            text = f"{int(digits) / 1_000_000:g} million"
            return sentence[: match.start()] + text + sentence[match.end() :]
        if digits.isdigit() and after.startswith((" days", " day")) and int(digits) <= 10:
            return sentence[: match.start()] + f"{int(digits) * 24} hours" + sentence[match.end() + 4 :].lstrip("s")
        if digits.isdigit() and after.startswith(" percent"):
            return sentence[: match.start()] + f"{digits}%" + sentence[match.end() + 8 :]
    return None


def _part(sentence: str) -> str | None:
    """The sentence without a detail it gives (a parenthesis, a trailing clause), or None."""
    bracket = re.search(r" \([^()]{3,80}\)", sentence)
    if bracket:
        return sentence[: bracket.start()] + sentence[bracket.end() :]
    clause = re.search(r", (?:which|who|while|where|including|with|according to|as) [^,]{8,}[.]?$", sentence)
    if clause and clause.start() > 30:
        return sentence[: clause.start()] + "."
    return None


def _changed(sentence: str, names: list[str], rng: random.Random) -> Iterator[tuple[str, str]]:
    """(kind, sentence) with one slot changed so that the window no longer says it."""
    numbers = list(_NUMBER.finditer(sentence))
    if numbers:
        m = rng.choice(numbers)
        other = _other_number(m.group(), rng)
        if other != m.group():
            yield "number", sentence[: m.start()] + other + sentence[m.end() :]
    month = _MONTH.search(sentence)
    if month:
        i = _MONTHS.index(month.group())
        new = _MONTHS[(i + rng.choice((1, 2, 3, 9, 10, 11))) % 12]
        yield "date", sentence[: month.start()] + new + sentence[month.end() :]
    negated = _NOT.search(sentence)
    if negated:
        yield "negation", sentence[: negated.start()] + negated.group(1) + sentence[negated.end() :]
    else:
        aux = _AUX.search(sentence)
        if aux:
            yield "negation", sentence[: aux.end()] + " not" + sentence[aux.end() :]
    own = [m for m in _NAME.finditer(sentence) if m.group() in names]
    distinct = list(dict.fromkeys(m.group() for m in own))
    if len(distinct) >= 2:
        a, b = distinct[0], distinct[1]
        swapped = sentence.replace(a, "\0").replace(b, a).replace("\0", b)
        yield "role", swapped
    others = [n for n in names if n not in sentence]
    if own and others:
        m = rng.choice(own)
        yield "entity", sentence[: m.start()] + rng.choice(others) + sentence[m.end() :]
    for word in rng.sample(list(_SWAPS), len(_SWAPS)):
        hit = re.search(rf"\b{word}\b", sentence)
        if hit:
            yield "direction", sentence[: hit.start()] + _SWAPS[word] + sentence[hit.end() :]
            break
    for word, strong in _MODAL.items():
        hit = re.search(rf"\b{word}\b", sentence)
        if hit:
            yield "modality", sentence[: hit.start()] + strong + sentence[hit.end() :]
            break


def _minimal(sentences: list[str], rng: random.Random) -> Iterator[tuple[str, str, str, str]]:
    """(kind, claim, window, label) minimal pairs built from a document's sentences."""
    lower = {w for s in sentences for w in re.findall(r"\b[a-z]+\b", s)}
    names = list(
        dict.fromkeys(
            m.group()
            for s in sentences
            for m in _NAME.finditer(s)
            if m.start() > 0
            and s[m.start() - 2 : m.start()] not in (". ", ": ")
            and len(m.group()) > 3
            and not any(w.lower() in lower for w in m.group().split())
        )
    )
    usable = [s for s in sentences if 6 <= len(s.split()) <= 45]
    for i in rng.sample(range(len(usable)), min(len(usable), 3)):
        sentence = usable[i]
        window = sentence
        if i + 1 < len(usable) and rng.random() < 0.5:
            window = f"{sentence} {usable[i + 1]}"
        yield "same", sentence, window, "entailed"
        rewritten = _same_figures(sentence, rng)
        if rewritten:
            yield "same_figures", rewritten, window, "entailed"
        part = _part(sentence)
        if part:
            yield "part", part, window, "entailed"
            yield "added_detail", sentence, part, "neutral"
        changes = list(_changed(sentence, names, rng))
        for kind, claim in rng.sample(changes, min(2, len(changes))):
            yield kind, claim, window, "contradicted"
        if len(usable) > 3:
            other = usable[(i + len(usable) // 2) % len(usable)]
            if other != sentence:
                yield "unrelated", other, sentence, "neutral"


def _pairs_of(item: tuple[str, str]) -> list[dict[str, Any]]:
    name, line = item
    row = json.loads(line)
    index = build_index([Source(id=s["id"], text=s["text"]) for s in row["sources"]])
    split = _half(f"{name}:{row['id']}")
    out = [
        {"claim": c, "window": w, "label": label, "kind": f"labelled_{name}", "split": split}
        for c, w, label in _labelled(row, index)
    ]
    rng = random.Random(f"{name}:{row['id']}")
    sentences = [" ".join(unit.text.split()) for unit in index.units if not unit.leaf]
    generated = list(_minimal(sentences, rng))
    for kind, claim, window, label in generated[:MINIMAL_PER_ROW]:
        out.append({"claim": claim, "window": window, "label": label, "kind": kind, "split": split})
    return out


def build(workers: int = 2) -> list[dict[str, Any]]:
    """Every pair, in a fixed order (rows in file order, datasets in :data:`DATA` order)."""
    items = [(name, json.dumps(row)) for name, path in DATA.items() for row in _rows(name, path)]
    with multiprocessing.Pool(workers) as pool:
        return [pair for pairs in pool.imap(_pairs_of, items, chunksize=8) for pair in pairs]


def data_digests() -> dict[str, str]:
    """SHA-256 of every data file the pairs are built from."""
    return {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in DATA.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    pairs = build(args.workers)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("".join(json.dumps(p) + "\n" for p in pairs))
    counts: dict[str, int] = {}
    for p in pairs:
        counts[f"{p['kind']}:{p['label']}"] = counts.get(f"{p['kind']}:{p['label']}", 0) + 1
    print(json.dumps({"pairs": len(pairs), "by_kind": dict(sorted(counts.items()))}, indent=1))


if __name__ == "__main__":
    main()
