"""Shipped JSON Schemas of the canonical report and its views.

Regenerate after changing a model: ``python -m ragaudit.schemas``.
"""
