"""Tests for the lead-export workbook writer (sadie_pipeline.hotels.exports.workbook, on core.xlsx):
every file is saved for real and read back with openpyxl (load_workbook), and its cells compared
with a reference workbook built cell by cell through openpyxl's public API."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter

from sadie_pipeline.core.spreadsheet import is_formula_like, rows_digest
from sadie_pipeline.hotels.exports.workbook import (
    _CONVERTERS,
    CREATOR,
    DECISION_MAKER_COLUMNS,
    DECISION_MAKERS_SHEET,
    FIXED_TIMESTAMP,
    LEAD_COLUMNS,
    LEADS_SHEET,
    MAX_HYPERLINKS_PER_SHEET,
    Column,
    WorkbookStats,
    email_verification_label,
    link_target,
    write_leads_workbook,
)

LEAD = {c.key: i for i, c in enumerate(LEAD_COLUMNS)}
DM = {c.key: i for i, c in enumerate(DECISION_MAKER_COLUMNS)}
INJECTIONS = ["=1+1", "+1+2", "-3+4", "@SUM(A1)", "\t=1+1", "  =cmd|' /C calc'!A0"]


def hotel(i: int, **overrides) -> dict:
    row = {
        "hotel_id": i,
        "name": f"Hotel {i}",
        "city": "Miami",
        "state": "Florida",
        "address": f"{i} Ocean Drive",
        "zip": "33139",
        "phone": "+1 305 555 0101",
        "website": f"https://hotel{i}.example.com/",
        "booking_engine": "Cloudbeds",
        "engine_tier": 1,
        "booking_url": f"https://booking.example.com/h{i}?a=1&b=2",
        "room_count": 40 + i,
        "rating": Decimal("4.50"),
        "review_count": 120,
        "nearest_attraction": "South Beach",
        "nearest_attraction_km": 1.25,
        "management_company": "Acme Hospitality",
        "property_type": "Boutique hotel",
        "contact_name": "Ana García",
        "contact_title": "General Manager",
        "email": f"gm@hotel{i}.example.com",
        "email_status": "valid",
        "score": 87,
        "launched_at": datetime(2025, 3, 1, 14, 30, tzinfo=UTC),
    }
    row.update(overrides)
    return row


def person(i: int, **overrides) -> dict:
    row = {
        "hotel_id": i,
        "hotel_name": f"Hotel {i}",
        "city": "Miami",
        "full_name": "Ben Smith",
        "title": "Owner",
        "email": f"ben@hotel{i}.example.com",
        "email_status": "valid",
        "email_verified": True,
        "phone": "+1 305 555 0199",
        "sources": ["website", "rdap"],
        "confidence": 0.9,
    }
    row.update(overrides)
    return row


def save(hotels, people=(), title="Miami, Florida") -> tuple[WorkbookStats, bytes]:
    buf = io.BytesIO()
    stats = write_leads_workbook(buf, hotels, people, title=title)
    return stats, buf.getvalue()


def load(data: bytes):
    return load_workbook(io.BytesIO(data))


def cell(ws, row: int, columns: dict, key: str):
    return ws.cell(row=row, column=columns[key] + 1)


# --- layout -------------------------------------------------------------------------------------

def test_sheets_headers_styles_freeze_filter_and_widths():
    stats, data = save([hotel(1), hotel(2), hotel(3)], [person(1), person(2)])
    wb = load(data)
    assert wb.sheetnames == ["Leads", "Decision makers"]
    for ws, columns, rows in ((wb["Leads"], LEAD_COLUMNS, 3), (wb["Decision makers"], DECISION_MAKER_COLUMNS, 2)):
        assert [c.value for c in ws[1]] == [c.header for c in columns]
        for header in ws[1]:
            assert header.font.b
            assert header.fill.fill_type == "solid"
            assert header.fill.fgColor.rgb.endswith("1F4E78")
            assert header.border.bottom.style == "thin"
        assert ws.freeze_panes == "A2"
        last = get_column_letter(len(columns))
        assert ws.auto_filter.ref == f"A1:{last}{rows + 1}"
        assert ws.max_row == rows + 1
        for index, column in enumerate(columns, 1):
            assert ws.column_dimensions[get_column_letter(index)].width == column.width
    assert (stats.hotels, stats.decision_makers) == (3, 2)


def test_empty_export_has_headers_and_a_header_only_filter():
    stats, data = save([], [])
    wb = load(data)
    assert wb["Leads"].auto_filter.ref == "A1:X1"
    assert wb["Decision makers"].auto_filter.ref == "A1:L1"
    assert wb["Leads"].max_row == 1
    assert (stats.hotels, stats.decision_makers) == (0, 0)


def test_column_definitions():
    assert [c.header for c in LEAD_COLUMNS] == [
        "Hotel ID", "Hotel", "City", "State", "Address", "ZIP", "Phone", "Website", "Booking engine",
        "Engine tier", "Booking URL", "Rooms", "Rating", "Reviews", "Nearest attraction", "Distance km",
        "Management company", "Property type", "Contact", "Title", "Email", "Email status", "Score", "Launched at",
    ]
    assert [c.header for c in DECISION_MAKER_COLUMNS] == [
        "Hotel ID", "Hotel", "City", "Name", "Title", "Email", "Email status", "Verified", "Verification", "Phone", "Sources",
        "Confidence",
    ]
    assert {c.kind for c in LEAD_COLUMNS if c.header in ("Website", "Booking URL")} == {"url"}
    for columns in (LEAD_COLUMNS, DECISION_MAKER_COLUMNS):
        assert len({c.key for c in columns}) == len(columns)
        assert all(c.width >= len(c.header) + 2 for c in columns)  # the header and its filter button fit
    with pytest.raises(ValueError, match="unknown column kind"):
        Column("X", "x", 10, "currency")


def test_workbook_properties():
    _, data = save([hotel(1)], [], title="Miami, Florida leads")
    props = load(data).properties
    assert props.creator == CREATOR == "sadie_pipeline"
    assert props.title == "Miami, Florida leads"
    assert props.created == FIXED_TIMESTAMP
    assert props.modified == FIXED_TIMESTAMP


# --- cell values --------------------------------------------------------------------------------

def test_numbers_are_numbers_and_dates_are_dates():
    _, data = save([hotel(1, room_count="120", review_count=7.0, nearest_attraction_km=Decimal("0.75"))], [])
    ws = load(data)["Leads"]
    assert cell(ws, 2, LEAD, "hotel_id").value == 1
    assert cell(ws, 2, LEAD, "room_count").value == 120  # numeric text becomes a number
    assert cell(ws, 2, LEAD, "review_count").value == 7
    assert cell(ws, 2, LEAD, "rating").value == 4.5  # Decimal
    assert cell(ws, 2, LEAD, "nearest_attraction_km").value == 0.75
    assert cell(ws, 2, LEAD, "score").value == 87
    for key in ("hotel_id", "room_count", "review_count", "rating", "nearest_attraction_km", "engine_tier", "score"):
        assert cell(ws, 2, LEAD, key).data_type == "n", key
    launched = cell(ws, 2, LEAD, "launched_at")
    assert launched.is_date
    assert launched.value == datetime(2025, 3, 1, 14, 30)  # UTC, without the time zone Excel lacks
    assert launched.number_format == "yyyy-mm-dd hh:mm"


def test_dates_time_zones_and_iso_text():
    eastern = timezone(timedelta(hours=-5))
    rows = [
        hotel(1, launched_at=date(2025, 3, 1)),
        hotel(2, launched_at=datetime(2025, 3, 1, 20, 0, tzinfo=eastern)),
        hotel(3, launched_at="2025-03-04"),
        hotel(4, launched_at="soon"),
    ]
    ws = load(save(rows, [])[1])["Leads"]
    first = cell(ws, 2, LEAD, "launched_at")
    assert first.value == datetime(2025, 3, 1) and first.number_format == "yyyy-mm-dd"
    assert cell(ws, 3, LEAD, "launched_at").value == datetime(2025, 3, 2, 1, 0)
    assert cell(ws, 4, LEAD, "launched_at").value == datetime(2025, 3, 4)
    assert cell(ws, 5, LEAD, "launched_at").value == "soon"


def test_missing_keys_none_empty_and_nan_are_empty_cells():
    _, data = save([{"hotel_id": 7, "name": "", "rating": float("nan"), "room_count": None}], [{}])
    wb = load(data)
    leads = wb["Leads"]
    assert cell(leads, 2, LEAD, "hotel_id").value == 7
    assert [c.value for c in leads[2]][1:] == [None] * (len(LEAD_COLUMNS) - 1)
    assert [c.value for c in wb["Decision makers"][2]] == [None] * len(DECISION_MAKER_COLUMNS)


def test_text_that_is_not_a_number_stays_text_in_a_number_column():
    ws = load(save([hotel(1, room_count="about 40", score=True, review_count="1,500")], [])[1])["Leads"]
    assert cell(ws, 2, LEAD, "room_count").value == "about 40"
    assert cell(ws, 2, LEAD, "review_count").value == "1,500"  # 1.5 or 1500? left as written
    assert cell(ws, 2, LEAD, "score").value == "True"


def test_decision_makers_sheet():
    _, data = save([hotel(1)], [person(1), person(1, full_name="Chloé Rossi", email_verified=False, sources={"b", "a"})],)
    ws = load(data)["Decision makers"]
    assert [c.value for c in ws[2]] == [
        1, "Hotel 1", "Miami", "Ben Smith", "Owner", "ben@hotel1.example.com", "valid", True, "unverified",
        "+1 305 555 0199", "website, rdap", 0.9,
    ]
    assert cell(ws, 2, DM, "email_verified").data_type == "b"
    assert cell(ws, 3, DM, "email_verified").value is False
    assert cell(ws, 3, DM, "sources").value == "a, b"  # a set: sorted
    assert cell(ws, 2, DM, "email").hyperlink.target == "mailto:ben@hotel1.example.com"


def test_characters_an_xlsx_cannot_hold_are_removed_and_whitespace_kept():
    ws = load(save([hotel(1, name="Grand\x00 Hotel\x0b", address="  12 Main St  ", zip="a\nb")], [])[1])["Leads"]
    assert cell(ws, 2, LEAD, "name").value == "Grand Hotel"
    assert cell(ws, 2, LEAD, "address").value == "  12 Main St  "
    assert cell(ws, 2, LEAD, "zip").value == "a\nb"


def test_markup_characters_are_escaped():
    text = 'Bed & Breakfast <"Sea"> </sheetData>'
    ws = load(save([hotel(1, name=text)], [person(1, title=text)])[1])["Leads"]
    assert cell(ws, 2, LEAD, "name").value == text


# --- formula injection --------------------------------------------------------------------------

@pytest.mark.parametrize("text", INJECTIONS)
def test_formula_injection_text_stays_text(text):
    rows = [hotel(1, name=text, contact_title=text, website=text, email=text, zip=text)]
    wb = load(save(rows, [person(1, full_name=text, email=text)])[1])
    leads, people = wb["Leads"], wb["Decision makers"]
    for ws, row, columns, key in (
        (leads, 2, LEAD, "name"), (leads, 2, LEAD, "contact_title"), (leads, 2, LEAD, "zip"),
        (leads, 2, LEAD, "website"), (leads, 2, LEAD, "email"), (people, 2, DM, "full_name"), (people, 2, DM, "email"),
    ):
        guarded = cell(ws, row, columns, key)
        assert guarded.data_type == "s", key
        assert guarded.value == text, key
        assert guarded.quotePrefix, key
        assert guarded.hyperlink is None, key


def test_carriage_return_prefix_is_text_and_kept():
    ws = load(save([hotel(1, name="\r=1+1")])[1])["Leads"]
    guarded = cell(ws, 2, LEAD, "name")
    assert (guarded.data_type, guarded.value, guarded.quotePrefix) == ("s", "\r=1+1", True)


def test_no_formula_is_ever_written():
    rows = [hotel(i, name=text, address=text) for i, text in enumerate(INJECTIONS + ["=A1", "=SUM(1,2)"], 1)]
    _, data = save(rows, [person(1, title="=1+1")])
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/sheet"):
                assert b"<f>" not in z.read(name), name


# --- hyperlinks ---------------------------------------------------------------------------------

def test_hyperlinks_for_url_and_email_columns():
    rows = [hotel(1), hotel(2, website="www.palm.example.com", booking_url="javascript:alert(1)", email="not an email")]
    ws = load(save(rows, [])[1])["Leads"]
    website, booking, email = (cell(ws, 2, LEAD, k) for k in ("website", "booking_url", "email"))
    assert website.hyperlink.target == website.value == "https://hotel1.example.com/"
    assert booking.hyperlink.target == "https://booking.example.com/h1?a=1&b=2"
    assert email.hyperlink.target == "mailto:gm@hotel1.example.com"
    for link in (website, booking, email):
        assert link.font.u == "single"
        assert link.font.color.rgb.endswith("0563C1")
    assert cell(ws, 3, LEAD, "website").hyperlink.target == "https://www.palm.example.com"  # bare domain
    assert cell(ws, 3, LEAD, "website").value == "www.palm.example.com"
    for key, text in (("booking_url", "javascript:alert(1)"), ("email", "not an email")):
        plain = cell(ws, 3, LEAD, key)
        assert plain.hyperlink is None and plain.value == text
    assert cell(ws, 2, LEAD, "name").hyperlink is None  # text columns have no links


@pytest.mark.parametrize(
    "kind, text, target",
    [
        ("url", "https://a.example.com/x?y=1", "https://a.example.com/x?y=1"),
        ("url", "HTTP://A.EXAMPLE.COM", "HTTP://A.EXAMPLE.COM"),
        ("url", "a.example.com/path", "https://a.example.com/path"),
        ("url", " https://a.example.com ", "https://a.example.com"),
        ("url", "ftp://a.example.com", None),
        ("url", "javascript:alert(1)", None),
        ("url", "https://a.example.com/has space", None),
        ("url", "https://a.example.com/" + "x" * 2100, None),  # past Excel's 2,079 characters
        ("url", "localhost", None),
        ("email", "gm@hotel.example.com", "mailto:gm@hotel.example.com"),
        ("email", "gm@hotel", None),
        ("email", "a b@hotel.example.com", None),
        ("text", "https://a.example.com", None),
    ],
)
def test_link_target(kind, text, target):
    assert link_target(kind, text) == target


def test_hyperlinks_stop_at_excels_per_sheet_limit():
    people = (person(i, email=f"p{i}@example.com", hotel_name=None, city=None, title=None, email_status=None,
                     email_verified=None, phone=None, sources=None, confidence=None)
              for i in range(MAX_HYPERLINKS_PER_SHEET + 5))
    _, data = save([], people)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        sheet = z.read("xl/worksheets/sheet2.xml").decode()
        rels = z.read("xl/worksheets/_rels/sheet2.xml.rels").decode()
    assert sheet.count("<hyperlink ") == MAX_HYPERLINKS_PER_SHEET
    assert rels.count("<Relationship ") == MAX_HYPERLINKS_PER_SHEET
    last_row = MAX_HYPERLINKS_PER_SHEET + 6
    assert f'ref="F{last_row - 5}"' in sheet and f'ref="F{last_row - 4}"' not in sheet
    assert re.search(rf'<c r="F{last_row}" t="inlineStr"><is><t>p{MAX_HYPERLINKS_PER_SHEET + 4}@example.com</t>', sheet)


# --- digest and idempotency ---------------------------------------------------------------------

def test_digest_is_the_rows_digest_of_both_sheets():
    stats, _ = save([hotel(1, launched_at=None, rating=4.5)], [person(1)])
    values = list(hotel(1, launched_at=None, rating=4.5).values())
    values[LEAD["hotel_id"]] = 1
    expected = rows_digest([
        ["sheet", "Leads"], [c.header for c in LEAD_COLUMNS], values,
        ["sheet", "Decision makers"], [c.header for c in DECISION_MAKER_COLUMNS],
        [1, "Hotel 1", "Miami", "Ben Smith", "Owner", "ben@hotel1.example.com", "valid", True, "unverified",
         "+1 305 555 0199", "website, rdap", 0.9],
    ])
    assert stats.digest == expected


def test_same_data_same_digest_and_same_bytes():
    stats_a, data_a = save([hotel(1), hotel(2)], [person(1)])
    reordered = [dict(reversed(list(hotel(i).items()))) for i in (1, 2)]
    stats_b, data_b = save(reordered, [dict(reversed(list(person(1).items())))])
    assert stats_a.digest == stats_b.digest
    assert data_a == data_b  # byte-stable: fixed zip timestamps and properties
    with zipfile.ZipFile(io.BytesIO(data_a)) as z:
        assert {info.date_time for info in z.infolist()} == {FIXED_TIMESTAMP.timetuple()[:6]}


def test_digest_changes_with_the_data():
    base = save([hotel(1)], [person(1)])[0].digest
    assert save([hotel(1, rating=4.6)], [person(1)])[0].digest != base
    assert save([hotel(1)], [person(1, title="CEO")])[0].digest != base
    assert save([hotel(1), hotel(2)], [person(1)])[0].digest != base
    assert save([hotel(1)], [])[0].digest != base
    assert save([hotel(1)], [person(1)], title="Other title")[0].digest == base  # the data, not the title


def reference(rows, people) -> bytes:
    """The same cells built one by one through openpyxl's public API (what the writer replaced)."""
    book = Workbook()
    book.remove(book.active)
    for name, columns, records in ((LEADS_SHEET, LEAD_COLUMNS, rows), (DECISION_MAKERS_SHEET, DECISION_MAKER_COLUMNS,
                                                                       people)):
        ws = book.create_sheet(name)
        for col, column in enumerate(columns, 1):
            header = ws.cell(1, col, column.header)
            header.font, header.fill = Font(bold=True, color="FFFFFF"), PatternFill("solid", start_color="1F4E78")
        for row, record in enumerate(records, 2):
            for col, column in enumerate(columns, 1):
                value = _CONVERTERS[column.kind](record.get(column.key))  # conversions: tested above
                if value is None:
                    continue
                target = ws.cell(row, col)
                target.value = value
                if isinstance(value, str):
                    target.data_type = "s"  # never a formula
                    link = None if is_formula_like(value) else link_target(column.kind, value)
                    target.quotePrefix = is_formula_like(value)
                    if link:
                        target.hyperlink, target.font = link, Font(color="0563C1", underline="single")
                elif isinstance(value, datetime):
                    target.number_format = "yyyy-mm-dd hh:mm"
                elif isinstance(value, date):
                    target.number_format = "yyyy-mm-dd"
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def test_cells_are_those_openpyxl_would_write():
    rows = [hotel(i, name=INJECTIONS[i % len(INJECTIONS)] if i % 3 == 0 else f"Hotel {i}",
                  email=None if i % 4 == 0 else f"gm@h{i}.example.com", launched_at=date(2025, 1, i),
                  address="  Bed & Breakfast <b> " if i == 5 else f"{i} Ocean Drive", booking_url="bad url")
            for i in range(1, 13)]
    rows.append(hotel(13, launched_at=datetime(1900, 1, 5, 6, 30), room_count="about 40", score=True))
    people = [person(i, email_verified=bool(i % 2), sources=[]) for i in range(1, 9)]
    people = [{**p, "email_verification": email_verification_label(p)} for p in people]  # the sheet derives it

    def cells(data: bytes) -> list:
        out = []
        for ws in load(data).worksheets:
            for row in ws.iter_rows():
                for c in row:
                    out.append((ws.title, c.coordinate, c.value, c.data_type, c.number_format, c.quotePrefix,
                                c.hyperlink.target if c.hyperlink else None, c.font.b, c.font.u, c.fill.fill_type))
        return out

    assert cells(save(rows, people)[1]) == cells(reference(rows, people))


