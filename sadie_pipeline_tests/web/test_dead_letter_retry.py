"""A requeue retries: the dead letter's layer runs again for its hotel (here in the web app's own
process, as no Dagster webserver or daemon runs), against the sandbox's RDAP, and its success
resolves the dead letter; the page names the hotel, links it, and says what ran."""

from __future__ import annotations

import re
import time

from dagster import AssetKey, DagsterInstance

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.resources.reliability import ItemOutcome, record_dead_letters
from sadie_pipeline_tests.fixtures.dagster_services import ended_runs
from sadie_pipeline_tests.hotels.leads_data import add_hotel
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import logged_in, page_token


def _fail(conn, layer: str, hotel: int) -> int:
    record_dead_letters(conn, layer, [ItemOutcome(f"hotel:{hotel}", "dead_letter", error_class=ErrorClass.TRANSIENT,
                                                  attempts=3, last_error="RDAP 503 Service Unavailable")])
    return conn.execute("SELECT id FROM pipeline.dead_letters WHERE item_key = %s AND layer = %s",
                        (f"hotel:{hotel}", layer)).fetchone()[0]


def _resolved(database, letter: int, timeout_s: float = 180) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with database.connect() as conn:
            if conn.execute("SELECT resolved_at IS NOT NULL FROM pipeline.dead_letters WHERE id = %s",
                            (letter,)).fetchone()[0]:
                return True
        time.sleep(0.5)
    return False


def test_a_requeue_runs_the_layer_again_for_the_hotel(sadie_env, web, database, sb, monkeypatch):
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)
    home = sadie_env / "dagster"
    home.mkdir()
    with database.connect() as conn:
        hotel = add_hotel(conn, "Retry Inn", status=HotelStatus.DETECTED)  # tier 1, RDAP layer not run yet
        conn.execute("UPDATE sadie_gtm.hotel_owner_enrichment SET layers_completed = 0 WHERE hotel_id = %s", (hotel,))
        letter = _fail(conn, "rdap_owner", hotel)
        gone = _fail(conn, "rdap_owner", add_hotel(conn, "Closed Inn", status=HotelStatus.SCORED))
    with logged_in(web, "rita", PASSWORD) as rita:
        page = rita.get("/deadletters").text
        assert '<a href="https://www.retryinn.com/" target="_blank" rel="noopener noreferrer">Retry Inn</a>' in page
        assert "the layer&#39;s next run" in page
        token = page_token(rita, "/deadletters")
        done = rita.post("/deadletters/requeue", data={"ids": [letter, gone], "csrf_token": token},
                         follow_redirects=True).text
    message = re.search(r'class="flash" role="status">(.*?)[<·]', done, re.S).group(1)
    assert message.startswith("2 requeued by rita; rdap_owner runs again for Retry Inn (Miami, US-FL): run ")
    assert "in this app (no Dagster webserver answers)" in message
    assert "Closed Inn is not retried: the hotel is merged, not detected or past enrichment." in message
    assert "the run in Dagster" in done  # the page links the run
    assert _resolved(database, letter), "the retry did not resolve the dead letter"
    with DagsterInstance.from_config(str(home)) as instance:
        [run] = ended_runs(instance)  # the layer resolves the letter before its run records its end
        events = instance.fetch_materializations(AssetKey("rdap_owner"), limit=5).records
        assert run.tags["dagster/user"] == "rita" and run.job_name == "reenrichment_job"
        assert [e.partition_key for e in events] == ["US-FL"] and events[0].run_id == run.run_id
    with database.connect() as conn:
        state = conn.execute("SELECT resolved_at IS NULL, requeued_by FROM pipeline.dead_letters WHERE id = %s",
                             (gone,)).fetchone()
    assert state == (True, "rita")  # requeued, but no run could retry it
