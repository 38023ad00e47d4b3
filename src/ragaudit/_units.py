"""Units as written after a figure: which unit starts at a token, and how many tokens it takes."""

from __future__ import annotations

from ragaudit import _slot_data as lex

_BYTE_RATES = {"kb/s": "kilobytes per second", "mb/s": "megabytes per second", "gb/s": "gigabytes per second"}


def unit_at(tokens: list[tuple[str, str, int, int]], j: int) -> tuple[str | None, int]:
    """The unit starting at token ``j`` (and how many tokens it takes)."""
    if j >= len(tokens):
        return None, 0
    first = tokens[j][1].lower()
    if first == "g" and tokens[j][1] == "G":
        return None, 0  # "5G", "4G": a network generation, never grams (written "g")
    if j + 2 < len(tokens) and tokens[j + 1][1] == "/":
        pair = f"{first}/{tokens[j + 2][1].lower()}"
        if tokens[j][1].endswith("B") and pair in _BYTE_RATES:
            return _BYTE_RATES[pair], 3  # "MB/s" is bytes, "Mb/s" bits
        if pair in lex.UNITS:
            return pair, 3
        if first in lex.UNITS and tokens[j + 2][0] == "word":
            return first, 3  # "7.8 t/ha": a rate per something; compare the numerator
    if first == "/" and j + 1 < len(tokens):
        per = tokens[j + 1][1].lower()
        if per in lex.UNITS and lex.UNITS[per][0] == "time":
            return f"/{per}", 2
    if j + 2 < len(tokens):
        three = f"{first} {tokens[j + 1][1].lower()} {tokens[j + 2][1].lower()}"
        if three in lex.UNITS:
            return three, 3  # "miles per hour"
    if j + 1 < len(tokens):
        two = f"{first} {tokens[j + 1][1].lower()}"
        if two in lex.UNITS:
            return two, 2
    if first == "°" and j + 1 < len(tokens):
        degree = f"°{tokens[j + 1][1][:1].lower()}"
        return (degree, 2) if degree in lex.UNITS else (None, 0)
    if first in ("pound", "pounds"):
        # "weighs about 2.2 pounds": a mass, where the nearest word before it of weight or price is of weight.
        told = next(
            (w for w in (t[1].lower() for t in reversed(tokens[max(0, j - 6) : j])) if w in _WEIGHING | _PAYING), ""
        )
        if told in _WEIGHING:
            return "lb", 1
    if first in lex.UNITS:
        return first, 1
    return None, 0


def fraction_of_unit(tokens: list[tuple[str, str, int, int]], j: int) -> bool:
    """Whether tokens from ``j`` read "of a unit" ("of an hour", "of a mile")."""
    if j >= len(tokens) or tokens[j][1].lower() != "of":
        return False
    article = j + 1 < len(tokens) and tokens[j + 1][1].lower() in ("a", "an")
    return unit_at(tokens, j + 1 + article)[0] is not None


_WEIGHING = frozenset(
    {"weigh", "weighs", "weighed", "weighing", "weight", "weights", "heavy", "heavier", "heaviest", "payload"}
)
_PAYING = frozenset({"cost", "costs", "costing", "price", "priced", "pay", "paid", "charge", "charged", "fee", "worth"})
