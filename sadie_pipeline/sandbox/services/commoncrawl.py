"""Common Crawl: the index server (CDX API) and the data server (WARC files by byte range).

* ``GET /index/collinfo.json``: the crawls, newest first, each with its ``cdx-api`` URL.
* ``GET /index/{crawl}-index?url=example.test/*&output=json``: one JSON line per capture
  (urlkey, timestamp, url, mime, mime-detected, status, digest, length, offset, filename, and
  ``redirect`` for a 3xx), as pywb / the CC index server answers; without ``output=json``, CDXJ
  lines (``urlkey timestamp {json}``). ``matchType`` (exact, prefix, host, domain), ``url``
  ending in ``/*`` (prefix) or starting ``*.`` (domain), ``filter`` (``[!][=|~]field:value``),
  ``limit``, ``fl`` and ``showNumPages``. Nothing found: 404 ``{"message": "No Captures found for: ..."}``.
* ``GET /data/{filename}``: the WARC file; ``Range: bytes=a-b`` gets 206 with exactly that slice.

The files are real WARC/1.0 files, one gzip member per record (warcio), built lazily per shard
of registrable domains and kept in memory: for each hotel of the world whose owner truth says it
is ``in_common_crawl``, its home, rooms, amenities, about and contact pages (naming the truth's
``cc_people``), sometimes a team page, a stale earlier capture of the contact page naming a former
manager, robots.txt, a 404 and the listed URL's redirect when the site moved. The index's offsets
and lengths are those of the response records in the files.

Domain-wide queries (``matchType=domain`` or ``url=*.x``: a TLD such as ``*.test`` / ``*.au``, or a
booking engine's domain) read the newest crawl's discovery archive instead (`crawl_archive.py`):
lodging home pages, engine client pages and non-lodging decoys among up to millions of filler
lines generated on demand, paginated (``showNumPages``, ``page=``) with the filters applied per
page, their WARC records written when asked for.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import io
import json
import re
import threading
import uuid
import zlib
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from .. import sitegen
from ..crawl_archive import DiscoveryArchive
from ..owners import owner_truth
from ..world import Contact, Place, registrable
from .base import Service, json_response

# (id, name, start): newest first, as collinfo.json lists them; the newest carries the current pages.
CRAWLS = (("CC-MAIN-2026-08", "February 2026 Index", datetime(2026, 2, 6, tzinfo=UTC)),
          ("CC-MAIN-2025-51", "December 2025 Index", datetime(2025, 12, 5, tzinfo=UTC)))
NEWEST = CRAWLS[0][0]
_FORMER = ("Doris Kettleby", "Ambrose Fairweather", "Lorna Pettigrew", "Clive Ashdown", "Wilma Gorringe")
_USER_AGENT = "CCBot/2.0 (https://commoncrawl.org/faq/)"
_FILTER = re.compile(r"^(!)?([=~])?([a-z-]+):(.*)$")


def surt(url: str) -> str:
    """The SURT urlkey of a URL: host reversed without ``www.``, then path and sorted query."""
    if "://" not in url[:12]:
        url = "http://" + url
    parts = urlsplit(url.strip().lower())
    host = (parts.hostname or "").strip(".")
    host = re.sub(r"^www\d*\.", "", host)
    query = "&".join(sorted(parts.query.split("&"))) if parts.query else ""
    return ",".join(reversed(host.split("."))) + ")" + (parts.path or "/") + (f"?{query}" if query else "")


@dataclass(frozen=True)
class _Spec:
    """One capture to write: what was fetched, when, and what came back."""

    url: str
    when: datetime
    status: int
    mime: str = "text/html"
    body: str = ""
    location: str | None = None


def _stamp(base: datetime, *salt: str) -> datetime:
    n = int(hashlib.sha256("\x1f".join(salt).encode()).hexdigest()[:8], 16)
    return base + timedelta(seconds=3600 + n % (5 * 86400))


def _cc_place(place: Place, former: str | None = None) -> Place:
    """The place as the crawled pages show it: its staff are the truth's ``cc_people`` (or a
    former manager on a stale capture)."""
    if former:
        first = former.split()[0].lower()
        return replace(place, contacts=(Contact(former, "General Manager", f"{first}@{place.domain}"),))
    phones = {c.name: c.phone for c in place.contacts}
    people = owner_truth(place).cc_people
    return replace(place, contacts=tuple(Contact(p.name, p.title, p.email, phones.get(p.name)) for p in people))


def _team_page(place: Place) -> str:
    cards = "".join(f'<div class="team-card"><h3>{html.escape(c.name)}</h3><p class="role">{html.escape(c.title)}</p>'
                    + (f'<p><a href="mailto:{html.escape(c.email)}">{html.escape(c.email)}</a></p>' if c.email else "")
                    + "</div>\n" for c in place.contacts)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Our team | {html.escape(place.name)}'
            f'</title></head><body><h1>Meet our team</h1>\n{cards}<p><a href="./">Home</a></p></body></html>')


def _hotel_specs(place: Place, crawl: str, start: datetime) -> list[_Spec]:
    """The captures of one hotel's site in `crawl`."""
    base = place.serving_url or ""
    base = base if base.endswith("/") else base + "/"
    root = f"{urlsplit(base).scheme}://{urlsplit(base).netloc}/"
    h = int(hashlib.sha256(f"{place.id}:cc".encode()).hexdigest()[:8], 16)
    former = _FORMER[h % len(_FORMER)] if h % 2 == 0 and place.domain else None
    when = lambda path: _stamp(start, place.id, crawl, path)  # noqa: E731
    if crawl != NEWEST:  # an older crawl: what the site said then
        then = _cc_place(place, former)
        return [_Spec(base, when(""), 200, body=sitegen.home(then)),
                _Spec(base + "contact", when("contact"), 200, body=sitegen.contact(then))]
    now = _cc_place(place)
    specs = [_Spec(base, when(""), 200, body=sitegen.home(now)),
             _Spec(base + "rooms", when("rooms"), 200, body=sitegen.rooms(now)),
             _Spec(base + "amenities", when("amenities"), 200, body=sitegen.amenities(now)),
             _Spec(base + "about", when("about"), 200, body=sitegen.about(now)),
             _Spec(base + "contact", when("contact"), 200, body=sitegen.contact(now)),
             _Spec(base + "specials-2019", when("specials"), 404, body=sitegen.not_found("/specials-2019")),
             _Spec(root + "robots.txt", when("robots"), 200, mime="text/plain", body=sitegen.ROBOTS)]
    if now.contacts and h % 3 == 0:
        specs.append(_Spec(base + "our-team", when("team"), 200, body=_team_page(now)))
    if former:  # crawled twice: earlier the page still named the former manager
        specs.append(_Spec(base + "contact", start + timedelta(minutes=h % 50), 200,
                           body=sitegen.contact(_cc_place(place, former))))
    if place.website and place.website.rstrip("/") != base.rstrip("/"):
        specs.append(_Spec(place.website, when("moved"), 301, body="<html><body>Moved</body></html>", location=base))
    return specs


