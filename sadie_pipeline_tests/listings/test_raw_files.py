"""Raw lines (the record plus its metadata columns) and the gzip line writer."""

from __future__ import annotations

import gzip
import io
import json

import pytest

from sadie_pipeline.listings.raw_files import GzipLines, RawLines, raw_metadata

METADATA = ("rec_num", "dmo_id", "source_id", "imported_at", "imported_by", "raw_hash")
RECORDS = [
    {"Name": "Harbourfront Grill", "City": "Charlottetown"},
    {"Name": 'A value with ,"rec_num":99, inside', "Note": "quotes \" and \\ backslashes"},
    {"rec_num": "from the file", "source_id": "theirs", "raw_hash": "x", "Name": "Café Ünïcode"},
    {},
]


@pytest.mark.parametrize("record", RECORDS)
@pytest.mark.parametrize("source_id", ["0123456789abcdef0123456789abcdef01234567", "PEI-001/é \"quoted\""])
def test_raw_line_is_the_record_plus_metadata_that_wins(record, source_id):
    line = RawLines(7, "2026-01-02T03:04:05+00:00", "0")(record, 12, source_id)
    decoded = json.loads(line)

    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert {k: v for k, v in decoded.items() if k not in METADATA} == {
        k: v for k, v in record.items() if k not in METADATA}
    assert (decoded["rec_num"], decoded["dmo_id"], decoded["source_id"]) == (12, 7, source_id)
    assert (decoded["imported_at"], decoded["imported_by"]) == ("2026-01-02T03:04:05+00:00", "0")
    assert raw_metadata(line) == {k: decoded[k] for k in METADATA}


def _reference_raw_line(dmo_id, imported_at, imported_by, record, rec_num, source_id):
    """The raw line format, as first written: it must not change by a byte."""
    import hashlib

    import orjson

    body = orjson.dumps(record)
    raw_hash = hashlib.blake2b(body, digest_size=16).hexdigest()
    plain = source_id.isascii() and source_id.isalnum()
    source = b'"%s"' % source_id.encode() if plain else orjson.dumps(source_id)
    meta = b'"rec_num":%d%s,"source_id":%s%s,"raw_hash":"%s"}\n' % (
        rec_num, b',"dmo_id":' + orjson.dumps(dmo_id), source,
        b',"imported_at":' + orjson.dumps(imported_at) + b',"imported_by":' + orjson.dumps(imported_by),
        raw_hash.encode())
    return (body[:-1] + b"," if len(body) > 2 else b"{") + meta


@pytest.mark.parametrize("record", RECORDS + [{"a": "é\n\x00\u2028", "b": ["x", "y"]}])
@pytest.mark.parametrize("source_id", ["0123456789abcdef0123456789abcdef01234567", "PEI-001/é \"q\"", "ÉTÉ", ""])
def test_raw_line_bytes_are_unchanged(record, source_id):
    args = (12, "2026-01-02T03:04:05+00:00", "5")
    assert RawLines(*args)(record, 1234, source_id) == _reference_raw_line(*args, record, 1234, source_id)


@pytest.mark.parametrize("record", RECORDS + [{"a": "é\n\x00\u2028", "b": ["x", "y"]}])
@pytest.mark.parametrize("source_id", ["0123456789abcdef0123456789abcdef01234567", "PEI-001/é \"q\"", "ÉTÉ", "5%s%%"])
def test_raw_line_parts_make_the_keyed_line_around_any_rec_num(record, source_id):
    raw_lines = RawLines(12, "2026-01-02T03:04:05+00:00", "5%d")
    before, after, raw_hash = raw_lines.parts(record, source_id)
    for rec_num in (1, 1234, 10**9):
        assert (b"%s%d%s" % (before, rec_num, after), raw_hash) == raw_lines.keyed(record, rec_num, source_id)


def test_raw_line_metadata_may_hold_percent_signs():
    line = RawLines(7, "2026-01-02T03:04:05+00:00", "50%d %s%%")({"Name": "100%"}, 3, "id %s 5%")
    assert json.loads(line) == {"Name": "100%", "rec_num": 3, "dmo_id": 7, "source_id": "id %s 5%",
                                "imported_at": "2026-01-02T03:04:05+00:00", "imported_by": "50%d %s%%",
                                "raw_hash": raw_metadata(line)["raw_hash"]}


