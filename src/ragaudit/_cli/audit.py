"""``ragaudit audit``: audit one request or a batch and print the report(s)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ragaudit._cli._common import (
    EXIT_INPUT,
    ClaimTypesOpt,
    JudgeOpt,
    RiskChoice,
    RiskOpt,
    WorkersOpt,
    fail,
    read_stdin,
    stderr,
)
from ragaudit._cli._common import (
    progress as progress_bar,
)


class OutputFormat(StrEnum):
    """How ``audit`` prints a report."""

    json = "json"
    text = "text"


def audit(
    request: Annotated[str | None, typer.Argument(help="Request JSON file, or - for stdin.")] = None,
    batch: Annotated[Path | None, typer.Option("--batch", help="JSON Lines file of requests (one per line).")] = None,
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
    workers: WorkersOpt = None,
    indent: Annotated[int | None, typer.Option("--indent", help="Indent JSON output.")] = None,
) -> None:
    """Audit one request (JSON) or a batch (JSON Lines) and print the report(s)."""
    from ragaudit import Auditor
    from ragaudit.requests import read_request

    options: dict[str, Any] = {"risk_level": risk_level.value, "claim_types": claim_type or None}
    if batch is not None:
        if request is not None:
            fail("give either a request file or --batch, not both")
        _audit_batch(batch, out, view, judge, options, workers)
        return
    if request is None:
        fail("give a request file (or - for stdin), or --batch FILE; see ragaudit audit --help")
    req = read_request("<stdin>", read_stdin()) if request == "-" else read_request(request)
    auditor = Auditor(judge, **options)
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


def _audit_batch(
    path: Path, out: Path | None, view: str, judge: str, options: dict[str, Any], workers: int | None
) -> None:
    from ragaudit.batch import audit_stream
    from ragaudit.requests import read_batch

    lines = list(read_batch(path))
    bad = [item for item in lines if item.error is not None]
    for item in bad:
        stderr.print(f"[yellow]skipped[/] {item.error}", highlight=False, soft_wrap=True)
    good = [item for item in lines if item.request is not None]
    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    labels = {"faithful": 0, "hallucinated": 0}
    try:
        with progress_bar() as progress:
            task = progress.add_task("auditing", total=len(good))
            reports = audit_stream(
                (item.request for item in good if item.request is not None),
                judge=judge,
                workers=workers,
                **options,
            )
            for item, report in zip(good, reports, strict=True):
                assert item.request is not None
                sink.write(_dump(report, view, item.request.answer, None) + "\n")
                labels[report.label] += 1
                progress.advance(task)
    finally:
        if out:
            sink.close()
    stderr.print(
        f"audited {len(good)} request(s): {labels['faithful']} faithful, {labels['hallucinated']} hallucinated"
        + (f"; {len(bad)} bad line(s) skipped" if bad else ""),
        highlight=False,
    )
    if bad and not good:
        raise typer.Exit(EXIT_INPUT)
