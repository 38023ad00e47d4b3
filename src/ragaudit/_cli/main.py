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


EXIT_REGRESSION = 1


@app.command("eval")
def eval_command(
    datasets: Annotated[list[Path], typer.Argument(help="Labelled JSONL files in the shared benchmark format.")],
    judge: JudgeOpt = "offline",
    limit: Annotated[
        int | None, typer.Option("--limit", help="Use only the first N matching rows of each file.")
    ] = None,
    where: Annotated[
        list[str] | None, typer.Option("--where", help="Keep rows where FIELD=VALUE (dotted paths, repeatable).")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write every figure as JSON here.")] = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Write a self-contained HTML report here.")] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table or json.")] = "table",
    risk_level: RiskOpt = RiskChoice.medium,
    workers: WorkersOpt = None,
    cache: Annotated[
        Path | None,
        typer.Option(
            "--cache",
            help="SQLite file of reports: reruns skip what is done (resumable).",
            envvar="RAGAUDIT_EVAL_CACHE",
        ),
    ] = None,
    resamples: Annotated[int, typer.Option("--bootstrap", help="Bootstrap resamples for the 95% intervals.")] = 1000,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="A previous --json output to compare with.")
    ] = None,
    max_drop: Annotated[
        float, typer.Option("--max-drop", help="With --baseline: fail (exit 1) when a figure falls by more.")
    ] = 0.01,
    target_precision: Annotated[
        float | None, typer.Option("--target-precision", help="Pick the gate threshold reaching this precision.")
    ] = None,
    target_recall: Annotated[
        float | None, typer.Option("--target-recall", help="Pick the gate threshold reaching this recall.")
    ] = None,
    calibrate: Annotated[
        str | None, typer.Option("--calibrate", help="Fit the judge's confidence: platt or isotonic.")
    ] = None,
    write_policy_to: Annotated[
        Path | None,
        typer.Option("--write-policy", help="Write the policy with the picked threshold / calibration here."),
    ] = None,
    policy: Annotated[
        Path | None, typer.Option("--policy", help="Policy to start from (default: the shipped one).")
    ] = None,
) -> None:
    """Measure the auditor on labelled data: response, span and claim metrics with 95% intervals."""
    from ragaudit import evaluate as ev

    examples, skipped = ev.load_examples(datasets, limit=limit, where=where)
    for message in skipped[:20]:
        stderr.print(f"[yellow]skipped[/] {message}", highlight=False, soft_wrap=True)
    if len(skipped) > 20:
        stderr.print(f"[yellow]skipped[/] … and {len(skipped) - 20} more", highlight=False)
    with _progress() as progress:
        task = progress.add_task("evaluating", total=len(examples))
        outcomes = ev.run(
            examples,
            judge=judge,
            risk_level=risk_level.value,
            workers=workers,
            cache=cache,
            on_result=lambda: progress.advance(task),
        )
    result = ev.summarize(outcomes, [str(d) for d in datasets], judge, skipped, resamples=resamples)
    data = result.as_dict()
    if target_precision is not None or target_recall is not None or calibrate or write_policy_to:
        data["policy"] = _tune_policy(outcomes, policy, target_precision, target_recall, calibrate, write_policy_to)
    if json_out:
        json_out.write_text(json.dumps(data, indent=2) + "\n")
    if html_out:
        from ragaudit.render._html import render_html

        html_out.write_text(render_html(result), encoding="utf-8")
    if output_format == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        _print_eval_table(result)
    if baseline is not None:
        drops = ev.compare_to_baseline(data, ev.read_json(baseline), max_drop)
        for drop in drops:
            stderr.print(f"[bold red]regression:[/] {drop}", highlight=False)
        if drops:
            raise typer.Exit(EXIT_REGRESSION)


