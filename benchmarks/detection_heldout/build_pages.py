"""Writes the held-out detection corpus: pages/*.html and labels.json, from the entries in
engines_a.py, engines_b.py and negatives.py laid out by chrome.py.

    python benchmarks/detection_heldout/build_pages.py

The pages are committed; this script is how they were made (re-run it after editing an entry).
Written without reading the detector or its catalogue, so the corpus stays held out.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import chrome  # noqa: E402
import engines_a  # noqa: E402
import engines_b  # noqa: E402
import negatives  # noqa: E402

LABEL_KEYS = ("file", "engine", "host", "form", "region", "catalogued_guess", "final_url", "platform")


def entries() -> list[dict]:
    return engines_a.PAGES + engines_b.PAGES + negatives.NEGATIVES


def main() -> None:
    pages = HERE / "pages"
    pages.mkdir(exist_ok=True)
    for old in pages.glob("*.html"):
        old.unlink()
    labels = []
    seen: set[str] = set()
    for i, e in enumerate(entries(), start=1):
        assert e["slug"] not in seen, e["slug"]
        seen.add(e["slug"])
        e["file"] = f"{i:03d}_{e['slug']}.html"
        (pages / e["file"]).write_text(chrome.page(e), encoding="utf-8")
        labels.append({k: e[k] for k in LABEL_KEYS})
    (HERE / "labels.json").write_text(json.dumps(labels, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(labels)} pages;", dict(Counter(lab["form"] for lab in labels)))


if __name__ == "__main__":
    main()
