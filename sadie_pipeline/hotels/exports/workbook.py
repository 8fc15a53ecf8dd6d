"""The lead-export workbook (seed 000, "Stage 6: Export"): one .xlsx per city or state with a
"Leads" sheet (one row per hotel) and a "Decision makers" sheet, streamed with openpyxl.

Streaming: the workbook is write-only (``Workbook(write_only=True)``), rows are written as they
are read, so memory stays flat however many hotels there are. `hotels` is consumed completely
before `decision_makers` is first touched (the first sheet is closed before the second starts),
so each can be a lazy generator over its own query.

openpyxl writes the workbook: properties, styles, each sheet's column widths, frozen pane,
styled header row (row 1) and autofilter over the written range. The body rows have two
engines, which give the same cells (the tests compare them):

- "openpyxl": every body cell through ``ws.append``; plain values where possible (openpyxl's
  write-only fast path reuses one cell), a ``Cell`` sharing a prebuilt style array for links,
  dates and guarded text. Hyperlinks: ``cell.hyperlink`` on a write-only cell works in openpyxl
  3.1.5 (the writer collects each when it writes the cell and adds the ``<hyperlinks>`` and
  their relationships when the sheet closes). About 60k cells/s on the 2-core benchmark machine.
- "xml" (default): the body rows are serialised here, with the same markup openpyxl would write
  (inline strings, the same style ids, numbers as ``<v>``, dates as serials with a date format,
  booleans ``t="b"``) into a spooled temporary file, and spliced into openpyxl's sheet XML when
  the zip is written, with the ``<hyperlinks>`` and the sheet's relationships part. About 5x
  faster: openpyxl spends ~15 us per cell and ~60 us per hyperlink in its XML machinery.
  It relies on two openpyxl 3.1 internals (``ws._writer.out``, the write-only sheet's temporary
  file; the sheet XML ending ``</sheetData><autoFilter .../>``), checked when saving.

Cells: numbers are numbers, dates are dates (datetimes with a time zone are converted to UTC,
Excel has none), lists are joined with ", ", characters an xlsx cannot hold are removed, and
text a spreadsheet could take for a formula (`core.spreadsheet.is_formula_like`) is stored as
text with the quotePrefix style (`core.spreadsheet.safe_cell`). Excel allows 65,530 hyperlinks
per worksheet: past that, and for an address that is not a plain http(s) URL (a bare domain
gets https://) or e-mail address, or is longer than Excel's 2,079 characters, the text is
written without a link.

Idempotency: `WorkbookStats.digest` is `core.spreadsheet.rows_digest` of both sheets' data
(sheet names, headers, the converted cell values), so the same data gives the same digest
whatever the dict ordering. The file is byte-stable too: openpyxl's ``save`` stamps the core
properties' ``modified`` with the current time and every zip entry with the time it is written
(``ZipFile.writestr``) or the temporary sheet file's mtime (``ZipFile.write``), so the workbook
is saved with openpyxl's ``ExcelWriter`` into a zip whose entries all carry FIXED_TIMESTAMP,
with fixed created/modified properties.
"""

from __future__ import annotations

import math
import os
import posixpath
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO
from zipfile import ZIP_DEFLATED, ZipFile, ZipInfo

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.writer.excel import ExcelWriter

from sadie_pipeline.core.spreadsheet import RowsDigest, clean_text, is_formula_like, safe_cell

__all__ = [
    "DECISION_MAKER_COLUMNS",
    "ENGINES",
    "LEAD_COLUMNS",
    "MAX_HYPERLINKS_PER_SHEET",
    "Column",
    "WorkbookStats",
    "link_target",
    "write_leads_workbook",
]

KINDS = ("text", "int", "float", "url", "email", "date", "bool")


@dataclass(frozen=True)
class Column:
    """One exported column: its header, the key of the row dicts it reads, its width in Excel
    character units and its kind (text, int, float, url, email, date or bool)."""

    header: str
    key: str
    width: float
    kind: str = "text"  # text|int|float|url|email|date|bool

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r} (known: {', '.join(KINDS)})")


