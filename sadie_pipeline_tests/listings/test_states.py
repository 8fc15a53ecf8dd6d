"""The state model: the enums of listings/states.py are the values the database accepts."""

from __future__ import annotations

import re

import pytest

from sadie_pipeline.listings.states import Action, JobStage, JobStatus, ReviewStatus, RowKind


def _allowed(conn, table: str, constraint: str) -> set[str]:
    definition = conn.execute(
        "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass AND conname = %s",
        (table, constraint)).fetchone()[0]
    return set(re.findall(r"'([a-z_]+)'", definition))


@pytest.mark.parametrize(("table", "constraint", "enum"), [
    ("pipeline.jobs", "jobs_stage_check", JobStage),
    ("pipeline.jobs", "jobs_status_check", JobStatus),
    ("staging.listings", "listings_row_kind_check", RowKind),
    ("staging.listings", "listings_action_check", Action),
    ("staging.listings", "listings_l_action_check", Action),
    ("staging.listings", "listings_li_action_check", Action),
    ("staging.listings", "listings_review_status_check", ReviewStatus),
])
def test_each_enum_is_what_its_column_accepts(database, table, constraint, enum):
    with database.connect() as conn:
        assert _allowed(conn, table, constraint) == {m.value for m in enum}


def test_a_value_outside_the_model_is_refused(database):
    import psycopg

    with database.connect() as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute("INSERT INTO public.dmos (slug, name) VALUES ('x', 'X')")
        conn.execute("INSERT INTO pipeline.jobs (dmo_id, status, stage) SELECT id, 'queued', 'import' FROM public.dmos")
