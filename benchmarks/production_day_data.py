"""The DMOs of a production day and their records, with the truth of which records are one place.

Half the DMOs (at least two) send a CSV file to the inbox; the others are pulled from the sandbox,
WordPress and Drupal in turn, each from a catalog of its own (``big-N``: N listings). The files
come from the place-matching generator (``benchmarks/matching_data``: two guides of one set of
places in two house styles, with every divergence class of shared/real-world-divergences.md): each
guide A record goes to one file DMO, and the guide B record of the same place to another one; a
share of those places is sent by a third and a fourth DMO too (a copy of the B record, another id).
So about ``shared`` of the places appear in two to four DMOs, each pair with its divergences.

Standard library and the generator only; the same arguments give the same day."""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass, field
from pathlib import Path

from matching_data import COLUMNS, generate
from real_guides import GUIDE_CONFIG

FILE_CONFIG = GUIDE_CONFIG  # the file DMOs are CSVs of matching_data.COLUMNS, as the real guides
COPY_BASE = 20_000_000        # ids of the third and fourth DMOs' copies: COPY_BASE * k + the B id
PULLED_KINDS = ("wordpress", "drupal")


@dataclass
class DmoPlan:
    slug: str
    kind: str                                   # csv, wordpress or drupal
    records: int                                # records it sends
    rows: list[dict] = field(default_factory=list)   # a file DMO's rows
    site: str = ""                              # a pulled DMO's sandbox catalog


@dataclass
class Day:
    dmos: list[DmoPlan]
    place_of: dict[tuple[str, str], str]        # (slug, source id) -> place, for the file DMOs' records
    shared_places: int                          # places sent by two DMOs or more

    @property
    def records(self) -> int:
        return sum(d.records for d in self.dmos)


def plan_day(dmos: int, records: int, shared: float, seed: int = 34) -> Day:
    """`dmos` DMOs of about `records` records each; `shared`: the share of the file DMOs' places
    that two to four of them send."""
    n_files = max(2, dmos // 2)
    pulled = [DmoPlan(f"pull-{k:02d}-{PULLED_KINDS[k % 2]}", PULLED_KINDS[k % 2], records + k,
                      site=f"big-{records + k}") for k in range(dmos - n_files)]
    files = [DmoPlan(f"file-{k:02d}", "csv", 0) for k in range(n_files)]
    place_of = _spread(files, records, shared, random.Random(seed), seed)
    for plan in files:
        plan.records = len(plan.rows)
    return Day(files + pulled, place_of, _count_shared(place_of))


def _count_shared(place_of: dict[tuple[str, str], str]) -> int:
    counts: dict[str, int] = {}
    for place in place_of.values():
        counts[place] = counts.get(place, 0) + 1
    return sum(1 for c in counts.values() if c > 1)


def _spread(files: list[DmoPlan], records: int, shared: float, rng: random.Random, seed: int) -> dict:
    """Guide A and B records over the file DMOs; the extra copies for three and four DMOs."""
    # The generator puts about a third of its places in both guides (each with two records);
    # dropping B records and adding copies (half a record a shared place) roughly cancel at 30 %.
    guides = generate(max(40, round(len(files) * records * (1.0 + 0.45 * (0.34 - shared)))), seed)
    # Keep as many of the generator's shared places (a third) as `shared` asks for: the others'
    # B records are not sent, so those places are one DMO's alone.
    places = len(guides.a) + len(guides.b) - len(guides.truth)
    keep = min(1.0, shared * places / max(1, len(guides.truth)))
    pair_of = {b: a for a, b in guides.truth if rng.random() < keep}
    dropped = {b for _, b in guides.truth} - set(pair_of)
    home: dict[int, int] = {}
    place_of: dict[tuple[str, str], str] = {}

    def give(k: int, row: dict, place: str) -> int:
        files[k].rows.append(row)
        place_of[(files[k].slug, str(row["id"]))] = place
        return k

    for row in guides.a:
        home[row["id"]] = k = rng.randrange(len(files))
        give(k, row, f"a{row['id']}")
    for row in guides.b:
        a = pair_of.get(row["id"])
        if row["id"] in dropped:
            continue
        if a is None:
            give(rng.randrange(len(files)), row, f"b{row['id']}")
            continue
        taken = [home[a]]
        taken.append(give(_other(taken, len(files), rng), row, f"a{a}"))
        for extra in (1, 2):   # a third DMO for half the shared places, a fourth for a sixth
            if len(taken) >= len(files) or rng.random() >= (0.5 if extra == 1 else 0.34):
                break
            copy = {**row, "id": COPY_BASE * extra + row["id"]}
            taken.append(give(_other(taken, len(files), rng), copy, f"a{a}"))
    return place_of


def _other(taken: list[int], n: int, rng: random.Random) -> int:
    return rng.choice([k for k in range(n) if k not in taken])


def write_file(plan: DmoPlan, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, COLUMNS)
        writer.writeheader()
        writer.writerows(plan.rows)
    return path


def pulled_config(kind: str, base_url: str, site: str) -> dict:
    """A pulled DMO's config, due at once: its daily schedule's latest tick (03:00 UTC) has passed,
    and the next is a day away (an hourly one would pull again within the day)."""
    from sadie_pipeline_tests.listings.sources_helpers import DRUPAL_FIELDS, WORDPRESS_FIELDS

    if kind == "wordpress":
        url, fields = f"{base_url}/{site}/wp-json/wp/v2/listing", WORDPRESS_FIELDS
    else:
        url = f"{base_url}/{site}/jsonapi/node/listing?include=field_image,field_category,field_address"
        fields = DRUPAL_FIELDS
    return {"import": {"source_type": kind, "url": url, "incremental": {}, "schedule": "daily"},
            "transform": {"map_fields": fields}}
