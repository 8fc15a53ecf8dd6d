"""A small streaming .xlsx writer (SpreadsheetML, ECMA-376 / ISO 29500) for the lead exports.

It writes what the exports need and nothing else: sheets of inline-string, number, boolean and
date cells with a fixed set of cell styles (`Style`: a styled header, hyperlinks, dates, date
times, text shown as text), column widths, a frozen header row, an autofilter over the written
range and external hyperlinks. Rows go straight into their sheet's compressed zip entry, so
memory stays flat however many rows there are; a sheet's hyperlinks (at most Excel's 65,530)
are kept until the sheet ends, where the schema puts them.

Byte-stable: every zip entry carries the package's `timestamp` and the core properties say it was
created and modified then, so the same content gives the same bytes.

    with XlsxPackage(fileobj, ["Leads"], title="Miami", creator="me", timestamp=FIXED) as package:
        with package.sheet([10, 36]) as sheet:
            sheet.add_row(text_cell("A1", "Hotel ID", Style.HEADER) + text_cell("B1", "Hotel", Style.HEADER))
            row = sheet.next_row
            sheet.add_row(f'<c r="A{row}"><v>1</v></c>' + text_cell(f"B{row}", "Palm Inn", Style.LINK))
            sheet.link(f"B{row}", "https://palm.example.com/")

A sheet's XML is limited to 2 GiB (no Zip64 for streamed entries), millions of rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from enum import IntEnum
from typing import BinaryIO
from zipfile import ZIP_DEFLATED, ZipFile, ZipInfo

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_HYPERLINK_REL = f"{REL_NS}/hyperlink"
_WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_EXCEL_EPOCH = datetime(1899, 12, 30)
_ROWS_PER_WRITE = 256
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;",
                       "\t": "&#9;"})


class Style(IntEnum):
    """The cell formats of every package (their index in styles.xml's cellXfs)."""

    DEFAULT = 0
    LINK = 1        # Excel's hyperlink look: blue, underlined
    DATE = 2        # yyyy-mm-dd
    DATETIME = 3    # yyyy-mm-dd hh:mm
    QUOTED = 4      # quotePrefix: text a spreadsheet could take for a formula stays text when edited
    HEADER = 5      # bold white on dark blue, thin grey border, vertically centred


_STYLE_ATTRS = {int(style): f' s="{style:d}"' if style else "" for style in Style}


def escape_text(text: str) -> str:
    if "&" in text or "<" in text or ">" in text or "\r" in text:  # rare: 10x cheaper than translate
        return text.translate(_TEXT)
    return text


def escape_attr(text: str) -> str:
    return text.translate(_ATTR)


def text_cell(ref: str, text: str, style: int = 0) -> str:
    """An inline-string cell (no shared strings table: nothing to hold in memory)."""
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    if "&" in text or "<" in text or ">" in text or "\r" in text:  # inline: called for most cells
        text = text.translate(_TEXT)
    return f'<c r="{ref}"{_STYLE_ATTRS[style]} t="inlineStr"><is><t{space}>{text}</t></is></c>'


def excel_serial(value: date | datetime) -> float:
    """Days since 1899-12-30 (Excel's 1900 date system, its phantom 1900-02-29 included)."""
    moment = value if isinstance(value, datetime) else datetime(value.year, value.month, value.day)
    days = (moment - _EXCEL_EPOCH).days
    if 0 < days <= 60:  # before 1900-03-01 Excel counts one day less
        days -= 1
    seconds = moment.hour * 3600 + moment.minute * 60 + moment.second + moment.microsecond / 10**6
    return days + seconds / 86400


def column_letter(index: int) -> str:
    """1 -> A, 26 -> Z, 27 -> AA."""
    letters = ""
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


class SheetWriter:
    """One worksheet streamed into its zip entry: the caller builds each row's cells for
    `next_row` (refs like ``B{next_row}``), `add_row` appends them, `link` records a hyperlink."""

    def __init__(self, out: BinaryIO, widths: Sequence[float]) -> None:
        self._out = out
        self._chunk: list[str] = []
        self.columns = len(widths)
        self.next_row = 1
        self.links: list[tuple[str, str]] = []
        cols = "".join(f'<col min="{i}" max="{i}" width="{w:g}" customWidth="1"/>' for i, w in enumerate(widths, 1))
        out.write(
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{MAIN_NS}" '
            f'xmlns:r="{REL_NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" '
            f'activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/>'
            f'</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>{cols}</cols><sheetData>'.encode()
        )

    def add_row(self, cells: str) -> None:
        self._chunk.append(f'<row r="{self.next_row}">{cells}</row>')
        self.next_row += 1
        if len(self._chunk) >= _ROWS_PER_WRITE:
            self._flush()

    def link(self, ref: str, target: str) -> None:
        self.links.append((ref, target))

    @property
    def filter_ref(self) -> str:
        """The autofilter's range: every column, the header and the rows written."""
        return f"A1:{column_letter(self.columns)}{max(self.next_row - 1, 1)}"

    def finish(self) -> None:
        self._flush()
        tail = [f'</sheetData><autoFilter ref="{self.filter_ref}"/>']
        if self.links:
            tail.append("<hyperlinks>")
            tail += (f'<hyperlink ref="{ref}" r:id="rId{n}"/>' for n, (ref, _) in enumerate(self.links, 1))
            tail.append("</hyperlinks>")  # at most 65,530 short elements: ~3 MB
        tail.append('<pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" footer="0.5"/></worksheet>')
        self._out.write("".join(tail).encode())

    def write_rels(self, out: BinaryIO) -> None:
        """The sheet's relationships part: one external target per hyperlink (rIdN is link N)."""
        out.write(f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
                  f'xmlns="{PACKAGE_REL_NS}">'.encode())
        for start in range(0, len(self.links), 1024):  # in slices: 65,530 links at once would be ~20 MB
            out.write("".join(
                f'<Relationship Id="rId{n}" Type="{_HYPERLINK_REL}" Target="{escape_attr(target)}" '
                f'TargetMode="External"/>' for n, (_, target) in enumerate(self.links[start:start + 1024], start + 1)
            ).encode())
        out.write(b"</Relationships>")

    def _flush(self) -> None:
        if self._chunk:
            self._out.write("".join(self._chunk).encode())
            self._chunk.clear()


class XlsxPackage:
    """An .xlsx written to a binary file object: the package parts first, then each sheet (in
    the order of `sheet_names`) streamed with `sheet`, then the workbook part on `close`."""

    def __init__(self, fileobj: BinaryIO, sheet_names: Sequence[str], *, title: str, creator: str,
                 timestamp: datetime) -> None:
        self._names = list(sheet_names)
        self._filters: list[str] = []
        self._date_time = timestamp.timetuple()[:6]
        self._zip = ZipFile(fileobj, "w", ZIP_DEFLATED)
        count = len(self._names)
        self._write("[Content_Types].xml", _content_types(count))
        self._write("_rels/.rels", _PACKAGE_RELS)
        self._write("docProps/core.xml", _core_properties(title, creator, timestamp))
        self._write("docProps/app.xml", _APP_PROPERTIES)
        self._write("xl/_rels/workbook.xml.rels", _workbook_rels(count))
        self._write("xl/styles.xml", _STYLES)

    def __enter__(self) -> XlsxPackage:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.close()
        else:
            self._zip.close()  # the caller discards the partial file

    @contextmanager
    def sheet(self, widths: Sequence[float]) -> Iterator[SheetWriter]:
        index = len(self._filters) + 1
        if index > len(self._names):
            raise ValueError(f"the package was opened for {len(self._names)} sheet(s)")
        with self._zip.open(self._info(f"xl/worksheets/sheet{index}.xml"), "w") as out:
            sheet = SheetWriter(out, widths)
            yield sheet
            sheet.finish()
        if sheet.links:
            with self._zip.open(self._info(f"xl/worksheets/_rels/sheet{index}.xml.rels"), "w") as out:
                sheet.write_rels(out)
        self._filters.append(sheet.filter_ref)

    def close(self) -> None:
        if len(self._filters) != len(self._names):
            raise ValueError(f"{len(self._filters)} of {len(self._names)} sheets written")
        self._write("xl/workbook.xml", _workbook(self._names, self._filters))
        self._zip.close()

    def _info(self, name: str) -> ZipInfo:
        info = ZipInfo(name, date_time=self._date_time)
        info.compress_type = ZIP_DEFLATED
        info.external_attr = 0o600 << 16
        return info

    def _write(self, name: str, data: str | bytes) -> None:
        self._zip.writestr(self._info(name), data)


# --- the package's other parts --------------------------------------------------------------------

_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_RELS = (
    f'{_XML}<Relationships xmlns="{PACKAGE_REL_NS}">'
    f'<Relationship Id="rId1" Type="{_DOC_REL}/officeDocument" Target="xl/workbook.xml"/>'
    f'<Relationship Id="rId2" Type="{PACKAGE_REL_NS}/metadata/core-properties" Target="docProps/core.xml"/>'
    f'<Relationship Id="rId3" Type="{_DOC_REL}/extended-properties" Target="docProps/app.xml"/>'
    "</Relationships>"
)
_APP_PROPERTIES = (
    f'{_XML}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
    "<Application>sadie_pipeline</Application></Properties>"
)
# Fonts: 0 body, 1 header, 2 link; fills: 0 none, 1 gray125 (both required first), 2 header;
# borders: 0 none, 1 header; cellXfs in the order of Style.
_THIN = '<color rgb="FF808080"/>'
_STYLES = (
    f'{_XML}<styleSheet xmlns="{MAIN_NS}">'
    '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>'
    '<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/></numFmts>'
    '<fonts count="3"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b/><sz val="11"/><color rgb="FFFFFFFF"/><name val="Calibri"/><family val="2"/></font>'
    '<font><u/><sz val="11"/><color rgb="FF0563C1"/><name val="Calibri"/><family val="2"/></font></fonts>'
    '<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>'
    '<fill><patternFill patternType="solid"><fgColor rgb="FF1F4E78"/><bgColor rgb="FF1F4E78"/></patternFill></fill>'
    '</fills><borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>'
    f'<border><left style="thin">{_THIN}</left><right style="thin">{_THIN}</right><top style="thin">{_THIN}</top>'
    f'<bottom style="thin">{_THIN}</bottom><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1" '
    'applyAlignment="1"><alignment vertical="center"/></xf></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)


def _content_types(sheets: int) -> str:
    overrides = "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{_WORKSHEET_TYPE}"/>'
                        for i in range(1, sheets + 1))
    office = "application/vnd.openxmlformats-officedocument"
    return (
        f'{_XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{office}.spreadsheetml.sheet.main+xml"/>'
        f'<Override PartName="/xl/styles.xml" ContentType="{office}.spreadsheetml.styles+xml"/>{overrides}'
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
        f'<Override PartName="/docProps/app.xml" ContentType="{office}.extended-properties+xml"/></Types>'
    )


def _core_properties(title: str, creator: str, timestamp: datetime) -> str:
    stamp = timestamp.strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        f'{_XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f"<dc:title>{escape_text(title)}</dc:title><dc:creator>{escape_text(creator)}</dc:creator>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified></cp:coreProperties>'
    )


