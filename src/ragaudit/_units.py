"""Units as written after a figure: which unit starts at a token, and how many tokens it takes; and a claim's
figure given in another unit than its source's ("3 km" → "3 miles")."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ragaudit import _slot_data as lex
from ragaudit._slot_data import LEXICON, UNIT_WORDS
from ragaudit._text import Term, stem

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


# Units of measure after a number ("3 km" → "3 miles" is a unit change), each stem to its unit (so "5 ml"
# and "5 millilitres" agree): the slot reader's unit names, plus spans of time it reads otherwise.
_MEASURES = {stem(name): str(u["names"][0]) for u in LEXICON["units"] for name in u["names"] if name in UNIT_WORDS} | {
    stem(w): stem(w) for w in ("decade", "decades", "century", "degree", "degrees", "yen")
}


def _measures_after(terms: Sequence[Term], number: str) -> list[tuple[str, frozenset[str]]]:
    """The unit of measure right after each mention of ``number`` ("two 1.6 MVA transformers": "MVA" is the 1.6's, not
    the two's), with the words around that mention (what it measures)."""
    found = []
    for i, t in enumerate(terms):
        following = terms[i + 1 : i + 2]
        if t.key == number and following and following[0].kind == "word" and following[0].key in _MEASURES:
            before = [w.key for w in terms[max(0, i - 4 * _AROUND) : i] if w.kind == "word"][-_AROUND:]
            after = [w.key for w in terms[i + 2 : i + 2 + 4 * _AROUND] if w.kind == "word"][:_AROUND]
            found.append((_MEASURES[following[0].key], frozenset(before + after)))
    return found


_AROUND = 4
"""Words (not function words) either side of a number that tell what it measures."""


def unit_changed(claim_terms: Sequence[Term], unit_terms: list[Term], unit_numbers: Collection[str]) -> str | None:
    """The same number with a different unit of measure ("3 km" → "3 miles"). Where the source writes the number
    more than once, the mentions whose words are most like the claim's are compared ("six weeks after delivery … the
    second six months after the first": "the second falls six months after that" is the second's)."""
    for t in claim_terms:
        if t.kind != "num" or t.key not in unit_numbers:
            continue
        mine, theirs = _measures_after(claim_terms, t.key)[:1], _measures_after(unit_terms, t.key)
        if not (mine and theirs):
            continue
        best = max(len(mine[0][1] & around) for _, around in theirs)
        closest = [m for m, around in theirs if len(mine[0][1] & around) == best]
        different = [m for m in closest if m != mine[0][0]]
        if different:
            return f"{t.key[1:]} {mine[0][0]} where the source has {t.key[1:]} {different[0]}"
    return None
