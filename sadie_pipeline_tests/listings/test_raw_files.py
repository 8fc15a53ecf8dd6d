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


def test_gzip_lines_leaves_the_stream_unfinished_on_error():
    buffer = io.BytesIO()
    with pytest.raises(RuntimeError), GzipLines(buffer) as out:
        out.write(b"a\n" * 600_000)
        raise RuntimeError("boom")
    with pytest.raises(EOFError):
        gzip.decompress(buffer.getvalue())
