"""Reading and validating audit requests from Python values, JSON files and JSON Lines.

The benchmark format (``id``, ``task``, ``question``, ``sources``, ``answer``, ``label``,
``spans``, ``meta``) is a superset of a request and is accepted as is; extra fields are ignored.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

# The default limits live with the configuration; re-exported here, where callers have always found them.
from ragaudit.config import MAX_ANSWER_CHARS as MAX_ANSWER_CHARS
from ragaudit.config import MAX_ID_CHARS as MAX_ID_CHARS
from ragaudit.config import MAX_QUESTION_CHARS as MAX_QUESTION_CHARS
from ragaudit.config import MAX_SOURCE_CHARS as MAX_SOURCE_CHARS
from ragaudit.config import MAX_SOURCES as MAX_SOURCES
from ragaudit.config import Limits
from ragaudit.errors import InputError, LimitError
from ragaudit.models import AuditRequest, Source

SourcesLike = Sequence[Source | Mapping[str, Any] | str]


def coerce_sources(sources: SourcesLike) -> list[Source]:
    """Accept Source objects, ``{"id", "text"}`` mappings, or bare strings (ids ``"1"``, ``"2"`` …)."""
    result: list[Source] = []
    for position, item in enumerate(sources, start=1):
        if isinstance(item, Source):
            result.append(item)
        elif isinstance(item, str):
            result.append(Source(id=str(position), text=item))
        elif isinstance(item, Mapping):
            result.append(Source(id=str(item.get("id", position)), text=item.get("text", "")))
        else:
            raise InputError(
                f"source {position} is a {type(item).__name__}; give a string or an object with 'id' and 'text'"
            )
    return result


def _describe(error: Mapping[str, Any]) -> str:
    loc = ".".join(str(p) for p in error["loc"])
    kind = error["type"]
    if kind == "missing":
        return f"field '{loc}' is missing"
    if kind.endswith("_type"):
        got = type(error.get("input")).__name__
        return f"field '{loc}' has the wrong type ({got}): {error['msg'].lower()}"
    return f"field '{loc}': {error['msg']}"


def validate_request(data: object, limits: Limits | None = None) -> AuditRequest:
    """Turn a decoded JSON value into a checked :class:`AuditRequest`, or raise :class:`InputError`."""
    if not isinstance(data, Mapping):
        raise InputError(f"expected a JSON object with 'answer' and 'sources', got {type(data).__name__}")
    try:
        request = AuditRequest.model_validate(data)
    except ValidationError as exc:
        raise InputError(
            _describe(exc.errors()[0])
            + '; a request is {"answer": str, "sources": [{"id": str, "text": str}], "question": str|null}'
        ) from None
    check_request(request, limits)
    return request


_DEFAULT_LIMITS = Limits()


def check_request(request: AuditRequest, limits: Limits | None = None) -> None:
    """Raise :class:`InputError` for a request that cannot be audited.

    Over a size limit of ``limits`` (answer length, source text, number of sources) it is a
    :class:`LimitError`; an over-long question or id is a malformed field, a plain :class:`InputError`.
    """
    limits = limits or _DEFAULT_LIMITS
    if not request.answer.strip():
        raise InputError("the answer is empty; give the generated text to audit in 'answer'")
    if not request.sources:
        raise InputError(
            "no sources were given; an answer can only be audited against the passages it was generated from"
        )
    if len(request.answer) > limits.answer_chars:
        raise LimitError(
            f"the answer has {len(request.answer):,} characters, over the limit of {limits.answer_chars:,}; split it"
        )
    if request.question is not None and len(request.question) > limits.question_chars:
        raise InputError(
            f"the question has {len(request.question):,} characters, over the limit of {limits.question_chars:,}"
        )
    if request.id is not None and len(request.id) > limits.id_chars:
        raise InputError(f"the request id has {len(request.id):,} characters, over the limit of {limits.id_chars}")
    if len(request.sources) > limits.sources:
        raise LimitError(f"{len(request.sources)} sources is over the limit of {limits.sources}")
    total = sum(len(s.text) for s in request.sources)
    if total > limits.source_chars:
        raise LimitError(
            f"the sources have {total:,} characters, over the limit of {limits.source_chars:,}; pass only the passages the generator saw"
        )
    seen: set[str] = set()
    for s in request.sources:
        if len(s.id) > limits.id_chars:
            raise InputError(
                f"source id {s.id[:40]!r}… has {len(s.id):,} characters, over the limit of {limits.id_chars}"
            )
        if s.id in seen:
            raise InputError(f"source id {s.id!r} is used twice; every source needs a distinct id")
        seen.add(s.id)
    _check_encodable("answer", request.answer)
    if request.question is not None:
        _check_encodable("question", request.question)
    if request.id is not None:
        _check_encodable("id", request.id)
    for s in request.sources:
        _check_encodable(f"source {s.id!r} id", s.id)
        _check_encodable(f"source {s.id!r}", s.text)


def _check_encodable(field: str, text: str) -> None:
    """Reject lone UTF-16 surrogates (``"\\ud800"`` in JSON): no valid text contains them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"the {field} contains an unpaired surrogate (U+{ord(text[exc.start]):04X}) at character {exc.start}; "
            "escape characters outside the BMP as a surrogate pair or write them as UTF-8"
        ) from None


def loads(text: str | bytes) -> Any:
    """Decode JSON, turning every way it can fail (syntax, depth, huge integers) into one clear error."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InputError("JSON nested too deeply (arrays/objects inside each other); flatten it") from None
    except ValueError:  # an integer over sys.get_int_max_str_digits() (4,300) digits
        raise InputError(
            f"invalid JSON: a number has more than {sys.get_int_max_str_digits():,} digits; write it as a string"
        ) from None


def _decode(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 (byte {exc.start}); re-encode the file as UTF-8", location=where) from None


def parse_request_text(text: str, where: str) -> AuditRequest:
    """Parse one JSON request, naming ``where`` in any error."""
    try:
        return validate_request(loads(text))
    except InputError as exc:
        raise exc.at(where) from None


def _read_bytes(path: Path | str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", location=str(path)) from None


def read_request(path: Path | str, data: bytes | None = None) -> AuditRequest:
    """Read one request from a JSON file (``-`` with ``data`` for stdin)."""
    where = str(path)
    return parse_request_text(_decode(_read_bytes(path) if data is None else data, where), where)


@dataclass(frozen=True, slots=True)
class BatchLine:
    """One line of a JSON Lines batch: a request, or the error that stopped it."""

    line: int
    request: AuditRequest | None
    error: InputError | None
    raw: dict[str, Any] | None = None
    """The decoded object (benchmark rows keep their labels here)."""


def _lines(path: Path | str) -> Iterator[bytes]:
    """The file's lines, read as they are needed (a batch may be larger than memory)."""
    try:
        with Path(path).open("rb") as handle:
            for line in handle:
                yield line.removesuffix(b"\n")
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", location=str(path)) from None


def read_batch(path: Path | str, data: bytes | None = None) -> Iterator[BatchLine]:
    """Yield every non-blank line of a JSONL file as a request or an error; never stop early."""
    where = str(path)
    for number, raw_line in enumerate(_lines(path) if data is None else data.split(b"\n"), start=1):
        if not raw_line.strip():
            continue
        place = f"{where}:{number}"
        try:
            obj = loads(_decode(raw_line, place))
        except InputError as exc:
            yield BatchLine(number, None, exc if exc.location else exc.at(place))
            continue
        try:
            yield BatchLine(number, validate_request(obj), None, obj if isinstance(obj, dict) else None)
        except InputError as exc:
            yield BatchLine(number, None, exc.at(place))