LEAD_COLUMNS: tuple[Column, ...] = (
    Column("Hotel ID", "hotel_id", 10, "int"),
    Column("Hotel", "name", 36),
    Column("City", "city", 18),
    Column("State", "state", 14),
    Column("Address", "address", 36),
    Column("ZIP", "zip", 10),
    Column("Phone", "phone", 18),
    Column("Website", "website", 36, "url"),
    Column("Booking engine", "booking_engine", 18),
    Column("Engine tier", "engine_tier", 13, "int"),
    Column("Booking URL", "booking_url", 40, "url"),
    Column("Rooms", "room_count", 9, "int"),
    Column("Rating", "rating", 9, "float"),
    Column("Reviews", "review_count", 10, "int"),
    Column("Nearest attraction", "nearest_attraction", 28),
    Column("Distance km", "nearest_attraction_km", 13, "float"),
    Column("Management company", "management_company", 28),
    Column("Property type", "property_type", 16),
    Column("Contact", "contact_name", 24),
    Column("Title", "contact_title", 22),
    Column("Email", "email", 30, "email"),
    Column("Email status", "email_status", 14),
    Column("Score", "score", 9, "int"),
    Column("Launched at", "launched_at", 14, "date"),
)

DECISION_MAKER_COLUMNS: tuple[Column, ...] = (
    Column("Hotel ID", "hotel_id", 10, "int"),
    Column("Hotel", "hotel_name", 36),
    Column("City", "city", 18),
    Column("Name", "full_name", 26),
    Column("Title", "title", 24),
    Column("Email", "email", 30, "email"),
    Column("Email status", "email_status", 14),
    Column("Verified", "email_verified", 10, "bool"),
    Column("Phone", "phone", 18),
    Column("Sources", "sources", 24),
    Column("Confidence", "confidence", 12, "float"),
)

LEADS_SHEET = "Leads"
DECISION_MAKERS_SHEET = "Decision makers"

#: Excel drops the hyperlinks of a worksheet past this many (XlsxWriter's documented limit).
MAX_HYPERLINKS_PER_SHEET = 65_530
#: Excel cannot open a hyperlink address longer than this.
MAX_URL_CHARS = 2_079

#: An xml-engine sheet body stays in memory up to this size, then goes to a temporary file.
BODY_IN_MEMORY_BYTES = 8 << 20

CREATOR = "sadie_pipeline"
#: The created/modified stamp of every export (core properties) and of every zip entry, so the
#: same data gives the same bytes. The export time is recorded in sadie_gtm.lead_exports.
FIXED_TIMESTAMP = datetime(2024, 1, 1)

DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"

# Header and link styles, created once (openpyxl stores each distinct style once in the workbook).
HEADER_FONT = Font(name="Calibri", size=11, bold=True, color="FFFFFF")
HEADER_FILL = PatternFill(fill_type="solid", start_color="1F4E78", end_color="1F4E78")
LINK_FONT = Font(name="Calibri", size=11, color="0563C1", underline="single")  # Excel's hyperlink look
_THIN = Side(style="thin", color="808080")
HEADER_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
HEADER_ALIGNMENT = Alignment(vertical="center")

_HTTP_URL = re.compile(r"https?://[^\s\"<>\\^`{|}]+", re.IGNORECASE)
_BARE_DOMAIN = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?:[/?#][^\s\"<>\\^`{|}]*)?", re.IGNORECASE)
_EMAIL = re.compile(r"[^@\s\"<>()\[\]\\,;:]+@[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?\.[a-z]{2,}", re.IGNORECASE)


@dataclass
class WorkbookStats:
    hotels: int
    decision_makers: int
    digest: str


# --- plain values -------------------------------------------------------------------------------

def _to_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        text = value
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        text = ", ".join(str(v) for v in items if v is not None and v != "")
    elif isinstance(value, datetime):
        text = _naive_utc(value).isoformat(sep=" ")
    elif isinstance(value, date):
        text = value.isoformat()
    elif isinstance(value, float):
        text = repr(value) if math.isfinite(value) else ""
    else:
        text = str(value)
    return clean_text(text) or None


def _to_number(value: Any, integral: bool) -> int | float | str | None:
    """int for whole numbers in an int column, else float; text that is not a number stays text
    (it is data, better shown than dropped); NaN and infinities (Excel has none) are empty."""
    if value is None or isinstance(value, bool):
        return _to_text(value)
    if isinstance(value, int):
        return int(value) if integral else float(value)
    if isinstance(value, (float, Decimal)):
        number = float(value)
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        try:
            number = float(text)  # "1,5" or "1,500" stay text: which one is meant is unknowable
        except ValueError:
            return _to_text(value)
    else:
        return _to_text(value)
    if not math.isfinite(number):
        return None
    if integral and number.is_integer() and abs(number) < 2**53:
        return int(number)
    return number


def _to_int(value: Any) -> int | float | str | None:
    return _to_number(value, True)


def _to_float(value: Any) -> int | float | str | None:
    return _to_number(value, False)


def _naive_utc(value: datetime) -> datetime:
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value


def _to_date(value: Any) -> date | str | None:
    if isinstance(value, datetime):
        return _naive_utc(value)
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            return _to_text(value)
        if len(text) == 10:  # "2024-05-01": a date, not midnight
            return parsed.date()
        return _naive_utc(parsed)
    return _to_text(value)


def _to_bool(value: Any) -> bool | str | None:
    if value is None or isinstance(value, bool):
        return value
    return _to_text(value)


_CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "text": _to_text,
    "url": _to_text,
    "email": _to_text,
    "int": _to_int,
    "float": _to_float,
    "date": _to_date,
    "bool": _to_bool,
}


