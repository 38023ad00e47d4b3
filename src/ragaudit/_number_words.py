"""Figures written as digits or words, when a word that can be a figure is one ("once a week", not
"once granted"), and figures read together: a length of time from its parts, the bounds of a tolerance, and
a range's shared unit."""

from __future__ import annotations

import math
import re
from dataclasses import replace

from ragaudit import _slot_data as lex
from ragaudit._slot_data import Quantity

Token = tuple[str, str, int, int]
"""(kind, text, start, end) as :mod:`ragaudit.slots` tokenises."""

_TIMES_FOLLOWERS = frozenset({"per", "every", "each", "or", "in", "during", "within", "more", "again", "only"})


def number_value(token: str) -> float | None:
    """The value of a figure written in digits ("£1,250.50"), or None when it is not a finite number."""
    clean = token.lstrip("£$€").replace(",", "")
    try:
        value = float(clean)
    except ValueError:
        return None
    return value if math.isfinite(value) and len(clean) <= 20 else None


SIGNS = ("-", "\u2212")  # a hyphen-minus, a minus sign
_BEFORE_SIGN = frozenset(" \t\n(")
BELOW_ZERO_RE = re.compile(r"\s{1,3}below\s{1,3}(?:zero|freezing)\b", re.IGNORECASE)
"""A temperature's sign in words ("20 °C below zero")."""


def written_below_zero(text: str, start: int, tokens: list[Token], i: int) -> bool:
    """Whether the figure at ``start`` is written below zero: a sign attached to it after a space ("−20 °C", "at -4
    °F"), not a range's or a code's hyphen ("10-20", "2 -8 °C", "M-20") nor a change's ("fell by -5 °C")."""
    signed = start > 0 and text[start - 1] in SIGNS and (start == 1 or text[start - 2] in _BEFORE_SIGN)
    previous = tokens[i - 1] if i > 0 else None
    return signed and not (previous and (previous[0] == "num" or previous[1].lower() in ("by", "of")))


_SIGNED_AFTER = frozenset(
    [
        "between",
        "and",
        "to",
        "at",
        "from",
        "of",
        "is",
        "are",
        "was",
        "were",
        "around",
        "about",
        "or",
        "reach",
        "reaches",
        "reached",
    ]
)
"""Words after which 'minus' signs the figure ("between minus 10 and …"); elsewhere it subtracts ("the setpoint minus 2")."""


def minus_in_words(tokens: list[Token], i: int) -> bool:
    """Whether the figure at token ``i`` is signed by the word 'minus' ("between minus 10 and plus 40 degrees")."""
    return i > 0 and tokens[i - 1][1].lower() == "minus" and (i < 2 or tokens[i - 2][1].lower() in _SIGNED_AFTER)


def word_number(word: str) -> float | None:
    """The value of a number word ("twelve", "twenty-five", "half"), or None."""
    lower = word.lower()
    if lower in lex.WORD_NUMBERS:
        return float(lex.WORD_NUMBERS[lower])
    if "-" in lower:
        parts = lower.split("-")
        if all(p in lex.WORD_NUMBERS for p in parts) and len(parts) == 2:
            return float(lex.WORD_NUMBERS[parts[0]] + lex.WORD_NUMBERS[parts[1]])
    return None


def counts_times(tokens: list[Token], i: int) -> bool:
    """Whether "once" at ``i`` counts occasions ("once a week", "once every two years", "once or twice"), not
    a conjunction ("once granted", "once an award comes through") or an idiom ("at once")."""
    if i and tokens[i - 1][1].lower() in ("at", "for", "all"):
        return False
    following = tokens[i + 1][1].lower() if i + 1 < len(tokens) else ""
    if following in ("a", "an"):
        unit = tokens[i + 2][1].lower() if i + 2 < len(tokens) else ""
        unit = unit if unit in lex.UNITS else unit.rstrip("s")
        return unit in lex.UNITS and lex.UNITS[unit][0] == "time"
    return following in _TIMES_FOLLOWERS or following in lex.FREQUENCIES


_JOINER_RE = re.compile(r"[\s,]{0,3}(?:and\s{1,3})?")
_PLUS_MINUS_RE = re.compile(r"\s{0,3}(?:±|\+/-|\+-|plus or minus)\s{0,3}")


