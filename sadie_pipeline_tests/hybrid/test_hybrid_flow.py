"""The hybrid scenario end to end on real parts: the sandbox's Serper and hotel websites, moto's SQS
and S3 over HTTP (boto3), PostgreSQL; the cloud side is the sensor's tick and the job's runs (in
this process; test_daemon_sensor.py has a real daemon)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import boto3
import pytest
from click.testing import CliRunner
from dagster import DagsterInstance

from sadie_pipeline.cli import main
from sadie_pipeline.core.hybrid import LAYER, index_key, parse_body, parse_index, prospect_message, result_keys
from sadie_pipeline.hybrid.sync import SYNC_FILE
from sadie_pipeline_tests.hybrid.conftest import REGION
from sadie_pipeline_tests.hybrid.helpers import drain, execute, tick

CITY = "Key West"


def _scrape(*args: str) -> str:
    result = CliRunner().invoke(main, ["scrape-prospects", REGION, "--city", CITY, *args])
    assert result.exit_code == 0, result.output
    return result.output


def _key_west_domains(hybrid) -> set[str]:
    """The domains the sandbox world has in Key West (its truth, not what the scrape found)."""
    return {m.domain for p in hybrid.sb.world.hotels if p.city == CITY
            if (m := prospect_message({"website": p.website}, REGION)) is not None}


def _all_messages(hybrid) -> list:
    return hybrid.queue.receive(1000, wait_s=0)


def test_scrape_cloud_puts_each_prospect_on_the_queue(hybrid) -> None:
    out = _scrape("--target", "cloud")
    expected = _key_west_domains(hybrid)
    messages = _all_messages(hybrid)
    bodies = [parse_body(m.body) for m in messages]
    assert {b.domain for b in bodies} == expected
    assert len(bodies) == len(expected)             # one message a domain: marriott.test's two hotels once
    assert all(b.region == REGION and len(m.body.encode()) <= 8192 for b, m in zip(bodies, messages))
    assert f"sent {len(expected)} messages in 1 batch request(s)" in out


def test_every_prospect_enriched_once_when_sent_twice_then_pulled(hybrid, tmp_path: Path) -> None:
    _scrape("--target", "cloud")
    _scrape("--target", "cloud")                     # the same prospects again: same message ids
    expected = _key_west_domains(hybrid)
    with DagsterInstance.ephemeral() as instance:
        totals = drain(instance, hybrid)
    assert totals["enriched"] == len(expected)       # each domain once
    # the second message of each: in the same run (done with the first), or a later one (index fresh)
    assert totals["skipped_fresh"] + totals["duplicate"] == len(expected)
    assert totals["failed"] == 0
    assert hybrid.queue.counts()["queue_visible"] == 0 and hybrid.queue.counts()["queue_in_flight"] == 0
    for domain in expected:
        entry = parse_index(hybrid.store.get_bytes(index_key(domain)))
        assert entry is not None and entry.region == REGION
        assert hybrid.store.exists(result_keys(REGION, domain)[1])

    dest = tmp_path / "results"
    first = CliRunner().invoke(main, ["sync", "pull", REGION, "--dest", str(dest)])
    assert first.exit_code == 0, first.output
    assert {p.stem for p in (dest / REGION).glob("*.json")} == expected
    assert f"{len(expected)} new results" in first.output
    with hybrid.database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hybrid_results").fetchone()[0] == len(expected)
    second = CliRunner().invoke(main, ["sync", "pull", REGION, "--dest", str(dest)])
    assert second.output.startswith("0 new results"), second.output

    # one new prospect (a Miami hotel), enriched by the cloud side: the next pull brings that one only
    place = next(p for p in hybrid.sb.world.hotels if p.city == "Miami" and p.site == "ok")
    message = prospect_message({"website": place.website, "name": place.name, "city": place.city}, REGION)
    assert hybrid.queue.send([message]).sent == 1
    with DagsterInstance.ephemeral() as instance:
        assert drain(instance, hybrid)["enriched"] == 1
    third = CliRunner().invoke(main, ["sync", "pull", "--dest", str(dest)])
    assert third.output.startswith("1 new results"), third.output
    pulled = json.loads((dest / SYNC_FILE).read_text())["pulled"]
    assert set(pulled) == expected | {message.domain}
    record = json.loads((dest / REGION / f"{message.domain}.json").read_text())
    assert place.engine.name in record["engine"]["name"]   # the catalogue names it in full (Sabre SynXis)


def test_scrape_local_enriches_here(hybrid) -> None:
    out = _scrape("--target", "local")
    expected = _key_west_domains(hybrid)
    assert f"{len(expected)} enriched" in out, out
    assert all(hybrid.store.exists(index_key(d)) for d in expected)
    assert hybrid.queue.counts()["queue_visible"] == 0   # nothing went through the queue


@pytest.mark.visibility(2)
def test_poison_message_ends_in_the_dead_letter_queue_and_pipeline_dead_letters(hybrid) -> None:
    sqs = boto3.client("sqs", endpoint_url=hybrid.env["SADIE_SQS_ENDPOINT_URL"], region_name="us-east-1")
    poison_id = sqs.send_message(QueueUrl=hybrid.env["SADIE_HYBRID_QUEUE_URL"], MessageBody='{"domain": 42}')["MessageId"]
    with DagsterInstance.ephemeral() as instance:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            assert tick(instance, hybrid) == []          # never launched: not a prospect
            with hybrid.database.connect() as conn:
                rows = conn.execute("SELECT item_key, attempts, last_error FROM pipeline.dead_letters "
                                    "WHERE layer = %s", (LAYER,)).fetchall()
            if rows:
                break
            time.sleep(2.2)                              # the visibility timeout: it comes back
    assert rows == [(f"message:{poison_id}", 3, rows[0][2])]
    assert rows[0][2].startswith("not a prospect")
    counts = hybrid.queue.counts()
    assert counts["queue_visible"] + counts["queue_in_flight"] == 0
    assert counts["dead_letters_visible"] + counts["dead_letters_in_flight"] == 0   # recorded, then deleted
    result = CliRunner().invoke(main, ["deadletters", "list", "--layer", LAYER])
    assert f"message:{poison_id}" in result.output, result.output


@pytest.mark.visibility(3)
def test_worker_killed_mid_domain_its_domain_done_by_the_next_run(hybrid) -> None:
    place = next(p for p in hybrid.sb.world.hotels if p.city == CITY and p.site == "ok")
    message = prospect_message({"website": place.website, "name": place.name, "city": CITY}, REGION)
    hybrid.queue.send([message])
    hybrid.sb.configure("sites", latency_ms=60_000)    # the worker's fetch hangs: it is mid-domain
    hybrid.sb.reset_stats("sites")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    worker = subprocess.Popen([sys.executable, "-m", "sadie_pipeline.hybrid.worker", "--max-messages", "1"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while hybrid.sb.stats("sites")["in_flight"] < 1:
            assert worker.poll() is None, worker.stdout.read().decode()
            assert time.monotonic() < deadline, "the worker never reached the site"
            time.sleep(0.1)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    assert worker.returncode == -signal.SIGKILL
    assert not hybrid.store.exists(index_key(message.domain))
    counts = hybrid.queue.counts()
    assert counts["queue_visible"] + counts["queue_in_flight"] == 1   # not deleted: it comes back
    hybrid.sb.configure("sites", latency_ms=0)
    time.sleep(3.5)
    with DagsterInstance.ephemeral() as instance:
        requests = tick(instance, hybrid)
        assert len(requests) == 1
        assert execute(instance, hybrid, requests[0])["enriched"] == 1
    assert parse_index(hybrid.store.get_bytes(index_key(message.domain))).message_id == message.message_id
    counts = hybrid.queue.counts()
    assert counts["queue_visible"] + counts["queue_in_flight"] == 0


def test_mistakes_end_with_one_line(hybrid, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = CliRunner().invoke(main, ["scrape-prospects", "US-XX", "--city", CITY])
    assert bad.exit_code == 1 and "is not a region" in bad.output and "Traceback" not in bad.output
    monkeypatch.delenv("SADIE_HYBRID_QUEUE_URL")
    none = CliRunner().invoke(main, ["scrape-prospects", REGION, "--city", CITY, "--target", "cloud"])
    assert none.exit_code == 1 and "no queue configured" in none.output
    no_city = CliRunner().invoke(main, ["scrape-prospects", "US-WY", "--target", "local"])
    assert no_city.exit_code == 1 and "has no market cities" in no_city.output
