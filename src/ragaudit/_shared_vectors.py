"""Embedding vectors shared by the audit processes of one pool, and the work of computing them.

The service's audit processes often audit answers about the same passages at the same moment
(several answers per retrieved document, sent one after another). Each process keeps its own
vector cache, so before this table both embedded every passage: a document's source windows were
embedded once per process instead of once. Here a process *claims* the texts of each embedding
run before it runs it, skips the texts another process has claimed, and afterwards reads those
from the table: two processes starting on the same document split its passages between them.

The vectors do not depend on what else ran in the same ONNX batch (checked in the tests), so a
report is the same whichever process embedded a text. Bounded: a fixed number of slots in one
shared-memory block, open addressing over a short probe window, the least recently used finished
slot replaced; a claim whose process died or stalled is taken over after :data:`STALE_SECONDS`.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import shared_memory
from multiprocessing.context import SpawnContext
from typing import Any

import numpy as np
import numpy.typing as npt

DIMENSIONS = 384
DEFAULT_SLOTS = 8_192
"""Vectors kept (1.5 KB each: 12.6 MB of shared memory for the default)."""
_PROBE = 8
"""Slots a key may occupy: its hash's slot and the next seven."""
STALE_SECONDS = 5.0
"""A claim not finished this long after it was made is taken over (a claim is published as soon as its text is
embedded: milliseconds; a process that died is noticed at once)."""
LOCK_SECONDS = 2.0
"""How long a process waits for the table's lock: one killed while holding it never releases it, and then every
process stops sharing (:class:`TableUnavailable`) instead of waiting for ever."""
_POLL_SECONDS = 0.001
_ALIVE_CHECK_SECONDS = 0.05
"""Claims younger than this are not checked for a dead owner (a system call per key per poll otherwise)."""


class TableUnavailable(RuntimeError):
    """The table's lock could not be had in :data:`LOCK_SECONDS`: embed alone from now on."""


_EMPTY, _PENDING, _DONE = 0, 1, 2


