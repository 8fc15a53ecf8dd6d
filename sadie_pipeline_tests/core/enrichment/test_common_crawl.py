"""The Common Crawl layers' decisions: newest crawl, CDX lines, which captures to fetch, people."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sadie_pipeline.core.enrichment.common_crawl import (
    CC_SOURCE,
    Capture,
    CcPage,
    Scope,
    newest_crawl,
    parse_cdx,
    people_from_pages,
    redirect_target,
    select_captures,
    site_scope,
)
from sadie_pipeline.core.enrichment.confidence import contact_confidence

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def cap(url: str, ts: str = "20260207000000", status: int | None = 200, mime: str = "text/html",
        redirect: str | None = None) -> Capture:
    key = url.split("://", 1)[-1].removeprefix("www.")
    return Capture(urlkey=key, timestamp=ts, url=url, mime=mime, status=status, digest="D", length=10, offset=0,
                   filename="f.warc.gz", redirect=redirect)


def test_newest_crawl_by_id_not_by_position() -> None:
    info = [{"id": "CC-MAIN-2025-51", "cdx-api": "https://i/CC-MAIN-2025-51-index"},
            {"id": "CC-MAIN-2026-08", "cdx-api": "https://i/CC-MAIN-2026-08-index"},
            {"id": "CC-MAIN-2026-13"}]  # no CDX API: not usable
    crawl = newest_crawl(info)
    assert crawl is not None and (crawl.id, crawl.cdx_api) == ("CC-MAIN-2026-08", "https://i/CC-MAIN-2026-08-index")
    assert newest_crawl([]) is None


def test_parse_cdx_lines_skips_broken_ones() -> None:
    row = {"urlkey": "test,x)/contact", "timestamp": "20260207010203", "url": "http://www.x.test/contact",
           "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "ABC", "length": "955",
           "offset": "50530", "filename": "crawl-data/a.warc.gz"}
    redirect = {**row, "status": "301", "redirect": "http://www.y.test/", "mime": "unk", "mime-detected": "text/html"}
    captures = parse_cdx("\n".join([json.dumps(row), "{not json", json.dumps({"urlkey": "k"}), json.dumps(redirect)]))
    assert len(captures) == 2
    assert (captures[0].status, captures[0].length, captures[0].offset) == (200, 955, 50530)
    assert captures[1].redirect == "http://www.y.test/" and captures[1].mime == "text/html"


def test_newest_html_200_per_url_contact_pages_first_at_most_n() -> None:
    captures = [
        cap("http://www.x.test/rooms"), cap("http://www.x.test/"),
        cap("http://www.x.test/contact", "20260206000000"), cap("http://www.x.test/contact", "20260209000000"),
        cap("http://www.x.test/about"), cap("http://www.x.test/our-team"), cap("http://www.x.test/impressum"),
        cap("http://www.x.test/robots.txt", mime="text/plain"), cap("http://www.x.test/specials", status=404),
        cap("http://book.x.test/contact"),  # another host of the domain: a booking engine, not the site
    ]
    chosen = select_captures(captures, site_scope("http://x.test/"), 4)
    assert [c.url for c in chosen] == ["http://www.x.test/contact", "http://www.x.test/impressum",
                                       "http://www.x.test/our-team", "http://www.x.test/about"]
    assert chosen[0].timestamp == "20260209000000"  # the newer of the two contact captures
    everything = select_captures(captures, site_scope("http://x.test/"), 20)
    assert [c.url for c in everything][-2:] == ["http://www.x.test/", "http://www.x.test/rooms"]
    assert not any(c.url.endswith(("robots.txt", "specials")) or "book." in c.url for c in everything)


def test_a_brand_hotel_gets_only_its_own_pages() -> None:
    mine = "http://www.brand.test/hotels/key-west/"
    captures = [cap(mine + "contact"), cap(mine), cap("http://www.brand.test/hotels/miami/contact"),
                cap("http://www.brand.test/careers")]
    chosen = select_captures(captures, site_scope(mine), 5)
    assert [c.url for c in chosen] == [mine + "contact", mine]
    assert site_scope("https://www.brand.test/hotels/key-west/index.html") == Scope("brand.test", "/hotels/key-west/")


def test_a_moved_site_is_followed_to_its_new_host_once() -> None:
    scope = site_scope("http://www.old.test/")
    captures = [cap("http://www.old.test/", status=301, redirect="http://www.new.test/"),
                cap("http://old.test/", "20260101000000", status=301, redirect="http://www.old.test/")]
    assert select_captures(captures, scope, 5) == []
    assert redirect_target(captures, scope) == "http://www.new.test/"
    # a redirect to the www host is not a move
    assert redirect_target([cap("http://old.test/", status=301, redirect="http://www.old.test/")], scope) is None


def test_people_from_pages_are_cc_harvest_people() -> None:
    contact = ("<html><body><h1>Contact us</h1><ul><li><strong>Maria Lopez</strong>, General Manager &ndash; "
               "<a href='mailto:mlopez@x.test'>mlopez@x.test</a> &ndash; (305) 555-0111</li></ul>"
               "<p>Email <a href='mailto:info@x.test'>info@x.test</a></p></body></html>")
    about = ("<html><body><h1>About</h1><p>The property is managed by Coastal Hospitality Group.</p>"
             "<p>Day to day the inn is managed by Orange Blossom Hospitality.</p><p>The property is managed by Keys Lodging Co.</p>"
             "<p>Owned and operated by Harold Crowley since 2001.</p></body></html>")
    people = people_from_pages([CcPage("http://www.x.test/contact", "20260207000000", contact),
                                CcPage("http://www.x.test/about", "20240101000000", about)], "US", NOW)
    by_name = {p["full_name"]: p for p in people}
    # no bare first name ("Coastal"), no company read as a person ("Orange Blossom", "Keys Lodging Co")
    assert set(by_name) == {"Maria Lopez", "Harold Crowley"}
    maria = by_name["Maria Lopez"]
    assert (maria["title"], maria["email"], maria["phone"]) == ("General Manager", "mlopez@x.test", "+13055550111")
    assert maria["sources"] == [CC_SOURCE] and maria["raw_source_url"] == "http://www.x.test/contact"
    assert maria["confidence"] == contact_confidence("cc_harvest") == 0.45
    # captured more than a year before: the seed's stale_data modifier
    assert by_name["Harold Crowley"]["confidence"] == contact_confidence("cc_harvest", stale_data=True)
    assert people_from_pages([], "US", NOW) == []
