"""Stage 8: render reports for people (terminal text, HTML evaluation report) and programs (views).

Each renderer loads on first use: terminal text needs rich (the ``cli`` extra), the HTML report
the evaluation stack, and the views only the report models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragaudit.render._html import render_html
    from ragaudit.render._text import render_text

__all__ = ["render_html", "render_text"]


def __getattr__(name: str) -> object:
    if name == "render_text":
        from ragaudit.render._text import render_text

        return render_text
    if name == "render_html":
        from ragaudit.render._html import render_html

        return render_html
    raise AttributeError(name)
