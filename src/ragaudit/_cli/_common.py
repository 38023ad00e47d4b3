"""What every command shares: the stderr console, the one-line error, progress bars, common options."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from ragaudit.render._safe import safe_markup

if TYPE_CHECKING:
    from ragaudit.config import AuditorConfig

stderr = Console(stderr=True)

EXIT_INPUT = 2
EXIT_REGRESSION = 1


class RiskChoice(StrEnum):
    """Risk levels."""

    high = "high"
    medium = "medium"
    low = "low"


def fail(message: str) -> NoReturn:
    """Print one error line and exit with the input-error code."""
    stderr.print(f"[bold red]error:[/] {safe_markup(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_INPUT)


class RateColumn(ProgressColumn):
    """Rows per second since the start."""

    def render(self, task: Task) -> Text:
        """``123 rows/s`` once a speed is known."""
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} rows/s" if speed else "", style="progress.data.speed")


def progress(*, rate: bool = False) -> Progress:
    """A progress bar on stderr (silent when stderr is not a terminal); ``rate`` adds rows per second."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *([RateColumn()] if rate else []),
        TimeRemainingColumn(),
        console=stderr,
        transient=False,
        disable=not stderr.is_terminal,
    )


def auditor_config(
    judge: str, risk_level: RiskChoice, claim_types: list[str] | None = None, policy: Path | None = None
) -> AuditorConfig:
    """The one configuration every command audits with, from its options."""
    from ragaudit.config import AuditorConfig

    return AuditorConfig(
        judge=judge,
        risk_level=risk_level.value,
        claim_types=claim_types or None,  # type: ignore[arg-type]  # checked by AuditorConfig
        policy=policy,
    )


def read_stdin() -> bytes:
    """All of standard input, as bytes."""
    return sys.stdin.buffer.read()


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
PolicyOpt = Annotated[
    Path | None,
    typer.Option(
        "--policy", "-p", help="Policy file (TOML or YAML); default: the shipped policy.", envvar="RAGAUDIT_POLICY"
    ),
]
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="Processes for batches (default: one per core).")]
