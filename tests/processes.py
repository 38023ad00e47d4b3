"""Processes the tests start: servers on 127.0.0.1 (a free port, waiting until one answers, stopping
it, its resident memory), and the tasks spawned workers import (pool calls, shared-vector claims)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from multiprocessing.synchronize import Event
from pathlib import Path

import httpx
import numpy as np

from ragaudit import embed as embedding
from ragaudit._shared_vectors import Handle, SharedVectors


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(proc: subprocess.Popen[bytes], url: str, *, name: str, seconds: float, interval: float) -> bool:
    """Poll ``url`` until it answers 200 (True) or ``seconds`` pass (False); RuntimeError if ``proc`` exits."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=max(1.0, interval * 4)).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with {proc.returncode}")
        time.sleep(interval)
    return False


def stop(proc: subprocess.Popen[bytes] | None, grace: float = 10) -> None:
    """Terminate ``proc`` and wait up to ``grace`` seconds, then kill it."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and all its descendants, in MB."""
    total = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total += int(line.split()[1]) / 1024
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            total += rss_mb(int(child))
    return total


def pid_after(seconds: float) -> int:
    """Sleep ``seconds``, then the calling process's id (a pool task importable in spawned workers)."""
    time.sleep(seconds)
    return os.getpid()


def vector_of(seed: int) -> np.ndarray:
    """A recognisable vector for test ``seed``."""
    return np.full(384, float(seed), dtype=np.float32)


def claim_texts(handle: Handle, keys: list[bytes], claimed: Event, go: Event | None) -> None:
    """Claim ``keys`` in a shared vector table, then publish them once ``go`` is set (or exit holding them)."""
    table = SharedVectors.attach(handle)
    _, mine, _ = table.claim(keys)
    assert mine == set(keys)
    claimed.set()
    if go is not None:  # else: exit holding the claims, as a killed worker would
        go.wait(30)
        table.publish((key, vector_of(i)) for i, key in enumerate(keys))


def embed_texts(handle: Handle, texts: list[str]) -> None:
    """Embed ``texts`` with the shared vector table ``handle`` names."""
    embedding.share_vectors(SharedVectors.attach(handle))
    embedding.embed(texts)


def hold_table_lock(handle: Handle, held: Event) -> None:
    """Take a shared vector table's lock and keep it until killed (a worker that dies holding it)."""
    table = SharedVectors.attach(handle)
    table.lock.acquire()
    held.set()
    time.sleep(60)
