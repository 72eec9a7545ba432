"""The garbage collector, set for a long-running bot once everything loaded at start is in memory.

After start the heap holds hundreds of thousands of long-lived objects (the bank, the grader's
tables and models, the libraries). CPython's cyclic collector walks the older generations again
and again while a burst of answers allocates, and measured that was a quarter of the CPU per
answer under load (bench/telegram_load.py). `gc.freeze()` moves what exists now to a permanent
generation the collector skips, and a larger first-generation threshold runs young collections
less often (each one is cheap, but thousands per second add up). Reference counting still frees
almost everything at once; cycles are still collected, just in fewer rounds.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000  # CPython's default is 700


def settle() -> None:
    """Call once, after start-up has loaded everything it keeps."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
