"""Streaming readers that turn uploaded listing files (CSV, or a workbook: XLSX, XLS, XLSB, ODS) into dicts.

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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, BinaryIO

# Cells beyond the header's width are kept, as a list, under this key.
EXTRA_KEY = "_extra"
Record = dict[str, str | list[str]]

CSV_EXTENSIONS = {".csv", ".txt", ".tsv"}
# Workbooks, read by python-calamine (Rust): 100,000 rows in about 3 s, where openpyxl's read-only mode took 49 s.
XLSX_EXTENSIONS = {".xlsx", ".xlsm", ".xls", ".xlsb", ".ods"}
SNIFF_BYTES = 64 * 1024
# Bytes read, and decoded, at a time when no encoding is given (small reads also let other
# threads have the GIL often).
_CHUNK_BYTES = 64 * 1024
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
    b"\xd0\xcf\x11\xe0": "an old-style Excel/Office file (name it .xls to import it as a workbook)",
    b"\x1f\x8b": "a gzip archive",
}


class UnreadableFileError(Exception):
    """The file cannot be read at all; the message is one human-readable line."""


@dataclass(frozen=True)
class Header:
    """The header row as the file gives it (blank names numbered), and the names it repeats."""
    names: list[str]
    repeated: list[str]


def iter_records(
    fileobj: BinaryIO,
    filename: str,
    *,
    delimiter: str | None = None,
    encoding: str | None = None,
    check_header: Callable[[Header], None] | None = None,
) -> Iterator[Record]:
    """Yield one dict per data row, keyed by the (trimmed) header names.

    Rows shorter than the header are padded with "", cells beyond it (up to the
    last non-blank one) are kept as a list under EXTRA_KEY, blank rows are skipped; a name the
    header repeats gets a suffix (_2, _3). check_header sees the header first. Every problem,
    including an unsupported extension, raises UnreadableFileError from iteration (a file can also
    turn out unreadable midway, e.g. at an unclosed quote).
    """
    ext = PurePath(filename).suffix.lower()
    if ext in CSV_EXTENSIONS:
        if delimiter is None and ext == ".tsv":
            delimiter = "\t"
        rows = _csv_rows(fileobj, delimiter=delimiter, encoding=encoding)
    elif ext in XLSX_EXTENSIONS:
        rows = _workbook_rows(fileobj, ext)
    else:
        raise UnreadableFileError(
            f"unsupported file type {repr(ext) if ext else '(no extension)'}; "
            "expected .csv, .txt, .tsv, .xlsx, .xls, .xlsb or .ods"
        )
    yield from _records(rows, check_header)


def _records(rows: Iterable[list[str]], check_header: Callable[[Header], None] | None = None) -> Iterator[Record]:
    rows = iter(rows)
    names = _first_header(rows)
    if names is None:
        raise UnreadableFileError("the file has no header row (it is empty or blank)")
    if check_header is not None:
        check_header(Header(names, sorted({n for n in names if names.count(n) > 1})))
    yield from _body_records(rows, _unique(names))


def _first_header(rows: Iterator[list[str]]) -> list[str] | None:
    for row in rows:
        if any(cell.strip() for cell in row):
            # A BOM survives an explicit encoding="utf-8"; it is never part of a name.
            names = [cell.replace("\ufeff", "").strip() for cell in _without_trailing_blanks(row)]
            return [name or f"column_{i}" for i, name in enumerate(names, start=1)]
    return None


def _body_records(rows: Iterator[list[str]], header: list[str]) -> Iterator[Record]:
    record: Record
    width = len(header)
    new_record = dict.fromkeys(header, "").copy  # a dict of the right size from the start
    for row in rows:
        if len(row) == width and row[0].strip():  # the common row: as wide as the header, not blank
            record = new_record()
            record.update(zip(header, row))
            yield record
            continue
        if not any(cell.strip() for cell in row):
            continue
        record = dict(zip(header, row))
        if len(row) < width:
            record.update((name, "") for name in header[len(row) :])
        extra = _without_trailing_blanks(row[width:])
        if extra:
            record[EXTRA_KEY] = extra
        yield record


def _unique(names: list[str]) -> list[str]:
    # Repeated names would make values silently overwrite each other.
    seen: dict[str, int] = {}
    header = []
    for name in names:
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


class _MixedLines:
    """The lines of a file, without their "\\n", each decoded as UTF-8 when valid, else Windows-1252.

    Whole blocks of lines are decoded at once when they are valid UTF-8, which gives what
    line-by-line decoding gives ("\\n" never occurs inside a multi-byte sequence, so a block is
    valid exactly when each of its lines is); a block that is not is decoded line by line.
    `unterminated` becomes true just before the file's last line is yielded when no "\\n" ends it.
    """

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head, self._rest = head, rest
        self.unterminated = False

    def _chunks(self) -> Iterator[bytes]:
        """The file's bytes."""
        head, self._head = self._head, b""
        if head:
            yield head
        read = self._rest.read
        while chunk := read(_CHUNK_BYTES):  # short reads are fine
            yield chunk

    def __iter__(self) -> Iterator[str]:
        pieces: list[bytes] = []  # the start of a line that continues in the next chunk
        size = 0
        first = True
        for chunk in self._chunks():
            cut = chunk.rfind(b"\n")
            if cut < 0:
                pieces.append(chunk)
                size += len(chunk)
                if size >= MAX_LINE_BYTES:
                    raise _line_too_long()
                continue
            start = 0
            if pieces:  # the line begun in earlier chunks ends in this one
                start = chunk.find(b"\n") + 1
                if size + start - 1 >= MAX_LINE_BYTES:
                    raise _line_too_long()
                pieces.append(chunk[:start])
                yield from _block_lines(b"".join(pieces), first)
                first = False
            if start <= cut:  # whole lines, decoded without copying them out of the chunk first
                block = memoryview(chunk)[start : cut + 1]
                if len(block) >= MAX_LINE_BYTES:  # only then can one of its lines be too long
                    raw = bytes(block).split(b"\n")
                    for i, raw_line in enumerate(raw):
                        if len(raw_line) >= MAX_LINE_BYTES:
                            yield from _block_lines(b"".join(before + b"\n" for before in raw[:i]), first)
                            raise _line_too_long()
                yield from _block_lines(block, first)
                first = False
            rest = chunk[cut + 1 :]
            pieces, size = ([rest], len(rest)) if rest else ([], 0)
        if pieces:
            last = b"".join(pieces)
            if len(last) >= MAX_LINE_BYTES:
                raise _line_too_long()
            self.unterminated = True
            yield _decode_line(last.removeprefix(codecs.BOM_UTF8) if first else last)


