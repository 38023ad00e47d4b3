"""Plug-ins for other libraries, one module per library, each behind its own extra.

- :mod:`ragaudit.integrations.langchain`: ``AuditGate`` (a Runnable) and ``AuditEvaluator``
  (LangSmith-style runs); ``pip install 'ragaudit[langchain]'``.
- :mod:`ragaudit.integrations.llamaindex`: ``RagauditEvaluator`` (a ``BaseEvaluator``, for the retry
  query engines); ``pip install 'ragaudit[llamaindex]'``.
- :mod:`ragaudit.integrations.otel`: ``record_report``, GenAI evaluation and guardrail events on the
  current span; ``pip install 'ragaudit[otel]'``.

Importing a module whose library is missing raises :class:`ragaudit.MissingExtraError`, whose
message is the one line to act on (the ``pip install`` command).
"""
