"""Microsoft Graph: upload files (the lead exports) to a OneDrive / SharePoint drive.

`OneDriveResource` gets an app-only token with msal's client credentials flow
(``ConfidentialClientApplication.acquire_token_for_client``, cached by msal until it expires)
and uploads with httpx under a root folder:

* up to ``simple_upload_max_bytes`` (4 MiB): one ``PUT {base}/drives/{drive}/root:/{path}:/content``
* above: ``POST .../root:/{path}:/createUploadSession``, then ``PUT`` fragments of
  ``chunk_size`` bytes (a multiple of 320 KiB, as Graph requires; 10 x 320 KiB by default) with
  ``Content-Range: bytes a-b/total`` to the pre-authenticated upload URL (no Authorization
  header), resuming from the session's ``nextExpectedRanges`` when a fragment was already taken

Every request goes through the service's `ServiceGuard` (``call_sync``, the project's one retry
path): transient errors only (timeouts, connection errors, 429, 5xx) are retried, with exponential
backoff and jitter, waiting at least the server's Retry-After, and a circuit breaker stops a run
from hammering a dead service; a call that gives up raises `ServiceCallFailed`, its text redacted:
no secret, token or upload URL. Settings are fields; the definitions set them from:

    tenant_id, client_id, client_secret, drive_id   SADIE_GRAPH_TENANT_ID, _CLIENT_ID, _CLIENT_SECRET, _DRIVE_ID
    base_url        SADIE_GRAPH_BASE_URL        (default https://graph.microsoft.com/v1.0)
    authority_host  SADIE_GRAPH_AUTHORITY_HOST  (default https://login.microsoftonline.com)
    ca_bundle       SADIE_GRAPH_CA_BUNDLE       (a PEM file trusted instead of the default CAs, for msal and Graph)
    folder          SADIE_ONEDRIVE_FOLDER       (the root folder, default "Sadie Leads")

    onedrive = OneDriveResource(tenant_id=..., client_id=..., client_secret=..., drive_id=...)
    if not onedrive.configured():
        ...                                            # skip with onedrive.not_configured_message()
    uploaded = onedrive.upload("US-FL/leads-2026-01-05.xlsx", data)
    uploaded.web_url, uploaded.method                  # "simple" | "session"

msal talks to the authority through the same httpx client (msal's documented ``http_client``
argument), so one CA setting covers both, and requests' ``REQUESTS_CA_BUNDLE`` cannot override
it. Instance discovery is off: msal never performs it for Microsoft's own authority hosts, and
a configured authority host (a national cloud, a test double) is trusted as given.
"""

from __future__ import annotations

import hashlib
import logging
import re
import ssl
import threading
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

import httpx
from dagster import ConfigurableResource, InitResourceContext
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.errors import ErrorClass, classify, redact
from sadie_pipeline.resources.reliability import ServiceCallFailed, ServiceGuard, ServicePolicy, SkipItem

logger = logging.getLogger(__name__)

TENANT_ENV = "SADIE_GRAPH_TENANT_ID"
CLIENT_ID_ENV = "SADIE_GRAPH_CLIENT_ID"
CLIENT_SECRET_ENV = "SADIE_GRAPH_CLIENT_SECRET"
DRIVE_ENV = "SADIE_GRAPH_DRIVE_ID"
BASE_URL_ENV = "SADIE_GRAPH_BASE_URL"
AUTHORITY_HOST_ENV = "SADIE_GRAPH_AUTHORITY_HOST"
CA_BUNDLE_ENV = "SADIE_GRAPH_CA_BUNDLE"
FOLDER_ENV = "SADIE_ONEDRIVE_FOLDER"

DEFAULT_BASE_URL = "https://graph.microsoft.com/v1.0"
DEFAULT_AUTHORITY_HOST = "https://login.microsoftonline.com"
DEFAULT_FOLDER = "Sadie Leads"
GRAPH_SCOPE = "https://graph.microsoft.com/.default"
FRAGMENT_UNIT = 320 * 1024  # Graph: every fragment but the last is a multiple of 320 KiB
SIMPLE_UPLOAD_MAX = 4 * 1024 * 1024
SERVICE = "onedrive"
# msal answers a token request that got 429/5xx from its own cache for the Retry-After it saw,
# else for 5 s (ThrottledHttpClient, confidential clients): asking again sooner is pointless.
MSAL_THROTTLE_S = 5.0
_ILLEGAL = re.compile(r'["*:<>?\\|\x00-\x1f]')

