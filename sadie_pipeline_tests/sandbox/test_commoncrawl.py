"""The sandbox's Common Crawl: collinfo, the CDX API, and real WARC/1.0 files (one gzip member per
record) whose response records sit exactly at the offsets and lengths the index gives."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zlib

import httpx
import pytest
from warcio.archiveiterator import ArchiveIterator

from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.services.commoncrawl import NEWEST


def _cdx(sb: Sandbox, url: str, **params: str) -> httpx.Response:
    return httpx.get(f"{sb.base_url('commoncrawl')}/index/{NEWEST}-index", params={"url": url, **params}, timeout=30)


def _gzip_members(data: bytes) -> int:
    members = 0
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        d.decompress(data)
        members += 1
        data = d.unused_data
    return members


def test_collinfo_lists_crawls_newest_first_with_their_cdx_api(sb: Sandbox) -> None:
    info = httpx.get(f"{sb.base_url('commoncrawl')}/index/collinfo.json").json()
    assert [c["id"] for c in info] == [NEWEST, "CC-MAIN-2025-51"]
    assert info[0]["cdx-api"] == f"{sb.base_url('commoncrawl')}/index/{NEWEST}-index"


def test_cdx_api_lines_and_not_found(sb: Sandbox) -> None:
    lines = [json.loads(line) for line in _cdx(sb, "biscaynebayinn.test/*", output="json").text.splitlines()]
    assert lines and all(line["urlkey"].startswith("test,biscaynebayinn)/") for line in lines)
    assert set(lines[0]) >= {"urlkey", "timestamp", "url", "mime", "status", "digest", "length", "offset", "filename"}
    assert {line["url"] for line in lines} >= {"http://www.biscaynebayinn.test/contact",
                                               "http://www.biscaynebayinn.test/robots.txt"}
    only_html_200 = _cdx(sb, "*.biscaynebayinn.test", output="json", filter=["=status:200", "mime:html"])
    assert {json.loads(x)["status"] for x in only_html_200.text.splitlines()} == {"200"}
    exact = _cdx(sb, "http://www.biscaynebayinn.test/contact", output="json")
    assert {json.loads(x)["url"] for x in exact.text.splitlines()} == {"http://www.biscaynebayinn.test/contact"}
    cdxj = _cdx(sb, "biscaynebayinn.test/*", limit="1").text.splitlines()  # no output=json: CDXJ
    key, stamp, rest = cdxj[0].split(" ", 2)
    assert (key, stamp) == (lines[0]["urlkey"], lines[0]["timestamp"]) and json.loads(rest)["url"] == lines[0]["url"]
    crawled = {p.domain for p in sb.world.hotels if owner_truth(p).in_common_crawl}
    absent = next(p for p in sb.world.hotels if p.domain and p.domain not in crawled)
    missing = _cdx(sb, f"{absent.domain}/*", output="json")
    assert missing.status_code == 404 and missing.json() == {"message": f"No Captures found for: {absent.domain}/*"}


def test_warc_file_round_trip_offsets_digests_and_pages(sb: Sandbox) -> None:
    in_crawl = [p for p in sb.world.hotels if p.domain and owner_truth(p).in_common_crawl and p.site == "ok"]
    entries = [json.loads(x) for p in in_crawl for x in _cdx(sb, f"{p.domain}/*", output="json").text.splitlines()]
    files = {e["filename"] for e in entries}
    data = {name: httpx.get(f"{sb.base_url('commoncrawl')}/data/{name}", timeout=30).content for name in files}
    records = {}
    for name, blob in data.items():
        it = ArchiveIterator(io.BytesIO(blob))
        kinds = []
        for record in it:
            payload = record.content_stream().read()
            kinds.append(record.rec_type)
            assert record.rec_headers.protocol == "WARC/1.0"
            records[(name, it.get_record_offset())] = (record.rec_type, record.rec_headers, payload, record.http_headers)
            it.read_to_end()
            records[(name, it.get_record_offset())] += (it.get_record_length(),)
        assert kinds[0] == "warcinfo" and kinds.count("request") == kinds.count("response")
        assert _gzip_members(blob) == len(kinds)  # one gzip member per record
    for e in entries:
        rec_type, headers, payload, http, length = records[(e["filename"], int(e["offset"]))]
        assert (rec_type, length) == ("response", int(e["length"]))
        assert headers.get_header("WARC-Target-URI") == e["url"]
        assert http.get_statuscode() == e["status"]
        digest = base64.b32encode(hashlib.sha1(payload).digest()).decode()
        assert digest == e["digest"] and headers.get_header("WARC-Payload-Digest") == f"sha1:{digest}"
    # the newest contact capture names the hotel's crawled people; an earlier one may name a former manager
    for p in in_crawl:
        contact = sorted((e for e in entries if e["url"] == f"{p.serving_url}contact"), key=lambda e: e["timestamp"])
        newest = records[(contact[-1]["filename"], int(contact[-1]["offset"]))][2].decode()
        assert all(person.name in newest for person in owner_truth(p).cc_people)
        for older in contact[:-1]:
            text = records[(older["filename"], int(older["offset"]))][2].decode()
            assert not any(name in text for name in owner_truth(p).true_people())


def test_range_requests_answer_exactly_the_slice(sb: Sandbox) -> None:
    entry = json.loads(_cdx(sb, "http://www.biscaynebayinn.test/contact", output="json").text.splitlines()[-1])
    url = f"{sb.base_url('commoncrawl')}/data/{entry['filename']}"
    whole = httpx.get(url).content
    start, length = int(entry["offset"]), int(entry["length"])
    part = httpx.get(url, headers={"Range": f"bytes={start}-{start + length - 1}"})
    assert part.status_code == 206 and part.content == whole[start:start + length]
    assert part.headers["Content-Range"] == f"bytes {start}-{start + length - 1}/{len(whole)}"
    assert httpx.get(url, headers={"Range": f"bytes={len(whole)}-"}).status_code == 416
    assert httpx.get(f"{sb.base_url('commoncrawl')}/data/crawl-data/nope.warc.gz").status_code == 404


@pytest.mark.parametrize("domain", ["hilton.test", "marriott.test"])
def test_brand_domains_hold_only_crawled_hotels(sb: Sandbox, domain: str) -> None:
    lines = _cdx(sb, f"{domain}/*", output="json")
    crawled = [p for p in sb.world.hotels if p.domain == domain and owner_truth(p).in_common_crawl]
    if not crawled:
        assert lines.status_code == 404
        return
    urls = {json.loads(x)["url"] for x in lines.text.splitlines()}
    assert {f"{p.serving_url}contact" for p in crawled} <= urls
    others = [p for p in sb.world.hotels if p.domain == domain and not owner_truth(p).in_common_crawl]
    assert not any(u.startswith(p.serving_url) for p in others for u in urls)
