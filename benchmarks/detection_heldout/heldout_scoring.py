"""Scoring shared by benchmarks/detection_heldout.py (our detector) and detection_heldout_peer.py (a
peer run from its own venv): loose engine-name matching with vendor aliases, registrable domains, and
the per-page verdict. Standard library plus tldextract (with its bundled suffix list, no network)."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

import tldextract

HERE = Path(__file__).resolve().parent
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

# Other names a vendor goes by (brand, parent, former name, product): any of them names the label's engine.
ALIASES = {
    "siteminder": ("thebookingbutton", "the booking button", "siteminder direct booking", "tbb"),
    "little hotelier": ("littlehotelier",),
    "exely": ("travelline", "tl integration", "tlintegration"),
    "d-edge": ("dedge", "availpro", "secure-hotel-booking", "securehotelbooking"),
    "ihotelier": ("travelclick", "amadeus ihotelier", "amadeus hospitality"),
    "synxis": ("sabre synxis", "sabre hospitality", "sabre"),
    "simple booking": ("simplebooking", "zucchetti simple booking"),
    "beds24": ("xmlcal",),
    "ezee": ("ezee absolute", "ezee reservation", "ezee frontdesk", "ipms247"),
    "rms": ("rms cloud", "rmscloud", "rms hospitality"),
    "hotelnetsolutions": ("hns", "hotel net solutions"),
    "cubilis": ("stardekk",),
    "webrezpro": ("webrez",),
    "bookingsüdtirol": ("bookingsuedtirol", "booking sudtirol", "booking südtirol", "hgv"),
    "kross booking": ("krossbooking", "kross"),
    "hotel link": ("hotellinksolutions", "hotel link solutions", "hotellink"),
    "clock pms": ("clock software", "clock-software", "clock pms+"),
    "guestcentric": ("guest centric",),
    "hostaway": ("holidayfuture",),
    "guesty": ("guestybookings", "guesty for hosts"),
    "ownerrez": ("ownerreservations", "owner reservations"),
    "roomcloud": ("room cloud",),
    "nightsbridge": ("nights bridge",),
    "asksuite": ("ask suite",),
    "guestline": ("guestline roomlynx",),
    "pxsol": ("px sol",),
    "profitroom": ("profit room",),
    "wubook": ("wu book", "zak"),
    "newbook": ("newbook cloud",),
}


def norm(name: str) -> str:
    """Lower-case ascii letters and digits only ('Bookingsüdtirol' -> 'bookingsudtirol')."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", plain.lower())


def names_for(engine: str) -> set[str]:
    forms = {norm(engine)}
    for key, aliases in ALIASES.items():
        group = {norm(key), *(norm(a) for a in aliases)}
        if norm(engine) in group:
            forms |= group
    return {f for f in forms if f}


def name_matches(engine: str, found: str) -> bool:
    """Loose: equal after normalising, or one contains the other (4+ characters)."""
    got = norm(found or "")
    if not got:
        return False
    return any(n == got or (min(len(n), len(got)) >= 4 and (n in got or got in n)) for n in names_for(engine))


def registrable(host: str | None) -> str:
    if not host:
        return ""
    host = host.lower().split("://")[-1].split("/")[0].split(":")[0]
    ext = _EXTRACT(host)
    return f"{ext.domain}.{ext.suffix}" if ext.suffix else ext.domain


def load_labels() -> list[dict]:
    return json.loads((HERE / "labels.json").read_text(encoding="utf-8"))


def page_html(label: dict) -> str:
    return (HERE / "pages" / label["file"]).read_text(encoding="utf-8")


def verdict(label: dict, names: list[str], hosts: list[str]) -> str:
    """'named', 'unknown' (found through an unknown engine on the label's domain), 'miss', 'fp' (a
    negative with any finding, or an engine page whose only findings are other engines) or 'clean'."""
    if label["engine"] is None:
        return "fp" if names or hosts else "clean"
    if any(name_matches(label["engine"], n) for n in names):
        return "named"
    want = registrable(label["host"])
    # a self-hosted plugin's host is the hotel's own: only naming it counts
    if want and want != registrable(label["final_url"]) and any(registrable(h) == want for h in hosts):
        return "unknown"
    return "fp" if names or hosts else "miss"


def extra_findings(row: dict) -> bool:
    """A found page that also reports something other than its engine (not scored, but worth a look)."""
    label = row["label"]
    want = registrable(label["host"])
    return any(not name_matches(label["engine"], n) for n in row["names"]) or any(
        registrable(h) != want for h in row["hosts"])


def rate(rows: list[dict], key: str) -> dict[str, str]:
    """Recall per value of `key` over engine pages, as 'found/total (0.xx)'."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        if r["label"]["engine"] is None:
            continue
        t = tally[str(r["label"][key])]
        t[1] += 1
        t[0] += r["verdict"] in ("named", "unknown")
    return {k: f"{f}/{n} ({f / n:.2f})" for k, (f, n) in sorted(tally.items())}


def summary(rows: list[dict]) -> dict:
    eng = [r for r in rows if r["label"]["engine"] is not None]
    found = [r for r in eng if r["verdict"] in ("named", "unknown")]
    named = [r for r in eng if r["verdict"] == "named"]
    neg_fp = [r for r in rows if r["label"]["engine"] is None and r["verdict"] == "fp"]
    eng_fp = [r for r in eng if r["verdict"] == "fp"]
    unnamed = len(eng) - len(named)
    return {"pages": len(rows), "engine_pages": len(eng), "negative_pages": len(rows) - len(eng),
            "found": len(found), "recall": round(len(found) / len(eng), 3),
            "recall_named": round(len(named) / len(eng), 3), "found_unknown": len(found) - len(named),
            "recall_unknown_of_unnamed": round((len(found) - len(named)) / unnamed, 3) if unnamed else 1.0,
            "false_positives": len(neg_fp) + len(eng_fp), "fp_negative_pages": len(neg_fp),
            "fp_engine_pages_wrong_finding": len(eng_fp),
            "found_pages_with_extra_findings": sum(extra_findings(r) for r in found),
            "recall_by_form": rate(rows, "form"), "recall_by_region": rate(rows, "region")}
