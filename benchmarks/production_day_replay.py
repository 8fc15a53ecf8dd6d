"""The production day's file DMOs imported again one after the other, in the order the day's
promotions committed, in-process on a scratch database: the shared places that split then are the
matching engine's, in that order; those the day split beyond them are the concurrency's.

Only the file DMOs: the pulled ones read catalogs of their own, which share no place with
anyone (production_day_data). The same assets as the day's runs (`listing_assets`: import, stage,
promote), one DMO at a time, so nothing runs concurrently."""

from __future__ import annotations

import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from production_day_data import FILE_CONFIG, Day, write_file
from production_day_measure import cross_dmo_duplicates
from scratch_db import drop_database, fresh_database


def in_order_duplicates(day: Day, order: list[str], admin: str, keep: bool = False) -> tuple[int, list[str]]:
    """(shared places split, the first of them) after the file DMOs of `order` are imported in it;
    its database dropped unless kept."""
    from dagster import DagsterInstance, materialize

    from sadie_pipeline.listings.assets import listing_assets
    from sadie_pipeline.listings.importer import inbox_prefix
    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore

    plans = {p.slug: p for p in day.dmos if p.kind == "csv"}
    url = fresh_database("sadie_day_replay", admin=admin)
    try:
        database = Database(url=url)
        with tempfile.TemporaryDirectory(prefix="sadie-replay-") as tmp, DagsterInstance.ephemeral() as instance:
            store = ObjectStore(local_root=str(Path(tmp) / "objects"))
            for slug in (s for s in order if s in plans):
                with database.connect() as conn:
                    upsert_dmo(conn, slug, slug, FILE_CONFIG)
                instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [slug])
                key = f"{inbox_prefix(slug)}{slug}.csv"
                store.put_file(key, write_file(plans[slug], Path(tmp) / f"{slug}.csv"))
                result = materialize(listing_assets, partition_key=slug, instance=instance,
                                     resources={"database": database, "object_store": store},
                                     run_config={"ops": {"listing_raw_files": {"config": {"inbox_key": key}}},
                                                 "loggers": {"console": {"config": {"log_level": "WARNING"}}}})
                assert result.success, f"the replay of {slug} failed"
        with database.connect() as conn:
            return cross_dmo_duplicates(conn, day)
    finally:
        if keep:
            print(f"kept the replay's database {urlsplit(url).path.lstrip('/')}", flush=True)
        else:
            drop_database(url, admin)
