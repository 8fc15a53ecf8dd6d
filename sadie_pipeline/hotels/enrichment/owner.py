"""Owner layers (seed 001): who registered the hotel's domain (RDAP), who hosts its mail (DNS),
who runs it (contact / about / team pages of its website), and how far their addresses can be
trusted (e-mail verification, after contacts and DNS).

* `rdap_owner` (``LAYER_RDAP``, resource ``rdap``): registrant organisation, and the registrant
  person as a decision maker when the record is not privacy-protected. 404: done, nothing found.
* `dns_email_provider` (``LAYER_DNS``, resource ``dns``): MX, SPF and ``_dmarc.`` TXT ->
  e-mail provider and MX hosts.
* `website_contacts` (``LAYER_WEBSITE``, resource ``website_fetcher``): up to 5 contact / team /
  about links of the stored homepage, fetched and read for people, titles, e-mails, phones.
E-mail verification (after every contact layer and DNS) is `email_verify.py`; every layer in
the DAG's order is listed in `layer_assets.py`.

Decision makers are upserted with the seed's ``ON CONFLICT (hotel_id, full_name, title)`` rule:
COALESCE e-mail (a found address replaces a pattern guess), OR ``email_verified``, DISTINCT
sources, GREATEST confidence. Every layer streams its hotels through `enrich_regions` (ok /
dead-lettered / skipped, none lost) and `finish_layer` (dead letters, status 3 = ENRICHED).
"""

import asyncio
import gzip
import json
import re
from collections import Counter
from functools import partial
from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from sadie_pipeline.core.enrichment.confidence import contact_confidence
from sadie_pipeline.core.enrichment.contacts import contact_page_links, extract_contacts
from sadie_pipeline.core.enrichment.dns_email import analyze_email_dns
from sadie_pipeline.core.enrichment.layers import (
    LAYER_DNS,
    LAYER_RDAP,
    LAYER_WEBSITE,
)
from sadie_pipeline.core.enrichment.mailbox import PATTERN_GUESS
from sadie_pipeline.core.enrichment.merge import upsert_decision_makers
from sadie_pipeline.core.enrichment.rdap import parse_rdap
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    PerRun,
    enrich_regions,
    hotel_domain,
    layer_asset,
    layer_output,
    region_country,
    save_layer,
)
from sadie_pipeline.hotels.websites import content_key
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.rdap_dns import DnsResource, RdapResource
from sadie_pipeline.resources.reliability import ServiceCallFailed, SkipItem
from sadie_pipeline.resources.web import WebsiteFetcher

MAX_CONTACT_PAGES = 5

# Registrant "names" that are roles, not people (brand registrations: "Domain Administrator").
_ROLE_NAME = re.compile(r"\b(?:domain|domains|admin|administrator|administration|hostmaster|webmaster|postmaster|"
                        r"registrant|technical|department|dept|it|legal|dns|network|operations|support)\b",
                        re.IGNORECASE)

_UPSERT_DECISION_MAKER = """
INSERT INTO sadie_gtm.hotel_decision_makers AS t
       (hotel_id, full_name, title, email, email_verified, phone, sources, confidence, raw_source_url)
VALUES (%(hotel_id)s, %(full_name)s, %(title)s, %(email)s, false, %(phone)s, %(sources)s, %(confidence)s,
        %(raw_source_url)s)
ON CONFLICT (hotel_id, full_name, title) DO UPDATE SET
    email = {email},
    email_status = CASE WHEN {email} IS DISTINCT FROM t.email THEN NULL ELSE t.email_status END,
    email_verified = t.email_verified OR EXCLUDED.email_verified,
    phone = {phone},
    sources = (SELECT array_agg(DISTINCT s ORDER BY s) FROM unnest(t.sources || EXCLUDED.sources) s),
    confidence = GREATEST(t.confidence, EXCLUDED.confidence),
    raw_source_url = {url},
    updated_at = now()
"""


def _upsert_sql(force_refresh: bool) -> str:
    """A found address always replaces a pattern guess; otherwise COALESCE. With force_refresh a
    newer address or phone wins only when the writing source is all that vouched for the old one
    (two layers naming one person must not swap values by the order they ran in); the source URL
    stays the first finding's. A changed address loses its status (verification sets it again)."""
    newer = ("(CASE WHEN t.sources <@ EXCLUDED.sources THEN coalesce(EXCLUDED.{c}, t.{c}) "
             "ELSE coalesce(t.{c}, EXCLUDED.{c}) END)")
    keep = newer if force_refresh else "coalesce(t.{c}, EXCLUDED.{c})"
    email = (f"(CASE WHEN t.email_status = '{PATTERN_GUESS}' AND EXCLUDED.email IS NOT NULL THEN EXCLUDED.email "
             f"ELSE {keep.format(c='email')} END)")
    return _UPSERT_DECISION_MAKER.format(email=email, phone=keep.format(c="phone"),
                                         url="coalesce(t.raw_source_url, EXCLUDED.raw_source_url)")