def test_raw_hash_follows_the_record_content_only():
    first = RawLines(1, "2026-01-01T00:00:00+00:00", "0")
    later = RawLines(1, "2026-02-01T00:00:00+00:00", "5")
    same = raw_metadata(first(RECORDS[0], 1, "a"))["raw_hash"]
    assert raw_metadata(later(RECORDS[0], 40, "a"))["raw_hash"] == same
    assert raw_metadata(first(dict(RECORDS[0], City="Souris"), 1, "a"))["raw_hash"] != same


def test_gzip_lines_writes_every_line_in_order():
    lines = [b"%06d %s\n" % (i, b"x" * (i % 300)) for i in range(20_000)]  # several 1 MB chunks
    buffer = io.BytesIO()
    with GzipLines(buffer) as out:
        for line in lines:
            out.write(line)
    assert gzip.decompress(buffer.getvalue()) == b"".join(lines)


def test_gzip_lines_closed_twice_is_finished_once():
    buffer = io.BytesIO()
    with GzipLines(buffer) as out:
        out.write(b"a\n")
        out.close()
    assert gzip.decompress(buffer.getvalue()) == b"a\n"


def test_gzip_lines_leaves_the_stream_unfinished_on_error():
    buffer = io.BytesIO()
    with pytest.raises(RuntimeError), GzipLines(buffer) as out:
        out.write(b"a\n" * 600_000)
        raise RuntimeError("boom")
    with pytest.raises(EOFError):
        gzip.decompress(buffer.getvalue())


# --- the gzip bytes, and the split writer -----------------------------------------------------


def _gzip_file_bytes(fileobj, level, lines):
    with gzip.GzipFile(fileobj=fileobj, mode="wb", compresslevel=level, mtime=0) as gz:
        for line in lines:
            gz.write(line)


@pytest.mark.parametrize("level", [1, 6, 9])
def test_gzip_lines_writes_a_gzip_stream_with_gzip_files_header(tmp_path, level):
    lines = [b"%06d %s\n" % (i, b"xy" * (i % 500)) for i in range(8_000)]  # several chunks
    expected = io.BytesIO()
    _gzip_file_bytes(expected, level, lines)
    buffer = io.BytesIO()
    with GzipLines(buffer, level) as out:
        for line in lines:
            out.write(line)
    written = buffer.getvalue()
    assert written[:10] == expected.getvalue()[:10]  # magic, flags, mtime 0, level, OS
    assert gzip.decompress(written) == b"".join(lines)  # the CRC and length are checked too

    # A named file puts its name in the header, as GzipFile does.
    path = tmp_path / "a.jsonl.gz"
    with open(path, "wb") as f:
        _gzip_file_bytes(f, level, [b"one\n"])
    header = path.read_bytes()[:10 + len(b"a.jsonl\x00")]
    with open(path, "wb") as f, GzipLines(f, level) as out:
        out.write(b"one\n")
    assert path.read_bytes().startswith(header) and header.endswith(b"a.jsonl\x00")
    assert gzip.decompress(path.read_bytes()) == b"one\n"


def _split_writer(store, **kwargs):
    from sadie_pipeline.listings.raw_files import SplitWriter

    return SplitWriter(store, lambda seq: f"raw/t/part-{seq:02d}.jsonl.gz", **kwargs)


def _lines(n, width=100):
    return [b"%05d%s\n" % (i, b"." * (width - 6)) for i in range(n)]


