"""A pytest plugin for `scripts/mutation.py` (`-p tests.mutation_warmup`), not a test module.

mutmut forks one process per mutant from a parent that collected the tests; this plugin, imported in that
parent, loads what the offline grader loads on first use (the bank's term weights, the sentence encoder,
jieba's dictionary), so each mutant's tests start warm instead of paying seconds of loading again.
"""

from __future__ import annotations

from bot.grading.features import analyse
from bot.grading.semantic import default_embedder
from bot.grading.term_weights import bank_weights
from bot.shipped_bank import use_shipped_weights

use_shipped_weights()
bank_weights()
analyse("先预热分词词典。")
_embedder = default_embedder()
if _embedder is not None:
    _embedder.embed(["warm up"])
