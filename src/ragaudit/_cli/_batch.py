"""``ragaudit audit --batch``: Parquet or JSON Lines in, resumable output, on a local pool or on Spark."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

import typer

from ragaudit._cli._common import EXIT_INPUT, progress, stderr
from ragaudit.config import AuditorConfig
from ragaudit.errors import ConfigError
from ragaudit.kernel import ROLES, BatchConfig
from ragaudit.render._safe import safe_markup


class Engine(StrEnum):
    """Where a batch runs."""

    local = "local"
    spark = "spark"


def _pairs(items: list[str] | None, what: str, sep: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for item in items or []:
        left, _, right = item.partition(sep)
        if not left or (sep == "=" and not right):
            raise ConfigError(f"{what} {item!r}: write {'ROLE=COLUMN' if sep == '=' else 'COLUMN or COLUMN:NEW_NAME'}")
        pairs.append((left, right or left))
    return tuple(pairs)


def build_config(
    auditor: AuditorConfig,
    *,
    columns: list[str] | None,
    keep: list[str] | None,
    slice_by: str | None,
    gold: str | None,
) -> tuple[BatchConfig, str | None, str | None]:
    """The kernel configuration (``auditor`` and the columns), and the output names of the slice and gold columns."""
    mapped = _pairs(columns, "--column", "=")
    kept = list(_pairs(keep, "--keep", ":"))
    outputs = {out for _, out in kept}
    slice_out = gold_out = None
    if slice_by:
        slice_out = next((o for s, o in kept if s == slice_by), None)
        if slice_out is None:
            slice_out = slice_by if slice_by not in (*ROLES, "label", "error") else f"slice_{slice_by}"
            kept.append((slice_by, slice_out))
    if gold:
        gold_out = next((o for s, o in kept if s == gold), None)
        if gold_out is None:
            gold_out = "gold_label" if "gold_label" not in outputs else f"gold_{gold}"
            kept.append((gold, gold_out))
    config = BatchConfig(auditor, columns=mapped, keep=tuple(kept))
    return config, slice_out, gold_out


def run_batch(
    batch: Path,
    out: Path | None,
    config: BatchConfig,
    *,
    view: str,
    workers: int | None,
    engine: Engine,
    master: str,
    partitions: int | None,
    mode: Literal["new", "resume", "overwrite"],
    slice_by: str | None,
    gold: str | None,
    summary_json: Path | None,
) -> None:
    """Run the batch, print one summary line (and the metrics for Parquet output)."""
    from ragaudit.tables import table_format

    parquet_out = out is not None and table_format(out) == "parquet"
    if (slice_by or gold or summary_json) and not parquet_out:
        raise ConfigError("--slice, --gold and --summary read the output table: write Parquet (--out NAME.parquet)")
    if engine is Engine.spark:
        if out is None:
            raise ConfigError("the spark engine writes a Parquet directory: give --out NAME.parquet")
        _run_spark(batch, out, config, master=master, partitions=partitions, mode=mode)
    else:
        _run_local(batch, out, config, view=view, workers=workers, mode=mode)
    if parquet_out and out is not None:
        _print_summary(out, slice_by, gold, summary_json)


def _run_local(
    batch: Path,
    out: Path | None,
    config: BatchConfig,
    *,
    view: str,
    workers: int | None,
    mode: Literal["new", "resume", "overwrite"],
) -> None:
    from ragaudit.tables import count_rows, run_local

    def report_error(message: str) -> None:
        stderr.print(f"[yellow]error row[/] {safe_markup(message)}", highlight=False, soft_wrap=True)

    with progress(rate=True) as bar:
        task = bar.add_task("auditing", total=count_rows(batch))
        summary = run_local(
            batch,
            out,
            config,
            workers=workers,
            mode=mode,
            view=view,
            on_rows=lambda n: bar.advance(task, n),
            on_error=report_error,
        )
    stderr.print(
        f"audited {summary.audited} row(s) in {summary.seconds:.1f} s ({summary.rows_per_s:,.1f} rows/s): "
        f"{summary.labels['faithful']} faithful, {summary.labels['hallucinated']} hallucinated, "
        f"{summary.errors} error(s)"
        + (f"; {summary.skipped} already in the output, skipped" if summary.skipped else ""),
        highlight=False,
    )
    if summary.errors and not summary.audited and not summary.skipped:
        raise typer.Exit(EXIT_INPUT)


def _run_spark(
    batch: Path,
    out: Path,
    config: BatchConfig,
    *,
    master: str,
    partitions: int | None,
    mode: Literal["new", "resume", "overwrite"],
) -> None:
    import time

    from ragaudit import spark

    started = time.perf_counter()
    session = spark.session(master)
    try:
        session.sparkContext.setLogLevel("ERROR")
        written, skipped = spark.run(session, batch, out, config, mode=mode, partitions=partitions)
    finally:
        session.stop()
    seconds = time.perf_counter() - started
    stderr.print(
        f"spark ({safe_markup(master)}): wrote {written} row(s) to {safe_markup(out)} in {seconds:.1f} s ({written / seconds:,.1f} rows/s)"
        + (f"; {skipped} already in the output, skipped" if skipped else ""),
        highlight=False,
    )


def _print_summary(out: Path, slice_by: str | None, gold: str | None, summary_json: Path | None) -> None:
    import pyarrow.dataset as ds

    from ragaudit.aggregate import summarize

    columns = ["label", "faithfulness", "error", *(c for c in (slice_by, gold) if c)]
    table = ds.dataset(out, format="parquet").to_table(columns=columns)
    summary = summarize(table, slice_by=slice_by, gold=gold)
    if summary_json:
        summary_json.write_text(json.dumps(summary, indent=2) + "\n")
    _print_metrics(summary)


def _rate(entry: dict[str, Any] | None) -> str:
    if not entry or entry.get("rate") is None:
        return "–"
    low, high = entry["ci95"]
    return f"{entry['rate']:.3f} [{low:.3f}, {high:.3f}]"


def _print_metrics(summary: dict[str, Any]) -> None:
    from rich.table import Table

    faith = summary.get("faithfulness")
    stderr.print(
        f"output: {summary['rows']} row(s), {summary['errors']} error(s)"
        + (
            f"; faithfulness mean {faith['mean']:.3f}, p10 {faith['p10']:.3f}, median {faith['p50']:.3f}"
            if faith
            else ""
        ),
        highlight=False,
    )
    groups = {"all": summary["overall"], **summary.get("slices", {})}
    has_gold = any("detection" in g for g in groups.values())
    table = Table(title="hallucination rate (95% bootstrap CI)", title_justify="left")
    for column in ("slice", "n", "predicted", *(("gold", "precision", "recall") if has_gold else ())):
        table.add_column(column)
    for name, group in groups.items():
        row = [safe_markup(name), str(group["hallucination_rate"]["n"]), _rate(group["hallucination_rate"])]
        if has_gold:
            detection = group.get("detection", {})
            row += [
                _rate(group.get("gold_hallucination_rate")),
                f"{detection.get('precision') or 0:.3f}",
                f"{detection.get('recall') or 0:.3f}",
            ]
        table.add_row(*row)
    stderr.print(table)
