"""The shipped question bank loads and validates; the checker reports bad files clearly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.content.loader import DEFAULT_CONTENT_DIR, load_bank
from tests.bot_env import bot_env

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = DEFAULT_CONTENT_DIR / "stability" / "stab-nan-debug-001.yaml"


def test_every_shipped_question_is_valid() -> None:
    result = load_bank()
    assert result.problems == []
    assert len(result.questions) >= 10
    assert {q.topic for q in result.questions} == {"stability", "pipeline"}


def write(root: Path, topic: str, qid: str, data: dict[str, object]) -> None:
    (root / topic).mkdir(parents=True, exist_ok=True)
    (root / topic / f"{qid}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_checker_names_file_field_and_problem(tmp_path: Path) -> None:
    good = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    write(tmp_path, "stability", good["id"], good)
    missing_zh = {**good, "id": "stab-bad-001", "prompt": {"en": "Only English here?"}}
    write(tmp_path, "stability", "stab-bad-001", missing_zh)
    few = {**good, "id": "stab-bad-002", "prompt": {"zh": "完全不同的问题：什么是 RMSNorm？", "en": "What is RMSNorm?"}}
    few["rubric"] = {**good["rubric"], "key_points": good["rubric"]["key_points"][:2]}
    write(tmp_path, "stability", "stab-bad-002", few)
    weight = {
        **good,
        "id": "stab-bad-003",
        "prompt": {"zh": "Adam 的 epsilon 有什么作用？", "en": "What does Adam's epsilon do?"},
    }
    weight["rubric"] = {**good["rubric"], "key_points": [{**k, "weight": 0} for k in good["rubric"]["key_points"]]}
    write(tmp_path, "stability", "stab-bad-003", weight)
    write(tmp_path, "pipeline", "dup", {**good})  # duplicate id, wrong topic folder and file name
    (tmp_path / "pipeline" / "broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    near = {**good, "id": "stab-near-001", "prompt": {**good["prompt"], "en": good["prompt"]["en"] + " "}}
    write(tmp_path, "stability", "stab-near-001", near)

    result = load_bank(tmp_path)
    text = "\n".join(result.problems)
    assert "stab-bad-001.yaml: prompt.zh: Field required" in text
    assert "stab-bad-002.yaml" in text and "4-8 key points" in text
    assert "stab-bad-003.yaml: rubric.key_points.0.weight" in text
    assert "broken.yaml: (file): not valid YAML" in text
    assert "dup.yaml: id:" in text
    assert "stab-near-001.yaml: prompt: near-duplicate" in text

    cli = subprocess.run([sys.executable, "-m", "bot", "content", "check", "--path", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, env=bot_env())  # fmt: skip
    assert cli.returncode == 1 and "stab-bad-001.yaml" in cli.stdout


def test_a_yaml_file_outside_a_topic_folder_is_a_problem_not_skipped(tmp_path: Path) -> None:
    good = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    write(tmp_path, "stability", good["id"], good)
    (tmp_path / "stab-top-001.yaml").write_text("id: top\n", encoding="utf-8")
    (tmp_path / "stability" / "extra").mkdir()
    (tmp_path / "stability" / "extra" / "stab-deep-001.yml").write_text("id: deep\n", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.yaml").write_text("x: 1\n", encoding="utf-8")  # hidden: not the bank's
    result = load_bank(tmp_path)
    assert [q.id for q in result.questions] == [good["id"]]
    assert [p.split(": ")[0] for p in result.problems] == [
        str(tmp_path / "stab-top-001.yaml"),
        str(tmp_path / "stability" / "extra" / "stab-deep-001.yml"),
    ]
    assert all("not loaded: a question file goes in a <topic>/ folder" in p for p in result.problems)


@pytest.mark.parametrize("kind", ["missing", "empty"])
def test_check_cli_refuses_a_missing_or_empty_bank(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "bank"
    if kind == "empty":
        (folder / "stability").mkdir(parents=True)
    cli = subprocess.run([sys.executable, "-m", "bot", "content", "check", "--path", str(folder)],
                         capture_output=True, text=True, cwd=ROOT, env=bot_env())  # fmt: skip
    assert cli.returncode == 2 and "OK" not in cli.stdout
    assert ("no such folder" if kind == "missing" else "no question files") in cli.stderr


def test_check_cli_passes_on_the_shipped_bank() -> None:
    cli = subprocess.run(
        [sys.executable, "-m", "bot", "content", "check"], capture_output=True, text=True, cwd=ROOT, env=bot_env()
    )
    assert cli.returncode == 0, cli.stdout
    assert "questions OK (" in cli.stdout and "with a verified: record)" in cli.stdout
    stats = subprocess.run(
        [sys.executable, "-m", "bot", "content", "stats"], capture_output=True, text=True, cwd=ROOT, env=bot_env()
    )
    assert "by subtopic:" in stats.stdout and "by difficulty:" in stats.stdout


def test_check_cli_reports_counts_by_topic_type_and_level(tmp_path: Path) -> None:
    good = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    write(tmp_path, "stability", good["id"], good)  # stability, fault, engineer
    compare = {
        **good,
        "id": "stab-cmp-001",
        "type": "compare",
        "level": "campus",
        "prompt": {"zh": "RMSNorm 和 LayerNorm 有什么区别？", "en": "How do RMSNorm and LayerNorm differ?"},
    }
    write(tmp_path, "stability", "stab-cmp-001", compare)
    concept = {
        **good,
        "id": "pipe-con-001",
        "topic": "pipeline",
        "type": "concept",
        "level": "campus",
        "prompt": {"zh": "什么是 BPE 分词？", "en": "What is byte-pair encoding?"},
    }
    write(tmp_path, "pipeline", "pipe-con-001", concept)
    cli = subprocess.run([sys.executable, "-m", "bot", "content", "check", "--path", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, env=bot_env())  # fmt: skip
    assert cli.returncode == 0, cli.stdout
    assert cli.stdout.splitlines()[-4:] == [
        "3 questions OK (3 with a verified: record)",
        "by topic: pipeline 1, stability 2",
        "by type: compare 1, concept 1, fault 1",
        "by level: campus 2, engineer 1",
    ]


def test_check_cli_counts_add_up_over_the_shipped_bank() -> None:
    cli = subprocess.run(
        [sys.executable, "-m", "bot", "content", "check"], capture_output=True, text=True, cwd=ROOT, env=bot_env()
    )
    n = len(load_bank().questions)
    lines = {
        line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in cli.stdout.splitlines() if line.startswith("by ")
    }
    assert sorted(lines) == ["by level", "by topic", "by type"]
    for counts in lines.values():
        assert sum(int(part.rsplit(" ", 1)[1]) for part in counts.split(", ")) == n
    assert {part.rsplit(" ", 1)[0] for part in lines["by level"].split(", ")} == {"campus", "engineer", "researcher"}


def test_bank_size_and_mix_meet_the_content_bar() -> None:
    from collections import Counter

    questions = load_bank().questions
    topics = Counter(q.topic for q in questions)
    assert topics["stability"] >= 60 and topics["pipeline"] >= 60
    types = Counter(q.type for q in questions)
    n = len(questions)
    assert types["fault"] >= 0.20 * n and types["compare"] >= 0.15 * n and types["case"] >= 0.10 * n
    assert {q.level for q in questions} == {"campus", "engineer", "researcher"}
    assert {q.difficulty for q in questions} == {1, 2, 3, 4, 5}
    for q in questions:
        assert 1 <= len(q.follow_ups) <= 3 and q.sources
        for lang in ("en", "zh"):
            assert len(q.reference_answer.get(lang)) > 200, (q.id, lang)


def test_every_bank_subtopic_has_a_display_name_in_both_languages() -> None:
    from bot.kernel.i18n import MESSAGES
    from bot.kernel.render import subtopic_name

    acronyms = {"dpo", "grpo", "lora", "rlhf"}  # their names are the acronyms in both languages
    for q in load_bank().questions:
        assert f"subtopic.{q.subtopic}" in MESSAGES, q.subtopic
        en, zh = subtopic_name(q.subtopic, "en"), subtopic_name(q.subtopic, "zh")
        assert en != q.subtopic and zh != q.subtopic, q.subtopic  # never the raw id
        assert q.subtopic in acronyms or any("\u4e00" <= ch <= "\u9fff" for ch in zh), q.subtopic


def test_no_chinese_reference_answer_has_a_space_after_chinese_punctuation() -> None:
    """A folded YAML line break becomes a space: "从零开始， 经过" (issue #18). Spaces between Chinese and
    Latin text are fine ("恢复后 Adam"); a follow-up's reference may space out a formula ("卡数 保持不变")."""
    import re

    after_punctuation = re.compile(r"[。，、；：？！][ \t]")
    between_han = re.compile(r"[\u4e00-\u9fff][ \t]+[\u4e00-\u9fff]")
    offenders = []
    for q in load_bank().questions:
        if after_punctuation.search(q.reference_answer.zh) or between_han.search(q.reference_answer.zh):
            offenders.append(q.id)
        for f in q.follow_ups:
            if f.reference_answer is not None and after_punctuation.search(f.reference_answer.zh):
                offenders.append(f"{q.id} follow-up")
    assert offenders == []
    assert after_punctuation.search("从零开始， 经过") and between_han.search("训练 好的")  # controls


def test_prompts_load_and_a_wrong_placeholder_is_refused(tmp_path: Path) -> None:
    import shutil

    import pytest

    from bot.grading.prompts import PROMPTS_DIR, PromptError, load_prompts

    assert load_prompts().version  # the shipped prompts pass the check
    broken = tmp_path / "prompts"
    shutil.copytree(PROMPTS_DIR, broken)
    question = broken / "question.txt"
    question.write_text(question.read_text(encoding="utf-8").replace("{mistakes}", "{mistake}"), encoding="utf-8")
    with pytest.raises(PromptError, match=r"unknown placeholder\(s\) \['mistake'\], missing \['mistakes'\]"):
        load_prompts(broken)
    (broken / "question.txt").unlink()
    with pytest.raises(PromptError, match=r"question\.txt: cannot be read"):
        load_prompts(broken)


def test_a_follow_up_may_carry_its_own_rubric_and_its_answer_is_graded_against_it(tmp_path: Path) -> None:
    from bot.content.loader import load_file
    from bot.kernel.follow_ups import follow_up_question

    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["follow_ups"][0] = {
        "zh": "你说梯度裁剪到 1.0，这个阈值是怎么定的？",
        "en": "You clipped at 1.0: how did you choose that threshold?",
        "key_points": [
            {"id": "fu-hist", "weight": 2, "text": {"zh": "看健康阶段梯度范数的分布", "en": "look at the gradient-norm distribution of a healthy run"},
             "keywords": {"zh": ["梯度范数分布"], "en": ["gradient-norm distribution"]}},
            {"id": "fu-rate", "weight": 1, "text": {"zh": "裁剪只应偶尔触发", "en": "clipping should fire only occasionally"},
             "keywords": {"zh": ["偶尔触发"], "en": ["only occasionally"]}},
        ],
        "reference_answer": {"zh": "看健康阶段的梯度范数分布，让裁剪只偶尔触发。", "en": "From the gradient-norm distribution of a healthy run, so that clipping fires only occasionally."},
    }  # fmt: skip
    data["follow_ups"][1] = {"zh": data["follow_ups"][1]["zh"], "en": data["follow_ups"][1]["en"]}  # no rubric
    write(tmp_path, "stability", "stab-nan-debug-001", data)
    q, problems = load_file(tmp_path / "stability" / "stab-nan-debug-001.yaml")
    assert q is not None and problems == []
    fq = follow_up_question(q, None, q.follow_ups[0].en)
    assert [k.id for k in fq.rubric.key_points] == ["fu-hist", "fu-rate"] and fq.prompt.zh == q.follow_ups[0].zh
    assert fq.reference_answer == q.follow_ups[0].reference_answer
    other = follow_up_question(q, None, q.follow_ups[1].en)  # no rubric of its own: the parent's
    assert other.rubric == q.rubric
    data["follow_ups"][0]["key_points"] = data["follow_ups"][0]["key_points"][:1]
    write(tmp_path, "stability", "stab-nan-debug-001", data)
    assert any("2-4 key points" in p for p in load_file(tmp_path / "stability" / "stab-nan-debug-001.yaml")[1])


def test_every_bank_follow_up_has_its_own_rubric() -> None:
    for q in load_bank().questions:
        for f in q.follow_ups:
            assert 2 <= len(f.key_points) <= 4 and f.reference_answer is not None, (q.id, f.en)