# --- streaming and targets ----------------------------------------------------------------------

def test_streams_hotels_then_decision_makers_from_generators():
    events: list[str] = []

    def hotels():
        for i in range(1, 501):
            events.append("hotel")
            yield hotel(i)
        events.append("hotels done")

    def people():
        events.append("people start")
        for i in range(1, 751):
            yield person(i)

    stats, data = save(hotels(), people())
    assert events.index("people start") == events.index("hotels done") + 1  # one after the other
    assert (stats.hotels, stats.decision_makers) == (500, 750)
    wb = load(data)
    assert wb["Leads"].max_row == 501 and wb["Decision makers"].max_row == 751
    assert cell(wb["Leads"], 501, LEAD, "hotel_id").value == 500


def test_writes_to_a_path_atomically(tmp_path):
    target = tmp_path / "Miami.xlsx"
    stats = write_leads_workbook(target, [hotel(1)], [person(1)], title="Miami")
    assert load_workbook(target)["Leads"]["A2"].value == 1
    assert stats.hotels == 1
    assert [p.name for p in tmp_path.iterdir()] == ["Miami.xlsx"]


def test_a_failing_source_leaves_no_file(tmp_path):
    target = tmp_path / "Miami.xlsx"

    def broken():
        yield hotel(1)
        raise RuntimeError("cursor lost")

    with pytest.raises(RuntimeError, match="cursor lost"):
        write_leads_workbook(target, broken(), [], title="Miami")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_keeps_the_previous_file(tmp_path):
    target = tmp_path / "Miami.xlsx"
    write_leads_workbook(target, [hotel(1)], [], title="Miami")
    before = target.read_bytes()

    def broken():
        raise RuntimeError("cursor lost")
        yield  # pragma: no cover

    with pytest.raises(RuntimeError):
        write_leads_workbook(target, [hotel(2)], broken(), title="Miami")
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["Miami.xlsx"]


def test_workbook_digest_matches_the_written_file_without_writing_one():
    from sadie_pipeline.hotels.exports.workbook import workbook_digest

    hotels = [{"hotel_id": 1, "name": "=SUM(A1)", "rating": 4.5, "website": "https://a.test/"}, {"hotel_id": 2}]
    people = [{"hotel_id": 1, "full_name": "Ann Lee", "email_verified": True, "confidence": 0.8}]
    stats = write_leads_workbook(io.BytesIO(), hotels, people, title="t")
    assert workbook_digest(hotels, people) == stats.digest
    assert workbook_digest(hotels, people[:0]) != stats.digest
