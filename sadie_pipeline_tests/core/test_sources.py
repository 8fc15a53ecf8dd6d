"""Source settings and the shaping of pulled records (core/sources): pure functions, no I/O."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.config import ConfigError, merge_config
from sadie_pipeline.core.sources import drupal, geojson, wordpress
from sadie_pipeline.core.sources.config import PagingStyle, SourceType, resolved_incremental, resolved_paging
from sadie_pipeline.core.sources.documents import document_items, jsonl_items
from sadie_pipeline.core.sources.paging import announced_pages, later, next_link, offset_of, page_params
from sadie_pipeline.core.sources.records import Problem, ProblemKind, Pulled, flatten, get_path, html_text
from sadie_pipeline.core.sources.scrape import fields_of, links, parse, split_selector

WP_URL = "https://visit.example/wp-json/wp/v2/listing"


def _import(**section):
    return merge_config({"import": section})["import"]


def test_each_source_type_takes_its_own_settings():
    wp = _import(source_type="wordpress", url=WP_URL, incremental={},
                 auth={"type": "basic", "username_env": "WP_USER", "password_env": "WP_APP_PASSWORD"})
    assert wp["source_type"] == SourceType.WORDPRESS and wp["auth"]["password_env"] == "WP_APP_PASSWORD"
    cases = [
        ({"source_type": "wordpress"}, "needs url"),
        ({"source_type": "scrape", "url": "http://x.test/"}, "needs selectors"),
        ({"source_type": "csv", "selectors": {"items": "li", "fields": {"name": "h2"}}}, "does not apply"),
        ({"source_type": "scrape", "url": "http://x.test/", "incremental": {}}, "incremental does not apply"),
        ({"source_type": "json", "auth": {"type": "bearer", "key_env": "K"}}, "auth does not apply"),
        ({"source_type": "partner_api", "url": "http://p.test/", "incremental": {"field": "updated_at"}},
         "incremental.field and incremental.param"),
        ({"source_type": "partner_api", "url": "http://p.test/", "paging": {"style": "cursor"}}, "cursor_path"),
        ({"source_type": "wordpress", "url": "ftp://x/"}, "http:// or https://"),
        ({"source_type": "partner_api", "url": "http://p.test/", "auth": {"type": "header", "key_env": "sk-123 abc"}},
         "name of an environment variable"),
        ({"source_type": "wordpres", "url": WP_URL}, "Input should be"),
        ({"source_type": "scrape", "url": "http://x.test/", "selectors": {"fields": {"name": "h1"}}}, "item_link"),
        ({"source_type": "wordpress", "url": WP_URL, "paging": {"page_size": 100, "pagesize": 5}}, "unknown key"),
    ]
    for section, reason in cases:
        with pytest.raises(ConfigError, match=reason):
            _import(**section)


def test_defaults_per_source_type():
    wp = resolved_paging(SourceType.WORDPRESS, None)
    assert (wp.style, wp.page_size, wp.size_param, wp.total_pages_header) == (PagingStyle.PAGE, 100, "per_page",
                                                                                 "X-WP-TotalPages")
    dr = resolved_paging(SourceType.DRUPAL, {"page_size": 20})
    assert (dr.style, dr.page_size, dr.offset_param, dr.next_path) == (PagingStyle.OFFSET, 20, "page[offset]",
                                                                         "links.next.href")
    cursor = resolved_paging(SourceType.PARTNER_API, {"style": "cursor", "cursor_path": "meta.next"})
    assert cursor.page_param is None and cursor.cursor_path == "meta.next"  # another style: no page parameter
    assert resolved_incremental(SourceType.WORDPRESS, {}).param == "modified_after"
    assert resolved_incremental(SourceType.DRUPAL, None) is None
    assert page_params(wp, 2) == {"page": "3", "per_page": "100"}
    assert page_params(dr, 2) == {"page[offset]": "40", "page[limit]": "20"}


def test_flatten_paths_and_html_text():
    record = flatten({"acf": {"city": "Souris", "lat": 46.35}, "tags": ["a", "b"], "gallery": [{"url": "u1"}],
                      "open": True, "none": None, "n": 3})
    assert record == {"acf.city": "Souris", "acf.lat": "46.35", "tags": "a\nb", "gallery.0.url": "u1",
                      "open": "true", "none": "", "n": "3"}
    assert get_path({"data": {"items": [{"id": 7}]}}, "data.items.0.id") == 7
    assert get_path({"a": 1}, "a.b") is None
    assert html_text("<p>Caf&eacute; <b>Bleu</b></p>\n<p>Open daily</p>") == "Café Bleu\nOpen daily"


def test_wordpress_post_with_embedded_media_terms_and_acf():
    post = {"id": 12, "modified_gmt": "2026-01-05T09:12:00", "title": {"rendered": "Anne&#8217;s Inn"},
            "content": {"rendered": "<p>By the sea.</p>", "protected": False}, "acf": {"city": "Cavendish"},
            "meta": {"phone": "902"}, "_links": {"self": [{"href": "x"}]},
            "_embedded": {"wp:featuredmedia": [{"source_url": "http://i/1.jpg", "alt_text": "Inn"}],
                          "wp:term": [[{"name": "Lodging", "taxonomy": "listing_category"},
                                       {"name": "B&amp;B", "taxonomy": "listing_category"}], []]}}
    item = wordpress.shape_post(post, "modified_gmt")
    assert isinstance(item, Pulled) and item.source_id == "12" and item.modified == "2026-01-05T09:12:00"
    r = item.record
    assert (r["title"], r["content"], r["acf.city"], r["meta.phone"]) == ("Anne’s Inn", "By the sea.", "Cavendish", "902")
    assert r["featured_media.url"] == "http://i/1.jpg" and r["terms.listing_category"] == "Lodging\nB&B"
    assert not any(k.startswith("_links") for k in r)
    [problem] = wordpress.shape_page({"code": "rest_no_route"}, None, "page 1")
    assert problem.kind == ProblemKind.SCHEMA
    assert wordpress.wp_date("2026-01-05T09:12:00") == "2026-01-05T09:12:00Z"


def test_drupal_relationships_resolve_through_included():
    doc = {"data": [{"type": "node--listing", "id": "n1",
                     "attributes": {"title": "Museum", "changed": "2026-01-05T09:00:00+00:00",
                                    "body": {"value": "<p>x</p>", "processed": "<p>Old &amp; new</p>"}},
                     "relationships": {"field_image": {"data": {"type": "file--file", "id": "f1"}},
                                       "field_tags": {"data": [{"type": "taxonomy_term--tags", "id": "t1"},
                                                               {"type": "taxonomy_term--tags", "id": "t2"}]},
                                       "uid": {"data": {"type": "user--user", "id": "u1"}}}}],
           "included": [{"type": "file--file", "id": "f1", "attributes": {"uri": {"url": "/sites/default/files/m.jpg"}}},
                        {"type": "taxonomy_term--tags", "id": "t1", "attributes": {"name": "History"}},
                        {"type": "taxonomy_term--tags", "id": "t2", "attributes": {"name": "Museum"}}]}
    [item] = drupal.shape_document(doc, "https://pei.example/", "changed", "page 1")
    r = item.record
    assert item.source_id == "n1" and item.modified == "2026-01-05T09:00:00+00:00"
    assert r["body"] == "Old & new" and r["field_tags.name"] == "History\nMuseum"
    assert r["field_image.uri.url"] == "https://pei.example/sites/default/files/m.jpg"
    assert r["uid.id"] == "u1"  # not included: its id only
    assert drupal.changed_filter("2026-01-05T09:00:00+00:00", "changed")[
        "filter[changed][condition][value]"] == "1767603600"


def test_geojson_coordinates_from_the_geometry_and_features_without():
    doc = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": "node/1", "geometry": {"type": "Point", "coordinates": [-63.1, 46.2]},
         "properties": {"name": "Inn", "addr:city": "Souris"}},
        {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-63, 46], [-62, 46], [-62, 47], [-63, 46]]]},
         "properties": {"@id": "way/2", "name": "Fort"}},
        {"type": "Feature", "geometry": None, "properties": {"name": "Nowhere"}},
        "junk"]}
    items = list(geojson.shape_collection(doc, None, "x.geojson"))
    assert items[0].record["geometry.lat"] == "46.2" and items[0].record["properties.addr:city"] == "Souris"
    assert items[1].source_id == "way/2" and items[1].record["geometry.lng"] == "-62.5"
    assert items[2].kind == ProblemKind.MISSING_GEOMETRY and "#3 has no geometry" in items[2].message
    assert items[3].kind == ProblemKind.BAD_RECORD


def test_json_and_jsonl_documents():
    items = list(document_items(b'{"data": {"items": [{"id": 5, "name": "A"}, 3]}}', "data.items", "f.json"))
    assert items[0].source_id == "5" and items[0].record == {"id": "5", "name": "A"}
    assert isinstance(items[1], Problem)
    [missing] = document_items(b'{"data": {}}', "data.items", "f.json")
    assert missing.kind == ProblemKind.SCHEMA and "data.items" in missing.message
    lines = list(jsonl_items([b'{"name": "A"}\n', b"\n", b"{oops\n", b'{"name": "B"}\n'], "f.jsonl"))
    assert [type(i).__name__ for i in lines] == ["Pulled", "Problem", "Pulled"]
    assert "line 3" in lines[1].message


def test_paging_helpers():
    paging = resolved_paging(SourceType.DRUPAL, None)
    body = {"links": {"next": {"href": "https://d/jsonapi/node/x?page%5Boffset%5D=50&page%5Blimit%5D=50"}}}
    link = next_link(paging, {}, body)
    assert offset_of(link, "page[offset]") == 50
    wp = resolved_paging(SourceType.WORDPRESS, None)
    assert announced_pages(wp, {"X-WP-TotalPages": "200"}, []) == 200
    header = {"link": '<https://p/v1?page=2>; rel="next", <https://p/v1?page=9>; rel="last"'}
    assert next_link(resolved_paging(SourceType.PARTNER_API, {"style": "next_url", "next_path": "x"}), header, {}) \
        == "https://p/v1?page=2"
    assert later("2026-01-05T09:00:00", "2026-01-05T10:00:00+00:00") == "2026-01-05T10:00:00+00:00"
    assert later(None, "1767603600") == "1767603600"


def test_scrape_selectors():
    page = parse('<ul><li class="l"><a href="/a/1/#top">One</a></li><li class="l"><a href="/a/1/">dup</a></li>'
                 '<li class="l"><a href="mailto:x@y">m</a></li></ul><a rel="next" href="?page=2">Next</a>'
                 '<h1> The   Inn </h1><img class="p" src="/i/1.jpg"><img class="p" src="/i/2.jpg">')
    assert links(page, "li.l", "http://s.test/list/") == ["http://s.test/a/1/"]
    assert links(page, "a[rel=next]", "http://s.test/list/") == ["http://s.test/list/?page=2"]
    assert split_selector("img.p@src") == ("img.p", "src") and split_selector("a[href$='@x']") == ("a[href$='@x']", None)
    assert fields_of(page, {"name": "h1", "images": "img.p@src", "none": ".missing"}, "http://s.test/x/") == {
        "name": "The Inn", "images": "http://s.test/i/1.jpg\nhttp://s.test/i/2.jpg", "none": ""}