class _Archive:
    """The crawls' WARC files and CDX entries, built on first use per (crawl, shard)."""

    def __init__(self, hotels: list[Place]) -> None:
        self.hotels = hotels
        self.lock = threading.RLock()
        self.domains: dict[str, list[Place]] | None = None
        self.shards = 1
        self.files: dict[str, bytes] = {}
        self.entries: dict[tuple[str, int], list[dict[str, Any]]] = {}

    def _domains(self) -> dict[str, list[Place]]:
        with self.lock:
            return self._index_domains()

    def _index_domains(self) -> dict[str, list[Place]]:
        if self.domains is None:
            domains: dict[str, list[Place]] = {}
            for place in self.hotels:
                if place.serving_url and owner_truth(place).in_common_crawl:
                    for url in {place.serving_url, place.website or place.serving_url}:
                        domains.setdefault(registrable(urlsplit(url).hostname or ""), []).append(place)
            self.shards = max(1, min(64, len(domains) // 100 + 1))
            self.domains = domains
        return self.domains

    def shard(self, domain: str) -> int:
        self._domains()
        return zlib.crc32(domain.encode()) % self.shards

    def filename(self, crawl: str, shard: int) -> str:
        start = dict((c, s) for c, _, s in CRAWLS)[crawl]
        stamp, until = start.strftime("%Y%m%d%H%M%S"), (start + timedelta(hours=3)).strftime("%Y%m%d%H%M%S")
        return (f"crawl-data/{crawl}/segments/{int(start.timestamp())}000.{shard % 10}/warc/"
                f"CC-MAIN-{stamp}-{until}-{shard:05d}.warc.gz")

    def shard_of_file(self, name: str) -> tuple[str, int] | None:
        self._domains()
        for crawl, _, _ in CRAWLS:
            for shard in range(self.shards):
                if self.filename(crawl, shard) == name:
                    return crawl, shard
        return None

    def build(self, crawl: str, shard: int) -> list[dict[str, Any]]:
        with self.lock:
            if (crawl, shard) not in self.entries:
                self._build(crawl, shard)
            return self.entries[(crawl, shard)]

    def _build(self, crawl: str, shard: int) -> None:
        start = dict((c, s) for c, _, s in CRAWLS)[crawl]
        name = self.filename(crawl, shard)
        specs: dict[tuple[str, datetime], _Spec] = {}
        for domain, places in sorted(self._domains().items()):
            if self.shard(domain) != shard:
                continue
            for place in places:
                for spec in _hotel_specs(place, crawl, start):
                    if registrable(urlsplit(spec.url).hostname or "") == domain:
                        specs.setdefault((spec.url, spec.when), spec)
        buf = io.BytesIO()
        writer = WARCWriter(buf, gzip=True, warc_version="1.0")
        writer.write_record(writer.create_warcinfo_record(name.rsplit("/", 1)[-1], {
            "software": "sadie-sandbox (warcio)", "isPartOf": crawl, "operator": "Common Crawl Admin (sandbox)",
            "robots": "checked via crawler-commons", "format": "WARC File Format 1.0"}))
        entries = [_write(writer, buf, spec, name) for spec in sorted(specs.values(), key=lambda s: (s.when, s.url))]
        self.files[name] = buf.getvalue()
        self.entries[(crawl, shard)] = sorted(entries, key=lambda e: (e["urlkey"], e["timestamp"]))


def _record_id(*parts: str) -> str:
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, '/'.join(parts))}>"


