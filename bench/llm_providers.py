"""Benchmark: repairs and fallbacks of the LLM grader per provider, through the provider matrix of local fakes.

Each provider's fake (tests/fake_providers.py: OpenAI strict, DeepSeek, DashScope, a reasoning model, Ollama,
vLLM, llama.cpp) runs on 127.0.0.1 and answers with replies that are right in meaning and imperfect in form
the way that provider's are. The real LLMGrader grades 12 answers to real bank questions through each, with
LLM__PROVIDER=auto and with the provider named, and the bench counts repairs (a second request after a reply
that could not be read) and fallbacks (no LLM grade: the user gets the offline estimate), the HTTP requests
(a refused output form costs one, once per process), the replies read leniently, and the gradings whose
verdicts and mistakes are the ones the model meant. For comparison it grades the same replies once more
with the exact reader the grader had before issue #32 item 8 (the schema checked as sent, only a leading
code fence tolerated). Targets: 0 repairs and 0 fallbacks for every provider.

    .venv/bin/python bench/llm_providers.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.report import final_line, verdict_of
from bot.grading.llm import LLMGrader
from bot.grading.llm_reply import Reply, ReplyError, parse_reply
from bot.shipped_bank import use_shipped_weights
from tests.provider_matrix import SETTINGS, Answer, answers, run

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)


def exact_reply(raw: str, schema: dict[str, Any]) -> Reply:
    """The reader before issue #32 item 8: a leading code fence stripped, the first JSON value, the schema as sent."""
    text = raw.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        data, _ = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as err:
        raise ReplyError(f"not valid JSON ({err.msg})") from None
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if error is not None:
        raise ReplyError(error.message[:200])
    return parse_reply(json.dumps(data), schema)


class ExactReader(LLMGrader):
    def _read(self, raw: str, schema: dict[str, Any]) -> Reply:
        return exact_reply(raw, schema)


async def matrix(items: list[Answer], exact: bool) -> list[dict[str, Any]]:
    kind = ExactReader if exact else LLMGrader
    return [(await run(f, setting, items, kind)).as_dict() for f, settings in SETTINGS.items() for setting in settings]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 answers (one per question) instead of 12")
    args = parser.parse_args(argv)
    items = answers()[::3] if args.quick else answers()
    rows = asyncio.run(matrix(items, exact=False))
    before = asyncio.run(matrix(items, exact=True))
    print(f"{len(items)} answers per provider and setting; repairs / fallbacks / requests / read leniently / "
          "meaning kept; then the exact reader of before on the same replies")  # fmt: skip
    for row, old in zip(rows, before, strict=True):
        print(f"  {row['fake']:<10} {row['setting']:<10} {row['format']:<14} repairs {row['repairs']:>2}  "
              f"fallbacks {row['fallbacks']:>2}  requests {row['requests']:>3}  lenient {row['lenient']:>2}  "
              f"meaning kept {row['meaning_kept']:>2}/{row['gradings']}   before: repairs {old['repairs']:>2}, "
              f"fallbacks {old['fallbacks']:>2}")  # fmt: skip
    per_provider: dict[str, dict[str, int]] = {}
    for row, old in zip(rows, before, strict=True):
        agg = per_provider.setdefault(row["fake"], {"gradings": 0, "repairs": 0, "fallbacks": 0, "meaning_kept": 0,
                                                    "repairs_before": 0, "fallbacks_before": 0})  # fmt: skip
        for key in ("gradings", "repairs", "fallbacks", "meaning_kept"):
            agg[key] += row[key]
        agg["repairs_before"] += old["repairs"]
        agg["fallbacks_before"] += old["fallbacks"]
    ok = all(a["repairs"] == 0 and a["fallbacks"] == 0 and a["meaning_kept"] == a["gradings"]
             for a in per_provider.values())  # fmt: skip
    targets = {"repairs": 0, "fallbacks": 0, "meaning_kept": "every grading"}
    line = final_line("llm_providers", {"providers": per_provider}, targets, verdict_of(ok), answers=len(items),
                      quick=args.quick)  # fmt: skip
    print(line)
    return json.loads(line)


if __name__ == "__main__":
    main()
