"""One raw record to one staged record: map, normalise, validate, compute ids and hashes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sadie_pipeline.core import listing_fields
from sadie_pipeline.core.categories import CategoryMapper
from sadie_pipeline.core.fields import (
    CANONICAL_FIELDS,
    CONTACT_FIELDS,
    LISTING_FIELDS,
    LISTING_INFO_FIELDS,
    LOCATION_FIELDS,
    URL_FIELDS,
)
from sadie_pipeline.core.hashing import change_hash, listing_match_hash, source_id_for
from sadie_pipeline.core.hours import HoursError, parse_hours
from sadie_pipeline.core.normalize import apply_case, clean_whitespace, country_code, split_list, title_case

# Kept as given until parsed: their newlines separate items.
_UNCLEANED_FIELDS = ("images", "hours")


@dataclass
class RecordError:
    error_type: str   # missing_field, invalid_type, out_of_bounds
    message: str


@dataclass
class TransformResult:
    record: dict[str, Any] | None
    errors: list[RecordError] = field(default_factory=list)


def _at(raw: dict[str, Any], position: int) -> Any:
    """The value of the record's column at a 1-based position (a config mapping columns by position:
    a record keeps its columns in the file's order)."""
    for i, value in enumerate(raw.values(), start=1):
        if i == position:
            return value
    return None


