"""Calendar dates in the slot reader's token stream: "10 September 2025", "September 10", "the 3rd
of May", and every day of "between 1 and 25 October" or "2, 9 and 16 May"."""

from __future__ import annotations

from ragaudit import _slot_data as lex
from ragaudit._slot_data import Date, Slots


def read_date(tokens: list[tuple[str, str, int, int]], i: int, slots: Slots) -> None:
    """Add the date whose month is token ``i`` (with its day and year when written) and the other days
    of a range or list that names that month once."""
    month = lex.MONTHS[tokens[i][1].lower()]
    day: int | None = None
    year: int | None = None
    start, end = tokens[i][2], tokens[i][3]
    before = tokens[i - 1] if i > 0 else None
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if before and before[0] == "num" and before[1].isdecimal() and 1 <= int(before[1]) <= 31:
        day, start = int(before[1]), before[2]
    elif after and after[0] == "num" and after[1].isdecimal() and 1 <= int(after[1]) <= 31:
        day, end = int(after[1]), after[3]
        after = tokens[i + 2] if i + 2 < len(tokens) else None
    elif before and before[0] == "word" and before[1].lower() in lex.ORDINALS:
        day, start = lex.ORDINALS[before[1].lower()], before[2]
    nxt = after if after and after[0] == "num" else (tokens[i + 2] if i + 2 < len(tokens) else None)
    if nxt and nxt[0] == "num" and nxt[1].isdecimal() and len(nxt[1]) == 4 and 1500 <= int(nxt[1]) <= 2100:
        year, end = int(nxt[1]), nxt[3]
    slots.dates.append(Date(day, month, year, start, end, ""))
    if day is not None and before and start == before[2]:
        _read_earlier_days(tokens, i - 1, month, year, slots)


_DAY_LINKS = frozenset({"and", "to", "or", "until", "till", "through", "thru"})
_MAX_LISTED_DAYS = 6


def _day(token: tuple[str, str, int, int]) -> int | None:
    return int(token[1]) if token[0] == "num" and token[1].isdecimal() and 1 <= int(token[1]) <= 31 else None


def _read_earlier_days(
    tokens: list[tuple[str, str, int, int]], k: int, month: int, year: int | None, slots: Slots
) -> None:
    """The other days of a range or list that names its month once ("between 1 and 25 October",
    "1–25 October", "2, 9 and 16 May"): each is a date of that month."""
    for _ in range(_MAX_LISTED_DAYS):
        prev = k - 1
        if prev >= 0 and tokens[prev][0] == "word" and tokens[prev][1].lower() in _DAY_LINKS:
            prev -= 1
        elif prev >= 0 and tokens[k][2] - tokens[prev][3] > 3:  # only a dash or comma between two days
            return
        day = _day(tokens[prev]) if prev >= 0 else None
        if day is None:
            return
        slots.dates.append(Date(day, month, year, tokens[prev][2], tokens[prev][3], ""))
        k = prev
