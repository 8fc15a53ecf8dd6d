"""Listings matching through the place engine (core.matching over core.places): certainty,
vetoes, candidates found whatever the city label, explanations, best-match rules."""

from __future__ import annotations

import json

import pytest

from sadie_pipeline.core.matching import (
    Match,
    MatchRecord,
    better_matches,
    certainty,
    classify,
    listing_keys,
    lookup_keys,
    match_against,
    match_within,
    place_columns,
)
from sadie_pipeline.core.places.address import parse_street
from sadie_pipeline.core.places.form import PlaceForm
from sadie_pipeline.core.places.normal import city_key, name_core, one_typo, state_key

CITY = "Charlottetown"


def street(line: str) -> tuple[str, str, str]:
    parsed = parse_street(line)
    return parsed.number, parsed.name, parsed.type


def rec(id: int, name: str | None, address: str | None, city: str | None = CITY, zip: str | None = None,
        phone: str | None = None, **kw) -> MatchRecord:
    return MatchRecord(id, name, address, city, zip, phone, **kw)


# --- normalisation --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, city, expected", [
    ("The Great George Hotel", "", "great george hotel"),
    ("Palm, The", "", "palm"),
    ("Spago (Los Angeles)", "", "spago"),
    ("Brickhouse Kitchen & Bar", "", "brickhouse kitchen bar"),
    ("Théâtre Café", "", "theatre cafe"),
    ("Seabreeze Inn Orlando", "orlando", "seabreeze inn"),
    ("Days Inn by Wyndham Airport", "", "days inn airport"),
    ("La Quinta Inn", "", "la quinta inn"),
])
def test_name_core(name, city, expected):
    assert name_core(name, city) == expected


def test_addresses_cities_and_states_normalise():
    assert street("58 Great George St., Suite 4") == ("58", "great george", "street")
    assert street("1 N Main Rd") == ("1", "main", "road")
    assert street("100 First Ave") == street("100 1st Avenue")
    assert street("924 Rue Saint-Jean") == ("924", "saint jean", "rue")
    assert street("9b4 rue St-Jean") == ("9b4", "saint jean", "rue")
    assert city_key("New York City") == city_key("NYC") == city_key("Manhattan") == "new york"
    assert city_key("St. Augustine") == city_key("Saint Augustine")
    assert state_key("Québec") == state_key("Quebec") == state_key("QC") == "QC"
    assert one_typo("924", "9b4") and one_typo("12374", "12375") and not one_typo("100", "140 ")


# --- certainty ------------------------------------------------------------------------------------

def test_article_and_street_abbreviation_are_the_same_place():
    a = rec(1, "The Great George Hotel", "58 Great George St")
    b = rec(2, "Great George Hotel", "58 Great George Street")
    assert certainty(a, b) >= 0.8
    assert certainty(a, b) == certainty(b, a)


@pytest.mark.parametrize("a, b", [
    (rec(1, "Spago (Los Angeles)", "176 N Canon Dr", "Beverly Hills", "90210", "310-385-0880"),
     rec(2, "Spago", "176 North Canon Drive", "Los Angeles", "90210", "(310) 385 0880")),
    (rec(1, "Arts Deli", "12224 Ventura Blvd", "Studio City", "91604", "818-762-1221"),
     rec(2, "Arts Delicatessen", "12224 Ventura Blvd.", "Los Angeles", "91604", "818/762-1221")),
    (rec(1, "Palm, The", "9001 Santa Monica Blvd", "W. Hollywood", "90069", "310-550-8811"),
     rec(2, "The Palm", "9001 Santa Monica Blvd.", "Los Angeles", "90069", "310 550 8811")),
])
def test_another_city_label_name_suffix_short_form_or_moved_article_still_match(a, b):
    assert certainty(a, b) >= 0.8
    assert set(lookup_keys([a])) & {k for _, k in listing_keys([b])}  # found as candidates


def test_two_house_numbers_on_one_street_never_auto_match_unless_phone_and_name_identify_the_place():
    a = rec(1, "Water Street Fish", "40 Water St", phone="+19025550142")
    b = rec(2, "Water Street Fish", "52 Water St", phone="+19025550199")
    assert certainty(a, b) < 0.8
    assert all(m.certainty < 0.8 and m.explanation["veto"] == "house_number"
               for m in match_against([a], [b], 0.0, auto_match=0.8))
    assert certainty(a, b._replace(phone=None)) < 0.8
    # phone plus name is an identifier: the place was renumbered, or one guide mistyped it
    same_phone = b._replace(phone="+19025550142")
    [m] = match_against([a], [same_phone], 0.5, auto_match=0.8)
    assert m.certainty >= 0.8 and m.explanation["identified"] == "one place"