class RecordTransformer:
    """Built once per job from the config snapshot, then applied to every record."""

    def __init__(self, config: dict[str, Any], dmo_id: int):
        transform, validate = config["transform"], config["validate"]
        self.dmo_id = dmo_id
        mapping = [(CANONICAL_FIELDS[f], column) for f, column in transform["map_fields"].items()]
        self.mapping = [(name, column) for name, column in mapping if name not in _UNCLEANED_FIELDS]
        self.uncleaned = [(name, column) for name, column in mapping if name in _UNCLEANED_FIELDS]
        self.title_fields = {CANONICAL_FIELDS[f] for f in transform.get("normalize_fields", [])}
        self.case = {CANONICAL_FIELDS[f]: mode for f, mode in transform.get("case", {}).items()}
        self.round_to = transform.get("round_lat_lng")
        self.region = (transform.get("default_country") or "CA").upper()
        self.match_fields = [CANONICAL_FIELDS[f] for f in transform.get("hash_fields", [])]
        self.categories = CategoryMapper(transform.get("category_map"))
        self.required = [(f, CANONICAL_FIELDS[f]) for f in validate.get("required_fields", [])]
        self.types = {CANONICAL_FIELDS[f]: kind for f, kind in validate.get("data_types", {}).items()}
        rules = validate.get("business_rules", {})
        self.lat_bounds = rules.get("lat_bounds", [-90, 90])
        self.lng_bounds = rules.get("lng_bounds", [-180, 180])
        self.geo_box = rules.get("dmo_geographic_bounds")

    def __call__(self, raw: dict[str, Any]) -> TransformResult:
        rec: dict[str, Any] = {}
        for name, column in self.mapping:
            value = raw.get(column) if isinstance(column, str) else _at(raw, column)
            rec[name] = clean_whitespace(value) if isinstance(value, str) else value
        for name, column in self.uncleaned:
            rec[name] = raw.get(column) if isinstance(column, str) else _at(raw, column)
        errors: list[RecordError] = []

        for name in self.title_fields:
            value = rec.get(name)
            if value and value.isupper() and len(value) > 3:
                rec[name] = title_case(value)
        for name, mode in self.case.items():
            rec[name] = apply_case(rec.get(name), mode)
        if "category" in rec:
            rec["category"] = self.categories(rec["category"])
        if rec.get("country"):
            try:
                rec["country"] = country_code(rec["country"])
            except ValueError as exc:
                errors.append(RecordError("invalid_type", f"locations.country: {exc}"))
        else:
            rec["country"] = self.region

        for label, name in self.required:
            if not rec.get(name):
                errors.append(RecordError("missing_field", f"required field {label} is empty"))
        if rec.get("name"):
            try:
                listing_fields.name(rec["name"])
            except listing_fields.FieldError as exc:
                errors.append(RecordError("invalid_type", str(exc)))

        self._coordinates(rec, errors)
        self._contacts(rec, errors)
        try:
            rec["hours"] = parse_hours(rec.get("hours"))
        except HoursError as exc:
            errors.append(RecordError("invalid_type", str(exc)))
        rec["images"] = split_list(rec.get("images"))

        if errors:
            return TransformResult(None, errors)

        explicit = rec.pop("explicit_source_id", None)
        rec["source_id"] = raw.get("source_id") or source_id_for(self.dmo_id, rec.get("name"), rec.get("city"), explicit)
        get = rec.get
        rec["listing_match_hash"] = listing_match_hash([get(f) for f in self.match_fields])
        rec["l_hash"] = change_hash([get(f) for f in LISTING_FIELDS])
        rec["location_hash"] = change_hash([get(f) for f in LOCATION_FIELDS])
        rec["li_hash"] = change_hash([get(f) for f in LISTING_INFO_FIELDS])
        rec["contact_info_hash"] = change_hash([get(f) for f in CONTACT_FIELDS])
        rec["images_hash"] = change_hash(rec["images"])
        rec["hours_hash"] = change_hash(rec["hours"])
        return TransformResult(rec)

    def _coordinates(self, rec: dict[str, Any], errors: list[RecordError]) -> None:
        for name, bounds in (("lat", self.lat_bounds), ("lng", self.lng_bounds)):
            try:
                number = listing_fields.coordinate(rec.get(name), name, bounds)
            except listing_fields.FieldError as exc:
                kind = "out_of_bounds" if exc.problem is listing_fields.Problem.OUT_OF_RANGE else "invalid_type"
                errors.append(RecordError(kind, f"locations.{exc}"))
                number = None
            value = float(number) if number is not None else None
            rec[name] = round(value, self.round_to) if value is not None and self.round_to is not None else value
        box = self.geo_box
        if box and rec.get("lat") is not None and rec.get("lng") is not None:
            inside = box["min_lat"] <= rec["lat"] <= box["max_lat"] and box["min_lng"] <= rec["lng"] <= box["max_lng"]
            if not inside:
                errors.append(RecordError("out_of_bounds", f"({rec['lat']}, {rec['lng']}) is outside the DMO's area"))

    def _phone(self, value: Any, country: Any) -> listing_fields.Phone | None:
        """A national form read as the record's country writes it ("030 8403493" in Germany), else as
        the DMO's default country does (a record filed under another country than its phone's)."""
        ok = isinstance(country, str) and len(country) == 2 and country.isalpha() and country.isupper()
        if ok and country != self.region:
            try:
                return listing_fields.phone(value, country)
            except listing_fields.FieldError:
                pass
        return listing_fields.phone(value, self.region)

    def _contacts(self, rec: dict[str, Any], errors: list[RecordError]) -> None:
        """The same rules as a person's edit (core/listing_fields.py); the DMO's data_types decide whether
        a bad e-mail or phone fails the record, or is dropped (an e-mail) or kept as given (a phone)."""
        try:
            rec["email"] = listing_fields.email(rec.get("email"))
        except listing_fields.FieldError as exc:
            if self.types.get("email") == "email":
                errors.append(RecordError("invalid_type", str(exc)))
            rec["email"] = None
        rec["international_phone"] = None
        try:
            phone = self._phone(rec.get("local_phone"), rec.get("country"))
        except listing_fields.FieldError as exc:
            if self.types.get("local_phone") == "phone":
                errors.append(RecordError("invalid_type", str(exc)))
            phone = None
        if phone is not None:
            rec["local_phone"], rec["international_phone"] = phone.local, phone.international
        for name in URL_FIELDS:
            try:
                rec[name] = listing_fields.web_url(rec.get(name), name)
            except listing_fields.FieldError as exc:
                errors.append(RecordError("invalid_type", str(exc)))