def _workbook_rels(sheets: int) -> str:
    rels = "".join(f'<Relationship Id="rId{i}" Type="{_DOC_REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                   for i in range(1, sheets + 1))
    return (f'{_XML}<Relationships xmlns="{PACKAGE_REL_NS}">{rels}'
            f'<Relationship Id="rId{sheets + 1}" Type="{_DOC_REL}/styles" Target="styles.xml"/></Relationships>')


def _absolute(ref: str) -> str:
    """A1:X3 -> $A$1:$X$3."""
    return ":".join("$" + "$".join(_split_ref(part)) for part in ref.split(":"))


def _split_ref(ref: str) -> tuple[str, str]:
    digits = len(ref) - len(ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    return ref[:digits], ref[digits:]


def _workbook(names: Sequence[str], filters: Sequence[str]) -> str:
    sheets = "".join(f'<sheet name="{escape_attr(name)}" sheetId="{i}" r:id="rId{i}"/>'
                     for i, name in enumerate(names, 1))
    # Excel keeps each autofilter's range as this hidden name too, and expects it
    defined = "".join(
        f'<definedName name="_xlnm._FilterDatabase" localSheetId="{i}" hidden="1">'
        f"{escape_text(_quoted_sheet(name))}!{_absolute(ref)}</definedName>"
        for i, (name, ref) in enumerate(zip(names, filters)))
    return (f'{_XML}<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><bookViews><workbookView activeTab="0"/>'
            f"</bookViews><sheets>{sheets}</sheets><definedNames>{defined}</definedNames></workbook>")


def _quoted_sheet(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"