def _write(writer: WARCWriter, buf: io.BytesIO, spec: _Spec, filename: str) -> dict[str, Any]:
    """The request and response records of one capture; the CDX entry of the response."""
    date = spec.when.strftime("%Y-%m-%dT%H:%M:%SZ")
    parts = urlsplit(spec.url)
    resp_id = _record_id(spec.url, date, "response")
    request = writer.create_warc_record(spec.url, "request", payload=io.BytesIO(b""), http_headers=StatusAndHeaders(
        f"GET {parts.path or '/'} HTTP/1.1", [("Host", parts.netloc), ("User-Agent", _USER_AGENT),
                                              ("Accept", "text/html,*/*;q=0.8")], is_http_request=True),
        warc_headers_dict={"WARC-Date": date, "WARC-Record-ID": _record_id(spec.url, date, "request"),
                           "WARC-Concurrent-To": resp_id})
    writer.write_record(request)
    body = spec.body.encode("utf-8")
    reason = {200: "OK", 301: "Moved Permanently", 404: "Not Found"}[spec.status]
    headers = [("Date", spec.when.strftime("%a, %d %b %Y %H:%M:%S GMT")), ("Server", "Apache"),
               ("Content-Type", f"{spec.mime}; charset=UTF-8"), ("Content-Length", str(len(body)))]
    if spec.location:
        headers.append(("Location", spec.location))
    response = writer.create_warc_record(
        spec.url, "response", payload=io.BytesIO(body),
        http_headers=StatusAndHeaders(f"{spec.status} {reason}", headers, protocol="HTTP/1.1"),
        warc_headers_dict={"WARC-Date": date, "WARC-Record-ID": resp_id, "WARC-IP-Address": "127.0.0.1"})
    offset = buf.tell()
    writer.write_record(response)
    entry = {"urlkey": surt(spec.url), "timestamp": spec.when.strftime("%Y%m%d%H%M%S"), "url": spec.url,
             "mime": spec.mime, "mime-detected": spec.mime, "status": str(spec.status),
             "digest": response.rec_headers.get_header("WARC-Payload-Digest").split(":", 1)[1],
             "length": str(buf.tell() - offset), "offset": str(offset), "filename": filename}
    if spec.mime == "text/html":
        entry.update({"charset": "UTF-8", "languages": "eng"})
    if spec.location:
        entry["redirect"] = spec.location
    return entry


def _query(url: str, match_type: str | None) -> tuple[str, str, str]:
    """(match type, urlkey or urlkey prefix, registrable domain) of a CDX ``url`` parameter."""
    url = url.strip()
    if url.startswith("*."):
        match_type, url = match_type or "domain", url[2:]
    elif url.endswith("*"):
        match_type, url = match_type or "prefix", url.rstrip("*")
    match_type = match_type or "exact"
    key = surt(url)
    if match_type in ("host", "domain"):
        key = key.split(")", 1)[0]
    host = urlsplit(url if "://" in url[:12] else "http://" + url).hostname or ""
    return match_type, key, registrable(host)


def _matches(urlkey: str, match_type: str, key: str) -> bool:
    if match_type == "exact":
        return urlkey == key
    if match_type == "prefix":
        return urlkey.startswith(key)
    host = urlkey.split(")", 1)[0]
    return host == key or (match_type == "domain" and host.startswith(key + ","))


