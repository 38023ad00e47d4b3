"""``ragaudit eval``: measure the auditor on labelled data."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ragaudit._cli._common import (
    EXIT_REGRESSION,
    ClaimTypesOpt,
    JudgeOpt,
    RiskChoice,
    RiskOpt,
    WorkersOpt,
    auditor_config,
    stderr,
)
from ragaudit._cli._common import progress as progress_bar
from ragaudit.render._safe import safe_markup


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
    claim_type: ClaimTypesOpt = None,
    workers: WorkersOpt = None,
    cache: Annotated[
        Path | None,
        typer.Option(
            "--cache",
            help="SQLite file of reports: reruns skip what is done (resumable).",
            envvar="RAGAUDIT_EVAL_CACHE",
        ),
    ] = None,
    resamples: Annotated[
        int, typer.Option("--bootstrap", min=1, max=100_000, help="Bootstrap resamples for the 95% intervals.")
    ] = 1000,
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
        Path | None,
        typer.Option("--policy", help="Policy to audit with and tune from (default: the shipped one)."),
    ] = None,
) -> None:
    """Measure the auditor on labelled data: response, span and claim metrics with 95% intervals."""
    from ragaudit import evaluate as ev

    examples, skipped = ev.load_examples(datasets, limit=limit, where=where)
    for message in skipped[:20]:
        stderr.print(f"[yellow]skipped[/] {safe_markup(message)}", highlight=False, soft_wrap=True)
    if len(skipped) > 20:
        stderr.print(f"[yellow]skipped[/] … and {len(skipped) - 20} more", highlight=False)
    with progress_bar() as progress:
        task = progress.add_task("evaluating", total=len(examples))
        outcomes = ev.run(
            examples,
            auditor_config(judge, risk_level, claim_type, policy),
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
            stderr.print(f"[bold red]regression:[/] {safe_markup(drop)}", highlight=False)
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
    from ragaudit.calibrate import tune_policy, write_policy
    from ragaudit.gate import load_policy

    chosen, summary = tune_policy(
        outcomes, load_policy(start), target_precision=precision, target_recall=recall, method=method
    )
    if "threshold" in summary:
        stderr.print(
            f"threshold {summary['threshold']:.3f}: precision {summary['precision']:.3f}, recall {summary['recall']:.3f}",
            highlight=False,
        )
    if out:
        write_policy(chosen.model_copy(update={"name": f"{chosen.name}-tuned"}), out)
        stderr.print(f"policy written to {safe_markup(out)}", highlight=False)
    return summary


def _print_eval_table(result: Any) -> None:
    table = Table(title=safe_markup(f"{', '.join(result.datasets)} — judge {result.judge} (95% CI)"))
    columns = ("slice", "n", "precision", "recall", "F1", "bal. acc.", "AUROC", "AUPRC", "span F1")
    keys = ("precision", "recall", "f1", "balanced_accuracy", "auroc", "auprc", "span_f1")
    for column in columns:
        table.add_column(column, justify="left" if column == "slice" else "right", no_wrap=True)

    def row(name: str, m: dict[str, Any]) -> None:
        cells = [f"{m[k]['value']:.3f}[dim]±{(m[k]['ci_high'] - m[k]['ci_low']) / 2:.3f}[/]" for k in keys]
        table.add_row(safe_markup(name), str(m["n"]), *cells)

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
