"""The held-out detection corpus (benchmarks/detection_heldout/) is well formed: every label's page
exists and every page has a label, the forms, regions and negatives the benchmark reports on are all
there in number, each engine page carries its labelled host, and the committed pages are what the
corpus builder writes. It does not score the detector: benchmarks/detection_heldout.py does that."""

from __future__ import annotations

import importlib
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "detection_heldout"
FORMS = ("link", "iframe", "form", "script_widget", "widget_init", "custom_element", "script_unusual_path",
         "js_string")
KEYS = {"file", "engine", "host", "form", "region", "catalogued_guess", "final_url", "platform"}


@pytest.fixture(scope="module")
def labels() -> list[dict]:
    return json.loads((CORPUS / "labels.json").read_text(encoding="utf-8"))


def test_every_label_has_its_page_and_every_page_its_label(labels):
    files = [lab["file"] for lab in labels]
    assert len(files) == len(set(files))
    assert {p.name for p in (CORPUS / "pages").glob("*.html")} == set(files)
    for lab in labels:
        assert set(lab) == KEYS, lab["file"]
        assert lab["final_url"].startswith("https://"), lab["file"]


def test_counts_per_form_region_and_negatives(labels):
    forms = Counter(lab["form"] for lab in labels)
    assert len(labels) >= 100
    assert forms["none"] >= 20
    assert sum(forms[f] for f in FORMS) >= 80
    assert set(forms) == {*FORMS, "none"}
    assert all(forms[f] >= 8 for f in FORMS), forms
    regions = Counter(lab["region"] for lab in labels if lab["engine"])
    assert all(regions[r] >= 8 for r in ("North America", "Europe", "Latin America", "Asia", "Oceania")), regions
    uncatalogued = {lab["engine"] for lab in labels if lab["catalogued_guess"] is False}
    assert len(uncatalogued) >= 12


def test_engine_pages_carry_their_host_and_negatives_carry_none(labels):
    for lab in labels:
        html = (CORPUS / "pages" / lab["file"]).read_text(encoding="utf-8")
        assert html.lstrip().startswith("<!DOCTYPE html>") and "</html>" in html, lab["file"]
        if lab["engine"] is None:
            assert lab["host"] is None and lab["form"] == "none" and lab["catalogued_guess"] is None
        else:
            assert lab["form"] in FORMS and lab["host"], lab["file"]
            assert lab["host"] in html, lab["file"]
            assert isinstance(lab["catalogued_guess"], bool)


def test_committed_pages_are_what_the_builder_writes(labels):
    sys.path.insert(0, str(CORPUS))
    try:
        build = importlib.import_module("build_pages")
        entries = build.entries()
    finally:
        sys.path.remove(str(CORPUS))
    assert [e["slug"] for e in entries] == [lab["file"].split("_", 1)[1][:-5] for lab in labels]
    for e, lab in zip(entries, labels):
        e["file"] = lab["file"]
        assert {k: e[k] for k in KEYS} == lab
        assert build.chrome.page(e) == (CORPUS / "pages" / lab["file"]).read_text(encoding="utf-8"), lab["file"]
