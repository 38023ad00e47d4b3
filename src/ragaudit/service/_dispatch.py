"""Which audit process runs which request: work-conserving, with source affinity.

A process keeps the source indexes it built (the embedded source windows are most of an audit's
cost when several answers share their passages), so a request is best audited where its sources
were last indexed. Two rules keep that preference from costing latency or fairness:

- work-conserving: no request waits while a process is idle; a request that arrives when only
  processes without its sources are idle runs on one of them at once;
- bounded bypass: a process that goes idle takes the oldest waiting request, unless a younger one
  has sources it indexed recently; a request can be passed over this way at most ``max_bypass``
  times, then the next process to go idle takes it whatever its sources.

The scheduler only decides; it runs nothing and holds no lock (the pool calls it under its own).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

RECENT_KEYS = 16
"""Source sets a process is taken to still have indexed (its cache holds up to 256, bounded by size)."""


@dataclass(eq=False)
class Waiting:
    """A request waiting for a process: its sources' key and what the pool needs to run it."""

    key: Hashable | None
    payload: Any = None
    bypassed: int = 0
    seen: bool = False  # set when assigned: whether the slot had these sources among its recent ones


@dataclass
class _Slot:
    busy: bool = False
    recent: OrderedDict[Hashable, None] = field(default_factory=OrderedDict)
    last_used: int = 0


class Scheduler:
    """Assigns waiting requests to ``processes`` slots; see the module's docstring for the rules."""

    def __init__(self, processes: int, *, max_bypass: int = 4, recent_keys: int = RECENT_KEYS) -> None:
        self.slots = [_Slot() for _ in range(processes)]
        self.waiting: deque[Waiting] = deque()
        self.max_bypass = max_bypass
        self.recent_keys = recent_keys
        self.seen = 0  # dispatches to a slot that had the request's sources among its recent ones
        self.new = 0
        self._clock = 0

    def arrive(self, item: Waiting) -> int | None:
        """The slot to run ``item`` on now (marked busy), or ``None``: every slot is busy and it waits."""
        idle = [i for i, s in enumerate(self.slots) if not s.busy]
        if not idle:
            self.waiting.append(item)
            return None
        having = [i for i in idle if item.key is not None and item.key in self.slots[i].recent]
        # Without its sources anywhere idle: the slot idle longest, so the others keep what they indexed last.
        slot = having[0] if having else min(idle, key=lambda i: self.slots[i].last_used)
        self._assign(slot, item)
        return slot

    def release(self, slot: int) -> Waiting | None:
        """``slot`` has finished: the waiting request it runs next (it stays busy), or ``None`` (it idles)."""
        self.slots[slot].busy = False
        if not self.waiting:
            return None
        chosen = 0
        if self.waiting[0].bypassed < self.max_bypass:
            recent = self.slots[slot].recent
            chosen = next((i for i, w in enumerate(self.waiting) if w.key is not None and w.key in recent), 0)
        for i in range(chosen):  # every older request was passed over once more
            self.waiting[i].bypassed += 1
        item = self.waiting[chosen]
        del self.waiting[chosen]
        self._assign(slot, item)
        return item

    def remove(self, item: Waiting) -> None:
        """Forget a waiting request (its caller gave up)."""
        if item in self.waiting:  # identity: a Waiting equals only itself
            self.waiting.remove(item)

    def _assign(self, slot: int, item: Waiting) -> None:
        state = self.slots[slot]
        state.busy = True
        self._clock += 1
        state.last_used = self._clock
        if item.key is None:
            return
        item.seen = item.key in state.recent
        if item.seen:
            self.seen += 1
            state.recent.move_to_end(item.key)
        else:
            self.new += 1
            state.recent[item.key] = None
            while len(state.recent) > self.recent_keys:
                state.recent.popitem(last=False)
