"""The lead-export workbook (seed 000, "Stage 6: Export"): one .xlsx per city or state with a
"Leads" sheet (one row per hotel) and a "Decision makers" sheet, streamed with the project's own
small xlsx writer (`core.xlsx`): no library internals, nothing held in memory but a sheet's
hyperlinks.

Streaming: rows are written as they are read, straight into their sheet's compressed zip entry.
`hotels` is consumed completely before `decision_makers` is first touched (the first sheet ends
before the second starts), so each can be a lazy generator over its own query.

Each sheet has its column widths, a frozen, styled header row (bold white on dark blue, thin
borders) and an autofilter over the written range. Cells: numbers are numbers, dates are dates
(datetimes with a time zone are converted to UTC, Excel has none; a date format for each), booleans
are booleans, lists are joined with ", ", characters an xlsx cannot hold are removed, and text a
spreadsheet could take for a formula (`core.spreadsheet.is_formula_like`) is stored as text with
the quotePrefix style, never as a formula. Links: url and email cells are hyperlinks (Excel's blue
underlined look), up to Excel's 65,530 per worksheet; past that, and for an address that is not a
plain http(s) URL (a bare domain gets https://) or e-mail address, or is longer than Excel's
2,079 characters, the text is written without a link.

Idempotency: `WorkbookStats.digest` is `core.spreadsheet.rows_digest` of both sheets' data
(sheet names, headers, the converted cell values), so the same data gives the same digest
whatever the dict ordering; the file is byte-stable too (every zip entry and the core properties
carry FIXED_TIMESTAMP).
"""

from __future__ import annotations

import math
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

from sadie_pipeline.core.spreadsheet import RowsDigest, clean_text, is_formula_like
from sadie_pipeline.core.xlsx import Style, XlsxPackage, column_letter, excel_serial, text_cell

__all__ = [
    "DECISION_MAKER_COLUMNS",
    "email_verification_label",
    "LEAD_COLUMNS",
    "MAX_HYPERLINKS_PER_SHEET",
    "Column",
    "WorkbookStats",
    "link_target",
    "workbook_digest",
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
    Column("Verification", "email_verification", 14),
    Column("Phone", "phone", 18),
    Column("Sources", "sources", 24),
    Column("Confidence", "confidence", 12, "float"),
)

# An address's verification state for sales: only a mailbox check makes it "verified".
_VERIFIED_STATUSES = frozenset({"verified_smtp", "verified_o365"})
_LABELS = {"catch_all": "catch-all", "pattern_guess": "guessed", "rejected": "rejected"}


def email_verification_label(person: Mapping[str, Any]) -> str | None:
    """verified | catch-all | guessed | rejected | unverified (None without an address or a
    rejection): verified only when a mailbox check said so (status and flag agree)."""
    status = person.get("email_status")
    if not person.get("email"):
        return "rejected" if status == "rejected" else None
    if status in _VERIFIED_STATUSES:
        return "verified" if person.get("email_verified") else "unverified"
    return _LABELS.get(status or "", "unverified")


