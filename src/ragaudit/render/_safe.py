"""User text made safe for a terminal: no Rich markup, no escape sequences, no control characters.

Answers, sources, ids, trace ids and file names come from callers (and, through prompt injection,
possibly from attackers). Rich reads ``[...]`` in printed strings as markup (``[/x]`` raises, ``[link=…]``
makes a clickable link) and a terminal obeys ANSI escapes, so every such string passes through here.
"""

from __future__ import annotations

from rich.markup import escape

# C0 controls (but tab and newline) become their visible Control Pictures (ESC → ␛), DEL → ␡, C1
# controls → U+FFFD: one character for one, so claim offsets into the answer stay valid.
_CONTROLS = {c: 0x2400 + c for c in range(0x20) if chr(c) not in "\t\n"}
_CONTROLS[0x7F] = 0x2421
_CONTROLS.update({c: 0xFFFD for c in range(0x80, 0xA0)})


def printable(text: str) -> str:
    """``text`` with every control character replaced by a visible one of the same length.

    >>> printable("red\\x1b[31m!")
    'red␛[31m!'
    """
    return text.translate(_CONTROLS)


def safe_markup(value: object) -> str:
    """``value`` as text to embed in a Rich markup string: printable, with ``[`` escaped.

    >>> safe_markup("[/x] id\\x07")
    '\\\\[/x] id␇'
    """
    return escape(printable(str(value)))
