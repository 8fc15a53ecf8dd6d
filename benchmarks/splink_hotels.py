"""Splink (4.x, DuckDB backend) on the hotel discovery records of the entity resolution benchmark:
the peer that ``benchmarks/entity_resolution.py`` compares ``resolve`` with.

    python benchmarks/splink_hotels.py RECORDS.csv OUT.json [--threshold 0.8]

RECORDS.csv is ``benchmarks/hotel_sources_data.py``'s output. The configuration is what a
competent user writes in an hour from Splink's tutorial, not tuned on the data:

* cleaning: name, address and city lower-cased, accents folded, punctuation dropped (address:
  its first comma-separated part, since Serper gives the whole formatted address); phone in
  E.164 by the platform's ``phone_to_e164`` (region US); website reduced to its host without
  ``www.``; ZIP cut to five characters; state as given, upper-cased (kept, not compared);
* comparisons: name (Jaro-Winkler 0.95 / 0.88 / 0.7), address (Levenshtein 1 / 3 / 6), phone
  exact, website host exact, city exact, ZIP exact, distance on lat/lng (0.1 / 1 km);
* blocking: same phone; same website host; same ZIP and first four letters of the name; same
  city and same first name word;
* not given to Splink: the sources' ids (Serper place ids, DMO and CSV ids). ``resolve``
  treats an equal external place id as the same place; Splink has no such rule, and an exact
  comparison on an id that differs across sources would only teach it noise, so the ids are
  left out;
* training: the prior from the phone rule (recall 0.7), u by random sampling (5 million pairs,
  seed 1), m by EM on two blocking rules (phone; ZIP + name prefix);
* dedupe_only over all records; pairs with match probability >= the threshold (0.8, the
  platform's merge threshold; fixed, not picked on the data) are clustered with
  ``cluster_pairwise_predictions_at_threshold``.

Runs in its own process (the benchmark starts it) so that its peak RSS is Splink's. The truth
column is not read. Writes {"cluster_of": [cluster per CSV row], "wall_s", "peak_rss_mb",
"comparisons", "splink", "threshold"}.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from splink_peer import _clean, _phone  # noqa: E402


def _host(value) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    value = value.strip().lower()
    host = urlsplit(value if "//" in value else "//" + value).hostname
    if not host:
        return None
    return host[4:] if host.startswith("www.") else host


def _street(value) -> str | None:
    return _clean(value.split(",")[0]) if isinstance(value, str) else None


def prepare(path: Path):
    import pandas as pd

    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    out = pd.DataFrame({"id": range(len(df))})
    out["name_clean"] = df["name"].map(_clean)
    out["address_clean"] = df["address"].map(_street)
    out["city_clean"] = df["city"].map(_clean)
    out["state_clean"] = df["state"].map(lambda s: s.strip().upper() or None)
    out["zip_clean"] = df["zip"].map(lambda z: z.replace(" ", "")[:5] or None)
    out["phone"] = [_phone(p, "US") for p in df["phone"]]
    out["website_host"] = df["website"].map(_host)
    out["lat"] = pd.to_numeric(df["lat"], errors="coerce")
    out["lng"] = pd.to_numeric(df["lng"], errors="coerce")
    out["name_prefix"] = out["name_clean"].map(lambda s: s[:4] if s else None)
    out["name_first"] = out["name_clean"].map(lambda s: s.split()[0] if s else None)
    return out


def _settings():
    import splink.comparison_library as cl
    from splink import SettingsCreator, block_on

    return SettingsCreator(
        link_type="dedupe_only",
        unique_id_column_name="id",
        comparisons=[
            cl.JaroWinklerAtThresholds("name_clean", [0.95, 0.88, 0.7]),
            cl.LevenshteinAtThresholds("address_clean", [1, 3, 6]),
            cl.ExactMatch("phone"),
            cl.ExactMatch("website_host"),
            cl.ExactMatch("city_clean"),
            cl.ExactMatch("zip_clean"),
            cl.DistanceInKMAtThresholds("lat", "lng", [0.1, 1.0]),
        ],
        blocking_rules_to_generate_predictions=[
            block_on("phone"),
            block_on("website_host"),
            block_on("zip_clean", "name_prefix"),
            block_on("city_clean", "name_first"),
        ],
        additional_columns_to_retain=["state_clean"],
    )


def run(path: Path, threshold: float = 0.8) -> dict:
    import splink
    from splink import DuckDBAPI, Linker, block_on

    started = time.perf_counter()
    df = prepare(path)
    linker = Linker(df, _settings(), db_api=DuckDBAPI())
    linker.training.estimate_probability_two_random_records_match([block_on("phone")], recall=0.7)
    linker.training.estimate_u_using_random_sampling(max_pairs=5e6, seed=1)
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("phone"))
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("zip_clean", "name_prefix"))
    predictions = linker.inference.predict(threshold_match_probability=threshold)
    comparisons = predictions.as_duckdbpyrelation().count("*").fetchall()[0][0]
    clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(
        predictions, threshold_match_probability=threshold).as_pandas_dataframe()
    cluster_of = [-1 - i for i in range(len(df))]  # a record missing from the output is alone
    for uid, cid in zip(clusters["id"].tolist(), clusters["cluster_id"].tolist()):
        cluster_of[int(uid)] = int(cid)
    wall = time.perf_counter() - started
    return {"cluster_of": cluster_of, "wall_s": round(wall, 3),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "comparisons": int(comparisons), "splink": splink.__version__, "threshold": threshold}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--threshold", type=float, default=0.8)
    args = parser.parse_args(argv)
    result = run(args.records, args.threshold)
    args.out.write_text(json.dumps(result))
    print(json.dumps({k: v for k, v in result.items() if k != "cluster_of"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
