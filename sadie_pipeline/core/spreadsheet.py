"""Spreadsheet helpers for the lead exports (seed 000, Stage 6): the formula-injection guard,
column widths and the digest that makes an export idempotent. Pure: no Dagster, no I/O.

Formula injection (OWASP "CSV Injection"): a cell whose text starts with ``=``, ``+``, ``-``
or ``@`` (or with a tab or carriage return, or with any of these after leading whitespace, or
with their full-width forms) may be run as a formula by a spreadsheet. openpyxl makes any
``str`` starting with ``=`` a formula cell, and Excel re-parses the other prefixes when a user
edits the cell. ``safe_cell`` therefore returns such text as an openpyxl ``Cell`` whose type is
forced to text (``data_type = "s"``, written as an inline string) and, when it knows the sheet,
whose style carries ``quotePrefix`` — what Excel itself stores when a user types ``'=1+1``: the
cell shows the original text, unchanged (no visible apostrophe), and stays text when edited.
We do NOT prefix the value with a quote character: in a file (unlike typed input) that quote
is part of the value, so Excel would show it and a reader would get a different string.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from openpyxl.cell.cell import Cell

#: First characters that make a spreadsheet evaluate text: = + - @, tab, CR (OWASP), and the
#: full-width = + - @ that some Excel input methods treat the same way.
FORMULA_TRIGGERS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")

#: Characters XML 1.0 (so an .xlsx file) cannot hold; openpyxl raises on the control ones and
#: the writer fails on lone surrogates, so they are removed.
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

#: Excel's limit on the characters of one cell.
MAX_CELL_CHARS = 32767


def is_formula_like(text: str) -> bool:
    """True when a spreadsheet could take `text` for a formula (see the module docstring)."""
    if not text:
        return False
    first = text[0]
    if first in FORMULA_TRIGGERS:
        return True
    if first.isspace():
        rest = text.lstrip()
        return bool(rest) and rest[0] in FORMULA_TRIGGERS
    return False


def clean_text(text: str) -> str:
    """`text` without the characters an xlsx cannot hold, cut to Excel's 32,767 characters."""
    if _ILLEGAL.search(text):
        text = _ILLEGAL.sub("", text)
    return text[:MAX_CELL_CHARS]


def safe_cell(value: Any, sheet: Any = None) -> Any:
    """A value that is safe to append to an openpyxl worksheet.

    Non-strings are returned unchanged. Strings lose the characters an xlsx cannot hold; a
    string a spreadsheet could take for a formula (``is_formula_like``) comes back as an
    openpyxl ``Cell`` holding the original text as text: ``data_type == "s"`` (never ``"f"``)
    and, when `sheet` (the worksheet it will be appended to, write-only or not) is given, the
    ``quotePrefix`` style, so Excel shows the text as is and keeps it text when edited. Without
    `sheet` the cell is detached and unstyled (styles need the workbook): a normal worksheet's
    ``append`` adopts it, a write-only one cannot (pass that sheet).
    """
    if not isinstance(value, str):
        return value
    text = clean_text(value)
    if not is_formula_like(text):
        return text
    cell = Cell(sheet, 1, 1, text)  # (row, column: set by append); openpyxl types "=..." as a formula here ...
    cell.data_type = "s"  # ... so force text: written as <c t="inlineStr"><is><t>=...</t></is></c>
    if sheet is not None:
        cell.quotePrefix = True
    return cell


# --- column widths ------------------------------------------------------------------------------

def _display_width(text: str) -> int:
    """Width in Excel's character units of the longest line; East Asian wide characters count 2."""
    widest = 0
    for line in text.splitlines() or [""]:
        if line.isascii():
            width = len(line)
        else:
            width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)
        widest = width if width > widest else widest
    return widest


def _display_text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.10g}"  # about what Excel's General format shows
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "FALSE" if not value else "TRUE"
    return str(value)


def column_width(header: str, sample_values: Iterable[Any], min: float = 8, max: float = 60) -> float:
    """A column width (Excel character units) that fits `header` and the widest sample value,
    plus 2 for padding and the autofilter button, kept within [`min`, `max`]. None values are
    ignored; multi-line values count their longest line."""
    widest = _display_width(header)
    for value in sample_values:
        if value is None:
            continue
        width = _display_width(_display_text(value))
        if width > widest:
            widest = width
    width = float(widest + 2)
    if width < min:
        return float(min)
    if width > max:
        return float(max)
    return width


# --- digest -------------------------------------------------------------------------------------

def _canonical(value: Any) -> Any:
    """JSON stand-in for the values json cannot encode (called by json.dumps)."""
    if isinstance(value, datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, date):
        return {"date": value.isoformat()}
    if isinstance(value, time):
        return {"time": value.isoformat()}
    if isinstance(value, Decimal):
        return float(value)  # the number Excel will hold: Decimal("4.50") is 4.5, as the float
    if isinstance(value, Cell):
        return value.value
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=_sort_key)
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": bytes(value).hex()}
    if isinstance(value, Sequence):
        return list(value)
    return {type(value).__qualname__: str(value)}


def _sort_key(value: Any) -> str:
    return _row_json([value])


def _row_json(row: Any) -> str:
    try:
        return json.dumps(row, sort_keys=True, default=_canonical, ensure_ascii=False, separators=(",", ":"))
    except TypeError:  # dict keys of mixed types cannot be sorted: order them by their JSON
        return json.dumps(_sorted_keys(row), default=_canonical, ensure_ascii=False, separators=(",", ":"))


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, Mapping):
        items = sorted(((_row_json(k), _sorted_keys(v)) for k, v in value.items()), key=lambda kv: kv[0])
        return [["map"], *items]
    if isinstance(value, (list, tuple)):
        return [_sorted_keys(v) for v in value]
    return value


class RowsDigest:
    """The streaming form of `rows_digest`: ``update(row)`` for each row, then ``hexdigest()``."""

    __slots__ = ("_hash", "rows")

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.rows = 0

    def update(self, row: Sequence[Any]) -> None:
        if not isinstance(row, (list, tuple)):
            row = list(row)
        self._hash.update(_row_json(row).encode("utf-8", "surrogatepass"))
        self._hash.update(b"\n")
        self.rows += 1

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def rows_digest(rows: Iterable[Sequence[Any]]) -> str:
    """A stable sha256 (hex) of rows of cell values, to tell an export whose data did not change.

    Each row is hashed as canonical JSON (one line per row), so the digest depends only on the
    values and their order in the row: dicts nested in a value are hashed with sorted keys, sets
    sorted; floats by their shortest round-trip repr (stable across runs and platforms; an int
    and the equal float differ, as their types do); a Decimal as the float Excel would hold;
    dates and datetimes as ISO 8601 tagged with their type (so the date 2024-01-02 is not the
    text "2024-01-02"); None as null, distinct from "". A ``safe_cell`` Cell counts as its text.
    Rows are consumed once, as a stream.
    """
    digest = RowsDigest()
    for row in rows:
        digest.update(row)
    return digest.hexdigest()

