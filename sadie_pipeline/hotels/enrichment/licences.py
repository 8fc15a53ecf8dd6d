"""Government lodging licence registers (seed 001's ``gov_registry``, ``LAYER_GOV_DATA``).

* Loading: each register of a region (``LicenceRegisterResource``, configured per state in
  ``data/licence_registers.json``) is downloaded through its guard at most once per
  ``refresh_after_hours``; a file whose content (sha256) was loaded already is not loaded again;
  a changed file replaces its records in ``sadie_gtm.licence_records`` with COPY. The records
  are general (any reader: discovery too), not tied to hotels.
* `licence_owners` (resource ``licence_registers``, pool ``licences``): each tier-1 hotel of the
  region matched to the register's records with the place engine (`core.licences.match_hotels`,
  a record to one hotel at most, also across runs); the match's licence number, licensee and
  mailing address go on the enrichment row, the register's owner (a person, never the licensee
  company) becomes a decision maker titled "Owner". A region without a register completes its
  hotels with nothing found; a register that could not be downloaded dead-letters them (retried
  by a later run) rather than completing them empty.
"""

import asyncio
import hashlib
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from psycopg.types.json import Jsonb

from sadie_pipeline.core.enrichment.confidence import contact_confidence
from sadie_pipeline.core.enrichment.layers import LAYER_GOV_DATA, can_run
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.core.licences import LicenceRecord, ParsedRegister, RegistryConfig, match_hotels, parse_register
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    enrich_regions,
    layer_asset,
    layer_output,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.owner import upsert_decision_maker
from sadie_pipeline.hotels.queries import run, sql
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.licences import LicenceRegisterResource
from sadie_pipeline.resources.reliability import ServiceCallFailed, SkipItem

SOURCE = "gov_registry"
NO_REGISTRY = "no registry for this region"
NOT_FOUND = "no licence record matched"


@dataclass(frozen=True)
class FileLoad:
    registry: str
    url: str
    status: str  # loaded | unchanged (same content) | fresh (downloaded within refresh_after_hours) | failed
    records: int = 0
    filtered: int = 0
    error: str | None = None
    rejected: int = 0  # rows not read (job_errors rows of the load's job)


def _write_file(conn: psycopg.Connection, registry: RegistryConfig, url: str, body: bytes, digest: str,
                parsed: ParsedRegister) -> None:
    """The file's records replace its earlier ones (COPY into a temporary table, then one upsert)."""
    run(conn, "licences", "staging")
    with conn.cursor().copy(sql("licences", "copy_staging")) as copy:
        for record in parsed.records:
            copy.write_row((*record.row(), digest))
    run(conn, "licences", "replace_file_records", {"registry": registry.id, "url": url})
    file = {"registry": registry.id, "url": url, "file_hash": digest, "bytes": len(body), "rows_read": parsed.rows}
    [job_id] = run(conn, "licences", "load_job", file).fetchone()
    with conn.cursor() as cur:  # rows not read: job_errors of the load, the other rows are loaded
        cur.executemany(sql("licences", "load_error"), [
            {"job_id": job_id, "rec_num": p.rec_num, "record_id": f"{url}#row={p.rec_num}",
             "original": Jsonb(p.cells), "message": f"{registry.id}: row {p.rec_num}: {p.reason}"}
            for p in parsed.problems])
    run(conn, "licences", "record_file", {**file, "records": len(parsed.records), "filtered": parsed.filtered,
                                          "job_id": job_id})


async def _download_all(registers: LicenceRegisterResource, urls: list[str]) -> list[bytes | BaseException]:
    try:
        return list(await asyncio.gather(*(registers.download(u) for u in urls), return_exceptions=True))
    finally:
        await registers.aclose()


def load_registry(database: Database, registers: LicenceRegisterResource, registry: RegistryConfig, *,
                  max_age_s: float | None = None) -> list[FileLoad]:
    """Each file of the register loaded unless downloaded within `max_age_s` (default: the
    resource's refresh_after_hours) or unchanged since its last load. Failed downloads come
    back as status "failed" (the other files still load)."""
    max_age = registers.refresh_after_hours * 3600 if max_age_s is None else max_age_s
    urls = [registers.resolved_url(u) for u in registry.urls]
    with database.connect() as conn:
        states = {u: run(conn, "licences", "file_state", {"registry": registry.id, "url": u, "max_age_s": max_age})
                  .fetchone() for u in urls}
    due = [u for u in urls if not (states[u] and states[u][1])]
    out = [FileLoad(registry.id, u, "fresh") for u in urls if u not in due]
    for url, body in zip(due, asyncio.run(_download_all(registers, due)) if due else []):
        if isinstance(body, BaseException):
            out.append(FileLoad(registry.id, url, "failed", error=str(body)[:300]))
            continue
        digest = hashlib.sha256(body).hexdigest()
        with database.connect() as conn:
            if states[url] and states[url][0] == digest:
                run(conn, "licences", "file_checked", {"registry": registry.id, "url": url})
                out.append(FileLoad(registry.id, url, "unchanged"))
                continue
            parsed = parse_register(registry, body, url)
            _write_file(conn, registry, url, body, digest, parsed)
        out.append(FileLoad(registry.id, url, "loaded", len(parsed.records), parsed.filtered,
                            rejected=parsed.rejected))
    return out


