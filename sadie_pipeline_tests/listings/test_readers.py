"""Reading uploaded listing files (CSV in various encodings/delimiters, XLSX)."""

from __future__ import annotations

import codecs
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
        ("zipped.csv", gzip.compress(b"a,b\n1,2\n"), "gzip"),
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
