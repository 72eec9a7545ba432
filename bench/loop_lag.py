"""How long the event loop keeps a ready task waiting: a ticker asks to wake every 10 ms and records how late it
wakes. A stall (CPU work on the loop) shows as one long late wake-up. Used by the load benches."""

from __future__ import annotations

import asyncio
from typing import Any


class LoopLag:
    def __init__(self, interval: float = 0.01) -> None:
        self.interval = interval
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.interval)
            self.lags.append(max(0.0, loop.time() - start - self.interval))

    def start(self) -> LoopLag:
        self._task = asyncio.ensure_future(self._tick())
        return self

    async def stop(self) -> dict[str, Any]:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        ordered = sorted(self.lags) or [0.0]
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return {"loop_lag_max_ms": round(ordered[-1] * 1000, 1), "loop_lag_p99_ms": round(p99 * 1000, 1),
                "loop_lag_samples": len(self.lags)}  # fmt: skip