def upsert_decision_maker(conn: psycopg.Connection, hotel_id: int, person: dict[str, Any],
                          force_refresh: bool = False) -> None:
    """One decision maker of a hotel, merged into an existing (hotel, name, title) row."""
    conn.execute(_upsert_sql(force_refresh), {
        "hotel_id": hotel_id, "full_name": person["full_name"], "title": person.get("title") or "",
        "email": person.get("email"), "phone": person.get("phone"), "sources": list(person.get("sources") or []),
        "confidence": person.get("confidence") or 0.0, "raw_source_url": person.get("raw_source_url"),
    })


def _json(value: Any) -> Any:
    return MetadataValue.json(value)


# --- RDAP ------------------------------------------------------------------------------------------

@asset(**REGION_ASSET, **layer_asset("rdap_owner"), deps=[booking_engine_detection], kinds={"postgres"}, pool="rdap")
def rdap_owner(context: AssetExecutionContext, config: LayerConfig, database: Database,
               rdap: RdapResource) -> MaterializeResult[pd.DataFrame]:
    """Who registered each tier-1 hotel's domain (RDAP): registrant organisation on the
    enrichment row, the registrant person (unless privacy-protected) as a decision maker."""
    result = LayerResult("rdap_owner", skipped_reason=None if rdap.configured() else "RDAP not configured")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        org = value.get("registrant_org")
        save_layer(conn, hotel["id"], LAYER_RDAP, "rdap_owner", {"registrant_org": org}, "rdap",
                   contact_confidence("rdap") if org else None, config.force_refresh)
        for person in value.get("people", []):
            upsert_decision_maker(conn, hotel["id"], person, config.force_refresh)

    lookup = PerRun(rdap.domain)

    async def lookup_owner(hotel: dict[str, Any], country: str) -> dict[str, Any]:
        domain = hotel_domain(hotel)
        if not domain:
            return {"domain": None, "found": False, "people": []}
        answer = await lookup(domain)
        if answer is None:  # 404: the registry has no such domain
            return {"domain": domain, "found": False, "people": []}
        record = parse_rdap(answer, region=country)
        people = []
        if not record.privacy_protected:
            for dm in record.decision_makers():
                name = dm.get("full_name")
                if name and not _ROLE_NAME.search(name):
                    people.append({**dm, "raw_source_url": f"{rdap.resolved_base_url()}/domain/{domain}"})
        return {"domain": domain, "found": True, "registrant_org": record.registrant_org,
                "privacy": record.privacy_protected, "people": people}

    enrich_regions(context.partition_keys, database, result, LAYER_RDAP, config,
                   lambda region, hotels: partial(lookup_owner, country=region_country(region)), save,
                   concurrency=rdap.max_concurrency, close=rdap.aclose)

    return layer_output(context, database, result, lambda values: {
        "registrant_orgs_found": sum(1 for v in values if v.get("registrant_org")),
        "not_in_rdap": sum(1 for v in values if v.get("domain") and not v["found"]),
        "privacy_protected": sum(1 for v in values if v.get("privacy")),
        "decision_makers_found": sum(len(v["people"]) for v in values),
    })


# --- DNS -------------------------------------------------------------------------------------------

@asset(**REGION_ASSET, **layer_asset("dns_email_provider"),
       deps=[booking_engine_detection], kinds={"postgres"}, pool="dns")
def dns_email_provider(context: AssetExecutionContext, config: LayerConfig, database: Database,
                       dns: DnsResource) -> MaterializeResult[pd.DataFrame]:
    """Each tier-1 hotel's mail provider from its domain's MX, SPF and DMARC records."""
    result = LayerResult("dns_email_provider", skipped_reason=None if dns.configured() else "DNS not configured")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        values = {"email_provider": value["email_provider"], "mx_hosts": value["mx_hosts"]}
        save_layer(conn, hotel["id"], LAYER_DNS, "dns_email_provider", values, "dns", None, config.force_refresh)

    async def analyze(domain: str) -> dict[str, Any]:
        mx, txt, dmarc = await asyncio.gather(dns.mx(domain), dns.txt(domain), dns.txt(f"_dmarc.{domain}"))
        found = analyze_email_dns(domain, mx, txt, dmarc)
        return {"domain": domain, "email_provider": found.provider, "mx_hosts": list(found.mx_hosts),
                "gateway": found.gateway, "has_spf": found.has_spf, "has_dmarc": found.has_dmarc}

    lookup = PerRun(analyze)

    async def email_dns(hotel: dict[str, Any]) -> dict[str, Any]:
        domain = hotel_domain(hotel)
        if not domain:
            return {"domain": None, "email_provider": None, "mx_hosts": [], "gateway": None,
                    "has_spf": False, "has_dmarc": False}
        return await lookup(domain)

    enrich_regions(context.partition_keys, database, result, LAYER_DNS, config, lambda region, hotels: email_dns,
                   save, concurrency=dns.max_concurrency, close=dns.aclose)

    return layer_output(context, database, result, _dns_figures)


