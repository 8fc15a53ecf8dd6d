"""Two guides of the same city through the real pipeline (PostgreSQL): the second guide's records
find the first guide's listings whatever their city label, name suffix or article, and every fuzzy
match keeps its explanation; the listings' blocking keys follow edits."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.matching import MatchRecord
from sadie_pipeline.core.places.form import PlaceForm
from sadie_pipeline.listings import match_keys
from sadie_pipeline.listings.matching import fuzzy_candidates
from sadie_pipeline_tests.listings.helpers import SIMPLE_COLUMNS, import_file, register, write_csv
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG as CONFIG

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

GUIDE_A = [
    {"Name": "Spago (Los Angeles)", "Address": "176 N Canon Dr", "City": "Beverly Hills", "Phone": "310-385-0880"},
    {"Name": "Arts Deli", "Address": "12224 Ventura Blvd", "City": "Studio City", "Phone": "818-762-1221"},
    {"Name": "Palm, The", "Address": "9001 Santa Monica Blvd", "City": "W. Hollywood", "Phone": "310-550-8811"},
    {"Name": "Café Québec", "Address": "924 Rue Saint-Jean", "City": "Québec", "Phone": "418-555-0100"},
]
GUIDE_B = [
    {"Name": "Spago", "Address": "176 North Canon Drive", "City": "Los Angeles", "Phone": "(310) 385 0880"},
    {"Name": "Arts Delicatessen", "Address": "12224 Ventura Blvd.", "City": "Los Angeles", "Phone": "818/762-1221"},
    {"Name": "The Palm", "Address": "9001 Santa Monica Blvd.", "City": "Los Angeles", "Phone": "310 550 8811"},
    {"Name": "Cafe Quebec", "Address": "9b4 rue St-Jean", "City": "Quebec City", "Phone": "+1 418 555 0100"},
    {"Name": "Spago Steakhouse", "Address": "88 Main St", "City": "Santa Monica", "Phone": "310-555-0199"},
]


def test_a_second_guide_finds_the_first_guides_listings(tmp_path, database, local_object_store, instance):
    register(database, instance, "guide-a", CONFIG)
    register(database, instance, "guide-b", CONFIG)
    import_file(database, local_object_store, instance, "guide-a", write_csv(tmp_path / "a.csv", GUIDE_A))
    _, summary = import_file(database, local_object_store, instance, "guide-b", write_csv(tmp_path / "b.csv", GUIDE_B))

    assert summary["needing_review"] == 0
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.listings").fetchone()[0] == 5  # 4 + the steakhouse
        rows = conn.execute(
            """SELECT s.name, s.match_method, s.certainty_score, s.match_explanation, l.name
                 FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
                 LEFT JOIN public.listings l ON l.id = s.target_listing_id
                WHERE d.slug = 'guide-b' ORDER BY s.rec_num""").fetchall()
    by_name = {r[0]: r for r in rows}
    for staged, listing in [("Spago", "Spago (Los Angeles)"), ("Arts Delicatessen", "Arts Deli"),
                            ("The Palm", "Palm, The"), ("Cafe Quebec", "Café Québec")]:
        _, method, certainty, why, target = by_name[staged]
        assert (method, target) == ("fuzzy", listing)
        assert certainty >= 0.8 and why["phone"]["level"] == "same" and why["phone"]["weight"] > 0
    assert by_name["Spago Steakhouse"][1] is None and by_name["Spago Steakhouse"][4] == "Spago Steakhouse"  # new


def test_the_promotion_keys_the_listings_it_creates_from_their_staged_forms(tmp_path, database,
                                                                           local_object_store, instance):
    """The stage's workers store each record's place form and keys; the promotion writes the new
    listings' keys from them, so the next lookup keys nothing again and finds them."""
    register(database, instance, "guide-a", CONFIG)
    import_file(database, local_object_store, instance, "guide-a", write_csv(tmp_path / "a.csv", GUIDE_A))
    with database.connect() as conn:
        staged = conn.execute("SELECT count(*) FROM staging.listings WHERE jsonb_array_length(place_form) = %s "
                              "AND place_keys ? %s", (len(PlaceForm._fields), "p:+13103850880")).fetchone()[0]
        keyed = conn.execute("SELECT count(DISTINCT listing_id) FROM pipeline.listing_match_keys").fetchone()[0]
        assert (staged, keyed) == (1, 4)
        assert match_keys.refresh(conn) == 0  # nothing stale: the promotion keyed them
        probe = [MatchRecord(1, "Arts Delicatessen", "12224 Ventura Blvd.", "Los Angeles", None, "818/762-1221")]
        [found] = fuzzy_candidates(conn, probe)
        assert found.name == "Arts Deli" and found.form is not None and found.form.phone == "+18187621221"


