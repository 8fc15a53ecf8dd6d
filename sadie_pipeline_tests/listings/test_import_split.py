"""A large CSV upload is imported in two halves, the second read by a forked process (import_split):
the raw lines, parts, keys and checksum must be the sequential import's, whatever lies at the
split, and so must errors, in either half."""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from sadie_pipeline.core.config import merge_config
from sadie_pipeline.listings import import_split, importer, readers
from sadie_pipeline.listings.raw_files import raw_metadata
from sadie_pipeline.listings.readers import UnreadableFileError
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.resources.object_store import ObjectStore

DMO = Dmo(3, "dmo-split", "Split DMO", "csv")
MAP = {"listings.name": "Name", "locations.city": "City", "listing_info.source_id": "Ref"}
HEADER = ["Name", "City", "Ref", "Description"]


@dataclass
class Outcome:
    result: tuple
    keys: list[tuple]
    stored: dict[str, bytes]
    split_used: bool


def _rows(n: int) -> list[list[str]]:
    """Records with quoted newlines, doubled quotes, delimiters in values, blank and short rows and
    explicit ids (some plain, some not)."""
    rows = []
    for i in range(n):
        if i % 3 == 0:
            desc = f'Line one of {i}\nsaid "hi", twice;|\t\n\nline four'
        else:
            desc = f"plain {i} " + "x" * (i % 90)
        ref = "" if i % 4 else (f"ID-{i}" if i % 8 else f' "id" é {i}\t')
        rows.append([f"Place {i % 700}", f"Town {i % 37}", ref, desc])
        if i % 97 == 0:
            rows.append(["", "", "", ""])
        if i % 89 == 0:
            rows.append([f"Short {i}"])
    return rows


def _csv(rows: list[list[str]], *, delimiter: str = ",", newline: str = "\n", bom: bool = False,
         header: list[str] = HEADER) -> bytes:
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator=newline).writerows([header, *rows])
    return (b"\xef\xbb\xbf" if bom else b"") + text.getvalue().encode()


def _share_inside(data: bytes, marker: bytes) -> float:
    """A FIRST_SHARE that makes the split search start just after `marker` (inside a quoted field)."""
    return (data.index(marker) + len(marker)) / len(data)


def _import(root: Path, monkeypatch, data: bytes, *, parallel: bool, name: str = "listings.csv",
            existing: frozenset[int] = frozenset(), share: float = 0.44, **imp) -> Outcome:
    store = ObjectStore(local_root=str(root / ("parallel" if parallel else "sequential")))
    key = f"inbox/{DMO.slug}/{name}"
    store.put_bytes(key, data)
    config = merge_config({"import": {"max_records_per_file": 150, **imp}, "transform": {"map_fields": MAP}})
    if existing:  # an earlier attempt stored every part; those not in `existing` are gone
        _write(store, key, config, frozenset(), monkeypatch, parallel=False)
        for seq_key in store.list_keys("raw/"):
            if int(seq_key[-11:-9]) not in existing:
                store.delete(seq_key)
    monkeypatch.setattr(import_split, "FIRST_SHARE", share)
    keys: list[tuple] = []
    used: list[int] = []
    real_write_tail = importer._write_tail
    monkeypatch.setattr(importer, "_write_tail", lambda tail, *a: used.append(1) or real_write_tail(tail, *a))
    try:
        result = _write(store, key, config, existing, monkeypatch, parallel=parallel, write_keys=keys.append)
    except UnreadableFileError as exc:
        outcome: tuple = ("error", str(exc))
    else:
        outcome = ("ok", result.records_read, result.sha256,
                   [(f.seq, f.record_count, f.skipped) for f in result.files])
    assert multiprocessing.active_children() == []
    return Outcome(outcome, keys, _stored(store), bool(used))


def _write(store, key, config, existing, monkeypatch, *, parallel: bool, write_keys=lambda row: None):
    monkeypatch.setattr(import_split, "MIN_BYTES", 0 if parallel else 1 << 62)
    return importer._write_raw_files(store, DMO, key, 1, dt.date(2026, 1, 1), config, existing, "0", write_keys)


