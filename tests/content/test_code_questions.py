"""Code questions (issue #35): the schema of a `type: code` file, and every reference implementation in the bank
extracted and run against small checks (shapes, a known value from PyTorch's own function, gradient flow), so no
reference is wrong. Each check is shown to fail on the classic bug it guards against (the fix questions' own buggy
code, and a mutation of each reference), so a check that passes everything cannot hide here.

The reference code runs here only, in the tests (torch is a dev dependency); the bot never runs code."""

from __future__ import annotations

import copy
import importlib
import math
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from bot.content.loader import DEFAULT_CONTENT_DIR
from bot.content.schema import QuestionFile
from bot.kernel.fences import code_blocks
from bot.kernel.models import Question
from tests.shipped import shipped_questions


class _ImportedOnUse:
    """A module imported at its first attribute: torch takes about 4 s to import, paid by the tests that run the
    reference code rather than by every collection of the suite (`pytest --collect-only`, `-k`, a single file)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):  # what pytest's collection asks of every module-level name: not torch's
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._name), attr)


torch: Any = _ImportedOnUse("torch")
F: Any = _ImportedOnUse("torch.nn.functional")
nn: Any = _ImportedOnUse("torch.nn")

EXAMPLE = DEFAULT_CONTENT_DIR / "stability" / "stab-nan-debug-001.yaml"
SOFTMAX = "import torch\n\n\ndef softmax(x):\n    z = x - x.amax(dim=-1, keepdim=True)\n    e = z.exp()\n    return e / e.sum(dim=-1, keepdim=True)"
BUGGY = "import torch\n\n\ndef softmax(x):\n    e = x.exp()\n    return e / e.sum(dim=-1, keepdim=True)"


def code_file(task: str = "write", reference: str = SOFTMAX, prompt_code: str | None = None) -> dict[str, Any]:
    """The worked example turned into a code question (its rubric kept: the schema checks the code parts)."""
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["type"] = "code"
    data["code"] = {"task": task, "entry": "softmax"}
    for lang, lead in (("en", "The stable version:"), ("zh", "稳定的写法：")):
        data["reference_answer"][lang] = f"{lead}\n\n```python\n{reference}\n```\n"
        if prompt_code is not None:
            data["prompt"][lang] += f"\n\n```python\n{prompt_code}\n```"
    return data


def refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        QuestionFile.model_validate(data)


def test_a_code_question_loads_and_keeps_its_task() -> None:
    q = QuestionFile.model_validate(code_file()).to_question()
    assert q.type == "code" and q.code is not None and (q.code.task, q.code.entry) == ("write", "softmax")
    fix = QuestionFile.model_validate(code_file("fix", prompt_code=BUGGY)).to_question()
    assert fix.code is not None and fix.code.task == "fix"


def test_the_type_and_the_task_go_together() -> None:
    no_task = code_file()
    del no_task["code"]
    refused(no_task, "needs `code: {task, entry}`")
    not_code = {**code_file(), "type": "concept"}
    refused(not_code, "needs `code: {task, entry}`, and only such a question")


def test_the_reference_holds_one_parsed_block_the_same_in_both_languages_defining_the_entry() -> None:
    two = code_file()
    two["reference_answer"]["en"] += "\n```python\nx = 1\n```"
    refused(two, r"reference_answer\.en: a code question needs exactly one ```python block, has 2")
    none = code_file()
    none["reference_answer"]["zh"] = "没有代码。" * 40
    refused(none, r"reference_answer\.zh: .* has 0")
    differ = code_file()
    differ["reference_answer"]["zh"] = differ["reference_answer"]["zh"].replace("amax", "max")
    refused(differ, "differs between zh and en")
    refused(code_file(reference=SOFTMAX.replace("(x):", "(x)")), "does not parse: line 4")
    refused(code_file(reference=SOFTMAX.replace("def softmax", "def soft_max")), "defines no top-level 'softmax'")


def test_a_fix_question_shows_code_that_is_not_the_answer() -> None:
    refused(code_file("fix"), r"prompt\.zh: a code question needs exactly one ```python block, has 0")
    refused(code_file("fix", prompt_code=SOFTMAX), "a fix question's code is the reference implementation itself")
    data = copy.deepcopy(code_file("fix", prompt_code=BUGGY))
    data["code"]["entry"] = "bad name"
    refused(data, "entry")


# --- the bank's reference implementations, run ---------------------------------------------------------


@cache
def code_questions() -> dict[str, Question]:
    return {q.id: q for q in shipped_questions() if q.type == "code"}


def reference_code(q: Question) -> str:
    """The reference implementation: the one ```python block of the reference answer (the same in zh and en)."""
    (en,), (zh,) = code_blocks(q.reference_answer.en, "python"), code_blocks(q.reference_answer.zh, "python")
    assert en == zh, q.id
    return en


def run(code: str, name: str) -> dict[str, Any]:
    """The names `code` defines, as a module would (tests only: the bot never executes bank code)."""
    namespace: dict[str, Any] = {"__name__": name}
    exec(compile(code, name, "exec"), namespace)
    return namespace


def close(a, b, tol=1e-5):
    assert a.shape == b.shape, (a.shape, b.shape)
    assert torch.allclose(a, b, atol=tol, rtol=tol), (a - b).abs().max().item()


def check_causal_attention(ns):
    attn = ns["causal_attention"]
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 3, 5, 8, generator=g, requires_grad=True) for _ in range(3))
    out = attn(q, k, v)
    close(out, F.scaled_dot_product_attention(q, k, v, is_causal=True))
    out.sum().backward()
    assert q.grad is not None and k.grad is not None and v.grad is not None
    assert torch.isfinite(q.grad).all() and q.grad.abs().sum() > 0
    close(out[..., 0, :], v[..., 0, :])  # the first query sees only the first key
    # a KV cache: 2 new queries against 5 keys, aligned bottom-right
    q2 = q[..., -2:, :].detach()
    mask = torch.ones(2, 5, dtype=torch.bool).tril(5 - 2)
    close(attn(q2, k.detach(), v.detach()), F.scaled_dot_product_attention(q2, k.detach(), v.detach(), attn_mask=mask))
    # numerically stable: logits of 1e4 give no NaN
    big = torch.randn(1, 1, 4, 8, generator=g) * 1e3
    res = attn(big, big, big)
    assert torch.isfinite(res).all()
    close(res, F.scaled_dot_product_attention(big, big, big, is_causal=True), tol=1e-3)


def check_cross_entropy(ns):
    ce = ns["cross_entropy"]
    g = torch.Generator().manual_seed(1)
    logits = torch.randn(4, 4, generator=g, requires_grad=True)  # N == C: a broadcasting bug is silent here
    target = torch.tensor([0, 3, 1, 1])
    loss = ce(logits, target)
    close(loss, F.cross_entropy(logits, target))
    loss.backward()
    close(logits.grad, torch.autograd.grad(F.cross_entropy(logits, target), logits)[0])
    huge = torch.tensor([[1000.0, 0.0, -5.0]])
    close(ce(huge, torch.tensor([0])), torch.tensor(0.0))  # exp(1000) overflows in FP32
    close(ce(torch.tensor([[0.0, -200.0]]), torch.tensor([1])), torch.tensor(200.0), tol=1e-4)  # p = e^-200 underflows


def check_rmsnorm(ns):
    norm = ns["RMSNorm"](16, eps=1e-6)
    ref = nn.RMSNorm(16, eps=1e-6)
    g = torch.Generator().manual_seed(2)
    x = torch.randn(2, 3, 16, generator=g) * 3 + 1  # a non-zero mean: LayerNorm would differ
    with torch.no_grad():
        w = torch.rand(16, generator=g) + 0.5
        norm.weight.copy_(w)
        ref.weight.copy_(w)
    close(norm(x), ref(x))
    fresh = ns["RMSNorm"](16)
    assert torch.equal(fresh.weight.detach(), torch.ones(16)) and sum(p.numel() for p in fresh.parameters()) == 16
    xb = x.to(torch.bfloat16)
    out = copy.deepcopy(norm).to(torch.bfloat16)(xb)  # a BF16 model: the statistic in FP32, the output BF16
    assert out.dtype == torch.bfloat16
    close(out.float(), ref(xb.float()), tol=3e-2)
    x.requires_grad_(True)
    norm(x).pow(2).sum().backward()
    assert norm.weight.grad is not None and torch.isfinite(x.grad).all()
    zero = ns["RMSNorm"](16)(torch.zeros(1, 16))
    assert torch.isfinite(zero).all()


def check_rope(ns):
    rope = ns["apply_rope"]
    g = torch.Generator().manual_seed(3)
    d, T = 8, 6
    x = torch.randn(2, 3, T, d, generator=g)
    pos = torch.arange(T)
    out = rope(x, pos)
    assert out.shape == x.shape
    # the rotation as complex numbers: pair i = (x_i, x_{i+d/2}) times e^{i m theta_i}
    theta = 10000.0 ** (-torch.arange(0, d, 2).float() / d)
    z = torch.complex(x[..., : d // 2], x[..., d // 2 :]) * torch.polar(torch.ones(T, d // 2), pos[:, None] * theta)
    close(out, torch.cat([z.real, z.imag], dim=-1))
    close(rope(x, torch.zeros(T, dtype=torch.long)), x)  # position 0: unchanged
    close(out.norm(dim=-1), x.norm(dim=-1))  # a rotation keeps the norm
    # q.k depends only on the distance: positions (5, 2) and (13, 10)
    q, k = torch.randn(1, 1, 1, d, generator=g), torch.randn(1, 1, 1, d, generator=g)
    s1 = (rope(q, torch.tensor([5])) * rope(k, torch.tensor([2]))).sum()
    s2 = (rope(q, torch.tensor([13])) * rope(k, torch.tensor([10]))).sum()
    close(s1, s2, tol=1e-4)
    xg = x.clone().requires_grad_(True)
    rope(xg, pos).sum().backward()
    assert torch.isfinite(xg.grad).all()


def check_lora(ns):
    torch.manual_seed(4)
    base = nn.Linear(12, 6)
    layer = ns["LoRALinear"](base, r=4, alpha=8)
    x = torch.randn(3, 5, 12)
    close(layer(x), base(x))  # B = 0: the layer starts as the base model
    trainable = {n for n, p in layer.named_parameters() if p.requires_grad}
    assert trainable == {"lora_A", "lora_B"}, trainable
    assert layer.scaling == 2.0
    assert layer.lora_A.abs().sum() > 0
    layer(x).pow(2).sum().backward()
    assert base.weight.grad is None
    assert layer.lora_B.grad is not None and layer.lora_B.grad.abs().sum() > 0
    assert layer.lora_A.grad is None or layer.lora_A.grad.abs().sum() == 0  # A's gradient goes through B = 0
    with torch.no_grad():
        layer.lora_B.normal_()
    merged = base.weight + layer.scaling * layer.lora_B @ layer.lora_A
    close(layer(x), F.linear(x, merged, base.bias), tol=1e-4)


def check_causal_lm_loss(ns):
    loss_fn = ns["causal_lm_loss"]
    g = torch.Generator().manual_seed(5)
    B, T, V = 2, 6, 7
    logits = torch.randn(B, T, V, generator=g, requires_grad=True)
    labels = torch.randint(0, V, (B, T), generator=g)
    labels[0, :3] = -100  # a prompt
    labels[1, 4:] = -100  # padding
    loss = loss_fn(logits, labels)
    # by hand: position t scores label t + 1, mean over the 3 + 3 kept tokens
    logp = logits.detach().log_softmax(-1)
    kept = [(b, t) for b in range(B) for t in range(T - 1) if labels[b, t + 1] != -100]
    assert len(kept) == 6
    expected = -sum(logp[b, t, labels[b, t + 1]] for b, t in kept) / len(kept)
    close(loss, expected)
    loss.backward()
    assert logits.grad[:, -1].abs().sum() == 0  # the last position predicts nothing
    assert logits.grad[0, :2].abs().sum() == 0  # positions whose next token is prompt
    assert logits.grad[1, 3:].abs().sum() == 0  # ... or padding
    assert logits.grad[1, 0].abs().sum() > 0


def check_dpo(ns):
    dpo, seq = ns["dpo_loss"], ns["sequence_logps"]
    pc = torch.tensor([-10.0, -20.0], requires_grad=True)
    pr = torch.tensor([-12.0, -15.0], requires_grad=True)
    rc, rr = torch.tensor([-11.0, -19.0]), torch.tensor([-11.0, -16.0])
    loss, chosen_reward, rejected_reward = dpo(pc, pr, rc, rr, beta=0.1)
    margins = 0.1 * ((pc - rc) - (pr - rr)).detach()  # 0.2 and -0.2
    close(loss, -torch.log(torch.sigmoid(margins)).mean())
    close(chosen_reward, 0.1 * (pc - rc).detach())
    close(rejected_reward, 0.1 * (pr - rr).detach())
    loss.backward()
    assert (pc.grad < 0).all() and (pr.grad > 0).all()  # descent raises chosen, lowers rejected
    same, _, _ = dpo(rc, rr, rc, rr)
    close(same, torch.tensor(math.log(2)))  # policy == reference: log 2
    far, _, _ = dpo(torch.tensor([-3000.0]), torch.tensor([0.0]), torch.tensor([0.0]), torch.tensor([0.0]), beta=0.1)
    close(far, torch.tensor(300.0), tol=1e-3)  # log(sigmoid(-300)) is -inf in FP32; logsigmoid is exact
    g = torch.Generator().manual_seed(6)
    logits = torch.randn(2, 5, 9, generator=g)
    labels = torch.randint(0, 9, (2, 5), generator=g)
    labels[:, :2] = -100
    lp = logits.log_softmax(-1)
    expected = torch.stack([sum(lp[b, t, labels[b, t + 1]] for t in range(1, 4)) for b in range(2)])
    close(seq(logits, labels), expected)


def check_grpo(ns):
    adv_fn, loss_fn = ns["group_advantages"], ns["grpo_loss"]
    rewards = torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0])  # two groups of 4
    adv = adv_fn(rewards, 4)
    r = rewards[:4]
    close(adv[:4], (r - r.mean()) / (r.std() + 1e-6))
    assert torch.equal(adv[4:], torch.zeros(4))  # all correct: no signal, no NaN
    # token-level aggregation: a 1-token and a 3-token response; every token weighs 1/4
    logps = torch.zeros(2, 3, requires_grad=True)
    mask = torch.tensor([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    a = torch.tensor([1.0, 1.0])
    loss = loss_fn(logps, logps.detach(), a, mask)
    close(loss, torch.tensor(-1.0))  # ratio 1: -(mean advantage over tokens)
    loss.backward()
    close(logps.grad, -mask / 4)
    # clipping: a positive advantage stops pushing once the ratio passes 1 + eps
    up = torch.full((1, 1), math.log(1.5), requires_grad=True)
    loss_fn(up, torch.zeros(1, 1), torch.tensor([1.0]), torch.ones(1, 1)).backward()
    assert up.grad.abs().sum() == 0
    down = torch.full((1, 1), math.log(1.5), requires_grad=True)
    loss_fn(down, torch.zeros(1, 1), torch.tensor([-1.0]), torch.ones(1, 1)).backward()
    assert down.grad.abs().sum() > 0  # a negative advantage is not clipped there: min picks the unclipped term


@cache
def tiny_lm() -> type:
    """A two-layer language model class (defined on first use: it subclasses torch's `nn.Module`)."""

    class TinyLM(nn.Module):
        def __init__(self, vocab=11, dim=8):
            super().__init__()
            self.emb = nn.Embedding(vocab, dim)
            self.out = nn.Linear(dim, vocab)

        def forward(self, ids):
            return self.out(torch.tanh(self.emb(ids)))

    return TinyLM


def check_accumulation(ns):
    step = ns["accumulated_step"]
    torch.manual_seed(7)
    model = tiny_lm()()
    full = tiny_lm()()
    full.load_state_dict(model.state_dict())
    ids = torch.randint(0, 11, (4, 6))
    labels = torch.randint(0, 11, (4, 6))
    labels[0, 1:] = -100  # 1 real token in the first micro-batch's first row
    micro = [(ids[:2], labels[:2]), (ids[2:], labels[2:])]
    assert [int((m[1] != -100).sum()) for m in micro] == [7, 12]  # unequal: a mean of means is wrong here
    accumulating = torch.optim.SGD(model.parameters(), lr=1.0)
    whole = torch.optim.SGD(full.parameters(), lr=1.0)
    for _ in range(2):  # two steps: gradients left from the first would show in the second
        step(model, accumulating, micro)
        whole.zero_grad()
        F.cross_entropy(full(ids).flatten(0, 1), labels.flatten(), ignore_index=-100).backward()
        whole.step()
    for a, b in zip(model.parameters(), full.parameters(), strict=True):
        close(a, b)


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "stab-code-causal-attention-001": check_causal_attention,
    "stab-code-logsoftmax-fix-001": check_cross_entropy,
    "stab-code-rmsnorm-001": check_rmsnorm,
    "pipe-code-rope-001": check_rope,
    "pipe-code-lora-linear-001": check_lora,
    "pipe-code-causal-lm-loss-001": check_causal_lm_loss,
    "pipe-code-dpo-loss-001": check_dpo,
    "pipe-code-grpo-advantage-001": check_grpo,
    "pipe-code-accum-fix-001": check_accumulation,
}

# The classic bugs, as edits of each reference (old text, new text): each must make its question's check fail.
BUGS: list[tuple[str, str, str, str]] = [  # question, bug, old, new
    ("stab-code-causal-attention-001", "no max subtraction",
     "    scores = scores - scores.amax(dim=-1, keepdim=True)", "    scores = scores"),
    ("stab-code-causal-attention-001", "no causal mask",
     'scores = scores.masked_fill(future, float("-inf"))', "scores = scores"),
    ("stab-code-causal-attention-001", "mask aligned top-left", ".triu(Tk - Tq + 1)", ".triu(1)"),
    ("stab-code-rmsnorm-001", "mean subtracted as in LayerNorm",
     "x32.pow(2).mean(dim=-1, keepdim=True)", "(x32 - x32.mean(dim=-1, keepdim=True)).pow(2).mean(dim=-1, keepdim=True)"),
    ("stab-code-rmsnorm-001", "gain initialised to zero", "torch.ones(dim)", "torch.zeros(dim)"),
    ("pipe-code-rope-001", "adjacent pairs against rotate_half weights",
     "x[..., : d // 2].float(), x[..., d // 2 :].float()", "x[..., 0::2].float(), x[..., 1::2].float()"),
    ("pipe-code-rope-001", "one frequency for every pair", "inv_freq = base ** (", "inv_freq = 0 * base ** ("),
    ("pipe-code-lora-linear-001", "B random", "torch.zeros(base.out_features, r)", "torch.randn(base.out_features, r)"),
    ("pipe-code-lora-linear-001", "base not frozen", "p.requires_grad_(False)", "p.requires_grad_(True)"),
    ("pipe-code-lora-linear-001", "scaling alpha", "self.scaling = alpha / r", "self.scaling = alpha"),
    ("pipe-code-causal-lm-loss-001", "no shift",
     "shift_logits = logits[:, :-1, :]  # position t predicts token t + 1\n    shift_labels = labels[:, 1:]",
     "shift_logits = logits\n    shift_labels = labels"),
    ("pipe-code-dpo-loss-001", "log(sigmoid())", "-F.logsigmoid(beta * (chosen - rejected))",
     "-F.sigmoid(beta * (chosen - rejected)).log()"),
    ("pipe-code-dpo-loss-001", "a mean over tokens", "(token_logps * mask).sum(-1)",
     "(token_logps * mask).sum(-1) / mask.sum(-1)"),
    ("pipe-code-dpo-loss-001", "chosen and rejected swapped", "beta * (chosen - rejected)", "beta * (rejected - chosen)"),
    ("pipe-code-grpo-advantage-001", "a mean per response first", "per_token.sum() / mask.sum()",
     "(per_token.sum(-1) / mask.sum(-1)).mean()"),
    ("pipe-code-grpo-advantage-001", "max instead of min", "torch.min(ratio * adv", "torch.max(ratio * adv"),
    ("pipe-code-grpo-advantage-001", "no eps", "(r.std(dim=1, keepdim=True) + eps)", "r.std(dim=1, keepdim=True)"),
    ("pipe-code-accum-fix-001", "a mean of micro-batch means", "(loss_sum / total).backward()",
     "(loss_sum / int((labels != ignore_index).sum()) / len(micro_batches)).backward()"),
    ("pipe-code-accum-fix-001", "no zero_grad", "optimizer.zero_grad(set_to_none=True)", "pass"),
]  # fmt: skip


def test_every_code_question_has_checks_and_the_bank_has_enough_of_them() -> None:
    questions = code_questions()
    assert set(questions) == set(CHECKS), "a code question without checks, or checks without a question"
    assert len(questions) >= 8
    assert sum(q.level == "campus" for q in questions.values()) >= 3  # about a third at campus level
    assert {q.code.task for q in questions.values() if q.code is not None} == {"write", "fix"}


@pytest.mark.parametrize("qid", sorted(CHECKS))
def test_the_reference_implementation_passes_its_checks(qid: str) -> None:
    q = code_questions()[qid]
    assert q.code is not None
    namespace = run(reference_code(q), f"{qid}.reference")
    assert q.code.entry in namespace
    CHECKS[qid](namespace)


@pytest.mark.parametrize("qid", sorted(q for q in CHECKS if "fix" in q))
def test_the_code_a_fix_question_shows_fails_its_checks(qid: str) -> None:
    q = code_questions()[qid]
    assert q.code is not None and q.code.task == "fix"
    (shown,) = code_blocks(q.prompt.en, "python")
    with pytest.raises(AssertionError):
        CHECKS[qid](run(shown, f"{qid}.prompt"))


@pytest.mark.parametrize(("qid", "bug", "old", "new"), BUGS, ids=[f"{b[0]}: {b[1]}" for b in BUGS])
def test_each_classic_bug_fails_the_checks(qid: str, bug: str, old: str, new: str) -> None:
    code = reference_code(code_questions()[qid])
    assert old in code, f"{qid}: the reference no longer contains {old!r}"
    namespace = run(code.replace(old, new), f"{qid}.{bug}")
    with pytest.raises(AssertionError):
        CHECKS[qid](namespace)


# --- graded offline by the checklist --------------------------------------------------------------------


def test_the_checklist_reads_a_code_answer_by_what_the_code_does() -> None:
    from bot.grading.offline import OfflineGrader

    grader = OfflineGrader()
    q = code_questions()["stab-code-causal-attention-001"]
    code = reference_code(q)
    answer = f"```python\n{code}\n```"
    verdicts = {k.id: k.verdict for k in grader.grade_sync(q, answer, "en").key_points}
    assert verdicts["mask"] == verdicts["stable"] == verdicts["scores"] == "hit"
    unmasked = "\n".join(line for line in answer.split("\n") if "masked_fill" not in line and "triu" not in line)
    assert {k.id: k.verdict for k in grader.grade_sync(q, unmasked, "en").key_points}["mask"] != "hit"
    graded = grader.grade_sync(q, answer, "en")
    assert "list of terms" not in graded.feedback and graded.score >= 70
    # control: the same code under a non-code type is read as prose, which it is not, and scores far lower
    as_prose = grader.grade_sync(q.model_copy(update={"type": "concept", "code": None}), answer, "en")
    assert as_prose.score <= graded.score - 15


def test_code_level_counts_statements_and_a_keyword_list_has_none() -> None:
    from bot.grading.markers import code_level

    assert code_level("```python\ndef f(x):\n    y = x + 1\n    return y\n```") == 1.0
    assert code_level("masked_fill\ntriu\n-inf\namax\nkeepdim") == 0.0  # one term a line: no statements
    assert code_level("masked_fill, triu, -inf, amax, keepdim, logsumexp") == 0.0
    assert code_level("x = 1\ny = 2") == 0.0  # fewer than three statements: not code enough to say


# --- graded by the LLM against the rubric -----------------------------------------------------------------


def test_the_llm_grader_is_told_the_answer_is_code_and_gets_it_as_written() -> None:
    from bot.grading.prompts import load_prompts

    q = code_questions()["pipe-code-rope-001"]
    answer = "```python\ndef apply_rope(x, positions):\n    d = x.size(-1)\n    return x\n```"
    messages = load_prompts().messages(q, answer, "en", "engineer", "ans-123")
    assert messages[0]["content"].split("\n\n")[-1].startswith("Question type: code")
    assert "indentation is meaningful" in messages[0]["content"]
    user = messages[-1]["content"]
    assert "Question (code, difficulty 3/5)" in user
    assert f"<ans-123>\n{answer}\n</ans-123>" in user  # the fence and every indentation, as the user sent them
    assert "def apply_rope(x, positions, base=10000.0):" in user  # the reference implementation is sent too
    assert any(m["role"] == "assistant" for m in messages)  # with the code type's graded example
