"""Start a real `ragaudit serve` on 127.0.0.1 for end-to-end tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from processes import free_port, stop, wait_ready

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


class Server:
    """A `ragaudit serve` subprocess."""

    def __init__(
        self,
        database_url: str,
        admin_key: str = "admin-test-key-0123456789",
        log: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.env = env or {}
        self.admin_key = admin_key
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        env = {
            **os.environ,
            "RAGAUDIT_ADMIN_KEY": self.admin_key,
            "RAGAUDIT_DATABASE_URL": self.database_url,
            **self.env,
        }
        if self.log:
            with self.log.open("ab") as out:  # the child keeps its own handle
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "ragaudit", "serve", "--port", str(self.port)],
                    env=env,
                    stdout=out,
                    stderr=out,
                )
        else:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "ragaudit", "serve", "--port", str(self.port)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        # 90 s: a loaded 2-core machine starts the audit pool slowly
        if wait_ready(self.proc, self.url + "/readyz", name="ragaudit serve", seconds=90, interval=0.2):
            return self
        self.kill()  # no stray server (and no ResourceWarning for a running Popen)
        raise RuntimeError("ragaudit serve did not become ready in 90 s")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        stop(self.proc)

    def client(self, key: str | None = None) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {key or self.admin_key}"}, timeout=30)


def wait_finished(client: httpx.Client, audit_id: str, timeout: float = 60) -> dict[str, Any]:
    """The audit once its state is ``done`` or ``failed``; AssertionError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(f"/v1/audits/{audit_id}").json()
        if body["state"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"audit {audit_id} still {body['state']} after {timeout} s")


def reset_postgres() -> bool:
    """Empty the test database; False when PostgreSQL is not reachable."""
    from sqlalchemy import create_engine, text

    try:
        engine = create_engine(PG_URL)
        with engine.begin() as conn:
            conn.execute(
                text("DROP TABLE IF EXISTS retention_log, api_keys, jobs, reviews, audits, alembic_version CASCADE")
            )
        engine.dispose()
        return True
    except Exception:
        return False
