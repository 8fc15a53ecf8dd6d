"""The code versions of the listings' derived data, stored on every job (raw_version, transform_version,
key_version) and on every listing's keys: the assets' Dagster code_version. Each is the digest of
the import closure of the modules that make the data (code_versions.py): every project module they
import, found by parsing them, so that no release can forget to change it. An earlier job's work is
reused (thin rows, twins, redelivered raw files) only when the code that made it is the running code."""

from __future__ import annotations

from sadie_pipeline.code_versions import code_version
from sadie_pipeline.listings.queries import SQL_DIR

# The raw lines a file gives: its parsing, the metadata columns, source_id and raw_hash (the
# importer); for JSON documents and pulled sources, how their records are shaped (sources.pull).
RAW_VERSION = code_version("sadie_pipeline.listings.importer", "sadie_pipeline.listings.sources.pull")
# A raw record's staged data, in the stage's workers: mapping, normalisation, validation, hashes,
# the place form and keys, the COPY of stage.sql; with the config's defaults, which job_config
# applies (a job's snapshot holds only the DMO's own keys).
TRANSFORM_VERSION = code_version("sadie_pipeline.listings.stage_files", "sadie_pipeline.listings.repository",
                                 data=[SQL_DIR / "stage.sql"])
# The listings' place forms and blocking keys (core.matching.place_columns, which the stage's workers
# and match_keys both call): a change keys every listing again.
KEY_VERSION = code_version("sadie_pipeline.core.matching")

