"""What the Dagster UI says about the assets, kept in one place and applied to the one Definitions
(definitions.py) after the domains built theirs:

* lineage the asset modules do not declare: hotel discovery and the proximity layer read promoted
  listings; data enters from inboxes and external services and leaves to OneDrive and Slack
  (external assets, groups "sources" and "external"); pipeline_health reads the hotel chain;
* each asset's code version, owners and `domain` tag;
* freshness where a schedule promises it (the daily launch and export, the weekly discovery).

An edge added here is lineage only: automation ignores it. An external asset is never
materialised, so eager() would wait for it for ever; and were promotions counted, each one would
start the proximity layer of every region (dmo_promotion_sensor starts only what a promotion needs)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dagster import (
    AllPartitionMapping,
    AssetDep,
    AssetsDefinition,
    AssetSelection,
    AssetSpec,
    AutomationCondition,
    Definitions,
    FreshnessPolicy,
    ScheduleDefinition,
)

from sadie_pipeline.code_versions import module_version
from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS

DOMAIN_TAG = "domain"
OWNERS = {"listings": "team:listings", "hotel_leads": "team:hotel-leads", "operations": "team:platform"}
# Each asset group's domain; a group missing here fails the load rather than show an asset unowned.
GROUP_DOMAINS = {"listings": "listings", "hotel_leads": "hotel_leads", "monitoring": "operations"}
SOURCES, EXTERNAL = "sources", "external"


@dataclass(frozen=True)
class External:
    """Where data comes from (read by `feeds`) or goes to (written by `receives`) outside Dagster."""

    key: str
    group: str
    domain: str
    kinds: tuple[str, ...]
    description: str
    feeds: tuple[str, ...] = ()
    receives: tuple[str, ...] = ()
    resource: str | None = None  # the Dagster resource that calls it


_L, _H = "listings", "hotel_leads"
EXTERNALS: tuple[External, ...] = (
    External("dmo_inbox", SOURCES, _L, ("s3",), "Files a DMO drops under inbox/{dmo}/ in the object store (CSV, "
             "XLSX, JSON, JSON lines, GeoJSON points of interest); each is imported once.",
             feeds=("listing_raw_files",), resource="object_store"),
    External("hotel_inbox", SOURCES, _H, ("s3", "csv"), "CSV hotel lists dropped under inbox/hotels/{region}/ in the "
             "object store; discovery keeps their rows in market cities as source records.",
             feeds=("hotel_discovery",), resource="object_store"),
    External("dmo_wordpress_api", EXTERNAL, _L, ("wordpress",), "DMO sites' WordPress REST API "
             "(/wp-json/wp/v2/{type}), pulled page by page when a DMO's source is wordpress.",
             feeds=("listing_raw_files",)),
    External("dmo_drupal_api", EXTERNAL, _L, ("drupal",), "DMO sites' Drupal JSON:API (/jsonapi/node/{type}), "
             "pulled page by page when a DMO's source is drupal.", feeds=("listing_raw_files",)),
    External("dmo_partner_api", EXTERNAL, _L, ("api",), "A DMO partner's keyed, paginated JSON API (source "
             "partner_api).", feeds=("listing_raw_files",)),
    External("dmo_scraped_pages", EXTERNAL, _L, ("html",), "DMO web pages read with the config's CSS selectors "
             "(list and detail pages, robots.txt obeyed; source scrape).", feeds=("listing_raw_files",)),
    External("dmo_file_urls", EXTERNAL, _L, ("http",), "Files a DMO's config names by url (CSV, XLSX, JSON, "
             "JSON lines, GeoJSON points of interest), downloaded under pulls/{dmo}/ and imported as inbox files.",
             feeds=("listing_raw_files",)),
    External("geocoding_service", EXTERNAL, _L, ("google", "openstreetmap"), "The Google Geocoding API, or "
             "Nominatim without a key (SADIE_GEOCODER): coordinates of listings from their address.",
             feeds=("listing_geocodes",), resource="geocoder"),
    External("listing_image_hosts", EXTERNAL, _L, ("http",), "The hosts of listings' image URLs (DMO sites, CDNs).",
             feeds=("listing_images",), resource="image_fetcher"),
    External("serper_places", EXTERNAL, _H, ("google",), "Serper (google.serper.dev) Google Maps places search: "
             "hotels per market city (raw pages kept under api-responses/serper/); a place's reviews with the "
             "owner's replies, and its details (hours, price level, rating).",
             feeds=("hotel_discovery", "review_responses", "gmaps_details"), resource="serper"),
    External("hotel_web_sites", EXTERNAL, _H, ("http", "chromium"), "Hotels' own websites, fetched with httpx "
             "(Chromium for pages that need JavaScript): home pages, then contact and team pages.",
             feeds=("hotel_websites", "website_contacts"), resource="website_fetcher"),
    External("groq_chat", EXTERNAL, _H, ("groq",), "Groq chat completions (JSON mode): room counts read from "
             "a hotel's website text, and the signers of review replies the rules cannot read.",
             feeds=("room_counts", "review_responses"), resource="groq"),
    External("anthropic_messages", EXTERNAL, _H, ("anthropic",), "Anthropic (Claude, tool use): property type, "
             "chain or independent, management company, amenities.", feeds=("hotel_research",), resource="anthropic"),
    External("rdap_registries", EXTERNAL, _H, ("rdap",), "RDAP (rdap.org, sent on to each registry): who "
             "registered a hotel's domain.", feeds=("rdap_owner",), resource="rdap"),
    External("dns_resolvers", EXTERNAL, _H, ("dns",), "DNS (MX, SPF and _dmarc TXT records): the mail provider of "
             "a hotel's domain, and the MX e-mail verification asks.",
             feeds=("dns_email_provider", "email_verification"), resource="dns"),
    External("whois_servers", EXTERNAL, _H, ("whois",), "WHOIS over TCP port 43: the registry, then the "
             "registrar it refers to: who registered a hotel's domain where RDAP says nothing useful.",
             feeds=("whois_owner",), resource="whois"),
    External("wayback_machine", EXTERNAL, _H, ("internet_archive",), "The Internet Archive's CDX API and "
             "snapshots of WHOIS pages: the newest unmasked registrant of a privacy-masked domain.",
             feeds=("whois_history",), resource="wayback"),
    External("crt_sh", EXTERNAL, _H, ("crt_sh",), "Certificate transparency logs through crt.sh (JSON, PEM): "
             "organisations of OV/EV certificates and sibling domains.", feeds=("certificate_orgs",), resource="crtsh"),
    External("licence_registers", EXTERNAL, _H, ("csv",), "State lodging licence files (Florida DBPR, Texas hotel "
             "occupancy tax): licensees and owners, loaded into sadie_gtm.licence_records.",
             feeds=("licence_owners", "licence_discovery"), resource="licence_registers"),
    External("abn_lookup", EXTERNAL, _H, ("abr",), "The Australian Business Register's ABN Lookup web services: "
             "entity and trading names of Australian hotels.", feeds=("abn_asic",), resource="abn_lookup"),
    External("common_crawl", EXTERNAL, _H, ("common_crawl",), "Common Crawl's CDX index and WARC files: archived "
             "contact, about and team pages of hotels' sites; lodging home pages and booking-engine client pages "
             "(discovery).", feeds=("cc_harvest", "crawl_discovery"), resource="common_crawl"),
    External("mail_servers", EXTERNAL, _H, ("smtp", "microsoft"), "The MX servers of hotels' domains (SMTP: EHLO, "
             "MAIL FROM, RCPT TO, QUIT; no mail sent) and Microsoft's account check for Microsoft 365 domains.",
             feeds=("email_verification",), resource="mail_verifier"),
    External("onedrive_drive", EXTERNAL, _H, ("onedrive",), "The OneDrive / SharePoint drive (Microsoft Graph) "
             "the lead workbooks are uploaded to, when configured.", receives=("lead_exports",), resource="onedrive"),
    External("slack_channel", EXTERNAL, _H, ("slack",), "The Slack channel new exports are announced in "
             "(failed runs and dead letters are posted there by sensors).", receives=("lead_exports",),
             resource="slack"),
)

# Reads between the project's own assets. A region's hotels read every DMO's listings (discovery
# their lodging, proximity their attractions), so no DMO maps to a region: all of them.
PROMOTED_LISTINGS = AssetDep("listing_promotion", partition_mapping=AllPartitionMapping())
HEALTH_READS = ("hotel_entities", "booking_engine_detection", *ENRICHMENT_LAYER_ASSETS, "golden_hotels", "lead_scores",
                "launched_leads", "lead_exports")
READS: Mapping[str, tuple[AssetDep, ...]] = {
    "hotel_discovery": (PROMOTED_LISTINGS,),
    "attraction_proximity": (PROMOTED_LISTINGS,),
    "pipeline_health": tuple(AssetDep(name) for name in HEALTH_READS),
}


@dataclass(frozen=True)
class Promise:
    """An asset a schedule refreshes: materialised within `hours` after each of its ticks."""

    schedule: str
    hours: int


PROMISES: Mapping[str, Promise] = {
    "launched_leads": Promise("daily_launch_schedule", 2),
    "lead_exports": Promise("daily_launch_schedule", 3),  # export_after_launch_sensor follows each launch
    "hotel_discovery": Promise("weekly_discovery_schedule", 8),  # every market city's Serper queries
}


def added_deps(name: str) -> tuple[AssetDep, ...]:
    """The dependencies of asset `name` this module adds: READS and the externals it reads."""
    return (*READS.get(name, ()), *(AssetDep(e.key) for e in EXTERNALS if name in e.feeds))


def freshness(schedule: ScheduleDefinition, hours: int) -> FreshnessPolicy:
    """Fresh when materialised in the `hours` after the schedule's latest tick: the deadline is its
    cron moved on by `hours`, in its time zone (a cron with one numeric hour, not past midnight)."""
    minute, hour, *rest = str(schedule.cron_schedule).split()
    if not hour.isdigit() or int(hour) + hours > 23:
        raise ValueError(f"{schedule.name}: cannot move {schedule.cron_schedule!r} on by {hours} hours")
    return FreshnessPolicy.cron(deadline_cron=" ".join([minute, str(int(hour) + hours), *rest]),
                                lower_bound_delta=dt.timedelta(hours=hours),
                                timezone=schedule.execution_timezone or "UTC")


def lineage_only(condition: AutomationCondition | None, deps: Sequence[AssetDep]) -> AutomationCondition | None:
    """The condition with the deps ignored: they neither start nor hold back a run."""
    if condition is None or not deps:
        return condition
    if not hasattr(condition, "ignore"):  # a condition of one operand: nothing dep-related to ignore through
        raise TypeError(f"cannot make {condition.get_label() or condition.name} ignore the lineage dependencies")
    return condition.ignore(AssetSelection.assets(*(dep.asset_key for dep in deps)))


def catalogued_spec(spec: AssetSpec, version: str | None, policies: Mapping[str, FreshnessPolicy]) -> AssetSpec:
    """The spec with its lineage, owner, domain tag, code version (a declared one is kept) and freshness."""
    name, domain = spec.key.to_user_string(), GROUP_DOMAINS[str(spec.group_name)]
    declared = {dep.asset_key for dep in spec.deps}
    added = [dep for dep in added_deps(name) if dep.asset_key not in declared]
    owners = [owner for owner in (OWNERS[domain],) if owner not in spec.owners]
    spec = spec.merge_attributes(deps=added, owners=owners, tags={DOMAIN_TAG: domain})
    return spec.replace_attributes(code_version=spec.code_version or version,
                                   freshness_policy=spec.freshness_policy or policies.get(name),
                                   automation_condition=lineage_only(spec.automation_condition, added))


def external_specs() -> list[AssetSpec]:
    return [AssetSpec(e.key, group_name=e.group, description=e.description, kinds=set(e.kinds), deps=e.receives,
                      owners=[OWNERS[e.domain]], tags={DOMAIN_TAG: e.domain},
                      metadata={"resource": e.resource} if e.resource else None)
            for e in EXTERNALS]


def asset_version(assets_def: AssetsDefinition) -> str:
    """The version of the code that decides the asset's data: its module's import closure and the
    files that closure reads by name (code_versions.module_version). Wider than needed rather than
    narrower: a change to any module it imports marks it changed."""
    fn = assets_def.op.compute_fn
    return module_version(getattr(fn, "decorated_fn", fn).__module__)


def _versions(assets: Iterable[object]) -> dict:
    return {key: asset_version(a) for a in assets if isinstance(a, AssetsDefinition) for key in a.keys}


def catalogued(defs: Definitions) -> Definitions:
    """The definitions with every asset catalogued (catalogued_spec) and the external assets added."""
    versions = _versions(defs.assets or [])
    schedules = {s.name: s for s in defs.schedules or [] if isinstance(s, ScheduleDefinition)}
    policies = {name: freshness(schedules[p.schedule], p.hours) for name, p in PROMISES.items()}
    documented = defs.map_asset_specs(func=lambda spec: catalogued_spec(spec, versions.get(spec.key), policies))
    return Definitions.merge(documented, Definitions(assets=external_specs()))
