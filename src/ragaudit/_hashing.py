"""SHA-256 digests that identify what was audited."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from ragaudit.models import RequestHashes, Source


def sha256(text: str) -> str:
    """Hex SHA-256 of the UTF-8 encoding of ``text``."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_hashes(answer: str, sources: Sequence[Source], question: str | None) -> RequestHashes:
    """Digests of the answer, the question, each source and the (order-free) set of sources."""
    per_source = {s.id: sha256(s.text) for s in sources}
    source_set = sha256("\n".join(f"{sid}\t{digest}" for sid, digest in sorted(per_source.items())))
    return RequestHashes(
        answer=sha256(answer),
        question=sha256(question) if question is not None else None,
        sources=per_source,
        source_set=source_set,
    )


def request_key(request_id: str | None, hashes: RequestHashes) -> str:
    """Idempotent key of one audit request: its id, answer, question and ordered sources.

    Sources are keyed in order (citations refer to positions), so it is computed from
    ``hashes.sources`` (insertion-ordered) and not from the order-free ``source_set``.
    """
    parts = ["\x00" if request_id is None else request_id, hashes.answer, hashes.question or ""]
    parts.extend(f"{sid}\t{digest}" for sid, digest in hashes.sources.items())
    return sha256("\x1f".join(parts))


def invalid_key(values: Sequence[object]) -> str:
    """Key of a row that is not a valid request: a digest of its raw values."""
    import json

    return sha256("invalid\x1f" + json.dumps(list(values), sort_keys=True, ensure_ascii=False, default=str))


_NOT_VERDICTS = frozenset({"service", "_cli", "integrations", "render", "schemas", "policies", "__pycache__"})
"""Parts of the package that never change a verdict: left out, so a CLI fix keeps report caches."""


def verdict_files() -> list[Path]:
    """The package's code and data that reach verdicts (segmenting, aligning, the offline judge, the
    checks), in a fixed order."""
    root = Path(__file__).parent
    return [
        path
        for path in sorted(root.rglob("*"))
        if path.suffix in (".py", ".toml", ".json") and not _NOT_VERDICTS & set(path.relative_to(root).parts)
    ]


@cache
def rules_digest() -> str:
    """A digest of :func:`verdict_files`: part of the offline judge's version, so a cached report is
    never one that other rules would have written."""
    root = Path(__file__).parent
    digest = hashlib.sha256()
    for path in verdict_files():
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]
