"""Staging's fuzzy candidates (sql/resolve.sql fuzzy_candidates with matching.candidate_filter) against
the real PostgreSQL: the listings the filter leaves out are never ones fuzzy matching would pick."""

from __future__ import annotations

import random

import psycopg
import pytest

from sadie_pipeline.core.matching import (
    NO_CANDIDATE_FILTER,
    CandidateFilter,
    MatchRecord,
    candidate_blocks,
    candidate_filter,
    match_against,
)
from sadie_pipeline.listings.queries import sql


def add_listings(conn: psycopg.Connection, rows: list[tuple[str, str | None, str | None, str | None]]) -> list[int]:
    """(name, address1, city, zip) as public listings; their ids."""
    ids = []
    for name, address, city, postal in rows:
        location = conn.execute("INSERT INTO public.locations (address1, city, zip) VALUES (%s, %s, %s) RETURNING id",
                                (address, city, postal)).fetchone()[0]
        ids.append(conn.execute("INSERT INTO public.listings (name, location_id) VALUES (%s, %s) RETURNING id",
                                (name, location)).fetchone()[0])
    return ids


def candidates(conn: psycopg.Connection, records: list[MatchRecord], wanted: CandidateFilter | None) -> list[MatchRecord]:
    cities, zips = candidate_blocks(records)
    params = {"cities": cities, "zips": zips, "after": 0, **(wanted or NO_CANDIDATE_FILTER)._asdict()}
    return [MatchRecord(*r) for r in conn.execute(sql("resolve", "fuzzy_candidates") + " ORDER BY l.id", params)]


@pytest.fixture
def conn(database):
    with database.connect() as c:
        yield c


def test_only_listings_at_another_plain_house_number_are_left_out(conn):
    records = [MatchRecord(1, "Gahan House", "126 Sydney St", "Charlottetown", "C1A 1A1")]
    ids = add_listings(conn, [
        ("Gahan House", "126 Sydney Street", "Charlottetown", None),      # same number
        ("Gahan House", "128 Sydney St", "Charlottetown", None),          # another number: left out
        ("Gahan House", "128 sydney st", None, "c1a1a1"),                  # another number, by postal code: left out
        ("Gahan House", "Sydney Street", "Charlottetown", None),          # no number
        ("Gahan House", "#128 Sydney St", "Charlottetown", None),         # not a plain first word
        ("Gahan House", "126-128 Sydney St", "Charlottetown", None),      # punctuation: 126128 to matching
        ("Gahan House", "١٢٨ Sydney St", "Charlottetown", None),          # not ASCII
        ("Gahan House", None, "Charlottetown", None),                      # no address
        ("Gahan House", "126 Sydney St", None, "C1A 1A1"),                # same number, by postal code
        ("Gahan House", "126 Sydney St", "CHARLOTTETOWN.", "C1A 1A1"),    # a spelling no record has
        ("Gahan House", "128 Sydney St", "Summerside", None),             # another block altogether
    ])
    wanted = candidate_filter(records, 0.5)
    kept = {c.id for c in candidates(conn, records, wanted)}
    assert kept == {ids[i] for i in (0, 3, 4, 5, 6, 7, 8, 9)}
    assert {c.id for c in candidates(conn, records, None)} == set(ids[:10])  # the blocks, unfiltered


def test_a_city_spelled_otherwise_in_the_block_keeps_its_numbers(conn):
    """"St. John's" and "St Johns" are one block to matching: a record in either spelling counts
    for listings in both."""
    records = [MatchRecord(1, "Gahan House", "126 Sydney St", "St. John's"),
               MatchRecord(2, "Island Inn", "4 King St", "ST JOHNS")]
    ids = add_listings(conn, [("Gahan House", "126 Sydney St", "St Johns", None),
                              ("Island Inn", "4 King St", "st. john's", None),
                              ("Island Inn", "5 King St", "st. john's", None)])
    wanted = candidate_filter(records, 0.5)
    assert {c.id for c in candidates(conn, records, wanted)} == {ids[0], ids[1]}


def test_the_filter_changes_no_match(conn):
    """Records and listings with near names at a few house numbers, in cities and postal codes
    spelled several ways, some addresses with punctuation or without a number: fuzzy matching picks
    the same listing for every record from the filtered candidates as from all the block's listings."""
    rnd = random.Random(11)
    names = ["Gahan House", "Harbour View Grill", "Island Inn", "Water Street Cafe", "Red Shores"]
    cities = ["Charlottetown", "CHARLOTTETOWN", "charlottetown.", "St. John's", "St Johns", None]
    zips = ["C1A 1A1", "c1a1a1", "C1A 2B2", None]
    streets = ["Water St", "Water Street", "King St", "Sydney St."]

    def address() -> str | None:
        number = str(rnd.choice([4, 12, 14, 126, 128]))
        shape = rnd.random()
        if shape < 0.05:
            return None
        if shape < 0.15:
            return rnd.choice(streets)
        if shape < 0.25:
            return rnd.choice(["#", "No. ", " "]) + number + " " + rnd.choice(streets)
        if shape < 0.3:
            return number + rnd.choice(["a", "B", "-2", ","]) + " " + rnd.choice(streets)
        return number + " " + rnd.choice(streets)

    def near(name: str) -> str:
        return name if rnd.random() < 0.5 else name.replace("a", "e", 1)

    add_listings(conn, [(near(rnd.choice(names)), address(), rnd.choice(cities), rnd.choice(zips)) for _ in range(400)])
    for trial in range(20):
        records = [MatchRecord(i, near(rnd.choice(names)), str(rnd.choice([4, 12, 14, 126])) + " " + rnd.choice(streets),
                               rnd.choice(cities[:-1]), rnd.choice(zips)) for i in range(1, 4)]
        wanted = candidate_filter(records, 0.5)
        assert wanted is not None
        everything = candidates(conn, records, None)
        kept = candidates(conn, records, wanted)
        assert len(kept) < len(everything)
        assert match_against(records, kept, 0.5) == match_against(records, everything, 0.5), trial