# AAD token errors (RFC 6749 5.2 codes plus AAD's): what they say about retrying
_TOKEN_ERROR_CLASSES = {
    "invalid_client": ErrorClass.AUTH, "unauthorized_client": ErrorClass.AUTH, "invalid_grant": ErrorClass.AUTH,
    "access_denied": ErrorClass.AUTH, "invalid_tenant": ErrorClass.AUTH,
    "temporarily_unavailable": ErrorClass.TRANSIENT, "server_error": ErrorClass.TRANSIENT,
    "too_many_requests": ErrorClass.RATE_LIMITED,
}


@dataclass(frozen=True)
class UploadedFile:
    path: str        # drive-relative, with the root folder: "Sadie Leads/US-FL/leads.xlsx"
    item_id: str
    web_url: str
    size: int
    method: Literal["simple", "session"]


class GraphTokenError(Exception):
    """The identity platform refused or failed to issue a token (its error, never the secret)."""

    def __init__(self, message: str, error_class: ErrorClass, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.error_class = error_class  # read by core.errors.classify
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class _Settings:
    tenant_id: str | None
    client_id: str | None
    client_secret: str | None
    drive_id: str | None
    base_url: str
    authority_host: str
    ca_bundle: str | None
    folder: str

    @property
    def authority(self) -> str:
        return f"{self.authority_host}/{self.tenant_id}"


class OneDriveResource(ConfigurableResource):
    """Uploads to a OneDrive/SharePoint drive with an app registration (client credentials);
    without tenant, app id, secret and drive, uploads are skipped."""

    tenant_id: str | None = Field(default=None, description=f"from {TENANT_ENV}")
    client_id: str | None = Field(default=None, description=f"from {CLIENT_ID_ENV}")
    client_secret: str | None = Field(default=None, description=f"from {CLIENT_SECRET_ENV}")
    drive_id: str | None = Field(default=None, description=f"from {DRIVE_ENV}")
    base_url: str | None = Field(default=None, description=f"from {BASE_URL_ENV}; None: {DEFAULT_BASE_URL}")
    authority_host: str | None = Field(default=None,
                                       description=f"from {AUTHORITY_HOST_ENV}; None: {DEFAULT_AUTHORITY_HOST}")
    ca_bundle: str | None = Field(default=None, description=f"from {CA_BUNDLE_ENV}; None: the default CAs")
    folder: str | None = Field(default=None, description=f"from {FOLDER_ENV}; None: {DEFAULT_FOLDER!r}")
    scope: str = Field(default=GRAPH_SCOPE, description="the Graph resource's /.default scope (national clouds differ)")
    simple_upload_max_bytes: int = Field(default=SIMPLE_UPLOAD_MAX, ge=0, le=SIMPLE_UPLOAD_MAX,
                                         description="files up to this size go in one PUT, larger ones in a session")
    chunk_size: int = Field(default=10 * FRAGMENT_UNIT, ge=FRAGMENT_UNIT, le=192 * FRAGMENT_UNIT, multiple_of=FRAGMENT_UNIT,
                            description="upload session fragment size: a multiple of 320 KiB (327,680 bytes)")
    conflict_behavior: Literal["replace", "fail", "rename"] = "replace"
    max_attempts: int = Field(default=4, ge=1, description="attempts per request (token, PUT, fragment)")
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    timeout_s: float = Field(default=60.0, gt=0, description="per request (a fragment of chunk_size included)")
    max_retry_after_s: float = Field(default=120.0, ge=0, description="a longer Retry-After fails the call instead")
    failure_threshold: int = Field(default=5, ge=1, description="consecutive failures that open the breaker")
    reset_timeout_s: float = Field(default=60.0, gt=0, description="an open breaker lets a probe through after this")

    _guard: Any = PrivateAttr(default=None)
    _http: Any = PrivateAttr(default=None)
    _http_key: Any = PrivateAttr(default=None)
    _app: Any = PrivateAttr(default=None)
    _app_key: Any = PrivateAttr(default=None)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    # ---- settings ------------------------------------------------------------------------
    def settings(self) -> _Settings:
        def pick(value: str | None) -> str | None:
            return (value or "").strip() or None

        return _Settings(
            tenant_id=pick(self.tenant_id), client_id=pick(self.client_id),
            client_secret=pick(self.client_secret), drive_id=pick(self.drive_id),
            base_url=(pick(self.base_url) or DEFAULT_BASE_URL).rstrip("/"),
            authority_host=(pick(self.authority_host) or DEFAULT_AUTHORITY_HOST).rstrip("/"),
            ca_bundle=pick(self.ca_bundle),
            folder=(pick(self.folder) or DEFAULT_FOLDER).strip("/"),
        )

    def _missing(self, s: _Settings) -> list[str]:
        return [name for name, value in ((TENANT_ENV, s.tenant_id), (CLIENT_ID_ENV, s.client_id),
                                         (CLIENT_SECRET_ENV, s.client_secret), (DRIVE_ENV, s.drive_id)) if not value]

    def configured(self) -> bool:
        """True when tenant, app id, secret and drive are all set (uploads are skipped otherwise)."""
        return not self._missing(self.settings())

    def not_configured_message(self) -> str:
        missing = self._missing(self.settings()) or [TENANT_ENV, CLIENT_ID_ENV, CLIENT_SECRET_ENV, DRIVE_ENV]
        return f"OneDrive upload skipped: Microsoft Graph is not configured (set {', '.join(missing)})"

    def remote_path(self, path: str) -> str:
        """The drive-relative path of ``path`` under the root folder, validated as OneDrive does."""
        folder = [p for p in self.settings().folder.replace("\\", "/").split("/") if p]
        relative = [p for p in path.strip().replace("\\", "/").split("/") if p]
        if not relative:
            raise ValueError(f"not a file path: {path!r}")
        for p in folder + relative:
            if p in (".", "..") or _ILLEGAL.search(p) or p != p.strip() or p.endswith("."):
                raise ValueError(f"not a valid OneDrive path: {path!r} (segment {p!r})")
        return "/".join(folder + relative)

    def _secrets(self, s: _Settings, *extra: str | None) -> tuple[str | None, ...]:
        return (s.client_secret, *extra)

    # ---- clients --------------------------------------------------------------------------
    def _client(self, s: _Settings) -> httpx.Client:
        key = (s.ca_bundle, self.timeout_s)
        if self._http is None or self._http_key != key:
            if self._http is not None:
                self._http.close()
            verify: ssl.SSLContext | bool = ssl.create_default_context(cafile=s.ca_bundle) if s.ca_bundle else True
            self._http = httpx.Client(timeout=httpx.Timeout(self.timeout_s, connect=10.0), verify=verify,
                                      trust_env=False, headers={"User-Agent": "sadie-pipeline/0.1 (+onedrive)"})
            self._http_key, self._app, self._app_key = key, None, None
        return self._http

    def _msal_app(self, s: _Settings, http: httpx.Client) -> Any:
        import msal

        key = (s.authority, s.client_id, hashlib.sha256((s.client_secret or "").encode()).hexdigest())
        if self._app is None or self._app_key != key:
            # Building the app fetches the authority's OIDC discovery document: it can fail.
            self._app = msal.ConfidentialClientApplication(
                s.client_id, client_credential=s.client_secret, authority=s.authority, http_client=http,
                instance_discovery=False, app_name="sadie-pipeline",
            )
            self._app_key = key
        return self._app

    def _token(self, s: _Settings, http: httpx.Client) -> str:
        """An access token for Graph (from msal's cache while valid). Raises `GraphTokenError`."""
        try:
            app = self._msal_app(s, http)
        except ValueError as exc:  # msal: OIDC discovery refused (unknown tenant, wrong authority host)
            raise GraphTokenError(f"authority {s.authority} refused: {exc}", ErrorClass.AUTH) from None
        except Exception as exc:  # connection errors, MsalServiceError (discovery answered a 5xx)
            raise GraphTokenError(f"OIDC discovery at {s.authority_host} failed: {type(exc).__name__}: {exc}",
                                  _msal_error_class(exc)) from None
        try:
            result = app.acquire_token_for_client(scopes=[self.scope])
        except Exception as exc:
            error_class = _msal_error_class(exc)
            raise GraphTokenError(f"token request to {s.authority_host} failed: {type(exc).__name__}: {exc}",
                                  error_class, MSAL_THROTTLE_S if error_class.retryable else None) from None
        if isinstance(result, dict) and result.get("access_token"):
            return str(result["access_token"])
        result = result if isinstance(result, dict) else {}
        error = str(result.get("error") or "no_token")
        description = str(result.get("error_description") or "").split("\r\n")[0]
        hint = ""
        if error == "invalid_client":
            hint = f" (check {CLIENT_SECRET_ENV} and {CLIENT_ID_ENV})"
        elif error in ("unauthorized_client", "invalid_tenant"):
            hint = f" (check {CLIENT_ID_ENV} and {TENANT_ENV})"
        error_class = _TOKEN_ERROR_CLASSES.get(error, ErrorClass.PERMANENT)
        raise GraphTokenError(f"Microsoft identity platform refused a token: {error}: {description}{hint}",
                              error_class, MSAL_THROTTLE_S if error_class.retryable else None)

    def close(self) -> None:
        """Close the HTTP client (msal's token cache goes with it)."""
        with self._lock:
            if self._http is not None:
                self._http.close()
            self._http = self._http_key = self._app = self._app_key = None

    def teardown_after_execution(self, context: InitResourceContext) -> None:
        self.close()

    # ---- retries --------------------------------------------------------------------------
    def guard(self) -> ServiceGuard:
        """The resource's guard: retries, Retry-After, breaker (``guard().metadata()`` for metadata)."""
        if self._guard is None:
            self._guard = ServiceGuard(ServicePolicy(
                name=SERVICE, max_attempts=self.max_attempts, backoff_base_s=self.backoff_base_s,
                backoff_max_s=self.backoff_max_s, backoff_jitter_s=self.backoff_jitter_s, timeout_s=None,
                failure_threshold=self.failure_threshold, reset_timeout_s=self.reset_timeout_s,
                max_retry_after_s=self.max_retry_after_s,
            ), secrets=(self.settings().client_secret,))
        return self._guard

    def _call(self, what: str, send: Callable[[], httpx.Response], secrets: tuple[str | None, ...], *,
              accept: Container[int] = ()) -> httpx.Response:
        """``send()`` through the guard until it answers < 400 (or a status in ``accept``).
        Raises `ServiceCallFailed` (redacted) when the guard gives up."""
        return self.guard().call_sync(send, item_key=what, accept=accept,
                                      describe=lambda exc: self._describe(what, exc, secrets))

    @staticmethod
    def _describe(what: str, exc: BaseException, secrets: tuple[str | None, ...]) -> str:
        if isinstance(exc, httpx.HTTPStatusError):
            detail = ""
            try:
                body = exc.response.json()
                error = body.get("error") if isinstance(body, dict) else None
                if isinstance(error, dict):
                    detail = f": {error.get('code', '')}: {error.get('message', '')}"
                elif isinstance(body, dict) and body.get("error"):
                    detail = f": {body.get('error')}: {body.get('error_description', '')}"
            except ValueError:
                detail = f": {exc.response.text[:200]}"
            text = f"{what} answered HTTP {exc.response.status_code}{detail}"
        elif isinstance(exc, GraphTokenError):
            text = str(exc)
        else:
            text = f"{what} failed: {type(exc).__name__}: {exc}"
        return redact(text, secrets)[:2000]

    # ---- upload ---------------------------------------------------------------------------
    def upload(self, path: str, data: bytes) -> UploadedFile:
        """Upload ``data`` to ``{folder}/{path}`` (folders are created; an existing file is
        replaced unless ``conflict_behavior`` says otherwise). Raises `SkipItem` when not
        configured, `ServiceCallFailed` when Graph or the identity platform gives up, and
        ValueError for a path OneDrive would refuse."""
        s = self.settings()
        if self._missing(s):
            raise SkipItem(self.not_configured_message())
        remote = self.remote_path(path)
        data = bytes(data)
        with self._lock:
            http = self._client(s)
            if len(data) <= self.simple_upload_max_bytes:
                item, method = self._simple(s, http, remote, data), "simple"
            else:
                item, method = self._session(s, http, remote, data), "session"
        size = int(item.get("size", -1))
        if size != len(data):
            raise ServiceCallFailed(ErrorClass.PERMANENT, 1, f"upload of {remote}: Graph stored {size} bytes, "
                                    f"{len(data)} were sent", service=SERVICE)
        logger.info("onedrive: uploaded %s (%d bytes, %s upload)", remote, size, method)
        return UploadedFile(path=remote, item_id=str(item["id"]), web_url=str(item.get("webUrl", "")), size=size,
                            method=method)  # type: ignore[arg-type]

    def _item_url(self, s: _Settings, remote: str, action: str) -> str:
        return f"{s.base_url}/drives/{quote(s.drive_id or '', safe='!')}/root:/{quote(remote)}:/{action}"

    def _authorized(self, s: _Settings, http: httpx.Client) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._token(s, http)}"}

    def _simple(self, s: _Settings, http: httpx.Client, remote: str, data: bytes) -> dict[str, Any]:
        url = self._item_url(s, remote, "content")
        params = {"@microsoft.graph.conflictBehavior": self.conflict_behavior}
        secrets = self._secrets(s)

        def send() -> httpx.Response:
            headers = {**self._authorized(s, http), "Content-Type": "application/octet-stream"}
            return http.put(url, content=data, params=params, headers=headers)

        return self._call(f"upload of {remote}", send, secrets).json()

    def _session(self, s: _Settings, http: httpx.Client, remote: str, data: bytes) -> dict[str, Any]:
        url = self._item_url(s, remote, "createUploadSession")
        body = {"item": {"@microsoft.graph.conflictBehavior": self.conflict_behavior}}
        secrets = self._secrets(s)

        def create() -> httpx.Response:
            return http.post(url, json=body, headers=self._authorized(s, http))

        upload_url = str(self._call(f"upload session for {remote}", create, secrets).json()["uploadUrl"])
        secrets = self._secrets(s, upload_url)  # pre-authenticated: as secret as a token
        total, offset, fragments = len(data), 0, 0
        try:
            while True:
                end = min(offset + self.chunk_size, total) - 1
                chunk = data[offset:end + 1]
                headers = {"Content-Range": f"bytes {offset}-{end}/{total}", "Content-Type": "application/octet-stream"}

                def put(chunk: bytes = chunk, headers: dict[str, str] = headers) -> httpx.Response:
                    return http.put(upload_url, content=chunk, headers=headers)  # no Authorization: Graph says so

                response = self._call(f"fragment {offset}-{end}/{total} of {remote}", put, secrets, accept=(416,))
                fragments += 1
                if response.status_code in (200, 201):
                    return response.json()
                if response.status_code == 416:  # already received (an earlier attempt got through): ask where to go on
                    status = self._call(f"upload session status of {remote}", lambda: http.get(upload_url), secrets)
                    offset = _next_offset(status.json(), total)
                else:
                    offset = _next_offset(response.json(), total, default=end + 1)
                if fragments > 4 * (total // self.chunk_size + 2):
                    raise ServiceCallFailed(ErrorClass.PERMANENT, fragments, f"upload of {remote}: the upload "
                                            "session does not progress", service=SERVICE)
        except BaseException:
            try:  # do not leave a half-uploaded session behind
                http.delete(upload_url, timeout=10.0)
            except httpx.HTTPError:
                pass
            raise


def _msal_error_class(exc: BaseException) -> ErrorClass:
    """msal raises MsalServiceError("HTTP Error: 503") for a 5xx; transport errors are httpx's."""
    if type(exc).__name__ == "MsalServiceError":
        return ErrorClass.TRANSIENT if "HTTP Error: 5" in str(exc) else ErrorClass.PERMANENT
    return classify(exc)


def _next_offset(status: Any, total: int, default: int | None = None) -> int:
    """The first byte Graph expects next, from an upload session's ``nextExpectedRanges``."""
    ranges = status.get("nextExpectedRanges") if isinstance(status, dict) else None
    if ranges:
        first = str(ranges[0]).split("-", 1)[0]
        if first.isdigit() and int(first) < total:
            return int(first)
    if default is not None and default < total:
        return default
    raise ServiceCallFailed(ErrorClass.PERMANENT, 1, f"upload session expects no more bytes but did not finish "
                            f"(nextExpectedRanges: {ranges!r})", service=SERVICE)
