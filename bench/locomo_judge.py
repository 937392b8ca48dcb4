"""The LLM judge of LoCoMo QA: a generous CORRECT/WRONG label per generated answer.

The protocol is the one of the published LoCoMo evaluations of mem0 (mem0ai/mem0,
evaluation/metrics/llm_judge.py, ACCURACY_PROMPT) and Nemori (nemori-ai/nemori,
evaluation/locomo/metrics/llm_judge.py, the same prompt): the judge sees the question, the gold
answer and the generated answer; an answer that touches the same topic as the gold answer, or
names the same date or period (even relatively or in another format), is CORRECT; it gives a
one-sentence reason, then the label as JSON under "label"; temperature 0. The wording below is
ours; the rules, the inputs and the output are theirs.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, field_validator

JUDGE_MAX_TOKENS = 200
JUDGE_SYSTEM = "You grade answers against a gold answer, generously, as instructed."
JUDGE_PROMPT = """\
Label a generated answer to a question as CORRECT or WRONG. You are given:
  (1) a question that one person asks about another person, from their earlier conversations,
  (2) the gold (ground truth) answer,
  (3) a generated answer.

The gold answer is usually short and names the thing asked about; for example, to "What did I
buy the last time I was in Hawaii?" the gold answer might be "A shell necklace". The generated
answer may be much longer. Grade generously: if it is about the same thing as the gold answer,
it is CORRECT.

For questions about time, the gold answer is a date, month, year or period. The generated
answer may be longer or use a relative time ("last Tuesday", "next month"). Grade generously:
if it refers to the same date or period as the gold answer, it is CORRECT, whatever the format
("May 7th" and "7 May" are the same date).

Question: {question}
Gold answer: {gold}
Generated answer: {generated}

Give a one-sentence reason first, then the label. Never give both labels. Answer with JSON:
{{"reasoning": "<one sentence>", "label": "CORRECT" or "WRONG"}}"""
_CITATION = re.compile(r"\s*\[\d+(?:\s*[,;]\s*\d+)*\]")


class JudgeVerdict(BaseModel):
    """The judge's reason, then its label."""

    reasoning: str = Field("", description="one sentence")
    label: str = Field(description="CORRECT or WRONG")

    @field_validator("label", mode="before")
    @classmethod
    def _label(cls, value: object) -> str:
        text = str(value or "").upper()
        if "CORRECT" in text and "WRONG" not in text:
            return "CORRECT"
        if "WRONG" in text and "CORRECT" not in text:
            return "WRONG"
        raise ValueError("label must be CORRECT or WRONG")


def without_citations(answer: str) -> str:
    """The answer as the judge reads it: citation markers like [1] or [2, 3] removed."""
    return _CITATION.sub("", answer).strip()


def judge_messages(question: str, gold: Any, generated: str) -> list[dict[str, str]]:
    """The judge's prompt for one answer."""
    text = JUDGE_PROMPT.format(
        question=question, gold=gold, generated=without_citations(generated) or "(no answer)"
    )
    return [{"role": "system", "content": JUDGE_SYSTEM}, {"role": "user", "content": text}]


def judge(client: Any, question: str, gold: Any, generated: str) -> tuple[bool, Any]:
    """Ask the judge model (an LLMClient); return (correct, usage)."""
    verdict, usage = client.complete(
        judge_messages(question, gold, generated), JudgeVerdict, max_tokens=JUDGE_MAX_TOKENS
    )
    return verdict.label == "CORRECT", usage
