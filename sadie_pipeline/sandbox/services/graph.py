"""Microsoft Graph (OneDrive upload). Its tokens come from the ``login`` service (`login.py`),
a separate service so that knobs and counters set on one do not touch the other.

``graph`` (graph.microsoft.com), mounted at ``/graph``; a client's base URL is
``{sb.base_url('graph')}/v1.0``. Every call needs ``Authorization: Bearer <token from login>``
(401 ``InvalidAuthenticationToken`` otherwise). Errors are Graph's
``{"error": {"code", "message", "innerError": {...}}}``.

* ``PUT /v1.0/drives/{drive-id}/root:/{path}:/content``: simple upload, up to 4 MiB (the limit
  Graph documented for years; larger bodies get 413 so a client that skips upload sessions is
  caught). 201 with the driveItem (200 when it replaced a file). Missing folders are created.
  ``?@microsoft.graph.conflictBehavior=replace|fail|rename`` (default replace).
* ``POST /v1.0/drives/{drive-id}/root:/{path}:/createUploadSession`` (body optional:
  ``{"item": {"@microsoft.graph.conflictBehavior": ...}}``): 200 ``{"uploadUrl",
  "expirationDateTime", "nextExpectedRanges": ["0-"]}``.
* the upload URL (pre-authenticated: an ``Authorization`` header on it gets 401, as Graph warns):
  ``PUT`` with ``Content-Range: bytes a-b/total`` and exactly b-a+1 bytes. Fragments must
  arrive in order (416 ``invalidRange`` otherwise, with the session's ``nextExpectedRanges``)
  and, except the last, be a multiple of 320 KiB (327,680 bytes) as Graph requires (400
  ``invalidRequest``); at most 60 MiB each (413). 202 ``{"expirationDateTime",
  "nextExpectedRanges": ["{next}-"]}`` until the last fragment, then 201 (200 on replace) with
  the driveItem. ``GET`` gives the session's status, ``DELETE`` cancels it (204).
* ``GET /v1.0/drives/{drive-id}/root:/{path}`` (and ``/root``, ``/items/{id}``): metadata of a
  file or folder; 404 ``itemNotFound``. ``GET .../root:/{path}:/content``: 302 to a
  pre-authenticated download URL, which answers the bytes.

The known drive is `DRIVE_ID` (others: 404). Paths are case-insensitive, as in OneDrive.
Uploaded files live in memory; `Sandbox.inspect("graph")` lists them (drive, path, id, size,
sha256, method "simple"/"session", chunks) and `sb.services["graph"].content(path)` gives the
bytes in-process. `Sandbox.reset()` forgets them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import mimetypes
import re
import secrets
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from aiohttp import web

from .base import Service, json_response
from .login import GRAPH_APP_ID, GRAPH_RESOURCE, LoginService, utc_now, verify_token

DRIVE_ID = "b!c2FkaWUtc2FuZGJveC1vbmVkcml2ZS1sZWFkcw"
FRAGMENT_UNIT = 320 * 1024
SIMPLE_UPLOAD_MAX = 4 * 1024 * 1024
FRAGMENT_MAX = 60 * 1024 * 1024
SESSION_LIFETIME = timedelta(hours=1)
WEB_ROOT = "https://sadiesandbox-my.sharepoint.com/personal/leads_sadiesandbox_onmicrosoft_com/Documents"

_ILLEGAL_NAME = re.compile(r'["*:<>?\\|]')
_CONTENT_RANGE = re.compile(r"^bytes (\d+)-(\d+)/(\d+)$")


def _iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


@dataclass
class StoredFile:
    drive_id: str
    path: str               # as the client spelled it, relative to the drive root
    data: bytes
    item_id: str
    method: str             # "simple" | "session"
    chunks: int
    created: datetime
    modified: datetime
    app_id: str
    version: int = 1


@dataclass
class UploadSession:
    id: str
    drive_id: str
    path: str
    conflict: str
    app_id: str
    expires: datetime
    total: int | None = None
    received: bytearray = field(default_factory=bytearray)
    chunks: int = 0


class GraphError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _item_id(drive_id: str, key: str) -> str:
    digest = hashlib.sha1(f"{drive_id}|{key}".encode()).digest()
    return "01" + base64.b32encode(digest).decode()[:32]


def _clean_path(raw: str) -> str:
    """A drive-relative path from the URL, validated as OneDrive validates names."""
    parts = [p for p in raw.strip("/").split("/")]
    if not parts or any(not p for p in parts):
        raise GraphError(400, "invalidRequest", "Invalid request: empty path segment.")
    for p in parts:
        if _ILLEGAL_NAME.search(p) or p != p.strip() or p.endswith(".") or p in (".", ".."):
            raise GraphError(400, "invalidRequest", "The provided name cannot contain any illegal characters.")
    return "/".join(parts)


class GraphService(Service):
    name = "graph"
    prefix = "/graph"
    real_base_url = "https://graph.microsoft.com"
    description = ("Microsoft Graph OneDrive: PUT /v1.0/drives/{id}/root:/{path}:/content, "
                   "createUploadSession + Content-Range fragments, GET metadata (Bearer token from login)")
    injected_error_status = 503
    drives = frozenset({DRIVE_ID})

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.files: dict[tuple[str, str], StoredFile] = {}
        self.sessions: dict[str, UploadSession] = {}

    def routes(self) -> list[web.RouteDef]:
        return [web.route("*", "/v1.0/drives/{drive}/{rest:.*}", self.drive_request),
                web.route("*", "/_upload/{session}", self.upload_url),
                web.get("/_content/{drive}/{item}", self.download)]

    # ---- state for tests ---------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"drives": sorted(self.drives),
                "files": [{"drive_id": f.drive_id, "path": f.path, "id": f.item_id, "size": len(f.data),
                           "sha256": hashlib.sha256(f.data).hexdigest(), "method": f.method, "chunks": f.chunks,
                           "web_url": self.web_url(f.path)} for f in self.files.values()],
                "upload_sessions": len(self.sessions)}

    def reset_state(self) -> None:
        self.files.clear()
        self.sessions.clear()

    def content(self, path: str, drive_id: str = DRIVE_ID) -> bytes:
        """The bytes of an uploaded file (in-process tests)."""
        return self.files[(drive_id, path.strip("/").lower())].data

    # ---- Graph's error format ------------------------------------------------------------------
    def error_body(self, status: int, message: str, code: str | None) -> Any:
        default = {400: "invalidRequest", 401: "InvalidAuthenticationToken", 403: "accessDenied",
                   404: "itemNotFound", 405: "invalidRequest", 409: "nameAlreadyExists", 413: "requestEntityTooLarge",
                   416: "invalidRange", 429: "activityLimitReached", 503: "serviceNotAvailable"}
        if status >= 500:
            message = "The service is temporarily unavailable. Please retry."
        if not code or "_" in code or code.isdigit():  # the core's generic codes: Graph's own instead
            code = default.get(status, "generalException")
        return {"error": {"code": code,
                          "message": message,
                          "innerError": {"date": utc_now().strftime("%Y-%m-%dT%H:%M:%S"), "request-id": str(uuid.uuid4()),
                                         "client-request-id": str(uuid.uuid4())}}}

    def rate_limit_headers(self, limit: int, remaining: int, reset_s: float) -> dict[str, str]:
        return {}

    def graph_error(self, exc: GraphError, extra: dict[str, Any] | None = None) -> web.Response:
        body = self.error_body(exc.status, exc.message, exc.code)
        if extra:
            body["error"].update(extra)
        headers = {"WWW-Authenticate": f'Bearer realm="", authorization_uri="{LoginService.real_base_url}/common/'
                                       f'oauth2/authorize", client_id="{GRAPH_APP_ID}"'} if exc.status == 401 else None
        return json_response(body, exc.status, headers=headers)

    # ---- helpers -------------------------------------------------------------------------------
    def _authorize(self, request: web.Request) -> dict[str, Any]:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise GraphError(401, "InvalidAuthenticationToken", "Access token is empty.")
        claims = verify_token(token.strip())
        if claims is None:
            raise GraphError(401, "InvalidAuthenticationToken", "IDX14100: JWT is not well formed or its "
                             "signature is invalid.")
        if claims.get("aud") not in (GRAPH_RESOURCE, GRAPH_RESOURCE + "/", GRAPH_APP_ID):
            raise GraphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.")
        if float(claims.get("exp", 0)) < time.time():
            raise GraphError(401, "InvalidAuthenticationToken", "Lifetime validation failed, the token is expired.")
        return claims

    def web_url(self, path: str) -> str:
        return f"{WEB_ROOT}/{quote(path)}"

    def _parent(self, drive_id: str, path: str) -> dict[str, Any]:
        parent = path.rsplit("/", 1)[0] if "/" in path else ""
        ref: dict[str, Any] = {"driveType": "business", "driveId": drive_id,
                               "id": _item_id(drive_id, parent.lower()) if parent else _item_id(drive_id, ""),
                               "path": f"/drives/{drive_id}/root:" + (f"/{parent}" if parent else "")}
        ref["name"] = parent.rsplit("/", 1)[-1] if parent else "root"
        return ref

    def file_json(self, f: StoredFile) -> dict[str, Any]:
        name = f.path.rsplit("/", 1)[-1]
        by = {"application": {"id": f.app_id, "displayName": "sadie-pipeline"}}
        etag = f"{{{uuid.UUID(bytes=hashlib.md5(f.item_id.encode()).digest())}}}".upper()
        return {"@odata.context": f"{GRAPH_RESOURCE}/v1.0/$metadata#drives('{f.drive_id}')/items/$entity",
                "id": f.item_id, "name": name, "size": len(f.data), "webUrl": self.web_url(f.path),
                "eTag": f'"{etag},{f.version}"', "cTag": f'"c:{etag},{f.version}"',
                "createdDateTime": _iso(f.created), "lastModifiedDateTime": _iso(f.modified),
                "createdBy": by, "lastModifiedBy": by, "parentReference": self._parent(f.drive_id, f.path),
                "file": {"mimeType": mimetypes.guess_type(name)[0] or "application/octet-stream",
                         "hashes": {"sha256Hash": hashlib.sha256(f.data).hexdigest().upper()}},
                "fileSystemInfo": {"createdDateTime": _iso(f.created), "lastModifiedDateTime": _iso(f.modified)}}

    def folder_json(self, drive_id: str, path: str) -> dict[str, Any] | None:
        key = path.lower()
        prefix = key + "/" if key else ""
        children = {k[1][len(prefix):].split("/", 1)[0] for k in self.files if k[0] == drive_id
                    and k[1].startswith(prefix)}
        if key and not children:
            return None
        display = path
        for f in self.files.values():  # the folder's name as first spelled by a client
            if f.drive_id == drive_id and f.path.lower().startswith(prefix):
                display = f.path[: len(path)]
                break
        out: dict[str, Any] = {"@odata.context": f"{GRAPH_RESOURCE}/v1.0/$metadata#drives('{drive_id}')/items/$entity",
                               "id": _item_id(drive_id, key), "name": display.rsplit("/", 1)[-1] if key else "root",
                               "webUrl": self.web_url(display) if key else WEB_ROOT,
                               "size": sum(len(f.data) for k, f in self.files.items()
                                           if k[0] == drive_id and k[1].startswith(prefix)),
                               "folder": {"childCount": len(children)}}
        if key:
            out["parentReference"] = self._parent(drive_id, display)
        else:
            out["root"] = {}
            out["parentReference"] = {"driveType": "business", "driveId": drive_id}
        return out

    def _store(self, drive_id: str, path: str, data: bytes, *, method: str, chunks: int, conflict: str,
               app_id: str) -> tuple[StoredFile, bool]:
        key = (drive_id, path.lower())
        existing = self.files.get(key)
        if existing is not None and conflict == "fail":
            raise GraphError(409, "nameAlreadyExists", "The specified item name already exists.")
        if existing is not None and conflict == "rename":
            stem, dot, ext = path.rpartition(".") if "." in path.rsplit("/", 1)[-1] else (path, "", "")
            n = 1
            while (drive_id, f"{stem} {n}{dot}{ext}".lower()) in self.files:
                n += 1
            path, key, existing = f"{stem} {n}{dot}{ext}", (drive_id, f"{stem} {n}{dot}{ext}".lower()), None
        if self.folder_json(drive_id, path) is not None:
            raise GraphError(409, "nameAlreadyExists", "A folder with the same name already exists.")
        now = utc_now()
        if existing is not None:
            existing.data, existing.method, existing.chunks, existing.modified = data, method, chunks, now
            existing.version += 1
            existing.app_id = app_id
            return existing, False
        f = StoredFile(drive_id, path, data, _item_id(drive_id, path.lower()), method, chunks, now, now, app_id)
        self.files[key] = f
        return f, True

    # ---- /v1.0/drives/{drive}/... ----------------------------------------------------------------
    async def drive_request(self, request: web.Request) -> web.StreamResponse:
        try:
            claims = self._authorize(request)
            drive_id = request.match_info["drive"]
            if drive_id not in self.drives:
                raise GraphError(404, "itemNotFound", "The provided drive id appears to be malformed, or does not "
                                 "represent a valid drive.")
            rest = request.match_info["rest"]
            if rest.startswith("items/"):
                return self._by_id(request, drive_id, rest[len("items/"):])
            if rest in ("root", "root:", "root:/"):
                if request.method != "GET":
                    raise web.HTTPMethodNotAllowed(request.method, ["GET"])
                return json_response(self.folder_json(drive_id, ""))
            m = re.fullmatch(r"root:/(?P<path>[^:]+?)(?::(?:/(?P<action>[A-Za-z.]+))?)?", rest)
            if not m:
                raise GraphError(400, "invalidRequest", f"Invalid request: unsupported segment '{rest}'.")
            path = _clean_path(m.group("path"))
            action = (m.group("action") or "").removeprefix("microsoft.graph.")
            app_id = str(claims.get("appid", ""))
            if action == "content" and request.method == "PUT":
                return await self._simple_upload(request, drive_id, path, app_id)
            if action == "content" and request.method == "GET":
                f = self.files.get((drive_id, path.lower()))
                if f is None:
                    raise GraphError(404, "itemNotFound", "The resource could not be found.")
                raise web.HTTPFound(f"{self.mount_url(request)}/_content/{drive_id}/{f.item_id}")
            if action == "createUploadSession" and request.method == "POST":
                return await self._create_session(request, drive_id, path, app_id)
            if not action and request.method == "GET":
                f = self.files.get((drive_id, path.lower()))
                if f is not None:
                    return json_response(self.file_json(f))
                folder = self.folder_json(drive_id, path)
                if folder is None:
                    raise GraphError(404, "itemNotFound", "The resource could not be found.")
                return json_response(folder)
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "PUT", "POST"])
        except GraphError as e:
            return self.graph_error(e)

    def _by_id(self, request: web.Request, drive_id: str, item_id: str) -> web.Response:
        if request.method != "GET":
            raise web.HTTPMethodNotAllowed(request.method, ["GET"])
        for f in self.files.values():
            if f.drive_id == drive_id and f.item_id == item_id:
                return json_response(self.file_json(f))
        raise GraphError(404, "itemNotFound", "The resource could not be found.")

    @staticmethod
    def _conflict(value: Any) -> str:
        conflict = str(value or "replace")
        if conflict not in ("replace", "fail", "rename"):
            raise GraphError(400, "invalidRequest", f"Invalid conflict behavior '{conflict}'.")
        return conflict

    async def _simple_upload(self, request: web.Request, drive_id: str, path: str, app_id: str) -> web.Response:
        conflict = self._conflict(request.query.get("@microsoft.graph.conflictBehavior"))
        if (request.content_length or 0) > SIMPLE_UPLOAD_MAX:
            raise GraphError(413, "requestEntityTooLarge", "The request is too large for a simple upload: use an "
                             "upload session (createUploadSession) above 4 MiB.")
        data = await request.read()
        if len(data) > SIMPLE_UPLOAD_MAX:
            raise GraphError(413, "requestEntityTooLarge", "The request is too large for a simple upload: use an "
                             "upload session (createUploadSession) above 4 MiB.")
        f, created = self._store(drive_id, path, data, method="simple", chunks=1, conflict=conflict, app_id=app_id)
        return json_response(self.file_json(f), 201 if created else 200)

    async def _create_session(self, request: web.Request, drive_id: str, path: str, app_id: str) -> web.Response:
        body: Any = {}
        if request.can_read_body:
            raw = await request.read()
            if raw.strip():
                try:
                    body = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    raise GraphError(400, "invalidRequest", "Unable to read JSON request payload.") from None
        item = body.get("item", {}) if isinstance(body, dict) else {}
        conflict = self._conflict(item.get("@microsoft.graph.conflictBehavior") if isinstance(item, dict) else None)
        if conflict == "fail" and (drive_id, path.lower()) in self.files:
            raise GraphError(409, "nameAlreadyExists", "The specified item name already exists.")
        session = UploadSession(secrets.token_urlsafe(24), drive_id, path, conflict, app_id, utc_now() + SESSION_LIFETIME)
        self.sessions[session.id] = session
        return json_response({"@odata.context": f"{GRAPH_RESOURCE}/v1.0/$metadata#microsoft.graph.uploadSession",
                              "uploadUrl": f"{self.mount_url(request)}/_upload/{session.id}",
                              "expirationDateTime": _iso(session.expires), "nextExpectedRanges": ["0-"]})

    # ---- the upload URL ---------------------------------------------------------------------------
    def _session_status(self, s: UploadSession) -> dict[str, Any]:
        return {"expirationDateTime": _iso(s.expires), "nextExpectedRanges": [f"{len(s.received)}-"]}

    async def upload_url(self, request: web.Request) -> web.StreamResponse:
        try:
            if "Authorization" in request.headers:
                raise GraphError(401, "InvalidAuthenticationToken", "The upload URL is pre-authenticated: do not "
                                 "send an Authorization header with it.")
            s = self.sessions.get(request.match_info["session"])
            if s is not None and s.expires < utc_now():
                del self.sessions[s.id]
                s = None
            if s is None:
                raise GraphError(404, "itemNotFound", "The upload session was not found (expired or cancelled).")
            if request.method == "GET":
                return json_response(self._session_status(s))
            if request.method == "DELETE":
                del self.sessions[s.id]
                return web.Response(status=204)
            if request.method != "PUT":
                raise web.HTTPMethodNotAllowed(request.method, ["GET", "PUT", "DELETE"])
            return await self._fragment(request, s)
        except GraphError as e:
            extra = None
            if e.status == 416:
                s = self.sessions.get(request.match_info["session"])
                extra = {"nextExpectedRanges": self._session_status(s)["nextExpectedRanges"]} if s else None
            return self.graph_error(e, extra)

    async def _fragment(self, request: web.Request, s: UploadSession) -> web.Response:
        m = _CONTENT_RANGE.match(request.headers.get("Content-Range", "").strip())
        if not m:
            raise GraphError(400, "invalidRequest", "The Content-Range header is missing or malformed: expected "
                             "'bytes {start}-{end}/{total}'.")
        start, end, total = (int(g) for g in m.groups())
        if end < start or end >= total:
            raise GraphError(400, "invalidRequest", "The Content-Range header is not a valid range.")
        size = end - start + 1
        if size > FRAGMENT_MAX:
            raise GraphError(413, "requestEntityTooLarge", "A fragment must be smaller than 60 MiB.")
        if s.total is not None and total != s.total:
            raise GraphError(400, "invalidRequest", f"The total size {total} differs from the {s.total} bytes "
                             "declared by the session's first fragment.")
        if start != len(s.received):
            raise GraphError(416, "invalidRange", "The uploaded fragment overlaps with data that has already been "
                             "received." if start < len(s.received) else "The uploaded fragment does not start "
                             "where the session expects the next bytes.")
        last = end + 1 == total
        if not last and size % FRAGMENT_UNIT:
            raise GraphError(400, "invalidRequest", f"The fragment is {size} bytes: every fragment but the last "
                             f"must be a multiple of 320 KiB ({FRAGMENT_UNIT} bytes).")
        data = await request.read()
        if len(data) != size:
            raise GraphError(400, "invalidRequest", f"The Content-Range header declares {size} bytes but the body "
                             f"has {len(data)}.")
        s.total = total
        s.received += data
        s.chunks += 1
        if not last:
            return json_response(self._session_status(s), 202)
        del self.sessions[s.id]
        f, created = self._store(s.drive_id, s.path, bytes(s.received), method="session", chunks=s.chunks,
                                 conflict=s.conflict, app_id=s.app_id)
        return json_response(self.file_json(f), 201 if created else 200)

    async def download(self, request: web.Request) -> web.Response:
        drive_id, item_id = request.match_info["drive"], request.match_info["item"]
        for f in self.files.values():
            if f.drive_id == drive_id and f.item_id == item_id:
                name = f.path.rsplit("/", 1)[-1]
                return web.Response(body=f.data, content_type=mimetypes.guess_type(name)[0] or "application/octet-stream")
        return self.graph_error(GraphError(404, "itemNotFound", "The resource could not be found."))
