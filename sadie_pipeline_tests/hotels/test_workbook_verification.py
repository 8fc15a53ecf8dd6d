"""The decision-makers sheet labels each address's verification state: only a mailbox check makes
it "verified", a pattern guess is "guessed" (read back from the saved file with openpyxl)."""

from __future__ import annotations

import io

from openpyxl import load_workbook

from sadie_pipeline.hotels.exports.workbook import DECISION_MAKER_COLUMNS, workbook_digest, write_leads_workbook

PEOPLE = [
    ("Ana Smtp", "ana@h.test", "verified_smtp", True, "verified"),
    ("Bo Ms", "bo@h.test", "verified_o365", True, "verified"),
    ("Cy Catch", "cy@h.test", "catch_all", False, "catch-all"),
    ("Di Guess", "di@h.test", "pattern_guess", False, "guessed"),
    ("Ed Found", "ed@h.test", "valid_domain", False, "unverified"),
    ("Fay Unknown", "fay@h.test", "unknown", False, "unverified"),
    ("Gus Role", "info@h.test", "role_account", False, "unverified"),
    ("Hal Gone", None, "rejected", False, "rejected"),
    ("Ivy Flag", "ivy@h.test", "valid_domain", True, "unverified"),  # a flag without a check is not enough
    ("Jo None", None, None, False, None),
]


def test_decision_makers_sheet_labels_verification():
    people = [{"hotel_id": 1, "hotel_name": "H", "full_name": name, "email": email, "email_status": status,
               "email_verified": flag, "sources": "website_scrape, cc_harvest"} for name, email, status, flag, _ in PEOPLE]
    out = io.BytesIO()
    stats = write_leads_workbook(out, [], people, title="t")
    assert stats.digest == workbook_digest([], people)
    sheet = load_workbook(io.BytesIO(out.getvalue()))["Decision makers"]
    headers = [c.value for c in sheet[1]]
    label, name, sources = (headers.index(h) for h in ("Verification", "Name", "Sources"))
    got = {row[name]: row[label] for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert got == {p[0]: p[4] for p in PEOPLE}
    assert all(row[sources] == "website_scrape, cc_harvest" for row in sheet.iter_rows(min_row=2, values_only=True))
    assert [c.header for c in DECISION_MAKER_COLUMNS].count("Verification") == 1
