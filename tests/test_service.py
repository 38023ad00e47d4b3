"""The HTTP service end to end: a real `ragaudit serve` on 127.0.0.1, against SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import jsonschema
import pytest

from processes import free_port
from ragaudit.render.views import view_schema
from service_helpers import PG_URL, Server, reset_postgres, wait_finished

REQUEST = {
    "question": "When did the plant open?",
    "answer": "The plant opened in 2010. It employs 500 people.",
    "sources": [{"id": "1", "text": "The plant opened in 2012. It employs 500 people."}],
}


@pytest.fixture(params=["sqlite", "postgresql"], scope="module")
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'audits.db'}"
    if not reset_postgres():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    return PG_URL


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The callback test listens on loopback, which the service refuses unless the operator allows it.
    env = {"RAGAUDIT_CALLBACK_ALLOW": "127.0.0.1"}
    srv = Server(database_url, log=tmp_path_factory.mktemp("log") / "serve.log", env=env).start()
    yield srv
    srv.stop()


def test_health_needs_no_key_everything_else_does(server: Server) -> None:
    import httpx

    assert httpx.get(server.url + "/healthz").json() == {"status": "ok"}
    assert httpx.get(server.url + "/readyz").status_code == 200
    assert httpx.post(server.url + "/v1/audits", json=REQUEST).status_code == 401
    assert httpx.get(server.url + "/metrics").status_code == 401
    assert httpx.get(server.url + "/v1/reviews", headers={"Authorization": "Bearer nope"}).status_code == 401


def test_roles(server: Server) -> None:
    with server.client() as admin:
        auditor_key = admin.post("/v1/keys", json={"name": "rag-app", "role": "auditor"}).json()["key"]
        reviewer_key = admin.post("/v1/keys", json={"name": "ana", "role": "reviewer"}).json()["key"]
        assert all("key" not in k for k in admin.get("/v1/keys").json())
    with server.client(auditor_key) as auditor:
        assert auditor.post("/v1/audits", json=REQUEST).status_code == 200
        assert auditor.get("/v1/reviews").status_code == 403
        assert auditor.post("/v1/keys", json={"name": "x", "role": "admin"}).status_code == 403
    with server.client(reviewer_key) as reviewer:
        assert reviewer.post("/v1/audits", json=REQUEST).status_code == 403
        assert reviewer.get("/v1/reviews").status_code == 200


def test_sync_audit_returns_report_in_the_chosen_view(server: Server) -> None:
    with server.client() as c:
        body = c.post("/v1/audits", json={**REQUEST, "risk_level": "high", "trace_id": "t-1"}).json()
        assert body["state"] == "done" and body["decision"]["action"] == "block"
        assert body["report"]["label"] == "hallucinated"
        view = c.post("/v1/audits?view=factual_audit", json=REQUEST).json()["report"]
        jsonschema.validate(view, view_schema("factual_audit"))
        assert c.post("/v1/audits?view=nope", json=REQUEST).status_code == 400


def test_bad_requests_are_clear(server: Server) -> None:
    with server.client() as c:
        r = c.post("/v1/audits", json={"answer": "x", "sources": []})
        assert r.status_code == 422 and "no sources" in r.json()["detail"]
        r = c.post("/v1/audits", json={"sources": [{"id": "1", "text": "a"}]})
        assert r.status_code == 422
        big = {"answer": "x", "sources": [{"id": "1", "text": "a" * 5_000_000}]}
        assert c.post("/v1/audits", json=big).status_code == 413


class Callback(BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        Callback.received.append(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def test_async_audit_with_callback_and_review(server: Server) -> None:
    port = free_port()
    httpd = HTTPServer(("127.0.0.1", port), Callback)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        with server.client() as c:
            r = c.post(
                "/v1/audits?mode=async",
                json={**REQUEST, "risk_level": "high", "callback_url": f"http://127.0.0.1:{port}/hook"},
            )
            assert r.status_code == 202 and r.json()["state"] == "queued"
            audit_id = r.json()["id"]
            done = wait_finished(c, audit_id)
            assert done["decision"]["action"] == "block"
            deadline = time.monotonic() + 10
            while not any(m["id"] == audit_id for m in Callback.received) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert {"id": audit_id, "state": "done", "decision": "block"} in Callback.received
            queue = c.get("/v1/reviews", params={"decision": "block", "risk": "high"}).json()
            assert audit_id in [a["id"] for a in queue]
            review = c.post(
                f"/v1/reviews/{audit_id}", json={"decision": "reject", "claim_labels": {"c1": "contradicted"}}
            )
            assert review.status_code == 201 and review.json()["reviewer"] == "admin"
            assert (
                c.post(
                    f"/v1/reviews/{audit_id}", json={"decision": "approve", "claim_labels": {"c9": "supported"}}
                ).status_code
                == 422
            )
            assert audit_id not in [a["id"] for a in c.get("/v1/reviews", params={"decision": "block"}).json()]
            assert c.get(f"/v1/reviews/{audit_id}").json()[0]["claim_labels"] == {"c1": "contradicted"}
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_metrics_and_openapi(server: Server) -> None:
    with server.client() as c:
        text = c.get("/metrics").text
        assert "ragaudit_audits_total" in text and "ragaudit_audit_seconds_bucket" in text
        spec = c.get("/openapi.json").json()
        assert "/v1/audits" in spec["paths"] and "/v1/reviews/{audit_id}" in spec["paths"]


def test_logs_are_json_without_answer_text(server: Server) -> None:
    assert server.log is not None
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.startswith("{")]
    assert any(line["msg"] == "audit recorded" for line in lines)
    assert "The plant opened" not in server.log.read_text()


def test_no_async_audit_is_lost_when_the_server_is_killed(database_url: str, tmp_path: Path) -> None:
    srv = Server(database_url, log=tmp_path / "serve.log").start()
    ids = []
    with srv.client() as c:
        for i in range(40):
            r = c.post("/v1/audits?mode=async", json={**REQUEST, "trace_id": f"burst-{i}"})
            assert r.status_code == 202
            ids.append(r.json()["id"])
    srv.kill()  # mid-burst: some audits are queued, one may be running
    srv = Server(database_url, log=tmp_path / "serve.log").start()
    try:
        with srv.client() as c:
            states = [wait_finished(c, i, timeout=60)["state"] for i in ids]
        assert states == ["done"] * len(ids)
    finally:
        srv.stop()


def test_log_cli_lists_exports_and_prunes(server: Server, tmp_path: Path) -> None:
    import subprocess
    import sys

    env_db = ["--db", server.database_url]

    def run(*a):
        return subprocess.run([sys.executable, "-m", "ragaudit", "log", *a], capture_output=True, text=True, timeout=60)

    listed = run("list", *env_db, "--decision", "block")
    assert listed.returncode == 0 and "block" in listed.stdout
    out = tmp_path / "export.jsonl"
    assert run("export", *env_db, "--decision", "block", "--out", str(out)).returncode == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["decision"] == "block" for r in rows)
    golden = tmp_path / "golden.jsonl"
    assert run("export", *env_db, "--golden", "--out", str(golden)).returncode == 0
    gold = [json.loads(line) for line in golden.read_text().splitlines()]
    assert gold and all(g["claims"] and g["label"] in ("faithful", "hallucinated") for g in gold)
    # The exported golden set is directly usable by `ragaudit eval` (claim-level metrics).
    ev = subprocess.run(
        [
            sys.executable,
            "-m",
            "ragaudit",
            "eval",
            str(golden),
            "--format",
            "json",
            "--workers",
            "1",
            "--bootstrap",
            "50",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ev.returncode == 0, ev.stderr
    assert json.loads(ev.stdout)["claims"]["gold_claims"] >= 1
    shown = run("show", rows[0]["id"], *env_db)
    assert shown.returncode == 0 and json.loads(shown.stdout)["id"] == rows[0]["id"]
    assert run("show", "no-such-id", *env_db).returncode == 2
