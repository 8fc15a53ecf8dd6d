"""listing_images on PostgreSQL and moto's S3 against the sandbox's image host: new URLs are
downloaded, checked, stored with variants and hashed, near duplicates dropped; an image that is
text or 50 MB fails with its reason and the rest goes on; failed images alone are tried again."""

from __future__ import annotations

import re

import boto3
import pytest
from dagster import materialize

from sadie_pipeline.core.images import image_stem
from sadie_pipeline.listings.enrichment_assets import listing_images
from sadie_pipeline.listings.image_fetcher import ImageFetcher
from sadie_pipeline_tests.listings.helpers import import_file, metadata, register
from sadie_pipeline_tests.listings.test_geocodes import CONFIG, write

pytestmark = pytest.mark.slow  # imports through Dagster against PostgreSQL

SLUG = "img-dmo"


def records(base: str, extra: tuple[str, ...] = ()) -> list[dict[str, str]]:
    def urls(*paths: str) -> str:
        return "|".join(f"{base}/{p}" for p in paths)

    return [
        {"Name": "Harbour Grill", "Address": "12 Water St", "City": "Charlottetown",
         "Images": urls("photo/1.jpg", "near/1/2.jpg", "photo/2.png", *extra)},
        {"Name": "Blue Heron Inn", "Address": "4 Main St", "City": "Souris",
         "Images": urls("photo/3.jpg", "broken/text.jpg", "broken/huge.jpg")},
        {"Name": "Olde Dublin Pub", "Address": "131 Sydney St", "City": "Charlottetown",
         "Images": urls("broken/truncated/4.jpg", "photo/4.jpg", "broken/huge-chunked.jpg", "broken/tiny.png")},
    ]


def run(database, store, instance, slug=SLUG, **config):
    result = materialize([listing_images], partition_key=slug, instance=instance,
                         resources={"database": database, "object_store": store,
                                    "image_fetcher": ImageFetcher(backoff_base_s=0.01)},
                         run_config={"ops": {"listing_images": {"config": config}}} if config else None)
    assert result.success
    return metadata(result, "listing_images")


def states(database, slug=SLUG) -> dict[str, tuple]:
    """Each image's outcome by its URL's path: status, reason, dimensions, hash, stored URL, twin's path."""
    with database.connect() as conn:
        rows = conn.execute("""
            SELECT im.image, im.image_status, im.status_reason, im.width, im.height, im.phash, im.canonical_url,
                   im.variants, twin.image
              FROM public.listing_images im
              JOIN public.listing_info li ON li.id = im.listing_info_id
              JOIN public.dmos d ON d.id = li.dmo_id AND d.slug = %s
              LEFT JOIN public.listing_images twin ON twin.id = im.duplicate_of""", (slug,)).fetchall()
    return {path(r[0]): (*r[1:-1], r[-1] and path(r[-1])) for r in rows}


def path(url: str) -> str:
    return url.split("/images/", 1)[1]


@pytest.fixture
def imported(database, s3_object_store, instance, sb, tmp_path):
    register(database, instance, SLUG, CONFIG)
    csv_path = write(tmp_path / "a.csv", records(sb.base_url("images")))
    result, summary = import_file(database, s3_object_store, instance, SLUG, csv_path)
    assert result.success and summary["inserted"] == 3
    return tmp_path


