"""Local batches over Parquet and JSON Lines: read Arrow batches, audit them on every core with the
kernel, and write the output so that a rerun resumes where a crashed run stopped.

Parquet output is a directory of part files (as Spark writes it); each part is written to a hidden
temporary name and renamed into place, so a ``kill -9`` leaves only whole parts behind. JSON Lines
output is appended line by line; a torn last line is cut off on resume. A resumed run skips every
request hash already present in the output, so each request is audited exactly once.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ragaudit._hashing import invalid_key, request_hashes, request_key
from ragaudit.batch import default_workers
from ragaudit.errors import ConfigError, InputError
from ragaudit.kernel import BatchConfig, audit_batches, error_row
from ragaudit.requests import read_batch

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult

    import pyarrow as pa

Format = Literal["parquet", "jsonl"]
_JSONL_SUFFIXES = (".jsonl", ".json", ".ndjson")
BATCH_ROWS = 64
"""Rows per task sent to a worker: small enough for an even spread and a live progress bar."""


def table_format(path: Path) -> Format:
    """``jsonl`` for ``.jsonl``/``.json``/``.ndjson`` files, ``parquet`` for ``.parquet`` files or directories."""
    if path.suffix.lower() in _JSONL_SUFFIXES:
        return "jsonl"
    if path.suffix.lower() in (".parquet", ".pq") or path.is_dir():
        return "parquet"
    raise ConfigError(f"{path}: cannot tell the format from the name; use .jsonl or .parquet (a file or directory)")


@dataclass
class Chunk:
    """Input rows for the kernel, and the rows of the same stretch that are not requests at all."""

    batch: pa.RecordBatch
    bad: list[tuple[str, str | None, str]] = field(default_factory=list)
    """``(request_hash, id, message)`` for lines that could not be read as requests."""
    lines: dict[str, int] = field(default_factory=dict)
    """Request hash → JSONL line number, to place errors."""


def _jsonl_chunks(path: Path, config: BatchConfig, rows: int) -> Iterator[Chunk]:
    import pyarrow as pa

    source_type = pa.list_(pa.struct([("id", pa.string()), ("text", pa.string())]))
    keep = [source for source, _ in config.keep]
    chunk = Chunk(pa.record_batch([]))
    records: list[dict[str, Any]] = []

    def flush() -> Chunk:
        columns = {
            "id": pa.array([r["id"] for r in records], pa.string()),
            "question": pa.array([r["question"] for r in records], pa.string()),
            "answer": pa.array([r["answer"] for r in records], pa.string()),
            "sources": pa.array([r["sources"] for r in records], source_type),
        }
        for name in keep:  # JSON values of any type: kept as text, JSON-encoded unless already a string
            columns[name] = pa.array(
                [
                    None if (v := r["keep"].get(name)) is None else v if isinstance(v, str) else json.dumps(v)
                    for r in records
                ],
                pa.string(),
            )
        return Chunk(pa.RecordBatch.from_pydict(columns), chunk.bad, chunk.lines)

    for item in read_batch(path):
        if item.request is None:
            assert item.error is not None
            raw_id = item.raw.get("id") if item.raw else None
            chunk.bad.append((invalid_key(["jsonl", item.line, item.error.message]), raw_id, str(item.error)))
        else:
            request = item.request
            records.append(
                {
                    "id": request.id,
                    "question": request.question,
                    "answer": request.answer,
                    "sources": [s.model_dump() for s in request.sources],
                    "keep": {k: (item.raw or {}).get(k) for k in keep},
                }
            )
            key = request_key(request.id, request_hashes(request.answer, request.sources, request.question))
            chunk.lines[key] = item.line
        if len(records) >= rows:
            yield flush()
            chunk, records = Chunk(pa.record_batch([])), []
    if records or chunk.bad:
        yield flush()


def _parquet_chunks(path: Path, config: BatchConfig, rows: int) -> Iterator[Chunk]:
    import pyarrow.dataset as ds

    dataset = ds.dataset(path, format="parquet")
    names = config.input_columns(dataset.schema.names)
    for batch in dataset.to_batches(columns=names, batch_size=rows):
        if batch.num_rows:
            yield Chunk(batch)


def read_chunks(path: Path, config: BatchConfig, rows: int = BATCH_ROWS) -> Iterator[Chunk]:
    """Read ``path`` (Parquet file or directory, or JSON Lines) in chunks of about ``rows`` rows."""
    if not path.exists():
        raise InputError("no such file or directory", location=str(path))
    if table_format(path) == "jsonl":
        return _jsonl_chunks(path, config, rows)
    return _parquet_chunks(path, config, rows)


def count_rows(path: Path) -> int:
    """Rows in the input (Parquet: from the metadata; JSON Lines: non-blank lines)."""
    if table_format(path) == "jsonl":
        with path.open("rb") as handle:
            return sum(1 for line in handle if line.strip())
    import pyarrow.dataset as ds

    return int(ds.dataset(path, format="parquet").count_rows())


# --- sinks ------------------------------------------------------------------------------------------
class ParquetSink:
    """A directory of Parquet parts; each part appears whole (written aside, then renamed)."""

    def __init__(self, path: Path, *, commit_rows: int = 2000, commit_seconds: float = 5.0) -> None:
        self.path = path
        self.commit_rows = commit_rows
        self.commit_seconds = commit_seconds
        self._run = f"{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{os.getpid()}"
        self._seq = 0
        self._pending: list[pa.RecordBatch] = []
        self._pending_rows = 0
        self._last = time.monotonic()

    def existing_keys(self) -> set[str]:
        """Request hashes already written (whole parts only)."""
        import pyarrow.dataset as ds

        if not self.path.exists():
            return set()
        table = ds.dataset(self.path, format="parquet").to_table(columns=["request_hash"])
        return {str(key) for key in table.column("request_hash").to_pylist()}

    def prepare(self, mode: Literal["new", "resume", "overwrite"]) -> set[str]:
        """Check or clear the output for ``mode``; return the hashes to skip."""
        if self.path.is_file():
            raise ConfigError(
                f"{self.path} is a single file; batch output is a directory of Parquet parts: give another --out"
            )
        parts = self._parts()
        if parts and mode == "new":
            raise ConfigError(
                f"{self.path} already holds reports; pass --resume to audit only the rows missing from it, or --overwrite"
            )
        if mode == "overwrite" and self.path.exists():
            strangers = [p.name for p in self.path.iterdir() if p not in parts and not p.name.startswith((".", "_"))]
            if strangers:
                raise ConfigError(
                    f"{self.path} holds files that are not report parts ({strangers[0]} …); not removing it"
                )
            shutil.rmtree(self.path)
        self.path.mkdir(parents=True, exist_ok=True)
        for stale in self.path.glob(".tmp-*"):  # torn parts of a killed run
            stale.unlink()
        return self.existing_keys() if mode == "resume" else set()

    def _parts(self) -> list[Path]:
        return sorted(self.path.glob("*.parquet")) if self.path.is_dir() else []

    def write(self, batch: pa.RecordBatch) -> None:
        """Buffer rows; commit a part every ``commit_rows`` rows or ``commit_seconds`` seconds."""
        if batch.num_rows:
            self._pending.append(batch)
            self._pending_rows += batch.num_rows
        if self._pending_rows >= self.commit_rows or (
            self._pending_rows and time.monotonic() - self._last >= self.commit_seconds
        ):
            self.commit()

    def commit(self) -> None:
        """Write the buffered rows as one part file, atomically."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._last = time.monotonic()
        if not self._pending:
            return
        table = pa.Table.from_batches(self._pending)
        name = f"part-{self._run}-{self._seq:05d}.parquet"
        temporary = self.path / f".tmp-{name}"
        pq.write_table(table, temporary, compression="zstd")
        with temporary.open("rb") as handle:
            os.fsync(handle.fileno())
        temporary.replace(self.path / name)
        self._seq += 1
        self._pending, self._pending_rows = [], 0

    def close(self) -> None:
        """Commit what is left."""
        self.commit()


