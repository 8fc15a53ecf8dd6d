"""Unit tests for sadie_pipeline.core.transform.RecordTransformer on configs built with merge_config."""

from __future__ import annotations

from typing import Any

import pytest

from sadie_pipeline.core.config import merge_config
from sadie_pipeline.core.hashing import change_hash, listing_match_hash, source_id_for
from sadie_pipeline.core.transform import RecordError, RecordTransformer, TransformResult

DMO_ID = 7

COLUMNS = {
    "listings.name": "Business Name",
    "listings.category": "Type",
    "listings.google_place_id": "Place",
    "locations.address1": "Street",
    "locations.address2": "Unit",
    "locations.city": "Town",
    "locations.state": "Prov",
    "locations.zip": "Postal",
    "locations.country": "Country",
    "locations.lat": "Latitude",
    "locations.lng": "Longitude",
    "listing_info.source_id": "Ref",
    "listing_info.description": "About",
    "contact_info.name": "Contact",
    "contact_info.email": "E-mail",
    "contact_info.local_phone": "Tel",
    "contact_info.website_url": "Web",
    "contact_info.facebook_url": "FB",
    "contact_info.instagram_url": "IG",
    "contact_info.twitter_url": "X",
    "contact_info.tripadvisor_url": "TA",
    "listing_images.image": "Photos",
    "opening_hours.hours": "Hours",
    "opening_dates.start_date": "Opens",
    "opening_dates.end_date": "Closes",
}

HASH_KEYS = ("l_hash", "location_hash", "li_hash", "contact_info_hash", "images_hash", "hours_hash")


def make_transformer(overrides: dict[str, Any] | None = None, dmo_id: int = DMO_ID) -> RecordTransformer:
    base = {"transform": {"map_fields": dict(COLUMNS)}}
    config = merge_config(base)
    if overrides:
        config = merge_config({**base, **{k: v for k, v in overrides.items() if k != "transform"}, "transform": {
            "map_fields": dict(COLUMNS), **overrides.get("transform", {})}})
    return RecordTransformer(config, dmo_id)


def raw_record(**changes: Any) -> dict[str, Any]:
    raw = {
        "Business Name": "  Harbour  View Grill ",
        "Type": "Restaurant",
        "Place": "ChIJ123",
        "Street": "12 Water St",
        "Unit": None,
        "Town": "Charlottetown",
        "Prov": "pe",
        "Postal": "C1A 1A1",
        "Country": None,
        "Latitude": "46.2345678",
        "Longitude": "-63.1234567",
        "Ref": None,
        "About": "Seafood on the harbour.",
        "Contact": "Jane Doe",
        "E-mail": " Info@HarbourView.CA ",
        "Tel": "902.555.0142",
        "Web": "HarbourView.ca/",
        "FB": None,
        "IG": "instagram.com/harbourview",
        "X": None,
        "TA": None,
        "Photos": "a.jpg | b.jpg",
        "Hours": "Mon-Fri 11:00-21:00; Sat 12:00-22:00; Sun closed",
        "Opens": "2024-05-01",
        "Closes": "2024-10-31",
    }
    raw.update(changes)
    return raw


@pytest.fixture(scope="module")
def transformer() -> RecordTransformer:
    return make_transformer()


def ok(result: TransformResult) -> dict[str, Any]:
    assert result.errors == [], result.errors
    assert result.record is not None
    return result.record


def error_types(result: TransformResult) -> list[str]:
    assert result.record is None, "a record with errors must not be staged"
    return [e.error_type for e in result.errors]


# --- mapping and normalisation ----------------------------------------------------------------

