"""The JSON API's typed shapes (they are its OpenAPI schema at /docs)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from pydantic import BaseModel, Field


class Hours(BaseModel):
    day: str | None = None
    open: str | None = None
    close: str | None = None
    from_: str | None = Field(None, alias="from")
    to: str | None = None

    model_config = {"populate_by_name": True, "serialize_by_alias": True}


class Contact(BaseModel):
    name: str | None = None
    email: str | None = None
    local_phone: str | None = None
    international_phone: str | None = None
    website_url: str | None = None
    facebook_url: str | None = None
    instagram_url: str | None = None
    twitter_url: str | None = None
    tripadvisor_url: str | None = None


class Record(BaseModel):
    """One DMO's record of the listing."""
    dmo: str
    description: str | None = None
    contact: Contact
    images: list[str] = []
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


class ListingEditIn(BaseModel):
    name: str | None = None
    category: str | None = None
    address1: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    lat: Decimal | None = None
    lng: Decimal | None = None


class RecordEditIn(BaseModel):
    description: str | None = None
    email: str | None = None
    local_phone: str | None = None
    website_url: str | None = None


class VisibilityIn(BaseModel):
    visible: bool
    record_id: int | None = Field(None, description="one DMO record of the listing; omitted: the listing")


class MergeIn(BaseModel):
    into: int = Field(description="the listing that survives")


class Outcome(BaseModel):
    ok: bool
    message: str
    changed: dict | None = None
