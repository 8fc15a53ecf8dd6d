"""`make demo`: the listings pipeline on the bundled sample DMOs, then a changed revision, one
sample DMO per source type (demo_sources.py), and the hotel half on the bundled sandbox."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from typing import TYPE_CHECKING

from sadie_pipeline.settings import SAMPLE_DIR, environ, sadie_home

if TYPE_CHECKING:
    from dagster import DagsterInstance

    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore

SAMPLE_DMOS = [
    ("visit-pei", "Tourism PEI", "visit-pei.csv"),
    ("charlottetown-eats", "Charlottetown Eats", "charlottetown-eats.csv"),
]


def reset_local_state(echo: Callable[[str], None]) -> None:
    """Empties the embedded database's tables and the local object store (never a configured server)."""
    if os.environ.get("SADIE_DATABASE_URL") or os.environ.get("SADIE_S3_BUCKET"):
        echo("reset skipped: a database or bucket is configured; the demo only resets local state")
        return
    from sadie_pipeline.resource_defs import configured, resolved

    with resolved(configured("database")).connect() as conn:
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
  JOIN LATERAL (SELECT coalesce(q.reused_from, q.id) AS id FROM staging.listings q
                 WHERE q.dmo_id = s.dmo_id AND q.source_id = s.source_id AND q.job_id < s.job_id
                   AND q.promoted_at IS NOT NULL ORDER BY q.job_id DESC LIMIT 1) previous ON true
  JOIN staging.listings p ON p.id = previous.id
  JOIN staging.listing_info pi ON pi.id = p.id
 WHERE s.job_id = %s AND s.action = 'update'
 ORDER BY s.name
"""


def updated_listings(conn, job_id: int) -> list[tuple[str, str]]:
    """What changed for each updated listing of a job, against its last promoted version."""
    return conn.execute(UPDATED, (job_id,)).fetchall()


def run_demo(reset: bool, echo: Callable[[str], None]) -> None:
    import json

    from sadie_pipeline.cli import add_dmo
    from sadie_pipeline.listings.review import approve_all, list_pending
    from sadie_pipeline.listings.runs import import_file, run_job, summary_line
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.resource_defs import configured, resolved

    database, store = resolved(configured("database")), resolved(configured("object_store"))
    echo(f"database: {database.resolved_url()}")
    if reset:
        reset_local_state(echo)
    upgrade(database.resolved_url())

    echo("\n== first imports ==")
    for slug, name, filename in SAMPLE_DMOS:
        config = json.loads((SAMPLE_DIR / filename.replace(".csv", ".config.json")).read_text())
        add_dmo(slug, name, config)
        outcome = import_file(database, store, slug, SAMPLE_DIR / filename)
        echo(summary_line(slug, outcome))

    with database.connect() as conn:
        pending = list_pending(conn)
    echo(f"\n== waiting for review: {len(pending)} ==")
    for row in pending:
        echo(f"  #{row['id']} {row['dmo']}: {row['action']} {row['name']} ({row['city']}): {row['review_reason']}")

    echo("\n== visit-pei sends a changed revision ==")
    outcome = import_file(database, store, "visit-pei", SAMPLE_DIR / "visit-pei.revision.csv")
    echo(summary_line("visit-pei", outcome))
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
    _the_rest(database, store, echo)


def _the_rest(database: Database, store: ObjectStore, echo: Callable[[str], None]) -> None:
    """The other source types, the hotel half, the hybrid scenario, then who may sign in."""
    from sadie_pipeline.demo_hybrid import run_hybrid_demo  # a handful of prospects through SQS and back
    from sadie_pipeline.demo_sources import run_source_types_demo
    from sadie_pipeline.web.demo import demo_admin

    run_source_types_demo(database, store, echo)
    run_hotel_demo(database, echo)
    run_hybrid_demo(database, echo, sadie_home())
    echo(demo_admin(database))
    echo("\nOpen the Dagster UI on the same data with: make dev" + dev_sandbox_note())


def dev_sandbox_note() -> str:
    """Where `make dev` serves the sandbox the demo's pulled DMOs keep as their source."""
    from sadie_pipeline.sandbox.env import stable_port

    try:
        port = stable_port()
    except ValueError:  # the demo's section said so already
        return ""
    return (f" (it serves the sandbox at http://127.0.0.1:{port} too, so the demo DMOs pulled from it can be "
            "pulled again)") if port else ""


DEMO_REGION, DEMO_CITIES = "US-FL", ["Miami", "Miami Beach", "Orlando", "Key West"]