def _block_lines(block: bytes | memoryview, first: bool) -> list[str]:
    """The lines of a block of whole lines (each ending with "\\n"), decoded, without their "\\n"."""
    if first and block[:3] == codecs.BOM_UTF8:
        block = block[3:]
    try:
        text = codecs.utf_8_decode(block, "strict", True)[0]
    except UnicodeDecodeError:
        text = "\n".join([_decode_line(line) for line in bytes(block).split(b"\n")])
    lines = text.split("\n")
    lines.pop()  # the block ends with "\n": the last item is ""
    return lines


def _line_too_long() -> UnreadableFileError:
    return UnreadableFileError(f"a line is longer than {MAX_LINE_BYTES // (1024 * 1024)} MB; not a listing file")


class _Feed:
    """What csv.reader reads when it takes over a line: that line, then (for a quoted newline)
    the lines after it, each with the "\\n" it had in the file."""

    def __init__(self, lines: _MixedLines, rest: Iterator[str]) -> None:
        self._lines, self._rest = lines, rest
        self.line: str | None = None

    def __iter__(self) -> _Feed:
        return self

    def __next__(self) -> str:
        line = self.line
        if line is None:
            line = next(self._rest)
        else:
            self.line = None
        return line if self._lines.unterminated else line + "\n"


def _split_rows(lines: _MixedLines, delimiter: str) -> Iterator[list[str]]:
    """csv.reader's rows, splitting the common lines with str.split: those with no carriage return
    but the one ending them and only whole quoted fields (no doubled quote in them and a
    delimiter, or the end of the line, on each side). Every other line, and what follows when it
    opens a quoted newline, goes to csv.reader itself."""
    rest = iter(lines)
    feed = _Feed(lines, rest)
    reader = csv.reader(feed, delimiter=delimiter)
    d = delimiter
    if len(d) != 1 or d in '"\r\n':  # not a delimiter the split below understands
        yield from reader
        return
    limit = csv.field_size_limit()  # a line no longer than that cannot hold a field too long
    for line in rest:
        body = line
        cr = line.find("\r")
        if cr >= 0:
            if cr != len(line) - 1:  # csv.reader reads a lone carriage return as a line end
                feed.line = line
                yield next(reader)
                continue
            body = line[:-1]
        row: list[str] | None = None
        if len(body) > limit:
            pass
        elif '"' not in body:
            row = body.split(d) if body else []
        else:
            parts = body.split('"')
            if len(parts) == 3:  # one quoted field, the common case
                head, quoted, tail = parts
                if (not head or head[-1] == d) and (not tail or tail[0] == d):
                    # head ends, and tail starts, with a delimiter: each splits with a "" there
                    row = head.split(d)
                    after = tail.split(d)
                    after[0] = quoted
                    row[-1:] = after
            elif len(parts) & 1:
                seps = parts[2:-1:2]
                if not parts[0] and not parts[-1] and seps.count(d) == len(seps):
                    row = parts[1::2]  # every field quoted
                else:
                    row = _split_quoted(parts, d)
        if row is None:
            feed.line = line
            row = next(reader)
        yield row