def test_a_house_number_one_keystroke_apart_matches_only_when_the_rest_agrees():
    a = rec(1, "Water Street Fish", "40 Water St", phone="+19025550142")
    assert certainty(a, rec(2, "Water Street Fish", "48 Water St", phone="+19025550142")) >= 0.8
    assert certainty(a, rec(2, "Water Street Fish", "48 Water St", phone="+19025550199")) < 0.8
    assert certainty(a, rec(2, "Harbour Grill", "48 Water St", phone="+19025550142")) < 0.5


def test_chain_shops_at_other_addresses_do_not_match():
    a = rec(1, "Tim Hortons", "100 University Ave", phone="+19025550001")
    b = rec(2, "Tim Hortons", "250 Grafton St", phone="+19025550002")
    assert certainty(a, b) < 0.5


def test_a_phone_differing_lowers_the_certainty():
    base = {"name": "Gahan House", "address": "126 Sydney St"}
    same = certainty(rec(1, phone="+19025550142", **base), rec(2, phone="+19025550142", **base))
    unknown = certainty(rec(1, phone=None, **base), rec(2, phone="+19025550142", **base))
    differ = certainty(rec(1, phone="+19025550199", **base), rec(2, phone="+19025550142", **base))
    assert same >= unknown > differ


def test_classify():
    assert classify(0.9, 0.8, 0.5) == "match"
    assert classify(0.8, 0.8, 0.5) == "match"
    assert classify(0.6, 0.8, 0.5) == "review"
    assert classify(0.2, 0.8, 0.5) == "new"


# --- match_against / match_within -------------------------------------------------------------------

def test_match_against_picks_the_best_candidate_and_explains_it():
    probe = rec(1, "Gahan House", "126 Sydney St", phone="+19025550142")
    twin = rec(10, "Gahan House Brewery", "126 Sydney Street", phone="+19025550142")
    other = rec(11, "Gahan House", "5 Water St", phone="+19025550100")
    [m] = match_against([probe], [other, twin], 0.5, auto_match=0.8)
    assert m == Match(1, 10, m.certainty) and m.certainty >= 0.8
    assert m.explanation["phone"]["level"] == "same" and m.explanation["phone"]["weight"] > 0


def test_match_against_respects_min_certainty():
    probe = rec(1, "Gahan House", "126 Sydney St")
    cand = rec(10, "Gahan House", None)
    [m] = match_against([probe], [cand], 0.0)
    assert match_against([probe], [cand], m.certainty + 0.0001) == []
    assert match_against([probe], [], 0.5) == [] and match_against([], [cand], 0.5) == []


def test_match_within_points_later_records_at_the_first_of_their_group():
    records = [rec(1, "Gahan House", "126 Sydney St", phone="+19025550142"),
               rec(2, "Gahan House", "126 Sydney Street", phone="+19025550142"),
               rec(3, "The Gahan House", "126 Sydney St.", phone="+19025550142"),
               rec(4, "Olde Dublin Pub", "131 Sydney St", phone="+19025550199")]
    found = match_within(records, 0.5, auto_match=0.8)
    assert {(m.record_id, m.candidate_id) for m in found} == {(2, 1), (3, 1)}
    assert all(m.explanation for m in found)


def test_a_city_label_alone_never_blocks_candidates():
    """Candidates come from phone, street and number, name words and map cells: a record whose
    city says "New York City" finds a listing in "Brooklyn" with the same phone."""
    a = rec(1, "Peter Luger", "178 Broadway", "New York City", phone="718-387-7400")
    b = rec(2, "Peter Luger Steak House", "178 Broadway", "Williamsburg", phone="(718) 387-7400")
    assert set(lookup_keys([a])) & {k for _, k in listing_keys([b])}
    [m] = match_against([a], [b], 0.5, auto_match=0.8)
    assert m.certainty >= 0.8


def test_a_stored_listing_is_found_by_its_map_cell_from_a_neighbouring_cell():
    # 0.003 degrees a cell: the two points lie about 100 m apart on either side of a cell border
    listing = rec(2, "Quayside Cafe", None, None, lat=46.2329, lng=-63.1299)
    probe = rec(1, "Cafe on the Quay", None, None, lat=46.2331, lng=-63.1299)
    stored = {k for _, k in listing_keys([listing]) if k.startswith("g:")}
    assert len(stored) == 1 and stored & set(lookup_keys([probe]))


