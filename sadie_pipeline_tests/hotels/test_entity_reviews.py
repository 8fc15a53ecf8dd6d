"""Hotel entity reviews that close (issue 15, part 2): `sadie hotel review list|approve|reject`, and
the decisions applied by the next hotel_entities runs, against the real PostgreSQL."""

from __future__ import annotations

import getpass

import psycopg
import pytest
from click.testing import CliRunner
from dagster import materialize
from psycopg.types.json import Jsonb

from sadie_pipeline.cli import main
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.assets import hotel_entities
from sadie_pipeline.hotels.entity_reviews import ReviewDecision

# One hotel seen twice: the name alike, same street and house number, nothing else to tell.
INN = {"name": "Coral Reef Inn", "address": "100 Duval St", "city": "Key West", "state": "FL", "zip": "33040",
       "phone": "+13055550100", "website": "coralreefinn.test", "lat": 24.5551, "lng": -81.8003}
# its name and phone at another address: one inn moved, or two of one owner's; a person decides
INN_CSV = {"name": "Coral Reef Inn", "address": "200 Simonton Street", "city": "Key West",
           "state": "FL", "zip": None, "phone": "+13055550100", "website": None}
# Far from the inn, with nothing in common with it: resolved on its own every time.
MOTEL = {"name": "Harbor Light Motel", "address": "77 Causeway Blvd", "city": "Key West", "state": "FL",
         "zip": "33040", "phone": "+13055550199", "website": None}


def _source(conn: psycopg.Connection, source: str, external_id: str, record: dict) -> int:
    return conn.execute(
        """INSERT INTO sadie_gtm.hotel_sources (region, city, source, external_id, record)
           VALUES ('US-FL', %s, %s, %s, %s) RETURNING id""",
        (record["city"], source, external_id, Jsonb(record))).fetchone()[0]


def _entities(instance, database) -> dict:
    result = materialize([hotel_entities], partition_key="US-FL", instance=instance, resources={"database": database})
    assert result.success
    [mat] = result.asset_materializations_for_node("hotel_entities")
    return {k: v.value for k, v in mat.metadata.items()}


def _cli(*args: str):
    return CliRunner().invoke(main, list(args))


def _hotels(conn: psycopg.Connection, *source_ids: int) -> list[int]:
    return [conn.execute("SELECT hotel_id FROM sadie_gtm.hotel_sources WHERE id = %s", (s,)).fetchone()[0]
            for s in source_ids]


def _pending_ids(output: str) -> list[int]:
    """The ids of `review list`: each pair's first line is "ID  REGION  score ..."."""
    return [int(line.split()[0]) for line in output.splitlines() if "  score " in line]


@pytest.fixture
def unsure(sadie_env, database, instance) -> tuple[int, int]:
    """US-FL with one pair waiting for review after a first hotel_entities run: (inn, its CSV copy)."""
    with database.connect() as conn:
        inn = _source(conn, "serper", "place-inn", INN)
        copy = _source(conn, "csv", "csv:inn", INN_CSV)
        _source(conn, "dmo", "dmo:motel", MOTEL)
    meta = _entities(instance, database)
    assert meta["review_pairs"] == 1 and meta["pending_reviews"] == 1, meta
    with database.connect() as conn:
        first, second = _hotels(conn, inn, copy)
    assert first != second  # two hotels until a person says otherwise
    return inn, copy


def test_list_shows_a_pending_pair_side_by_side(unsure):
    out = _cli("hotel", "review", "list", "--region", "us-fl")
    assert out.exit_code == 0, out.output
    [pair_id] = _pending_ids(out.output)
    lines = out.output.splitlines()
    assert lines[0].split()[:2] == [str(pair_id), "US-FL"] and "pending" in lines[0]
    name = next(line for line in lines if " name " in line)
    assert name.count("Coral Reef Inn") == 2 and any("200 Simonton Street" in line for line in lines)
    assert any(line.strip().startswith("why: ") for line in lines)      # the resolver's explanation
    assert lines[-1] == "1 waiting for review"
    assert _cli("hotel", "review", "list", "--region", "US-GA").output.strip() == "0 waiting for review"


def test_approve_merges_on_the_next_run_and_is_not_asked_again(unsure, database, instance):
    inn, copy = unsure
    [pair_id] = _pending_ids(_cli("hotel", "review", "list").output)
    out = _cli("hotel", "review", "approve", str(pair_id), "--by", "alice")
    assert (out.exit_code, out.output.strip()) == (0, "approved 1")
    with database.connect() as conn:
        row = conn.execute("SELECT decision, decided_by, decided_at IS NOT NULL FROM sadie_gtm.hotel_entity_reviews "
                           "WHERE id = %s", (pair_id,)).fetchone()
        before = _hotels(conn, inn, copy)
    assert row == (ReviewDecision.MERGE, "alice", True)

    meta = _entities(instance, database)
    assert meta["decisions_applied"] == 1 and meta["hotels_merged"] == 1 and meta["pending_reviews"] == 0
    with database.connect() as conn:
        after = _hotels(conn, inn, copy)
        duplicate = conn.execute("SELECT status FROM sadie_gtm.hotels WHERE id = %s", (max(before),)).fetchone()[0]
    assert after == [min(before)] * 2 and duplicate == HotelStatus.DUPLICATE  # the older hotel kept
    assert _cli("hotel", "review", "list").output.strip() == "0 waiting for review"
    assert _entities(instance, database)["hotels_merged"] == 0     # applied once, still applied