def test_full_record(transformer):
    rec = ok(transformer(raw_record()))
    assert rec["name"] == "Harbour View Grill"
    assert rec["category"] == "restaurant"
    assert rec["google_place_id"] == "ChIJ123"
    assert rec["address1"] == "12 Water St"
    assert rec["address2"] is None
    assert rec["city"] == "Charlottetown"
    assert rec["state"] == "PE"
    assert rec["zip"] == "C1A 1A1"
    assert rec["country"] == "CA"
    assert rec["lat"] == 46.23457 and rec["lng"] == -63.12346
    assert rec["email"] == "info@harbourview.ca"
    assert rec["local_phone"] == "(902) 555-0142"
    assert rec["international_phone"] == "+19025550142"
    assert rec["website_url"] == "https://harbourview.ca"
    assert rec["instagram_url"] == "https://instagram.com/harbourview"
    assert rec["facebook_url"] is None
    assert rec["images"] == ["a.jpg", "b.jpg"]
    assert rec["hours"] == tuple((d, "11:00", "21:00") for d in range(1, 6)) + ((6, "12:00", "22:00"),)
    assert rec["description"] == "Seafood on the harbour."
    assert rec["contact_name"] == "Jane Doe"
    assert (rec["start_date"], rec["end_date"]) == ("2024-05-01", "2024-10-31")
    assert "explicit_source_id" not in rec


def test_mapping_uses_configured_column_names_only():
    t = RecordTransformer(merge_config({"transform": {"map_fields": {
        "listings.name": "Nom", "locations.address1": "Adresse", "locations.city": "Ville"}}}), DMO_ID)
    rec = ok(t({"Nom": "Gahan House", "Adresse": "126 Sydney St", "Ville": "Charlottetown",
                "name": "ignored", "Business Name": "ignored"}))
    assert (rec["name"], rec["address1"], rec["city"]) == ("Gahan House", "126 Sydney St", "Charlottetown")
    assert rec["email"] is None and rec["images"] == [] and rec["hours"] == ()


def test_missing_columns_are_none(transformer):
    raw = raw_record()
    for column in ("About", "Photos", "Hours", "Tel", "E-mail", "Web", "IG", "Latitude", "Longitude"):
        del raw[column]
    rec = ok(transformer(raw))
    assert rec["description"] is None and rec["local_phone"] is None and rec["international_phone"] is None
    assert rec["lat"] is None and rec["lng"] is None
    assert rec["images"] == [] and rec["hours"] == ()


def test_whitespace_cleaned_in_every_text_field(transformer):
    rec = ok(transformer(raw_record(**{"Street": " 12   Water\tSt ", "About": " Sea\n food ", "Contact": "  Jane   Doe "})))
    assert rec["address1"] == "12 Water St"
    assert rec["description"] == "Sea food"
    assert rec["contact_name"] == "Jane Doe"


def test_all_caps_title_cased_for_normalize_fields(transformer):
    rec = ok(transformer(raw_record(**{"Business Name": "HARBOUR VIEW GRILL", "Street": "12 WATER ST",
                                      "Town": "CHARLOTTETOWN", "About": "BEST FISH IN TOWN"})))
    assert rec["name"] == "Harbour View Grill"
    assert rec["address1"] == "12 Water St"
    assert rec["city"] == "Charlottetown"
    assert rec["description"] == "BEST FISH IN TOWN"   # not a normalize_field


@pytest.mark.parametrize("name", ["PEI", "KFC", "McDonald's", "Harbour view GRILL", "iHOP"])
def test_title_casing_leaves_short_or_mixed_case_alone(transformer, name):
    assert ok(transformer(raw_record(**{"Business Name": name})))["name"] == name


def test_title_casing_only_for_configured_fields():
    t = make_transformer({"transform": {"normalize_fields": ["locations.city"]}})
    rec = ok(t(raw_record(**{"Business Name": "HARBOUR VIEW GRILL", "Town": "CHARLOTTETOWN"})))
    assert rec["name"] == "HARBOUR VIEW GRILL"
    assert rec["city"] == "Charlottetown"


def test_case_rules(transformer):
    rec = ok(transformer(raw_record(Type="ODD Thing", Prov="Pe", Country="ca")))
    assert rec["category"] == "odd thing"  # no vocabulary value: kept, lowercased
    assert rec["state"] == "PE"
    assert rec["country"] == "CA"


