"""Streaming readers that turn uploaded listing files (CSV or XLSX) into dicts.

Values are returned as raw strings; trimming and normalisation happen later.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import shutil
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any, BinaryIO

# Cells beyond the header's width are kept, as a list, under this key.
EXTRA_KEY = "_extra"
Record = dict[str, str | list[str]]

CSV_EXTENSIONS = {".csv", ".txt", ".tsv"}
XLSX_EXTENSIONS = {".xlsx"}
SNIFF_BYTES = 64 * 1024
DELIMITERS = ",;\t|"
# A "line" longer than this is not a listing file; it bounds memory per line.
MAX_LINE_BYTES = 16 * 1024 * 1024
_XLSX_SPOOL_BYTES = 16 * 1024 * 1024

_MAGIC_NUMBERS = {
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"%PDF": "a PDF document",
    b"PK\x03\x04": "a ZIP archive (an .xlsx saved with the wrong extension?)",
    b"\xd0\xcf\x11\xe0": "an old-style Excel/Office file (.xls); save it as .xlsx or CSV",
    b"\x1f\x8b": "a gzip archive",
}


class UnreadableFileError(Exception):
    """The file cannot be read at all; the message is one human-readable line."""


def iter_records(
    fileobj: BinaryIO,
    filename: str,
    *,
    delimiter: str | None = None,
    encoding: str | None = None,
) -> Iterator[Record]:
    """Yield one dict per data row, keyed by the (trimmed) header names.

    Rows shorter than the header are padded with "", cells beyond it (up to the
    last non-blank one) are kept as a list under EXTRA_KEY, blank rows are skipped. Every
    problem, including an unsupported extension, raises UnreadableFileError
    from iteration (a file can also turn out unreadable midway, e.g. at an
    unclosed quote).
    """
    ext = PurePath(filename).suffix.lower()
    if ext in CSV_EXTENSIONS:
        if delimiter is None and ext == ".tsv":
            delimiter = "\t"
        rows = _csv_rows(fileobj, delimiter=delimiter, encoding=encoding)
    elif ext in XLSX_EXTENSIONS:
        rows = _xlsx_rows(fileobj)
    elif ext == ".xls":
        raise UnreadableFileError(
            "old-style Excel files (.xls) are not supported; save as .xlsx or CSV"
        )
    else:
        raise UnreadableFileError(
            f"unsupported file type {repr(ext) if ext else '(no extension)'}; "
            "expected .csv, .txt, .tsv or .xlsx"
        )
    yield from _records(rows)


def _records(rows: Iterable[list[str]]) -> Iterator[Record]:
    header: list[str] | None = None
    for row in rows:
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = _header(row)
            continue
        record: Record = dict(zip(header, row))
        if len(row) < len(header):
            record.update((name, "") for name in header[len(row) :])
        extra = _without_trailing_blanks(row[len(header) :])
        if extra:
            record[EXTRA_KEY] = extra
        yield record
    if header is None:
        raise UnreadableFileError("the file has no header row (it is empty or blank)")


def _header(row: list[str]) -> list[str]:
    # A BOM survives an explicit encoding="utf-8"; it is never part of a name.
    names = [cell.replace("\ufeff", "").strip() for cell in _without_trailing_blanks(row)]
    # Blank or repeated names would make values silently overwrite each other.
    seen: dict[str, int] = {}
    header = []
    for i, name in enumerate(names, start=1):
        name = name or f"column_{i}"
        seen[name] = seen.get(name, 0) + 1
        header.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return header


def _without_trailing_blanks(cells: list[str]) -> list[str]:
    end = len(cells)
    while end and not cells[end - 1].strip():
        end -= 1
    return cells[:end]


# --------------------------------------------------------------------- CSV


class _PrefixedRaw(io.RawIOBase):
    """Replays bytes already read for sniffing, then continues with the stream."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _read_head(fileobj: BinaryIO) -> bytes:
    chunks, size = [], 0
    while size < SNIFF_BYTES:  # short reads are legal on pipes and HTTP bodies
        chunk = fileobj.read(SNIFF_BYTES - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _check_binary(head: bytes, encoding: str | None) -> None:
    if not head:
        raise UnreadableFileError("the file is empty")
    for magic, what in _MAGIC_NUMBERS.items():
        if head.startswith(magic):
            raise UnreadableFileError(f"the file is {what}, not a CSV text file")
    if encoding is None and b"\x00" in head:
        raise UnreadableFileError("the file contains binary data (NUL bytes), not CSV text")


def _decode_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return line.decode("cp1252")
    except UnicodeDecodeError:
        # The five bytes cp1252 leaves undefined are kept as their latin-1 code points.
        return line.decode("latin-1")


def _mixed_lines(buffered: BinaryIO) -> Iterator[str]:
    """Decode line by line: UTF-8 when valid, else Windows-1252."""
    first = True
    while True:
        line = buffered.readline(MAX_LINE_BYTES)
        if not line:
            return
        if len(line) == MAX_LINE_BYTES and not line.endswith(b"\n"):
            raise UnreadableFileError(
                f"a line is longer than {MAX_LINE_BYTES // (1024 * 1024)} MB; not a listing file"
            )
        if first:
            line = line.removeprefix(codecs.BOM_UTF8)
            first = False
        yield _decode_line(line)


def _strict_lines(text: io.TextIOWrapper, encoding: str) -> Iterator[str]:
    try:
        yield from text
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(f"the file is not valid {encoding} text ({exc.reason})") from None


def _sniff_delimiter(sample: str, truncated: bool) -> str:
    lines = sample.splitlines()
    header = next((line for line in lines if line.strip()), "")
    # Drop the cut last line so the sniffer sees whole rows only.
    if truncated and len(lines) > 2:
        sample = "\n".join(lines[:-1])
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        sniffed = None
    # The sniffer can be fooled by punctuation in values; the header must agree.
    if sniffed and sniffed in header:
        return sniffed
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _csv_rows(
    fileobj: BinaryIO, *, delimiter: str | None, encoding: str | None
) -> Iterator[list[str]]:
    head = _read_head(fileobj)
    if encoding is None and head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"  # Excel's "Unicode Text" export; the BOM makes it unambiguous
    _check_binary(head, encoding)
    buffered = io.BufferedReader(_PrefixedRaw(head, fileobj), buffer_size=256 * 1024)

    lines: Iterator[str]
    if encoding:
        try:
            sample = head.decode(encoding, errors="replace")
        except LookupError:
            raise UnreadableFileError(f"unknown encoding {encoding!r}") from None
        text = io.TextIOWrapper(buffered, encoding=encoding, newline="")
        lines = _strict_lines(text, encoding)
    else:
        body = head.removeprefix(codecs.BOM_UTF8)
        sample = "".join(_decode_line(line) for line in body.splitlines(True))
        lines = _mixed_lines(buffered)

    if delimiter is None:
        delimiter = _sniff_delimiter(sample, truncated=len(head) >= SNIFF_BYTES)
    try:
        yield from csv.reader(lines, delimiter=delimiter)
    except csv.Error as exc:
        # Also raised when an unclosed quote swallows the rest of the file
        # (csv's field size limit is what bounds memory in that case).
        hint = " - an unclosed quote?" if "field limit" in str(exc) else ""
        raise UnreadableFileError(f"the file is not valid CSV ({exc}{hint})") from None


# -------------------------------------------------------------------- XLSX


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        # Excel stores every number as a float; "12.0" would corrupt codes and phones.
        return str(int(value))
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _xlsx_rows(fileobj: BinaryIO) -> Iterator[list[str]]:
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    with tempfile.SpooledTemporaryFile(max_size=_XLSX_SPOOL_BYTES) as spool:
        # openpyxl needs a seekable file (it is a zip); S3 streams are not.
        source: Any = fileobj
        if not _seekable(fileobj):
            shutil.copyfileobj(fileobj, spool, 1024 * 1024)
            spool.seek(0)
            source = spool
        try:
            workbook = load_workbook(source, read_only=True, data_only=True)
        except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            message = f"the file is not a valid .xlsx workbook ({reason})"
            raise UnreadableFileError(message) from None
        try:
            if not workbook.worksheets:
                return
            for row in workbook.worksheets[0].iter_rows(values_only=True):
                yield [_cell_text(value) for value in row]
        finally:
            workbook.close()


def _seekable(fileobj: BinaryIO) -> bool:
    try:
        return bool(fileobj.seekable())
    except (AttributeError, ValueError):
        return False
