"""The sensor's pure parts: messages into runs per region (a domain's messages in one run, unknown
regions and unreadable bodies left to the dead-letter queue) and DLQ messages as dead letters."""

from __future__ import annotations

from sadie_pipeline.core.hybrid import bounded_body, prospect_message
from sadie_pipeline.hybrid.definitions import dead_letter_outcomes, run_requests
from sadie_pipeline.hybrid.queue import Received


def _received(website: str, region: str, n: int) -> Received:
    return Received(f"id-{n}", f"receipt-{n}", bounded_body(prospect_message({"website": website}, region)), 1)


def test_runs_per_region_of_at_most_run_size() -> None:
    messages = [_received(f"inn{i}.test", "US-FL", i) for i in range(7)] + [_received("lodge.test", "US-GA", 7)]
    messages.append(Received("id-bad", "receipt-bad", "not json", 2))
    requests, unreadable = run_requests(messages, run_size=3)
    assert unreadable == 1
    assert [(r.partition_key, len(r.run_config["ops"]["hybrid_enrichment"]["config"]["messages"])) for r in requests] == [
        ("US-FL", 3), ("US-FL", 3), ("US-FL", 1), ("US-GA", 1)]
    assert len({r.run_key for r in requests}) == 4


def test_a_domain_sent_twice_lands_in_one_run() -> None:
    messages = [_received("a.test", "US-FL", 0), _received("b.test", "US-FL", 1), _received("c.test", "US-FL", 2),
                _received("a.test", "US-FL", 3)]
    requests, _ = run_requests(messages, run_size=2)
    runs = [[m["receipt"] for m in r.run_config["ops"]["hybrid_enrichment"]["config"]["messages"]] for r in requests]
    assert ["receipt-0", "receipt-3"] in runs


def test_dead_letters_by_domain_or_message() -> None:
    good = _received("inn.test", "US-FL", 0)
    outcomes = dead_letter_outcomes([Received(good.message_id, good.receipt, good.body, 4),
                                     Received("m-1", "r", '{"domain": 42}', 4)])
    assert [(o.item_key, o.attempts, o.status) for o in outcomes] == [
        ("domain:inn.test", 3, "dead_letter"), ("message:m-1", 3, "dead_letter")]
    assert outcomes[1].last_error.startswith("not a prospect")
