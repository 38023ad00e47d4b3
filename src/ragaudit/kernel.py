"""The batch kernel: audit Arrow record batches (or pandas frames), one flat, typed row per input row.

One pure function, :func:`audit_batches`, is what every engine calls: the local ``--batch`` pool,
Spark's ``mapInArrow``, Ray Data's ``map_batches`` and Dask's ``map_partitions``. It builds the
:class:`~ragaudit.Auditor` once per worker process (a judge may load a model; that must not happen
per batch) and never stops on a bad row: the row gets an ``error`` and no scores.

>>> import pyarrow as pa
>>> rows = pa.RecordBatch.from_pylist([
...     {"id": "a", "answer": "Paris is in France.", "sources": '[{"id": "1", "text": "Paris is in France."}]'},
...     {"id": "b", "answer": "", "sources": "[]"},
... ])
>>> out = next(audit_batches([rows]))
>>> out.column("label").to_pylist(), out.column("error").to_pylist()[1][:16]
(['faithful', None], 'the answer is em')
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ragaudit._hashing import invalid_key, request_hashes, request_key
from ragaudit.config import AuditorConfig
from ragaudit.errors import ConfigError, InputError, RagAuditError
from ragaudit.models import CLAIM_STATUSES, AuditRequest, Report
from ragaudit.requests import coerce_sources, loads, validate_request

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from ragaudit._pipeline import Auditor

ROLES = ("id", "question", "answer", "sources")
"""Input columns the kernel reads, by role; ``answer`` and ``sources`` are required."""
COUNT_COLUMNS = ("claims", *CLAIM_STATUSES)


@dataclass(frozen=True)
class BatchConfig:
    """How to audit a table: the auditor's configuration, which input column plays which role, which to keep.

    It is small and picklable (when the judge is a spec string): engines ship it to their workers,
    which build the auditor from ``auditor``.

    >>> BatchConfig(AuditorConfig(risk_level="high"), keep=(("task", "task"),)).auditor.risk_level
    'high'
    """

    auditor: AuditorConfig = field(default_factory=AuditorConfig)
    """Judge, policy, risk level, claim types, calibration and limits: the same object every entry point takes."""
    columns: tuple[tuple[str, str], ...] = ()
    """``(role, input column)`` pairs overriding the default names ``id, question, answer, sources``."""
    keep: tuple[tuple[str, str], ...] = ()
    """``(input column, output column)`` pairs copied to the output (slices, gold labels, keys of your own)."""
    _roles: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        roles = {role: role for role in ROLES}
        for role, column in self.columns:
            if role not in ROLES:
                raise ConfigError(f"unknown column role {role!r}; map one of {', '.join(ROLES)} to an input column")
            roles[role] = column
        object.__setattr__(self, "_roles", roles)
        taken = set(output_names())
        for _, out in self.keep:
            if out in taken:
                raise ConfigError(f"kept column {out!r} clashes with an output column; keep it as IN:OTHER_NAME")
            taken.add(out)

    def column(self, role: str) -> str:
        """The input column that plays ``role``."""
        return self._roles[role]

    def input_columns(self, available: Sequence[str]) -> list[str]:
        """The input columns to read, in a stable order; raise when a required one is missing."""
        for role in ("answer", "sources"):
            if self.column(role) not in available:
                raise ConfigError(
                    f"the input has no {self.column(role)!r} column (the {role}); "
                    f"its columns are {', '.join(available) or 'none'}; map it with --column {role}=NAME"
                )
        wanted = [self.column(r) for r in ROLES if self.column(r) in available]
        for source, _ in self.keep:
            if source not in available:
                raise ConfigError(f"cannot keep column {source!r}: the input has no such column")
            if source not in wanted:
                wanted.append(source)
        return wanted


def output_names() -> tuple[str, ...]:
    """Names of the kernel's own output columns, in order."""
    return (
        "request_hash",
        "id",
        "label",
        "faithfulness",
        "hallucination_score",
        *COUNT_COLUMNS,
        "decision",
        "judge",
        "judge_version",
        "report_json",
        "error",
    )


def output_schema(config: BatchConfig | None = None, input_schema: pa.Schema | None = None) -> pa.Schema:
    """The flat output schema: the kernel's columns, then the kept ones (typed as in the input)."""
    import pyarrow as pa

    fields: list[pa.Field[Any]] = [
        pa.field("request_hash", pa.string(), nullable=False),
        pa.field("id", pa.string()),
        pa.field("label", pa.string()),
        pa.field("faithfulness", pa.float64()),
        pa.field("hallucination_score", pa.float64()),
        *(pa.field(name, pa.int32()) for name in COUNT_COLUMNS),
        pa.field("decision", pa.string()),
        pa.field("judge", pa.string()),
        pa.field("judge_version", pa.string()),
        pa.field("report_json", pa.string()),
        pa.field("error", pa.string()),
    ]
    for source, out in config.keep if config else ():
        kind = input_schema.field(source).type if input_schema is not None else pa.string()
        fields.append(pa.field(out, kind))
    return pa.schema(fields)


_auditors: list[tuple[AuditorConfig, Auditor]] = []


def worker_auditor(config: AuditorConfig | BatchConfig) -> Auditor:
    """The auditor for ``config`` in this process, built on first use and kept for the process's life."""
    if isinstance(config, BatchConfig):
        config = config.auditor
    # Compared by value, not hashed: a policy or calibration object in the config is not hashable.
    for known, auditor in _auditors:
        if known == config:
            return auditor
    from ragaudit._pipeline import Auditor

    auditor = Auditor(config)
    _auditors.append((config, auditor))
    return auditor