def link_target(kind: str, text: str) -> str | None:
    """The hyperlink address for the text of a url or email cell, or None when it is not a
    plain http(s) URL (a bare domain gets https://) or e-mail address, or is too long."""
    text = text.strip()
    if kind == "url":
        if _HTTP_URL.fullmatch(text):
            target = text
        elif _BARE_DOMAIN.fullmatch(text):
            target = "https://" + text
        else:
            return None
    elif kind == "email":
        if not _EMAIL.fullmatch(text):
            return None
        target = "mailto:" + text
    else:
        return None
    return target if len(target) <= MAX_URL_CHARS else None


# --- one sheet ----------------------------------------------------------------------------------

_XML_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})


class _Styles:
    """The workbook's cell styles, registered once: each is a style array that the cells needing
    it share (an openpyxl style assignment hashes the style objects, costly per cell), and its
    index in the workbook's cell formats, for the cells the xml engine writes."""

    def __init__(self, sheet: Any) -> None:
        header, link, day, moment, quoted = (Cell(sheet) for _ in range(5))
        header.font, header.fill, header.border, header.alignment = (
            HEADER_FONT, HEADER_FILL, HEADER_BORDER, HEADER_ALIGNMENT)
        link.font = LINK_FONT
        day.number_format, moment.number_format = DATE_FORMAT, DATETIME_FORMAT
        quoted.quotePrefix = True  # as safe_cell gives formula-like text
        self.header, self.link, self.date, self.datetime = header._style, link._style, day._style, moment._style
        self.ids = {"link": link.style_id, "date": day.style_id, "datetime": moment.style_id, "quoted": quoted.style_id}


