"""`sadie` run as a person runs it, in processes of its own against a database of the test, and the
end state of the listings tables in a form two databases can be compared by (no ids)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from sadie_pipeline.migrations import upgrade
from sadie_pipeline_tests.fixtures.postgres import admin_url, database_url
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG, write_csv

SADIE = [sys.executable, "-m", "sadie_pipeline.cli"]
# Small raw files, so that a few hundred records make enough files for the stage's worker processes.
CONFIG = {**SIMPLE_CONFIG, "import": {"max_records_per_file": 100}}
_CITIES = ("Charlottetown", "Summerside", "Souris", "Montague", "Alberton", "Kensington")
_KINDS = ("Grill", "Inn", "Cafe", "Gallery", "Bakery", "Pub", "Museum", "Lodge")


def places(n: int, start: int = 0, revised: bool = False) -> list[dict[str, str]]:
    """n places; every tenth is sent twice (a duplicate for review). `revised`: other descriptions."""
    rows = []
    for i in range(start, start + n):
        row = {"Name": f"{_KINDS[i % len(_KINDS)]} {i} of {_CITIES[i % len(_CITIES)]}",
               "Address": f"{100 + i} Water St", "City": _CITIES[i % len(_CITIES)],
               "Phone": f"902-555-{i % 10000:04d}", "Description": f"Place {i}{' again' if revised else ''}."}
        rows.append(row)
        if i % 10 == 0:
            rows.append(dict(row, Description=row["Description"] + " (listed twice)"))
    return rows


def listings_file(path: Path, rows: list[dict[str, str]]) -> Path:
    return write_csv(path, rows)


@contextmanager
def scratch_database() -> Iterator[str]:
    """A database of its own (migrated), dropped at the end."""
    name = f"sadie_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = database_url(admin_url(), name)
    try:
        upgrade(url)
        yield url
    finally:
        with psycopg.connect(admin_url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Sadie:
    """The `sadie` command for one database, its own data folder and Dagster instance."""

    def __init__(self, home: Path, database_url: str) -> None:
        self.env = {**os.environ, "SADIE_HOME": str(home / "sadie"), "DAGSTER_HOME": str(home / "dagster"),
                    "SADIE_DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1"}
        self.env.pop("SADIE_S3_BUCKET", None)
        self.url = database_url

    def start(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen([*SADIE, *args], env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)

    def run(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
        return subprocess.run([*SADIE, *args], env=self.env, capture_output=True, text=True, timeout=timeout)

    def add_dmo(self, slug: str, config_dir: Path, config: dict = CONFIG) -> None:
        path = config_dir / f"{slug}.config.json"
        path.write_text(json.dumps(config))
        done = self.run("dmo", "add", slug, "--name", slug.title(), "--config", str(path))
        assert done.returncode == 0, done.stderr


def end_state(url: str) -> dict[str, object]:
    """What a person sees of the listings in a database: listings with their locations and per-DMO
    records, and what waits for review (ids and times left out; a review reason's row ids too)."""
    with psycopg.connect(url) as conn:
        listings = conn.execute(
            """SELECT l.name, l.category, l.listing_visible, l.listing_status, loc.address1, loc.city,
                      (SELECT array_agg(d.slug || ':' || li.external_source_id || ':' || coalesce(li.description, '')
                                        || ':' || li.info_visible ORDER BY d.slug, li.external_source_id)
                         FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id WHERE li.listing_id = l.id)
                 FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
                ORDER BY 1, 5, 7""").fetchall()
        review = conn.execute(
            """SELECT d.slug, s.action, s.source_id, s.name, s.review_reason FROM staging.listings s
                 JOIN public.dmos d ON d.id = s.dmo_id WHERE s.review_status = 'pending' ORDER BY 1, 3, 2, 4""").fetchall()
    return {"listings": listings, "review": [(*r[:4], re.sub(r"\d+", "N", r[4] or "")) for r in review]}


def jobs(url: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute("""SELECT j.id, j.stage, j.status, j.error_summary,
                                      (SELECT count(*) FROM staging.listings s WHERE s.job_id = j.id)
                                 FROM pipeline.jobs j ORDER BY j.id""").fetchall()
