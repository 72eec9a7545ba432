"""The hardening probe set (tests/data/hardening_probes.yaml, issue #34) is well-formed, names real paths and
findings, and says it is kept out of tuning; bench/hardening.py builds each probe's input from it."""

from __future__ import annotations

from pathlib import Path

from bench.hardening import load_probes, probe_file, probe_text

ROOT = Path(__file__).resolve().parents[2]
PATHS = {"drill_offline", "drill_llm", "jd_text", "debrief_notes", "debrief_list", "jd_file"}


def test_the_header_says_the_probes_were_written_before_the_fixes_and_are_not_for_tuning() -> None:
    head = (ROOT / "tests" / "data" / "hardening_probes.yaml").read_text(encoding="utf-8").split("probes:")[0]
    assert "WRITTEN BEFORE ANY FIX AND KEPT OUT OF TUNING" in head


def test_each_probe_has_a_unique_id_a_finding_a_path_and_an_input() -> None:
    probes = load_probes()
    ids = [p["id"] for p in probes]
    assert len(ids) == len(set(ids)) and len(ids) >= 30
    assert {p["finding"] for p in probes} == {"high-1", "high-2", "high-3", "high-4", "any"}
    for p in probes:
        assert p["path"] in PATHS, p["id"]
        assert ("file" in p) == (p["path"] == "jd_file"), p["id"]


def test_inputs_stay_within_what_a_platform_lets_a_user_send() -> None:
    for p in load_probes():
        if "text" in p:
            text = probe_text(p["text"], quick=False)
            limit = 4096 if p["path"] in ("drill_offline", "drill_llm", "debrief_list") else 20_000
            assert 0 < len(text) <= limit, (p["id"], len(text))
            assert len(probe_text(p["text"], quick=True)) <= len(text)
        else:
            data, name = probe_file(p["file"], quick=False)
            assert len(data) <= 2_000_000 and name.endswith((".pdf", ".txt"))


def test_the_shared_stream_pdf_probe_is_small_on_the_wire() -> None:
    (probe,) = [p for p in load_probes() if p["id"] == "h4-pdf-shared-stream"]
    data, _ = probe_file(probe["file"], quick=False)
    assert len(data) < 20_000  # a few kB that inflate to 3.5 MB per page
