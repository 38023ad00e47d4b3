"""Numbers that name something rather than count it ("Schedule 2, 3 and 4", "9.2 Freezing must …"):
they are matched as written but never enter arithmetic (15 minutes is no rounding of clause 9.2 × 100)."""

from __future__ import annotations

from collections.abc import Sequence

from ragaudit._slot_data import LABELS, Quantity

_LIST_LINKS = frozenset({"and", "or", "to"})


def names_something(tokens: Sequence[tuple[str, str, int, int]], i: int, before: Sequence[Quantity]) -> bool:
    """Whether the number at token ``i`` follows a label word ("platform 2"), or continues a list of
    labelled numbers ("Schedule 2, 3 and 4"); ``before`` holds the text's quantities read so far."""
    if i == 0:
        return False
    if tokens[i - 1][1].lower() in LABELS:
        return True
    last = before[-1] if before and before[-1].label else None
    if last is None or tokens[i][2] - last.end > 5:
        return False
    linked = tokens[i - 1][1].lower() in _LIST_LINKS and i > 1 and tokens[i - 2][3] == last.end
    return tokens[i - 1][3] == last.end or linked


def numbers_clause(text: str, q: Quantity) -> bool:
    """Whether ``q`` numbers the clause it opens ("… by the Authority. 9.2 Freezing must …")."""
    before = text[max(0, q.start - 2) : q.start]
    return (
        q.dimension is None
        and "." in text[q.start : q.end]
        and (q.start == 0 or before.endswith("\n") or before == ". " or before.endswith("- "))
        and text[q.end : q.end + 1] == " "
        and text[q.end + 1 : q.end + 2].isupper()
    )
