"""Attacks on a real `ragaudit serve` (issue 11, rows 2-5 and 11-12): SSRF, oversize bodies,
poisoned jobs, unchecked parameters, memory.

The SSRF targets are loopback listeners this test runs itself; they must never be called.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from processes import free_port, rss_mb
from ragaudit.service.store import open_store
from service_helpers import Server, wait_finished

REQUEST = {
    "answer": "The plant opened in 2010. It employs 500 people.",
    "sources": [{"id": "1", "text": "The plant opened in 2012. It employs 500 people."}],
}


class Listener(BaseHTTPRequestHandler):
    """Records every request it gets."""

    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self._hit()

    def do_POST(self) -> None:
        self._hit()

    def _hit(self) -> None:
        Listener.hits.append(f"{self.command} {self.path}")
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def listener() -> Iterator[int]:
    port = free_port()
    httpd = HTTPServer(("127.0.0.1", port), Listener)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield port
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'audits.db'}"


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"RAGAUDIT_MAX_REQUEST_BYTES": "1000000", "RAGAUDIT_POLL_INTERVAL": "0.05"}
    srv = Server(database_url, log=tmp_path_factory.mktemp("log") / "serve.log", env=env).start()
    yield srv
    srv.stop()


def ssrf_targets(port: int, server: Server) -> list[str]:
    return [
        f"http://127.0.0.1:{port}/hook",
        f"http://localhost:{port}/hook",
        f"http://127.1:{port}/hook",
        f"http://2130706433:{port}/hook",  # 127.0.0.1 as one decimal number
        f"http://0.0.0.0:{port}/hook",
        f"http://[::1]:{port}/hook",
        f"http://[::ffff:127.0.0.1]:{port}/hook",
        f"http://user:pw@127.0.0.1:{port}/hook",
        f"http://user:pw@example.com:{port}/hook",
        f"{server.url}/v1/keys",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/hook",
        f"file:///etc/passwd?{port}",
        f"gopher://127.0.0.1:{port}/_POST",
        f"ftp://127.0.0.1:{port}/",
        "http://[::1",
        "hook",
        "http://" + "a" * 3000 + ".com/",
    ]


def test_callbacks_to_private_or_odd_urls_are_refused_and_never_called(server: Server, listener: int) -> None:
    Listener.hits.clear()
    with server.client() as c:
        for url in ssrf_targets(listener, server):
            r = c.post("/v1/audits?mode=async", json={**REQUEST, "callback_url": url})
            assert r.status_code == 422, (url, r.status_code, r.text)
            detail = r.json()["detail"]
            assert isinstance(detail, str) and "\n" not in detail and "callback_url" in detail
        time.sleep(0.5)
    assert Listener.hits == []


def test_poisoned_jobs_fail_cleanly_and_later_jobs_complete(server: Server, database_url: str, listener: int) -> None:
    """Jobs already in the queue (an older version accepted anything): a bad callback, a bad request."""
    Listener.hits.clear()
    store = open_store(database_url)
    try:
        store.enqueue("poison-url", REQUEST, {}, "http://[::1")
        store.enqueue("poison-loopback", REQUEST, {}, f"http://127.0.0.1:{listener}/hook")
        store.enqueue("poison-request", {"answer": 5, "sources": "x"}, {}, None)
        store.enqueue("poison-options", REQUEST, {"risk_level": "extreme"}, None)
    finally:
        store.close()
    with server.client() as c:
        good = [c.post("/v1/audits?mode=async", json=REQUEST).json()["id"] for _ in range(3)]
        for audit_id in good:
            assert wait_finished(c, audit_id)["state"] == "done"
        assert wait_finished(c, "poison-url")["state"] == "done"  # the audit is fine; the callback is refused
        assert wait_finished(c, "poison-loopback")["state"] == "done"
        for audit_id in ("poison-request", "poison-options"):
            failed = wait_finished(c, audit_id)
            assert failed["state"] == "failed" and "\n" not in failed["error"]
            assert "INSERT" not in failed["error"] and "SELECT" not in failed["error"]
        assert c.get("/readyz").status_code == 200
    assert Listener.hits == []


def test_chunked_upload_over_the_limit_gets_413(server: Server) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"answer": "x", "sources": [{"id": "1", "text": "'
        for _ in range(200):  # 200 x 10 kB = 2 MB, twice the limit this server runs with
            yield b"a" * 10_000
        yield b'"}]}'

    with server.client() as c:
        r = c.post("/v1/audits", content=chunks(), headers={"Content-Type": "application/json"})
        assert r.status_code == 413, r.text
        assert "1,000,000 bytes" in r.json()["detail"]
        declared = c.post("/v1/audits", content=b"x" * 1_100_000, headers={"Content-Type": "application/json"})
        assert declared.status_code == 413
        assert c.post("/v1/audits", json=REQUEST).status_code == 200  # the server is fine


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"question": "Why? " * 3_000}, "question"),
        ({"id": "x" * 201}, "id"),
        ({"trace_id": "t" * 201}, "trace_id"),
    ],
)
def test_oversize_fields_get_a_clear_422(server: Server, change: dict[str, Any], where: str) -> None:
    with server.client() as c:
        r = c.post("/v1/audits", json={**REQUEST, **change})
    assert r.status_code == 422
    assert where in str(r.json()["detail"]) and "INSERT" not in r.text


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/audits", {"limit": -1}),
        ("/v1/audits", {"limit": 0}),
        ("/v1/reviews", {"min_age_minutes": 10**30}),
        ("/v1/reviews", {"min_age_minutes": -5}),
    ],
)
def test_out_of_range_parameters_get_422(server: Server, path: str, params: dict[str, Any]) -> None:
    with server.client() as c:
        r = c.get(path, params=params)
    assert r.status_code == 422, r.text


RSS_BOUND_MB = 600
REQUESTS = 100
"""Documented in SECURITY.md: the service's memory (HTTP process plus one audit process)."""


