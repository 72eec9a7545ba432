"""Speaking insights: pace in the transcript's own unit, filler words, and the one-line tip."""

from __future__ import annotations

from bot.features.drill.speaking import analyse, count_fillers, render_insights


def test_english_pace_is_words_per_minute() -> None:
    text = " ".join(["gradient"] * 150)
    ins = analyse(text, 60.0)
    assert ins is not None and (ins.unit, ins.units, ins.rate, ins.pace) == ("wpm", 150, 150, "ok")
    out = render_insights(ins, "en")
    assert "150 words a minute" in out and "filler words: none" in out and "Tip" not in out


def test_chinese_pace_counts_characters_and_english_terms_inside() -> None:
    text = "我会先看梯度范数，再用 warmup 和 gradient clipping。"  # 11 characters + 3 English words
    ins = analyse(text, 6.0)
    assert ins is not None and (ins.unit, ins.units, ins.rate) == ("cpm", 14, 140)
    assert "每分钟 140 字" in render_insights(ins, "zh")


def test_unambiguous_fillers_always_count() -> None:
    counts = count_fillers("Um, so I would, uh, clip it. Uhm... erm, hmm. 嗯，我觉得呃")
    assert counts == {"um": 4, "uh": 1, "嗯": 2}


def test_ambiguous_fillers_count_only_before_a_pause() -> None:
    assert count_fillers("I'd like to clip the gradient, like, at one. Things like warmup.") == {"like": 1}
    assert count_fillers("You know, the loss spikes, you know. You know what a NaN is.") == {"you know": 1}
    assert count_fillers("那个模型就是不收敛。") == {}
    # a repeated word counts once: the first one is the hesitation, the second is meant
    assert count_fillers("那个，就是，loss 就是就是爆了，那个那个梯度") == {"那个": 2, "就是": 2}


def test_many_fillers_give_one_tip_before_pace() -> None:
    text = "Um, I, uh, clip the, like, gradient, you know, at one, um, and, uh, warm up " + "word " * 150
    ins = analyse(text, 30.0)  # fast as well, but the filler tip comes first
    assert ins is not None and ins.many_fillers and ins.pace == "fast"
    out = render_insights(ins, "en")
    assert out.count("Tip") == 1 and "pause in silence" in out and '"um" x2' in out
    zh = render_insights(ins, "zh")
    assert "建议" in zh and "填充词：6 个" in zh


def test_a_few_fillers_in_a_long_answer_are_not_flagged() -> None:
    ins = analyse("um " + "word " * 300 + "uh", 120.0)
    assert ins is not None and ins.filler_count == 2 and not ins.many_fillers
    assert "Tip" not in render_insights(ins, "en")


def test_slow_and_fast_tips_name_the_target_pace() -> None:
    slow = analyse("我 " * 50, 60.0)
    assert slow is not None and slow.pace == "slow"
    assert "每分钟 180-260 字" in render_insights(slow, "zh")
    fast = analyse("word " * 400, 120.0)
    assert fast is not None and fast.pace == "fast"
    assert "120-160 words a minute" in render_insights(fast, "en")


def test_short_or_empty_recordings() -> None:
    short = analyse("Clip at one.", 2.0)
    assert short is not None and short.rate is None and "pace" not in render_insights(short, "en")
    assert analyse("", 10.0) is None
    assert analyse("...", 10.0) is None
    assert analyse("words", 0.0) is None