def text_key(text: str) -> bytes:
    """The 16-byte digest a text is stored under."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


@dataclass(frozen=True, slots=True)
class Handle:
    """What a worker process needs to attach to the table (pickled into its initializer)."""

    name: str
    slots: int
    lock: Any


class SharedVectors:
    """A bounded table of text digest → unit vector in shared memory, with claims on texts being computed.

    Create it in the parent with :meth:`create`, pass :attr:`handle` to each worker, attach there with
    :meth:`attach`; the parent calls :meth:`unlink` when the workers are gone.
    """

    def __init__(self, memory: shared_memory.SharedMemory, slots: int, lock: Any, *, owner: bool) -> None:
        self._memory = memory
        self.slots = slots
        self.lock = lock
        self._owner = owner
        buffer = memory.buf
        offset = 0

        def view(dtype: Any, shape: tuple[int, ...]) -> npt.NDArray[Any]:
            nonlocal offset
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            array = np.ndarray(shape, dtype=dtype, buffer=buffer, offset=offset)
            offset += size
            return array

        self._vectors = view(np.float32, (slots, DIMENSIONS))
        self._stamps = view(np.float64, (slots,))
        """When a pending slot was claimed (``time.monotonic``), or a finished slot's last use (the clock below)."""
        self._keys = view(np.uint8, (slots, 16))
        self._owners = view(np.int32, (slots,))
        self._states = view(np.uint8, (slots,))
        self._clock = view(np.float64, (1,))

    @staticmethod
    def size(slots: int) -> int:
        """Bytes of shared memory a table of ``slots`` vectors takes."""
        return slots * (DIMENSIONS * 4 + 8 + 16 + 4 + 1) + 8

    @classmethod
    def create(cls, context: SpawnContext, slots: int = DEFAULT_SLOTS) -> SharedVectors:
        """A new, empty table (its memory is zeroed by the system)."""
        lock = context.Lock()  # first: a block created before a failing lock would never be unlinked
        memory = shared_memory.SharedMemory(create=True, size=cls.size(slots))
        return cls(memory, slots, lock, owner=True)

    @classmethod
    def attach(cls, handle: Handle) -> SharedVectors:
        """The table ``handle`` names, in a worker process."""
        return cls(shared_memory.SharedMemory(name=handle.name), handle.slots, handle.lock, owner=False)

    @property
    def handle(self) -> Handle:
        """The picklable reference workers attach with."""
        return Handle(self._memory.name, self.slots, self.lock)

    def unlink(self) -> None:
        """Release the memory (the creating process, once no worker uses it)."""
        self._release_views()
        self._memory.close()
        if self._owner:
            self._memory.unlink()

    def _release_views(self) -> None:
        # The numpy views hold the buffer: drop them before closing the block.
        for name in ("_vectors", "_stamps", "_keys", "_owners", "_states", "_clock"):
            setattr(self, name, None)

    # -- lookups, under the lock -------------------------------------------------------------

    @contextmanager
    def _locked(self) -> Iterator[None]:
        if not self.lock.acquire(timeout=LOCK_SECONDS):
            raise TableUnavailable("the shared vector table's lock was not released (a process died holding it?)")
        try:
            yield
        finally:
            self.lock.release()

    def _window(self, key: bytes) -> range:
        start = int.from_bytes(key[:8], "little") % self.slots
        return range(start, start + _PROBE)

    def _find(self, key: bytes) -> int | None:
        wanted = np.frombuffer(key, dtype=np.uint8)
        for k in self._window(key):
            slot = k % self.slots
            if self._states[slot] != _EMPTY and np.array_equal(self._keys[slot], wanted):
                return slot
        return None

    def _free_slot(self, key: bytes, now: float) -> int | None:
        """An empty slot of ``key``'s window, else its least recently used finished one, else a stale claim."""
        best: int | None = None
        for k in self._window(key):
            slot = k % self.slots
            state = self._states[slot]
            if state == _EMPTY:
                return slot
            if state == _DONE and (best is None or self._stamps[slot] < self._stamps[best]):
                best = slot
        if best is not None:
            return best
        for k in self._window(key):
            slot = k % self.slots
            if now - self._stamps[slot] > STALE_SECONDS:
                return slot
        return None

    def claim(self, keys: Sequence[bytes]) -> tuple[dict[bytes, npt.NDArray[np.float32]], set[bytes], set[bytes]]:
        """For each key: its vector if finished, else claimed for this process, else left to the process that
        claimed it. Returns ``(found, mine, theirs)``; a key with no room in the table is ``mine`` unclaimed."""
        found: dict[bytes, npt.NDArray[np.float32]] = {}
        mine: set[bytes] = set()
        theirs: set[bytes] = set()
        pid = os.getpid()
        now = time.monotonic()
        with self._locked():
            for key in keys:
                slot = self._find(key)
                if slot is not None and self._states[slot] == _DONE:
                    found[key] = self._vectors[slot].copy()
                    self._clock[0] += 1
                    self._stamps[slot] = self._clock[0]
                    continue
                if slot is not None and self._owners[slot] != pid and not self._abandoned(slot, now):
                    theirs.add(key)
                    continue
                slot = slot if slot is not None else self._free_slot(key, now)
                mine.add(key)
                if slot is not None:
                    self._keys[slot] = np.frombuffer(key, dtype=np.uint8)
                    self._states[slot] = _PENDING
                    self._owners[slot] = pid
                    self._stamps[slot] = now
        return found, mine, theirs

    def _abandoned(self, slot: int, now: float) -> bool:
        """A claim whose process is gone, or that has not finished in :data:`STALE_SECONDS`."""
        age = now - self._stamps[slot]
        if age > STALE_SECONDS:
            return True
        if age < _ALIVE_CHECK_SECONDS:
            return False
        try:
            os.kill(int(self._owners[slot]), 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # alive, another user's
            return False
        return False

    def publish(self, vectors: Iterable[tuple[bytes, npt.NDArray[np.float32]]]) -> None:
        """Store finished vectors for keys this process claimed (a key whose slot was taken over is skipped)."""
        pid = os.getpid()
        with self._locked():
            for key, vector in vectors:
                slot = self._find(key)
                if slot is None or self._states[slot] != _PENDING or self._owners[slot] != pid:
                    continue
                self._vectors[slot] = vector
                self._clock[0] += 1
                self._stamps[slot] = self._clock[0]
                self._states[slot] = _DONE

    def release(self, keys: Iterable[bytes]) -> None:
        """Drop this process's claims on ``keys`` that it did not finish (its embedding failed)."""
        pid = os.getpid()
        with self._locked():
            for key in keys:
                slot = self._find(key)
                if slot is not None and self._states[slot] == _PENDING and self._owners[slot] == pid:
                    self._states[slot] = _EMPTY

    def wait(self, keys: set[bytes]) -> dict[bytes, npt.NDArray[np.float32]]:
        """The vectors of ``keys`` other processes claimed, as they finish; a key whose claim was dropped, taken
        over, replaced or abandoned is left out (the caller computes it)."""
        found: dict[bytes, npt.NDArray[np.float32]] = {}
        waiting = set(keys)
        while waiting:
            now = time.monotonic()
            with self._locked():
                for key in list(waiting):
                    slot = self._find(key)
                    if slot is None or self._states[slot] == _EMPTY:
                        waiting.discard(key)
                    elif self._states[slot] == _DONE:
                        found[key] = self._vectors[slot].copy()
                        waiting.discard(key)
                    elif self._owners[slot] == os.getpid() or self._abandoned(slot, now):
                        waiting.discard(key)
            if waiting:
                time.sleep(_POLL_SECONDS)
        return found
