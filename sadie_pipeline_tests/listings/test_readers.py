"""Reading uploaded listing files (CSV in various encodings/delimiters, XLSX)."""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import gzip
import io
import tracemalloc
import zipfile
from pathlib import Path

import openpyxl
import pytest

from sadie_pipeline.listings.readers import EXTRA_KEY, UnreadableFileError, iter_records

PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06"


def read(tmp_path: Path, name: str, data: bytes, **kwargs: str) -> list[dict]:
    path = tmp_path / name
    path.write_bytes(data)
    with path.open("rb") as f:
        return list(iter_records(f, name, **kwargs))


class _Unseekable(io.RawIOBase):
    """A forward-only stream with short reads, like an HTTP body."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        chunk = self._data.read(min(len(buffer), 1000))
        buffer[: len(chunk)] = chunk
        return len(chunk)


def test_utf8_with_bom(tmp_path: Path) -> None:
    data = "\ufeffname, city \nCafé Bleu,Charlottetown\n".encode("utf-8")
    assert read(tmp_path, "a.csv", data) == [{"name": "Café Bleu", "city": "Charlottetown"}]


def test_windows_1252(tmp_path: Path) -> None:
    data = "name,note\nCafé,“quoted” – dash\n".encode("cp1252")
    assert read(tmp_path, "a.csv", data) == [{"name": "Café", "note": "“quoted” – dash"}]


def test_mixed_utf8_and_cp1252_lines(tmp_path: Path) -> None:
    data = (
        b"name,city\n"
        + "Crème,Montréal\n".encode()
        + "Château,Québec\n".encode("cp1252")
    )
    assert read(tmp_path, "a.csv", data) == [
        {"name": "Crème", "city": "Montréal"},
        {"name": "Château", "city": "Québec"},
    ]


def test_explicit_encoding_is_strict(tmp_path: Path) -> None:
    data = "name\nCafé\n".encode("cp1252")
    assert read(tmp_path, "a.csv", data, encoding="cp1252") == [{"name": "Café"}]
    with pytest.raises(UnreadableFileError, match="not valid utf-8"):
        read(tmp_path, "a.csv", data, encoding="utf-8")


def test_utf16_explicit_or_by_bom(tmp_path: Path) -> None:
    data = "name;city\nCafé;Summerside\n".encode("utf-16")
    expected = [{"name": "Café", "city": "Summerside"}]
    assert read(tmp_path, "a.csv", data, encoding="utf-16") == expected
    assert read(tmp_path, "a.csv", data) == expected
    # Excel's "Unicode Text" export: UTF-16LE with BOM, tab separated.
    data = codecs.BOM_UTF16_LE + "name\tcity\r\nCafé\tSummerside\r\n".encode("utf-16-le")
    assert read(tmp_path, "a.txt", data) == expected


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
def test_sniffed_delimiters(tmp_path: Path, delimiter: str) -> None:
    rows = [["name", "address", "phone"], ["Inn, The", "1 Main St.", "902-555-0100"]]
    text = "\n".join(delimiter.join(row) for row in rows) + "\n"
    assert read(tmp_path, "a.txt", text.encode()) == [
        {"name": "Inn, The", "address": "1 Main St.", "phone": "902-555-0100"}
    ]


def test_tsv_and_given_delimiter(tmp_path: Path) -> None:
    assert read(tmp_path, "a.tsv", b"a\tb\n1\t2\n") == [{"a": "1", "b": "2"}]
    assert read(tmp_path, "a.csv", b"a;b\n1;2\n", delimiter=";") == [{"a": "1", "b": "2"}]


def test_quoted_newlines_and_delimiters(tmp_path: Path) -> None:
    data = b'name,description\r\n"Inn","Line one\r\nline two, with comma"\r\nB&B,"Say ""hi"""\r\n'
    assert read(tmp_path, "a.csv", data) == [
        {"name": "Inn", "description": "Line one\r\nline two, with comma"},
        {"name": "B&B", "description": 'Say "hi"'},
    ]


