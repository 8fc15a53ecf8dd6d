"""The JSON API's typed shapes (they are its OpenAPI schema at /docs). What the API serves keeps to
the field rules (core/listing_fields.py): an e-mail, phone or URL they refuse is served as null."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Hours(BaseModel):
    day: str | None = None
    open: str | None = None
    close: str | None = None
    from_: str | None = Field(None, alias="from")
    to: str | None = None

    model_config = {"populate_by_name": True, "serialize_by_alias": True}


class Contact(BaseModel):
    """Only values the field rules accept: http(s) URLs, e-mail addresses, phone numbers (else null)."""
    name: str | None = None
    email: str | None = None
    local_phone: str | None = None
    international_phone: str | None = None
    website_url: str | None = None
    facebook_url: str | None = None
    instagram_url: str | None = None
    twitter_url: str | None = None
    tripadvisor_url: str | None = None


class ImageVariant(BaseModel):
    name: str = Field(description="e.g. medium (768 px at most), thumb (200 px at most)")
    url: str = Field(description="GET with the API key (header X-API-Key)")
    width: int | None = None
    height: int | None = None


class Image(BaseModel):
    """A stored copy of one of the record's images (never one whose download failed, nor a near
    duplicate of another): the original and its resized JPEG variants, served by this API."""
    id: int
    url: str = Field(description="the original, GET with the API key (header X-API-Key)")
    width: int | None = None
    height: int | None = None
    variants: list[ImageVariant] = Field([], description="largest first")


class Record(BaseModel):
    """One DMO's record of the listing."""
    dmo: str
    description: str | None = None
    contact: Contact
    images: list[Image] = Field([], description="the stored images, in the DMO's order")
    hours: list[Hours] = []


class Location(BaseModel):
    address1: str | None = None
    address2: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    country: str | None = None
    lat: Decimal | None = None
    lng: Decimal | None = None


class Listing(BaseModel):
    id: int
    name: str | None = None
    category: str | None = None
    updated_at: dt.datetime | None = None
    location: Location
    records: list[Record] = []


class ListingPage(BaseModel):
    data: list[Listing]
    next_cursor: str | None = Field(None, description="pass as `cursor` for the next page; null on the last page")


_STRICT = ConfigDict(extra="forbid")  # an unknown key is a 422, never silently dropped


class ListingEditIn(BaseModel):
    """The listing's fields (core/listing_fields.py checks each): a missing or null one stays as it is;
    `clear` empties fields."""
    model_config = _STRICT
    name: str | None = None
    category: str | None = Field(None, description="a value of the category vocabulary, e.g. lodging.hotel")
    address1: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    lat: Decimal | None = Field(None, description="-90 to 90")
    lng: Decimal | None = Field(None, description="-180 to 180")
    clear: list[Literal["category", "address1", "city", "state", "zip", "lat", "lng"]] = []


class RecordEditIn(BaseModel):
    """One DMO record's fields; the phone's international form is computed from the phone."""
    model_config = _STRICT
    description: str | None = None
    email: str | None = None
    local_phone: str | None = None
    website_url: str | None = Field(None, description="http:// or https:// only")
    clear: list[Literal["description", "email", "local_phone", "website_url"]] = []


class VisibilityIn(BaseModel):
    model_config = _STRICT
    visible: bool
    record_id: int | None = Field(None, description="one DMO record of the listing; omitted: the listing (for a "
                                                    "user limited to some DMOs, a listing other DMOs share is "
                                                    "shown or hidden for the user's DMOs only)")


class MergeIn(BaseModel):
    model_config = _STRICT
    into: int = Field(description="the listing that survives")


class Outcome(BaseModel):
    ok: bool
    message: str
    changed: dict | None = None
    errors: dict[str, str] | None = Field(None, description="field: why its value was refused (nothing was saved)")
