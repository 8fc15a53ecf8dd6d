"""Lead-export workbook benchmark: write N synthetic hotels (and ~1.5 decision makers per hotel)
with `write_leads_workbook`, streamed from generators, to a temporary .xlsx.

    python benchmarks/workbook_write.py [--hotels 20000] [--dms-per-hotel 1.5] [--small-files 100] [--out FILE]

Rows and cells per second count every row and every column of both sheets (cells left empty
included: the row is what the export produces). Peak RSS is this process's maximum resident
set (getrusage), data generation included. The projection extrapolates the cell rate to the stage's
target (100,000 hotels, each in one city file and one state file, their decision makers
likewise) on one core; the fixed cost of a file is measured apart, on --small-files 5-hotel
workbooks written after the big one.
Prints readable lines, then one JSON line {"benchmark": "workbook_write", "metrics": {...}}.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sadie_pipeline.hotels.exports.workbook import (  # noqa: E402
    DECISION_MAKER_COLUMNS,
    LEAD_COLUMNS,
    write_leads_workbook,
)

ENGINES = [("Cloudbeds", 1), ("SynXis", 1), ("Little Hotelier", 2), ("ResNexus", 2), ("ThinkReservations", 3)]
STREETS = ["Ocean Drive", "Collins Avenue", "Main Street", "Duval Street", "Washington Avenue"]
FIRST = ["Ana", "Ben", "Chloé", "Dev", "Elena", "Farid", "Grace", "Hiro"]
LAST = ["García", "Smith", "Nguyen", "O'Brien", "Kowalski", "Okafor", "Rossi", "Tanaka"]
TITLES = ["General Manager", "Owner", "Director of Sales", "Revenue Manager", "-Owner"]  # one formula-like


def hotels(n: int, seed: int = 7) -> Iterator[dict]:
    rng = random.Random(seed)
    launched = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    for i in range(1, n + 1):
        engine, tier = rng.choice(ENGINES)
        slug = f"hotel-{i}"
        yield {
            "hotel_id": i,
            "name": f"The {rng.choice(['Grand', 'Blue', 'Palm', 'Harbor'])} {rng.choice(['Inn', 'Resort', 'Suites'])} {i}",
            "city": "Miami",
            "state": "Florida",
            "address": f"{rng.randint(1, 9999)} {rng.choice(STREETS)}",
            "zip": f"{rng.randint(33101, 33299)}",
            "phone": f"+1 305 555 {rng.randint(0, 9999):04d}",
            "website": f"https://www.{slug}.example.com/",
            "booking_engine": engine,
            "engine_tier": tier,
            "booking_url": f"https://booking.example.com/{slug}?lang=en" if rng.random() < 0.8 else None,
            "room_count": rng.randint(8, 400) if rng.random() < 0.9 else None,
            "rating": round(rng.uniform(3, 5), 1),
            "review_count": rng.randint(0, 5000),
            "nearest_attraction": "South Beach" if rng.random() < 0.7 else None,
            "nearest_attraction_km": round(rng.uniform(0.1, 20), 2),
            "management_company": "Acme Hospitality" if rng.random() < 0.5 else None,
            "property_type": rng.choice(["Hotel", "Motel", "Boutique hotel", "Resort"]),
            "contact_name": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
            "contact_title": rng.choice(TITLES),
            "email": f"gm@{slug}.example.com" if rng.random() < 0.7 else None,
            "email_status": rng.choice(["valid", "catch-all", "unknown"]),
            "score": rng.randint(0, 100),
            "launched_at": launched + timedelta(minutes=i),
        }


def decision_makers(n_hotels: int, per_hotel: float, seed: int = 11) -> Iterator[dict]:
    rng = random.Random(seed)
    whole, frac = int(per_hotel), per_hotel - int(per_hotel)
    for i in range(1, n_hotels + 1):
        for k in range(whole + (1 if rng.random() < frac else 0)):
            first, last = rng.choice(FIRST), rng.choice(LAST)
            yield {
                "hotel_id": i,
                "hotel_name": f"Hotel {i}",
                "city": "Miami",
                "full_name": f"{first} {last}",
                "title": rng.choice(TITLES),
                "email": f"{first.lower()}.{k}@hotel-{i}.example.com" if rng.random() < 0.8 else None,
                "email_status": rng.choice(["valid", "risky", None]),
                "email_verified": rng.random() < 0.5,
                "phone": f"+1 305 555 {rng.randint(0, 9999):04d}" if rng.random() < 0.4 else None,
                "sources": rng.sample(["website", "rdap", "linkedin", "serper"], 2),
                "confidence": round(rng.random(), 3),
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hotels", type=int, default=20_000)
    parser.add_argument("--dms-per-hotel", type=float, default=1.5)
    parser.add_argument("--small-files", type=int, default=100,
                        help="also write this many 5-hotel workbooks, to measure the fixed cost of one file")
    parser.add_argument("--out", type=Path, default=None, help="keep the workbook here (default: a temporary file)")
    args = parser.parse_args()

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with tempfile.TemporaryDirectory(prefix="workbook-bench-") as tmp:
        out = args.out or Path(tmp) / "leads.xlsx"
        dm_count = 0

        def counted_dms() -> Iterator[dict]:
            nonlocal dm_count
            for dm in decision_makers(args.hotels, args.dms_per_hotel):
                dm_count += 1
                yield dm

        cpu0, t0 = time.process_time(), time.perf_counter()
        stats = write_leads_workbook(out, hotels(args.hotels), counted_dms(), title="Miami, Florida")
        seconds = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        size = out.stat().st_size
        # The fixed cost of a file (a city export is often a handful of hotels).
        few_hotels, few_people = list(hotels(5)), list(decision_makers(5, args.dms_per_hotel))
        small_t0 = time.perf_counter()
        for i in range(args.small_files):
            write_leads_workbook(Path(tmp) / f"small-{i}.xlsx", few_hotels, few_people, title="Small")
        small_file_ms = (time.perf_counter() - small_t0) / max(args.small_files, 1) * 1000
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    rows = stats.hotels + stats.decision_makers
    cells = stats.hotels * len(LEAD_COLUMNS) + stats.decision_makers * len(DECISION_MAKER_COLUMNS)
    # The stage target: 100k hotels in a city file and a state file each, and their decision makers.
    target_cells = 2 * 100_000 * (len(LEAD_COLUMNS) + args.dms_per_hotel * len(DECISION_MAKER_COLUMNS))
    metrics = {
        "hotels": stats.hotels,
        "decision_makers": stats.decision_makers,
        "rows": rows,
        "cells": cells,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "rows_per_s": round(rows / seconds),
        "hotel_rows_per_s_equivalent": round(stats.hotels / seconds),
        "cells_per_s": round(cells / seconds),
        "file_bytes": size,
        "peak_rss_mb": round(peak_rss, 1),
        "rss_before_mb": round(rss_before, 1),
        "small_file_ms": round(small_file_ms, 2),
        "projected_target_seconds_one_core": round(target_cells / (cells / seconds), 1),
        "cpu_count": os.cpu_count(),
    }
    print(f"wrote {stats.hotels} hotels + {stats.decision_makers} decision makers ({cells} cells) in {seconds:.2f} s "
          f"(cpu {cpu:.2f} s)")
    print(f"  {metrics['rows_per_s']} rows/s, {metrics['cells_per_s']} cells/s, "
          f"{metrics['hotel_rows_per_s_equivalent']} hotels/s (with their decision makers)")
    print(f"  file {size / 1e6:.1f} MB, peak RSS {peak_rss:.0f} MB, digest {stats.digest[:16]}")
    print(f"  a 5-hotel file: {small_file_ms:.1f} ms")
    print(f"  projected 100k-hotel stage (city + state files) on one core: "
          f"{metrics['projected_target_seconds_one_core']} s for the rows, plus {small_file_ms:.1f} ms per file")
    print(json.dumps({"benchmark": "workbook_write", "metrics": metrics}))


if __name__ == "__main__":
    main()
