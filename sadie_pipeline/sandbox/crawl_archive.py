"""The Common Crawl discovery archive (issue 32): what the index answers to domain-wide queries
(``url=*.test``, ``url=*.au``, ``url=*.cloudbeds.com``, ``matchType=domain``) in the newest crawl.

Captures, in SURT (urlkey) order:
* the world's hotels' home pages (nine in ten hotels; forms and languages in `crawl_pages`), a
  rooms page beside some, an ``/index.html`` twin beside others;
* booking engines' client pages for the hotels that use an engine with client ids, engine-only
  properties (no website of their own), the engines' own marketing pages and a 404;
* decoys: non-lodging businesses whose hosts carry lodging words (``*inn-grill``, ``*resorthomes``,
  ``*innovations``, ``*hotelsupply``, ``hotelsin*``, ``*resorttravel``);
* filler: the rest of the web under ``.test``, four pages a host (``bqzx0012345-yoga.test``),
  generated from its line number
  so that a million lines cost no memory (SADIE_SANDBOX_CC_LINES lines in all, default 3,000).

Lines are never stored: a query's pages (``showNumPages``, ``page=``; SADIE_SANDBOX_CC_PAGE_LINES
lines a page, default 1,000) walk the filler by number and the few thousand special captures by
bisection. Each capture's WARC response record is written when a line is answered or its byte
range is asked for (the same bytes every time), at a fixed slot of its file: record k of file f
is at offset k * SLOT.
"""

from __future__ import annotations

import bisect
import hashlib
import io
import os
import re
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from . import crawl_pages as pages
from .world import AU_CITIES, Place, World, registrable

SLOT = 1 << 16
FILES = 100
_FILLER_WORDS = ("plumbing", "dental", "autorepair", "bakery", "lawfirm", "yoga", "florist", "roofing", "church",
                 "school", "gym", "salon", "pets", "bikes", "books", "coffee", "garden", "print", "photo", "music",
                 "tax", "clinic", "daycare", "tiles", "movers", "cleaning", "tutor", "guitar", "farm", "surf")
_FILLER_PATHS = ("/", "/about", "/contact", "/services")
# engine domain -> (catalogue name, the client id in its URLs): the archive's truth, kept apart from the pipeline
ENGINE_IDS: dict[str, tuple[str, re.Pattern[str]]] = {
    "cloudbeds.com": ("Cloudbeds", re.compile(r"/(?:reservation|reservas)/([A-Za-z0-9]{6})")),
    "book-directonline.com": ("SiteMinder", re.compile(r"/properties/([A-Za-z0-9_-]+)")),
    "direct-book.com": ("SiteMinder", re.compile(r"/properties/([A-Za-z0-9_-]+)")),
    "littlehotelier.com": ("Little Hotelier", re.compile(r"/properties/([A-Za-z0-9_-]+)")),
    "rmscloud.com": ("RMS Cloud", re.compile(r"/Search/Index/(\d+)")),
    "resnexus.com": ("ResNexus", re.compile(r"/book/([0-9A-Fa-f-]{8,})")),
    "mews.com": ("Mews", re.compile(r"/distributor/([0-9a-f-]{36})")),
    "lodgify.com": ("Lodgify", re.compile(r"checkout\.lodgify\.com/([a-z0-9_-]+)/")),
    "thinkreservations.com": ("ThinkReservations", re.compile(r"thinkreservations\.com/([a-z0-9_-]+)/reservations")),
    "synxis.com": ("Sabre SynXis", re.compile(r"[?&]hotel=(\d+)")),
}
_NOISE = {"cloudbeds.com": ("https://www.cloudbeds.com/", "https://hotels.cloudbeds.com/", "https://www.cloudbeds.com/pricing/"),
          "littlehotelier.com": ("https://www.littlehotelier.com/", "https://app.littlehotelier.com/login"),
          "rmscloud.com": ("https://www.rmscloud.com/", "https://bookings12.rmscloud.com/"),
          "direct-book.com": ("https://direct-book.com/",), "synxis.com": ("https://be.synxis.com/",)}


def _surt(url: str) -> str:
    from .services.commoncrawl import surt  # the service's own SURT (one definition)
    return surt(url)


