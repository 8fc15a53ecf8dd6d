"""A release that changes the resolver reaches every region without a person. Each region stores
the resolver version it was last resolved with (hotel_entities writes it); this sensor requests
hotel_entities again for every region resolved by another version, once per region and version.
The assets' automation conditions then run the later layers, and each of those picks its work per
hotel (status, content, layers done), so they only redo the hotels whose entity changed: a hotel
merged into another leaves the chain (DUPLICATE), a new one starts it (SCRAPED), the others are
left as they were. Regions never resolved are left to discovery, which automation follows."""

from __future__ import annotations

from dagster import DefaultSensorStatus, RunRequest, SensorEvaluationContext, SkipReason, sensor

from sadie_pipeline.hotels.entities import RESOLVER_VERSION
from sadie_pipeline.hotels.jobs import hotel_entities_job
from sadie_pipeline.hotels.queries import sql
from sadie_pipeline.regions import REGIONS
from sadie_pipeline.resources.database import Database

TRIGGER_TAG = "sadie/trigger"


def stale_regions(database: Database) -> list[str]:
    """The regions last resolved by another resolver version than the running one."""
    with database.connect() as conn:
        return [r[0] for r in conn.execute(sql("entities", "stale_regions"),
                                           {"version": RESOLVER_VERSION, "regions": list(REGIONS)})]


@sensor(job=hotel_entities_job, minimum_interval_seconds=300, default_status=DefaultSensorStatus.RUNNING,
        description="A release that changes the entity resolver: hotel_entities again for every region "
                    "resolved by another version (once per region and version); automation does the rest.")
def resolver_release_sensor(context: SensorEvaluationContext, database: Database):
    regions = stale_regions(database)
    if not regions:
        return SkipReason(f"every region resolved by the running resolver ({RESOLVER_VERSION})")
    # The run key names the version: a region is requested once per release, however many ticks
    # pass before its run ends (a failed run is left to the next discovery of the region).
    return [RunRequest(run_key=f"resolver-{RESOLVER_VERSION}-{region}", partition_key=region,
                       tags={TRIGGER_TAG: "resolver_release", "sadie/resolver_version": RESOLVER_VERSION})
            for region in regions]
