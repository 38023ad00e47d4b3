"""The ``ragaudit`` command line: thin commands that parse, call the library, and render.

Exit codes: 0 success; 1 a gate decided something other than ``deliver``; 2 bad input or options
(one line on stderr naming the problem and the place, never a traceback).
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ragaudit.errors import RagAuditError

app = typer.Typer(
    name="ragaudit",
    help="Audit RAG answers against the exact sources they were generated from.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
stderr = Console(stderr=True)

EXIT_INPUT = 2


class OutputFormat(StrEnum):
    """How ``audit`` prints a report."""

    json = "json"
    text = "text"


class RiskChoice(StrEnum):
    """Risk levels."""

    high = "high"
    medium = "medium"
    low = "low"


def fail(message: str) -> NoReturn:
    """Print one error line and exit with the input-error code."""
    stderr.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_INPUT)


def _progress() -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=stderr,
        transient=False,
        disable=not stderr.is_terminal,
    )


JudgeOpt = Annotated[str, typer.Option("--judge", "-j", help="Judge spec.", envvar="RAGAUDIT_JUDGE")]
RiskOpt = Annotated[
    RiskChoice,
    typer.Option("--risk-level", help="Strictness of partial support and of the gate.", envvar="RAGAUDIT_RISK_LEVEL"),
]
ClaimTypesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--claim-type",
        help="Audit only this claim type (repeatable): factual, interpretive, quantitative, temporal, attribution.",
    ),
]
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="Processes for batches (default: one per core).")]


def _read_stdin() -> bytes:
    return sys.stdin.buffer.read()


@app.command()
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
    req = read_request("<stdin>", _read_stdin()) if request == "-" else read_request(request)
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
    from ragaudit.views import render_view

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
        with _progress() as progress:
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


@app.command()
def gate(
    request: Annotated[str | None, typer.Argument(help="Request JSON file, or - for stdin.")] = None,
    batch: Annotated[Path | None, typer.Option("--batch", help="JSON Lines file of requests to gate.")] = None,
    policy: Annotated[
        Path | None,
        typer.Option(
            "--policy", "-p", help="Policy file (TOML or YAML); default: the shipped policy.", envvar="RAGAUDIT_POLICY"
        ),
    ] = None,
    judge: JudgeOpt = "offline",
    risk_level: RiskOpt = RiskChoice.medium,
    as_json: Annotated[bool, typer.Option("--json", help="Print the decision(s) as JSON.")] = False,
) -> None:
    """Audit and gate: print the decision; exit 0 for deliver, 1 for any other decision, 2 for bad input."""
    from collections import Counter

    from ragaudit import Auditor
    from ragaudit.requests import read_batch, read_request

    auditor = Auditor(judge, risk_level=risk_level.value, policy=policy)
    if batch is None:
        if request is None:
            fail("give a request file (or - for stdin), or --batch FILE; see ragaudit gate --help")
        req = read_request("<stdin>", _read_stdin()) if request == "-" else read_request(request)
        decision = auditor.audit(req).decision
        assert decision is not None
        if as_json:
            sys.stdout.write(decision.model_dump_json(indent=2) + "\n")
        else:
            sys.stdout.write(decision.action + "\n")
            for reason in decision.reasons:
                sys.stdout.write(f"  - {reason}\n")
            if decision.caveat:
                sys.stdout.write(f"caveat: {decision.caveat}\n")
        raise typer.Exit(0 if decision.action == "deliver" else 1)
    tally: Counter[str] = Counter()
    for item in read_batch(batch):
        if item.error is not None:
            stderr.print(f"[yellow]skipped[/] {item.error}", highlight=False, soft_wrap=True)
            tally["invalid"] += 1
            continue
        assert item.request is not None
        decision = auditor.audit(item.request).decision
        assert decision is not None
        tally[decision.action] += 1
        label = item.request.id or f"line {item.line}"
        sys.stdout.write(
            json.dumps({"id": label, "action": decision.action}) + "\n" if as_json else f"{label}\t{decision.action}\n"
        )
    stderr.print("decisions: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())), highlight=False)
    raise typer.Exit(0 if set(tally) <= {"deliver"} else 1)


@app.command("eval")
def eval_command(
    dataset: Annotated[Path, typer.Argument(help="Labelled JSONL in the shared benchmark format.")],
    judge: JudgeOpt = "offline",
    limit: Annotated[int | None, typer.Option("--limit", help="Use only the first N matching rows.")] = None,
    where: Annotated[
        list[str] | None, typer.Option("--where", help="Keep rows where FIELD=VALUE (dotted paths, repeatable).")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the metrics as JSON here.")] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table or json.")] = "table",
    risk_level: RiskOpt = RiskChoice.medium,
    workers: WorkersOpt = None,
) -> None:
    """Measure the auditor on a labelled dataset: response-level and span-level metrics."""
    from ragaudit.evaluate import load_examples, run_reports, score

    examples, skipped = load_examples(dataset, limit=limit, where=where)
    for message in skipped[:20]:
        stderr.print(f"[yellow]skipped[/] {message}", highlight=False, soft_wrap=True)
    reports = []
    with _progress() as progress:
        task = progress.add_task("evaluating", total=len(examples))
        for report in run_reports(examples, judge=judge, risk_level=risk_level.value, workers=workers):
            reports.append(report)
            progress.advance(task)
    result = score(str(dataset), examples, reports, skipped, judge)
    data = result.as_dict()
    if json_out:
        json_out.write_text(json.dumps(data, indent=2) + "\n")
    if output_format == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    table = Table(title=f"{dataset} — judge {judge}")
    for column in ("slice", "n", "precision", "recall", "F1", "bal. acc.", "span P", "span R", "span F1"):
        table.add_column(column, justify="right" if column != "slice" else "left")
    rows = [("overall", result.overall), *sorted(result.by_task.items())]
    for name, sl in rows:
        r, s = sl.response, sl.spans
        table.add_row(
            name,
            str(r.tp + r.fp + r.fn + r.tn),
            f"{r.precision:.3f}",
            f"{r.recall:.3f}",
            f"{r.f1:.3f}",
            f"{r.balanced_accuracy:.3f}",
            f"{s.precision:.3f}",
            f"{s.recall:.3f}",
            f"{s.f1:.3f}",
        )
    Console().print(table)


def main() -> None:
    """Entry point: run the app, turning library errors into one clear line and exit code 2."""
    try:
        code = app(standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except RagAuditError as exc:
        stderr.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(EXIT_INPUT)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        stderr.print("interrupted")
        sys.exit(130)
    except typer.Abort:
        sys.exit(1)
    except Exception as exc:  # click usage errors ("no such option") carry their own exit code
        show = getattr(exc, "show", None)
        if show is None:
            raise
        show()
        sys.exit(getattr(exc, "exit_code", EXIT_INPUT))