def _split_quoted(parts: list[str], d: str) -> list[str] | None:
    """The fields of a line split at its quotes (an odd number of parts), or None when the quoted
    fields are not all whole."""
    head = parts[0]
    if head and head[-1] != d:
        return None
    row = head[:-1].split(d) if head else []
    last = len(parts) - 1
    for i in range(1, last, 2):
        row.append(parts[i])
        between = parts[i + 1]
        if i + 1 < last:
            if not between or between[0] != d or between[-1] != d:
                return None
            if len(between) > 1:
                row += between[1:-1].split(d)
        elif between:
            if between[0] != d:
                return None
            row += between[1:].split(d)
    return row


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
    encoding = _bom_encoding(head, encoding)
    _check_binary(head, encoding)

    lines: Iterator[str]
    if encoding:
        try:
            sample = head.decode(encoding, errors="replace")
        except LookupError:
            raise UnreadableFileError(f"unknown encoding {encoding!r}") from None
        buffered = io.BufferedReader(_PrefixedRaw(head, fileobj), buffer_size=256 * 1024)
        text = io.TextIOWrapper(buffered, encoding=encoding, newline="")
        lines = _strict_lines(text, encoding)
    else:
        sample = _mixed_sample(head)

    if delimiter is None:
        delimiter = _sniff_delimiter(sample, truncated=len(head) >= SNIFF_BYTES)
    if encoding:
        yield from _csv_errors(csv.reader(lines, delimiter=delimiter))
    else:
        yield from _csv_errors(_split_rows(_MixedLines(head, fileobj), delimiter))


def _bom_encoding(head: bytes, encoding: str | None) -> str | None:
    if encoding is None and head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"  # Excel's "Unicode Text" export; the BOM makes it unambiguous
    return encoding


def _mixed_sample(head: bytes) -> str:
    body = head.removeprefix(codecs.BOM_UTF8)
    try:  # the same as decoding line by line when valid (see _MixedLines)
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(_decode_line(line) for line in body.splitlines(True))


def _csv_errors(rows: Iterator[list[str]]) -> Iterator[list[str]]:
    try:
        yield from rows
    except csv.Error as exc:
        # Also raised when an unclosed quote swallows the rest of the file
        # (csv's field size limit is what bounds memory in that case).
        hint = " - an unclosed quote?" if "field limit" in str(exc) else ""
        raise UnreadableFileError(f"the file is not valid CSV ({exc}{hint})") from None


# ---------------------------------------------------------------- workbooks


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        # Excel stores every number as a float; "12.0" would corrupt codes and phones.
        return str(int(value))
    if isinstance(value, dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, dt.date):
        # as a date cell read before (openpyxl gave midnight): the same file keeps the same raw lines
        return dt.datetime.combine(value, dt.time()).isoformat()
    return str(value)


def _workbook_rows(fileobj: BinaryIO, ext: str) -> Iterator[list[str]]:
    """The first sheet's rows (python-calamine: xlsx, xlsm, xls, xlsb, ods)."""
    from python_calamine import CalamineError, CalamineWorkbook

    with tempfile.SpooledTemporaryFile(max_size=_XLSX_SPOOL_BYTES) as spool:
        # calamine reads a seekable file (a workbook is a zip or an OLE container); S3 streams are not.
        source: Any = fileobj
        if not _seekable(fileobj):
            shutil.copyfileobj(fileobj, spool, 1024 * 1024)
            spool.seek(0)
            source = spool
        try:
            workbook = CalamineWorkbook.from_filelike(source)
            sheet = workbook.get_sheet_by_index(0) if workbook.sheet_names else None
        except (CalamineError, OSError, ValueError, zipfile.BadZipFile) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UnreadableFileError(f"the file is not a valid {ext} workbook ({reason})") from None
        if sheet is None:
            return
        for row in sheet.iter_rows():
            yield [_cell_text(value) for value in row]


def _seekable(fileobj: BinaryIO) -> bool:
    try:
        return bool(fileobj.seekable())
    except (AttributeError, ValueError):
        return False
