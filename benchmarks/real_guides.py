"""The real Fodor's and Zagat restaurant guides (533 + 331 records, 112 labelled pairs) through the
real listings pipeline, as two DMOs: guide A imported first, then guide B, each the way
``sadie import`` does it (``sadie_pipeline.listings.runs.import_file``: the file in the DMO's
inbox, ``listing_import_job``: import, stage, promote), with the DMO config's default thresholds.

    pip install -e '.[bench]'    # from a clean clone: the platform and splink (the peer)
    python benchmarks/real_guides.py [--no-splink]

The guides are downloaded once from PyPI (``public_guides.py``: inside py_entitymatching's sdist,
cached under SADIE_BENCH_CACHE); without PyPI the benchmark stops with one line. It creates a
scratch database on the server of SADIE_BENCH_PG_URL (an admin URL; default
postgresql://postgres@127.0.0.1:5432/postgres), dropped at the end; the object store, SADIE_HOME
and DAGSTER_HOME live in a temporary folder.

What it reads back, per guide B record (its staged row of DMO B, by its source id, the B id):
attached automatically to the listing created from its labelled guide A partner (an automatic
match, true or false), waiting in the review queue with a pairing, or a new listing. Printed:
precision, recall and F1 of the automatic matches, the review queue (size, share of true pairs),
the true pairs that ended neither matched nor in review ("silent duplicates"), each missed pair and
each false match with its two records and the stored ``match_explanation``; Splink's figures
beside ours (``splink_peer.py`` on the same two guides; ``--no-splink`` skips it). Then one JSON
line {"benchmark": "real_guides", "metrics": {...}}.

Targets: f1 >= 0.97, precision >= 0.99, silent_duplicates == 0.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from matching_eval import plainly_same, rows_keys  # noqa: E402

TARGETS = {"f1": 0.97, "precision": 0.99, "silent_duplicates": 0}
SLUG_A, SLUG_B = "guide-fodors", "guide-zagat"
# The guides' CSV columns (matching_data.COLUMNS) mapped; everything else is the DMO config's default.
GUIDE_CONFIG = {
    "import": {"source_type": "csv", "file_format": "csv", "full_import": True},
    "transform": {
        "map_fields": {
            "listing_info.source_id": "id", "listings.name": "name", "locations.address1": "address1",
            "locations.city": "city", "locations.state": "state", "locations.zip": "zip",
            "locations.country": "country", "contact_info.local_phone": "phone",
            "contact_info.website_url": "website", "locations.lat": "lat", "locations.lng": "lng",
        },
        "default_country": "US",
    },
}


def load_guides():
    """The guides, or None after one line saying why (PyPI out of reach, a broken download)."""
    from public_guides import PACKAGE, cache_dir, fodors_zagat

    try:
        return fodors_zagat()
    except subprocess.CalledProcessError as exc:
        reason = ((exc.stderr or "").strip().splitlines() or [f"pip exited with {exc.returncode}"])[-1]
        print(f"real_guides: cannot download {PACKAGE} from PyPI into {cache_dir()}: {reason}")
    except (OSError, tarfile.TarError, KeyError) as exc:
        print(f"real_guides: cannot read the guides from {PACKAGE}'s archive in {cache_dir()}: {exc}")
    return None


@contextlib.contextmanager
def scratch_setup(tmp: Path) -> Iterator[str]:
    """A migrated database of its own (dropped at the end) and the environment `sadie` reads: that
    database, a local object store and a Dagster instance under `tmp`."""
    import psycopg

    from sadie_pipeline.instance import ensure_dagster_home
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.settings import environ

    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    url = admin.rsplit("/", 1)[0] + f"/{name}"
    try:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as exc:
        raise SystemExit(f"real_guides: cannot create a database through {admin} (SADIE_BENCH_PG_URL): "
                         f"{str(exc).strip().splitlines()[0]}") from None
    saved = {k: os.environ.pop(k) for k in ("SADIE_S3_BUCKET", "SADIE_DAGSTER_PG_URL") if k in os.environ}
    try:
        upgrade(url)
        with environ({"SADIE_DATABASE_URL": url, "SADIE_HOME": str(tmp / "sadie"),
                      "DAGSTER_HOME": str(tmp / "dagster")}):
            ensure_dagster_home()
            yield url
    finally:
        os.environ.update(saved)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def import_guides(directory: Path) -> float:
    """Guide A then guide B through `sadie import`'s path; the wall time of the two imports."""
    from sadie_pipeline.cli import add_dmo
    from sadie_pipeline.listings.runs import import_file, summary_line
    from sadie_pipeline.resource_defs import configured, resolved

    database, store = resolved(configured("database")), resolved(configured("object_store"))
    wall = 0.0
    for slug, name, path in ((SLUG_A, "Fodor's", directory / "guide_a.csv"),
                             (SLUG_B, "Zagat", directory / "guide_b.csv")):
        add_dmo(slug, name, GUIDE_CONFIG)
        started = time.perf_counter()
        outcome = import_file(database, store, slug, path)
        wall += time.perf_counter() - started
        print(f"{summary_line(slug, outcome)} ({time.perf_counter() - started:.1f} s)", flush=True)
        if outcome["failure"]:
            raise SystemExit(f"real_guides: the import of {slug} failed: {outcome['failure']}")
    return wall


