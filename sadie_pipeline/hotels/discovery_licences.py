"""Licence registers as a discovery source (issue 32): `licence_discovery` writes each lodging
licence of a region's registers (FL DBPR, TX hotel occupancy tax, any state configured in
``data/licence_registers.json``) as a ``hotel_sources`` row of source ``licence``, external id
``{registry}:{licence number}``, through `discovery.save_sources` (COPY).

The files are loaded once, by whichever asset comes first: `enrichment.licences.load_registry`
downloads a file at most once per ``refresh_after_hours`` and loads its records into
``sadie_gtm.licence_records`` only when its content (sha256) changed; the `licence_owners` layer
reads the same records. Discovery writes a file's licences once per content
(``licence_files.discovered_hash``), so a run on unchanged files writes nothing. Closed or
inactive licences are skipped and counted (`core.licence_discovery.is_active`); rows a file could
not be read from are job_errors rows of its load (pipeline.jobs, data_domain ``licences``).
"""

from collections.abc import Iterator
from typing import Any

from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, asset

from sadie_pipeline.core.licence_discovery import SOURCE, LicenceDiscoveryStats, SourceRow, is_active, source_row
from sadie_pipeline.core.licences import RegistryConfig
from sadie_pipeline.hotels import discovery
from sadie_pipeline.hotels.assets import REGION_ASSET
from sadie_pipeline.hotels.enrichment.licences import FileLoad, load_registry
from sadie_pipeline.hotels.queries import run, sql
from sadie_pipeline.metadata import markdown_table, path_list, report_partitions
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.licences import LicenceRegisterResource

NO_REGISTER = "no licence register for this region"
_FETCH_ROWS = 5000  # rows per fetch of the server-side cursor: memory stays flat whatever the register's size


class LicenceDiscoveryConfig(Config):
    cities: list[str] = []
    """Only licences in these cities (default: every licence of the region's registers)."""
    rewrite: bool = False
    """Write every loaded file's licences again, also those whose content was written already."""


def load_region(database: Database, registers: LicenceRegisterResource,
                registries: list[RegistryConfig]) -> list[FileLoad]:
    """Each register's files loaded unless fresh or unchanged (shared with licence_owners)."""
    loads: list[FileLoad] = []
    for registry in registries:
        try:
            loads.extend(load_registry(database, registers, registry))
        except ValueError as exc:  # a changed layout: stopped rather than misread
            loads.append(FileLoad(registry.id, "", "failed", error=str(exc)[:300]))
    return loads


def licence_rows(conn: Any, files: list[tuple[str, str, str]], cities: list[str] | None,
                 stats: LicenceDiscoveryStats) -> Iterator[SourceRow]:
    """The files' active licences as source rows, streamed from a server-side cursor."""
    for registry, url, _ in files:
        with conn.cursor(name=f"licences_{registry}") as cur:
            cur.itersize = _FETCH_ROWS
            cur.execute(sql("discovery_licences", "file_records"), {"registry": registry, "url": url, "cities": cities})
            for (reg, number, kind, status, business, licensee, address, city, state, zip_code, phone,
                 source_url) in cur:
                if not is_active(status):
                    stats.skipped["inactive"] += 1
                    continue
                row = source_row(reg, number, kind, business, licensee, address, city, state, zip_code, phone,
                                 source_url)
                stats.written(row)
                yield row


def discover_region(database: Database, registers: LicenceRegisterResource, region: str,
                    config: LicenceDiscoveryConfig) -> dict[str, Any]:
    """Loads the region's registers and writes their licences not yet written; the figures."""
    registries = registers.for_region(region)
    if not registries:
        return {"source_records": 0, "registers": NO_REGISTER}
    loads = load_region(database, registers, registries)
    # every configured file: one that failed to download now may hold an earlier content not yet written
    urls = [registers.resolved_url(u) for r in registries for u in r.urls]
    cities = [c.lower() for c in config.cities] or None
    stats, result = LicenceDiscoveryStats(), discovery.DiscoveryResult()
    with database.connect() as conn:
        files = run(conn, "discovery_licences", "files_to_discover", {
            "registries": [r.id for r in registries], "urls": urls, "rewrite": config.rewrite}).fetchall()
    with database.connect() as read, database.connect() as write:
        discovery.save_sources(write, region, SOURCE, licence_rows(read, files, cities, stats), result)
        if cities is None:  # a narrowed run wrote part of each file: the next full run writes them whole
            for registry, url, file_hash in files:
                run(write, "discovery_licences", "file_discovered",
                    {"registry": registry, "url": url, "file_hash": file_hash})
    return _figures(loads, files, stats, result)


def _figures(loads: list[FileLoad], files: list[tuple[str, str, str]], stats: LicenceDiscoveryStats,
             result: discovery.DiscoveryResult) -> dict[str, Any]:
    skipped = {"inactive": stats.skipped["inactive"],
               "not_lodging_or_closed_at_load": sum(f.filtered for f in loads),
               "unreadable_rows_at_load": sum(f.rejected for f in loads)}
    failed = [f"{f.url or f.registry}: {f.error}" for f in loads if f.status == "failed"]
    return {
        "source_records": result.by_source.get(SOURCE, 0),
        "skipped_invalid": result.skipped_invalid,
        "by_licence_type": MetadataValue.json(dict(sorted(stats.by_type.items()))),
        "skipped": MetadataValue.json(skipped),
        "files": markdown_table(("registry", "file", "status", "records", "filtered", "unreadable"), (
            (f.registry, f.url.rsplit("/", 1)[-1], f.status, f.records, f.filtered, f.rejected) for f in loads)),
        "files_written": len(files),
        "register_files": path_list([f.url for f in loads if f.url]),
        "failed_files": MetadataValue.json(failed),
        "preview": markdown_table(("external_id", "name", "address", "city", "licence_type"), stats.preview),
        "by_city": MetadataValue.json({c: s.get(SOURCE, 0) for c, s in sorted(result.by_city.items())}),
    }


@asset(**REGION_ASSET, kinds={"postgres"}, pool="licences")
def licence_discovery(context: AssetExecutionContext, config: LicenceDiscoveryConfig, database: Database,
                      licence_registers: LicenceRegisterResource) -> MaterializeResult:
    """Lodging licences of the region's state registers (FL DBPR, TX hotel occupancy tax ...) as
    source records: every licensed hotel, motel, B&B, including the independents search misses."""
    figures, did_work = {}, {}
    for region in context.partition_keys:
        figures[region] = discover_region(database, licence_registers, region, config)
        did_work[region] = bool(figures[region]["source_records"])
        if figures[region].get("registers") == NO_REGISTER:
            context.log.info(f"{region}: {NO_REGISTER}")
        for failure in figures[region].get("failed_files", MetadataValue.json([])).data:
            context.log.warning(f"{region}: register file not loaded: {failure}")
    report_partitions(context, figures, did_work)
    return MaterializeResult()


licence_discovery_assets = [licence_discovery]
