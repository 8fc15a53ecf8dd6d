"""Spend: a guarded call in a Dagster step (a real resource on the sandbox) is counted, and the step's
end writes one usage row per service with its cost at the configured price; the /spend page shows
the figures as SVG bars to every role, sales included."""

from __future__ import annotations

import asyncio
import datetime as dt
from decimal import Decimal

import httpx
import pytest
from dagster import asset, materialize

from sadie_pipeline.core.spend import SpendConfig, bars, service_group
from sadie_pipeline.operations.spend import SpendConfigError, UsageRecordingDatabase, load_spend_config
from sadie_pipeline.resource_defs import configured
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.reliability import ServiceCallFailed
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.usage import USAGE
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.fixtures.sandbox import KEY
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import logged_in, serving

FAST = {"requests_per_minute": 60_000, "backoff_base_s": 0.01, "backoff_max_s": 0.05}


def _usage(database: Database) -> dict[str, tuple]:
    with database.connect() as conn:
        return {r[0]: r[1:] for r in conn.execute(
            "SELECT service, calls, failures, cost_usd, day FROM pipeline.service_usage ORDER BY service")}


@pytest.fixture
def priced(tmp_path, monkeypatch):
    path = tmp_path / "spend.yaml"
    path.write_text("prices_usd:\n  serper: 0.25\ndaily_quotas:\n  serper: 10\n")
    monkeypatch.setenv("SADIE_SPEND_CONFIG", str(path))
    return path


def test_a_guarded_call_in_a_step_is_written_once_at_the_steps_end(database, sb: Sandbox, priced):
    sb.expect_api_key("serper", KEY)
    USAGE.drain()  # counts other tests' guards left in this process
    seen_during_step = []

    @asset
    def spend_probe(serper: SerperResource, database: Database) -> None:
        wrong = SerperResource(api_key="not-the-key", base_url=sb.base_url("serper"), **FAST)

        async def calls() -> None:
            try:
                await serper.search_places("hotels in Miami, Florida")
                await serper.search_places("hotels in Tampa, Florida")
                with pytest.raises(ServiceCallFailed):
                    await wrong.search_places("hotels in Orlando, Florida")
            finally:
                await serper.aclose()
                await wrong.aclose()

        asyncio.run(calls())
        seen_during_step.append(_usage(database))  # nothing written per call

    db = configured("database", url=database.url)
    assert isinstance(db, UsageRecordingDatabase)  # the code location's database resource records usage
    serper = SerperResource(api_key=KEY, base_url=sb.base_url("serper"), **FAST)
    assert materialize([spend_probe], resources={"database": db, "serper": serper}).success
    assert seen_during_step == [{}]
    calls, failures, cost, day = _usage(database)["serper"]
    assert (calls, failures, cost, day) == (3, 1, Decimal("0.75"), dt.datetime.now(dt.UTC).date())

    assert materialize([spend_probe], resources={"database": db, "serper": serper}).success
    assert _usage(database)["serper"][:3] == (6, 2, Decimal("1.50"))  # increments, one row per day


def test_spend_config_defaults_overrides_and_mistakes(tmp_path, priced):
    config = load_spend_config()
    assert config.price("serper") == Decimal("0.25") and config.quota("serper") == 10
    assert config.price("anthropic") == SpendConfig().price("anthropic")  # not overridden: the default
    assert config.cost("serper", 4) == Decimal("1.00") and config.quota_share("serper", 8) == 0.8
    assert config.quota_share("rdap", 1000) is None
    bad = tmp_path / "bad.yaml"
    bad.write_text("prices_usd: {serper: 0.1}\nquota_share: 0.5\n")  # a misspelt key is refused
    with pytest.raises(SpendConfigError, match="bad.yaml") as refused:
        load_spend_config(bad)
    assert "\n" not in str(refused.value)
    assert [service_group(n) for n in ("images:cdn.example", "smtp:mx.example", "serper", "source api.example")] \
        == ["images", "smtp", "serper", "sources"]
    drawn = bars(["a", "b"], [10, 5], [0, 5], width=100, height=50)
    assert [(b.height, b.y, b.part_height) for b in drawn] == [(50, 0, 0), (25, 25, 25)]


@pytest.fixture
def web(database, local_object_store):
    """The app over HTTP with a user of each role (sales too)."""
    with database.connect() as conn:
        for name, role in (("vera", "viewer"), ("rita", "reviewer"), ("ada", "admin"), ("sam", "sales")):
            add_user(conn, name, PASSWORD, role)
    with serving(database, local_object_store) as base:
        yield base


def _seed_usage(database: Database) -> dt.date:
    today = dt.datetime.now(dt.UTC).date()
    with database.connect() as conn:
        for day, service, calls, failures, cost in [
                (today, "serper", 9, 1, "2.25"), (today - dt.timedelta(days=1), "serper", 4, 0, "1.00"),
                (today, "anthropic", 3, 0, "0.036"), (today - dt.timedelta(days=40), "groq", 500, 0, "0.40")]:
            conn.execute("INSERT INTO pipeline.service_usage (day, service, calls, failures, cost_usd) "
                         "VALUES (%s, %s, %s, %s, %s)", (day, service, calls, failures, Decimal(cost)))
    return today


def test_every_role_reads_the_spend_page(database, web, priced):
    today = _seed_usage(database)
    for name in ("vera", "rita", "ada", "sam"):
        with logged_in(web, name, PASSWORD) as client:
            page = client.get("/spend")
            assert page.status_code == 200, (name, page.status_code)
    html = page.text  # sales' page
    assert 'href="/spend"' in html and 'href="/review"' not in html
    assert 'data-figure="calls">16<' in html and 'data-figure="failures">1<' in html
    assert 'data-figure="cost">$3.29<' in html  # the 40-day-old groq calls are outside the default 30 days
    assert 'data-service="serper"' in html and 'data-service="groq"' not in html
    assert "90 %" in html and "badge warn" in html  # 9 of serper's 10 daily calls, past the 80 % alert share
    assert html.count("<svg") == 3  # cost, serper, anthropic
    assert f"{today.isoformat()}: 9 calls, 1 failed" in html
    with logged_in(web, "sam", PASSWORD) as client:
        old = client.get("/spend", params={"start": (today - dt.timedelta(days=45)).isoformat()}).text
        assert 'data-service="groq"' in old and 'data-figure="calls">516<' in old
        for bad, message in [({"start": "yesterday"}, "dates are YYYY-MM-DD"),
                             ({"start": today.isoformat(), "end": "2020-01-01"}, "start date is after the end"),
                             ({"start": "2020-01-01"}, "at most 366 days")]:
            refused = client.get("/spend", params=bad)
            assert refused.status_code == 400 and message in refused.text and "Traceback" not in refused.text
    anonymous = httpx.get(f"{web}/spend", follow_redirects=False)
    assert anonymous.status_code in (302, 303) and "/login" in anonymous.headers["location"]