def test_keys_written_by_a_promotion_are_current_until_a_keyed_field_changes(tmp_path, database,
                                                                          local_object_store, instance):
    """The promotion stores each new listing's fields (coordinates and website included) beside its
    keys; the check before a lookup finds none of them stale, then exactly those whose coordinates,
    website or key code changed."""
    config = {"transform": {"map_fields": {**CONFIG["transform"]["map_fields"], "locations.lat": "Lat",
                                           "locations.lng": "Lng"}}}
    register(database, instance, "guide-c", config)
    rows = [{**GUIDE_A[0], "Website": "https://www.spago.example.com/beverly-hills", "Lat": "34.0675",
             "Lng": "-118.3987650"}, *GUIDE_A[1:]]
    path = write_csv(tmp_path / "c.csv", rows, [*SIMPLE_COLUMNS, "Lat", "Lng"])
    import_file(database, local_object_store, instance, "guide-c", path)
    with database.connect() as conn:
        assert match_keys.refresh(conn) == 0
        spago = conn.execute("SELECT l.id, l.location_id, li.contact_info_id FROM public.listings l "
                             "JOIN public.listing_info li ON li.listing_id = l.id WHERE l.name LIKE 'Spago%'").fetchone()
        conn.execute("UPDATE public.locations SET lat = 34.0676 WHERE id = %s", (spago[1],))
        conn.commit()
        assert match_keys.refresh(conn) == 1 and match_keys.refresh(conn) == 0
        conn.execute("UPDATE public.contact_info SET website_url = 'https://spago.example.org' WHERE id = %s",
                     (spago[2],))
        conn.commit()
        assert match_keys.refresh(conn) == 1
        conn.execute("UPDATE pipeline.listing_match_keyed SET version = 'an older release'")
        conn.commit()
        assert match_keys.refresh(conn) == 4


def test_a_stage_finds_a_listing_by_the_fields_it_was_edited_to(tmp_path, database, local_object_store, instance):
    """A listing edited after it was keyed: the stage brings the keys up to date (on a thread of its
    own, while it finds the exact matches) before it looks candidates up, and finds the listing by
    its new address and phone, not its old ones."""
    register(database, instance, "guide-a", CONFIG)
    register(database, instance, "guide-b", CONFIG)
    import_file(database, local_object_store, instance, "guide-a", write_csv(tmp_path / "a.csv", GUIDE_A[:2]))
    with database.connect() as conn:
        listing, location, contact = conn.execute(
            "SELECT l.id, l.location_id, li.contact_info_id FROM public.listings l "
            "JOIN public.listing_info li ON li.listing_id = l.id WHERE l.name = 'Arts Deli'").fetchone()
        conn.execute("UPDATE public.locations SET address1 = '4600 Lankershim Blvd', city = 'North Hollywood' "
                     "WHERE id = %s", (location,))
        conn.execute("UPDATE public.contact_info SET international_phone = '+18187629999' WHERE id = %s", (contact,))
    moved = {"Name": "Arts Delicatessen", "Address": "4600 Lankershim Blvd.", "City": "Los Angeles",
             "Phone": "818-762-9999"}
    import_file(database, local_object_store, instance, "guide-b", write_csv(tmp_path / "b.csv", [moved]))
    with database.connect() as conn:
        staged = conn.execute("SELECT s.target_listing_id, s.match_method FROM staging.listings s "
                              "JOIN public.dmos d ON d.id = s.dmo_id WHERE d.slug = 'guide-b'").fetchone()
    assert staged == (listing, "fuzzy")


def test_the_keys_of_an_edited_listing_follow_it(database):
    with database.connect() as conn:
        location = conn.execute("INSERT INTO public.locations (address1, city) VALUES ('5 Water St', 'Souris') "
                                "RETURNING id").fetchone()[0]
        listing = conn.execute("INSERT INTO public.listings (name, location_id) VALUES ('Blue Heron Inn', %s) "
                               "RETURNING id", (location,)).fetchone()[0]
        conn.commit()
        probe = [MatchRecord(1, "Harbour House", "5 Water Street", "Somewhere Else")]
        assert [c.id for c in fuzzy_candidates(conn, probe)] == [listing]  # by street and number
        conn.execute("UPDATE public.locations SET address1 = '77 Main St' WHERE id = %s", (location,))
        conn.commit()
        assert fuzzy_candidates(conn, probe) == []
        moved = [MatchRecord(2, "Harbour House", "77 Main St", None)]
        assert [c.id for c in fuzzy_candidates(conn, moved)] == [listing]
        keyed = conn.execute("SELECT count(*) FROM pipeline.listing_match_keyed WHERE listing_id = %s",
                             (listing,)).fetchone()[0]
        assert keyed == 1


def test_a_listing_keyed_without_its_form_is_found_with_its_contacts(database):
    """A listing keyed by a release that stored no form: the lookup reads its phone and website."""
    with database.connect() as conn:
        dmo = conn.execute("INSERT INTO public.dmos (slug, name) VALUES ('old', 'Old') RETURNING id").fetchone()[0]
        location = conn.execute("INSERT INTO public.locations (address1, city) VALUES ('5 Water St', 'Souris') "
                                "RETURNING id").fetchone()[0]
        listing = conn.execute("INSERT INTO public.listings (name, location_id) VALUES ('Blue Heron Inn', %s) "
                               "RETURNING id", (location,)).fetchone()[0]
        contact = conn.execute("INSERT INTO public.contact_info (international_phone, website_url) "
                               "VALUES ('+19025550142', 'https://blueheron.example.com') RETURNING id").fetchone()[0]
        conn.execute("INSERT INTO public.listing_info (listing_id, dmo_id, contact_info_id) VALUES (%s, %s, %s)",
                     (listing, dmo, contact))
        conn.commit()
        assert match_keys.refresh(conn) == 1
        conn.execute("UPDATE pipeline.listing_match_keyed SET form = NULL")
        conn.commit()
        [found] = fuzzy_candidates(conn, [MatchRecord(1, "Heron Inn", None, None, None, "902-555-0142")])
        assert (found.id, found.form, found.phone, found.website) == \
            (listing, None, "+19025550142", "https://blueheron.example.com")
        [found] = fuzzy_candidates(conn, [MatchRecord(2, "Harbour House", "5 Water Street", "Elsewhere")])
        assert (found.id, found.phone) == (listing, "+19025550142")
