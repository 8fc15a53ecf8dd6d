"""The canonical fields a DMO's columns map onto ("table.column"), and their staged names."""

CANONICAL_FIELDS: dict[str, str] = {
    "listings.name": "name",
    "listings.category": "category",
    "listings.google_place_id": "google_place_id",
    "locations.address1": "address1",
    "locations.address2": "address2",
    "locations.city": "city",
    "locations.state": "state",
    "locations.zip": "zip",
    "locations.country": "country",
    "locations.lat": "lat",
    "locations.lng": "lng",
    "listing_info.source_id": "explicit_source_id",
    "listing_info.description": "description",
    "contact_info.name": "contact_name",
    "contact_info.email": "email",
    "contact_info.local_phone": "local_phone",
    "contact_info.website_url": "website_url",
    "contact_info.facebook_url": "facebook_url",
    "contact_info.instagram_url": "instagram_url",
    "contact_info.twitter_url": "twitter_url",
    "contact_info.tripadvisor_url": "tripadvisor_url",
    "listing_images.image": "images",
    "opening_hours.hours": "hours",
    "opening_dates.start_date": "start_date",
    "opening_dates.end_date": "end_date",
}

URL_FIELDS = ("website_url", "facebook_url", "instagram_url", "twitter_url", "tripadvisor_url")

# Change hashes: which staged fields each one covers (seed 004 "Public Hashes Generation").
LISTING_FIELDS = ("name", "category", "google_place_id")
LOCATION_FIELDS = ("address1", "address2", "city", "state", "zip", "country", "lat", "lng")
CONTACT_FIELDS = ("contact_name", "email", "local_phone", "international_phone", *URL_FIELDS)
LISTING_INFO_FIELDS = ("description", "start_date", "end_date")