class JsonlSink:
    """One canonical report (or view) per line, appended and flushed batch by batch."""

    def __init__(self, path: Path | None, view: str = "canonical") -> None:
        self.path = path
        self.view = view
        self._handle: Any = None

    def prepare(self, mode: Literal["new", "resume", "overwrite"]) -> set[str]:
        """Check, clear or repair the output for ``mode``; return the hashes to skip."""
        import sys

        if self.path is None:
            if mode == "resume":
                raise ConfigError("--resume needs --out: the reports already written are read from it")
            self._handle = sys.stdout
            return set()
        exists = self.path.exists() and self.path.stat().st_size > 0
        if exists and mode == "new":
            raise ConfigError(
                f"{self.path} already holds reports; pass --resume to audit only the rows missing from it, or --overwrite"
            )
        keys: set[str] = set()
        if exists and mode == "resume":
            if self.view != "canonical":
                raise ConfigError("--resume reads request hashes from canonical reports; drop --view, or write Parquet")
            keys = self._repair_and_read()
        self._handle = self.path.open("a" if mode == "resume" else "w", encoding="utf-8")
        return keys

    def _repair_and_read(self) -> set[str]:
        from ragaudit.models import RequestHashes

        assert self.path is not None
        data = self.path.read_bytes()
        whole = data[: data.rfind(b"\n") + 1]
        if len(whole) != len(data):  # the last line was torn by a kill: it is audited again
            with self.path.open("r+b") as handle:
                handle.truncate(len(whole))
        keys: set[str] = set()
        for number, line in enumerate(whole.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                report = json.loads(line)
                hashes = RequestHashes.model_validate(report["hashes"])
            except (ValueError, KeyError, TypeError):
                raise InputError(
                    "not a canonical report with request hashes; resume only into ragaudit's own output",
                    location=f"{self.path}:{number}",
                ) from None
            keys.add(request_key(report.get("id"), hashes))
        return keys

    def write(self, batch: pa.RecordBatch) -> None:
        """Write the reports of ``batch`` (error rows are reported by the caller, not written)."""
        handle = self._handle
        assert handle is not None
        for text, error in zip(batch.column("report_json").to_pylist(), batch.column("error").to_pylist(), strict=True):
            if error is None:
                handle.write(self._render(str(text)) + "\n")
        handle.flush()

    def _render(self, text: str) -> str:
        if self.view == "canonical":
            return text
        from ragaudit.models import Report
        from ragaudit.render.views import render_view

        return json.dumps(render_view(Report.model_validate_json(text), self.view), ensure_ascii=False)

    def close(self) -> None:
        """Close the file (not stdout)."""
        if self.path is not None and self._handle is not None:
            self._handle.close()


# --- the pool ---------------------------------------------------------------------------------------
_worker_config: BatchConfig | None = None
_worker_skip: frozenset[str] = frozenset()


def _init_worker(config: BatchConfig, skip: frozenset[str]) -> None:
    global _worker_config, _worker_skip
    _worker_config, _worker_skip = config, skip
    from ragaudit.kernel import worker_auditor

    worker_auditor(config)  # built once per worker process, before the first batch


def _audit_in_worker(batch: pa.RecordBatch) -> pa.RecordBatch:
    assert _worker_config is not None, "worker was not initialised"
    return next(audit_batches([batch], _worker_config, skip=_worker_skip))


def audit_chunks(
    chunks: Iterator[Chunk], config: BatchConfig, *, workers: int, skip: frozenset[str]
) -> Iterator[tuple[Chunk, pa.RecordBatch]]:
    """Audit chunks on ``workers`` processes, yielding each with its output in input order.

    At most ``4 × workers`` chunks are in flight, so memory stays bounded on inputs of any size.
    """
    if workers <= 1:
        for chunk in chunks:
            yield chunk, next(audit_batches([chunk.batch], config, skip=skip))
        return
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(config, skip)) as pool:
        window: deque[tuple[Chunk, AsyncResult[pa.RecordBatch]]] = deque()
        for chunk in chunks:
            window.append((chunk, pool.apply_async(_audit_in_worker, (chunk.batch,))))
            if len(window) >= 4 * workers:
                done, result = window.popleft()
                yield done, result.get()
        while window:
            done, result = window.popleft()
            yield done, result.get()


