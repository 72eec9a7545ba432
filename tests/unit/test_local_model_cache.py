"""Issue #34 Low 2: the local model's cache (bot/grading/local_server.py) is trusted by its SHA-256 digest, not
its size. With a small model of three parts: joined once and reused; a cache changed on disk to the same size
is joined again; parts that do not join into the pinned file are refused with a clear error, leaving no file."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bot.grading.local_server import MODEL_BYTES, MODEL_SHA256, LocalModelMissing, Model, model_file

PARTS = (b"GGUF" + bytes(range(256)) * 40, b"\x00\x01" * 5000, b"tail of the weights" * 300)
WHOLE = b"".join(PARTS)


def small_model(tmp_path: Path, parts: tuple[bytes, ...] = PARTS) -> Model:
    folder = tmp_path / f"site-packages-{hashlib.sha256(b''.join(parts)).hexdigest()[:8]}"
    folder.mkdir(exist_ok=True)
    paths = []
    for i, data in enumerate(parts, 1):
        path = folder / f"part{i:02d}.bin"
        path.write_bytes(data)
        paths.append(path)
    return Model(name="tiny", size=len(WHOLE), sha256=hashlib.sha256(WHOLE).hexdigest(), parts=lambda: paths)


def test_the_parts_are_joined_once_and_the_cache_reused(tmp_path: Path) -> None:
    model = small_model(tmp_path)
    cache = tmp_path / "cache"
    joined = model_file(cache, model)
    assert joined == cache / "tiny.gguf" and joined.read_bytes() == WHOLE
    stamp = joined.stat().st_mtime_ns
    assert model_file(cache, model) == joined and joined.stat().st_mtime_ns == stamp  # not joined again
    assert sorted(p.name for p in cache.iterdir()) == ["tiny.gguf"]  # no partial file left behind


def test_a_cache_changed_to_the_same_size_is_joined_again(tmp_path: Path) -> None:
    model = small_model(tmp_path)
    cache = tmp_path / "cache"
    joined = model_file(cache, model)
    corrupted = bytearray(WHOLE)
    corrupted[5000] ^= 0xFF  # one flipped byte: the size is right, the weights are not
    joined.write_bytes(bytes(corrupted))
    assert joined.stat().st_size == len(WHOLE)
    assert model_file(cache, model).read_bytes() == WHOLE


def test_parts_that_do_not_join_into_the_pinned_model_are_refused(tmp_path: Path) -> None:
    swapped = (PARTS[0], PARTS[1][::-1], PARTS[2])  # same sizes, other bytes: a tampered or broken install
    model = small_model(tmp_path, swapped)
    cache = tmp_path / "cache"
    with pytest.raises(LocalModelMissing) as refused:
        model_file(cache, model)
    message = str(refused.value)
    assert f"not the pinned {len(WHOLE)} bytes with SHA-256 {hashlib.sha256(WHOLE).hexdigest()}" in message
    assert hashlib.sha256(b"".join(swapped)).hexdigest() in message and "reinstall the llm-real extra" in message
    assert list(cache.iterdir()) == []  # nothing a later start could take for the model

    good = small_model(tmp_path)  # a stale wrong cache is dropped even when the parts are then refused
    model_file(cache, good)
    (cache / "tiny.gguf").write_bytes(b"x" * len(WHOLE))
    with pytest.raises(LocalModelMissing):
        model_file(cache, model)
    assert list(cache.iterdir()) == []


def test_the_bundled_model_is_pinned_by_its_digest() -> None:
    assert MODEL_BYTES == 1_117_320_768
    assert MODEL_SHA256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
