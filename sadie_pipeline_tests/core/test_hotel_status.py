"""Hotel statuses are stored data: changing a number is a migration. These pin the numbers seed 000
(seed 001 for DUPLICATE) gives them and the sets the queries select by."""

from __future__ import annotations

import re
import subprocess
import sys

from sadie_pipeline.core.hotel_status import (
    DETECTED_OR_ENRICHED,
    DETECTED_OR_LATER,
    ENRICHED_OR_LATER,
    LAUNCHED,
    SCORED_OR_LATER,
    HotelStatus,
)
from sadie_pipeline.settings import SQL_DIR


def test_the_numbers_are_the_seeds():
    assert {s.name: s.value for s in HotelStatus} == {
        "DUPLICATE": -3, "SCRAPED": 0, "DETECTED": 1, "ENRICHED": 3, "SCORED": 4, "LIVE": 5, "EXPORTED": 6,
        "ENGINE_REVIEW": 98, "NO_BOOKING_ENGINE": 99,
    }


def test_the_named_sets():
    S = HotelStatus
    assert DETECTED_OR_LATER == (S.DETECTED, S.ENRICHED, S.SCORED, S.LIVE, S.EXPORTED)
    assert DETECTED_OR_ENRICHED == (S.DETECTED, S.ENRICHED)
    assert ENRICHED_OR_LATER == (S.ENRICHED, S.SCORED, S.LIVE, S.EXPORTED)
    assert SCORED_OR_LATER == (S.SCORED, S.LIVE, S.EXPORTED)
    assert LAUNCHED == (S.LIVE, S.EXPORTED)
    # neither a merged duplicate nor a dead end is ever in the pipeline's sets
    for named in (DETECTED_OR_LATER, DETECTED_OR_ENRICHED, ENRICHED_OR_LATER, SCORED_OR_LATER, LAUNCHED):
        assert S.DUPLICATE not in named and S.NO_BOOKING_ENGINE not in named and S.SCRAPED not in named
        assert S.ENGINE_REVIEW not in named  # an unknown engine waits for review, outside the pipeline


def test_the_pipeline_status_view_uses_the_same_numbers():
    # the view keeps its literals (migrations are not rewritten); each must still be a status
    for migration in ("0005_golden_scoring.sql", "0022_booking_detection.sql"):
        view = (SQL_DIR / migration).read_text()
        numbers = {int(n) for n in re.findall(r"WHEN h\.status = (-?\d+)", view)}
        assert numbers and numbers <= {s.value for s in HotelStatus}
    assert {int(n) for n in re.findall(r"WHEN h\.status = (-?\d+)", view)} >= {s.value for s in HotelStatus} - {-3, 1, 3}


def test_the_module_imports_neither_dagster_nor_a_driver():
    code = ("import sys, sadie_pipeline.core.hotel_status; "
            "print(sorted(m for m in ('dagster', 'psycopg') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
