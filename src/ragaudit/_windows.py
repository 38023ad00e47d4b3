"""Evidence windows: the stretches of the sources a claim is compared with (issue 9).

A window is one unit, a unit with its neighbour, or the fields of one JSON record that together
hold the claim's terms (a claim often combines several: "offers street parking, outdoor seating
and takeout"). Each gets a similarity in meaning (MiniLM, where this request embedded its units)
and a lexical coverage; :mod:`ragaudit.verify` compares the claim with the best of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ragaudit._records import record_cover
from ragaudit.align import Alignment, SourceIndex, Unit
from ragaudit.embed import embed


@dataclass(frozen=True, slots=True)
class Window:
    """A stretch of one source compared with a claim: one unit, two adjacent ones, or fields of one record."""

    source_id: str
    start: int
    end: int
    text: str
    units: tuple[Unit, ...]
    similarity: float
    """Cosine of the claim's and the window's embeddings."""
    coverage: float
    """Rarity-weighted share of the claim's terms the window holds."""
    word_coverage: float = 0.0
    """The same share over words only: figures are what the slots compare, not what makes a window relevant."""
    record: bool = False
    """Fields of one record, not adjacent: their meaning counts, the text between them is not read."""

    @property
    def score(self) -> float:
        """How much the window is about the claim."""
        return 0.5 * self.similarity + 0.5 * self.coverage


def unit_vectors(index: SourceIndex, wanted: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Embeddings of the units of ``index`` (``wanted`` ones, else all) and a mask of those known.

    Vectors are kept on the index, so each unit is embedded once however many claims ask.
    """
    store = index.__dict__.setdefault("_vectors", np.zeros((len(index.units), 384), dtype=np.float32))
    known = index.__dict__.setdefault("_known", np.zeros(len(index.units), dtype=bool))
    todo = [i for i in (range(len(index.units)) if wanted is None else wanted) if not known[i]]
    if todo:
        store[todo] = embed([index.units[i].text or " " for i in todo])
        known[todo] = True
    return store, known


def _coverage(keys: frozenset[str] | set[str], alignment: Alignment, *, words_only: bool = False) -> float:
    weights = {k: w for k, w in alignment.weights.items() if not (words_only and k[:1] in "#@")}
    total = sum(weights.values()) or 1.0
    return sum(w for k, w in weights.items() if k in keys) / total


def unit_positions(index: SourceIndex) -> dict[int, int]:
    """Each unit's position in the index, built once per index (not once per claim)."""
    found = index.__dict__.get("_positions")
    if found is None:
        found = {id(u): i for i, u in enumerate(index.units)}
        index.__dict__["_positions"] = found
    return found


def candidate_windows(
    alignment: Alignment,
    index: SourceIndex,
    claim_vector: np.ndarray,
    k: int = 4,
    embedded: np.ndarray | None = None,
) -> list[Window]:
    """Windows about the claim, best first: lexical and semantic neighbours and their pairs (``embedded``:
    the units this request embedded; vectors earlier requests left on a shared index must not count)."""
    if not index.units:
        return []
    vectors, known = index.__dict__.get("_vectors"), index.__dict__.get("_known")
    positions = unit_positions(index)
    chosen: list[int] = [positions[id(u)] for u in alignment.best if id(u) in positions]
    if vectors is None or known is None or not claim_vector.any():
        vectors = np.zeros((len(index.units), 384), dtype=np.float32)
        known = np.zeros(len(index.units), dtype=bool)
    elif embedded is not None:
        known = known & embedded
    sims = np.where(known, vectors @ claim_vector, -1.0)
    for i in np.argsort(-sims)[:k]:
        if known[int(i)] and int(i) not in chosen:
            chosen.append(int(i))
    spans = {(min(i, j), max(i, j)) for i in chosen for j in (i - 1, i, i + 1) if 0 <= j < len(index.units)}
    groups = [tuple(range(a, b + 1)) for a, b in sorted(spans) if index.units[a].source_id == index.units[b].source_id]
    # Fields of one record a claim combines ("offers street parking, outdoor seating and takeout").
    groups += [cover] if len(cover := record_cover(alignment, index, [*chosen, *alignment.ranked])) > 1 else []
    windows = [_window(alignment, index, group, vectors, known, claim_vector) for group in dict.fromkeys(groups)]
    windows = [replace(w, record=True) if w.units[-1].index - w.units[0].index >= len(w.units) else w for w in windows]
    # A pair must earn its place: it wins only when it covers clearly more than its better half.
    windows.sort(key=lambda w: (-(w.score - 0.04 * (len(w.units) - 1)), w.start))
    return windows


def _window(
    alignment: Alignment,
    index: SourceIndex,
    group: Sequence[int],
    vectors: np.ndarray,
    known: np.ndarray,
    claim: np.ndarray,
) -> Window:
    """The window of the units at ``group`` (one source; the text from the first to the last)."""
    units = tuple(index.units[i] for i in group)
    keys: set[str] = set().union(*(u.keys for u in units))
    if known[list(group)].all() and claim.any():
        vector = vectors[list(group)].sum(axis=0)
        similarity = float(vector @ claim / max(float(np.linalg.norm(vector)), 1e-9))
    else:  # not embedded (over the request's budget): meaning is read from the words alone
        similarity = _coverage(keys, alignment, words_only=True)
    start, end = units[0].start, units[-1].end
    text = index.by_id[units[0].source_id].text[start:end]
    return Window(
        units[0].source_id,
        start,
        end,
        text,
        units,
        similarity,
        _coverage(keys, alignment),
        _coverage(keys, alignment, words_only=True),
    )
