"""The embedding vectors the service's audit processes share (``ragaudit._shared_vectors``), across real
spawned processes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterator

import numpy as np
import pytest

from processes import claim_texts, embed_texts, hold_table_lock, vector_of
from ragaudit import _shared_vectors as shared_vectors
from ragaudit import embed as embedding
from ragaudit._shared_vectors import SharedVectors, text_key

CONTEXT = multiprocessing.get_context("spawn")
TEXTS = [
    "The harbour dues for vessels over 200 metres rose to 1.8 euros per gross tonne in March.",
    "Pilotage is compulsory for tankers entering the inner basin after dark.",
    "Berth 4 closes for dredging from 3 to 17 June.",
]


@pytest.fixture
def table() -> Iterator[SharedVectors]:
    shared = SharedVectors.create(CONTEXT, slots=64)
    yield shared
    shared.unlink()


def test_a_process_waits_for_the_texts_another_has_claimed_and_reads_its_vectors(table: SharedVectors) -> None:
    keys = [text_key(t) for t in TEXTS]
    claimed, go = CONTEXT.Event(), CONTEXT.Event()
    child = CONTEXT.Process(target=claim_texts, args=(table.handle, keys, claimed, go))
    child.start()
    try:
        assert claimed.wait(30)
        found, mine, theirs = table.claim(keys)
        assert (found, mine, theirs) == ({}, set(), set(keys))
        go.set()
        vectors = table.wait(theirs)
    finally:
        child.join(30)
    assert child.exitcode == 0
    assert set(vectors) == set(keys)
    for i, key in enumerate(keys):
        assert np.array_equal(vectors[key], vector_of(i))
    again, mine, theirs = table.claim(keys)  # finished: read, never claimed again
    assert set(again) == set(keys) and not mine and not theirs


def test_claims_of_a_process_that_died_are_taken_over(table: SharedVectors) -> None:
    keys = [text_key(t) for t in TEXTS]
    claimed = CONTEXT.Event()
    child = CONTEXT.Process(target=claim_texts, args=(table.handle, keys, claimed, None))
    child.start()
    child.join(30)
    assert child.exitcode == 0 and claimed.is_set()
    time.sleep(2 * shared_vectors._ALIVE_CHECK_SECONDS)  # only claims older than this are checked for their owner
    found, mine, theirs = table.claim(keys)  # its process is gone: no waiting on it
    assert (found, mine, theirs) == ({}, set(keys), set())


def test_the_table_stays_bounded_and_keeps_what_was_used_last(table: SharedVectors) -> None:
    keys = [text_key(f"passage {i}") for i in range(1_000)]
    for i, key in enumerate(keys):
        _, mine, _ = table.claim([key])
        table.publish((k, vector_of(i)) for k in mine)
    # A fixed block of memory: the last texts are there, the first were replaced.
    last, _, _ = table.claim(keys[-1:])
    first, mine, _ = table.claim(keys[:1])
    assert np.array_equal(last[keys[-1]], vector_of(len(keys) - 1))
    assert not first and mine == set(keys[:1])


def test_a_failed_embedding_releases_its_claims(table: SharedVectors) -> None:
    keys = [text_key(t) for t in TEXTS]
    table.claim(keys)
    table.release(keys)
    # Released: another process claims them for itself (the child asserts so), not left waiting for this one.
    claimed = CONTEXT.Event()
    child = CONTEXT.Process(target=claim_texts, args=(table.handle, keys, claimed, None))
    child.start()
    child.join(30)
    assert child.exitcode == 0 and claimed.is_set()


def test_a_process_killed_holding_the_lock_makes_the_others_embed_alone(
    table: SharedVectors, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_vectors, "LOCK_SECONDS", 0.2)
    held = CONTEXT.Event()
    child = CONTEXT.Process(target=hold_table_lock, args=(table.handle, held))
    child.start()
    assert held.wait(30)
    os.kill(child.pid or 0, signal.SIGKILL)
    child.join(30)
    encoder = embedding._encoder()
    encoder.cache.clear()
    embedding.share_vectors(table)
    try:
        vectors = embedding.embed(TEXTS)  # does not wait for a lock nobody will release
        assert encoder.shared is None
    finally:
        embedding.share_vectors(None)
        encoder.cache.clear()
    assert np.array_equal(vectors, embedding.embed(TEXTS))


def test_a_vector_does_not_depend_on_the_batch_it_ran_in() -> None:
    encoder = embedding._encoder()
    encoder.cache.clear()
    alone = embedding.embed(TEXTS[:1])
    encoder.cache.clear()
    together = embedding.embed([*TEXTS[1:], "A short one.", TEXTS[0]])
    encoder.cache.clear()
    assert np.array_equal(alone[0], together[-1])


def test_vectors_read_from_the_table_are_the_ones_this_process_would_compute(table: SharedVectors) -> None:
    child = CONTEXT.Process(target=embed_texts, args=(table.handle, TEXTS))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    encoder = embedding._encoder()
    run = encoder._run

    def no_model(batch: list[list[int]]) -> np.ndarray:
        raise AssertionError("a vector the table holds was computed again")

    encoder.cache.clear()
    encoder._run = no_model  # type: ignore[method-assign]
    embedding.share_vectors(table)
    try:
        shared = embedding.embed(TEXTS)
    finally:
        embedding.share_vectors(None)
        encoder._run = run  # type: ignore[method-assign]
        encoder.cache.clear()
    # The same texts embedded here, alone: the vectors do not depend on which process or batch ran them.
    assert np.array_equal(shared, embedding.embed(TEXTS))
