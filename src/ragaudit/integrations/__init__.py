"""Plug-ins for other libraries, one module per library, each behind its own extra.

=====================================  ==============================  ===============================
module                                 what it gives                   install
=====================================  ==============================  ===============================
:mod:`ragaudit.integrations.langchain`   ``AuditGate`` Runnable, LangSmith-style evaluator   ``pip install 'ragaudit[langchain]'``
:mod:`ragaudit.integrations.llamaindex`  ``RagauditEvaluator`` (a ``BaseEvaluator``)        ``pip install 'ragaudit[llamaindex]'``
:mod:`ragaudit.integrations.otel`        ``gen_ai.evaluation.result`` span events           ``pip install 'ragaudit[otel]'``
=====================================  ==============================  ===============================

Importing a module whose extra is missing raises :class:`MissingExtraError`, whose message is the one
line to act on (the ``pip install`` command).
"""

from ragaudit.integrations._extras import MissingExtraError

__all__ = ["MissingExtraError"]
