"""The hotel tests' shared set-up: every service pointed at the session sandbox, and a demo
region (Key West) already discovered, resolved, fetched and detected."""

from __future__ import annotations

import json
import shutil

import pytest
from dagster import materialize

from sadie_pipeline.hotels.assets import booking_engine_detection, hotel_discovery, hotel_entities, hotel_websites
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resources.llm import AnthropicResource, GroqResource
from sadie_pipeline.resources.rdap_dns import DnsResource, RdapResource
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.web import WebsiteFetcher
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.fixtures.sandbox import KEY

DEMO = json.loads((PROJECT_ROOT / "sadie_pipeline/sandbox/fixtures/demo_region.json").read_text())
DETECTION = [hotel_discovery, hotel_entities, hotel_websites, booking_engine_detection]


def sandbox_resources(database, store, sb, keys: bool = True) -> dict:
    ip, port = sb.nameserver
    fast = {"backoff_base_s": 0.05, "backoff_max_s": 0.2}
    llm = {**fast, "requests_per_minute": 6000}
    return {
        "database": database, "object_store": store, **io_manager_resources(database, store),
        "serper": SerperResource(api_key=KEY, base_url=sb.base_url("serper"), requests_per_minute=6000),
        "website_fetcher": WebsiteFetcher(proxy=sb.proxy_url, total_timeout_s=3, read_timeout_s=2, connect_timeout_s=2),
        "groq": GroqResource(api_key=KEY if keys else None, base_url=sb.base_url("groq"), **llm),
        "anthropic": AnthropicResource(api_key=KEY if keys else None, base_url=sb.base_url("anthropic"), **llm),
        "rdap": RdapResource(base_url=sb.base_url("rdap"), requests_per_second=100, **fast),
        "dns": DnsResource(nameserver=f"{ip}:{port}", **fast),
    }


@pytest.fixture
def detected(database, local_object_store, instance, sb):
    if not shutil.which("chromium"):
        pytest.skip("no system Chromium")
    sb.configure("sites", hang_s=2.0)
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
    assert materialize(DETECTION, partition_key="US-FL", instance=instance,
                       resources=sandbox_resources(database, local_object_store, sb)).success
