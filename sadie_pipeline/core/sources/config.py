"""The `import` section's source settings (issue 17): which connector reads a DMO's listings and
how. Models only; `check_source` says which settings each source type takes or needs, and
`resolved_*` give a source type's defaults, so the connectors read one finished setting each."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError


class SourceType(StrEnum):
    CSV = "csv"
    XLSX = "xlsx"              # also .xls, .xlsb, .ods (python-calamine)
    JSON = "json"              # an array of objects, at `records_path`
    JSONL = "jsonl"            # one object per line
    POI = "poi"                # a GeoJSON FeatureCollection
    WORDPRESS = "wordpress"    # /wp-json/wp/v2/{type}
    DRUPAL = "drupal"          # /jsonapi/node/{type}
    PARTNER_API = "partner_api"  # a keyed, paginated JSON API
    SCRAPE = "scrape"          # a list page and detail pages, CSS selectors


# Read from a file: dropped in the inbox, or downloaded from `url` when the config gives one.
FILE_SOURCES = frozenset({SourceType.CSV, SourceType.XLSX, SourceType.JSON, SourceType.JSONL, SourceType.POI})
# Nothing to drop in an inbox: always pulled from `url`.
API_SOURCES = frozenset({SourceType.WORDPRESS, SourceType.DRUPAL, SourceType.PARTNER_API, SourceType.SCRAPE})
INCREMENTAL_SOURCES = frozenset({SourceType.WORDPRESS, SourceType.DRUPAL, SourceType.PARTNER_API})
PAGED_SOURCES = frozenset({SourceType.WORDPRESS, SourceType.DRUPAL, SourceType.PARTNER_API})
RECORDS_PATH_SOURCES = frozenset({SourceType.JSON, SourceType.POI, SourceType.PARTNER_API})


class PagingStyle(StrEnum):
    PAGE = "page"          # ?page=N&per_page=S; the number of pages from a header or a body path
    OFFSET = "offset"      # ?offset=N&limit=S (Drupal: page[offset], page[limit])
    CURSOR = "cursor"      # ?cursor=<the body's next cursor>
    NEXT_URL = "next_url"  # the body's (or a Link header's) next URL (Drupal: links.next.href)
    NONE = "none"          # one request


def _env_name(value: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise PydanticCustomError("env_name", "Input should be the name of an environment variable (the secret "
                                  "itself never goes in the config)")
    return value


def _http_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PydanticCustomError("url", "Input should be an http:// or https:// URL")
    return value


EnvName = Annotated[str, AfterValidator(_env_name)]
HttpUrl = Annotated[str, AfterValidator(_http_url)]
Path = Annotated[str, Field(min_length=1)]  # dotted: "acf.address", "_embedded.wp:featuredmedia.0.source_url"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class SourceAuth(_Section):
    """Credentials by environment variable name: basic (a WordPress application password),
    bearer, or a key in a header or a query parameter."""
    type: Literal["basic", "bearer", "header", "query"]
    username_env: EnvName | None = None
    password_env: EnvName | None = None
    key_env: EnvName | None = None
    header: str = Field("X-API-Key", min_length=1)
    param: str = Field("api_key", min_length=1)

    @model_validator(mode="after")
    def _needs(self) -> SourceAuth:
        if self.type == "basic" and not (self.username_env and self.password_env):
            raise PydanticCustomError("auth", "basic auth needs username_env and password_env")
        if self.type != "basic" and not self.key_env:
            raise PydanticCustomError("auth", "{kind} auth needs key_env", {"kind": self.type})
        return self


class Paging(_Section):
    style: PagingStyle | None = Field(None, strict=False)  # None: the source type's own
    page_size: Annotated[int, Field(gt=0, le=1000)] | None = None
    page_param: str | None = None
    size_param: str | None = None
    offset_param: str | None = None
    first_page: Annotated[int, Field(ge=0)] = 1
    total_pages_header: str | None = None  # WordPress: X-WP-TotalPages
    total_pages_path: Path | None = None   # or where the body says how many pages there are
    cursor_path: Path | None = None
    cursor_param: str = Field("cursor", min_length=1)
    next_path: Path | None = None          # where the body gives the next page's URL
    max_pages: Annotated[int, Field(gt=0)] | None = None


class Incremental(_Section):
    """Pull only what changed since the last pull: `field` is the record's modification time (its
    largest value pulled is the high-water mark), `param` the query parameter that takes it."""
    field: Path | None = None
    param: str | None = None


class Selectors(_Section):
    """CSS selectors of a scraped site. Either `item_link` (links to detail pages, whose fields are
    read) or `items` (one element per listing on the list page itself). A field selector ending in
    `@attr` reads that attribute; several matches are joined by newlines."""
    item_link: str | None = None
    items: str | None = None
    next_page: str | None = None
    fields: dict[Annotated[str, Field(min_length=1)], Annotated[str, Field(min_length=1)]] = Field(min_length=1)
    javascript: bool = False  # render the pages in Chromium (Playwright) before reading them
    max_pages: Annotated[int, Field(gt=0)] | None = None

    @model_validator(mode="after")
    def _one_way(self) -> Selectors:
        if bool(self.item_link) == bool(self.items):
            raise PydanticCustomError("selectors", "give item_link (detail pages) or items (listings on the list "
                                      "page), not both or neither")
        return self


class HttpSettings(_Section):
    timeout_s: Annotated[float, Field(gt=0, le=600, strict=False)] = 30.0
    max_attempts: Annotated[int, Field(ge=1, le=10)] = 3
    requests_per_second: Annotated[float, Field(gt=0, strict=False)] | None = None
    concurrency: Annotated[int, Field(ge=1, le=32)] = 8
    delay_s: Annotated[float, Field(ge=0, le=60, strict=False)] | None = None  # per host; scrape: 1 s


# --- which source type takes what -------------------------------------------------------------

def pulled(source_type: SourceType, url: str | None) -> bool:
    """Whether the source is pulled (an API, or a file at a URL) rather than dropped in the inbox:
    only such a source can be pulled on a schedule."""
    return source_type in API_SOURCES or bool(url)


def check_source(source_type: SourceType, settings: dict[str, Any]) -> None:
    """Raises PydanticCustomError naming the first setting the source type refuses or misses."""
    given = {k for k, v in settings.items() if v is not None}
    if source_type in API_SOURCES and "url" not in given:
        _refuse("{source} needs url", source_type)
    rules = (("selectors", source_type == SourceType.SCRAPE), ("incremental", source_type in INCREMENTAL_SOURCES),
             ("paging", source_type in PAGED_SOURCES), ("records_path", source_type in RECORDS_PATH_SOURCES),
             ("auth", "url" in given))
    for key, allowed in rules:
        if key in given and not allowed:
            _refuse(f"{key} does not apply to {{source}}" + (" without url" if key == "auth" else ""), source_type)
    if source_type == SourceType.SCRAPE and "selectors" not in given:
        _refuse("{source} needs selectors", source_type)
    if source_type == SourceType.PARTNER_API:
        _check_partner(settings)


def _check_partner(settings: dict[str, Any]) -> None:
    paging, incremental = settings.get("paging"), settings.get("incremental")
    if paging is not None and paging.style == PagingStyle.CURSOR and not paging.cursor_path:
        _refuse("cursor paging needs paging.cursor_path", SourceType.PARTNER_API)
    if paging is not None and paging.style == PagingStyle.NEXT_URL and not paging.next_path:
        _refuse("next_url paging needs paging.next_path", SourceType.PARTNER_API)
    if incremental is not None and not (incremental.field and incremental.param):
        _refuse("{source} incremental pulls need incremental.field and incremental.param", SourceType.PARTNER_API)


def _refuse(message: str, source_type: SourceType) -> None:
    raise PydanticCustomError("source_settings", message, {"source": f"source_type {source_type.value!r}"})


# --- defaults per source type -------------------------------------------------------------------

_PAGING_DEFAULTS: dict[SourceType, dict[str, Any]] = {
    SourceType.WORDPRESS: {"style": PagingStyle.PAGE, "page_size": 100, "page_param": "page",
                           "size_param": "per_page", "total_pages_header": "X-WP-TotalPages"},
    # JSON:API's next links carry page[offset]; Drupal allows at most 50 per page
    SourceType.DRUPAL: {"style": PagingStyle.OFFSET, "page_size": 50, "offset_param": "page[offset]",
                        "size_param": "page[limit]", "next_path": "links.next.href"},
    SourceType.PARTNER_API: {"style": PagingStyle.PAGE, "page_size": 100, "page_param": "page",
                             "size_param": "per_page"},
}
_INCREMENTAL_DEFAULTS: dict[SourceType, dict[str, Any]] = {
    SourceType.WORDPRESS: {"field": "modified_gmt", "param": "modified_after"},
    SourceType.DRUPAL: {"field": "changed", "param": "changed"},  # a filter on the field, not a parameter
}


def resolved_paging(source_type: SourceType, paging: dict[str, Any] | None) -> Paging:
    """The config's paging over the source type's defaults."""
    given = {k: v for k, v in (paging or {}).items() if v is not None}
    base = dict(_PAGING_DEFAULTS.get(source_type, {"style": PagingStyle.NONE}))
    if given.get("style") not in (None, base["style"]):
        base = {}  # another style than the type's: none of the type's parameter names apply
    return Paging.model_validate({**base, **given}, strict=False)


def resolved_incremental(source_type: SourceType, incremental: dict[str, Any] | None) -> Incremental | None:
    if incremental is None:
        return None
    given = {k: v for k, v in incremental.items() if v is not None}
    return Incremental.model_validate({**_INCREMENTAL_DEFAULTS.get(source_type, {}), **given})