def _tune_policy(
    outcomes: list[Any],
    start: Path | None,
    precision: float | None,
    recall: float | None,
    method: str | None,
    out: Path | None,
) -> dict[str, Any]:
    from ragaudit.calibrate import fit_isotonic, fit_platt, pick_threshold, write_policy
    from ragaudit.evaluate import claim_correctness
    from ragaudit.gate import load_policy

    chosen = load_policy(start)
    summary: dict[str, Any] = {}
    if precision is not None or recall is not None:
        threshold, p, r = pick_threshold(
            [o.example.gold for o in outcomes],
            [o.report.faithfulness for o in outcomes],
            target_precision=precision,
            target_recall=recall,
        )
        chosen = chosen.model_copy(update={"threshold": threshold})
        summary.update(threshold=threshold, precision=round(p, 4), recall=round(r, 4))
        stderr.print(f"threshold {threshold:.3f}: precision {p:.3f}, recall {r:.3f}", highlight=False)
    if method:
        if method not in ("platt", "isotonic"):
            fail(f"--calibrate {method!r}: use platt or isotonic")
        conf, right = claim_correctness(outcomes)
        if not conf:
            fail("--calibrate needs rows with gold spans (claim-level correctness)")
        fitted = fit_platt(conf, right) if method == "platt" else fit_isotonic(conf, right)
        chosen = chosen.model_copy(update={"calibration": fitted})
        summary["calibration"] = fitted.model_dump(exclude_none=True)
    if out:
        write_policy(chosen.model_copy(update={"name": f"{chosen.name}-tuned"}), out)
        stderr.print(f"policy written to {out}", highlight=False)
    return summary


def _print_eval_table(result: Any) -> None:
    table = Table(title=f"{', '.join(result.datasets)} — judge {result.judge} (95% CI)")
    columns = ("slice", "n", "precision", "recall", "F1", "bal. acc.", "AUROC", "AUPRC", "span F1")
    keys = ("precision", "recall", "f1", "balanced_accuracy", "auroc", "auprc", "span_f1")
    for column in columns:
        table.add_column(column, justify="left" if column == "slice" else "right", no_wrap=True)

    def row(name: str, m: dict[str, Any]) -> None:
        cells = [f"{m[k]['value']:.3f}[dim]±{(m[k]['ci_high'] - m[k]['ci_low']) / 2:.3f}[/]" for k in keys]
        table.add_row(name, str(m["n"]), *cells)

    row("overall", result.overall)
    for key, groups in result.slices.items():
        if key == "dataset" and len(groups) < 2:
            continue
        for name, m in groups.items():
            row(f"{key}={name}", m)
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 160)  # logs and CI files are read whole, not in an 80-column window
    console.print(table)


@app.command()
def agreement(
    raters: Annotated[
        list[Path], typer.Argument(help="Two or more JSONL files of reports or labelled rows (paired by id).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Agreement between raters: Cohen's kappa (two), Fleiss' kappa and Krippendorff's alpha."""
    from dataclasses import asdict

    from ragaudit.agreement import compare_raters

    stats = compare_raters(raters)
    if as_json:
        sys.stdout.write(json.dumps({k: asdict(v) for k, v in stats.items()}, indent=2) + "\n")
        return
    table = Table(title="agreement (claims matched by offsets, IoU ≥ 0.5)")
    for column in ("on", "items", "complete", "raters", "% agree", "Cohen κ", "Fleiss κ", "Krippendorff α"):
        table.add_column(column, justify="left" if column == "on" else "right")
    for name, a in stats.items():
        table.add_row(
            name,
            str(a.items),
            str(a.complete_items),
            str(a.raters),
            f"{a.percent_agreement:.3f}",
            *("–" if v is None else f"{v:.3f}" for v in (a.cohen_kappa, a.fleiss_kappa, a.krippendorff_alpha)),
        )
    Console().print(table)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to bind.", envvar="RAGAUDIT_HOST")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port.", envvar="RAGAUDIT_PORT")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option("--db", help="Database URL (default sqlite:///ragaudit.db).", envvar="RAGAUDIT_DATABASE_URL"),
    ] = None,
    workers: Annotated[int, typer.Option("--async-workers", help="Background workers for async audits.")] = 1,
) -> None:
    """Run the HTTP service (audits, review queue, review page at /review, metrics, OpenAPI at /docs)."""
    import uvicorn

    from ragaudit.service import ServiceSettings, create_app

    overrides: dict[str, Any] = {"workers": workers}
    if database_url:
        overrides["database_url"] = database_url
    settings = ServiceSettings(**overrides)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning", access_log=False)


log_app = typer.Typer(help="The audit trail: list, show, export, prune.", no_args_is_help=True)
app.add_typer(log_app, name="log")
DbOpt = Annotated[str | None, typer.Option("--db", help="Database URL.", envvar="RAGAUDIT_DATABASE_URL")]


