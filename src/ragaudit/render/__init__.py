"""Stage 8: render reports for people (terminal text) and programs (views)."""

from ragaudit.render._text import render_text

__all__ = ["render_text"]
