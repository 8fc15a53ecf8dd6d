"""Hotel-lead jobs. Each is partitioned by region; a backfill of many regions is one run."""

from dagster import AssetSelection, define_asset_job


def service_tags(*services: str) -> dict[str, str]:
    """Tags the production run queue limits runs by (deploy/dagster.yaml, tag_concurrency_limits)."""
    return {f"sadie/service-{s}": "true" for s in services}


# The UI's "Auto-materialize off" tag on this job is Dagster's global switch of its sensorless
# daemon, which this code location does not use; the description says what does run the chain.
hotel_leads_job = define_asset_job(
    "hotel_leads_job",
    selection=AssetSelection.groups("hotel_leads"),
    description="The whole chain for the selected regions: discover, resolve, fetch, detect, enrich, "
                "golden records, score, launch and export. Unattended, hotel_automation_sensor (running "
                "by default, whatever the 'Auto-materialize' tag says) runs entities to scores after each "
                "discovery; those runs are listed under the sensor, not under this job.",
    tags=service_tags("serper", "websites", "llm", "rdap", "dns", "whois", "smtp", "commoncrawl", "onedrive"),
)

lead_launch_job = define_asset_job(
    "lead_launch_job",
    selection=AssetSelection.assets("launched_leads"),
    description="The daily launch: scored hotels meeting the criteria go live (status 5, LIVE).",
)

lead_export_job = define_asset_job(
    "lead_export_job",
    selection=AssetSelection.assets("lead_exports"),
    description="Excel files per city and per state of the live hotels, uploaded and announced (status 6, EXPORTED).",
    tags=service_tags("onedrive"),
)

ENRICHMENT_LAYER_ASSETS = ("room_counts", "attraction_proximity", "hotel_research", "rdap_owner", "whois_owner",
                           "whois_history", "dns_email_provider", "website_contacts", "licence_owners", "abn_asic",
                           "certificate_orgs", "review_responses", "gmaps_details", "cc_harvest", "cc_contacts",
                           "email_verification")

reenrichment_job = define_asset_job(
    "reenrichment_job",
    selection=AssetSelection.assets(*ENRICHMENT_LAYER_ASSETS, "golden_hotels", "lead_scores"),
    description="Runs stale enrichment layers again (force refresh), then golden records and scores.",
    tags=service_tags("websites", "llm", "rdap", "dns", "whois", "smtp", "commoncrawl"),
)

pipeline_health_job = define_asset_job(
    "pipeline_health_job", selection=AssetSelection.assets("pipeline_health"),
    description="The pipeline health figures (plotted over time in the asset's Plots tab).",
)

# The unattended entry points (hotels/intake.py): discovery alone, or the proximity layer alone;
# the assets' automation conditions (hotels/automation.py) carry the region on to its scores.
hotel_discovery_job = define_asset_job(
    "hotel_discovery_job", selection=AssetSelection.assets("hotel_discovery"),
    description="Discovery of the selected regions (Serper, DMO lodging, CSV lists); automation does the rest.",
    tags=service_tags("serper"),
)

# Discovery's other sources on their own calendars (hotels/licence_schedules.py, hotels/intake.py)
licence_discovery_job = define_asset_job(
    "licence_discovery_job", selection=AssetSelection.assets("licence_discovery"),
    description="Licence discovery of the selected regions: their registers loaded (once per content) and "
                "their lodging licences written as source records.",
)

crawl_discovery_job = define_asset_job(
    "crawl_discovery_job", selection=AssetSelection.assets("crawl_discovery"),
    description="Common Crawl discovery of the selected regions: lodging home pages and booking-engine client "
                "pages of the newest crawl, as crawl and engine_client source records.",
    tags=service_tags("commoncrawl"),
)

# After a release that changes the resolver (hotels/resolver_release.py): entities alone; the
# automation carries what changed on.
hotel_entities_job = define_asset_job(
    "hotel_entities_job", selection=AssetSelection.assets("hotel_entities"),
    description="Entity resolution of the selected regions again (a new resolver); automation does the rest.",
)

attraction_proximity_job = define_asset_job(
    "attraction_proximity_job", selection=AssetSelection.assets("attraction_proximity"),
    description="The proximity layer of the selected regions again, after DMO attractions changed.",
)