def test_short_rows_padded_extra_cells_kept_blank_lines_skipped(tmp_path: Path) -> None:
    data = b"a,b,c\n\n1\n1,2,3,4,5\n,,\n1,2,3,\n  x  ,y,z\n"
    assert read(tmp_path, "a.csv", data) == [
        {"a": "1", "b": "", "c": ""},
        {"a": "1", "b": "2", "c": "3", EXTRA_KEY: ["4", "5"]},
        {"a": "1", "b": "2", "c": "3"},
        {"a": "  x  ", "b": "y", "c": "z"},  # values are not trimmed here
    ]


def test_blank_and_duplicate_header_names(tmp_path: Path) -> None:
    assert read(tmp_path, "a.csv", b"name,,name\n1,2,3\n") == [
        {"name": "1", "column_2": "2", "name_2": "3"}
    ]


def test_streams_from_unseekable_source() -> None:
    body = "name;city\n" + "".join(f"Hôtel {i};Cavendish\n" for i in range(20_000))
    stream = io.BufferedReader(_Unseekable(body.encode()))
    records = list(iter_records(stream, "upload.CSV"))  # type: ignore[arg-type]
    assert len(records) == 20_000
    assert records[-1] == {"name": "Hôtel 19999", "city": "Cavendish"}


def test_xlsx(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([" Name ", "Rooms", "Opened", "Phone", "Rating"])
    ws.append(["Inn", 12, dt.date(2020, 5, 1), 9025550100, 4.5])
    ws.append(["Motel", None])
    ws.append([None, None, None])
    ws.append(["B&B", 3, None, None, None, "extra"])
    wb.create_sheet("Second").append(["ignored"])
    path = tmp_path / "listings.xlsx"
    wb.save(path)

    with path.open("rb") as f:
        records = list(iter_records(f, "listings.xlsx"))
    assert [list(r.values()) for r in records] == [
        ["Inn", "12", "2020-05-01T00:00:00", "9025550100", "4.5"],
        ["Motel", "", "", "", ""],
        ["B&B", "3", "", "", "", ["extra"]],
    ]
    assert list(records[2]) == ["Name", "Rooms", "Opened", "Phone", "Rating", EXTRA_KEY]

    # The same workbook from a forward-only stream (e.g. an S3 body).
    stream = io.BufferedReader(_Unseekable(path.read_bytes()))
    assert list(iter_records(stream, "LISTINGS.XLSX")) == records  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.csv", b"", "empty"),
        ("blank.csv", b"\n  \n\r\n", "no header"),
        ("image.csv", PNG_BYTES, "PNG"),
        ("nul.csv", b"name,city\nInn\x00\x00\x00,X\n", "binary"),
        ("zipped.csv", gzip.compress(b"a,b\n1,2\n", mtime=0), "gzip"),
        ("image.xlsx", PNG_BYTES, "not a valid .xlsx"),
        ("empty.xlsx", b"", "not a valid .xlsx"),
        ("text.xlsx", b"a,b\n1,2\n", "not a valid .xlsx"),
        ("old.xls", b"\xd0\xcf\x11\xe0", ".xls"),
        ("listing.pdf", b"%PDF-1.4", "unsupported file type '.pdf'"),
        ("noext", b"a,b\n", "no extension"),
    ],
)
def test_unreadable_files(tmp_path: Path, name: str, data: bytes, reason: str) -> None:
    with pytest.raises(UnreadableFileError, match=reason) as info:
        read(tmp_path, name, data)
    assert "\n" not in str(info.value)


