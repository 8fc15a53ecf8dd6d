"""The code versions of the listings assets (their Dagster code_version), stored on every job.
Work of an earlier job is reused (thin rows, twins, redelivered raw files) only when the code that
made it is the same: each version is a digest of the source of the modules that decide its output,
so that no release can forget to change it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import ModuleType

from sadie_pipeline.core import categories, config, fields, hashing, hours, normalize, transform
from sadie_pipeline.core.places import form, index, normal, tables
from sadie_pipeline.core.sources import documents, drupal, geojson, records, scrape, wordpress
from sadie_pipeline.listings import raw_files, readers, stage_files
from sadie_pipeline.listings.queries import SQL_DIR
from sadie_pipeline.listings.sources import raw_items


def source_digest(*sources: ModuleType | Path) -> str:
    digest = hashlib.sha256()
    for source in sources:
        digest.update(Path(source if isinstance(source, Path) else source.__file__).read_bytes())
    return digest.hexdigest()[:16]


# The raw lines a file gives: its parsing, the metadata columns, source_id and raw_hash; for JSON
# documents and pulled sources, how their records are shaped into flat ones (core/sources).
RAW_VERSION = source_digest(readers, raw_files, hashing, normalize, records, documents, geojson, wordpress, drupal,
                            scrape, raw_items)
# A raw record's staged data: the config's defaults (a job's snapshot holds only the DMO's own
# keys), mapping, normalisation, validation, hashes, the place form and keys (core.places), and
# how it is written to the staged rows.
TRANSFORM_VERSION = source_digest(config, transform, categories, normalize, hashing, fields, hours, form, normal, tables, index,
                                  stage_files, SQL_DIR / "stage.sql")