def test_reject_keeps_them_apart_on_every_later_run(unsure, database, instance):
    inn, copy = unsure
    [pair_id] = _pending_ids(_cli("hotel", "review", "list").output)
    out = _cli("hotel", "review", "reject", str(pair_id))
    assert (out.exit_code, out.output.strip()) == (0, "rejected 1")
    for _ in range(2):
        meta = _entities(instance, database)
        assert meta["decisions_applied"] == 1 and meta["review_pairs"] == 0 and meta["pending_reviews"] == 0
        assert _cli("hotel", "review", "list").output.strip() == "0 waiting for review"
    with database.connect() as conn:
        first, second = _hotels(conn, inn, copy)
        rows = conn.execute("SELECT id, decision, decided_by FROM sadie_gtm.hotel_entity_reviews").fetchall()
    assert first != second
    assert rows == [(pair_id, ReviewDecision.SEPARATE, getpass.getuser())]   # the OS user by default
    listed = _cli("hotel", "review", "list", "--all").output
    assert f"separate by {getpass.getuser()}" in listed and listed.splitlines()[-1] == "0 waiting for review, 1 decided"


def test_unknown_or_decided_ids_are_one_line_each_and_exit_1(unsure):
    out = _cli("hotel", "review", "approve", "999999")
    assert out.exit_code == 1 and out.output.strip() == "999999: no hotel review pair with this id"
    [pair_id] = _pending_ids(_cli("hotel", "review", "list").output)
    assert _cli("hotel", "review", "reject", str(pair_id), "--by", "bob").exit_code == 0
    out = _cli("hotel", "review", "approve", str(pair_id))
    assert out.exit_code == 1 and "Traceback" not in out.output
    [line] = out.output.strip().splitlines()
    assert line.startswith(f"{pair_id}: already decided: separate by bob on ")
    out = _cli("hotel", "review", "approve", str(pair_id), "424242")      # nothing done: no count line
    assert out.exit_code == 1 and len(out.output.strip().splitlines()) == 2


def test_reject_of_two_records_in_one_hotel_gives_the_later_a_hotel_of_its_own(sadie_env, database, instance):
    """A place-id or score merge made earlier, decided against afterwards (the pair entered by hand):
    the entity of the older record keeps the hotel, the other gets a new one."""
    with database.connect() as conn:
        inn = _source(conn, "serper", "place-inn", INN)
        twin = _source(conn, "csv", "csv:twin", dict(INN, google_place_id=None))
    _entities(instance, database)
    with database.connect() as conn:
        [hotel] = set(_hotels(conn, inn, twin))
        conn.execute("""INSERT INTO sadie_gtm.hotel_entity_reviews (source_id_a, source_id_b, score, decision,
                                                                    decided_by, decided_at)
                        VALUES (%s, %s, 0.99, %s, 'carol', now())""", (inn, twin, ReviewDecision.SEPARATE))
    meta = _entities(instance, database)
    assert meta["hotels_split"] == 1 and meta["hotels_created"] == 1 and meta["review_pairs"] == 0
    with database.connect() as conn:
        first, second = _hotels(conn, inn, twin)
    assert first == hotel and second != hotel
    assert _entities(instance, database)["hotels_created"] == 0                 # and it stays that way


def test_the_decision_column_takes_the_enum_values_only(database):
    with database.connect() as conn:
        a = _source(conn, "dmo", "dmo:a", MOTEL)
        b = _source(conn, "csv", "csv:b", MOTEL)
        for decision in ReviewDecision:
            conn.execute("""INSERT INTO sadie_gtm.hotel_entity_reviews (source_id_a, source_id_b, score, decision,
                                                                        decided_by, decided_at)
                            VALUES (%s, %s, 0.6, %s, 'x', now())""", (a, b, decision))
            conn.execute("DELETE FROM sadie_gtm.hotel_entity_reviews")
    with pytest.raises(psycopg.errors.CheckViolation), database.connect() as conn:
        conn.execute("""INSERT INTO sadie_gtm.hotel_entity_reviews (source_id_a, source_id_b, score, decision,
                                                                    decided_by, decided_at)
                        VALUES (%s, %s, 0.6, 'maybe', 'x', now())""", (a, b))