def _stored(store: ObjectStore) -> dict[str, bytes]:
    """The raw files, with the clock's imported_at blanked out, and no temporary file left."""
    assert not list(Path(store.local_root).rglob(".sadie-tmp-*"))
    files = {}
    for key in store.list_keys("raw/"):
        data = gzip.decompress(store.get_bytes(key))
        stamp = raw_metadata(data[: data.index(b"\n") + 1])["imported_at"].encode() if data else b""
        files[key] = data.replace(stamp, b"") if stamp else data
    return files


def _same(tmp_path, monkeypatch, data: bytes, *, split_used: bool = True, **kwargs) -> Outcome:
    sequential = _import(tmp_path, monkeypatch, data, parallel=False, **kwargs)
    parallel = _import(tmp_path, monkeypatch, data, parallel=True, **kwargs)
    assert parallel.result == sequential.result
    assert parallel.keys == sequential.keys
    assert parallel.stored == sequential.stored
    assert parallel.split_used is split_used
    return parallel


@pytest.mark.parametrize(("delimiter", "newline", "bom", "name"), [
    (",", "\n", False, "listings.csv"),
    (",", "\r\n", True, "listings.csv"),
    (";", "\r\n", False, "listings.txt"),
    ("\t", "\n", True, "listings.tsv"),
    ("|", "\n", False, "listings.csv"),
])
def test_both_halves_make_the_sequential_raw_files_and_keys(tmp_path, monkeypatch, delimiter, newline, bom, name):
    data = _csv(_rows(4000), delimiter=delimiter, newline=newline, bom=bom)
    outcome = _same(tmp_path, monkeypatch, data, name=name)
    assert outcome.result[1] > 4000 and len(outcome.stored) > 10


def test_a_split_searched_from_inside_a_quoted_newline_lands_after_its_record(tmp_path, monkeypatch):
    data = _csv(_rows(4000), newline="\r\n", bom=True)
    _same(tmp_path, monkeypatch, data, share=_share_inside(data, b"Line one of 2400\n"))
    _same(tmp_path, monkeypatch, data, share=_share_inside(data, b'Line one of 2700\nsaid ""hi'))


def test_a_configured_delimiter_and_windows_1252_bytes_in_both_halves(tmp_path, monkeypatch):
    data = _csv(_rows(4000), delimiter=";").replace(b"Town 3", b"Montr\xe9al 3").replace(b"Place 9", b"\x93Caf\xe9\x94 9")
    _same(tmp_path, monkeypatch, data, delimiter=";")


def test_a_stray_quote_that_misleads_the_split_search_leaves_the_file_to_the_first_reader(tmp_path, monkeypatch):
    rows = _rows(4000)
    rows[5][1] = 'Town 12" east'  # a literal quote in an unquoted field: the quote count is off by one
    data = _csv(rows).replace(b'"Town 12"" east"', b'Town 12" east')
    _same(tmp_path, monkeypatch, data, split_used=False, share=_share_inside(data, b"Line one of 2400\n"))


def test_a_header_after_the_split_leaves_the_file_to_the_first_reader(tmp_path, monkeypatch):
    data = b",,,\n" * 60_000 + _csv(_rows(300))
    _same(tmp_path, monkeypatch, data, split_used=False, share=0.2)


def test_resumed_parts_are_skipped_alike_in_both_halves(tmp_path, monkeypatch):
    data = _csv(_rows(4000))
    outcome = _same(tmp_path, monkeypatch, data, existing=frozenset({1, 2, 7, 11}))
    assert [skipped for _, _, skipped in outcome.result[3]].count(True) == 4


def test_parts_cut_by_bytes_alike(tmp_path, monkeypatch):
    _same(tmp_path, monkeypatch, _csv(_rows(4000)), max_records_per_file=100_000, max_bytes_per_file=20_000)


@pytest.mark.parametrize("where", [0.2, 0.8])
def test_an_invalid_line_fails_alike_in_either_half(tmp_path, monkeypatch, where):
    data = _csv(_rows(4000))
    cut = data.index(b"\nPlace ", int(len(data) * where)) + 1
    data = data[:cut] + b"Lone,carriage\rreturn,x,y\n" + data[cut:]
    outcome = _same(tmp_path, monkeypatch, data, split_used=where > 0.5)
    assert outcome.result[0] == "error" and "new-line character seen in unquoted field" in outcome.result[1]
    assert outcome.stored  # the parts cut before the error are kept