def _since(value: str | None) -> Any:
    if value is None:
        return None
    from datetime import datetime

    from ragaudit.store import now, parse_age

    try:
        return datetime.fromisoformat(value) if any(ch in value for ch in "-:T") else now() - parse_age(value)
    except ValueError:
        fail(f"--since {value!r}: give an ISO date (2026-11-01) or an age (7d, 12h)")


@log_app.command("list")
def log_list(
    db: DbOpt = None,
    since: Annotated[str | None, typer.Option("--since", help="ISO date or age (7d).")] = None,
    decision: Annotated[str | None, typer.Option("--decision", help="Only this gate decision.")] = None,
    limit: Annotated[int, typer.Option("--limit")] = 50,
) -> None:
    """Recent audits, newest first."""
    from ragaudit.store import open_store

    table = Table()
    for column in ("id", "created", "decision", "label", "faithfulness", "risk", "trace"):
        table.add_column(column)
    for r in open_store(db).list_audits(since=_since(since), decision=decision, limit=limit):
        table.add_row(
            r.id,
            r.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            r.decision,
            r.label,
            f"{r.faithfulness:.2f}",
            r.risk_level,
            r.trace_id or "",
        )
    Console().print(table)


@log_app.command("show")
def log_show(audit_id: str, db: DbOpt = None) -> None:
    """One audit as JSON, with its reviews."""
    from ragaudit.store import open_store

    store = open_store(db)
    record = store.get_audit(audit_id)
    if record is None:
        fail(f"no audit {audit_id} in the audit trail")
    sys.stdout.write(
        json.dumps({**record.as_dict(), "reviews": store.reviews_for(audit_id)}, indent=2, default=str) + "\n"
    )


@log_app.command("export")
def log_export(
    db: DbOpt = None,
    since: Annotated[str | None, typer.Option("--since", help="ISO date or age (7d).")] = None,
    decision: Annotated[str | None, typer.Option("--decision", help="Only this gate decision.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="File (default stdout).")] = None,
    golden: Annotated[
        bool, typer.Option("--golden", help="Export reviewed audits as a golden set for ragaudit eval.")
    ] = False,
) -> None:
    """Audits (with reviews) as JSON Lines, oldest first; --golden writes the eval format with human labels."""
    from ragaudit.store import open_store

    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    count = 0
    for row in open_store(db).iter_export(since=_since(since), decision=decision):
        if golden:
            if not row["reviews"]:
                continue
            row = _golden_row(row)
        sink.write(json.dumps(row, default=str) + "\n")
        count += 1
    if out:
        sink.close()
    stderr.print(f"exported {count} audit(s)", highlight=False)


def _golden_row(row: dict[str, Any]) -> dict[str, Any]:
    """A reviewed audit in the benchmark format: the reviewer's claim labels are the gold claims."""
    review = row["reviews"][-1]
    claims = [
        {
            "start": c["start"],
            "end": c["end"],
            "text": c["text"],
            "status": review["claim_labels"].get(c["id"], c["status"]),
        }
        for c in row["report"]["claims"]
    ]
    bad = [c for c in claims if c["status"] != "supported"]
    request = row["request"]
    return {
        "id": row["id"],
        "task": "review",
        "question": request.get("question"),
        "sources": request["sources"],
        "answer": request["answer"],
        "label": "hallucinated" if bad or review["decision"] == "reject" else "faithful",
        "spans": [{"start": c["start"], "end": c["end"], "text": c["text"], "type": c["status"]} for c in bad],
        "claims": claims,
        "meta": {"reviewer": review["reviewer"], "review_decision": review["decision"]},
    }


@log_app.command("prune")
def log_prune(
    older_than: Annotated[str, typer.Option("--older-than", help="Delete audits older than this (90d, 12h).")],
    db: DbOpt = None,
) -> None:
    """Delete old audits and their reviews (the deletion itself is recorded)."""
    from ragaudit.store import open_store, parse_age

    audits, reviews = open_store(db).prune(parse_age(older_than), by="cli")
    stderr.print(f"pruned {audits} audit(s) and {reviews} review(s) older than {older_than}", highlight=False)


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
