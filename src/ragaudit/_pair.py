"""What the verifier reads of one claim (:class:`PairResult`), and what the answer's claims before it established
(:class:`Earlier`): the typed data between :mod:`ragaudit.verify` and the offline judge."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ragaudit._slot_data import Quantity
from ragaudit._windows import Window
from ragaudit.matching import Mismatch

__all__ = ["Earlier", "PairResult"]


class Earlier(NamedTuple):
    """What the question and the answer's supported claims before this one established: figures, words, clock times,
    the names the question gives the asker's own things ("my large *Labrador*")."""

    figures: Sequence[Quantity]
    words: frozenset[str]
    times: frozenset[int]
    owned: frozenset[str] = frozenset()
    restatable: Sequence[Quantity] = ()
    """The figures of the supported claim just before, in the same sentence: a conversion may restate them."""


@dataclass(slots=True)
class PairResult:
    """The verifier's reading of one claim."""

    status: str
    probability: float
    """Probability that the claim is not supported."""
    signal: str
    """What decided: a detector (``number``, ``negation`` …), ``model``, or ``nothing checkable``."""
    detail: str
    windows: list[Window] = field(default_factory=list)
    """Best first."""
    mismatches: list[Mismatch] = field(default_factory=list)
    features: dict[str, float] = field(default_factory=dict)
    by_model: bool = False
    """The learned model flagged the claim, and a detector names what it found (a figure no source states)."""