def test_extra_case_rule_from_config():
    t = make_transformer({"transform": {"case": {"locations.zip": "upper"}}})
    assert ok(t(raw_record(Postal="c1a 1a1")))["zip"] == "C1A 1A1"


def test_default_country_when_absent():
    assert ok(make_transformer()(raw_record(Country=None)))["country"] == "CA"
    assert ok(make_transformer()(raw_record(Country="   ")))["country"] == "CA"
    assert ok(make_transformer({"transform": {"default_country": "us"}})(raw_record(Country=None)))["country"] == "US"


@pytest.mark.parametrize("country, expected", [("USA", "US"), ("us", "US"), ("CAN", "CA"), ("GB", "GB")])
def test_given_country_kept_as_two_letters(transformer, country, expected):
    assert ok(transformer(raw_record(Country=country)))["country"] == expected


def test_country_name_is_not_truncated_into_a_wrong_code(transformer):
    result = transformer(raw_record(Country="United States"))
    assert result.record is None or result.record["country"] == "US"


@pytest.mark.parametrize(
    "country, expected",
    [("United States", "US"), ("Canada", "CA"), ("Ireland", "IE"), ("IRL", "IE"), ("UK", "GB"), ("fr", "FR")],
)
def test_country_names_and_three_letter_codes_mapped(transformer, country, expected):
    assert ok(transformer(raw_record(Country=country)))["country"] == expected


@pytest.mark.parametrize("country", ["Atlantis", "Prince Edward Island", "XYZ"])
def test_unknown_country_is_invalid_type(transformer, country):
    result = transformer(raw_record(Country=country))
    assert error_types(result) == ["invalid_type"]
    assert "country" in result.errors[0].message


def test_title_casing_of_possessive(transformer):
    assert ok(transformer(raw_record(**{"Business Name": "ANNE'S KITCHEN"})))["name"] == "Anne's Kitchen"


def test_title_casing_word_by_word(transformer):
    rec = ok(transformer(raw_record(**{"Business Name": "  ANNE'S   4TH STREET B&B ", "Town": "SAINT-PIERRE"})))
    assert rec["name"] == "Anne's 4th Street B&B"
    assert rec["city"] == "Saint-Pierre"


# --- validation errors ------------------------------------------------------------------------

@pytest.mark.parametrize("column", ["Business Name", "Street", "Town"])
@pytest.mark.parametrize("value", [None, "", "   "])
def test_required_fields(transformer, column, value):
    result = transformer(raw_record(**{column: value}))
    assert error_types(result) == ["missing_field"]


def test_each_missing_required_field_reported(transformer):
    result = transformer(raw_record(**{"Business Name": None, "Town": " "}))
    assert error_types(result) == ["missing_field", "missing_field"]
    messages = " ".join(e.message for e in result.errors)
    assert "listings.name" in messages and "locations.city" in messages


def test_required_fields_from_config():
    t = make_transformer({"validate": {"required_fields": ["listings.name", "contact_info.email"]}})
    assert ok(t(raw_record(Street=None, Town="Charlottetown")))["address1"] is None
    assert error_types(t(raw_record(**{"E-mail": None}))) == ["missing_field"]


@pytest.mark.parametrize("column", ["Latitude", "Longitude"])
def test_non_numeric_coordinate_is_invalid_type(transformer, column):
    result = transformer(raw_record(**{column: "forty-six"}))
    assert error_types(result) == ["invalid_type"]


def test_numeric_coordinates_accept_numbers_and_strings(transformer):
    rec = ok(transformer(raw_record(Latitude=46.2, Longitude="-63.1")))
    assert (rec["lat"], rec["lng"]) == (46.2, -63.1)


@pytest.mark.parametrize("lat, lng", [("91", "-63"), ("-90.0001", "-63"), ("46", "180.5"), ("46", "-181")])
def test_out_of_bounds_coordinates(transformer, lat, lng):
    assert error_types(transformer(raw_record(Latitude=lat, Longitude=lng))) == ["out_of_bounds"]


