"""Each error family has its own HTTP status: bad input 422, over a size limit 413, storage failure 503."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragaudit.errors import ConfigError, InputError, JudgeError, LimitError, StorageError
from ragaudit.requests import MAX_ANSWER_CHARS, MAX_SOURCES
from ragaudit.service.app import error_status
from service_helpers import Server

SOURCES = [{"id": "1", "text": "The plant opened in 2012."}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path / 'audits.db'}", log=tmp_path / "serve.log").start()
    yield srv
    srv.stop()


def test_error_families_map_to_their_statuses() -> None:
    assert error_status(LimitError("big")) == (413, "too_large")
    assert error_status(InputError("bad")) == (422, "bad_request")
    assert error_status(StorageError("down")) == (503, "storage")
    assert error_status(JudgeError("llm failed")) == (502, "judge")
    assert error_status(ConfigError("bad setting")) == (500, "config")


def test_bad_input_is_422_and_a_request_over_a_limit_is_413(server: Server) -> None:
    with server.client() as c:
        r = c.post("/v1/audits", json={"answer": " ", "sources": SOURCES})
        assert r.status_code == 422 and "answer is empty" in r.json()["detail"]
        r = c.post("/v1/audits", json={"answer": "x" * (MAX_ANSWER_CHARS + 1), "sources": SOURCES})
        assert r.status_code == 413 and "over the limit" in r.json()["detail"]
        many = [{"id": str(i), "text": "A fact."} for i in range(MAX_SOURCES + 1)]
        r = c.post("/v1/audits", json={"answer": "A fact.", "sources": many})
        assert r.status_code == 413 and f"over the limit of {MAX_SOURCES}" in r.json()["detail"]
        assert c.post("/v1/audits", json={"answer": "A fact.", "sources": SOURCES}).status_code == 200


def test_a_storage_failure_is_503_without_sql_in_the_answer(server: Server) -> None:
    # A real fault: the audit trail's table disappears under the running server.
    database = server.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(database) as db:
        db.execute("DROP TABLE reviews")
        db.execute("DROP TABLE audits")
    with server.client() as c:
        r = c.post("/v1/audits", json={"answer": "The plant opened in 2012.", "sources": SOURCES})
        assert r.status_code == 503, r.text
        assert r.json() == {"detail": "the audit trail is unavailable; try again later"}
        metrics = c.get("/metrics").text
    assert 'ragaudit_errors_total{kind="storage"} 1.0' in metrics
