"""The ``ragaudit`` console script. It is installed with the core package, so it must start without the
``cli`` extra (typer, rich) and say in one line how to get it."""

from __future__ import annotations

import importlib.util
import sys


def main() -> None:
    """Entry point: run the command line, or name the extra to install when it is missing."""
    missing = [m for m in ("typer", "rich") if importlib.util.find_spec(m) is None]
    if missing:
        sys.stderr.write(
            f"error: the ragaudit command needs {' and '.join(missing)}, which is not installed: "
            "pip install 'ragaudit[cli]'\n"
        )
        sys.exit(2)
    from ragaudit._cli.app import run

    run()