def test_zip_that_is_not_a_workbook(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("listings.csv", "a,b\n1,2\n")
    with pytest.raises(UnreadableFileError, match="not a valid .xlsx"):
        read(tmp_path, "listings.xlsx", buffer.getvalue())


def test_empty_xlsx_sheet_has_no_header(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    openpyxl.Workbook().save(path)
    with path.open("rb") as f, pytest.raises(UnreadableFileError, match="no header"):
        list(iter_records(f, "empty.xlsx"))


def test_unclosed_quote_is_reported(tmp_path: Path) -> None:
    data = b'name,city\n"Inn,X\n' + b"more,rows\n" * 20_000
    with pytest.raises(UnreadableFileError, match="unclosed quote"):
        read(tmp_path, "a.csv", data)


def _write_big_csv(path: Path, rows: int) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        f.write("id;name;address;city;phone;notes\n")
        for i in range(rows):
            phone = f"902-555-{i % 10000:04d}"
            f.write(f'{i};Hôtel numéro {i};{i} Main Street;Charlottetown;{phone};"a; b"\n')


def test_memory_does_not_grow_with_file_size(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    _write_big_csv(path, 200_000)
    assert path.stat().st_size > 10_000_000

    count = 0
    tracemalloc.start()
    try:
        with path.open("rb") as f:
            for record in iter_records(f, "big.csv"):  # noqa: B007 (the last one is checked below)
                count += 1
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 200_000
    assert record["name"] == "Hôtel numéro 199999" and record["notes"] == "a; b"
    assert peak < 3 * 1024 * 1024, f"peak traced memory {peak / 1e6:.1f} MB"


# --- the block decoding and quick line splitting give exactly what line-by-line csv.reader gives ---


def _reference_records(data: bytes, name: str, delimiter: str | None = None) -> list[dict] | str:
    """The reader as it was: each line (readline) decoded on its own, every line through csv.reader.
    Returns the records, or the UnreadableFileError message."""
    from sadie_pipeline.listings import readers

    def lines(buffered):
        first = True
        while line := buffered.readline(readers.MAX_LINE_BYTES):
            if len(line) == readers.MAX_LINE_BYTES and not line.endswith(b"\n"):
                raise UnreadableFileError(
                    f"a line is longer than {readers.MAX_LINE_BYTES // (1024 * 1024)} MB; not a listing file")
            if first:
                line, first = line.removeprefix(codecs.BOM_UTF8), False
            yield readers._decode_line(line)

    def rows():
        head = data[: readers.SNIFF_BYTES]
        readers._check_binary(head, None)
        body = head.removeprefix(codecs.BOM_UTF8)
        sample = "".join(readers._decode_line(line) for line in body.splitlines(True))
        sep = delimiter or readers._sniff_delimiter(sample, truncated=len(head) >= readers.SNIFF_BYTES)
        try:
            yield from csv.reader(lines(io.BytesIO(data)), delimiter=sep)
        except csv.Error as exc:
            hint = " - an unclosed quote?" if "field limit" in str(exc) else ""
            raise UnreadableFileError(f"the file is not valid CSV ({exc}{hint})") from None

    try:
        return list(readers._records(rows()))
    except UnreadableFileError as exc:
        return str(exc)


def _records_or_error(data: bytes, name: str, delimiter: str | None = None) -> list[dict] | str:
    stream = io.BufferedReader(_Unseekable(data))
    try:
        return list(iter_records(stream, name, delimiter=delimiter))  # type: ignore[arg-type]
    except UnreadableFileError as exc:
        return str(exc)


_TOKENS = [b"a", b"bc", b"Caf\xc3\xa9", b"Caf\xe9", b"\x81", b"\x9d", b",", b",", b";", b"\t", b'"', b'"', b'""',
           b"\r", b"\n", b"\r\n", b"\r\n", b" ", b"\xe2\x80\x9c", b"\xe2\x80", b"\xef\xbb\xbf"]


def _random_csv(rng, lines: int) -> bytes:
    out = [codecs.BOM_UTF8] if rng.random() < 0.2 else []
    out.append(rng.choice([b"", b"\n", b"\r\n", b" \n"]))  # blank lines before the header are skipped
    out.append(rng.choice([b"name,city;x\tz\r\n", b"name,city\n", b""]))
    for _ in range(lines):
        if rng.random() < 0.1:  # every field quoted
            cells = [b'"' + rng.choice([b"a, b", b"", b'x""y', b"\xe9", b";"]) + b'"' for _ in range(rng.randint(1, 4))]
            out.append(rng.choice([b",", b";"]).join(cells) + rng.choice([b"\n", b"\r\n"]))
        elif rng.random() < 0.5:  # a well-formed row, maybe with quoted fields
            cells = [b'"' + rng.choice([b"a, b", b"", b"x\r\ny", b'say ""hi""', b"\xe9"]) + b'"'
                     if rng.random() < 0.4 else rng.choice([b"", b"v", b" w ", b"\xc3\xa9"]) for _ in range(rng.randint(1, 4))]
            out.append(b",".join(cells) + rng.choice([b"\n", b"\r\n"]))
        else:
            out.append(b"".join(rng.choice(_TOKENS) for _ in range(rng.randint(0, 12))))
    return b"".join(out)


@pytest.mark.parametrize("seed", range(6))
def test_same_records_as_line_by_line_csv_reader(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    import random

    from sadie_pipeline.listings import readers

    rng = random.Random(seed)
    limit = csv.field_size_limit()
    try:
        for _ in range(200):
            # Small chunks put lines across chunk boundaries; small limits exercise the long-line
            # and long-field errors.
            monkeypatch.setattr(readers, "_CHUNK_BYTES", rng.choice([1, 3, 16, 200, 1 << 18]))
            monkeypatch.setattr(readers, "MAX_LINE_BYTES", rng.choice([10, 40, 1 << 20]))
            monkeypatch.setattr(readers, "SNIFF_BYTES", rng.choice([8, 64, 1 << 16]))
            csv.field_size_limit(rng.choice([12, limit]))
            data = _random_csv(rng, rng.randint(0, 8))
            for delimiter in (None, ",", ";"):
                expected = _reference_records(data, "a.csv", delimiter)
                assert _records_or_error(data, "a.csv", delimiter) == expected, (data, delimiter)
            if not data.endswith(b"\n"):
                continue
            cut = data[:-1]  # the last line without its newline (inside a quoted field, it matters)
            assert _records_or_error(cut, "a.csv") == _reference_records(cut, "a.csv"), cut
    finally:
        csv.field_size_limit(limit)


def test_a_line_without_end_is_refused_without_reading_it_all(monkeypatch: pytest.MonkeyPatch) -> None:
    from sadie_pipeline.listings import readers

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
            buffer[:] = b"x" * len(buffer)
            return len(buffer)

    monkeypatch.setattr(readers, "MAX_LINE_BYTES", 1 << 20)
    stream = io.BufferedReader(Endless())
    with pytest.raises(UnreadableFileError, match="a line is longer than 1 MB"):
        list(iter_records(stream, "a.csv"))  # type: ignore[arg-type]


def test_quoted_newline_across_blocks_and_mixed_encodings(monkeypatch: pytest.MonkeyPatch) -> None:
    from sadie_pipeline.listings import readers

    monkeypatch.setattr(readers, "_CHUNK_BYTES", 10)
    data = (b'name,description\r\n"Caf\xc3\xa9","first\r\nsecond \xe9\r\nthird"\r\n'
            + "Crème,Montréal\r\n".encode() + "Château,\"Québec, QC\"".encode("cp1252"))
    expected = [
        {"name": "Café", "description": "first\r\nsecond é\r\nthird"},
        {"name": "Crème", "description": "Montréal"},
        {"name": "Château", "description": "Québec, QC"},
    ]
    assert _records_or_error(data, "a.csv") == expected == _reference_records(data, "a.csv")
