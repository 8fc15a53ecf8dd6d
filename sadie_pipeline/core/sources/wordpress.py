"""WordPress REST API posts (/wp-json/wp/v2/{type}?_embed) as pulled records.

A post's rendered fields ({"rendered": "<p>...</p>"}) become their text; `_embed` gives the
featured image (`featured_media.url`, `featured_media.alt`), the terms of each taxonomy
(`terms.{taxonomy}`, names on lines) and the author (`author.name`); ACF (`acf.*`) and
registered meta (`meta.*`) fields keep their paths. `_links` is hypermedia, not data."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sadie_pipeline.core.sources.records import (
    Item,
    Problem,
    ProblemKind,
    Pulled,
    Record,
    flatten,
    get_path,
    html_text,
    text_of,
)

_HYPERMEDIA = ("_links", "_embedded")


def shape_page(body: Any, modified_field: str | None, where: str) -> Iterator[Item]:
    """The posts of one page; a page that is not a list of posts is one problem."""
    if not isinstance(body, list):
        yield Problem(ProblemKind.SCHEMA, f"{where}: expected a JSON array of posts, got {type(body).__name__}",
                      where, body if isinstance(body, Mapping) else None)
        return
    for post in body:
        yield shape_post(post, modified_field, where)


def shape_post(post: Any, modified_field: str | None, where: str = "") -> Item:
    if not isinstance(post, Mapping) or "id" not in post:
        return Problem(ProblemKind.SCHEMA, f"{where}: a post without an id", where, post)
    body = {key: _rendered(value) for key, value in post.items() if key not in _HYPERMEDIA}
    record = flatten(body)
    record.update(_embedded(post.get("_embedded")))
    modified = get_path(post, modified_field) if modified_field else None
    return Pulled(record, text_of(post["id"]), text_of(modified) if modified is not None else None)


def _rendered(value: Any) -> Any:
    # {"rendered": html, "protected": false} is WordPress's rich text: its text is the value
    if type(value) is dict and type(value.get("rendered")) is str:
        return html_text(value["rendered"])
    return value


def _embedded(embedded: Any) -> Record:
    if not isinstance(embedded, Mapping):
        return {}
    out: Record = {}
    media = [m for m in embedded.get("wp:featuredmedia") or [] if isinstance(m, Mapping) and m.get("source_url")]
    if media:
        out["featured_media.url"] = text_of(media[0]["source_url"])
        out["featured_media.alt"] = text_of(media[0].get("alt_text"))
    terms: dict[str, list[str]] = {}
    for group in embedded.get("wp:term") or []:
        for term in group if isinstance(group, list) else []:
            if isinstance(term, Mapping) and term.get("taxonomy") and term.get("name"):
                terms.setdefault(f"terms.{term['taxonomy']}", []).append(html_text(text_of(term["name"])))
    out.update({key: "\n".join(names) for key, names in terms.items()})
    authors = [a for a in embedded.get("author") or [] if isinstance(a, Mapping) and a.get("name")]
    if authors:
        out["author.name"] = text_of(authors[0]["name"])
    return out


def wp_date(mark: str) -> str:
    """A high-water mark (modified_gmt: ISO 8601 without zone) as modified_after takes it: in UTC."""
    return mark if mark.endswith("Z") or "+" in mark[10:] else f"{mark}Z"
