"""/jd and /stats say what they mean (issue #36, item 7), through the terminal chat with the real bank on a real
SQLite file: a job description that names many subtopics focuses on its strongest 3 to 6 and lists the rest as
also mentioned, nothing of the reading hidden behind a count; /stats counts the cards from real interviews once
each (a /review question linked to a bank question is one card, not two)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.features.jd.match import split_focus
from bot.kernel.i18n import t
from bot.kernel.models import Lang
from bot.platforms.console.chat import run_console
from tests.content.test_first_hour_text import settings_for
from tests.fakes import FakeClock, FakeGrader
from tests.shipped import shipped_bank

JD = """LLM Training Engineer
We train large models with FSDP, DeepSpeed ZeRO and tensor parallelism (data parallel, pipeline parallel).
You will: debug loss spikes and NaN loss, tune gradient clipping, warmup and the learning rate schedule,
run mixed precision (bf16, fp16 loss scaling), manage checkpoints, build the tokenizer (BPE),
data cleaning and deduplication pipelines, data mixture, RLHF with PPO and DPO, SFT and LoRA fine-tuning,
evaluation benchmarks, scaling laws, MoE load balancing, long context extension, Kubernetes and vLLM."""
FOCUS = ["parallelism", "mixed-precision", "lr-schedule"]  # 6, 4 and 2 of its phrases: the strongest three
MENTIONED = ["tokenizer", "rlhf", "sft", "evaluation", "loss-spikes", "nan-loss", "gradient-clipping", "data-cleaning",
             "deduplication", "data-mixture", "dpo", "lora", "scaling-laws", "moe-stability", "long-context"]  # fmt: skip


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    a = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=shipped_bank(), fuzz=False)
    yield a
    await a.close()


async def chat(app: App, tmp_path: Path, lang: Lang, *lines: str) -> list[tuple[str, str]]:
    await app.service.user_for("console", "local", lang)
    out = StringIO()
    await run_console(app.service, "local", StringIO("\n".join(lines) + "\n"), out, tmp_path)
    parts = re.split(r"^> (.*)$", out.getvalue(), flags=re.M)[1:]
    return list(zip(parts[::2], parts[1::2], strict=True))


def name(subtopic: str, lang: Lang) -> str:
    return t(lang, f"subtopic.{subtopic}")


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_job_description_focuses_on_its_strongest_subtopics_and_lists_the_rest(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    jd = '"""\n/jd ' + JD + '\n"""'
    turns = await chat(app, tmp_path, lang, *jd.split("\n"), "1", "/jd list", "/jd 1")
    reading, focus_set, listed, shown = (out for _, out in turns)
    header = t(lang, "jd.matched_header")
    focus_part, _, rest = reading.partition(t(lang, "jd.also_mentioned", subtopics="").rstrip())
    focus_lines = [line for line in focus_part[focus_part.index(header) :].splitlines()[1:] if line.startswith("- ")]
    assert [line[2:].split("：" if lang == "zh" else ":")[0] for line in focus_lines] == [name(s, lang) for s in FOCUS]
    also = rest.splitlines()[0]
    assert all(name(s, lang) in also for s in MENTIONED)  # every one named, none behind a count
    assert "Kubernetes" in reading and "vLLM" in reading
    assert "more" not in reading and "另外还有" not in reading and "…" not in reading
    for s in MENTIONED:
        assert name(s, lang) not in focus_set  # the focus is what /drill and /mock lean to
    user = await app.service.user_for("console", "local")
    (kept,) = await app.store.list_jds(user.id)
    assert kept.subtopics == FOCUS and kept.mentioned == MENTIONED
    more = "and 15 subtopics also mentioned, shown by /jd 1" if lang == "en" else "另提到 15 个方向：/jd 1 查看"
    assert more in listed
    assert all(name(s, lang) in shown for s in FOCUS + MENTIONED)  # /jd 1: the whole reading again


def test_the_focus_is_three_to_six_of_the_strongest() -> None:
    ranked = [f"s{i}" for i in range(10)]
    assert split_focus(ranked, dict(zip(ranked, [9, 8, 7, 6, 5, 4.5, 4.5, 1, 1, 1], strict=True))) == (
        ranked[:6], ranked[6:]  # six reach half the top score (4.5); the seventh ties but the cap is 6
    )  # fmt: skip
    assert split_focus(ranked, dict(zip(ranked, [9, 3, 2, 1, 1, 1, 1, 1, 1, 1], strict=True)))[0] == ranked[:3]
    assert split_focus(ranked[:2], {"s0": 5, "s1": 1}) == (ranked[:2], [])  # fewer than three: all of them
    assert split_focus(ranked) == (ranked[:6], ranked[6:])  # an LLM's reading, in its order


@pytest.mark.parametrize(
    ("lang", "says"), [("en", "cards: 2 (2 from your interviews)"), ("zh", "题组共 2 道（其中 2 道来自你的面试）")]
)
async def test_stats_counts_each_interview_card_once(app: App, tmp_path: Path, lang: Lang, says: str) -> None:
    turns = await chat(app, tmp_path, lang,
        "/review Acme | What causes loss spikes?", "2",  # offered bank questions: the first one is taken
        "/review Beta | How do you pick a learning rate warmup length?", "2",
        "/stats",
    )  # fmt: skip
    assert says in turns[-1][1]