@pytest.mark.parametrize("where", [0.2, 0.8])
def test_a_line_too_long_fails_alike_in_either_half(tmp_path, monkeypatch, where):
    monkeypatch.setattr(readers, "MAX_LINE_BYTES", 4096)
    data = _csv(_rows(4000))
    cut = data.index(b"\nPlace ", int(len(data) * where)) + 1
    data = data[:cut] + b"long," + b"y" * 5000 + b"\n" + data[cut:]
    outcome = _same(tmp_path, monkeypatch, data, split_used=where > 0.5)
    assert outcome.result[0] == "error" and "a line is longer than" in outcome.result[1]


def test_an_unclosed_quote_in_the_second_half_swallows_the_rest_alike(tmp_path, monkeypatch):
    data = _csv(_rows(4000))
    cut = data.index(b"\nPlace ", int(len(data) * 0.8)) + 1
    _same(tmp_path, monkeypatch, data[:cut] + b'Open,"quote,x,y\n' + data[cut:])


def test_only_blank_rows_after_the_split(tmp_path, monkeypatch):
    _same(tmp_path, monkeypatch, _csv(_rows(700)) + b",,,\n \n" * 40_000)


def test_a_failing_store_ends_the_second_reader(tmp_path, monkeypatch):
    data = _csv(_rows(4000))
    store = ObjectStore(local_root=str(tmp_path))
    store.put_bytes(f"inbox/{DMO.slug}/listings.csv", data)
    config = merge_config({"import": {"max_records_per_file": 150}, "transform": {"map_fields": MAP}})
    rows = []

    def failing_keys(row):
        rows.append(row)
        if len(rows) == 3500:  # in the second half
            raise RuntimeError("database gone")

    with pytest.raises(RuntimeError, match="database gone"):
        _write(store, f"inbox/{DMO.slug}/listings.csv", config, frozenset(), monkeypatch, parallel=True,
               write_keys=failing_keys)
    assert multiprocessing.active_children() == []
    assert not list(tmp_path.rglob(".sadie-tmp-*"))


def _plan(tmp_path, data: bytes, name: str = "listings.csv", **kwargs):
    path = tmp_path / name
    path.write_bytes(data)
    with path.open("rb") as raw:
        return import_split.plan_split(raw, name, **{"delimiter": None, "encoding": None, **kwargs})


def test_small_files_unusual_encodings_and_streams_are_read_sequentially(tmp_path, monkeypatch):
    monkeypatch.setattr(import_split, "MIN_BYTES", 0)
    data = _csv(_rows(4000))
    assert _plan(tmp_path, data) is not None
    assert _plan(tmp_path, data, encoding="utf-8") is None
    assert _plan(tmp_path, data, delimiter="||") is None
    assert _plan(tmp_path, data, name="listings.xlsx") is None
    assert _plan(tmp_path, "\ufeff".encode("utf-16-le") + data.decode().encode("utf-16-le")) is None
    stream = io.BufferedReader(io.BytesIO(data))  # like an S3 body: readable, not seekable
    stream.seekable = lambda: False
    assert import_split.plan_split(stream, "listings.csv", delimiter=None, encoding=None) is None
    monkeypatch.setattr(import_split, "MIN_BYTES", len(data) + 1)
    assert _plan(tmp_path, data) is None


def test_a_second_reader_that_dies_fails_the_import(tmp_path, monkeypatch):
    monkeypatch.setattr(import_split, "_read_tail", lambda *args: os._exit(3))
    store = ObjectStore(local_root=str(tmp_path))
    store.put_bytes(f"inbox/{DMO.slug}/listings.csv", _csv(_rows(4000)))
    config = merge_config({"import": {"max_records_per_file": 150}, "transform": {"map_fields": MAP}})
    with pytest.raises(RuntimeError, match="ended unexpectedly"):
        _write(store, f"inbox/{DMO.slug}/listings.csv", config, frozenset(), monkeypatch, parallel=True)
    assert multiprocessing.active_children() == []
    assert not list(tmp_path.rglob(".sadie-tmp-*"))
