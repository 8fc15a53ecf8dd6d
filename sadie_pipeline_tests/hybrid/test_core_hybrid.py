"""core/hybrid.py: the message model, its id, size bound and batches, the index's freshness and
the sync rule (pure: no queue, no store)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from pydantic import ValidationError

from sadie_pipeline.core.hybrid import (
    MAX_BODY_BYTES,
    IndexEntry,
    IndexState,
    ProspectMessage,
    batches,
    bounded_body,
    domain_of,
    is_fresh,
    message_id,
    newer_than_pulled,
    parse_body,
    parse_index,
    prospect_message,
    unique_by_id,
)

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(("website", "domain"), [
    ("http://www.Duval-Inn.test/rooms?x=1", "duval-inn.test"), ("duvalinn.com", "duvalinn.com"),
    ("https://book.duvalinn.com:8443/", "book.duvalinn.com"), ("", None), (None, None), ("not a site", None),
    ("http://localhost/", None)])
def test_domain_of(website, domain) -> None:
    assert domain_of(website) == domain


def test_message_id_is_stable_per_domain_and_region() -> None:
    assert message_id("inn.test", "US-FL") == message_id("INN.test", "us-fl")
    assert message_id("inn.test", "US-FL") != message_id("inn.test", "US-GA")
    a = prospect_message({"website": "http://www.inn.test/", "name": "Inn"}, "US-FL")
    b = prospect_message({"website": "inn.test", "name": "The Inn", "rating": 4.5}, "us-fl")
    assert a.message_id == b.message_id and b.metadata == {"rating": 4.5}
    assert prospect_message({"website": None, "name": "No site"}, "US-FL") is None
    assert [m.name for m in unique_by_id([a, b])] == ["Inn"]


def test_unknown_fields_are_refused() -> None:
    body = prospect_message({"website": "inn.test"}, "US-FL").model_dump()
    with pytest.raises(ValidationError):
        ProspectMessage.model_validate({**body, "priority": 1})
    with pytest.raises(ValueError):
        parse_body('{"domain": 42}')


def test_bounded_body_cuts_metadata_never_the_domain() -> None:
    big = prospect_message({"website": "inn.test", "name": "Inn", "reviews": "x" * 20_000,
                            **{f"k{i}": "y" * 400 for i in range(40)}}, "US-FL")
    body = bounded_body(big)
    assert len(body.encode()) <= MAX_BODY_BYTES
    back = parse_body(body)
    assert back.domain == "inn.test" and back.message_id == big.message_id and back.metadata["truncated"] is True
    small = prospect_message({"website": "inn.test"}, "US-FL")
    assert parse_body(bounded_body(small)) == small


def test_batches_of_ten() -> None:
    assert [len(b) for b in batches(range(23))] == [10, 10, 3]
    assert list(batches([])) == []


def _entry(at: dt.datetime, domain: str = "inn.test") -> IndexEntry:
    return IndexEntry(domain=domain, region="US-FL", state=IndexState.ENRICHED, enriched_at=at,
                      result_key=f"enriched/US-FL/{domain}.json", message_id="m")


def test_freshness() -> None:
    assert not is_fresh(None, NOW)
    assert is_fresh(_entry(NOW - dt.timedelta(days=29)), NOW)
    assert not is_fresh(_entry(NOW - dt.timedelta(days=31)), NOW)
    assert not is_fresh(_entry(NOW - dt.timedelta(hours=2)), NOW, dt.timedelta(hours=1))
    assert parse_index(b"{broken") is None and parse_index(None) is None
    assert parse_index(_entry(NOW).model_dump_json().encode()) == _entry(NOW)


def test_sync_rule_is_per_domain() -> None:
    entry = _entry(NOW)
    assert newer_than_pulled(entry, {})
    assert not newer_than_pulled(entry, {"inn.test": NOW.isoformat()})
    # enriched again after the pull: new again; an older pull of another domain says nothing
    assert newer_than_pulled(_entry(NOW + dt.timedelta(seconds=1)), {"inn.test": NOW.isoformat()})
    assert newer_than_pulled(_entry(NOW - dt.timedelta(days=1), "old.test"), {"inn.test": NOW.isoformat()})


@pytest.mark.parametrize(("domain", "region"), [("../../etc", "US-FL"), ("inn.test/x", "US-FL"),
                                                ("inn.test", "../US"), ("inn.test", "us-fl")])
def test_a_message_or_index_naming_no_domain_or_region_is_refused(domain: str, region: str) -> None:
    """Domains and regions become object keys and local file names: anything else is not ours."""
    body = prospect_message({"website": "inn.test"}, "US-FL").model_dump() | {"domain": domain, "region": region}
    with pytest.raises(ValueError):
        parse_body(json.dumps(body))
    index = _entry(NOW).model_dump(mode="json") | {"domain": domain, "region": region}
    assert parse_index(json.dumps(index).encode()) is None
