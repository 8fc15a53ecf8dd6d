"""Transform & stage: raw files -> staged rows (per file, checkpointed), then job-level matching."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import psycopg

from sadie_pipeline.core.matching import MatchRecord, match_against, match_within
from sadie_pipeline.core.transform import RecordTransformer
from sadie_pipeline.listings import stage_sql as sql
from sadie_pipeline.listings.raw_files import dumps_line, file_key, iter_jsonl_gz
from sadie_pipeline.listings.repository import Dmo, job_config, set_job_state
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

LISTING_COLUMNS = ("id", "job_id", "dmo_id", "file_seq", "rec_num", "source_id", "name", "category",
                   "google_place_id", "address1", "address2", "city", "state", "zip", "country", "lat", "lng",
                   "listing_match_hash", "l_hash", "location_hash")
INFO_COLUMNS = ("id", "job_id", "description", "contact_name", "email", "local_phone", "international_phone",
                "website_url", "facebook_url", "instagram_url", "twitter_url", "tripadvisor_url", "images", "hours",
                "start_date", "end_date", "li_hash", "contact_info_hash", "images_hash", "hours_hash")
_JSON_COLUMNS = {"images", "hours"}


@dataclass
class StageResult:
    job_id: int | None
    records_read: int = 0
    errors: int = 0
    files_staged: int = 0
    files_resumed: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    needs_review: int = 0
    transformed_keys: list[str] = field(default_factory=list)
    error_types: dict[str, int] = field(default_factory=dict)


def job_to_stage(conn: psycopg.Connection, dmo: Dmo) -> int | None:
    row = conn.execute(
        "SELECT id FROM pipeline.jobs WHERE dmo_id = %s AND stage IN ('imported', 'stage') ORDER BY id DESC LIMIT 1",
        (dmo.id,),
    ).fetchone()
    return row[0] if row else None


def stage_latest_job(db: Database, store: ObjectStore, dmo: Dmo, log: Callable[[str], None] = lambda m: None) -> StageResult:
    with db.connect() as conn:
        job_id = job_to_stage(conn, dmo)
        if job_id is None:
            return StageResult(None)
        set_job_state(conn, job_id, stage="stage", status="in_progress")
        config = job_config(conn, job_id)
        files = conn.execute(
            """SELECT r.id, r.batch, r.file_date, r.record_count, t.id IS NOT NULL
                 FROM pipeline.job_files r
                 LEFT JOIN pipeline.job_files t ON t.job_id = r.job_id AND t.stage = 'transformed' AND t.batch = r.batch
                WHERE r.job_id = %s AND r.stage = 'raw' ORDER BY r.batch""",
            (job_id,),
        ).fetchall()
    result = StageResult(job_id)
    transformer = RecordTransformer(config, dmo.id)
    for file_id, batch, day, count, done in files:
        result.transformed_keys.append(file_key("transformed", dmo.slug, day, job_id, batch))
        if done:
            result.files_resumed += 1
            continue
        _stage_file(db, store, dmo, job_id, file_id, batch, day, transformer)
        result.files_staged += 1
        log(f"staged file {batch} of job {job_id} ({count} records)")
    with db.connect() as conn:
        _resolve(conn, dmo, job_id, config)
        set_job_state(conn, job_id, stage="staged", status="succeeded")
        _summarise(conn, result)
    return result


def _stage_file(db: Database, store: ObjectStore, dmo: Dmo, job_id: int, file_id: int, batch: int,
                day: dt.date, transformer: RecordTransformer) -> None:
    """One raw file in one transaction: its staged rows, its errors and its checkpoint row."""
    raw_key = file_key("raw", dmo.slug, day, job_id, batch)
    staged: list[dict[str, Any]] = []
    errors: list[tuple[Any, ...]] = []
    for raw in iter_jsonl_gz(store, raw_key):
        res = transformer(raw)
        if res.record is None:
            errors.append((job_id, file_id, raw.get("rec_num"), raw.get("source_id"), json.dumps(raw, default=str),
                           res.errors[0].error_type, "; ".join(e.message for e in res.errors)))
        else:
            res.record["rec_num"] = raw.get("rec_num")
            staged.append(res.record)
    out_key = file_key("transformed", dmo.slug, day, job_id, batch)
    with store.open_write(out_key) as fh, gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=1, mtime=0) as gz:
        for rec in staged:
            gz.write(dumps_line(rec))
    with db.connect() as conn:
        ids = [r[0] for r in conn.execute(
            "SELECT nextval('staging.listings_id_seq') FROM generate_series(1, %s)", (len(staged),))]
        with conn.cursor() as cur:
            with cur.copy(f"COPY staging.listings ({', '.join(LISTING_COLUMNS)}) FROM STDIN") as copy:
                for sid, rec in zip(ids, staged):
                    copy.write_row((sid, job_id, dmo.id, batch, rec["rec_num"], *(rec.get(c) for c in LISTING_COLUMNS[5:])))
            with cur.copy(f"COPY staging.listing_info ({', '.join(INFO_COLUMNS)}) FROM STDIN") as copy:
                for sid, rec in zip(ids, staged):
                    copy.write_row((sid, job_id, *(
                        json.dumps(rec.get(c)) if c in _JSON_COLUMNS else rec.get(c) for c in INFO_COLUMNS[2:])))
            if errors:
                cur.executemany(
                    """INSERT INTO pipeline.job_errors (job_id, file_id, stage, rec_num, record_id, original_record,
                                                        error_type, error_message)
                       VALUES (%s, %s, 'stage', %s, %s, %s, %s, %s)""",
                    errors,
                )
        conn.execute(
            """INSERT INTO pipeline.job_files (job_id, s3_path, stage, data_domain, dmo_id, file_date, batch,
                                               format, file_size, record_count)
               VALUES (%s, %s, 'transformed', 'listings', %s, %s, %s, 'jsonl.gz', %s, %s)""",
            (job_id, store.uri(out_key), dmo.id, day, batch, store.size(out_key), len(staged)),
        )


def _resolve(conn: psycopg.Connection, dmo: Dmo, job_id: int, config: dict[str, Any]) -> None:
    params = {"job": job_id, "dmo": dmo.id, "auto_match": config["stage"]["auto_match_threshold"]}
    for stmt in (*sql.LOAD_WORK, sql.EXACT_DUPLICATES, sql.MATCH_BY_BRIDGE, sql.MATCH_BY_HASH):
        conn.execute(stmt, params)
    _fuzzy(conn, params, config["stage"]["review_threshold"])
    for stmt in (sql.TARGET_COLLISIONS, *sql.MATCH_LISTING_INFO, *sql.ACTIONS, *sql.REVIEW_FLAGS, sql.WRITE_BACK):
        conn.execute(stmt, params)
    if config["import"]["full_import"]:
        for stmt in sql.DETECT_DELETIONS:
            conn.execute(stmt, params)
    for stmt in sql.SUPERSEDE_OLDER:
        conn.execute(stmt, params)


def _fuzzy(conn: psycopg.Connection, params: dict[str, Any], review_threshold: float) -> None:
    """Records no exact rule placed: fuzzy candidates among existing listings, then among each other."""
    rows = [MatchRecord(*r) for r in conn.execute(sql.UNMATCHED_ROWS, params)]
    if not rows:
        return
    cities = sorted({r.city.lower() for r in rows if r.city})
    zips = sorted({r.zip.replace(" ", "").upper() for r in rows if r.zip})
    candidates = [MatchRecord(*r) for r in conn.execute(sql.FUZZY_CANDIDATES, {"cities": cities, "zips": zips})]
    to_public = match_against(rows, candidates, review_threshold) if candidates else []
    matched = {m.record_id for m in to_public}
    to_batch = match_within([r for r in rows if r.id not in matched], review_threshold)
    conn.execute("CREATE TEMP TABLE fuzzy (id bigint, target int, dup bigint, certainty numeric) ON COMMIT DROP")
    with conn.cursor().copy("COPY fuzzy (id, target, dup, certainty) FROM STDIN") as copy:
        for m in to_public:
            copy.write_row((m.record_id, m.candidate_id, None, m.certainty))
        for m in to_batch:
            copy.write_row((m.record_id, None, m.candidate_id, m.certainty))
    conn.execute(sql.APPLY_FUZZY)


def _summarise(conn: psycopg.Connection, result: StageResult) -> None:
    params = {"job": result.job_id}
    for action, count, pending in conn.execute(sql.ACTION_COUNTS, params):
        result.actions[action] = count
        result.needs_review += pending
    result.records_read = conn.execute("SELECT coalesce(records_read, 0) FROM pipeline.jobs WHERE id = %s",
                                       (result.job_id,)).fetchone()[0]
    for error_type, count in conn.execute(
        "SELECT error_type, count(*) FROM pipeline.job_errors WHERE job_id = %s AND stage = 'stage' GROUP BY 1",
        (result.job_id,),
    ):
        result.error_types[error_type] = count
    result.errors = sum(result.error_types.values())