def _with_verification(decision_makers: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for person in decision_makers:
        yield {**person, "email_verification": email_verification_label(person)}


LEADS_SHEET = "Leads"
DECISION_MAKERS_SHEET = "Decision makers"

#: Excel drops the hyperlinks of a worksheet past this many (XlsxWriter's documented limit).
MAX_HYPERLINKS_PER_SHEET = 65_530
#: Excel cannot open a hyperlink address longer than this.
MAX_URL_CHARS = 2_079

CREATOR = "sadie_pipeline"
#: The created/modified stamp of every export (core properties) and of every zip entry, so the
#: same data gives the same bytes. The export time is recorded in sadie_gtm.lead_exports.
FIXED_TIMESTAMP = datetime(2024, 1, 1)

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


# --- writing ----------------------------------------------------------------------------------

_DATE_STYLE = f' s="{Style.DATE:d}"'
_DATETIME_STYLE = f' s="{Style.DATETIME:d}"'


def _values(records: Iterable[Mapping[str, Any]], columns: tuple[Column, ...],
            digest: RowsDigest) -> Iterator[list[Any]]:
    """Each record's converted cell values, added to the digest."""
    converters, update = [(c.key, _CONVERTERS[c.kind]) for c in columns], digest.update
    for record in records:
        get = record.get
        values = [convert(get(key)) for key, convert in converters]
        update(values)
        yield values


def _write_sheet(package: XlsxPackage, name: str, columns: tuple[Column, ...],
                 records: Iterable[Mapping[str, Any]], digest: RowsDigest) -> int:
    """The sheet's header and one row per record; returns the number of records."""
    letters = [column_letter(i) for i in range(1, len(columns) + 1)]
    kinds = [c.kind for c in columns]
    digest.update(["sheet", name])
    digest.update([c.header for c in columns])
    with package.sheet([c.width for c in columns]) as sheet:
        sheet.add_row("".join(text_cell(f"{letter}1", c.header, Style.HEADER) for letter, c in zip(letters, columns)))
        for values in _values(records, columns, digest):
            row = sheet.next_row
            parts = []
            for value, letter, kind in zip(values, letters, kinds):
                cls = value.__class__  # the hot loop: the two common kinds inline
                if cls is str:
                    parts.append(_text(sheet, f"{letter}{row}", value, kind))
                elif cls is int or cls is float:
                    parts.append(f'<c r="{letter}{row}"><v>{value!r}</v></c>')
                elif value is not None:
                    parts.append(_other_cell(sheet, f"{letter}{row}", value, kind))
            sheet.add_row("".join(parts))
        return sheet.next_row - 2


def _other_cell(sheet: Any, ref: str, value: Any, kind: str) -> str:
    """A boolean, date or date-time cell (or a str, int or float subclass)."""
    cls = value.__class__
    if cls is bool:
        return f'<c r="{ref}" t="b"><v>{value:d}</v></c>'
    if isinstance(value, datetime):
        return f'<c r="{ref}"{_DATETIME_STYLE}><v>{excel_serial(value)!r}</v></c>'
    if isinstance(value, date):
        return f'<c r="{ref}"{_DATE_STYLE}><v>{excel_serial(value)!r}</v></c>'
    if isinstance(value, str):  # a str subclass
        return _text(sheet, ref, str(value), kind)
    return f'<c r="{ref}"><v>{float(value)!r}</v></c>'  # an int or float subclass


def _text(sheet: Any, ref: str, text: str, kind: str) -> str:
    if is_formula_like(text):
        return text_cell(ref, text, Style.QUOTED)
    if kind in ("url", "email") and len(sheet.links) < MAX_HYPERLINKS_PER_SHEET:
        target = link_target(kind, text)
        if target is not None:
            sheet.link(ref, target)
            return text_cell(ref, text, Style.LINK)
    return text_cell(ref, text)


def _write(fileobj: BinaryIO, hotels: Iterable[Mapping[str, Any]], decision_makers: Iterable[Mapping[str, Any]],
           title: str) -> WorkbookStats:
    digest = RowsDigest()
    with XlsxPackage(fileobj, [LEADS_SHEET, DECISION_MAKERS_SHEET], title=title, creator=CREATOR,
                     timestamp=FIXED_TIMESTAMP) as package:
        hotel_count = _write_sheet(package, LEADS_SHEET, LEAD_COLUMNS, hotels, digest)
        dm_count = _write_sheet(package, DECISION_MAKERS_SHEET, DECISION_MAKER_COLUMNS, decision_makers, digest)
    return WorkbookStats(hotels=hotel_count, decision_makers=dm_count, digest=digest.hexdigest())


def write_leads_workbook(
    target: str | os.PathLike[str] | BinaryIO,
    hotels: Iterable[Mapping[str, Any]],
    decision_makers: Iterable[Mapping[str, Any]],
    *,
    title: str,
) -> WorkbookStats:
    """Write the lead workbook to `target` (a path, written atomically, or a binary file object)
    from `hotels` (dicts keyed by `LEAD_COLUMNS` keys) and then `decision_makers` (dicts keyed by
    `DECISION_MAKER_COLUMNS` keys); a missing key is an empty cell. Both are streamed. A person's
    "Verification" is derived from their e-mail status (`email_verification_label`)."""
    decision_makers = _with_verification(decision_makers)
    if not isinstance(target, (str, os.PathLike)):
        return _write(target, hotels, decision_makers, title)
    path = Path(target)
    partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.partial")
    try:
        with open(partial, "wb") as fh:
            stats = _write(fh, hotels, decision_makers, title)
        os.replace(partial, path)  # readers see the old file or the new one, never a partial one
    finally:
        partial.unlink(missing_ok=True)
    return stats


def workbook_digest(hotels: Iterable[Mapping[str, Any]], decision_makers: Iterable[Mapping[str, Any]]) -> str:
    """The digest `write_leads_workbook` would report for these rows, without writing anything:
    an export compares it with the last one before building the file."""
    digest = RowsDigest()
    for sheet, columns, records in ((LEADS_SHEET, LEAD_COLUMNS, hotels),
                                    (DECISION_MAKERS_SHEET, DECISION_MAKER_COLUMNS, _with_verification(decision_makers))):
        digest.update(["sheet", sheet])
        digest.update([c.header for c in columns])
        converters = [(c.key, _CONVERTERS[c.kind]) for c in columns]
        for record in records:
            get = record.get
            digest.update([convert(get(key)) for key, convert in converters])
    return digest.hexdigest()
