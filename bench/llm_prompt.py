"""Benchmark: grader prompt size across the whole bank, and our own grading overhead.

Prompt tokens are estimated without a tokenizer download (none is reachable offline): one token
per CJK character and one per four other characters, which over-counts for modern BPE
vocabularies (they merge common Chinese words), so the figures are an upper-side estimate.
Each question is graded with a typical chat answer (the first 150 words of its English reference
answer, or the first 300 characters of the Chinese one) and, for the maximum, with the whole
reference answer as the candidate answer (a long, complete answer), in both languages. Overhead is the time our code spends around the model call:
building the messages, parsing and validating a reply, and computing the grade.

    .venv/bin/python bench/llm_prompt.py
"""

from __future__ import annotations

import json
import re
import statistics
import time

from bot.content.loader import load_bank
from bot.core.models import DIMENSIONS
from bot.grading.llm import LLMGrader, parse_output
from bot.grading.prompts import load_prompts


def tokens(text: str) -> int:
    cjk = len(re.findall(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]", text))
    return cjk + (len(text) - cjk + 3) // 4


def reply_for(question_ids: list[str]) -> str:
    return json.dumps(
        {
            "dimensions": {d: 80 for d in DIMENSIONS},
            "key_points": [{"id": k, "verdict": "hit", "evidence": "a short quote"} for k in question_ids],
            "mistakes": [],
            "feedback": "Clear and layered. Name the clipping threshold you used. Add the measured result.",
            "follow_up": "How did you pick the warmup length?",
            "follow_up_points": ["ties warmup to the optimizer's second-moment estimate", "names a length"],
            "follow_up_reference": "About 1-2% of steps; long enough for Adam's second moment to settle.",
        }
    )


def main() -> None:
    prompts = load_prompts()
    questions = load_bank().questions
    grader = LLMGrader(client=None, model="bench")  # type: ignore[arg-type]  # no calls are made
    sizes, full_sizes, static_shares, overhead_ms = [], [], [], []
    for q in questions:
        for lang in ("en", "zh"):
            full = q.reference_answer.get(lang)  # type: ignore[arg-type]
            typical = " ".join(full.split()[:150]) if lang == "en" else full[:300]
            t0 = time.perf_counter()
            messages = prompts.messages(q, typical, lang, "engineer")  # type: ignore[arg-type]
            out = parse_output(reply_for([k.id for k in q.rubric.key_points]))
            grader.to_grade(out, q, lang, None, 0)  # type: ignore[arg-type]
            overhead_ms.append((time.perf_counter() - t0) * 1000)
            total = sum(tokens(m["content"]) for m in messages)
            sizes.append(total)
            static_shares.append(tokens(messages[0]["content"]) / total)
            long_messages = prompts.messages(q, full, lang, "engineer")  # type: ignore[arg-type]
            full_sizes.append(sum(tokens(m["content"]) for m in long_messages))
    overhead_ms.sort()
    figures = {
        "questions": len(questions),
        "prompt_tokens_median": int(statistics.median(sizes)),
        "prompt_tokens_max": max(sizes),
        "prompt_tokens_full_answer_median": int(statistics.median(full_sizes)),
        "prompt_tokens_full_answer_max": max(full_sizes),
        "static_prefix_share_median": round(statistics.median(static_shares), 3),
        "overhead_median_ms": round(statistics.median(overhead_ms), 3),
        "overhead_p99_ms": round(overhead_ms[int(0.99 * (len(overhead_ms) - 1))], 3),
    }
    for k, v in figures.items():
        print(f"{k}: {v}")
    ok = figures["prompt_tokens_median"] < 1500 and figures["overhead_p99_ms"] < 5
    print(json.dumps({"bench": "llm_prompt", **figures, "target_prompt_tokens": 1500, "target_overhead_ms": 5,
                      "ok": ok}))  # fmt: skip


if __name__ == "__main__":
    main()
