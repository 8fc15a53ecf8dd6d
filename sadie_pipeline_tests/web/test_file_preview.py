"""A delivered file's first records, read as a stream and stopped after them, in each format a DMO
delivers (CSV, JSON lines, a workbook, a JSON document at its records_path, GeoJSON), on a real
object store; and the DMO types the admin page sets."""

from __future__ import annotations

import io
import json

import pytest

from sadie_pipeline.core.dmo_types import DmoType
from sadie_pipeline.demo_sources import write_workbook
from sadie_pipeline.web import file_preview


def test_each_delivered_format_shows_its_first_records(local_object_store):
    store = local_object_store
    store.put_bytes("in/a.csv", b"Name,City\nHarbour Inn,Charlottetown\nDune Cafe,Cavendish\n")
    # lines past the first 20 are never read: a broken one there does not matter
    lines = [json.dumps({"name": f"Place {i}", "tags": ["a", i]}) for i in range(25)] + ["{not json"]
    store.put_bytes("in/b.ndjson", "\n".join(lines).encode())
    workbook = io.BytesIO()
    write_workbook(workbook, [["Name", "City"], ["Harbour Inn", "Charlottetown"]])
    store.put_bytes("in/c.xlsx", workbook.getvalue())
    store.put_bytes("in/d.json", json.dumps({"data": {"items": [{"title": "Lighthouse"}]}}).encode())
    store.put_bytes("in/e.geojson", json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": "Beach"}, "geometry": None}]}).encode())

    csv = file_preview.delivered(store, "in/a.csv")
    assert csv.columns == ["Name", "City"] and csv.rows == [["Harbour Inn", "Charlottetown"], ["Dune Cafe", "Cavendish"]]
    ndjson = file_preview.delivered(store, "in/b.ndjson")
    assert len(ndjson.rows) == 20 and ndjson.problem is None and ndjson.rows[0] == ["Place 0", '["a",0]']
    assert file_preview.delivered(store, "in/c.xlsx").rows == [["Harbour Inn", "Charlottetown"]]
    assert file_preview.delivered(store, "in/d.json", "data.items").rows == [["Lighthouse"]]
    assert file_preview.delivered(store, "in/e.geojson").rows == [["Beach"]]


def test_what_cannot_be_previewed_says_why(local_object_store, monkeypatch):
    store = local_object_store
    store.put_bytes("in/broken.xlsx", b"PK\x03\x04 not a workbook")
    assert "unreadable" in file_preview.delivered(store, "in/broken.xlsx").problem
    store.put_bytes("in/x.pdf", b"%PDF")
    assert "no preview of .pdf" in file_preview.delivered(store, "in/x.pdf").problem
    monkeypatch.setattr(file_preview, "DOCUMENT_BYTES", 10)
    store.put_bytes("in/big.json", json.dumps([{"a": 1}] * 10).encode())
    assert "download it" in file_preview.delivered(store, "in/big.json").problem
    store.put_bytes("in/empty.csv", b"Name\n")
    assert file_preview.delivered(store, "in/empty.csv").problem == "the file holds no records"


def test_dmo_types_are_the_seeds_four():
    assert [(t.name, t.value) for t in DmoType] == [("SCRAPED", 1), ("TRAVEL_SITE", 2), ("CLIENT", 3), ("PARTNER", 4)]
    assert DmoType.parse("travel site") is DmoType.TRAVEL_SITE and DmoType.parse("4") is DmoType.PARTNER
    with pytest.raises(ValueError, match="unknown DMO type 'AIRLINE': one of SCRAPED"):
        DmoType.parse("AIRLINE")
