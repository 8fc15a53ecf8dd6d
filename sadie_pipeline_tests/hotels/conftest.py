"""The hotel tests' shared set-up: every service pointed at the session sandbox, and a demo
region (Key West) already discovered, resolved, fetched and detected."""

from __future__ import annotations

import json
import shutil

import pytest
from dagster import materialize

from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED
from sadie_pipeline.hotels.assets import booking_engine_detection, hotel_discovery, hotel_entities, hotel_websites
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resources.abn import AbnLookupResource
from sadie_pipeline.resources.common_crawl import CommonCrawlResource
from sadie_pipeline.resources.crtsh import CrtShResource
from sadie_pipeline.resources.licences import LicenceRegisterResource
from sadie_pipeline.resources.llm import AnthropicResource, GroqResource
from sadie_pipeline.resources.mail_verify import MailVerifierResource
from sadie_pipeline.resources.rdap_dns import DnsResource, RdapResource
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.wayback import WaybackResource
from sadie_pipeline.resources.web import WebsiteFetcher
from sadie_pipeline.resources.whois import WhoisResource
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.fixtures.sandbox import KEY

DEMO = json.loads((PROJECT_ROOT / "sadie_pipeline/sandbox/fixtures/demo_region.json").read_text())
DETECTION = [hotel_discovery, hotel_entities, hotel_websites, booking_engine_detection]


_TIER1 = """SELECT h.id, h.name, h.website, h.google_place_id FROM sadie_gtm.hotels h
                JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
               WHERE be.tier = 1 AND h.status = ANY(%s) ORDER BY h.id"""
_TIER1_FIELDS = ("id", "name", "website", "google_place_id")


def tier1_hotels(database, *fields: str) -> list[tuple]:
    """The detected tier-1 hotels (those the owner layers take up), as tuples of `fields`."""
    with database.connect() as conn:
        rows = conn.execute(_TIER1, (list(DETECTED_OR_ENRICHED),)).fetchall()
    return [tuple(row[_TIER1_FIELDS.index(f)] for f in fields) for row in rows]


def run_layers(assets, database, store, instance, sb, force: bool = False) -> dict[str, dict]:
    """Materialise layer assets for US-FL on the sandbox; asset -> its metadata values."""
    config = {"ops": {a.op.name: {"config": {"force_refresh": force}} for a in assets}}
    result = materialize(assets, partition_key="US-FL", instance=instance, run_config=config,
                         resources=sandbox_resources(database, store, sb))
    assert result.success
    return {a.op.name: {k: v.value for k, v in result.asset_materializations_for_node(a.op.name)[0].metadata.items()}
            for a in assets}


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
        "whois": WhoisResource(server=f"{sb.listener('whois')['host']}:{sb.listener('whois')['port']}",
                               referrals=",".join(f"{h}={a}" for h, a in sb.listener("whois")["referrals"].items()),
                               requests_per_second=100, **fast),
        "wayback": WaybackResource(base_url=sb.base_url("wayback"), requests_per_second=100, **fast),
        "common_crawl": CommonCrawlResource(index_url=f"{sb.base_url('commoncrawl')}/index",
                                            data_url=sb.base_url('commoncrawl_data'),
                                            index_requests_per_second=100, data_requests_per_second=100, **fast),
        "licence_registers": LicenceRegisterResource(base_url=sb.base_url("licences"), requests_per_second=100, **fast),
        "crtsh": CrtShResource(base_url=sb.base_url("crtsh"), requests_per_second=100, **fast),
        "abn_lookup": AbnLookupResource(base_url=sb.base_url("abr"), guid=KEY if keys else None,
                                        requests_per_second=100, **fast),
        "mail_verifier": MailVerifierResource(
            verify="on", port=str(sb.listener("smtp")["port"]), helo_name="verify.sadie.test",
            mail_from="verify@sadie.test", o365_base_url=sb.base_url("login"), nameserver=f"{ip}:{port}",
            per_host_requests_per_second=500, greylist_wait_s=0.05, timeout_s=1.0, retry_budget_s=10),
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