# --- what the database holds ---------------------------------------------------------------------

LISTING_OF = """SELECT li.external_source_id, li.listing_id FROM public.listing_info li
                  JOIN public.dmos d ON d.id = li.dmo_id WHERE d.slug = %s"""
STAGED = """SELECT s.id, s.source_id, s.action, s.l_action, s.match_method, s.certainty_score, s.target_listing_id,
                   s.duplicate_of, s.review_status, s.review_reason, s.match_explanation
              FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
             WHERE d.slug = %s AND s.row_kind <> 'deletion' ORDER BY s.id"""
PENDING_A = """SELECT count(*) FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
                WHERE d.slug = %s AND s.review_status = 'pending'"""
ERRORS = """SELECT e.record_id, e.error_type || ': ' || e.error_message FROM pipeline.job_errors e
              JOIN pipeline.jobs j ON j.id = e.job_id JOIN public.dmos d ON d.id = j.dmo_id WHERE d.slug = %s"""


def outcomes(url: str) -> tuple[dict[int, int], dict[int, dict], dict]:
    """(guide A id -> its listing, guide B id -> its staged row's outcome, facts about the imports:
    guide A rows pending, each guide's refused records by id).

    An outcome is {"kind": "auto" | "review" | "new", "target": listing or None, ...the row}: auto
    when attached to an existing listing with no review, review when pending (a duplicate of another
    staged row pairs with that row's listing)."""
    import psycopg

    with psycopg.connect(url) as conn:
        listing_of = {int(s): lid for s, lid in conn.execute(LISTING_OF, (SLUG_A,)) if s and s.isdigit()}
        rows = conn.execute(STAGED, (SLUG_B,)).fetchall()
        facts = {"pending_a": conn.execute(PENDING_A, (SLUG_A,)).fetchone()[0],
                 "errors": {slug: dict(conn.execute(ERRORS, (slug,)).fetchall()) for slug in (SLUG_A, SLUG_B)}}
    columns = ["id", "source_id", "action", "l_action", "match_method", "certainty", "target", "duplicate_of",
               "review_status", "review_reason", "explanation"]
    by_row = {r[0]: dict(zip(columns, r)) for r in rows}
    out = {}
    for row in by_row.values():
        if row["review_status"] == "pending":
            kind, target = "review", row["target"]
            if row["action"] == "duplicate" and row["duplicate_of"] in by_row:
                target = by_row[row["duplicate_of"]]["target"]
        elif row["target"] is not None and row["l_action"] not in ("insert", "duplicate"):
            kind, target = "auto", row["target"]
        else:
            kind, target = "new", None
        out[int(row["source_id"])] = {**row, "kind": kind, "target": target}
    return listing_of, out, facts


def score(truth: list[tuple[int, int]], listing_of: dict[int, int], staged: dict[int, dict], keys: dict) -> dict:
    """Precision, recall and F1 of the automatic matches, the review queue, the true pairs neither
    matched nor in review (lost), and of those the silent duplicates: sharing a phone, or a name core
    and a house number (matching_eval.plainly_same)."""
    partner = {b: a for a, b in truth}
    auto = {b: o for b, o in staged.items() if o["kind"] == "auto"}
    true_auto = sum(1 for b, o in auto.items() if b in partner and o["target"] == listing_of.get(partner[b]))
    review = {b: o for b, o in staged.items() if o["kind"] == "review"}
    true_review = sum(1 for b, o in review.items() if b in partner and o["target"] == listing_of.get(partner[b]))
    precision = true_auto / len(auto) if auto else 1.0
    recall = true_auto / len(truth) if truth else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    found = {b for b, o in staged.items() if o["kind"] in ("auto", "review") and o["target"] is not None
             and o["target"] == listing_of.get(partner.get(b, -1))}
    return {"precision": round(precision, 5), "recall": round(recall, 5), "f1": round(f1, 5),
            "auto_matches": len(auto), "true_auto_matches": true_auto, "review_queue": len(review),
            "review_true_share": round(true_review / len(review), 5) if review else None,
            "lost": sum(1 for _, b in truth if b not in found),
            "silent_duplicates": sum(1 for a, b in truth if b not in found and plainly_same(keys.get(a), keys.get(b)))}


# --- printing ------------------------------------------------------------------------------------

def _record(row: dict | None) -> str:
    if row is None:
        return "(none)"
    return f"{row['id']}: {row['name']} | {row['address1']} | {row['city']} | {row['phone']}"