def client_id(url: str) -> tuple[str, str, str] | None:
    """(engine domain, catalogue name, lower-cased client id) of an engine client URL, or None."""
    domain = registrable(urlsplit(url).hostname or "")
    rule = ENGINE_IDS.get(domain)
    m = rule[1].search(url) if rule else None
    return (domain, rule[0], m.group(1).lower()) if m else None


@dataclass(frozen=True)
class Capture:
    urlkey: str
    timestamp: str
    url: str
    status: int
    kind: str  # home | page | engine | engine_noise | decoy | filler
    ref: Any = None


@dataclass
class Truth:
    lodging: set[str]  # registrable domains with a lodging home page in the crawl
    not_lodging: set[str]  # decoys' domains
    engine_clients: set[tuple[str, str]]  # (engine domain, client id)
    lodging_au: set[str] = field(default_factory=set)  # lodging domains under .au


class DiscoveryArchive:
    def __init__(self, world: World, crawl: str, start: datetime, lines: int | None = None,
                 page_lines: int | None = None) -> None:
        self.world, self.crawl, self.start = world, crawl, start
        self.lines = lines if lines is not None else int(os.environ.get("SADIE_SANDBOX_CC_LINES", "3000"))
        self.page_lines = page_lines or int(os.environ.get("SADIE_SANDBOX_CC_PAGE_LINES", "1000"))
        self.lock = threading.RLock()
        self._specials: list[Capture] | None = None
        self._keys: list[str] = []
        self.truth = Truth(set(), set(), set())
        self.places: list[Place] = []
        self.properties: list[tuple[str, str, str | None, str]] = []  # name, address, phone, engine
        self.decoys: list[tuple[str, str, str, str, bool]] = []  # kind, name, city, state, structured
        self.fillers = 0
        self._cache: OrderedDict[int, tuple[bytes, str]] = OrderedDict()
        stamp = (start + timedelta(days=1)).strftime("%Y%m%d%H%M%S")
        self.names = [f"crawl-data/{crawl}/segments/{int(start.timestamp()) + 86400}000.{f % 10}/warc/"
                      f"CC-MAIN-{stamp}-discovery-{f:05d}.warc.gz" for f in range(FILES)]
        self.by_name = {n: f for f, n in enumerate(self.names)}
        self._days = [(start + timedelta(days=d)).strftime("%Y%m%d") for d in range(7)]

    # ---- the captures ------------------------------------------------------------------------
    def _when(self, *salt: str) -> str:
        return (self.start + timedelta(seconds=3600 + pages.pick("/".join(salt), 5 * 86400))).strftime("%Y%m%d%H%M%S")

    def _add(self, out: list[Capture], url: str, kind: str, ref: Any, status: int = 200) -> None:
        out.append(Capture(_surt(url), self._when(url, kind), url, status, kind, ref))

    def specials(self) -> list[Capture]:
        with self.lock:
            if self._specials is None:
                out: list[Capture] = []
                self._hotels(out)
                self._australia(out)
                self._engines(out)
                self._decoys(out)
                out.sort(key=lambda c: (c.urlkey, c.timestamp))
                self._keys = [c.urlkey for c in out]
                self.fillers = max(0, self.lines - len(out))
                self._specials = out
            return self._specials

    def _hotels(self, out: list[Capture]) -> None:
        for place in self.world.hotels:
            if not place.website or place.site not in ("ok", "js_only", "moved", "redirect_www"):
                continue
            if pages.pick(place.id + ":cc-discovery", 10) == 0:
                continue  # not crawled this time
            i = len(self.places)
            self.places.append(place)
            parts = urlsplit(place.serving_url or place.website)
            root = f"{parts.scheme}://{parts.netloc}/"
            if (parts.path or "/") == "/":
                form = pages.HOME_FORMS[pages.pick(place.id + ":form", len(pages.HOME_FORMS))]
                self._add(out, root, "home", (i, form))
                self.truth.lodging.add(registrable(parts.hostname or ""))
                if pages.pick(place.id + ":twin", 3) == 0:
                    self._add(out, root + "index.html", "home", (i, form))
            self._add(out, (place.serving_url or root).rstrip("/") + "/rooms", "page", (i, "rooms"))
            if place.engine and (cid := client_id(place.engine.url)):
                self._property(out, place.name, place.address, place.phone, place.engine.url, cid)

    def _australia(self, out: list[Capture]) -> None:
        """Lodging home pages under .com.au / .net.au (an AU region's ccTLD scan finds them)."""
        words = ("Motel", "Lodge", "Guesthouse", "Backpackers", "Holiday Park", "Hotel")
        types = ("motel", "lodge", "bed_and_breakfast", "hostel", "lodge", "hotel")
        for i in range(max(6, len(self.world.hotels) // 20)):
            city, lat, lon = AU_CITIES[i % len(AU_CITIES)]
            name = f"{pages.ADJ[(i * 3) % len(pages.ADJ)]} {words[i % 6]} {city}"
            slug = re.sub(r"[^a-z0-9]+", "", name.lower())
            suffix = ("com.au", "net.au")[i % 2]
            place = Place(id=f"ccau-{i:04d}", name=name, city=city, state="NSW", lat=lat, lon=lon, country="AU",
                          address=f"{12 + i} Marine Pde, {city} NSW {2000 + (i * 37) % 900}", type=types[i % 6],
                          phone=f"(02) 5550 {1000 + i:04d}", website=f"https://www.{slug}{i}.{suffix}/", rooms=18,
                          amenities=("free wifi", "free parking"))
            self.places.append(place)
            form = pages.HOME_FORMS[pages.pick(place.id + ":form", len(pages.HOME_FORMS))]
            self._add(out, place.website, "home", (len(self.places) - 1, form))
            self.truth.lodging_au.add(f"{slug}{i}.{suffix}")

    def _property(self, out: list[Capture], name: str, address: str, phone: str | None, url: str,
                  cid: tuple[str, str, str]) -> None:
        self.properties.append((name, address, phone, cid[1]))
        self._add(out, url, "engine", len(self.properties) - 1)
        if pages.pick(url + ":variant", 3) == 0:  # the same client again, with dates
            self._add(out, url + ("&" if "?" in url else "?") + "checkin=2026-03-01&nights=2", "engine",
                      len(self.properties) - 1)
        self.truth.engine_clients.add((cid[0], cid[2]))

    def _engines(self, out: list[Capture]) -> None:
        cities = [c for c in self.world.cities.values() if c.state]
        templates = ("https://hotels.cloudbeds.com/reservation/{code}", "https://direct-book.com/properties/{camel}direct",
                     "https://app.littlehotelier.com/properties/{slug}direct",
                     "https://bookings{n2}.rmscloud.com/Search/Index/{n}/90/",
                     "https://secure.thinkreservations.com/{slug}/reservations")
        for i in range(max(6, len(self.world.hotels) // 10)):
            city = cities[i % len(cities)] if cities else None
            word = ("Cottages", "Guesthouse", "Cabins", "Villas", "Bungalows", "B&B")[i % 6]
            name = f"{pages.ADJ[i % len(pages.ADJ)]} {word} {i}"
            slug = re.sub(r"[^a-z0-9]+", "", name.lower())
            code = hashlib.sha256(slug.encode()).hexdigest()
            url = templates[i % len(templates)].format(code=code[:6].upper(), camel=slug.capitalize(), slug=slug,
                                                       n=10000 + int(code[:6], 16) % 89999, n2=10 + i % 20)
            address = (f"{10 + i} Ocean Ave, {city.name}, {city.state} {33000 + i % 999}" if city
                       else f"{10 + i} Ocean Ave, Miami, FL 33101")
            self._property(out, name, address, f"(555) 555-{7000 + i:04d}", url, client_id(url))  # type: ignore[arg-type]
        for domain, urls in _NOISE.items():
            for url in urls:
                self._add(out, url, "engine_noise", ENGINE_IDS[domain][0])
        self._add(out, "https://hotels.cloudbeds.com/reservation/ZZGONE", "engine_noise", "Cloudbeds", status=404)

    def _decoys(self, out: list[Capture]) -> None:
        cities = [c for c in self.world.cities.values() if c.state] or [None]
        hosts = {"restaurant": "{a}inn-grill{i}", "real_estate": "{a}resorthomes{i}", "innovation": "{a}innovations{i}",
                 "supplier": "{a}hotelsupply{i}", "directory": "hotelsin{c}{i}", "travel_agency": "{a}resorttravel{i}",
                 "management": "{a}hotelgroup{i}", "venue": "{a}lodge-events{i}", "parked": "{a}motel-forsale{i}"}
        names = {"restaurant": "The {A} Inn Grill", "real_estate": "{A} Resort Homes", "innovation": "{A} Innovations",
                 "supplier": "{A} Hotel Supply", "directory": "Hotels in {C}", "travel_agency": "{A} Resort Travel",
                 "management": "{A} Hotel Group", "venue": "{A} Lodge Weddings & Events", "parked": "{A} Motel"}
        for i in range(max(12, len(self.world.hotels) // 12)):
            kind = pages.DECOYS[i % len(pages.DECOYS)]
            city = cities[(i // len(pages.DECOYS)) % len(cities)]
            adj = pages.ADJ[(i * 7) % len(pages.ADJ)]
            cname, state = (city.name, city.state) if city else ("Miami", "FL")
            host = hosts[kind].format(a=adj.lower(), c=re.sub(r"[^a-z]", "", cname.lower()), i=i) + ".test"
            self.decoys.append((kind, names[kind].format(A=adj, C=cname), cname, state, i % 2 == 0))
            self._add(out, f"http://www.{host}/", "decoy", len(self.decoys) - 1)
            self.truth.not_lodging.add(host)

    # ---- filler ------------------------------------------------------------------------------
    def filler(self, i: int) -> tuple[str, str]:
        """(urlkey, url) of filler line i: host i // 4 (named so that the hosts spread over the
        alphabet in line order, among the special captures), one of four paths."""
        h = i // 4
        n = h * 26**4 // max(1, -(-self.fillers // 4))
        prefix = "".join(chr(97 + (n // 26**k) % 26) for k in (3, 2, 1, 0))
        host = f"{prefix}{h:07d}-{_FILLER_WORDS[h % len(_FILLER_WORDS)]}"
        path = _FILLER_PATHS[i % 4]
        return f"test,{host}){path}", f"https://www.{host}.test{path}"

    def _filler_at(self, key: str) -> int:
        lo, hi = 0, self.fillers
        while lo < hi:
            mid = (lo + hi) // 2
            if self.filler(mid)[0] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def _filler_capture(self, i: int) -> Capture:
        key, url = self.filler(i)
        return Capture(key, self._filler_stamp(i), url, 200, "filler", i)

    def _filler_stamp(self, i: int) -> str:
        # arithmetic, not a hash: a million of these are made per scan
        s = 3600 + (i * 2654435761) % (5 * 86400)
        return f"{self._days[s // 86400]}{(s % 86400) // 3600:02d}{(s % 3600) // 60:02d}{s % 60:02d}"

    # ---- pages of a query ----------------------------------------------------------------------
    def _span(self, lo_key: str, hi_key: str) -> tuple[int, int, int, int]:
        self.specials()
        return (self._filler_at(lo_key), self._filler_at(hi_key), bisect.bisect_left(self._keys, lo_key),
                bisect.bisect_left(self._keys, hi_key))

    def num_pages(self, lo_key: str, hi_key: str) -> int:
        f0, f1, s0, s1 = self._span(lo_key, hi_key)
        return max(1, -(-((f1 - f0) or (s1 - s0)) // self.page_lines)) if (f1 - f0) + (s1 - s0) else 0

    def page(self, lo_key: str, hi_key: str, page: int) -> Iterator[tuple[int, str, str, str, int]]:
        """(global index, urlkey, timestamp, url, status) of one page of the key range, in urlkey
        order: the page's filler lines with the special captures that sort among them."""
        specials = self.specials()
        f0, f1, s0, s1 = self._span(lo_key, hi_key)
        n, base = self.page_lines, self.fillers
        if f1 == f0:
            for j in range(s0 + page * n, min(s1, s0 + (page + 1) * n)):
                c = specials[j]
                yield base + j, c.urlkey, c.timestamp, c.url, c.status
            return
        a, b = f0 + page * n, min(f1, f0 + (page + 1) * n)
        ka = self.filler(a)[0] if page > 0 else lo_key
        kb = self.filler(b)[0] if b < f1 else hi_key
        j, j1 = max(s0, bisect.bisect_left(self._keys, ka)), min(s1, bisect.bisect_left(self._keys, kb))
        filler, stamp = self.filler, self._filler_stamp
        for i in range(a, b):
            key, url = filler(i)
            while j < j1 and specials[j].urlkey < key:
                c = specials[j]
                yield base + j, c.urlkey, c.timestamp, c.url, c.status
                j += 1
            yield i, key, stamp(i), url, 200
        for rest in range(j, j1):
            c = specials[rest]
            yield base + rest, c.urlkey, c.timestamp, c.url, c.status

    # ---- records -----------------------------------------------------------------------------
    def where(self, g: int) -> tuple[str, int]:
        return self.names[g % FILES], (g // FILES) * SLOT

    def capture_at(self, g: int) -> Capture:
        return self._filler_capture(g) if g < self.fillers else self.specials()[g - self.fillers]

    def html(self, c: Capture) -> str:
        if c.kind == "home":
            return pages.home_page(self.places[c.ref[0]], c.ref[1])
        if c.kind == "page":
            place = self.places[c.ref[0]]
            return pages.doc(f"Rooms | {place.name}", f"<h1>Rooms</h1><p>{pages.esc(place.rooms_text)}</p>")
        if c.kind == "engine":
            name, address, phone, engine = self.properties[c.ref]
            return pages.engine_page(name, address, phone, engine, c.url.split("?")[0])
        if c.kind == "engine_noise":
            return pages.engine_noise_page(c.ref, c.url)
        if c.kind == "decoy":
            return pages.decoy_page(*self.decoys[c.ref])
        host = urlsplit(c.url).hostname or ""
        return pages.doc(host, f"<h1>{host}</h1><p>Local {host.split('-')[-1].split('.')[0]} services since 1998.</p>")

    def record(self, g: int) -> tuple[bytes, str]:
        """The gzipped WARC response record of capture g and its payload digest (built once, cached)."""
        with self.lock:
            if g in self._cache:
                self._cache.move_to_end(g)
                return self._cache[g]
        c = self.capture_at(g)
        body = self.html(c).encode()
        when = datetime.strptime(c.timestamp, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
        buf = io.BytesIO()
        writer = WARCWriter(buf, gzip=True, warc_version="1.0")
        headers = [("Date", when.strftime("%a, %d %b %Y %H:%M:%S GMT")), ("Server", "nginx"),
                   ("Content-Type", "text/html; charset=UTF-8"), ("Content-Length", str(len(body)))]
        reason = {200: "OK", 404: "Not Found"}.get(c.status, "OK")
        rec = writer.create_warc_record(
            c.url, "response", payload=io.BytesIO(body),
            http_headers=StatusAndHeaders(f"{c.status} {reason}", headers, protocol="HTTP/1.1"),
            warc_headers_dict={"WARC-Date": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "WARC-IP-Address": "127.0.0.1",
                               "WARC-Record-ID": f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{c.url}/{c.timestamp}')}>"})
        writer.write_record(rec)
        out = (buf.getvalue(), rec.rec_headers.get_header("WARC-Payload-Digest").split(":", 1)[1])
        with self.lock:
            self._cache[g] = out
            while len(self._cache) > 20_000:
                self._cache.popitem(last=False)
        return out

    def line(self, g: int, urlkey: str, timestamp: str, url: str, status: int) -> dict[str, Any]:
        filename, offset = self.where(g)
        return {"urlkey": urlkey, "timestamp": timestamp, "url": url, "mime": "text/html", "mime-detected": "text/html",
                "status": str(status), "filename": filename, "offset": str(offset), "charset": "UTF-8",
                "languages": "eng"}

    def completed(self, g: int, line: dict[str, Any]) -> dict[str, Any]:
        data, digest = self.record(g)
        return {**line, "digest": digest, "length": str(len(data))}

    def read(self, name: str, first: int, last: int | None) -> bytes | None:
        """Bytes first..last of WARC file `name` (None: not a file of this archive)."""
        f = self.by_name.get(name)
        if f is None:
            return None
        k, rel = divmod(first, SLOT)
        g = k * FILES + f
        if g >= self.fillers + len(self.specials()):
            return b""
        data = self.record(g)[0]
        return data[rel:(last - first + rel + 1) if last is not None else None]