@pytest.mark.parametrize("lat, lng", [("90", "180"), ("-90", "-180"), ("0", "0")])
def test_bounds_are_inclusive(transformer, lat, lng):
    ok(transformer(raw_record(Latitude=lat, Longitude=lng)))


def test_custom_lat_bounds():
    t = make_transformer({"validate": {"business_rules": {"lat_bounds": [40, 50]}}})
    assert error_types(t(raw_record(Latitude="39.9"))) == ["out_of_bounds"]
    ok(t(raw_record(Latitude="46.2")))


PEI_BOX = {"min_lat": 45.9, "max_lat": 47.1, "min_lng": -64.5, "max_lng": -61.9}


@pytest.mark.parametrize("lat, lng", [("44.65", "-63.57"), ("46.2", "-60.0"), ("48.0", "-63.1")])
def test_dmo_geographic_bounds(lat, lng):
    t = make_transformer({"validate": {"business_rules": {"dmo_geographic_bounds": PEI_BOX}}})
    assert error_types(t(raw_record(Latitude=lat, Longitude=lng))) == ["out_of_bounds"]


def test_dmo_geographic_bounds_inside_and_without_coordinates():
    t = make_transformer({"validate": {"business_rules": {"dmo_geographic_bounds": PEI_BOX}}})
    ok(t(raw_record(Latitude="46.2", Longitude="-63.1")))
    ok(t(raw_record(Latitude=None, Longitude=None)))   # nothing to check


def test_bad_email_is_an_error_when_declared(transformer):
    assert error_types(transformer(raw_record(**{"E-mail": "info at harbourview"}))) == ["invalid_type"]


def test_bad_email_dropped_silently_when_not_declared():
    t = make_transformer()
    t.types.pop("email")  # as if data_types had no contact_info.email
    rec = ok(t(raw_record(**{"E-mail": "info at harbourview"})))
    assert rec["email"] is None


def test_bad_email_not_an_error_when_declared_as_another_type():
    t = make_transformer({"validate": {"data_types": {"contact_info.email": "text"}}})
    assert ok(t(raw_record(**{"E-mail": "info at harbourview"})))["email"] is None


def test_bad_phone_is_an_error_when_declared(transformer):
    assert error_types(transformer(raw_record(Tel="call the front desk"))) == ["invalid_type"]


def test_bad_phone_kept_raw_when_not_declared():
    t = make_transformer({"validate": {"data_types": {"contact_info.local_phone": "text"}}})
    rec = ok(t(raw_record(Tel="call the front desk")))
    assert rec["local_phone"] == "call the front desk"
    assert rec["international_phone"] is None


@pytest.mark.parametrize("tel", ["(902) 555-0142", "902.555.0142", "+1 902 555 0142", "1-902-555-0142", "902-555-0142 x12"])
def test_phone_normalised(transformer, tel):
    rec = ok(transformer(raw_record(Tel=tel)))
    assert rec["local_phone"] == "(902) 555-0142"
    assert rec["international_phone"] == "+19025550142"


def test_foreign_phone_keeps_local_form():
    rec = ok(make_transformer()(raw_record(Tel="+44 20 7946 0018")))
    assert rec["international_phone"] == "+442079460018"
    assert rec["local_phone"] == "+44 20 7946 0018"


def test_phone_region_from_default_country():
    rec = ok(make_transformer({"transform": {"default_country": "GB"}})(raw_record(Tel="020 7946 0018")))
    assert rec["international_phone"] == "+442079460018"


def test_bad_url_is_always_an_error(transformer):
    result = transformer(raw_record(Web="not a url"))
    assert error_types(result) == ["invalid_type"]
    assert "website_url" in result.errors[0].message


def test_images_separated_by_newlines(transformer):
    assert ok(transformer(raw_record(Photos="a.jpg\nb.jpg")))["images"] == ["a.jpg", "b.jpg"]


def test_hours_separated_by_newlines(transformer):
    rec = ok(transformer(raw_record(Hours="Mon-Fri 11:00-21:00\nSat 12:00-22:00")))
    assert rec["hours"] == tuple((d, "11:00", "21:00") for d in range(1, 6)) + ((6, "12:00", "22:00"),)