def print_misses(guides, listing_of: dict[int, int], staged: dict[int, dict], errors: dict) -> None:
    """Each true pair not matched automatically, then each false automatic match: the two records,
    what became of the B record, and its stored explanation."""
    a_rows = {int(r["id"]): r for r in guides.a}
    a_of_listing = {lid: a for a, lid in listing_of.items()}
    partner = {b: a for a, b in guides.truth}
    b_rows = {int(r["id"]): r for r in guides.b}
    missed = [(a, b) for a, b in guides.truth
              if staged.get(b, {}).get("kind") != "auto" or staged[b]["target"] != listing_of.get(a)]
    false = [(a_of_listing.get(o["target"]), b) for b, o in staged.items()
             if o["kind"] == "auto" and o["target"] != listing_of.get(partner.get(b, -1))]
    for title, pairs in (("true pairs not matched automatically", missed), ("false automatic matches", false)):
        print(f"\n{title}: {len(pairs)}")
        for a, b in pairs:
            o = staged.get(b, {})
            how = {"auto": "matched to another listing", "review": "in review",
                   "new": "a new listing"}.get(o.get("kind"), "not staged")
            if o.get("kind") == "review" and o["target"] == listing_of.get(partner.get(b, -1)):
                how = "in review with its partner"
            if a not in listing_of:
                how += f"; guide A's record has no listing ({errors[SLUG_A].get(str(a), 'not promoted')})"
            print(f"  A {_record(a_rows.get(a))}\n  B {_record(b_rows.get(b))}\n"
                  f"    -> {how}; method {o.get('match_method')}, certainty {o.get('certainty')}, "
                  f"reason {o.get('review_reason')}\n    why: {json.dumps(o.get('explanation'), sort_keys=True)}")


def run_splink(directory: Path, out: Path, truth: list[tuple[int, int]]) -> dict:
    """Splink (splink_peer.py) on the same two guides; its metrics, {} when absent or failed."""
    if importlib.util.find_spec("splink") is None:
        print("splink: not installed, peer skipped (pip install -e '.[bench]')")
        return {}
    proc = subprocess.run([sys.executable, str(HERE / "splink_peer.py"), str(directory), str(out)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"splink: failed ({(proc.stderr.strip().splitlines() or ['no output'])[-1]}), peer skipped")
        return {}
    peer = json.loads(out.read_text())
    predicted = {(a, b) for a, b, _ in peer["pairs"]}
    tp = len(predicted & set(truth))
    precision = tp / len(predicted) if predicted else 1.0
    recall = tp / len(truth) if truth else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(f"splink {peer['splink']} (link_only, best match per B record at probability {peer['threshold']}): "
          f"{tp} correct of {len(predicted)} -> precision {precision:.4f}, recall {recall:.4f}, F1 {f1:.4f} "
          f"({peer['wall_s']:.1f} s)")
    return {"splink_precision": round(precision, 5), "splink_recall": round(recall, 5), "splink_f1": round(f1, 5),
            "splink_wall_s": peer["wall_s"], "splink_version": peer["splink"]}


def report(guides, metrics: dict, facts: dict) -> None:
    print(f"\nguide A {len(guides.a)} records, guide B {len(guides.b)}, {len(guides.truth)} labelled pairs; "
          f"{facts['pending_a']} guide A rows wait for review (pairs within guide A, not scored)")
    for slug, refused in facts["errors"].items():
        for record_id, message in refused.items():
            print(f"{slug}: record {record_id} refused: {message}")
    print(f"automatic matches: {metrics['true_auto_matches']} true of {metrics['auto_matches']} -> precision "
          f"{metrics['precision']:.4f}, recall {metrics['recall']:.4f}, F1 {metrics['f1']:.4f}")
    share = metrics["review_true_share"]
    print(f"review queue (guide B): {metrics['review_queue']} rows, "
          f"{'-' if share is None else f'{share:.1%}'} of them paired with their true partner")
    print(f"true pairs neither matched nor in review: {metrics['lost']}; of them silent duplicates (sharing a phone, "
          f"or a name core and a house number): {metrics['silent_duplicates']}")
    misses = [k for k in ("f1", "precision") if metrics[k] < TARGETS[k]]
    misses += ["silent_duplicates"] if metrics["silent_duplicates"] > TARGETS["silent_duplicates"] else []
    print("targets: " + ("all met" if not misses else "missed " + ", ".join(misses)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-splink", action="store_true", help="skip the Splink peer")
    args = parser.parse_args(argv)
    from dagster import BetaWarning, PreviewWarning

    # as `sadie` does: Dagster's notes on beta parameters, once per asset, would bury the figures
    warnings.filterwarnings("ignore", category=BetaWarning)
    warnings.filterwarnings("ignore", category=PreviewWarning)
    guides = load_guides()
    if guides is None:
        return 1
    from public_guides import write

    with tempfile.TemporaryDirectory(prefix="sadie-guides-") as tmp:
        directory = Path(tmp) / "guides"
        write(guides, str(directory))
        with scratch_setup(Path(tmp)) as url:
            wall = import_guides(directory)
            listing_of, staged, facts = outcomes(url)
        metrics = score(guides.truth, listing_of, staged, rows_keys([*guides.a, *guides.b]))
        metrics["wall_s"] = round(wall, 2)
        print_misses(guides, listing_of, staged, facts["errors"])
        report(guides, metrics, facts)
        if not args.no_splink:
            metrics.update(run_splink(directory, Path(tmp) / "splink.json", guides.truth))
    print(json.dumps({"benchmark": "real_guides", "metrics": metrics}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
