"""`make demo`: the listings pipeline on the bundled sample DMOs, then a changed revision."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

from sadie_pipeline.settings import SAMPLE_DIR, sadie_home

SAMPLE_DMOS = [
    ("visit-pei", "Tourism PEI", "visit-pei.csv"),
    ("charlottetown-eats", "Charlottetown Eats", "charlottetown-eats.csv"),
]


def reset_local_state(echo: Callable[[str], None]) -> None:
    """Empties the embedded database's tables and the local object store (never a configured server)."""
    if os.environ.get("SADIE_DATABASE_URL") or os.environ.get("SADIE_S3_BUCKET"):
        echo("reset skipped: a database or bucket is configured; the demo only resets local state")
        return
    from sadie_pipeline.resources.database import Database

    with Database().connect() as conn:
        conn.execute("DROP SCHEMA IF EXISTS staging, pipeline, sadie_gtm CASCADE")
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")
    shutil.rmtree(sadie_home() / "objects", ignore_errors=True)


UPDATED = """
SELECT s.name,
       concat_ws(', ',
           CASE WHEN s.l_hash IS DISTINCT FROM p.l_hash THEN 'name/category' END,
           CASE WHEN s.location_hash IS DISTINCT FROM p.location_hash THEN 'location' END,
           CASE WHEN i.contact_info_hash IS DISTINCT FROM pi.contact_info_hash THEN 'contact' END,
           CASE WHEN i.li_hash IS DISTINCT FROM pi.li_hash THEN 'description/season' END,
           CASE WHEN i.images_hash IS DISTINCT FROM pi.images_hash THEN 'images' END,
           CASE WHEN i.hours_hash IS DISTINCT FROM pi.hours_hash THEN 'hours' END)
  FROM staging.listings s JOIN staging.listing_info i ON i.id = s.id
  JOIN LATERAL (SELECT * FROM staging.listings q
                 WHERE q.dmo_id = s.dmo_id AND q.source_id = s.source_id AND q.job_id < s.job_id
                   AND q.promoted_at IS NOT NULL ORDER BY q.job_id DESC LIMIT 1) p ON true
  JOIN staging.listing_info pi ON pi.id = p.id
 WHERE s.job_id = %s AND s.action = 'update'
 ORDER BY s.name
"""


def updated_listings(conn, job_id: int) -> list[tuple[str, str]]:
    """What changed for each updated listing of a job, against its last promoted version."""
    return conn.execute(UPDATED, (job_id,)).fetchall()


def run_demo(reset: bool, echo: Callable[[str], None]) -> None:
    import json

    from sadie_pipeline.cli import _print_summary, add_dmo, import_file, run_job
    from sadie_pipeline.listings.review import approve_all, list_pending
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.resources.database import Database

    database = Database()
    echo(f"database: {database.resolved_url()}")
    if reset:
        reset_local_state(echo)
    upgrade(database.resolved_url())

    echo("\n== first imports ==")
    for slug, name, filename in SAMPLE_DMOS:
        config = json.loads((SAMPLE_DIR / filename.replace(".csv", ".config.json")).read_text())
        add_dmo(slug, name, config)
        outcome = import_file(slug, SAMPLE_DIR / filename)
        _print_summary(slug, outcome)

    with database.connect() as conn:
        pending = list_pending(conn)
    echo(f"\n== waiting for review: {len(pending)} ==")
    for row in pending:
        echo(f"  #{row['id']} {row['dmo']}: {row['action']} {row['name']} ({row['city']}): {row['review_reason']}")

    echo("\n== visit-pei sends a changed revision ==")
    outcome = import_file("visit-pei", SAMPLE_DIR / "visit-pei.revision.csv")
    _print_summary("visit-pei", outcome)
    with database.connect() as conn:
        for name, changed in updated_listings(conn, outcome["job_id"]):
            echo(f"  updated: {name} ({changed})")
        deletions = [r for r in list_pending(conn, "visit-pei") if r["action"] == "delete"]
        for row in deletions:
            echo(f"  soft delete proposed: {row['name']} ({row['city']})")
        approved = approve_all(conn, "visit-pei", decided_by="demo")
    echo(f"approving {len(approved)} reviewed rows for visit-pei and promoting again")
    failure = run_job("listing_promote_job", "visit-pei")
    if failure:
        echo(f"promotion failed: {failure}")
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT l.name, li.info_status FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
                JOIN public.dmos d ON d.id = li.dmo_id
               WHERE d.slug = 'visit-pei' AND NOT li.info_visible ORDER BY l.name""").fetchall()
        live = conn.execute(
            """SELECT d.slug, count(*) FILTER (WHERE li.info_visible) FROM public.dmos d
                 LEFT JOIN public.listing_info li ON li.dmo_id = d.id GROUP BY d.slug ORDER BY d.slug""").fetchall()
        total = conn.execute("SELECT count(*) FROM public.listings WHERE listing_visible").fetchone()[0]
    for name, status in rows:
        echo(f"  soft deleted: {name} ({status})")
    echo("\n== listings now live ==")
    for slug, count in live:
        echo(f"  {slug}: {count}")
    echo(f"  canonical listings visible: {total}")
    echo("\nOpen the Dagster UI on the same data with: make dev")