def test_split_writer_cuts_parts_by_records_and_bytes(tmp_path, monkeypatch):
    from sadie_pipeline.listings.raw_files import SplitWriter
    from sadie_pipeline.resources.object_store import ObjectStore

    monkeypatch.setattr(SplitWriter, "CHUNK_BYTES", 1000)  # many chunks per part
    monkeypatch.setattr(SplitWriter, "MAX_PENDING", 2)
    store = ObjectStore(local_root=str(tmp_path))
    lines = _lines(1_000)
    writer = _split_writer(store, max_records=300, max_bytes=25_000)  # 250 lines of 100 bytes
    assert [writer.write(line) for line in lines] == [i // 250 + 1 for i in range(1_000)]  # the part of each line
    written = writer.close()
    assert [(f.seq, f.record_count, f.skipped) for f in written] == [(1, 250, False), (2, 250, False),
                                                                       (3, 250, False), (4, 250, False)]
    parts = [gzip.decompress(store.get_bytes(f.key)) for f in written]
    assert b"".join(parts) == b"".join(lines)
    assert [f.size for f in written] == [store.size(f.key) for f in written]
    assert sorted(store.list_keys("raw/")) == [f.key for f in written]

    writer = _split_writer(store, max_records=300, max_bytes=10**9)
    for line in lines:
        writer.write(line)
    assert [f.record_count for f in writer.close()] == [300, 300, 300, 100]


def test_split_writer_skips_the_parts_already_stored(tmp_path):
    from sadie_pipeline.resources.object_store import ObjectStore

    store = ObjectStore(local_root=str(tmp_path))
    lines = _lines(1_000)
    first = _split_writer(store, max_records=300, max_bytes=10**9)
    for line in lines[:600]:
        first.write(line)
    first.close()
    before = {k: store.get_bytes(k) for k in store.list_keys("raw/")}

    again = _split_writer(store, max_records=300, max_bytes=10**9, existing=frozenset({1, 2}))
    for line in lines:
        again.write(line)
    written = again.close()
    assert [(f.seq, f.record_count, f.skipped) for f in written] == [(1, 300, True), (2, 300, True),
                                                                       (3, 300, False), (4, 100, False)]
    assert all(store.get_bytes(k) == data for k, data in before.items())
    assert b"".join(gzip.decompress(store.get_bytes(f.key)) for f in written) == b"".join(lines)


def test_split_writer_abort_keeps_the_parts_cut_and_drops_the_current_one(tmp_path):
    from sadie_pipeline.resources.object_store import ObjectStore

    store = ObjectStore(local_root=str(tmp_path))
    lines = _lines(750)
    writer = _split_writer(store, max_records=300, max_bytes=10**9)
    for line in lines:
        writer.write(line)
    writer.abort()
    assert store.list_keys("raw/") == ["raw/t/part-01.jsonl.gz", "raw/t/part-02.jsonl.gz"]
    assert gzip.decompress(store.get_bytes("raw/t/part-02.jsonl.gz")) == b"".join(lines[300:600])
    # and no temporary file is left behind
    assert sorted(p.name for p in (tmp_path / "raw" / "t").iterdir()) == ["part-01.jsonl.gz", "part-02.jsonl.gz"]


class _FailingStore:
    """A local store whose commit of one part fails, as an upload can."""

    def __init__(self, store, failing_key):
        self._store, self._failing_key = store, failing_key

    def open_write(self, key):
        from contextlib import contextmanager

        @contextmanager
        def opened():
            with self._store.open_write(key) as f:
                yield f
                if key == self._failing_key:
                    raise OSError(f"upload of {key} failed")
        return opened()

    def size(self, key):
        return self._store.size(key)


def test_split_writer_raises_a_failed_part_and_stores_nothing_after_it(tmp_path):
    from sadie_pipeline.resources.object_store import ObjectStore

    store = ObjectStore(local_root=str(tmp_path))
    writer = _split_writer(_FailingStore(store, "raw/t/part-02.jsonl.gz"), max_records=100, max_bytes=10**9)
    with pytest.raises(OSError, match="upload of raw/t/part-02.jsonl.gz failed"):
        for line in _lines(1_000):
            writer.write(line)
        writer.close()
    writer.abort()  # what the importer does on any error; a second abort is harmless
    assert store.list_keys("raw/") == ["raw/t/part-01.jsonl.gz"]
    assert [p.name for p in (tmp_path / "raw" / "t").iterdir()] == ["part-01.jsonl.gz"]
