"""DMO configs for each pulled source type on the sandbox, and driving a pull through the assets."""

from __future__ import annotations

from typing import Any

from dagster import DagsterInstance, ExecuteInProcessResult, materialize

from sadie_pipeline.listings.assets import listing_assets
from sadie_pipeline.listings.promote import job_summary
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.sandbox import Sandbox

WORDPRESS_FIELDS = {
    "listings.name": "title", "listings.category": "terms.listing_category",
    "locations.address1": "acf.street_address", "locations.city": "acf.city", "locations.state": "acf.province",
    "locations.zip": "acf.postal_code", "locations.lat": "acf.latitude", "locations.lng": "acf.longitude",
    "contact_info.email": "acf.email", "contact_info.local_phone": "meta.phone",
    "contact_info.website_url": "meta.website", "listing_info.description": "content",
    "listing_images.image": "featured_media.url"}
DRUPAL_FIELDS = {
    "listings.name": "title", "listings.category": "field_category.name",
    "locations.address1": "field_address.field_address.address_line1",
    "locations.city": "field_address.field_address.locality",
    "locations.state": "field_address.field_address.administrative_area",
    "locations.zip": "field_address.field_address.postal_code", "locations.lat": "field_geo.lat",
    "locations.lng": "field_geo.lon", "contact_info.local_phone": "field_phone", "contact_info.email": "field_email",
    "contact_info.website_url": "field_website.uri", "listing_info.description": "body",
    "listing_images.image": "field_image.uri.url"}
PARTNER_FIELDS = {
    "listings.name": "name", "listings.category": "type", "locations.address1": "address.line1",
    "locations.city": "address.city", "locations.state": "address.region", "locations.zip": "address.postal_code",
    "locations.lat": "geo.lat", "locations.lng": "geo.lng", "contact_info.local_phone": "contact.phone",
    "contact_info.email": "contact.email", "contact_info.website_url": "contact.url",
    "listing_info.description": "description", "listing_images.image": "photos.0.url"}
OSM_FIELDS = {
    "listings.name": "properties.name", "locations.address1": "properties.addr:street",
    "locations.city": "properties.addr:city", "locations.zip": "properties.addr:postcode",
    "locations.lat": "geometry.lat", "locations.lng": "geometry.lng", "contact_info.local_phone": "properties.phone",
    "contact_info.website_url": "properties.website"}
SCRAPE_FIELDS = {"name": "h1.name", "category": ".category", "street": ".street", "city": ".city",
                 "postal": ".postal", "phone": "a.phone", "website": "a.website@href", "description": ".description",
                 "images": "img.photo@src", "lat": ".map@data-lat", "lng": ".map@data-lng"}
SCRAPE_MAP = {"listings.name": "name", "listings.category": "category", "locations.address1": "street",
              "locations.city": "city", "locations.zip": "postal", "locations.lat": "lat", "locations.lng": "lng",
              "contact_info.local_phone": "phone", "contact_info.website_url": "website",
              "listing_info.description": "description", "listing_images.image": "images"}
FAST_HTTP = {"timeout_s": 2, "max_attempts": 2}


def wordpress_config(sb: Sandbox, site: str = "demo", **section: Any) -> dict[str, Any]:
    url = f"{sb.base_url('wordpress')}/{site}/wp-json/wp/v2/listing"
    return {"import": {"source_type": "wordpress", "url": url, "incremental": {}, "http": FAST_HTTP, **section},
            "transform": {"map_fields": WORDPRESS_FIELDS}}


def drupal_config(sb: Sandbox, site: str = "demo", **section: Any) -> dict[str, Any]:
    url = f"{sb.base_url('drupal')}/{site}/jsonapi/node/listing?include=field_image,field_category,field_address"
    return {"import": {"source_type": "drupal", "url": url, "incremental": {}, "http": FAST_HTTP, **section},
            "transform": {"map_fields": DRUPAL_FIELDS}}


def partner_config(sb: Sandbox, site: str = "demo", **section: Any) -> dict[str, Any]:
    return {"import": {"source_type": "partner_api", "url": f"{sb.base_url('partner')}/{site}/v1/properties",
                       "auth": {"type": "header", "header": "X-API-Key", "key_env": "PARTNER_API_KEY"},
                       "records_path": "data.properties",
                       "paging": {"page_size": 5, "total_pages_path": "meta.total_pages"},
                       "incremental": {"field": "updated_at", "param": "updated_since"},
                       "http": {**FAST_HTTP, "requests_per_second": 50}, **section},
            "transform": {"map_fields": PARTNER_FIELDS}}


def poi_config(sb: Sandbox, site: str = "demo") -> dict[str, Any]:
    return {"import": {"source_type": "poi", "url": f"{sb.base_url('geojson')}/{site}.geojson"},
            "transform": {"map_fields": OSM_FIELDS}}


def scrape_config(host: str = "www.explore-static.test", javascript: bool = False) -> dict[str, Any]:
    return {"import": {"source_type": "scrape", "url": f"http://{host}/listings/",
                       "selectors": {"item_link": "li.listing a.more", "next_page": "a[rel=next]",
                                     "fields": SCRAPE_FIELDS, "javascript": javascript},
                       "http": {**FAST_HTTP, "delay_s": 0.01}},
            "transform": {"map_fields": SCRAPE_MAP}}


def run_pull(database: Database, store: ObjectStore, instance: DagsterInstance, slug: str, *,
             assets=None, full: bool = False, raise_on_error: bool = True) -> ExecuteInProcessResult:
    """The DMO's import job with no inbox key: listing_raw_files pulls the configured source."""
    config = {"ops": {"listing_raw_files": {"config": {"full_pull": full}}}}
    return materialize(assets or listing_assets, partition_key=slug, instance=instance, run_config=config,
                       resources={"database": database, "object_store": store}, raise_on_error=raise_on_error)


def newest_job(database: Database, slug: str) -> dict[str, Any]:
    with database.connect() as conn:
        job_id = conn.execute("SELECT max(j.id) FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id "
                              "WHERE d.slug = %s", (slug,)).fetchone()[0]
        summary = job_summary(conn, job_id)
    return {**summary, "job_id": job_id}


def import_errors(database: Database, job_id: int) -> list[tuple[str, str, str]]:
    with database.connect() as conn:
        return conn.execute("SELECT error_type, record_id, error_message FROM pipeline.job_errors "
                            "WHERE job_id = %s AND stage = 'import' ORDER BY id", (job_id,)).fetchall()


def pull_row(database: Database, job_id: int) -> dict[str, Any]:
    from sadie_pipeline.listings.sources.pull import pull_summary

    with database.connect() as conn:
        return pull_summary(conn, job_id)


def live(database: Database, slug: str) -> int:
    with database.connect() as conn:
        return conn.execute("SELECT count(*) FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id "
                            "WHERE d.slug = %s AND li.info_visible", (slug,)).fetchone()[0]
