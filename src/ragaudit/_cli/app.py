"""The ``ragaudit`` typer app: one module per command, each thin (parse, call the library, render).

Exit codes: 0 success; 1 a gate decided something other than ``deliver``; 2 bad input or options
(one line on stderr naming the problem and the place, never a traceback).
"""

from __future__ import annotations

import sys

import typer

from ragaudit._cli import agreement, audit, gate, log, serve
from ragaudit._cli import eval as eval_cmd
from ragaudit._cli._common import EXIT_INPUT, stderr
from ragaudit.errors import RagAuditError
from ragaudit.render._safe import safe_markup

app = typer.Typer(
    name="ragaudit",
    help="Audit RAG answers against the exact sources they were generated from.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("audit")(audit.audit)
app.command("gate")(gate.gate)
app.command("eval")(eval_cmd.eval_command)
app.command("agreement")(agreement.agreement)
app.command("serve")(serve.serve)
app.add_typer(log.log_app, name="log")


def run() -> None:
    """Run the app, turning library errors into one clear line and exit code 2."""
    try:
        code = app(standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except RagAuditError as exc:
        stderr.print(f"[bold red]error:[/] {safe_markup(exc)}", highlight=False, soft_wrap=True)
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
