"""Splink (4.x, DuckDB backend) on the labelled guides of the place-matching benchmark: the peer
that ``benchmarks/matching_quality.py`` compares our engine with.

    python benchmarks/splink_peer.py DIR OUT.json [--threshold 0.9]

DIR holds guide_a.csv and guide_b.csv (``benchmarks/matching_data/`` or ``benchmarks/public_guides.py``).
The configuration is what a competent user writes in an hour from Splink's tutorial, not tuned on
the data:

* cleaning: names, addresses and cities lower-cased, accents folded, punctuation dropped; phone
  in E.164 as the platform's transform gives it; postal code upper case without spaces, US ZIP+4
  cut to five digits;
* comparisons: name (Jaro-Winkler 0.95 / 0.88 / 0.7), address (Levenshtein 1 / 3 / 6), phone
  exact, city exact, postal code exact;
* blocking: same phone; same postal code; same city and first four letters of the name; same
  city and same first name word;
* training: the prior from the phone rule (recall 0.7), u by random sampling (5 million pairs),
  m by EM on two blocking rules (phone; city + name prefix);
* link_only between the two guides; each guide B record's best guide A record whose match
  probability is at least the threshold (0.9, fixed; not picked on the data) is a match.

Runs in its own process (the benchmark starts it) so that its peak RSS is Splink's. Writes
{"pairs": [[id_a, id_b, probability], ...], "wall_s", "peak_rss_mb", "comparisons", "splink"}.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import time
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

_PUNCT = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")


def _clean(value) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    value = "".join(c for c in unicodedata.normalize("NFKD", value) if not unicodedata.combining(c)).lower()
    value = _SPACES.sub(" ", _PUNCT.sub(" ", value)).strip()
    return value or None


def _phone(value, country) -> str | None:
    from sadie_pipeline.core.normalize import PhoneError, phone_to_e164

    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return phone_to_e164(value, country if isinstance(country, str) and country else "US")
    except PhoneError:
        return None


def _zip(value, country) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    value = value.replace(" ", "").upper()
    return value[:5] if country == "US" else value


def prepare(path: Path):
    import pandas as pd

    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    out = pd.DataFrame({"id": df["id"].astype("int64")})
    out["name_clean"] = df["name"].map(_clean)
    out["address_clean"] = df["address1"].map(_clean)
    out["city_clean"] = df["city"].map(_clean)
    out["zip_clean"] = [_zip(z, c) for z, c in zip(df["zip"], df["country"])]
    out["phone"] = [_phone(p, c) for p, c in zip(df["phone"], df["country"])]
    out["name_prefix"] = out["name_clean"].map(lambda s: s[:4] if s else None)
    out["name_first"] = out["name_clean"].map(lambda s: s.split()[0] if s else None)
    return out


def run(directory: Path, threshold: float = 0.9) -> dict:
    import pandas as pd  # noqa: F401
    import splink
    import splink.comparison_library as cl
    from splink import DuckDBAPI, Linker, SettingsCreator, block_on

    started = time.perf_counter()
    df_a = prepare(directory / "guide_a.csv")
    df_b = prepare(directory / "guide_b.csv")
    prediction_rules = [
        block_on("phone"),
        block_on("zip_clean"),
        block_on("city_clean", "name_prefix"),
        block_on("city_clean", "name_first"),
    ]
    settings = SettingsCreator(
        link_type="link_only",
        unique_id_column_name="id",
        comparisons=[
            cl.JaroWinklerAtThresholds("name_clean", [0.95, 0.88, 0.7]),
            cl.LevenshteinAtThresholds("address_clean", [1, 3, 6]),
            cl.ExactMatch("phone"),
            cl.ExactMatch("city_clean"),
            cl.ExactMatch("zip_clean"),
        ],
        blocking_rules_to_generate_predictions=prediction_rules,
    )
    linker = Linker([df_a, df_b], settings, db_api=DuckDBAPI(), input_table_aliases=["guide_a", "guide_b"])
    linker.training.estimate_probability_two_random_records_match([block_on("phone")], recall=0.7)
    linker.training.estimate_u_using_random_sampling(max_pairs=5e6, seed=1)
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("phone"))
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("city_clean", "name_prefix"))
    predictions = linker.inference.predict(threshold_match_probability=threshold).as_pandas_dataframe()
    best: dict[int, tuple[float, int]] = {}
    for id_l, id_r, p in zip(predictions["id_l"].tolist(), predictions["id_r"].tolist(),
                             predictions["match_probability"].tolist()):
        a, b = (id_l, id_r) if id_l < id_r else (id_r, id_l)  # guide B ids are above guide A's
        current = best.get(b)
        if current is None or p > current[0] or (p == current[0] and a < current[1]):
            best[b] = (p, a)
    wall = time.perf_counter() - started
    return {"pairs": [[a, b, round(p, 6)] for b, (p, a) in sorted(best.items())], "wall_s": round(wall, 3),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "comparisons": int(len(predictions)), "splink": splink.__version__, "threshold": threshold}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--threshold", type=float, default=0.9)
    args = parser.parse_args(argv)
    result = run(args.directory, args.threshold)
    args.out.write_text(json.dumps(result))
    print(json.dumps({k: v for k, v in result.items() if k != "pairs"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