@dataclass
class BatchSummary:
    """What a local batch did."""

    rows: int = 0
    """Input rows read."""
    audited: int = 0
    errors: int = 0
    skipped: int = 0
    """Rows already in the output of an earlier run."""
    labels: dict[str, int] = field(default_factory=lambda: {"faithful": 0, "hallucinated": 0})
    seconds: float = 0.0

    @property
    def rows_per_s(self) -> float:
        """Audited rows (errors included) per second of wall time."""
        return (self.audited + self.errors) / self.seconds if self.seconds > 0 else 0.0


def run_local(
    source: Path,
    out: Path | None,
    config: BatchConfig,
    *,
    workers: int | None = None,
    mode: Literal["new", "resume", "overwrite"] = "new",
    view: str = "canonical",
    on_rows: Callable[[int], None] | None = None,
    on_error: Callable[[str], None] | None = None,
) -> BatchSummary:
    """Audit ``source`` into ``out`` (Parquet directory, JSON Lines file, or stdout when ``None``).

    ``on_rows(n)`` is called as input rows are done (for a progress bar); ``on_error(line)`` once per
    row that could not be audited, with its place.
    """
    import pyarrow as pa

    started = time.perf_counter()
    parquet_out = out is not None and table_format(out) == "parquet"
    if parquet_out and view != "canonical":
        raise ConfigError("Parquet output holds canonical reports (report_json); --view needs JSON Lines output")
    sink: ParquetSink | JsonlSink = ParquetSink(out) if parquet_out and out else JsonlSink(out, view)
    chunks = read_chunks(source, config)  # checks the input before the output is touched
    first = next(chunks, None)
    if first is not None:
        config.input_columns(first.batch.schema.names)
    skip = frozenset(sink.prepare(mode))
    summary = BatchSummary()
    schema: pa.Schema | None = None
    try:

        def stream() -> Iterator[Chunk]:
            if first is not None:
                yield first
                yield from chunks

        for chunk, result in audit_chunks(stream(), config, workers=workers or default_workers(), skip=skip):
            schema = schema or result.schema
            bad = [b for b in chunk.bad if b[0] not in skip]
            summary.rows += chunk.batch.num_rows + len(chunk.bad)
            summary.skipped += chunk.batch.num_rows - result.num_rows + len(chunk.bad) - len(bad)
            errors = result.column("error").to_pylist()
            for key, row_id, message in zip(
                result.column("request_hash").to_pylist(), result.column("id").to_pylist(), errors, strict=True
            ):
                if message is not None and on_error:
                    line = chunk.lines.get(str(key))
                    place = f"{source}:{line}" if line else f"{source}: row {row_id or str(key)[:12]}"
                    on_error(f"{place}: {message}")
            for label in result.column("label").to_pylist():
                if label is not None:
                    summary.labels[label] += 1
            summary.errors += sum(e is not None for e in errors) + len(bad)
            summary.audited += sum(e is None for e in errors)
            for _, _, message in bad:
                if on_error:
                    on_error(message)
            sink.write(result)
            if bad and isinstance(sink, ParquetSink):
                rows = [
                    error_row(key, None if row_id is None else str(row_id), message) for key, row_id, message in bad
                ]
                table = pa.Table.from_pylist(rows, schema=result.schema)
                sink.write(table.combine_chunks().to_batches()[0])
            if on_rows:
                on_rows(chunk.batch.num_rows + len(chunk.bad))
    finally:
        sink.close()
    summary.seconds = time.perf_counter() - started
    return summary