def join_durations(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """One length of time from its parts ("two hours, seven minutes and 45 seconds" is 2:07:45); the bounds
    of a tolerance too ("45% ± 2" states 43% and 47%)."""
    out: list[Quantity] = []
    for q in quantities:
        last = out[-1] if out else None
        if last is not None and last.raw and _PLUS_MINUS_RE.fullmatch(text, last.end, q.start):
            step = (
                q.value
                if q.dimension == last.dimension
                else q.raw * (1 if last.dimension == "temperature" else last.value / last.raw)
            )
            bound = text[last.start : q.end]
            out += [replace(last, value=last.value + k * step, raw=last.raw + k * q.raw, text=bound) for k in (-1, 1)]
        if (
            last is not None
            and last.dimension == q.dimension == "time"
            and last.raw
            and q.raw
            and last.value / last.raw > q.value / q.raw
            and _JOINER_RE.fullmatch(text, last.end, q.start)
        ):
            out[-1] = Quantity(
                last.value + q.value, last.raw, "time", last.approx, last.start, q.end, text[last.start : q.end]
            )
        else:
            out.append(q)
    return out


_RANGE_JOIN_RE = re.compile(r"\s{0,3}(?:to|-|–|and|or)\s{0,3}")


def share_range_units(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """A range's first figure takes the unit written after its second ("50 to 250 microsieverts", "1,350-1,500
    ppm"); a temperature's by its offset ("64–72 °F": both in °F)."""
    out = list(quantities)
    for k in range(len(out) - 2, -1, -1):
        low, high = out[k], out[k + 1]
        if (
            low.dimension is None
            and not low.label
            and high.dimension is not None
            and high.raw
            and _RANGE_JOIN_RE.fullmatch(text, low.end, high.start)
        ):
            if high.dimension != "temperature":
                value = low.raw * high.value / high.raw
            else:  # °C is the base; any other scale here is °F
                value = low.raw if math.isclose(high.value, high.raw) else (low.raw - 32) * 5 / 9
            out[k] = replace(low, value=value, dimension=high.dimension, text=text[low.start : high.end])
    return out


def period_of(tokens: list[Token], i: int, j: int, value: float) -> float | None:
    """The first year of a decade or century written at ``i`` ("1850s", "15th century", "fifteenth century")."""
    if j >= len(tokens):
        return None
    kind, raw, _, _ = tokens[i]
    nxt = tokens[j][1].lower()
    if kind == "num" and nxt == "s" and tokens[j][2] == tokens[i][3] and value.is_integer():
        return value if 1000 <= value <= 2100 and value % 10 == 0 else None
    ordinal = lex.ORDINALS.get(raw.lower()) if kind == "word" else None
    if kind == "num" and nxt in ("st", "nd", "rd", "th") and j + 1 < len(tokens):
        ordinal, nxt = int(value), tokens[j + 1][1].lower()
    if ordinal and 1 <= ordinal <= 21 and nxt in ("century", "centuries"):
        return float((ordinal - 1) * 100)
    return None


def near_number(tokens: list[Token], i: int) -> bool:
    """Whether a number stands right beside token ``i`` ("May 5", "5 May": the month, not the verb)."""
    return any(t[0] == "num" for t in tokens[max(0, i - 1) : i + 2])


_TIME_PREPOSITIONS = frozenset(
    {
        "within",
        "for",
        "in",
        "after",
        "before",
        "over",
        "by",
        "under",
        "than",
        "to",
        "at",
        "from",
        "until",
        "per",
        "every",
    }
)
"""Words that make the "an hour" after a measure a length of its own ("below 8 °C within an hour")."""
_RATE_REACH = 30
"""Characters from a measure to the "a year" that makes it a rate ("52,000 litres of whole milk a year")."""


def rate_of(text: str, quantities: list[Quantity], start: int) -> bool:
    """Whether "a"/"an" at ``start`` opens the period of a rate whose measure came just before it in its clause
    ("1,800 kg a year", "52,000 litres of milk a year"): the period is no length of time of its own."""
    last = quantities[-1] if quantities else None
    if last is None or last.dimension in (None, "time") or not 0 <= start - last.end <= _RATE_REACH:
        return False
    between = text[last.end : start]
    words = set(between.lower().split())
    return not (words & _TIME_PREPOSITIONS) and not any(c in ",;:.()" or c.isdigit() for c in between)
