"""Stage 8: render reports for people (terminal text) and programs (views)."""

from ragaudit.render._text import render_text

__all__ = ["render_text"]


def __getattr__(name: str) -> object:
    # The HTML renderer pulls in the evaluation stack; load it only when asked for.
    if name == "render_html":
        from ragaudit.render._html import render_html

        return render_html
    raise AttributeError(name)
