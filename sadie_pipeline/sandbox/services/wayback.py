"""The Internet Archive's Wayback Machine, for archived WHOIS lookups (``https://web.archive.org``).

* CDX API: ``GET /cdx/search/cdx?url=<url>&output=json&fl=timestamp,original,statuscode
  &filter=statuscode:200`` -> a JSON array whose first row names the fields (``[]`` when nothing
  is archived). ``fl`` picks fields (default: urlkey timestamp original mimetype statuscode digest
  length); ``filter`` is ``[!]field:regex``, repeatable; ``limit`` keeps the first N rows.
* Snapshots: ``GET /web/<timestamp>[id_]/<original url>`` -> the archived page; ``id_`` gives it
  as captured, without it the Wayback toolbar is inserted; a timestamp without an exact capture
  redirects (302) to the nearest one, as the real service does.

What is archived: ``https://www.whois.com/whois/<domain>`` pages, one per archived record of the
domain's registration (`whois.registration(...).history`, the owner truth's snapshots), each a
whois.com results page with the registrar's WHOIS text in ``<pre class="df-raw">``. Masked
records were archived too (and one lookup that failed, status 503, which ``filter`` drops).
"""

from __future__ import annotations

import html
import re
import zlib
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

from aiohttp import web

from .base import Service, json_response
from .whois import Registration, registrar_text, registration

_FIELDS = ("urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length")
_PAGE = re.compile(r"^(?:https?://)?(?:www\.)?whois\.com/whois/([a-z0-9.-]+)/?$", re.IGNORECASE)


def _captures(reg: Registration) -> list[dict[str, str]]:
    rows = []
    url = f"https://www.whois.com/whois/{reg.domain}"
    for i, snap in enumerate(reg.history):
        seconds = zlib.crc32(f"{reg.domain}{i}".encode()) % 86400
        stamp = f"{snap.date.replace('-', '')}{seconds // 3600:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}"
        rows.append({"timestamp": stamp, "original": url, "statuscode": "200", "mimetype": "text/html",
                     "snapshot": snap})
    if rows:  # a lookup archived while whois.com was failing
        first = rows[0]["timestamp"]
        rows.insert(0, {"timestamp": f"{int(first[:4]) - 1}{first[4:]}", "original": url, "statuscode": "503",
                        "mimetype": "text/html", "snapshot": None})
    for row in rows:
        row.update(urlkey=f"com,whois)/whois/{reg.domain}", digest=f"{zlib.crc32(row['timestamp'].encode()):08X}",
                   length=str(1800 + len(reg.domain)))
    return rows


def _page(reg: Registration, row: dict[str, Any]) -> str:
    snap = row["snapshot"]
    if snap is None:
        return "<html><body><h1>Service temporarily unavailable</h1></body></html>"
    return (f"<!DOCTYPE html><html><head><title>{reg.domain} | Whois Lookup</title></head><body>"
            f"<div class=\"whois_result\"><h1>{reg.domain}</h1><p>Updated 1 second ago</p>"
            f"<pre class=\"df-raw\" id=\"registrarData\">{html.escape(registrar_text(reg, snap))}</pre>"
            "</div></body></html>")


class WaybackService(Service):
    name = "wayback"
    prefix = "/wayback"
    real_base_url = "https://web.archive.org"
    description = "Wayback Machine: GET /cdx/search/cdx, GET /web/{timestamp}/{url}"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/cdx/search/cdx", self.cdx),
                web.get(r"/web/{stamp:\d{1,14}(?:id_)?}/{url:.+}", self.snapshot)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"error": message, "status": status}

    def _rows_for(self, url: str) -> tuple[Registration | None, list[dict[str, Any]]]:
        match = _PAGE.match(url.strip())
        reg = registration(self.ctx.world, match.group(1)) if match else None
        return reg, (_captures(reg) if reg is not None else [])

    async def cdx(self, request: web.Request) -> web.Response:
        url = request.query.get("url", "")
        if not url:
            return self.error(400, "url parameter is required")
        fields = [f for f in request.query.get("fl", ",".join(_FIELDS)).split(",") if f]
        if any(f not in _FIELDS for f in fields):
            return self.error(400, f"unknown field in fl: {fields}")
        _, rows = self._rows_for(url)
        for spec in request.query.getall("filter", []):
            negate = spec.startswith("!")
            field, _, pattern = spec.lstrip("!").partition(":")
            if field not in _FIELDS:
                return self.error(400, f"unknown filter field {field!r}")
            rows = [r for r in rows if bool(re.fullmatch(pattern, r[field])) != negate]
        if request.query.get("limit", "").lstrip("-").isdigit():
            rows = rows[:int(request.query["limit"])]
        if request.query.get("output") != "json":
            return web.Response(text="".join(" ".join(r[f] for f in fields) + "\n" for r in rows))
        return json_response([fields, *[[r[f] for f in fields] for r in rows]] if rows else [])

    async def snapshot(self, request: web.Request) -> web.StreamResponse:
        stamp, original = request.match_info["stamp"], request.match_info["url"]
        raw = stamp.endswith("id_")
        stamp = stamp.removesuffix("id_")
        reg, rows = self._rows_for(original)
        if reg is None or not rows:
            return web.Response(status=404, text="<html><body><p>Wayback Machine has not archived that URL.</p>"
                                "</body></html>", content_type="text/html")
        want = int(stamp.ljust(14, "0"))
        row = min(rows, key=lambda r: abs(int(r["timestamp"]) - want))
        if row["timestamp"] != stamp:
            suffix = "id_" if raw else ""
            raise web.HTTPFound(f"{self.mount_url(request)}/web/{row['timestamp']}{suffix}/{row['original']}")
        page = _page(reg, row)
        if not raw:
            page = page.replace("<body>", "<body><!-- BEGIN WAYBACK TOOLBAR INSERT --><div id=\"wm-ipp\">"
                                "Wayback Machine</div><!-- END WAYBACK TOOLBAR INSERT -->", 1)
        return web.Response(text=page, status=int(row["statuscode"]), content_type="text/html",
                            headers={"Memento-Datetime": format_datetime(
                                datetime.strptime(row["timestamp"], "%Y%m%d%H%M%S").replace(tzinfo=UTC), usegmt=True)})