def run_hotel_demo(database, echo: Callable[[str], None]) -> None:
    """The hotel half on the bundled sandbox: its Serper, hotel websites, Groq, Anthropic, RDAP
    and DNS, reached through the same settings production uses (base URLs, proxy, nameserver)."""
    from dagster import DagsterInstance

    from sadie_pipeline.definitions import build_defs
    from sadie_pipeline.hotels.markets import add_market
    from sadie_pipeline.resource_defs import configured, resolved
    from sadie_pipeline.sandbox import Sandbox

    echo(f"\n== hotel leads: {DEMO_REGION} on the bundled sandbox ==")
    announced: list[dict] = []
    with Sandbox(seed=7) as sb:
        sb.configure("sites", hang_s=3.0)  # its "timeout" sites hang 3 s instead of 30: the demo stays short
        # the same variables production sets (base URLs, keys, proxy, nameserver, Graph, Slack)
        with environ(sb.client_env()):
            with database.connect() as conn:
                add_market(conn, DEMO_REGION, DEMO_CITIES)
            resolved(configured("object_store")).put_file(f"inbox/hotels/{DEMO_REGION}/hotels.csv", SAMPLE_DIR / "hotels-us-fl.csv")
            # The sandbox's own quotas are generous; production keeps the resources' default paces.
            fast = {key: configured(key, requests_per_minute=600) for key in ("serper", "groq", "anthropic")}
            # the sandbox's mail servers ask a greylisted sender back after seconds, not minutes
            fast.update(mail_verifier=configured("mail_verifier", greylist_wait_s=2),
                        whois=configured("whois", requests_per_second=10))
            instance = DagsterInstance.get()
            # built now: its resources take the sandbox's settings just put in the environment
            result = build_defs().resolve_job_def("hotel_leads_job").execute_in_process(
                instance=instance, partition_key=DEMO_REGION, raise_on_error=False, resources=fast,
                tags=inbox_sensor_request(instance, database, resolved(configured("object_store"))),
                run_config={"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}})
            if not result.success:
                echo("the hotel run failed; see the run in the Dagster UI")
            announced = sb.inspect("slack")["messages"]
            if os.environ.get("SADIE_DEMO_TIMINGS"):
                for event in result.all_events:
                    if event.event_type_value == "STEP_SUCCESS":
                        echo(f"  {event.step_key}: {event.event_specific_data.duration_ms / 1000:.1f} s")
    echo_hotel_report(database, announced, echo)


def echo_hotel_report(database, announced: list[dict], echo: Callable[[str], None]) -> None:
    """What the hotel run left: per city, the owners, the exports and the Slack messages it sent."""
    from sadie_pipeline.hotels.exports.delivery import counted, latest_exports
    from sadie_pipeline.hotels.owner_summary import owner_lines, owner_summary
    from sadie_pipeline.hotels.summary import city_summary, source_summary
    from sadie_pipeline.resource_defs import configured, resolved

    with database.connect() as conn:
        rows = city_summary(conn, DEMO_REGION)
        echo_sources(source_summary(conn, DEMO_REGION), echo)
    for r in rows:
        echo(f"  {r['city']}: {r['hotels']} hotels discovered, {r['merged_duplicates']} merged duplicates; "
             f"engines tier 1: {r['tier1']}, tier 2: {r['tier2']}, unknown (review): {r['engine_review']}; "
             f"{r['dead_ends']} dead ends; "
             f"{r['enriched']} enriched (layers: {', '.join(r['layers']) or 'none'}); {r['dead_letters']} dead letters; "
             f"{r['scored']} scored, {r['launched']} launched, {r['exported']} exported")
    with database.connect() as conn:
        owners = owner_summary(conn, DEMO_REGION)
        exports = list(latest_exports(conn, DEMO_REGION).values())
    echo(f"\n== owners and verified addresses: {DEMO_REGION} ==")
    for line in owner_lines(owners):
        echo(line)
    store = resolved(configured("object_store"))
    echo(f"\n== lead exports ({len(exports)} files) ==")
    for e in exports:
        where = store.uri(e["object_key"]) + (f"\n      uploaded to the sandbox's OneDrive: {e['web_url']}"
                                              if e["web_url"] else "")
        label = e["city"] or "whole state"
        echo(f"  {label}: {counted(e['hotels'], 'hotel')}, {counted(e['decision_makers'], 'decision maker')} -> {where}")
    for message in announced:
        echo(f"\n== Slack #{message['channel_name']} (sandbox) ==\n{message['text']}")


def echo_sources(sources: list[dict], echo: Callable[[str], None]) -> None:
    """A line per discovery source: its records, their hotels, and those no other source found."""
    echo(f"  discovery sources of {DEMO_REGION}:")
    for s in sources:
        echo(f"    {s['source']}: {s['records']} records -> {s['hotels']} hotels, {s['only_here']} found by no other source")


def inbox_sensor_request(instance: DagsterInstance, database: Database, store: ObjectStore) -> dict[str, str]:
    """The demo's run as the one hotel_inbox_sensor asks for the demo's list: its tags, run key
    and sensor name. Dagster starts a sensor's run key once, so the first tick of `make dev`'s
    daemon finds the key taken and starts nothing (the sensor knows files by its cursor only)."""
    from dagster import build_sensor_context
    from dagster._core.storage.tags import RUN_KEY_TAG, SENSOR_NAME_TAG

    from sadie_pipeline.hotels.intake import hotel_inbox_sensor

    # a `with`: the database resource has a teardown (it writes the step's spend), so it is a context manager
    with build_sensor_context(instance=instance, resources={"database": database, "object_store": store}) as context:
        requests = [r for r in hotel_inbox_sensor(context).run_requests if r.partition_key == DEMO_REGION]
    return {**requests[0].tags, SENSOR_NAME_TAG: hotel_inbox_sensor.name,
            RUN_KEY_TAG: requests[0].run_key} if requests else {}
