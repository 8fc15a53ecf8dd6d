"""Listings retry benchmark: a re-import whose stage fails after its files were staged, then the
retried stage, on N generated listings (the data of listings_ingest.py).

The failure is the one a retry has most to recover from: every file committed its transformed
records, and the thin rows of the unchanged ones (written by the stage's own transaction) were
rolled back. Prints the retried stage's seconds, files resumed and staged, and records reused,
and checks that its staged rows are those of a stage that did not fail.

    python benchmarks/listings_retry.py [--n 100000]

Uses SADIE_BENCH_PG_URL (an admin URL; default postgresql://postgres@127.0.0.1:5432/postgres)
for two scratch databases, dropped at the end. Prints one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
SLUG = "bench-dmo"
REFUSE_THIN_ROWS = [
    """CREATE FUNCTION public.refuse_thin() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.reused_from IS NOT NULL THEN RAISE EXCEPTION 'thin row refused'; END IF; RETURN NEW; END $$""",
    "CREATE TRIGGER refuse_thin BEFORE INSERT ON staging.listings FOR EACH ROW EXECUTE FUNCTION public.refuse_thin()",
]
ALLOW_THIN_ROWS = ["DROP TRIGGER refuse_thin ON staging.listings", "DROP FUNCTION public.refuse_thin()"]
# What a stage decides per record, with its targets by their keys: ids depend on the order rows were
# written in, which differs from run to run.
STAGED_ROWS = """
SELECT md5(string_agg(concat_ws('|', s.rec_num, s.source_id, l.listing_match_hash, li.external_source_id,
                                 s.match_method, s.certainty_score, s.action, s.l_action, s.li_action, s.review_status,
                                 s.ok_to_promote, s.reused_from IS NOT NULL, d.source_id),
                      ',' ORDER BY s.rec_num, s.source_id))
  FROM staging.listings s
  LEFT JOIN public.listings l ON l.id = s.target_listing_id
  LEFT JOIN public.listing_info li ON li.id = s.target_listing_info_id
  LEFT JOIN staging.listings d ON d.id = s.duplicate_of
 WHERE s.job_id = (SELECT max(id) FROM pipeline.jobs)
"""


def materialize_assets(db_url: str, store_root: str, names: list[str], key: str | None = None) -> tuple[bool, dict]:
    from dagster import DagsterInstance, materialize

    from sadie_pipeline.listings.assets import listing_assets
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore

    chosen = [a for a in listing_assets if a.key.path[-1] in names]
    run_config = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    if key:
        run_config["ops"] = {"listing_raw_files": {"config": {"inbox_key": key}}}
    with DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("dmo", [SLUG])
        result = materialize(chosen, partition_key=SLUG, instance=instance, raise_on_error=False, run_config=run_config,
                             resources={"database": Database(url=db_url), "object_store": ObjectStore(local_root=store_root)})
    metadata = {m.asset_key.path[-1]: {k: v.value for k, v in m.metadata.items()}
                for m in (e.event_specific_data.materialization for e in result.all_events
                          if e.event_type_value == "ASSET_MATERIALIZATION")}
    return result.success, metadata


def reimport_staged(db_url: str, store_root: str, csv_path: Path, fail_once: bool) -> dict:
    """First import, then the same file again, staged (failing once, then retried, when asked)."""
    import psycopg

    from sadie_pipeline.resources.object_store import ObjectStore

    store = ObjectStore(local_root=store_root)
    for name in ("first", "reimport"):
        store.put_file(f"inbox/{SLUG}/{name}.csv", csv_path)
    assert materialize_assets(db_url, store_root, ["listing_raw_files", "listing_stage", "listing_promotion"],
                              f"inbox/{SLUG}/first.csv")[0]
    assert materialize_assets(db_url, store_root, ["listing_raw_files"], f"inbox/{SLUG}/reimport.csv")[0]
    if fail_once:
        with psycopg.connect(db_url, autocommit=True) as conn:
            for stmt in REFUSE_THIN_ROWS:
                conn.execute(stmt)
        assert not materialize_assets(db_url, store_root, ["listing_stage"])[0]
        with psycopg.connect(db_url, autocommit=True) as conn:
            for stmt in ALLOW_THIN_ROWS:
                conn.execute(stmt)
    started = time.perf_counter()
    ok, metadata = materialize_assets(db_url, store_root, ["listing_stage"])
    seconds = time.perf_counter() - started
    assert ok
    with psycopg.connect(db_url) as conn:
        digest = conn.execute(STAGED_ROWS).fetchone()[0]
    stage = metadata["listing_stage"]
    return {"seconds": seconds, "files_resumed": stage["files_resumed"], "files_staged": stage["files_staged"],
            "records_reused": stage["records_reused"], "digest": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    import psycopg

    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.migrations import upgrade

    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    config = json.loads((HERE / "listings_bench.config.json").read_text())
    names = [f"sadie_bench_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    with tempfile.TemporaryDirectory(prefix="sadie-bench-") as tmp:
        csv_path = Path(tmp) / "listings.csv"
        subprocess.run([sys.executable, str(HERE / "listings_data.py"), "--n", str(args.n), "--seed", str(args.seed),
                        "--out", str(csv_path)], check=True, capture_output=True)
        runs = {}
        try:
            for db_name, fail_once in zip(names, (False, True)):
                db_url = admin.rsplit("/", 1)[0] + f"/{db_name}"
                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{db_name}"')
                upgrade(db_url)
                with psycopg.connect(db_url) as conn:
                    upsert_dmo(conn, SLUG, "Benchmark DMO", config)
                runs["retried" if fail_once else "whole"] = reimport_staged(
                    db_url, str(Path(tmp) / db_name), csv_path, fail_once)
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                for db_name in names:
                    conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    whole, retried = runs["whole"], runs["retried"]
    for name, run in runs.items():
        print(f"{name:<8} stage {run['seconds']:6.2f} s   files resumed {run['files_resumed']}, staged "
              f"{run['files_staged']}; records reused {run['records_reused']}")
    same = whole["digest"] == retried["digest"]
    print(f"the retried stage's rows are {'the same as' if same else 'NOT the same as'} the whole stage's")
    print(json.dumps({"benchmark": "listings_retry", "metrics": {
        "records": args.n, "whole_stage_s": round(whole["seconds"], 2), "retried_stage_s": round(retried["seconds"], 2),
        "retried_files_resumed": retried["files_resumed"], "retried_files_staged": retried["files_staged"],
        "retried_records_reused": retried["records_reused"], "same_rows": same}}))


if __name__ == "__main__":
    main()
