"""The matplotlib progress chart: size, not blank, Chinese glyphs present, and no state leaking between renders."""

from __future__ import annotations

import io
import struct
import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from matplotlib import font_manager
from matplotlib.figure import Figure
from PIL import Image

from bot.charts import MatplotlibChartRenderer
from bot.charts.fonts import CJK_FAMILY, bundled_cjk_font, font_families
from bot.features.stats.chart_data import ProgressData
from bot.features.stats.progress import compute_progress
from bot.kernel import srs
from bot.kernel.models import DIMENSIONS, Attempt, Card, Grade, InterviewLog, Question, ReviewItem, User
from bot.kernel.scoring import rating_from_score
from tests.conftest import make_question

NOW = datetime(2026, 6, 1, 4, 0, tzinfo=UTC)
SUBTOPICS = ["nan-loss", "mixed-precision", "lora", "gradient-clipping", "tokenizer", "batch-lr-scaling"]


def history(days: int = 120) -> ProgressData:
    """A deterministic user: one question per subtopic, answered most days, scores rising."""
    questions: dict[str, Question | None] = {
        f"q{i}": make_question(f"q{i}").model_copy(update={"subtopic": s}) for i, s in enumerate(SUBTOPICS)
    }
    cards = {qid: Card(id=i, user_id=1, question_id=qid, fsrs=srs.new_state(NOW), due=NOW, created_at=NOW)
             for i, qid in enumerate(questions)}  # fmt: skip
    attempts = []
    for day in range(days):
        if day % 9 == 4:
            continue
        when = NOW - timedelta(days=days - day)
        qid = f"q{day % len(SUBTOPICS)}"
        score = min(100, 30 + day // 2 + 7 * (day % 3))
        state, due = srs.review(dict(cards[qid].fsrs), rating_from_score(score), when, 0.9, fuzz=False)
        cards[qid] = cards[qid].model_copy(update={"fsrs": state, "due": due})
        grade = Grade(score=score, dimensions={d: score for d in DIMENSIONS})
        attempts.append(Attempt(id=day, user_id=1, card_id=1, question_id=qid, answer="a", status="graded",
                                grade=grade, created_at=when))  # fmt: skip
    logs = [InterviewLog(id=1, user_id=1, company="字节跳动", at=NOW - timedelta(days=30), created_at=NOW)]
    items = [ReviewItem(id=1, user_id=1, company="字节跳动", question_text="?", question_id="q0", matched_bank=True,
                        topic="pipeline", subtopic="nan-loss", created_at=NOW - timedelta(days=30))]  # fmt: skip
    user = User(id=1, language="zh", timezone="Asia/Shanghai", created_at=NOW)
    return compute_progress(user, NOW, attempts, list(cards.values()), questions, logs, items)


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@pytest.fixture(scope="module")
def renderer() -> MatplotlibChartRenderer:
    return MatplotlibChartRenderer()


@pytest.fixture(scope="module")
def data() -> ProgressData:
    return history()


def test_png_has_the_expected_size_and_is_not_blank(renderer: MatplotlibChartRenderer, data: ProgressData) -> None:
    png = renderer.render(data, "en")
    assert png_size(png) == renderer.size == (1000, 700)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colors = {rgb: n for n, rgb in image.getcolors(maxcolors=1 << 20) or []}
    total = image.width * image.height
    inked = 1 - colors.get((255, 255, 255), 0) / total
    assert 0.03 < inked < 0.6  # bars, lines and text, on a white ground
    assert colors.get((0x3B, 0x75, 0xAF), 0) > 2000  # the bars themselves, not just axes and labels


def test_chinese_labels_render_without_missing_glyphs(
    renderer: MatplotlibChartRenderer, data: ProgressData, tmp_path: Path
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = renderer.render(data, "zh")
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert missing == []
    assert png_size(png) == renderer.size
    (tmp_path / "zh.png").write_bytes(png)


def test_the_cjk_font_ships_with_the_python_packages() -> None:
    path = bundled_cjk_font()
    assert path is not None and path.stat().st_size > 1_000_000
    assert font_families() == ["DejaVu Sans", CJK_FAMILY]
    found = font_manager.findfont(font_manager.FontProperties(family=CJK_FAMILY), fallback_to_default=False)
    assert Path(found).name == path.name


def test_the_missing_glyph_check_does_catch_a_font_without_chinese() -> None:
    """Control for the test above: Chinese text in a Latin-only font does raise the warning it looks for."""
    fig = Figure(figsize=(2, 1))
    fig.text(0.1, 0.5, "掌握度", fontfamily="DejaVu Sans")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.savefig(io.BytesIO(), format="png")
    assert any("missing from font" in str(w.message) for w in caught)


def test_reusing_the_figure_leaks_nothing_between_renders(
    renderer: MatplotlibChartRenderer, data: ProgressData
) -> None:
    first = renderer.render(data, "zh")
    other = renderer.render(history(days=10), "en")
    assert other != first
    assert renderer.render(data, "zh") == first


def test_sparse_history_renders_every_panel(renderer: MatplotlibChartRenderer) -> None:
    sparse = history(days=2)
    assert len(sparse.trend) <= 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = renderer.render(sparse, "zh")
    assert png_size(png) == renderer.size
    assert not [w for w in caught if "missing from font" in str(w.message)]


def test_concurrent_renders_are_serialised(renderer: MatplotlibChartRenderer, data: ProgressData) -> None:
    expected = renderer.render(data, "en")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: renderer.render(data, "en"), range(4)))
    assert results == [expected] * 4