def _passes(entry: dict[str, Any], filters: list[str]) -> bool:
    for raw in filters:
        m = _FILTER.match(raw)
        if not m:
            continue
        negate, how, field, value = m.groups()
        have = str(entry.get(field, ""))
        hit = have == value if how == "=" else value in have if how == "~" else re.search(value, have) is not None
        if hit == bool(negate):
            return False
    return True


def _compiled(filters: list[str]) -> Any:
    """`_passes` with the filters parsed and their regexes compiled once (a scan tests a million lines)."""
    rules = []
    for raw in filters:
        if m := _FILTER.match(raw):
            negate, how, field, value = m.groups()
            rules.append((bool(negate), how, field, value, re.compile(value) if how is None else None))

    def test(entry: dict[str, Any]) -> bool:
        for negate, how, field, value, rx in rules:
            have = str(entry.get(field, ""))
            hit = have == value if how == "=" else value in have if how == "~" else rx.search(have) is not None
            if hit == negate:
                return False
        return True

    return test


class CommonCrawlService(Service):
    name = "commoncrawl"
    prefix = "/commoncrawl"
    real_base_url = "https://index.commoncrawl.org"
    description = "Common Crawl: GET /index/collinfo.json, GET /index/{crawl}-index (CDX), GET /data/{warc} (Range)"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/index/collinfo.json", self.collinfo), web.get("/index/{coll}", self.cdx),
                web.get("/data/{filename:.+}", self.data)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"message": message}

    @property
    def archive(self) -> _Archive:
        # one archive per sandbox, shared with the data server (commoncrawl_data)
        if getattr(self.ctx, "cc_archive", None) is None:
            self.ctx.cc_archive = _Archive(self.ctx.world.hotels)
        return self.ctx.cc_archive

    async def _entries(self, crawl: str, domain: str) -> list[dict[str, Any]]:
        # building a shard renders and compresses many pages: off the event loop other services share
        archive = self.archive
        return await asyncio.to_thread(lambda: archive.build(crawl, archive.shard(domain)))

    async def collinfo(self, request: web.Request) -> web.Response:
        base = self.mount_url(request)
        return json_response([{"id": c, "name": name, "timegate": f"{base}/index/{c}/",
                               "cdx-api": f"{base}/index/{c}-index", "from": start.strftime("%Y-%m-%dT%H:%M:%S"),
                               "to": (start + timedelta(days=8)).strftime("%Y-%m-%dT%H:%M:%S")}
                              for c, name, start in CRAWLS])

    async def cdx(self, request: web.Request) -> web.Response:
        crawl = request.match_info["coll"].removesuffix("-index")
        if crawl not in {c for c, _, _ in CRAWLS}:
            return self.error(404, f"No such collection: {crawl}")
        url = request.query.get("url", "")
        if not url:
            return self.error(400, "The url parameter is required")
        match_type, key, domain = _query(url, request.query.get("matchType"))
        if match_type == "domain":  # a domain-wide scan: the discovery archive (crawl_archive.py)
            return await self._discovery_cdx(request, crawl, key)
        if request.query.get("showNumPages") == "true":
            return json_response({"pages": 1, "pageSize": 5, "blocks": 1})
        entries = await self._entries(crawl, domain)
        hits = [e for e in entries if _matches(e["urlkey"], match_type, key) and _passes(e, request.query.getall("filter", []))]
        limit = request.query.get("limit", "")
        hits = hits[:int(limit)] if limit.isdigit() else hits
        if not hits:
            return self.error(404, f"No Captures found for: {url}")
        return self._cdx_lines(request, hits)

    def discovery(self, crawl: str) -> DiscoveryArchive | None:
        # one per sandbox, shared with the data server; the newest crawl alone has a discovery archive
        if crawl != NEWEST:
            return None
        if getattr(self.ctx, "cc_discovery", None) is None:
            self.ctx.cc_discovery = DiscoveryArchive(self.ctx.world, NEWEST, CRAWLS[0][2])
        return self.ctx.cc_discovery

    async def _discovery_cdx(self, request: web.Request, crawl: str, key: str) -> web.Response:
        archive = self.discovery(crawl)
        lo, hi = key + ")", key + "-"  # the host itself (")") and its subdomains (",")
        pages = archive.num_pages(lo, hi) if archive else 0
        if request.query.get("showNumPages") == "true":
            return json_response({"pages": pages, "pageSize": 5, "blocks": pages * 5})
        page = request.query.get("page", "0")
        if not page.isdigit() or (pages and int(page) >= pages):
            return self.error(400, f"Page {page} invalid: First Page is 0, Last Page is {max(0, pages - 1)}")
        if archive is None or not pages:
            return self.error(404, f"No Captures found for: {request.query.get('url', '')}")
        filters, limit = request.query.getall("filter", []), request.query.get("limit", "")

        # on the loop in slices, not in a thread: a thread holding the GIL for a page's scan would
        # stall the WARC requests the loop serves meanwhile (the GIL's 5 ms switch interval)
        hits: list[dict[str, Any]] = []
        test, n = _compiled(filters), 0
        for g, urlkey, timestamp, url, status in archive.page(lo, hi, int(page)):
            n += 1
            if n % 2000 == 0:
                await asyncio.sleep(0)
            if not _matches(urlkey, "domain", key) or not test(
                    {"urlkey": urlkey, "timestamp": timestamp, "url": url, "status": str(status), "mime": "text/html",
                     "mime-detected": "text/html"}):
                continue
            hits.append(archive.completed(g, archive.line(g, urlkey, timestamp, url, status)))
            if limit.isdigit() and len(hits) >= int(limit):
                break
        if not hits:
            return self.error(404, f"No Captures found for: {request.query.get('url', '')}")
        return self._cdx_lines(request, hits)

    def _cdx_lines(self, request: web.Request, hits: list[dict[str, Any]]) -> web.Response:
        if fl := request.query.get("fl"):
            hits = [{k: e[k] for k in fl.split(",") if k in e} for e in hits]
        if request.query.get("output") == "json":
            lines = [json.dumps(e) for e in hits]
        else:  # CDXJ
            lines = [f"{e.get('urlkey', '')} {e.get('timestamp', '')} "
                     f"{json.dumps({k: v for k, v in e.items() if k not in ('urlkey', 'timestamp')})}" for e in hits]
        return web.Response(text="\n".join(lines) + "\n", content_type="text/x-ndjson")

    async def data(self, request: web.Request) -> web.Response:
        name = request.match_info["filename"]
        if (found := await self._discovery_data(request, name)) is not None:
            return found
        archive = self.archive

        def load() -> bytes | None:
            where = archive.shard_of_file(name)
            if where is None:
                return None
            archive.build(*where)
            return archive.files[name]

        body = await asyncio.to_thread(load)
        if body is None:
            return self.error(404, f"The specified key does not exist: {name}")
        spec = request.headers.get("Range", "")
        if not spec:
            return web.Response(body=body, content_type="application/octet-stream", headers={"Accept-Ranges": "bytes"})
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", spec.strip())
        total = len(body)
        first, last = (int(m.group(1)) if m and m.group(1) else None), (int(m.group(2)) if m and m.group(2) else None)
        if first is None and last is not None:  # the last N bytes
            first, last = max(0, total - last), total - 1
        if m is None or first is None or first >= total or (last is not None and last < first):
            return web.Response(status=416, headers={"Content-Range": f"bytes */{total}"})
        last = min(total - 1, last if last is not None else total - 1)
        return web.Response(status=206, body=body[first:last + 1], content_type="application/octet-stream",
                            headers={"Content-Range": f"bytes {first}-{last}/{total}", "Accept-Ranges": "bytes"})


    async def _discovery_data(self, request: web.Request, name: str) -> web.Response | None:
        """A byte range of a discovery WARC file (None: not one of them)."""
        archive = self.discovery(NEWEST)
        if archive is None or name not in archive.by_name:
            return None
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", request.headers.get("Range", "").strip())
        if m is None:  # whole files of the discovery archive are not served (they are virtual)
            return web.Response(status=416, headers={"Content-Range": "bytes */*"})
        first, last = int(m.group(1)), int(m.group(2)) if m.group(2) else None
        body = archive.read(name, first, last)  # one record, built on the loop (about a millisecond)
        if not body:
            return web.Response(status=416, headers={"Content-Range": "bytes */*"})
        end = first + len(body) - 1
        return web.Response(status=206, body=body, content_type="application/octet-stream",
                            headers={"Content-Range": f"bytes {first}-{end}/*", "Accept-Ranges": "bytes"})


class CommonCrawlDataService(CommonCrawlService):
    """data.commoncrawl.org: the WARC files alone, with its own knobs (the index is slow, 5-30 s
    a query; the files are served from S3 and CloudFront, fast)."""

    name = "commoncrawl_data"
    prefix = "/commoncrawl-data"
    real_base_url = "https://data.commoncrawl.org"
    description = "Common Crawl's WARC files: GET /{warc path} (Range)"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/{filename:.+}", self.data)]