class _SheetWriter:
    """Streams rows of dicts into one write-only worksheet: openpyxl writes the sheet (column
    widths, frozen and styled header row, autofilter) and, with the "openpyxl" engine, every
    body cell and hyperlink; with the "xml" engine the body rows are serialised here into a
    spooled temporary file (`_Body`) that `_FixedTimeZipFile` splices into openpyxl's sheet,
    with the hyperlinks, when the workbook is saved."""

    def __init__(self, ws: Any, columns: tuple[Column, ...], digest: RowsDigest, styles: _Styles) -> None:
        self.ws = ws
        self.columns = columns
        self.digest = digest
        self.styles = styles
        self.links = 0
        self.body: _Body | None = None  # the xml engine's body rows and hyperlinks
        # What the write-only sheet needs before its first row: column widths, frozen header.
        for index, column in enumerate(columns, 1):
            ws.column_dimensions[get_column_letter(index)].width = column.width
        ws.freeze_panes = "A2"
        self.converters = [(c.key, _CONVERTERS[c.kind]) for c in columns]

    def write(self, records: Iterable[Mapping[str, Any]], engine: str) -> int:
        ws = self.ws
        headers = [c.header for c in self.columns]
        self.digest.update(["sheet", ws.title])
        self.digest.update(headers)
        # WriteOnlyCell(ws, value) is Cell(ws, row=1, column=1, value); this one shares a style
        ws.append([Cell(ws, 1, 1, header, self.styles.header) for header in headers])
        count = self._write_xml(records) if engine == "xml" else self._write_cells(records)
        ws.auto_filter.ref = f"A1:{get_column_letter(len(self.columns))}{count + 1}"
        ws.close()  # finish this sheet's XML file (tail: autofilter, hyperlinks) before the next sheet
        return count

    def _values(self, records: Iterable[Mapping[str, Any]]) -> Iterator[list[Any]]:
        """Each record's converted cell values, added to the digest."""
        converters, update = self.converters, self.digest.update
        for record in records:
            get = record.get
            values = [convert(get(key)) for key, convert in converters]
            update(values)
            yield values

    def _link_target(self, kind: str, text: str) -> str | None:
        """The hyperlink of a url/email cell's text, counted against the sheet's limit."""
        if self.links >= MAX_HYPERLINKS_PER_SHEET or is_formula_like(text):
            return None
        target = link_target(kind, text)
        if target is not None:
            self.links += 1
        return target

    # -- the "openpyxl" engine: every body cell through openpyxl's write-only append

    def _write_cells(self, records: Iterable[Mapping[str, Any]]) -> int:
        ws = self.ws
        makers = [self._cell_maker(c.kind) for c in self.columns]
        count = 0
        for values in self._values(records):
            ws.append([None if value is None else make(value) for value, make in zip(values, makers)])
            count += 1
        return count

    def _cell_maker(self, kind: str) -> Callable[[Any], Any]:
        ws = self.ws
        if kind in ("url", "email"):
            return lambda value: self._link_cell(kind, value)
        if kind == "date":
            return self._date_cell
        # text, and the text a number/bool column falls back to: guard it; numbers pass through
        return lambda value: safe_cell(value, ws) if value.__class__ is str else value

    def _link_cell(self, kind: str, value: Any) -> Any:
        if value.__class__ is not str:
            return value
        target = self._link_target(kind, value)
        if target is None:
            return safe_cell(value, self.ws)
        cell = Cell(self.ws, 1, 1, value, self.styles.link)  # row and column are set by append
        cell.hyperlink = target  # write-only: openpyxl collects it when writing the cell
        return cell

    def _date_cell(self, value: Any) -> Any:
        if value.__class__ is str:
            return safe_cell(value, self.ws)
        style = self.styles.datetime if isinstance(value, datetime) else self.styles.date
        return Cell(self.ws, 1, 1, value, style)

    # -- the "xml" engine: body rows serialised here, the same cells openpyxl would write

    def _write_xml(self, records: Iterable[Mapping[str, Any]]) -> int:
        letters = [get_column_letter(i) for i in range(1, len(self.columns) + 1)]
        kinds = [c.kind for c in self.columns]
        ids = self.styles.ids
        link_s, quoted_s = f' s="{ids["link"]}"', f' s="{ids["quoted"]}"'
        date_s, datetime_s = f' s="{ids["date"]}"', f' s="{ids["datetime"]}"'
        links: list[tuple[str, str]] = []

        def text_cell(ref: str, text: str, kind: str) -> str:
            style = ""
            if is_formula_like(text):
                style = quoted_s
            elif kind in ("url", "email") and (target := self._link_target(kind, text)) is not None:
                links.append((ref, target))
                style = link_s
            space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
            if "&" in text or "<" in text or ">" in text or "\r" in text:  # rare: 10x cheaper than translate
                text = text.translate(_XML_TEXT)
            return f'<c r="{ref}"{style} t="inlineStr"><is><t{space}>{text}</t></is></c>'

        self.body = body = _Body(tempfile.SpooledTemporaryFile(max_size=BODY_IN_MEMORY_BYTES), links)
        count = 0
        chunk: list[str] = []
        for row, values in enumerate(self._values(records), 2):
            parts = [f'<row r="{row}">']
            for value, letter, kind in zip(values, letters, kinds):
                if value is None:
                    continue
                cls = value.__class__
                if cls is str:
                    parts.append(text_cell(f"{letter}{row}", value, kind))
                elif cls is int or cls is float:
                    parts.append(f'<c r="{letter}{row}"><v>{value!r}</v></c>')
                elif cls is bool:
                    parts.append(f'<c r="{letter}{row}" t="b"><v>{value:d}</v></c>')
                elif isinstance(value, datetime):
                    parts.append(f'<c r="{letter}{row}"{datetime_s}><v>{to_excel(value)!r}</v></c>')
                elif isinstance(value, date):
                    parts.append(f'<c r="{letter}{row}"{date_s}><v>{to_excel(value)!r}</v></c>')
                elif isinstance(value, str):  # a str subclass
                    parts.append(text_cell(f"{letter}{row}", str(value), kind))
                else:  # an int or float subclass
                    parts.append(f'<c r="{letter}{row}"><v>{float(value)!r}</v></c>')
            parts.append("</row>")
            chunk.append("".join(parts))
            count += 1
            if len(chunk) >= 256:
                body.file.write("".join(chunk).encode())
                chunk.clear()
        body.file.write("".join(chunk).encode())
        return count