def region_records(conn: psycopg.Connection, registries: list[RegistryConfig],
                   hotel_ids: list[int]) -> list[LicenceRecord]:
    """The registers' records no hotel outside `hotel_ids` holds already."""
    rows = run(conn, "licences", "region_records", {"registries": [r.id for r in registries], "hotel_ids": hotel_ids})
    return [LicenceRecord(*row) for row in rows.fetchall()]


def _found(record: LicenceRecord, certainty: float) -> dict[str, Any]:
    return {"registry": record.registry, "licence_number": record.licence_number, "certainty": certainty,
            "business_name": record.business_name, "licensee_name": record.licensee_name,
            "owner_name": record.owner_name, "mailing_address": record.mailing_address, "rooms": record.rooms,
            "source_url": record.source_url, "reason": None}


def _matcher(database: Database, registers: LicenceRegisterResource, region: str, hotels: list[dict[str, Any]],
             loads: dict[str, list[FileLoad]]) -> Any:
    """The region's worker: registers loaded, every hotel matched at once (a record to one hotel),
    then each hotel's answer looked up."""
    registries = registers.for_region(region)
    failure: str | None = None
    if registries and hotels:
        for registry in registries:
            try:
                loads.setdefault(region, []).extend(load_registry(database, registers, registry))
            except ValueError as exc:  # a changed layout: stop rather than misread
                loads.setdefault(region, []).append(FileLoad(registry.id, "", "failed", error=str(exc)[:300]))
        failed = [f for f in loads.get(region, []) if f.status == "failed"]
        failure = "; ".join(f"{f.url or f.registry}: {f.error}" for f in failed)[:500] or None
    matches: dict[int, tuple[int, float]] = {}
    records: list[LicenceRecord] = []
    if registries and hotels and failure is None:
        with database.connect() as conn:
            records = region_records(conn, registries, [h["id"] for h in hotels])
        matches = match_hotels(hotels, records)
    position = {h["id"]: k for k, h in enumerate(hotels)}

    async def lookup(hotel: dict[str, Any]) -> dict[str, Any]:
        if not can_run(LAYER_GOV_DATA, hotel["layers_completed"]):
            raise SkipItem("waiting for the layers it depends on")
        if not registries:
            return {"registry": None, "reason": NO_REGISTRY}
        if failure is not None:
            raise ServiceCallFailed(ErrorClass.TRANSIENT, 1, f"register not loaded: {failure}", service="licences",
                                    item_key=f"hotel:{hotel['id']}")
        match = matches.get(position[hotel["id"]])
        if match is None:
            return {"registry": registries[0].id, "reason": NOT_FOUND}
        return _found(records[match[0]], match[1])

    return lookup


def _person(value: dict[str, Any]) -> dict[str, Any]:
    return {"full_name": value["owner_name"], "title": "Owner", "email": None, "phone": None, "sources": [SOURCE],
            "confidence": contact_confidence(SOURCE),
            "raw_source_url": f"{value['source_url']}#licence={value['licence_number']}"}


@asset(**REGION_ASSET, **layer_asset("licence_owners"), deps=[booking_engine_detection], kinds={"postgres"},
       pool="licences")
def licence_owners(context: AssetExecutionContext, config: LayerConfig, database: Database,
                   licence_registers: LicenceRegisterResource) -> MaterializeResult[pd.DataFrame]:
    """Each tier-1 hotel's lodging licence from its state's register (FL DBPR, TX hotel
    occupancy tax, any configured state): licence number, licensee, mailing address, and the
    owner it names as a decision maker."""
    result = LayerResult("licence_owners")
    loads: dict[str, list[FileLoad]] = {}

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        found = value.get("licence_number") is not None
        values = {"licence_registry": value["registry"], "licence_number": value["licence_number"],
                  "licensee_name": value["licensee_name"], "licence_mailing_address": value["mailing_address"]} \
            if found else {}
        save_layer(conn, hotel["id"], LAYER_GOV_DATA, "licence_owners", values, SOURCE,
                   contact_confidence(SOURCE) if found else None, config.force_refresh)
        if found and value.get("owner_name"):
            upsert_decision_maker(conn, hotel["id"], _person(value), config.force_refresh)

    enrich_regions(context.partition_keys, database, result, LAYER_GOV_DATA, config,
                   lambda region, hotels: _matcher(database, licence_registers, region, hotels, loads), save,
                   concurrency=licence_registers.max_concurrency, whole_region=True)
    for region, files in loads.items():
        context.log.info(f"licence registers of {region}: {[asdict(f) for f in files]}")
    return layer_output(context, database, result, _figures)


def _figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    reasons = Counter(v["reason"] or "matched" for v in values)
    return {
        "licences_matched": sum(1 for v in values if v.get("licence_number")),
        "owners_found": sum(1 for v in values if v.get("owner_name")),
        "outcomes": MetadataValue.json(dict(sorted(reasons.items()))),
    }


licences_assets = [licence_owners]
