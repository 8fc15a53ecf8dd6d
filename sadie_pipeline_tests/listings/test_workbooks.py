"""Workbooks other than .xlsx, read by python-calamine: .xls (an Excel 97 file made by xlwt, in
data/) and .ods (an OpenDocument spreadsheet built here: a zip of XML)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from sadie_pipeline.listings.readers import UnreadableFileError, iter_records

DATA = Path(__file__).parent / "data"
ODS = "application/vnd.oasis.opendocument.spreadsheet"
NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def _cell(value) -> str:
    if isinstance(value, int | float):
        return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string"><text:p>{value}</text:p></table:table-cell>'


def ods(rows: list[list]) -> bytes:
    body = "".join(f"<table:table-row>{''.join(_cell(v) for v in row)}</table:table-row>" for row in rows)
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {NS} office:version="1.2">'
               f'<office:body><office:spreadsheet><table:table table:name="Listings">{body}</table:table>'
               '</office:spreadsheet></office:body></office:document-content>')
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODS}"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), ODS)  # first and stored, as the format asks
        zf.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
        zf.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def test_xls() -> None:
    with (DATA / "listings.xls").open("rb") as f:
        records = list(iter_records(f, "listings.xls"))
    assert records == [{"Name": "Harbour Inn", "Rooms": "12", "Phone": "9023684412", "City": "Souris"},
                       {"Name": "Dune Museum", "Rooms": "", "Phone": "", "City": "Cavendish"}]


def test_ods_from_a_forward_only_stream() -> None:
    data = ods([[" Name ", "Rooms", "Rating"], ["Inn", 12, 4.5], ["Motel", 3, "n/a"]])

    class Unseekable(io.RawIOBase):
        def __init__(self) -> None:
            self._data = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:
            chunk = self._data.read(len(buffer))
            buffer[: len(chunk)] = chunk
            return len(chunk)

    records = list(iter_records(io.BufferedReader(Unseekable()), "LISTINGS.ODS"))
    assert records == [{"Name": "Inn", "Rooms": "12", "Rating": "4.5"}, {"Name": "Motel", "Rooms": "3", "Rating": "n/a"}]


@pytest.mark.parametrize("name", ["broken.xls", "broken.xlsb", "broken.ods"])
def test_a_broken_workbook_is_one_line(name: str) -> None:
    with pytest.raises(UnreadableFileError, match=f"not a valid .{name.split('.')[1]} workbook") as info:
        list(iter_records(io.BytesIO(b"PK\x03\x04 not really"), name))
    assert "\n" not in str(info.value)