# --- saving -------------------------------------------------------------------------------------

_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_HYPERLINK_REL = f"{_REL_NS}/hyperlink"
_PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_XML_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})


@dataclass
class _Body:
    """An xml-engine sheet's body: its rows' XML (UTF-8; in memory up to BODY_IN_MEMORY_BYTES,
    then in an anonymous temporary file) and its hyperlinks (cell ref, target)."""

    file: Any  # tempfile.SpooledTemporaryFile
    links: list[tuple[str, str]]

    def hyperlinks_xml(self) -> Iterator[str]:
        """The worksheet's <hyperlinks> element, as openpyxl writes it; relationship rIdN is link N."""
        if not self.links:
            return
        yield "<hyperlinks>"
        for start in range(0, len(self.links), 1024):
            yield "".join(
                f'<hyperlink xmlns:r="{_REL_NS}" ref="{ref}" r:id="rId{n}" />'
                for n, (ref, _) in enumerate(self.links[start:start + 1024], start + 1)
            )
        yield "</hyperlinks>"

    def rels_xml(self) -> Iterator[str]:
        """The sheet's relationships part: one external hyperlink target per link."""
        yield f'<Relationships xmlns="{_PACKAGE_REL_NS}">'
        for start in range(0, len(self.links), 1024):
            yield "".join(
                f'<Relationship Type="{_HYPERLINK_REL}" Target="{target.translate(_XML_ATTR)}" '
                f'TargetMode="External" Id="rId{n}" />'
                for n, (_, target) in enumerate(self.links[start:start + 1024], start + 1)
            )
        yield "</Relationships>"


_SHEET_DATA_END = b"</sheetData>"
_AUTO_FILTER = b"<autoFilter"


class _FixedTimeZipFile(ZipFile):
    """A ZipFile whose entries all carry FIXED_TIMESTAMP (openpyxl's writes use the time now),
    and which completes each xml-engine sheet as openpyxl adds it (`bodies`: openpyxl's
    temporary sheet file -> `_Body`): the body rows go before ``</sheetData>``, the
    ``<hyperlinks>`` right after ``<autoFilter>`` (the schema's order: nothing openpyxl writes
    for these sheets comes between), their relationships into the sheet's .rels part."""

    _DATE_TIME = FIXED_TIMESTAMP.timetuple()[:6]

    def __init__(self, *args: Any, bodies: dict[str, _Body], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bodies = dict(bodies)

    def _info(self, name: str) -> ZipInfo:
        info = ZipInfo(name, date_time=self._DATE_TIME)
        info.compress_type = self.compression
        info.external_attr = 0o600 << 16
        return info

    def writestr(self, zinfo_or_arcname, data, compress_type=None, compresslevel=None):  # type: ignore[override]
        if not isinstance(zinfo_or_arcname, ZipInfo):
            zinfo_or_arcname = self._info(zinfo_or_arcname)
        super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)

    def write(self, filename, arcname=None, compress_type=None, compresslevel=None):  # type: ignore[override]
        arcname = arcname or os.path.basename(filename)
        info = self._info(arcname)
        body = self.bodies.pop(os.fspath(filename), None)
        if body is None:
            info.file_size = os.path.getsize(filename)  # lets zipfile choose zip64 for a huge entry
            with open(filename, "rb") as src, self.open(info, "w") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            return
        with open(filename, "rb") as src:
            sheet = src.read()  # openpyxl's part: top, header row, tail (a few KB)
        rows_at = sheet.find(_SHEET_DATA_END)
        filter_at = sheet.find(_AUTO_FILTER, rows_at) if rows_at >= 0 else -1
        if filter_at < 0:
            raise RuntimeError(f"unexpected sheet XML from openpyxl for {arcname}")
        links_at = sheet.index(b">", filter_at) + 1
        if sheet[links_at - 2:links_at] != b"/>":  # <autoFilter ...>...</autoFilter>
            links_at = sheet.index(b"</autoFilter>", links_at) + len(b"</autoFilter>")
        info.file_size = len(sheet) + body.file.tell() + 200 * len(body.links)  # upper bound: zip64?
        body.file.seek(0)
        with self.open(info, "w") as dst:
            dst.write(sheet[:rows_at])
            shutil.copyfileobj(body.file, dst, 1 << 20)
            dst.write(sheet[rows_at:links_at])
            for part in body.hyperlinks_xml():
                dst.write(part.encode())
            dst.write(sheet[links_at:])
        if body.links:
            folder, name = posixpath.split(arcname)
            with self.open(self._info(f"{folder}/_rels/{name}.rels"), "w") as dst:
                for part in body.rels_xml():
                    dst.write(part.encode())