def test_images_are_stored_checked_hashed_and_deduplicated(database, s3_object_store, s3_server, instance, sb,
                                                            imported):
    meta = run(database, s3_object_store, instance)

    got = states(database)
    assert {p: s[0] for p, s in got.items()} == {
        "photo/1.jpg": "ok", "near/1/2.jpg": "duplicate", "photo/2.png": "ok", "photo/3.jpg": "ok",
        "broken/text.jpg": "failed", "broken/huge.jpg": "failed", "broken/truncated/4.jpg": "failed",
        "photo/4.jpg": "ok", "broken/huge-chunked.jpg": "failed", "broken/tiny.png": "failed"}
    assert got["near/1/2.jpg"][7] == "photo/1.jpg" and "near duplicate" in got["near/1/2.jpg"][1]
    reasons = {p: s[1] for p, s in got.items() if s[0] == "failed"}
    assert reasons["broken/text.jpg"].startswith("not_an_image: content type text/html")
    assert reasons["broken/huge.jpg"].startswith("too_large: 52428800 bytes declared")
    assert reasons["broken/huge-chunked.jpg"].startswith("too_large") and "streamed" in reasons["broken/huge-chunked.jpg"]
    assert reasons["broken/truncated/4.jpg"].startswith("truncated")
    assert reasons["broken/tiny.png"].startswith("too_small: 16x16")
    width, height, phash, canonical, variants = got["photo/1.jpg"][2:7]
    assert width > 500 and height > 300 and len(phash) == 16
    assert canonical.startswith(f"s3://{s3_object_store.bucket}/images/{SLUG}/") and canonical.endswith(".jpg")
    assert set(variants) == {"medium", "thumb"}
    # downloaded: the five fetched and stored (a near duplicate too); the five refused are failures
    assert (meta["images_ok"], meta["images_duplicate"], meta["errors"], meta["downloaded"]) == (4, 1, 5, 5)
    assert meta["download_failures"] == 5
    assert meta["errors_by_type"] == {"not_an_image": 1, "too_large": 2, "truncated": 1, "too_small": 1}
    assert meta["preview"].records and f"s3://{s3_object_store.bucket}/images/" in meta["stored"]

    client = boto3.client("s3", endpoint_url=s3_server, region_name="us-east-1")
    keys = {o["Key"] for o in client.list_objects_v2(Bucket=s3_object_store.bucket, Prefix="images/")["Contents"]}
    listing = canonical.split("/")[-2]
    stem = image_stem(f"{sb.base_url('images')}/photo/1.jpg")
    assert {f"images/{SLUG}/{listing}/{stem}{suffix}" for suffix in (".jpg", "-medium.jpg", "-thumb.jpg")} <= keys


def test_only_failed_images_are_tried_again_and_not_forever(database, s3_object_store, instance, sb, imported):
    run(database, s3_object_store, instance)
    for attempt in (2, 3):
        sb.reset_stats()
        meta = run(database, s3_object_store, instance)
        assert sb.stats("images")["requests"] == 5 and meta["download_failures"] == 5, attempt
        assert meta["downloaded"] == 0
        assert meta["images_ok"] == 2 and meta["errors"] == 5  # the failed ones' listings decided again
    sb.reset_stats()
    meta = run(database, s3_object_store, instance)  # three tries spent
    assert sb.stats("images")["requests"] == 0 and meta["given_up"] == 5 and meta["listings"] == 0


def test_a_5xx_then_200_is_retried_within_the_run(database, s3_object_store, instance, sb, imported):
    sb.configure("images", fail_next=2)
    meta = run(database, s3_object_store, instance)
    assert meta["images_ok"] == 4 and meta["hosts"]["retries"] >= 2


def test_a_changed_set_downloads_only_its_new_url(database, s3_object_store, instance, sb, imported):
    run(database, s3_object_store, instance)
    csv_path = write(imported / "b.csv", records(sb.base_url("images"), extra=("photo/9.jpg",)))
    _, summary = import_file(database, s3_object_store, instance, SLUG, csv_path)
    assert summary["updated"] == 1
    assert states(database)["photo/1.jpg"][0] is None  # the promotion replaced the listing's image rows
    sb.reset_stats()

    meta = run(database, s3_object_store, instance)

    requested = {path(r["path"]) for r in sb.requests("images")}
    assert requested == {"photo/9.jpg"} | {p for p, s in states(database).items() if s[0] == "failed"}
    assert states(database)["photo/9.jpg"][0] == "ok" and states(database)["near/1/2.jpg"][0] == "duplicate"
    assert meta["reused"] >= 3


def test_a_run_stopped_halfway_ends_where_a_clean_run_ends(database, s3_object_store, instance, sb, imported):
    register(database, instance, "img-twin", CONFIG)
    csv_path = write(imported / "c.csv", records(sb.base_url("images")))
    import_file(database, s3_object_store, instance, "img-twin", csv_path)
    run(database, s3_object_store, instance)  # clean

    partial = run(database, s3_object_store, instance, slug="img-twin", max_images=4)
    assert partial["left_for_next_run"] >= 1
    run(database, s3_object_store, instance, slug="img-twin")

    def outcome(slug):
        return {p: (s[0], s[1] and re.split("[: ]", s[1])[0], s[2], s[3], s[4], s[7])
                for p, s in states(database, slug).items()}

    assert outcome("img-twin") == outcome(SLUG)
