"""A LlamaIndex query engine gated by ragaudit: a RetryQueryEngine re-asks until the audit passes.

Runs offline: the index embeds with LlamaIndex's ``MockEmbedding``; the model is ``ScriptedLLM``
below, a ``CustomLLM`` that replies from a list (LlamaIndex's own ``MockLLM`` only echoes the prompt,
so it cannot make the mistake this example is about). Swap in real models and nothing else changes.

    pip install 'ragaudit[llamaindex]'
    python examples/llamaindex_gate.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from _lakeside import LAKESIDE, extra_or_exit

from ragaudit import Auditor

with extra_or_exit():
    from llama_index.core import Document, Settings, VectorStoreIndex
    from llama_index.core.base.response.schema import Response
    from llama_index.core.bridge.pydantic import Field
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.llms import CompletionResponse, CompletionResponseGen, CustomLLM, LLMMetadata
    from llama_index.core.llms.callbacks import llm_completion_callback
    from llama_index.core.query_engine import RetryQueryEngine

    from ragaudit.integrations.llamaindex import RagauditEvaluator

DOCUMENTS = [Document(text=text) for text in LAKESIDE[:2]]  # the plant's two facts
QUESTION = "When did the Lakeside plant open?"


class ScriptedLLM(CustomLLM):
    """Replies from ``replies`` in order (the last one repeats) and keeps every prompt it was sent."""

    replies: list[str]
    prompts: list[str] = Field(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="scripted")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        return CompletionResponse(text=self.replies[min(len(self.prompts), len(self.replies)) - 1])

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        response = self.complete(prompt, formatted=formatted)
        yield CompletionResponse(text=response.text, delta=response.text)


def build_engine(
    replies: Sequence[str], auditor: Auditor, *, max_retries: int = 2
) -> tuple[RetryQueryEngine, ScriptedLLM]:
    """A vector index over DOCUMENTS, queried by a ScriptedLLM, retried until ragaudit passes it."""
    llm = ScriptedLLM(replies=list(replies))
    # LlamaIndex's global defaults; RetryQueryEngine's feedback step reads Settings.llm.
    Settings.llm = llm
    Settings.embed_model = MockEmbedding(embed_dim=8)
    index = VectorStoreIndex.from_documents(DOCUMENTS)
    engine = index.as_query_engine(similarity_top_k=len(DOCUMENTS))
    return RetryQueryEngine(engine, RagauditEvaluator(auditor), max_retries=max_retries), llm


def main() -> None:
    """The model first answers 2010 (the sources say 2012); the audit fails it and the engine retries."""
    auditor = Auditor()
    engine, llm = build_engine(["The Lakeside plant opened in 2010.", "The Lakeside plant opened in 2012."], auditor)
    response = engine.query(QUESTION)
    assert isinstance(response, Response)
    final = RagauditEvaluator(auditor).evaluate_response(QUESTION, response)
    print(f"model calls: {len(llm.prompts)}")
    print(f"answer: {response.response}")
    print(f"passing: {final.passing}  score: {final.score}")


if __name__ == "__main__":
    main()
