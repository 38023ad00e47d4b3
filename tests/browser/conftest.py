"""What the browser tests share: skipped without Debian's Chromium; a real `ragaudit serve` per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from chromium import CHROMIUM

if TYPE_CHECKING:
    from service_helpers import Server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip every test here when Chromium is not installed."""
    if CHROMIUM is None:
        skip = pytest.mark.skip(reason="Debian's chromium is not installed (apt-get install chromium)")
        for item in items:
            if item.path.parent == Path(__file__).parent:
                item.add_marker(skip)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A `ragaudit serve` on SQLite in this test's directory."""
    from service_helpers import Server  # here: loading this conftest must not import the service's client

    srv = Server(f"sqlite:///{tmp_path / 'audits.db'}", log=tmp_path / "serve.log").start()
    yield srv
    srv.stop()
