"""A LangChain RAG chain gated by ragaudit: retrieve → prompt → model → audit the answer → gate.

Runs offline: the model is LangChain's own ``FakeListLLM`` (it replies from a list, in order) and the
retriever is a small in-memory keyword retriever over three documents. Swap in a real chat model and
vector store retriever and nothing else changes.

    pip install 'ragaudit[langchain]'
    python examples/langchain_gate.py
"""

from __future__ import annotations

from _lakeside import LAKESIDE, extra_or_exit

from ragaudit import Auditor

with extra_or_exit():
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.language_models import FakeListLLM
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import PromptTemplate
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import Runnable, RunnableLambda, RunnablePassthrough

    from ragaudit.integrations.langchain import AnswerRejected, AuditGate

DOCUMENTS = [Document(page_content=text) for text in LAKESIDE]

PROMPT = PromptTemplate.from_template(
    "Answer from the numbered context only, citing it like [1].\n\nContext:\n{context}\n\nQuestion: {question}\nAnswer:"
)


class KeywordRetriever(BaseRetriever):
    """The documents sharing the most words with the query (a stand-in for a vector store retriever)."""

    documents: list[Document]
    k: int = 2

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        words = set(query.lower().replace("?", "").split())
        ranked = sorted(self.documents, key=lambda d: -len(words & set(d.page_content.lower().split())))
        return ranked[: self.k]


def numbered(documents: list[Document]) -> str:
    """The context block of the prompt: ``[1] text`` per document, in retrieval order."""
    return "\n".join(f"[{i}] {d.page_content}" for i, d in enumerate(documents, start=1))


def build_chain(replies: list[str], gate: AuditGate) -> Runnable[dict[str, str], dict[str, object]]:
    """question → {question, context, answer, audit}, the answer gated by ``gate``."""
    llm = FakeListLLM(responses=replies)
    retriever = KeywordRetriever(documents=DOCUMENTS)
    generate = (
        RunnableLambda(lambda x: {"context": numbered(x["context"]), "question": x["question"]})
        | PROMPT
        | llm
        | StrOutputParser()
    )
    return (
        RunnablePassthrough.assign(context=RunnableLambda(lambda x: x["question"]) | retriever)
        | RunnablePassthrough.assign(answer=generate)
        | gate
    )


def main() -> None:
    """Gate a good and a bad answer three ways, then fall back from a rejected answer."""
    auditor = Auditor()
    question = {"question": "When did the Lakeside plant open, and how many people does it employ?"}
    good = "The Lakeside plant opened in 2012 [1]. It employs 1200 people [2]."
    bad = "The Lakeside plant opened in 2010 [1]. It employs 1200 people [2]."

    for on_fail in ("annotate", "block"):
        chain = build_chain([good, bad], AuditGate(auditor, on_fail=on_fail))
        # max_concurrency=1: FakeListLLM hands out its replies in call order.
        for result in chain.batch([question, question], config={"max_concurrency": 1}):
            decision = result["audit"].decision
            print(f"{on_fail:8} {decision.action:20} {result['answer']}")

    # on_fail="raise" + with_fallbacks: a rejected answer falls back to a safe reply.
    strict = build_chain([bad], AuditGate(auditor, on_fail="raise"))
    safe = RunnableLambda(lambda x: {**x, "answer": "Please check the plant's records; I could not verify this."})
    chain = strict.with_fallbacks([safe], exceptions_to_handle=(AnswerRejected,))
    print(f"{'raise':8} {'fallback':20} {chain.invoke(question)['answer']}")


if __name__ == "__main__":
    main()
