"""The one Definitions object of the code location: each domain's definitions plus shared resources,
catalogued (catalog.py: lineage across domains, external assets, versions, owners, freshness)."""

from dagster import Definitions

# imported before the domains, whose decorators say the warnings: it silences them on import
import sadie_pipeline.dagster_warnings  # noqa: F401
from sadie_pipeline.catalog import catalogued
from sadie_pipeline.hotels import definitions as hotels
from sadie_pipeline.hybrid import definitions as hybrid
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.listings import definitions as listings
from sadie_pipeline.operations import definitions as operations
from sadie_pipeline.resource_defs import shared_resources


def build_defs() -> Definitions:
    """The definitions for the environment as it is now: each resource setting an EnvVar when its
    variable is set (see resource_defs), schedules in SADIE_SCHEDULE_TIMEZONE."""
    shared = shared_resources()
    domains = Definitions.merge(listings.build_defs(), hotels.build_defs(), operations.build_defs(),
                                hybrid.build_defs())  # issue 35: the hybrid queue's sensor and job
    return Definitions.merge(
        catalogued(domains),
        # the IO managers store through the same database and object store
        Definitions(resources={**shared, **io_manager_resources(shared["database"], shared["object_store"])}),
    )


defs = build_defs()
