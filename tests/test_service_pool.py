"""The service audits in a process pool: /healthz stays fast while every audit process is busy,
concurrent audits are all recorded exactly once (SQLite with one writer, and PostgreSQL), and the
dispatcher sends a request where its sources were indexed without leaving a process idle."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import httpx
import pytest

from processes import pid_after
from ragaudit import Auditor
from ragaudit.config import AuditorConfig
from ragaudit.gate import Policy
from ragaudit.models import AuditRequest
from ragaudit.service._dispatch import Scheduler, Waiting
from ragaudit.service.pool import AuditPool
from ragaudit.service.settings import ServiceSettings
from service_helpers import PG_URL, Server, reset_postgres

NAMES = ["Lakeside", "Northgate", "Riverbend", "Hillcrest", "Eastport", "Westfield", "Oakridge", "Pinehurst"]


def _heavy(i: int) -> dict[str, Any]:
    """About a second of CPU per audit: 40 claims against 10 sources of 20 sentences."""
    sources = [
        {
            "id": str(s),
            "text": " ".join(
                f"The {NAMES[j % 8]} plant number {s * 100 + j} opened in {1900 + j} and employs {j * 13} people."
                for j in range(20)
            ),
        }
        for s in range(10)
    ]
    answer = " ".join(
        f"The {NAMES[j % 8]} plant number {j + i} opened in {1950 + j} and employs {j * 7} people." for j in range(40)
    )
    return {"id": f"heavy-{i}", "trace_id": f"heavy-{i}", "answer": answer, "sources": sources}


def _light(i: int) -> dict[str, Any]:
    return {
        "id": f"light-{i}",
        "trace_id": f"light-{i}",
        "question": "When did the plant open?",
        "answer": f"The plant opened in {1990 + i % 20}. It employs {100 + i} people.",
        "sources": [{"id": "1", "text": f"The plant opened in 1995. Today it employs {100 + i} people."}],
    }


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    if request.param == "postgresql":
        if not reset_postgres():
            pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
        url = PG_URL
    else:
        url = f"sqlite:///{tmp_path / 'trail.db'}"
    monkeypatch.setenv("RAGAUDIT_AUDIT_PROCESSES", "2")
    srv = Server(url, log=tmp_path / "serve.log").start()
    yield srv
    srv.stop()


@pytest.mark.slow  # six one-second audits on two processes, per database
def test_healthz_answers_fast_while_the_pool_is_saturated(server: Server) -> None:
    results: list[int] = []
    with server.client() as client, httpx.Client(base_url=server.url) as probe, ThreadPoolExecutor(6) as pool:
        t0 = time.monotonic()
        futures = [pool.submit(lambda i=i: client.post("/v1/audits", json=_heavy(i)).status_code) for i in range(6)]
        time.sleep(0.3)  # every audit process is busy from here on, and requests wait behind them
        latencies = []
        while not all(f.done() for f in futures) and len(latencies) < 100:
            start = time.perf_counter()
            assert probe.get("/healthz", timeout=5).status_code == 200
            latencies.append(time.perf_counter() - start)
            time.sleep(0.02)
        results = [f.result() for f in futures]
        busy = time.monotonic() - t0
    assert results == [200] * 6
    assert len(latencies) >= 10, f"the pool was saturated only {busy:.1f} s"
    assert statistics.median(latencies) < 0.1, latencies
    with server.client() as client:
        audits = client.get("/v1/audits", params={"limit": 100}).json()
    assert sorted(a["trace_id"] for a in audits if (a["trace_id"] or "").startswith("heavy")) == [
        f"heavy-{i}" for i in range(6)
    ]


def test_concurrent_audits_are_each_recorded_once(server: Server) -> None:
    lock = threading.Lock()
    ids: list[str] = []
    answers: dict[str, dict[str, Any]] = {}

    def post(i: int) -> None:
        with server.client() as client:
            response = client.post("/v1/audits", json=_light(i))
            assert response.status_code == 200, response.text
            with lock:
                ids.append(response.json()["id"])
                answers[response.json()["id"]] = response.json()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(post, range(48)))
    with server.client() as client:
        audits = client.get("/v1/audits", params={"limit": 200}).json()
        recorded = [a for a in audits if (a["trace_id"] or "").startswith("light")]
        assert sorted(a["id"] for a in recorded) == sorted(ids) and len(set(ids)) == 48
        assert sorted(a["trace_id"] for a in recorded) == sorted(f"light-{i}" for i in range(48))
        one = client.get(f"/v1/audits/{ids[0]}").json()
        assert one["state"] == "done" and one["report"]["claims"]
        assert one == answers[ids[0]]  # the sync answer is what was recorded


def test_the_pool_audits_under_its_config_in_a_worker_process() -> None:
    config = AuditorConfig(
        risk_level="high", claim_types=["temporal"], policy=Policy(name="strict-test", threshold=0.99)
    )
    request = AuditRequest.model_validate(_light(0))
    pool = AuditPool(config, processes=1)  # spawned: the config crosses to the worker pickled

    async def both() -> tuple[Any, Any]:
        return await pool.audit(request), await pool.audit(request, "low", ["quantitative"])

    try:
        configured, overridden = asyncio.run(both())
        worker_pids = set(pool.pids())
    finally:
        pool.close()
    assert worker_pids and None not in worker_pids and os.getpid() not in worker_pids
    assert configured.decision.policy == "strict-test" and configured.decision.risk_level == "high"
    assert configured.options.claim_types == ["temporal"] and {c.type for c in configured.claims} == {"temporal"}
    assert overridden.decision.policy == "strict-test" and overridden.decision.risk_level == "low"
    assert overridden.options.claim_types == ["quantitative"]


def test_start_returns_once_every_process_has_built_its_auditor() -> None:
    # Two quarter-second calls about the same sources, sent at once after start(): each process is
    # ready, so each takes one (no process idles while a request waits, affinity or not).
    pool = AuditPool(AuditorConfig(), processes=2)

    async def started_then_two_calls() -> tuple[list[int | None], list[int]]:
        await pool.start()
        ready = pool.pids()
        return ready, await asyncio.gather(*(pool.run("same sources", pid_after, 0.25) for _ in range(2)))

    try:
        ready, pids = asyncio.run(started_then_two_calls())
    finally:
        pool.close()
    assert None not in ready and len(set(pids)) == 2 and set(pids) == set(ready)


def test_requests_with_the_same_sources_run_where_those_were_indexed() -> None:
    pool = AuditPool(AuditorConfig(), processes=2)
    shared = [{"id": "1", "text": "The Lakeside plant opened in 1995. Today it employs 120 people."}]
    first = AuditRequest.model_validate({"answer": "The plant opened in 1995.", "sources": shared})
    second = AuditRequest.model_validate({"answer": "It employs 120 people.", "sources": shared})

    async def one_at_a_time() -> dict[str, list[int]]:
        await pool.start()
        where: dict[str, list[int]] = {"A": [], "B": []}
        for key in "ABABAB":  # both processes are idle at each call: the choice is affinity alone
            where[key].append(await pool.run(key, os.getpid))
        await pool.audit(first)
        await pool.audit(second)
        return where

    try:
        where = asyncio.run(one_at_a_time())
    finally:
        pool.close()
    assert len(set(where["A"])) == 1 and len(set(where["B"])) == 1 and where["A"][0] != where["B"][0]
    # A and B three times each: two new, four where indexed; the two audits: one new, one indexed.
    assert (pool.scheduler.new, pool.scheduler.seen) == (3, 5)


def test_answers_about_the_same_passages_audited_at_once_give_the_reports_audited_alone() -> None:
    # Both processes embed the shared passages together (each takes some, reads the rest from the
    # other): the reports are still exactly those of one auditor in this process.
    sources = _heavy(0)["sources"]
    requests = [
        AuditRequest.model_validate({"id": f"same-{i}", "answer": _heavy(i)["answer"], "sources": sources})
        for i in range(4)
    ]
    pool = AuditPool(AuditorConfig(), processes=2)

    async def at_once() -> list[Any]:
        await pool.start()
        return list(await asyncio.gather(*(pool.audit(r) for r in requests)))

    try:
        pooled = asyncio.run(at_once())
    finally:
        pool.close()
    alone = [Auditor().audit(r) for r in requests]
    for mine, theirs in zip(pooled, alone, strict=True):
        assert mine.model_dump(exclude={"timings"}) == theirs.model_dump(exclude={"timings"})


def test_a_killed_worker_fails_only_its_own_call_and_is_replaced() -> None:
    pool = AuditPool(AuditorConfig(), processes=1)
    request = AuditRequest.model_validate(_light(0))

    async def kill_while_busy() -> tuple[int, BaseException | int, int, Any]:
        await pool.start()
        victim = pool.pids()[0]
        assert victim is not None
        running = asyncio.ensure_future(pool.run("A", pid_after, 60))
        waiting = asyncio.ensure_future(pool.run("A", os.getpid))  # one process: this one waits
        while not pool.scheduler.waiting:
            await asyncio.sleep(0.01)
        os.kill(victim, signal.SIGKILL)
        crashed = await asyncio.gather(running, return_exceptions=True)
        return victim, crashed[0], await waiting, await pool.audit(request)

    try:
        victim, crashed, replacement, report = asyncio.run(kill_while_busy())
    finally:
        pool.close()
    assert isinstance(crashed, BrokenProcessPool)
    assert replacement != victim and report.claims


def test_a_pool_without_processes_runs_calls_in_this_process() -> None:
    pool = AuditPool(AuditorConfig(), processes=0)
    assert asyncio.run(pool.run("A", os.getpid)) == os.getpid() and pool.pids() == []


def _busy_scheduler(max_bypass: int = 4) -> Scheduler:
    """Two slots busy: slot 0 auditing sources A, slot 1 sources B."""
    scheduler = Scheduler(2, max_bypass=max_bypass)
    assert scheduler.arrive(Waiting("A")) == 0
    assert scheduler.arrive(Waiting("B")) == 1
    return scheduler


def test_an_idle_process_takes_a_request_whose_sources_another_indexed() -> None:
    scheduler = Scheduler(2)
    assert scheduler.arrive(Waiting("A")) == 0
    assert scheduler.arrive(Waiting("A")) == 1  # slot 0 is busy: work-conserving, nothing waits
    assert not scheduler.waiting
    assert scheduler.release(0) is None and scheduler.release(1) is None
    assert scheduler.arrive(Waiting("C")) == 0  # new sources: the slot idle longest
    assert scheduler.arrive(Waiting("D")) == 1


def test_a_free_process_takes_a_younger_request_with_its_sources_first() -> None:
    scheduler = _busy_scheduler()
    older_b, younger_a = Waiting("B"), Waiting("A")
    assert scheduler.arrive(older_b) is None and scheduler.arrive(younger_a) is None
    assert scheduler.release(0) is younger_a and older_b.bypassed == 1
    assert scheduler.release(1) is older_b
    # Sources no slot has indexed: the oldest first.
    first, second = Waiting("C"), Waiting("D")
    scheduler.arrive(first)
    scheduler.arrive(second)
    assert scheduler.release(1) is first and scheduler.release(0) is second


def test_a_request_whose_sources_nobody_indexed_is_passed_over_a_bounded_number_of_times() -> None:
    scheduler = _busy_scheduler(max_bypass=3)
    stranger = Waiting("C")
    scheduler.arrive(stranger)
    taken = []
    for turn in range(10):  # requests about A and B keep coming; each slot would rather take those
        scheduler.arrive(Waiting("A"))
        scheduler.arrive(Waiting("B"))
        item = scheduler.release(turn % 2)
        taken.append(item)
        if item is stranger:
            break
    assert stranger in taken and stranger.bypassed == 3 and len(taken) == 4


def test_the_dispatcher_never_idles_a_process_while_a_request_waits() -> None:
    rng = random.Random(13)
    scheduler = Scheduler(3, max_bypass=4)
    busy: list[int] = []
    started: list[Waiting] = []
    arrived: list[Waiting] = []
    for _ in range(5000):
        if busy and rng.random() < 0.5:
            slot = busy.pop(rng.randrange(len(busy)))
            item = scheduler.release(slot)
            if item is not None:
                busy.append(slot)
                started.append(item)
        else:
            item = Waiting(rng.choice("ABCDEFG"))
            arrived.append(item)
            slot_now = scheduler.arrive(item)
            if slot_now is not None:
                busy.append(slot_now)
                started.append(item)
        idle = len(scheduler.slots) - len(busy)
        assert not (idle and scheduler.waiting)
        assert all(w.bypassed <= 4 for w in scheduler.waiting)
        assert sorted(busy) == [i for i, s in enumerate(scheduler.slots) if s.busy]
    assert len({id(w) for w in started}) == len(started)  # each started once
    assert {id(w) for w in started} | {id(w) for w in scheduler.waiting} == {id(w) for w in arrived}


def test_the_service_settings_make_the_auditor_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    policy = tmp_path / "strict.toml"
    policy.write_text('name = "strict-test"\nthreshold = 0.99\n')
    monkeypatch.setenv("RAGAUDIT_POLICY", str(policy))
    monkeypatch.setenv("RAGAUDIT_RISK_LEVEL", "high")
    assert ServiceSettings().auditor_config() == AuditorConfig(policy=str(policy), risk_level="high")
    monkeypatch.setenv("RAGAUDIT_AUDIT_PROCESSES", "1")
    srv = Server(f"sqlite:///{tmp_path / 'trail.db'}", log=tmp_path / "serve.log").start()
    try:
        with srv.client() as client:
            default = client.post("/v1/audits", json=_light(1)).json()["report"]
            chosen = client.post("/v1/audits", json={**_light(2), "risk_level": "low", "claim_types": ["temporal"]})
            chosen_report = chosen.json()["report"]
    finally:
        srv.stop()
    assert default["decision"]["policy"] == "strict-test" and default["options"]["risk_level"] == "high"
    assert chosen_report["decision"]["policy"] == "strict-test" and chosen_report["options"] == {
        "risk_level": "low",
        "claim_types": ["temporal"],
    }


def test_create_app_takes_an_auditor_config(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from ragaudit.service import create_app

    key = "admin-test-key-0123456789"
    settings = ServiceSettings(database_url=f"sqlite:///{tmp_path / 'trail.db'}", admin_key=key, audit_processes=0)
    config = AuditorConfig(claim_types=["temporal"], policy=Policy(name="strict-test", threshold=0.99))
    with TestClient(create_app(settings, config=config)) as client:
        response = client.post("/v1/audits", json=_light(3), headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200, response.text
    report = response.json()["report"]
    assert report["decision"]["policy"] == "strict-test" and report["options"]["claim_types"] == ["temporal"]