def test_multi_line_cells_clean_each_item(transformer):
    rec = ok(transformer(raw_record(Photos="  a  photo.jpg\r\n\n b.jpg ", Hours=" Mon-Fri  11:00 - 21:00 \r\n\tSat 12:00-22:00\n")))
    assert rec["images"] == ["a photo.jpg", "b.jpg"]
    assert rec["hours"] == tuple((d, "11:00", "21:00") for d in range(1, 6)) + ((6, "12:00", "22:00"),)


def test_multi_line_cells_hash_like_single_line_ones(transformer):
    one_line = ok(transformer(raw_record(Photos="a.jpg | b.jpg", Hours="Mon-Fri 11:00-21:00; Sat 12:00-22:00")))
    multi = ok(transformer(raw_record(Photos="a.jpg\nb.jpg", Hours="Mon-Fri 11:00-21:00\nSat 12:00-22:00")))
    assert (multi["images_hash"], multi["hours_hash"]) == (one_line["images_hash"], one_line["hours_hash"])


def test_bad_hours_is_invalid_type(transformer):
    assert error_types(transformer(raw_record(Hours="by appointment"))) == ["invalid_type"]


def test_errors_accumulate(transformer):
    result = transformer(raw_record(**{"Business Name": None, "Latitude": "x", "E-mail": "nope", "Hours": "??"}))
    assert sorted(error_types(result)) == ["invalid_type", "invalid_type", "invalid_type", "missing_field"]
    assert all(isinstance(e, RecordError) and e.message for e in result.errors)


# --- rounding ---------------------------------------------------------------------------------

def test_rounding_from_config():
    rec = ok(make_transformer({"transform": {"round_lat_lng": 2}})(raw_record()))
    assert (rec["lat"], rec["lng"]) == (46.23, -63.12)


def test_no_rounding_when_disabled():
    rec = ok(make_transformer({"transform": {"round_lat_lng": None}})(raw_record()))
    assert (rec["lat"], rec["lng"]) == (46.2345678, -63.1234567)


# --- source_id and match hash -----------------------------------------------------------------

def test_source_id_computed_from_dmo_name_city(transformer):
    rec = ok(transformer(raw_record()))
    assert rec["source_id"] == source_id_for(DMO_ID, "Harbour View Grill", "Charlottetown")


def test_source_id_from_mapped_id_column(transformer):
    assert ok(transformer(raw_record(Ref="HVG-42")))["source_id"] == "HVG-42"


def test_source_id_from_raw_source_id_wins(transformer):
    rec = ok(transformer({**raw_record(Ref="HVG-42"), "source_id": "api-991"}))
    assert rec["source_id"] == "api-991"


def test_source_id_depends_on_dmo():
    a = ok(make_transformer(dmo_id=1)(raw_record()))["source_id"]
    b = ok(make_transformer(dmo_id=2)(raw_record()))["source_id"]
    assert a != b


def test_source_id_and_match_hash_survive_cosmetic_changes(transformer):
    a = ok(transformer(raw_record()))
    b = ok(transformer(raw_record(**{"Business Name": "HARBOUR VIEW GRILL.", "Town": " charlottetown ",
                                     "Street": "12  WATER ST"})))
    assert a["source_id"] == b["source_id"]
    assert a["listing_match_hash"] == b["listing_match_hash"]


def test_listing_match_hash_uses_hash_fields(transformer):
    rec = ok(transformer(raw_record()))
    assert rec["listing_match_hash"] == listing_match_hash(["Harbour View Grill", "12 Water St", "Charlottetown"])
    t = make_transformer({"transform": {"hash_fields": ["listings.name", "locations.zip"]}})
    assert ok(t(raw_record()))["listing_match_hash"] == listing_match_hash(["Harbour View Grill", "C1A 1A1"])


# --- change hashes ----------------------------------------------------------------------------

def test_change_hashes_present_and_deterministic(transformer):
    a, b = ok(transformer(raw_record())), ok(transformer(raw_record()))
    for key in HASH_KEYS:
        assert isinstance(a[key], str) and len(a[key]) == 32
        assert a[key] == b[key]