def _text(value: object) -> str | None:
    """An id read from any column type (Parquet ids are often integers)."""
    return None if value is None else str(value)


def _sources(value: object) -> object:
    """Sources as a list: a JSON string is decoded, a list of structs or strings is taken as is."""
    if isinstance(value, str):
        try:
            return loads(value)
        except InputError as exc:
            raise InputError(f"the sources column holds {exc.message}") from None
    return value


def parse_row(row: Mapping[str, object], config: BatchConfig) -> tuple[str, AuditRequest | None, str | None]:
    """One input row as ``(request_hash, request, None)`` or ``(request_hash, None, error)``."""
    raw = [row.get(config.column(r)) for r in ROLES]
    request_id, question, answer, sources = raw
    try:
        decoded = _sources(sources)
        if decoded is None:
            raise ValueError("the sources are missing (null); give the passages the answer was generated from")
        if not isinstance(decoded, list):
            raise ValueError(f"the sources are a {type(decoded).__name__}; give a list of {{id, text}} objects")
        request = validate_request(
            {"id": _text(request_id), "question": question, "answer": answer, "sources": coerce_sources(decoded)}
        )
    except (ValueError, TypeError) as exc:
        return invalid_key(raw), None, str(exc)
    key = request_key(request.id, request_hashes(request.answer, request.sources, request.question))
    return key, request, None


def _report_row(key: str, report: Report) -> dict[str, Any]:
    counts = report.counts
    return {
        "request_hash": key,
        "id": report.id,
        "label": report.label,
        "faithfulness": report.faithfulness,
        "hallucination_score": report.hallucination_score,
        "claims": counts.total,
        **{status: getattr(counts, status) for status in CLAIM_STATUSES},
        "decision": report.decision.action if report.decision else None,
        "judge": report.judge.name,
        "judge_version": report.judge.version,
        "report_json": report.to_json(),
        "error": None,
    }


def error_row(key: str, request_id: str | None, error: str) -> dict[str, Any]:
    """The output row of a request that could not be audited: the key, the id and the error only."""
    return {name: None for name in output_names()} | {"request_hash": key, "id": request_id, "error": error}


def request_keys(batch: pa.RecordBatch, config: BatchConfig | None = None) -> list[str]:
    """The request hash of every row of ``batch`` (what resumable runs compare with their output)."""
    config = config or BatchConfig()
    names = config.input_columns(batch.schema.names)
    return [parse_row(row, config)[0] for row in batch.select(names).to_pylist()]


def _audit_record_batch(
    batch: pa.RecordBatch, config: BatchConfig, auditor: Auditor, skip: Container[str]
) -> pa.RecordBatch:
    import pyarrow as pa

    names = config.input_columns(batch.schema.names)
    rows: list[dict[str, Any]] = []
    kept: list[int] = []
    for position, row in enumerate(batch.select(names).to_pylist()):
        try:
            key, request, error = parse_row(row, config)
        except Exception as exc:  # a value no validator foresaw still yields an error row, not a dead batch
            key, request = invalid_key([row.get(config.column(r)) for r in ROLES]), None
            error = f"internal error reading the row ({type(exc).__name__}): {exc}"
        if key in skip:
            continue
        kept.append(position)
        if request is None:
            rows.append(error_row(key, _text(row.get(config.column("id"))), error or "invalid request"))
            continue
        try:
            rows.append(_report_row(key, auditor.audit(request)))
        except RagAuditError as exc:
            rows.append(error_row(key, request.id, str(exc)))
        except Exception as exc:  # one failing row must never stop a batch of millions
            rows.append(error_row(key, request.id, f"internal error ({type(exc).__name__}): {exc}"))
    schema = output_schema(config, batch.schema)
    columns = [pa.array([r[name] for r in rows], type=schema.field(name).type) for name in output_names()]
    if config.keep:
        take = pa.array(kept, type=pa.int64())
        columns.extend(batch.column(source).take(take) for source, _ in config.keep)
    return pa.RecordBatch.from_arrays(columns, schema=schema)


BatchT = TypeVar("BatchT", "pa.RecordBatch", "pa.Table", "pd.DataFrame")


def audit_batches(
    batches: Iterable[BatchT],
    config: BatchConfig | None = None,
    *,
    skip: Container[str] = frozenset(),
) -> Iterator[BatchT]:
    """Audit every row of every batch; yield one output batch per input batch, of the same kind.

    Args:
        batches: ``pyarrow.RecordBatch``, ``pyarrow.Table`` or ``pandas.DataFrame`` batches with (by default) the
            columns ``answer``, ``sources`` (a list of ``{id, text}`` structs, a list of strings,
            or a JSON string) and optionally ``question`` and ``id``; other columns are ignored
            unless kept (``config.keep``).
        config: Judge options and column mapping (default: the offline judge, default names).
        skip: Request hashes to leave out (rows already in a resumed run's output).

    Output rows follow input order; rows whose hash is in ``skip`` are left out. Every output row
    has either scores and ``report_json`` (the canonical report) or an ``error`` and no scores.
    """
    import pyarrow as pa

    config = config or BatchConfig()
    auditor = worker_auditor(config)
    for batch in batches:
        if isinstance(batch, pa.RecordBatch):
            yield _audit_record_batch(batch, config, auditor, skip)
        elif isinstance(batch, pa.Table):  # Ray Data hands out tables
            parts = [_audit_record_batch(b, config, auditor, skip) for b in batch.to_batches()]
            yield pa.Table.from_batches(parts, schema=output_schema(config, batch.schema))
        else:
            arrow = pa.RecordBatch.from_pandas(batch, preserve_index=False)
            yield _audit_record_batch(arrow, config, auditor, skip).to_pandas()
