"""The learned pair verifier (issue 9, item 3): P(entailed / neutral / contradicted) for a (claim, window) pair.

A cross-encoder fine-tuned from all-MiniLM-L6-v2 by ``benchmarks/train_pair_model.py`` on dev-split
claims and generated minimal pairs, exported as int8 ONNX to ``benchmarks/out/pair_model/`` with its
model card (``card.json``: data hashes, seed, versions, metrics); the file is checked against the card's
SHA-256 before it runs. Inputs longer than the model's context are split, never cut: a long window is
read in overlapping pieces (the best-supporting piece counts), a long claim in pieces that must each be
supported (the weakest counts).

It is not shipped in the package: measured as a feature of the verifier's logistic model it lowered
response-level accuracy on both the RAGTruth dev half and handcrafted_dev (``benchmarks/pair_ablation.py``,
RESULTS.md), so the package carries no 23 MB file it would not use.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ARTIFACT = Path(__file__).resolve().parent / "out" / "pair_model"
"""``model.onnx`` and ``card.json``, written by ``train_pair_model.py``."""
MAX_TOKENS = 128
"""The model's context: [CLS] claim [SEP] window [SEP]."""
CLAIM_TOKENS = 48
"""Claim tokens per piece at most; the window gets the rest of the context."""
MAX_PIECES = 6
"""Pieces per claim or window at most; a longer text (over ~400 words: no claim or sentence) is read
at evenly spaced pieces, first and last included."""
LABELS = ("entailed", "neutral", "contradicted")
_CACHE_PAIRS = 8_192
_CACHE_CHARS = 4_000_000
_BATCH = 16

Probabilities = npt.NDArray[np.float32]


def _spread(starts: list[int], most: int) -> list[int]:
    """At most ``most`` of ``starts``, evenly spaced, first and last kept."""
    if len(starts) <= most:
        return starts
    last = len(starts) - 1
    return [starts[round(k * last / (most - 1))] for k in range(most)]


def _pieces(ids: list[int], size: int) -> list[list[int]]:
    """``ids`` in overlapping pieces of at most ``size`` (half a piece of overlap)."""
    if len(ids) <= size:
        return [ids]
    step = max(1, size // 2)
    starts = _spread(list(range(0, len(ids) - size + step, step)), MAX_PIECES)
    return [ids[s : s + size] for s in starts]


def pair_inputs(
    claim_ids: list[int], window_ids: list[int], cls: int, sep: int
) -> list[list[tuple[list[int], list[int]]]]:
    """Model inputs (ids, token types) for one pair: one list of window pieces per claim piece.

    ``claim_ids`` and ``window_ids`` are the texts' tokens without special tokens.
    """
    out = []
    for claim in _pieces(claim_ids, CLAIM_TOKENS):
        room = MAX_TOKENS - 3 - len(claim)
        row = []
        for window in _pieces(window_ids, room):
            ids = [cls, *claim, sep, *window, sep]
            types = [0] * (len(claim) + 2) + [1] * (len(window) + 1)
            row.append((ids, types))
        out.append(row)
    return out


@dataclass(frozen=True, slots=True)
class PairCard:
    """What the model card says about the shipped file."""

    sha256: str
    metrics: dict[str, Any]


class PairModel:
    """The ONNX session and tokenizer, built once per process; verdicts cached per pair (bounded)."""

    def __init__(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        data = resources.files("ragaudit.data")
        card = json.loads((ARTIFACT / "card.json").read_text(encoding="utf-8"))
        self.card = PairCard(sha256=card["sha256"], metrics=card.get("metrics", {}))
        raw = (ARTIFACT / "model.onnx").read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        if digest != self.card.sha256:
            raise RuntimeError(f"{ARTIFACT / 'model.onnx'} has SHA-256 {digest}, its card says {self.card.sha256}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(raw, options, providers=["CPUExecutionProvider"])
        tokenizer = Tokenizer.from_str(data.joinpath("minilm_tokenizer.json").read_text(encoding="utf-8"))
        tokenizer.no_padding()
        tokenizer.no_truncation()
        self.tokenizer = tokenizer
        cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
        if cls is None or sep is None:
            raise RuntimeError("ragaudit/data/minilm_tokenizer.json lacks [CLS] or [SEP]: reinstall ragaudit")
        self.cls, self.sep = int(cls), int(sep)
        self.cache: OrderedDict[tuple[str, str], Probabilities] = OrderedDict()
        self.cache_chars = 0
        self.lock = threading.Lock()

    def _ids(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text[:20_000], add_special_tokens=False).ids)

    def _run(self, inputs: list[tuple[list[int], list[int]]]) -> Probabilities:
        out = np.zeros((len(inputs), len(LABELS)), dtype=np.float32)
        order = sorted(range(len(inputs)), key=lambda i: len(inputs[i][0]))
        for start in range(0, len(order), _BATCH):
            chunk = order[start : start + _BATCH]
            width = max(len(inputs[i][0]) for i in chunk)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            types = np.zeros_like(ids)
            mask = np.zeros_like(ids)
            for row, i in enumerate(chunk):
                n = len(inputs[i][0])
                ids[row, :n] = inputs[i][0]
                types[row, :n] = inputs[i][1]
                mask[row, :n] = 1
            logits = self.session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})[0]
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            out[chunk] = z / z.sum(axis=1, keepdims=True)
        return out

    def score(self, pairs: Sequence[tuple[str, str]]) -> Probabilities:
        """One row of probabilities (:data:`LABELS` order) per (claim, window) pair."""
        out = np.zeros((len(pairs), len(LABELS)), dtype=np.float32)
        todo: dict[tuple[str, str], list[int]] = {}
        with self.lock:
            for i, pair in enumerate(pairs):
                hit = self.cache.get(pair)
                if hit is not None:
                    self.cache.move_to_end(pair)
                    out[i] = hit
                else:
                    todo.setdefault(pair, []).append(i)
        if not todo:
            return out
        layout: list[list[list[int]]] = []
        flat: list[tuple[list[int], list[int]]] = []
        for claim, window in todo:
            rows = []
            for pieces in pair_inputs(self._ids(claim), self._ids(window), self.cls, self.sep):
                rows.append(list(range(len(flat), len(flat) + len(pieces))))
                flat.extend(pieces)
            layout.append(rows)
        probabilities = self._run(flat)
        with self.lock:
            for (pair, where), rows in zip(todo.items(), layout, strict=True):
                # Each claim piece by its best-supporting window piece; the claim by its weakest piece.
                best = [max(row, key=lambda i: probabilities[i, 0]) for row in rows]
                verdict = probabilities[min(best, key=lambda i: probabilities[i, 0])]
                for i in where:
                    out[i] = verdict
                if pair not in self.cache:
                    self.cache_chars += len(pair[0]) + len(pair[1])
                self.cache[pair] = verdict
                while len(self.cache) > _CACHE_PAIRS or self.cache_chars > _CACHE_CHARS:
                    (claim, window), _ = self.cache.popitem(last=False)
                    self.cache_chars -= len(claim) + len(window)
        return out


@cache
def load_pair_model() -> PairModel:
    """The trained pair verifier (one per process)."""
    return PairModel()