def test_change_hashes_cover_their_groups(transformer):
    rec = ok(transformer(raw_record()))
    assert rec["l_hash"] == change_hash([rec["name"], rec["category"], rec["google_place_id"]])
    assert rec["images_hash"] == change_hash(rec["images"])
    assert rec["hours_hash"] == change_hash(rec["hours"])


def test_change_hashes_stable_across_cosmetic_differences(transformer):
    base = ok(transformer(raw_record()))
    same = ok(transformer(raw_record(**{
        "Business Name": "Harbour View Grill",
        "Type": "RESTAURANT",
        "Prov": "PE",
        "Latitude": "46.234568",          # equal once rounded to 5 places
        "E-mail": "INFO@harbourview.ca",
        "Tel": "(902) 555-0142",
        "Web": "https://harbourview.ca",
        "Photos": "a.jpg,b.jpg",
        "Hours": "Sat 12:00-22:00; Mon-Fri 11am-9pm",
        "Unit": "   ",
    })))
    assert {k: same[k] for k in HASH_KEYS} == {k: base[k] for k in HASH_KEYS}


CHANGES = [
    ("Business Name", "Harbour View Bistro", "l_hash"),
    ("Type", "Bar", "l_hash"),
    ("Place", "ChIJ999", "l_hash"),
    ("Street", "14 Water St", "location_hash"),
    ("Unit", "Suite 2", "location_hash"),
    ("Town", "Stratford", "location_hash"),
    ("Prov", "NS", "location_hash"),
    ("Postal", "C1A 9Z9", "location_hash"),
    ("Country", "US", "location_hash"),
    ("Latitude", "46.3", "location_hash"),
    ("Longitude", "-63.2", "location_hash"),
    ("About", "Now with oysters.", "li_hash"),
    ("Opens", "2024-06-01", "li_hash"),
    ("Closes", "2024-09-30", "li_hash"),
    ("Contact", "John Roe", "contact_info_hash"),
    ("E-mail", "hello@harbourview.ca", "contact_info_hash"),
    ("Tel", "902-555-0199", "contact_info_hash"),
    ("Web", "harbourview.com", "contact_info_hash"),
    ("FB", "facebook.com/hvg", "contact_info_hash"),
    ("IG", "instagram.com/hvg2", "contact_info_hash"),
    ("X", "x.com/hvg", "contact_info_hash"),
    ("TA", "tripadvisor.ca/hvg", "contact_info_hash"),
    ("Photos", "a.jpg | c.jpg", "images_hash"),
    ("Photos", "b.jpg | a.jpg", "images_hash"),     # image order is significant
    ("Hours", "Mon-Fri 11:00-22:00; Sat 12:00-22:00", "hours_hash"),
    ("Hours", "Mon-Sat 11:00-21:00", "hours_hash"),
]


@pytest.mark.parametrize("column, value, changed_hash", CHANGES, ids=[f"{c}->{h}" for c, _, h in CHANGES])
def test_exactly_one_change_hash_moves(transformer, column, value, changed_hash):
    before = ok(transformer(raw_record()))
    after = ok(transformer(raw_record(**{column: value})))
    moved = {k for k in HASH_KEYS if before[k] != after[k]}
    assert moved == {changed_hash}


def test_source_id_follows_name_and_city_only(transformer):
    base = ok(transformer(raw_record()))
    assert ok(transformer(raw_record(Tel="902-555-0199")))["source_id"] == base["source_id"]
    assert ok(transformer(raw_record(Street="14 Water St")))["source_id"] == base["source_id"]
    assert ok(transformer(raw_record(Town="Stratford")))["source_id"] != base["source_id"]
    assert ok(transformer(raw_record(**{"Business Name": "Other"})))["source_id"] != base["source_id"]


def test_transformer_does_not_mutate_raw(transformer):
    raw = raw_record()
    snapshot = dict(raw)
    transformer(raw)
    assert raw == snapshot
