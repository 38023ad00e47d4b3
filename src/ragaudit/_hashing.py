"""SHA-256 digests that identify what was audited."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

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
