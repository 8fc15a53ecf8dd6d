from dagster import Definitions

from sadie_pipeline.hotels.assets import hotel_assets
from sadie_pipeline.hotels.automation import hotel_automation_sensor, with_automation
from sadie_pipeline.hotels.checks import hotel_checks
from sadie_pipeline.hotels.client_matches import client_match_assets
from sadie_pipeline.hotels.discovery_crawl import crawl_discovery
from sadie_pipeline.hotels.discovery_licences import licence_discovery_assets
from sadie_pipeline.hotels.enrichment.layer_assets import enrichment_assets
from sadie_pipeline.hotels.intake import (
    build_crawl_discovery_schedule,
    build_discovery_schedule,
    dmo_promotion_sensor,
    hotel_inbox_sensor,
)
from sadie_pipeline.hotels.jobs import (
    attraction_proximity_job,
    crawl_discovery_job,
    hotel_discovery_job,
    hotel_entities_job,
    hotel_leads_job,
    lead_export_job,
    lead_launch_job,
    licence_discovery_job,
    pipeline_health_job,
    reenrichment_job,
)
from sadie_pipeline.hotels.lead_assets import lead_assets, pipeline_health
from sadie_pipeline.hotels.licence_schedules import build_licence_schedules
from sadie_pipeline.hotels.resolver_release import resolver_release_sensor
from sadie_pipeline.hotels.schedules import build_schedules, schedule_timezone
from sadie_pipeline.hotels.sensors import export_after_launch_sensor, slack_on_run_failure
from sadie_pipeline.resource_defs import hotel_resources

__all__ = ["build_defs", "defs", "enrichment_assets"]


def build_defs() -> Definitions:
    """The hotel side, its external services configured from the environment as it is now."""
    return Definitions(
        assets=[*with_automation([*hotel_assets, *client_match_assets, *enrichment_assets, *lead_assets,
                                  pipeline_health]), *licence_discovery_assets, crawl_discovery],
        asset_checks=hotel_checks,
        jobs=[hotel_leads_job, lead_launch_job, lead_export_job, reenrichment_job, pipeline_health_job,
              hotel_discovery_job, hotel_entities_job, attraction_proximity_job, licence_discovery_job,
              crawl_discovery_job],
        schedules=[*build_schedules(schedule_timezone()), build_discovery_schedule(schedule_timezone()),
                   *build_licence_schedules(schedule_timezone()), build_crawl_discovery_schedule(schedule_timezone())],
        sensors=[export_after_launch_sensor, slack_on_run_failure, hotel_inbox_sensor, dmo_promotion_sensor,
                 hotel_automation_sensor, resolver_release_sensor],
        resources=hotel_resources(),
    )


defs = build_defs()