def _dns_figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    providers = Counter(v["email_provider"] or "unknown" for v in values)
    return {
        "providers": _json(dict(sorted(providers.items()))),
        "with_mx": sum(1 for v in values if v["mx_hosts"]),
        "with_spf": sum(1 for v in values if v["has_spf"]),
        "with_dmarc": sum(1 for v in values if v["has_dmarc"]),
        "behind_gateway": sum(1 for v in values if v["gateway"]),
    }


# --- website contacts ------------------------------------------------------------------------------

def stored_homepage(store: ObjectStore, hotel: dict[str, Any]) -> tuple[str, str] | None:
    """(html, final url) of the homepage hotel_websites stored, or None."""
    html_key = content_key(hotel["state"], hotel["city"], hotel["id"], "html.gz")
    if not store.exists(html_key):
        return None
    html = gzip.decompress(store.get_bytes(html_key)).decode("utf-8", "replace")
    base = hotel.get("website") or ""
    meta_key = content_key(hotel["state"], hotel["city"], hotel["id"], "fetch.json")
    if store.exists(meta_key):
        try:
            meta = json.loads(store.get_bytes(meta_key))
            base = meta.get("final_url") or meta.get("url") or base
        except ValueError:
            pass
    if base and "://" not in base[:12]:
        base = f"http://{base}"
    return html, base


@asset(**REGION_ASSET, **layer_asset("website_contacts"),
       deps=[booking_engine_detection], kinds={"postgres", "s3"}, pool="websites")
def website_contacts(context: AssetExecutionContext, config: LayerConfig, database: Database,
                     object_store: ObjectStore, website_fetcher: WebsiteFetcher) -> MaterializeResult[pd.DataFrame]:
    """People running each tier-1 hotel (names, titles, e-mails, phones) from the contact, team
    and about pages linked from its stored homepage."""
    result = LayerResult("website_contacts")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        people = value["people"]
        confidence = max((p["confidence"] for p in people), default=None)
        save_layer(conn, hotel["id"], LAYER_WEBSITE, "website_contacts", {}, "website_scrape", confidence,
                   config.force_refresh)
        for person in people:
            upsert_decision_maker(conn, hotel["id"], person, config.force_refresh)

    async def scrape(hotel: dict[str, Any], country: str) -> dict[str, Any]:
        homepage = stored_homepage(object_store, hotel)
        if homepage is None:
            raise SkipItem("no stored homepage")
        html, base = homepage
        links = contact_page_links(html, base, max_links=MAX_CONTACT_PAGES)
        fetched = await asyncio.gather(*(website_fetcher.fetch(link) for link in links))
        found: list[dict[str, Any]] = []
        failed = [page for page in fetched if not page.ok]
        for link, page in zip(links, fetched):
            if page.ok:
                for person in extract_contacts(page.html, country, site_domain=base).people:
                    found.append({"hotel_id": hotel["id"], "full_name": person.full_name, "title": person.title or "",
                                  "email": person.email, "phone": person.phone, "sources": [person.source],
                                  "confidence": person.confidence, "raw_source_url": link})
        retryable = [p for p in failed if p.error_class is not None and p.error_class.retryable]
        if retryable and len(failed) == len(links):
            # Nothing could be read and trying again may help: dead-lettered, retried by a later run.
            first = retryable[0]
            raise ServiceCallFailed(first.error_class or ErrorClass.TRANSIENT, max(p.attempts for p in failed),
                                    f"{len(failed)} contact page(s) failed: {first.reason}: {first.error or ''}",
                                    service="websites", item_key=f"hotel:{hotel['id']}")
        # the same person on several pages: one row, the more specific title, blanks filled
        people = [{k: v for k, v in p.items() if k not in ("hotel_id", "created_at", "updated_at")}
                  for p in upsert_decision_makers([], found)]
        return {"links": links, "pages_ok": len(links) - len(failed), "pages_failed": len(failed), "people": people}

    enrich_regions(context.partition_keys, database, result, LAYER_WEBSITE, config,
                   lambda region, hotels: partial(scrape, country=region_country(region)), save,
                   concurrency=website_fetcher.max_concurrency, close=website_fetcher.aclose)

    return layer_output(context, database, result, _contact_figures)


def _contact_figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    pages = {"links": sum(len(v["links"]) for v in values), "fetched": sum(v["pages_ok"] for v in values),
             "failed": sum(v["pages_failed"] for v in values)}
    people = [p for v in values for p in v["people"]]
    return {
        "contact_pages": _json(pages),
        "decision_makers_found": len(people),
        "hotels_with_people": sum(1 for v in values if v["people"]),
        "with_email": sum(1 for p in people if p["email"]),
        "with_phone": sum(1 for p in people if p["phone"]),
    }