def test_stored_forms_match_as_the_text_fields_do():
    """A record's form stored as JSON (the stage's workers) and read back gives the matches and
    explanations its text fields give; a form of another shape (an older release) is computed again."""
    records = [rec(1, "Gahan House (Charlottetown)", "126 Sydney St", phone="+19025550142", lat=46.2329, lng=-63.1299),
               rec(2, "The Gahan House", "126 Sydney Street", "Charlottetown PE", phone="902 555 0142"),
               rec(3, "Olde Dublin Pub", "131 Sydney St", phone="+19025550199", website="https://oldedublinpub.com/menu"),
               rec(4, "Olde Dublin Pub", "131 Sydney Street", website="http://www.oldedublinpub.com")]
    stored = [r._replace(name=None, address1=None, city=None, phone=None, website=None,
                         form=PlaceForm.stored(json.loads(json.dumps(place_columns(r)[0])))) for r in records]
    stored[3] = stored[3]._replace(form=None, name="Olde Dublin Pub", address1="131 Sydney Street",
                                   website="http://www.oldedublinpub.com")
    assert PlaceForm.stored(["too", "short"]) is None
    assert match_within(stored, 0.5) == match_within(records, 0.5)
    assert [m.explanation for m in match_within(stored, 0.5)] == [m.explanation for m in match_within(records, 0.5)]
    assert len(match_within(records, 0.5)) == 2


def test_listing_keys_hold_the_domain_and_the_property_page_but_no_brand_domain():
    brand = {k for _, k in listing_keys([rec(2, "Marriott", None, website="https://www.marriott.com/yyzmc")])}
    keys = {k for _, k in listing_keys([rec(1, "Harbour Inn", None, website="https://www.harbourinn.ca/charlottetown")])}
    assert {"w:harbourinn.ca", "w:harbourinn.ca/charlottetown"} <= keys
    assert "w:marriott.com" not in brand and "w:marriott.com/yyzmc" in brand


def test_candidate_pairs_are_the_pairs_sharing_a_block_key():
    """The index hashes its keys from the fields, without making key strings: it must pair exactly
    the records that share one of block_keys' strings or a map cell, in blocks within their caps."""
    from collections import defaultdict
    from itertools import combinations

    from sadie_pipeline.core.places.form import Place
    from sadie_pipeline.core.places.index import NAME_BLOCK, PlaceIndex

    places = [Place(f"{name} {word}", f"{10 + k % 7} {street}", city, st, None, phone, site,
                    44.0 + (k % 5) * 0.001 if k % 3 else None, -63.0 if k % 3 else None)
              for k, (name, word, street, city, phone, site, st) in enumerate(
                  (n, w, s, c, p, web, st)
                  for n in ("Harbour", "Blue Heron", "Seabreeze")
                  for w in ("Inn", "Cafe", "Grill", "Lodge")
                  for s, c, st in (("Water St", CITY, "PE"), ("Main St", "Souris", "PE"), ("Queen St", "Halifax", "NS"))
                  for p, web in (("902-555-0142", None), (None, "https://heron.example.com"), (None, None)))]
    ix = PlaceIndex(places)
    blocks: dict[str, list[int]] = defaultdict(list)
    for i, rare in enumerate(ix.rare_words()):
        for key in ix.block_keys(i, rare, ()):
            blocks[key].append(i)
    codes, located = ix._cell_codes()
    for code, i in zip(codes.tolist(), located.tolist()):
        blocks[f"cell {code}"].append(i)
    expected = {pair for key, members in blocks.items()
                if len(members) <= (NAME_BLOCK if key.startswith("n:") else ix.max_block)
                for pair in combinations(sorted(set(members)), 2)}
    i, j = ix.candidate_pairs()
    assert set(zip(i.tolist(), j.tolist())) == expected and expected


def test_a_newer_listing_takes_a_matched_record_only_when_it_scores_higher():
    """The stage matched the record to listing 1 (a namesake with another phone); a listing of its
    own place (its phone) scores higher and takes it; the same listing, a certainty equal to the
    stored one (4 places), or a pair for a person, does not."""
    record = MatchRecord(10, "Seaside Grill", "12 Water St", CITY, None, "+19025550199")
    namesake = MatchRecord(1, "Seaside Grill", "12 Water St", CITY, None, "+19025550101")
    own = MatchRecord(2, "The Seaside Grill", "12 Water St", CITY, None, "+19025550199")
    stored = round(certainty(record, namesake), 4)
    [match] = match_against([record], [namesake, own], 0.5, 0.8)
    assert match.candidate_id == 2 and match.certainty > stored
    assert better_matches([match], {10: (1, stored)}) == [match]
    assert better_matches([match], {10: (2, stored)}) == []  # already on it
    assert better_matches([match], {10: (1, round(match.certainty, 4))}) == []
    unsure = Match(10, 2, 0.99, review_reason="shares a phone")
    assert better_matches([unsure], {10: (1, stored)}) == []
