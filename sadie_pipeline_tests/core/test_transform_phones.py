"""Phones of records filed under another country than the DMO's default (test_transform's helpers)."""

from __future__ import annotations

import pytest

from sadie_pipeline_tests.core.test_transform import make_transformer, ok, raw_record


@pytest.mark.parametrize(("country", "tel", "e164"), [("DE", "030 8403493", "+49308403493"),
                                                      ("FR", "01 48 37 20 00", "+33148372000")])
def test_phone_read_as_the_records_country_writes_it(country, tel, e164):
    """Its national form is read as its country writes it, not as the DMO's default country does."""
    rec = ok(make_transformer({"transform": {"default_country": "US"}})(raw_record(Tel=tel, Country=country)))
    assert rec["international_phone"] == e164


def test_a_phone_its_country_cannot_read_is_read_as_the_dmos():
    """A North American number on a record filed under France is still that number."""
    rec = ok(make_transformer()(raw_record(Tel="902.555.0142", Country="fr")))
    assert rec["international_phone"] == "+19025550142"
