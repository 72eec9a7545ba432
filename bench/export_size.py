"""Benchmark: issue #16's /export case, 3,000 /review entries, through the Service on an SQLite file.

Logs N interview questions with /review (a 2,000-character question and a 4,000-character answer made of
the bank's own reference answers, so the text compresses as real text does), first with the caps lifted
(to make the export of the finding), then counts what the default caps let in on one day and in all.
Prints the export as each platform gets it: the raw JSON size, the files sent and their sizes, and the
time packing took. Not a test: figures depend on the machine.

    .venv/bin/python bench/export_size.py [--reviews 3000] [--noise 0.0] [--lang zh] [--quick]

`--noise 0.3` makes 30% of every text random letters (worst case for zip: it gets split). `--quick`: 50
entries, and the caps over 3 days instead of 61 (seconds; the figures are not the real ones).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import string
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.report import final_line, verdict_of
from bot.content.loader import DEFAULT_CONTENT_DIR, load_bank
from bot.features.deps import Deps, Limits
from bot.features.routes import ROUTES
from bot.grading.chain import GradingChain
from bot.grading.offline import OfflineGrader
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.service import Service
from bot.platforms.base import UPLOAD_LIMITS
from bot.shipped_bank import use_shipped_weights
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.current = NOW

    def now(self) -> datetime:
        return self.current


def texts(bank: Bank, lang: str, seed: int = 16) -> tuple[random.Random, list[str]]:
    rng = random.Random(seed)
    cut = "。" if lang == "zh" else "."
    found = [s.strip() for q in bank.all() for s in q.reference_answer.get(lang).split(cut)]  # type: ignore[arg-type]
    return rng, [s for s in found if len(s) > 10]


def make_text(rng: random.Random, sentences: list[str], n: int, noise: float) -> str:
    out: list[str] = []
    while sum(len(x) + 2 for x in out) < n:
        if rng.random() < noise:
            out.append("".join(rng.choice(string.ascii_letters) for _ in range(80)))
        else:
            out.append(rng.choice(sentences))
    return ". ".join(out)[:n]


async def main(reviews: int, noise: float, lang: str, days: int = 60, quick: bool = False) -> None:
    result = load_bank(DEFAULT_CONTENT_DIR)
    bank = Bank(result.questions)
    rng, sentences = texts(bank, lang)
    with tempfile.TemporaryDirectory() as tmp:
        engines = make_engines(f"sqlite+aiosqlite:///{Path(tmp) / 'bot.db'}")
        await upgrade(engines)
        store, clock = SqlStore(engines), Clock()
        deps = Deps(store=store, bank=bank, grader=GradingChain(OfflineGrader()), clock=clock,
                    limits=Limits(max_reviews_per_day=10**9, max_reviews=10**9))  # fmt: skip
        service = Service(deps, routes=ROUTES)
        uid = (await service.user_for("discord", "bench")).id
        started = time.perf_counter()
        for i in range(reviews):
            question = make_text(rng, sentences, 2000, noise).replace("|", "/")
            answer = make_text(rng, sentences, 4000, noise).replace("|", "/")
            await service.handle(c.LogReview(uid, f"Company {i % 40}", question, answer))
        print(f"logged {reviews} /review entries ({lang}, noise {noise}) in {time.perf_counter() - started:.1f} s")
        figures: dict[str, object] = {}
        for platform in ("discord", "telegram", "console"):
            limit = UPLOAD_LIMITS.get(platform)
            deps.limits = dataclasses.replace(deps.limits, upload_limits={"discord": limit} if limit else {})
            started = time.perf_counter()
            replies = await service.handle(c.ExportData(uid))
            took = time.perf_counter() - started
            files = [r.file for r in replies if r.file is not None]
            sizes = ", ".join(f"{f.filename} {len(f.data) / 1e6:.2f} MB" for f in files)
            fits = all(limit is None or len(f.data) <= limit for f in files)
            print(f"as {platform:8} (limit {limit / 1e6 if limit else '-'} MB): {len(files)} file(s): {sizes}; "
                  f"all fit: {fits}; /export took {took:.2f} s")  # fmt: skip
            print(f"   reply: {replies[0].text[:200]}")
            figures[platform] = {"files": len(files), "largest_mb": round(max(len(f.data) for f in files) / 1e6, 2),
                                 "fits": fits, "seconds": round(took, 2)}  # fmt: skip

        capped = Service(
            Deps(store=store, bank=bank, grader=GradingChain(OfflineGrader()), clock=clock, limits=Limits()),
            routes=ROUTES,
        )
        uid = (await capped.user_for("discord", "capped")).id
        day_one = [await capped.handle(c.LogReview(uid, "Acme", f"Question {i}?", "")) for i in range(60)]
        taken = sum(1 for r in day_one if r[0].kind != "error")
        print(f"default caps: {taken} of 60 /review on one day taken; the 61st says: {day_one[-1][0].text[:90]}")
        for _day in range(days):
            clock.current += timedelta(days=1)
            for i in range(50):
                await capped.handle(c.LogReview(uid, "Acme", f"Question {_day}-{i}?", ""))
        total = len(await store.list_review_items(uid))
        print(f"default caps: {total} /review entries kept after {days + 1} days of 50+ a day (max_reviews 2000)")
        await engines.dispose()
    caps = {"taken_one_day": taken, "kept_in_all": total}
    expected = min(2000, 50 * (days + 1))
    ok = all(f["fits"] for f in figures.values()) and taken == 50 and total == expected  # type: ignore[index]
    targets = {"files": "each within its platform's limit", "taken_one_day": 50, "kept_in_all": expected}
    context = {"quick": quick, "reviews": reviews, "lang": lang, "noise": noise, "days": days + 1}
    print(final_line("export_size", {**figures, **caps}, targets, verdict_of(ok), **context))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reviews", type=int, default=3000)
    parser.add_argument("--noise", type=float, default=0.0)
    parser.add_argument("--lang", choices=("en", "zh"), default="zh")
    parser.add_argument("--quick", action="store_true", help="50 entries, caps over 3 days: seconds")
    args = parser.parse_args()
    if args.quick:
        args.reviews = 50
    asyncio.run(main(args.reviews, args.noise, args.lang, 2 if args.quick else 60, args.quick))