def large_source(i: int, chars: int = 1_400_000) -> str:
    """Distinct sentences (figures, years, sites), a text no other request has: every cache sees new keys."""
    out: list[str] = []
    n = j = 0
    while n < chars:
        s = f"Plant {i}-{j} opened in {1800 + (31 * i + j) % 230} and employs {(7919 * i + 104729 * j) % 99991} people. "
        out.append(s)
        n, j = n + len(s), j + 1
    return "".join(out)[:chars]


@pytest.mark.slow
def test_memory_stays_bounded_across_many_large_requests(tmp_path: Path) -> None:
    """100 requests with 1.4 MB of distinct sources each (issue 11): memory must plateau under the bound."""
    env = {"RAGAUDIT_AUDIT_PROCESSES": "1"}  # the bound is per audit process; count them all below
    srv = Server(f"sqlite:///{tmp_path / 'audits.db'}", log=tmp_path / "serve.log", env=env).start()
    try:
        assert srv.proc is not None
        with srv.client() as c:
            for i in range(REQUESTS):
                body = {
                    "answer": f"Plant {i}-5 opened in {1800 + (31 * i + 5) % 230}.",
                    "sources": [{"id": "1", "text": large_source(i)}],
                }
                assert c.post("/v1/audits", json=body, timeout=300).status_code == 200
                if i % 10 == 9:
                    print(f"after {i + 1} requests: RSS {rss_mb(srv.proc.pid):.0f} MB", flush=True)
            peak = rss_mb(srv.proc.pid)
        assert peak <= RSS_BOUND_MB, f"RSS {peak:.0f} MB after {REQUESTS} requests of 1.4 MB"
    finally:
        srv.stop()


def status(server: Server, key: str, path: str) -> int:
    """GET ``path`` with ``key``; the status code."""
    with server.client(key) as c:
        return c.get(path).status_code


def test_key_rotation_revocation_unique_names_and_a_changed_admin_key(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    first = Server(url, admin_key="first-admin-key-0123456789", log=tmp_path / "serve.log").start()
    try:
        with first.client() as admin:
            ana = admin.post("/v1/keys", json={"name": "ana", "role": "reviewer"}).json()["key"]
            again = admin.post("/v1/keys", json={"name": "ana", "role": "admin"})
            assert again.status_code == 409 and "already exists" in again.json()["detail"]
            rotated = admin.post("/v1/keys/ana/rotate")
            assert rotated.status_code == 201
            new = rotated.json()["key"]
            assert status(first, ana, "/v1/reviews") == 401
            assert status(first, new, "/v1/reviews") == 200
            assert admin.delete("/v1/keys/ana").status_code == 204
            assert status(first, new, "/v1/reviews") == 401
            assert admin.delete("/v1/keys/ana").status_code == 404
    finally:
        first.stop()
    second = Server(url, admin_key="second-admin-key-0123456789", log=tmp_path / "serve.log").start()
    try:
        assert status(second, "first-admin-key-0123456789", "/v1/keys") == 401
        assert status(second, second.admin_key, "/v1/keys") == 200
    finally:
        second.stop()
    weak = Server(url, admin_key="a", log=tmp_path / "weak.log")
    with pytest.raises(RuntimeError, match="exited"):
        weak.start()
    assert "at least 16 characters" in (tmp_path / "weak.log").read_text()


def test_review_page_has_a_strict_csp_and_cannot_be_framed(server: Server) -> None:
    r = httpx.get(server.url + "/review")
    csp = r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in csp
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp
    script = re.search(r"<script>(.*?)</script>", r.text, re.DOTALL)
    assert script is not None
    digest = base64.b64encode(hashlib.sha256(script[1].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp  # the page's own script is the only one allowed


def test_api_docs_need_no_internet(server: Server) -> None:
    page = httpx.get(server.url + "/docs")
    assert page.status_code == 200
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert assets and not [a for a in assets if a.startswith(("http:", "https:", "//"))]
    for asset in assets:
        assert httpx.get(server.url + asset).status_code == 200, asset


SERVICE_CRASHERS = {
    "lone surrogate": b'{"answer": "Paris \\ud800 is big.", "sources": [{"id": "1", "text": "Paris"}]}',
    "deeply nested": b'{"answer": "x", "sources": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    "huge integer": b'{"answer": "x", "id": ' + b"9" * 5000 + b', "sources": [{"id": "1", "text": "a"}]}',
    "not UTF-8": b'{"answer": "Paris \xff", "sources": [{"id": "1", "text": "a"}]}',
    "not JSON": b'{"answer": ',
    "huge number in text": b'{"answer": "It has ' + b"9" * 400 + b' people.", "sources": [{"id": "1", "text": "x"}]}',
}


@pytest.mark.parametrize("name", list(SERVICE_CRASHERS))
def test_hostile_bodies_get_a_4xx_never_a_500(server: Server, name: str) -> None:
    with server.client() as c:
        r = c.post("/v1/audits", content=SERVICE_CRASHERS[name], headers={"Content-Type": "application/json"})
        assert r.status_code < 500, r.text[:300]
        if r.status_code >= 400:
            assert "Traceback" not in r.text
        assert c.get("/healthz").status_code == 200
