"""``ragaudit audit``: audit one request or a batch and print the report(s)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ragaudit._cli._batch import Engine, build_config, run_batch
from ragaudit._cli._common import (
    ClaimTypesOpt,
    JudgeOpt,
    PolicyOpt,
    RiskChoice,
    RiskOpt,
    WorkersOpt,
    auditor_config,
    fail,
    read_stdin,
)


class OutputFormat(StrEnum):
    """How ``audit`` prints a report."""

    json = "json"
    text = "text"


def audit(
    request: Annotated[str | None, typer.Argument(help="Request JSON file, or - for stdin.")] = None,
    batch: Annotated[
        Path | None, typer.Option("--batch", help="Requests: JSON Lines, or Parquet (a file or directory).")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Where to write reports (default stdout).")] = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json, or text for a person.")
    ] = OutputFormat.json,
    view: Annotated[
        str, typer.Option("--view", help="canonical, source_by_source, factual_audit, classification or discrepancy.")
    ] = "canonical",
    judge: JudgeOpt = "offline",
    risk_level: RiskOpt = RiskChoice.medium,
    claim_type: ClaimTypesOpt = None,
    policy: PolicyOpt = None,
    workers: WorkersOpt = None,
    indent: Annotated[int | None, typer.Option("--indent", help="Indent JSON output.")] = None,
    engine: Annotated[
        Engine, typer.Option("--engine", help="Batches: local (a pool of processes) or spark.")
    ] = Engine.local,
    master: Annotated[
        str, typer.Option("--master", help="Spark master URL: local[2], spark://host:7077, yarn, k8s://…")
    ] = "local[*]",
    partitions: Annotated[int | None, typer.Option("--partitions", help="Spark: partitions to audit in.")] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Batches: skip the requests already in --out and append the rest.")
    ] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Batches: replace an existing --out.")] = False,
    column: Annotated[
        list[str] | None, typer.Option("--column", help="Batches: ROLE=NAME, e.g. answer=response (repeatable).")
    ] = None,
    keep: Annotated[
        list[str] | None, typer.Option("--keep", help="Batches: copy input COLUMN[:NEW_NAME] to the output.")
    ] = None,
    slice_by: Annotated[
        str | None, typer.Option("--slice", help="Batches: hallucination rate per value of this column.")
    ] = None,
    gold: Annotated[str | None, typer.Option("--gold", help="Batches: gold label column (precision/recall).")] = None,
    summary: Annotated[Path | None, typer.Option("--summary", help="Batches: write the metrics as JSON.")] = None,
) -> None:
    """Audit one request (JSON) or a batch (JSON Lines or Parquet) and print or write the report(s)."""
    from ragaudit import Auditor
    from ragaudit.requests import read_request

    config = auditor_config(judge, risk_level, claim_type, policy)
    if batch is not None:
        if request is not None:
            fail("give either a request file or --batch, not both")
        if resume and overwrite:
            fail("give --resume or --overwrite, not both")
        batch_config, slice_out, gold_out = build_config(
            config, columns=column, keep=keep, slice_by=slice_by, gold=gold
        )
        run_batch(
            batch,
            out,
            batch_config,
            view=view,
            workers=workers,
            engine=engine,
            master=master,
            partitions=partitions,
            mode="resume" if resume else "overwrite" if overwrite else "new",
            slice_by=slice_out,
            gold=gold_out,
            summary_json=summary,
        )
        return
    if request is None:
        fail("give a request file (or - for stdin), or --batch FILE; see ragaudit audit --help")
    req = read_request("<stdin>", read_stdin()) if request == "-" else read_request(request)
    with Auditor(config) as auditor:
        report = auditor.audit(req)
    if output_format is OutputFormat.text:
        from ragaudit.render import render_text

        console = Console(file=out.open("w") if out else sys.stdout)
        console.print(render_text(report, req.answer))
        return
    text = _dump(report, view, req.answer, indent)
    if out:
        out.write_text(text + "\n")
    else:
        sys.stdout.write(text + "\n")


def _dump(report: Any, view: str, answer: str, indent: int | None) -> str:
    if view == "canonical":
        return str(report.to_json(indent=indent))
    from ragaudit.render.views import render_view

    return json.dumps(render_view(report, view), indent=indent, ensure_ascii=False)