def _save(workbook: Workbook, fileobj: BinaryIO, bodies: dict[str, _Body]) -> None:
    archive = _FixedTimeZipFile(fileobj, "w", ZIP_DEFLATED, allowZip64=True, bodies=bodies)
    try:
        ExcelWriter(workbook, archive).write_data()
        names = archive.namelist()
        if archive.bodies or len(names) != len(set(names)):
            raise RuntimeError("openpyxl did not write the sheets as expected")
    finally:
        archive.close()


def _discard(workbook: Workbook) -> None:
    """Best effort: close and delete the temporary sheet files of a workbook that failed."""
    for ws in workbook.worksheets:
        for closer in (getattr(ws, "_rows", None), getattr(getattr(ws, "_writer", None), "xf", None)):
            try:
                if closer is not None:
                    closer.close()
            except Exception:  # cleanup after a failure must not hide the failure
                pass
        writer = getattr(ws, "_writer", None)
        try:
            if writer is not None and os.path.exists(writer.out):
                writer.cleanup()
        except Exception:
            pass


ENGINES = ("xml", "openpyxl")


def write_leads_workbook(
    target: str | os.PathLike[str] | BinaryIO,
    hotels: Iterable[Mapping[str, Any]],
    decision_makers: Iterable[Mapping[str, Any]],
    *,
    title: str,
    engine: str = "xml",
) -> WorkbookStats:
    """Write the lead workbook to `target` (a path, written atomically, or a binary file object)
    from `hotels` (dicts keyed by `LEAD_COLUMNS` keys) and then `decision_makers` (dicts keyed by
    `DECISION_MAKER_COLUMNS` keys); a missing key is an empty cell. Both are streamed.

    `engine` "xml" (the default) serialises the body rows itself, about 5x faster; "openpyxl"
    appends every body cell through openpyxl. Both give the same cells, styles and digest
    (see the module docstring)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    workbook = Workbook(write_only=True)
    props = workbook.properties
    props.creator = CREATOR
    props.title = title
    props.created = props.modified = FIXED_TIMESTAMP
    digest = RowsDigest()
    sheets: list[_SheetWriter] = []
    try:
        leads, people = workbook.create_sheet(LEADS_SHEET), workbook.create_sheet(DECISION_MAKERS_SHEET)
        styles = _Styles(leads)
        sheets = [_SheetWriter(leads, LEAD_COLUMNS, digest, styles),
                  _SheetWriter(people, DECISION_MAKER_COLUMNS, digest, styles)]
        hotel_count = sheets[0].write(hotels, engine)
        dm_count = sheets[1].write(decision_makers, engine)
        bodies = {s.ws._writer.out: s.body for s in sheets if s.body is not None}
        if isinstance(target, (str, os.PathLike)):
            path = Path(target)
            partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.partial")
            try:
                with open(partial, "wb") as fh:
                    _save(workbook, fh, bodies)
                os.replace(partial, path)  # readers see the old file or the new one, never a partial one
            finally:
                partial.unlink(missing_ok=True)
        else:
            _save(workbook, target, bodies)
    except BaseException:
        _discard(workbook)
        raise
    finally:
        for sheet in sheets:
            if sheet.body is not None:
                sheet.body.file.close()
    return WorkbookStats(hotels=hotel_count, decision_makers=dm_count, digest=digest.hexdigest())


def workbook_digest(hotels: Iterable[Mapping[str, Any]], decision_makers: Iterable[Mapping[str, Any]]) -> str:
    """The digest `write_leads_workbook` would report for these rows, without writing anything:
    an export compares it with the last one before building the file."""
    digest = RowsDigest()
    for sheet, columns, records in ((LEADS_SHEET, LEAD_COLUMNS, hotels),
                                    (DECISION_MAKERS_SHEET, DECISION_MAKER_COLUMNS, decision_makers)):
        digest.update(["sheet", sheet])
        digest.update([c.header for c in columns])
        converters = [(c.key, _CONVERTERS[c.kind]) for c in columns]
        for record in records:
            get = record.get
            digest.update([convert(get(key)) for key, convert in converters])
    return digest.hexdigest()
