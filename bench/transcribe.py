"""Benchmark: real-time factor of the local backend (faster-whisper base, CPU, int8).

The real-time factor is processing time divided by audio duration (under 1 is faster than real
time; the target is under 0.5 on a 2-core machine). It goes through LocalTranscriber.transcribe,
so it includes decoding the OGG/Opus, voice activity detection and beam search, as the bot does.
Clips: the committed English voice notes, about 10 s and about a minute (the length of a typical
spoken answer). Other work on the machine slows it: the load average is printed with the figures. The model is the packaged Whisper base (the `dev`
extra installs it) unless --model names another folder. Not a test: figures depend on the machine.

    .venv/bin/python bench/transcribe.py [--repeats 3] [--model PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# import the project from the repository root, not from bench/
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))  # for tests.fixtures (the packaged model)

from bot.speech.local_backend import LocalTranscriber  # noqa: E402
from tests.fixtures.whisper_model import packaged_whisper_base  # noqa: E402

AUDIO = ROOT / "tests" / "fixtures" / "audio"
TARGET_RTF = 0.5


CLIPS = ("answer_en.ogg", "answer_long_en.ogg")


async def run(model: str, repeats: int) -> dict[str, object]:
    transcriber = LocalTranscriber(model, max_concurrent=1)
    start = time.perf_counter()
    await transcriber.model()
    load_s = time.perf_counter() - start
    print(f"model {model} loaded in {load_s:.2f} s; {os.cpu_count()} cores; int8 on the CPU")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    results: dict[str, object] = {}
    worst = 0.0
    for name in CLIPS:
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
        "bench": "transcribe_local",
        "model": "whisper-base int8 cpu" if model.endswith("whisper-base") else model,
        "load_s": round(load_s, 2),
        "clips": results,
        "rtf_worst": round(worst, 3),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "target": {"rtf_max": TARGET_RTF},
        "ok": worst < TARGET_RTF,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--model", default=None, help="a faster-whisper model folder (default: the packaged base)")
    args = parser.parse_args()
    model = args.model or str(packaged_whisper_base(ROOT / ".pytest_cache" / "d" / "whisper-base"))
    figures = asyncio.run(run(model, max(1, args.repeats)))
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
