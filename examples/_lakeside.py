"""What the integration examples share: the Lakeside plant's documents, and the guard that turns a
missing extra into its install command."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

LAKESIDE = (
    "The Lakeside aluminium plant opened in 2012 after three years of construction.",
    "Today the Lakeside plant employs 1200 people, most of them on one of two shifts.",
    "The town of Lakeside has a population of 9,000 and a ferry to the mainland.",
)
"""The retrievable texts: when the plant opened, how many it employs, and a distractor about the town."""


@contextlib.contextmanager
def extra_or_exit() -> Iterator[None]:
    """Exit with the install command when an import inside fails (ragaudit's MissingExtraError names it)."""
    try:
        yield
    except ImportError as exc:
        sys.exit(str(exc))
