"""One path: two guides imported as two DMOs through the real assets (stored forms and keys,
candidates from the database, the DMO's model, the re-match at promotion) are judged as the engine
judges the same records at once; a DMO's model is kept and reused across its jobs."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np
import pytest

from sadie_pipeline.core.config import DEFAULT_CONFIG
from sadie_pipeline.core.matching import MatchRecord, classify, match_against
from sadie_pipeline.core.places import prior_model
from sadie_pipeline.listings import dmo_model
from sadie_pipeline_tests.listings.helpers import import_file, register

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import matching_data  # noqa: E402

pytestmark = pytest.mark.slow  # two whole imports through Dagster against PostgreSQL

COLUMNS = {"listings.name": "name", "locations.address1": "address1", "locations.city": "city",
           "locations.state": "state", "locations.zip": "zip", "locations.country": "country",
           "locations.lat": "lat", "locations.lng": "lng", "contact_info.local_phone": "phone",
           "contact_info.website_url": "website"}
# a guide's record without an address is a listing too; its phone in the record's own country
CONFIG = {"transform": {"map_fields": COLUMNS}, "validate": {"required_fields": ["listings.name"]}}
STAGED = """SELECT s.rec_num, s.id, s.name, s.address1, s.city, s.zip, i.international_phone, s.state, i.website_url,
                   s.lat::float8, s.lng::float8, s.target_listing_id, s.action, s.review_status, s.match_method,
                   s.duplicate_of
              FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
              LEFT JOIN staging.listing_info i ON i.id = s.id
             WHERE d.slug = %s AND s.rec_num IS NOT NULL ORDER BY s.rec_num"""


def _write(path: Path, rows: list[dict]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, matching_data.COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _staged(database, slug: str) -> list[tuple]:
    with database.connect() as conn:
        return conn.execute(STAGED, (slug,)).fetchall()


def _record(row: tuple, record_id: int) -> MatchRecord:
    """The staged row as the engine reads it from its text fields (no stored form)."""
    return MatchRecord(record_id, *row[2:11])


def test_two_guides_as_two_dmos_get_the_engines_judgement(tmp_path, database, local_object_store, instance):
    guides = matching_data.generate(600, 23)
    for slug, rows in (("guide-a", guides.a), ("guide-b", guides.b)):
        register(database, instance, slug, CONFIG)
        import_file(database, local_object_store, instance, slug, _write(tmp_path / f"{slug}.csv", rows))
    a_rows, b_rows = _staged(database, "guide-a"), _staged(database, "guide-b")
    # rec_num is the guide's line (a record the transform refused is a job error, not a staged row)
    assert [(r[0], r[2]) for r in b_rows if r[2].lower() != " ".join(guides.b[r[0] - 1]["name"].split()).lower()] == []
    assert len(b_rows) > 0.9 * len(guides.b)
    # the engine on the same records: guide B against guide A's listings, with the priors (guide B's
    # first job) and the DMO config's thresholds
    listings = [_record(r, r[11]) for r in a_rows if r[12] == "insert" and r[13] is None]
    stage = DEFAULT_CONFIG["stage"]
    auto, review = stage["auto_match_threshold"], stage["review_threshold"]
    engine = {m.record_id: m for m in match_against([_record(r, r[1]) for r in b_rows], listings, review, auto)}
    assert len(engine) > 60  # the guides share places: the comparison says something
    targets = [m.candidate_id for m in engine.values() if m.certainty >= auto and not m.review_reason]
    taken = {t for t in targets if targets.count(t) > 1}  # two records on one listing: one is a duplicate
    checked = 0
    for row in b_rows:
        m = engine.get(row[1])
        target, action, status = row[11], row[12], row[13]
        if m is None:
            assert action in ("insert", "duplicate"), row  # new, or a near duplicate of another B record
            continue
        if m.certainty >= auto and not m.review_reason:
            if m.candidate_id in taken and action == "duplicate":
                continue
            assert (target, status) == (m.candidate_id, None), (row, m)
        else:
            assert classify(m.certainty, auto, review) == "review" or m.review_reason, m
            assert status == "pending" and (target == m.candidate_id or action == "duplicate"), (row, m)
        checked += 1
    assert checked >= 60


def test_a_dmos_model_is_kept_for_its_next_job_and_left_as_it_was_by_a_small_one(database):
    levels = np.array([[5, 5, 2, 0]] * 300 + [[1, 1, 1, 0]] * 900, dtype=np.int8)
    with database.connect() as conn:
        dmo = register_plain(conn)
        assert dmo_model.load(conn, dmo) is None  # a new DMO: the priors
        assert dmo_model.learn(conn, dmo, None, [levels[:10]]) is None  # too few pairs to learn from
        learned = dmo_model.learn(conn, dmo, None, [levels])
        stored = dmo_model.load(conn, dmo)
        assert stored is not None and stored.pairs == len(levels) == learned.pairs
        assert stored.share != prior_model().share and abs(stored.share - learned.share) < 1e-6
        conn.execute("UPDATE pipeline.dmo_match_models SET engine_version = 'an older engine'")
        assert dmo_model.load(conn, dmo) is None  # another engine's levels mean other things


def register_plain(conn) -> int:
    return conn.execute("INSERT INTO public.dmos (slug, name) VALUES ('dmo-m', 'Dmo M') RETURNING id").fetchone()[0]
