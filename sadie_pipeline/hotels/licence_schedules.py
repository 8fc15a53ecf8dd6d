"""Licence registers on their own calendar: one schedule per register of the catalogue
(``data/licence_registers.json``, or SADIE_LICENCE_REGISTERS), at its ``refresh`` cron (FL DBPR
monthly, TX quarterly; ``manual``: none), each tick one `licence_discovery` run of the register's
region. A file downloaded within the resource's refresh_after_hours, or unchanged since its last
load, is not loaded again; licences already written are not written again."""

from __future__ import annotations

__all__ = ["build_licence_schedules", "configured_catalog", "licence_discovery_job"]

from dagster import DefaultScheduleStatus, RunRequest, ScheduleDefinition, ScheduleEvaluationContext, schedule

from sadie_pipeline.core.licences import RegisterCatalog, RegistryConfig
from sadie_pipeline.core.schedules import cron_of
from sadie_pipeline.hotels.jobs import licence_discovery_job
from sadie_pipeline.hotels.schedules import _tick_date
from sadie_pipeline.resources.licences import LICENCE_REGISTERS_ENV, LicenceRegisterResource
from sadie_pipeline.settings import env


def configured_catalog() -> RegisterCatalog:
    """The registers the code location's resource reads (read when the definitions load)."""
    return LicenceRegisterResource(config_file=env(LICENCE_REGISTERS_ENV) or None).catalog()


def _register_schedule(registry: RegistryConfig, cron: str, timezone: str) -> ScheduleDefinition:
    @schedule(name=f"licence_refresh_{registry.id}", cron_schedule=cron, job=licence_discovery_job,
              execution_timezone=timezone, default_status=DefaultScheduleStatus.STOPPED,
              description=f"{registry.id} ({registry.region}) at '{cron}': the register downloaded again and its "
                          "new licences discovered; automation carries new hotels on.")
    def refresh(context: ScheduleEvaluationContext) -> RunRequest:
        return RunRequest(run_key=f"licences-{registry.id}-{_tick_date(context)}", partition_key=registry.region,
                          tags={"sadie/trigger": "licence_refresh", "sadie/registry": registry.id})

    return refresh


def build_licence_schedules(timezone: str, catalog: RegisterCatalog | None = None) -> list[ScheduleDefinition]:
    """A schedule per register whose refresh is not manual. Stopped until someone starts them,
    like the weekly discovery: each run can add thousands of hotels to resolve and enrich."""
    registers = (catalog or configured_catalog()).registries
    return [_register_schedule(r, cron, timezone) for r in registers if (cron := cron_of(r.refresh)) is not None]
