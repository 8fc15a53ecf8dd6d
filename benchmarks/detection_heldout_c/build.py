"""Writes held-out set C for booking-engine detection: pages/*.html and labels.json (same label format as
benchmarks/detection_heldout/labels.json), from engines_c_*.py and negatives_c.py laid out by chrome_c.py.

    python benchmarks/detection_heldout_c/build.py

Written blind: without reading the detector, its catalogue, the detection corpus or the first held-out
set's pages and entries. Run the benchmark on it with
    .venv/bin/python benchmarks/detection_heldout.py --corpus benchmarks/detection_heldout_c
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import chrome_c  # noqa: E402
import engines_c_europe  # noqa: E402
import engines_c_world  # noqa: E402
import negatives_c  # noqa: E402

LABEL_KEYS = ("file", "engine", "host", "form", "region", "catalogued_guess", "final_url", "platform")


def entries() -> list[dict]:
    return engines_c_europe.PAGES + engines_c_world.PAGES + negatives_c.NEGATIVES


OTHER_SETS = tuple(Path(__file__).resolve().parent.parent / name / "labels.json"
                   for name in ("detection_heldout", "detection_heldout_b"))


def check_new(labels: list[dict]) -> None:
    """No engine name, engine host or engine registrable domain of the two earlier sets is reused."""
    def reg(host: str) -> str:
        return ".".join(host.split(".")[-3:]) if host.split(".")[-2] in ("co", "com") else ".".join(host.split(".")[-2:])

    def key(name: str) -> str:
        return "".join(ch for ch in name.lower() if ch.isalnum())

    old = [lab for f in OTHER_SETS if f.exists() for lab in json.loads(f.read_text(encoding="utf-8")) if lab["engine"]]
    names, hosts = {key(o["engine"]) for o in old}, {reg(o["host"]) for o in old}
    for lab in labels:
        if lab["engine"]:
            assert key(lab["engine"]) not in names, lab["engine"]
            assert reg(lab["host"]) not in hosts, lab["host"]


def main() -> None:
    pages = HERE / "pages"
    pages.mkdir(exist_ok=True)
    for old in pages.glob("*.html"):
        old.unlink()
    labels, seen = [], set()
    for i, e in enumerate(entries(), start=1):
        assert e["slug"] not in seen, e["slug"]
        seen.add(e["slug"])
        e["file"] = f"{i:03d}_{e['slug']}.html"
        html = chrome_c.page(e)
        if e["engine"]:
            # the label's host must be on the page as written (self-hosted plugins: the hotel's own host)
            assert e["host"] in html, (e["slug"], e["host"])
        (pages / e["file"]).write_text(html, encoding="utf-8")
        labels.append({k: e[k] for k in LABEL_KEYS})
    check_new(labels)
    (HERE / "labels.json").write_text(json.dumps(labels, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    eng = [lab for lab in labels if lab["engine"]]
    print(f"{len(labels)} pages: {len(eng)} with an engine, {len(labels) - len(eng)} without")
    print("forms:", dict(Counter(lab["form"] for lab in labels)))
    print("regions (engine pages):", dict(Counter(lab["region"] for lab in eng)))
    print("regions (negatives):", dict(Counter(lab["region"] for lab in labels if not lab["engine"])))
    print("platforms:", dict(Counter(lab["platform"] for lab in labels)))
    print("engines:", len({lab["engine"] for lab in eng}))


if __name__ == "__main__":
    main()
