"""Two DMOs' listings and stored images for the scoped API's tests (test_api_scoped.py over HTTP,
test_browser_api_key.py in Chromium): one setup, so both read the same world."""

from __future__ import annotations

import asyncio

from sadie_pipeline.listings import curation
from sadie_pipeline.listings.image_fetcher import ImageFetcher
from sadie_pipeline.listings.images import ImageSettings, process_dmo_images
from sadie_pipeline.listings.repository import get_dmo
from sadie_pipeline.web.users import add_api_key
from sadie_pipeline_tests.web.data import add_dmo, add_listing

EDITOR = curation.Editor("test")


def _record(conn, listing_id: int, dmo_id: int, visible: bool = True, status: str = "active") -> int:
    return conn.execute("INSERT INTO public.listing_info (listing_id, dmo_id, description, info_visible, info_status) "
                        "VALUES (%s, %s, 'Their words.', %s, %s) RETURNING id",
                        (listing_id, dmo_id, visible, status)).fetchone()[0]


def _images(conn, info_id: int, urls: list[str]) -> None:
    for rank, url in enumerate(urls, 1):
        conn.execute("INSERT INTO public.listing_images (listing_info_id, image, rank) VALUES (%s, %s, %s)",
                     (info_id, url, rank))


def build_world(database, local_object_store, sb) -> dict:
    """Two DMOs sharing listings; alpha's images of the shared one downloaded and decided for real;
    an API key of each DMO and one of every DMO (ids["keys"])."""
    with database.connect() as conn:
        alpha, beta = add_dmo(conn, "alpha"), add_dmo(conn, "beta")
        ids = {}
        ids["shared"], shared_alpha = add_listing(conn, alpha, "Shared Inn")
        shared_beta = _record(conn, ids["shared"], beta)
        ids["alpha_only"] = add_listing(conn, alpha, "Alpha Grill")[0]
        ids["beta_only"] = add_listing(conn, beta, "Beta Cafe")[0]
        ids["hidden_for_alpha"], pub_alpha = add_listing(conn, alpha, "Quiet Pub")
        _record(conn, ids["hidden_for_alpha"], beta)
        ids["archived"] = add_listing(conn, alpha, "Old Museum")[0]
        _record(conn, ids["archived"], beta)
        ids["deleted_for_alpha"], lodge_alpha = add_listing(conn, alpha, "Dune Lodge")
        _record(conn, ids["deleted_for_alpha"], beta)
        base = sb.base_url("images")
        _images(conn, shared_alpha, [f"{base}/photo/1.jpg", f"{base}/near/1/2.jpg", f"{base}/broken/text.jpg"])
        _images(conn, shared_beta, [f"{base}/photo/3.jpg"])
    for slug in ("alpha", "beta"):
        with database.connect() as conn:
            dmo = get_dmo(conn, slug)
        asyncio.run(process_dmo_images(database, local_object_store, ImageFetcher(backoff_base_s=0.01), dmo,
                                       ImageSettings(cpu_workers=1, io_workers=2)))
    with database.connect() as conn:
        curation.set_visibility(conn, ids["hidden_for_alpha"], False, EDITOR, pub_alpha)
        conn.execute("UPDATE public.listing_info SET info_visible = false, info_status = 'missing_from_import' "
                     "WHERE id = %s", (lodge_alpha,))  # a soft delete, as promotion writes it
        assert curation.archive(conn, ids["archived"], EDITOR, "closed for good")
        ids["keys"] = {"alpha": add_api_key(conn, "alpha-app", dmo="alpha"),
                       "beta": add_api_key(conn, "beta-app", dmo="beta"), "all": add_api_key(conn, "our-app")}
    return ids
