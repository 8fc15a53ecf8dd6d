"""The exact stages before the place engine (issue 32, item 4): stage 2 (same engine and client id),
stage 3 (same name, town and engine when nothing says two), every merge with its stage; and the
same stages between hotels after detection (core.hotel_matches)."""

from __future__ import annotations

import dataclasses

from sadie_pipeline.core.entity_resolution import MergeStage, SourceRecord, resolve, score_pair
from sadie_pipeline.core.entity_stages import client_key, name_city_engine_key, name_city_key, stage3_eligible
from sadie_pipeline.core.hotel_matches import HotelKeys, plan_matches


def rec(source: str, external_id: str, name: str | None, address: str | None = None, city: str | None = "Key West",
        state: str | None = "FL", *, engine: str | None = None, client_id: str | None = None,
        phone: str | None = None, website: str | None = None) -> SourceRecord:
    return SourceRecord(source, external_id, name, address, city, state, None, phone, website,
                        engine=engine, client_id=client_id)


def same(result, i: int, j: int) -> bool:
    return result.entity_of[i] == result.entity_of[j]


def stages(result) -> dict[tuple[int, int], str]:
    return {(min(i, j), max(i, j)): str(s) for i, j, s in result.merged}


# --- stage 2: client id --------------------------------------------------------------------------

def test_same_engine_and_client_id_is_one_hotel_whatever_the_names_and_addresses_say():
    records = [
        rec("serper", "ChIJsol", "Hotel Sol", "1200 Duval St", engine="Cloudbeds", client_id="AbC123"),
        rec("engine_client", "cloudbeds:abc123", "Sol Hotel Key West - Book Direct", None, engine="cloudbeds",
            client_id="abc123"),
        rec("crawl", "https://solkeywest.test/", "Welcome to Sol", "1200 Duval Street, Key West FL 33040",
            engine="Cloudbeds", client_id="ABC123"),
    ]
    assert score_pair(records[0], records[1]).signals == ("client_id",)
    result = resolve(records)
    assert len(result.entities) == 1
    assert set(stages(result).values()) == {"client_id"} and result.by_stage["client_id"] == 2
    assert result.by_stage["place_engine"] == 0


def test_a_shared_engine_without_a_shared_client_id_proves_nothing():
    records = [rec("serper", "ChIJa", "Coral Reef Inn", "100 Duval St", engine="Cloudbeds", client_id="aaa111"),
               rec("serper", "ChIJb", "Mango Tree Motel", "900 Truman Ave", engine="Cloudbeds", client_id="bbb222")]
    assert len(resolve(records).entities) == 2


def test_two_client_ids_at_one_engine_are_two_hotels_even_when_the_place_engine_is_sure():
    """One phone and website would merge them; two SynXis hotel ids say two hotels: a person looks."""
    a = rec("dmo", "d1", "Harbor Suites", "10 Front St", phone="305-555-0100", website="harborsuites.test",
            engine="Sabre SynXis", client_id="111")
    b = rec("csv", "c1", "Harbor Suites", "10 Front St", phone="305-555-0100", website="harborsuites.test",
            engine="Sabre SynXis", client_id="222")
    result = resolve([a, b])
    assert not same(result, 0, 1)
    assert [(i, j) for i, j, _ in result.review_pairs] == [(0, 1)]
    # another engine's id is no contradiction (a hotel that changed engines)
    c = rec("csv", "c2", "Harbor Suites", "10 Front St", phone="305-555-0100", website="harborsuites.test",
            engine="Cloudbeds", client_id="zzz999")
    assert same(resolve([a, c]), 0, 1)


def test_same_client_id_with_two_google_place_ids_goes_to_a_person():
    a = rec("serper", "ChIJone", "Hotel Sol", "1200 Duval St", engine="Cloudbeds", client_id="abc123")
    b = rec("serper", "ChIJtwo", "Sol Annex", "1300 Duval St", engine="Cloudbeds", client_id="abc123")
    result = resolve([a, b])
    assert not same(result, 0, 1)
    assert [(i, j) for i, j, _ in result.review_pairs] == [(0, 1)]
    why = result.explanations[(0, 1)]
    assert why["stage"] == "client_id" and "two Google place ids" in why["review"]


def test_a_reject_decision_outweighs_a_shared_client_id_and_an_approval_is_stage_decision():
    a = rec("serper", "ChIJsol", "Hotel Sol", engine="Cloudbeds", client_id="abc123")
    b = rec("engine_client", "cloudbeds:abc123", "Sol", engine="Cloudbeds", client_id="abc123")
    c = rec("dmo", "d9", "Casa Azul", "55 Olivia St")
    result = resolve([a, b, c], cannot_link=[(0, 1)], must_link=[(0, 2)])
    assert not same(result, 0, 1) and same(result, 0, 2)
    assert stages(result) == {(0, 2): "decision"} and result.review_pairs == []


# --- stage 3: name + town + engine -----------------------------------------------------------------

def test_same_name_town_and_engine_is_one_hotel_when_nothing_says_two():
    a = rec("serper", "ChIJheron", "The Blue Heron Lodge", "12 Simonton St", engine="Mews")
    b = rec("engine_client", "mews:42", "Blue Heron Lodge Key West", None, engine="mews", client_id="42")
    result = resolve([a, b])
    assert same(result, 0, 1) and stages(result) == {(0, 1): "name_city_engine"}
    assert name_city_key("The Blue Heron Lodge", "Key West") == name_city_key("Blue Heron Lodge Key West", "key west")


def test_chain_outlets_of_one_town_on_one_engine_stay_apart():
    """Two Holiday Inn Express of one town on SynXis: two client ids; and a third record of the name
    on SynXis without a client id or address cannot tell which of them it is."""
    records = [
        rec("serper", "ChIJhie1", "Holiday Inn Express", "3031 N Roosevelt Blvd", engine="Sabre SynXis",
            client_id="11111"),
        rec("serper", "ChIJhie2", "Holiday Inn Express", "1201 Simonton St", engine="Sabre SynXis",
            client_id="22222"),
        rec("engine_client", "synxis:33333", "Holiday Inn Express", None, engine="Sabre SynXis"),
    ]
    result = resolve(records)
    assert len(result.entities) == 3 and result.by_stage["name_city_engine"] == 0


def test_a_name_at_two_addresses_of_the_town_is_a_chains_without_client_ids_too():
    records = [rec("dmo", "d1", "Seaside Inn", "10 Front St", engine="Cloudbeds"),
               rec("dmo", "d2", "Seaside Inn", "900 Truman Ave", engine="Cloudbeds"),
               rec("csv", "c1", "Seaside Inn", None, engine="Cloudbeds")]
    assert resolve(records).by_stage["name_city_engine"] == 0


def test_a_name_on_a_brands_website_is_a_chains_for_stage_3():
    """The serper outlet on ihg.com and a SynXis page of the bare brand name: maybe another outlet."""
    records = [rec("serper", "ChIJcw", "Candlewood Suites Key West", "167 S Atlantic St", engine="Sabre SynXis",
                   website="https://www.ihg.com/candlewoodsuites/hotels/us/en/key-west/ebvcn/hoteldetail"),
               rec("engine_client", "synxis:14854", "Candlewood Suites", None, engine="Sabre SynXis",
                   client_id="14854")]
    assert resolve(records).by_stage["name_city_engine"] == 0


def test_another_engine_or_another_town_is_not_stage_3():
    a = rec("dmo", "d1", "Casa Azul", engine="Cloudbeds")
    b = rec("csv", "c1", "Casa Azul", engine="Little Hotelier")
    c = rec("csv", "c2", "Casa Azul", city="Marathon", engine="Cloudbeds")
    result = resolve([a, b, c])
    assert "name_city_engine" not in stages(result).values()
    assert name_city_engine_key("casa azul", "key west", None) == ""


def test_stage3_eligible_rules():
    assert stage3_eligible([{"mews": "1"}, None], ["", "ChIJx"], [False, False])
    assert not stage3_eligible([{"mews": "1"}, {"mews": "2"}], ["", ""], [False, False])
    assert stage3_eligible([{"mews": "1"}, {"cloudbeds": "2"}], ["", ""], [False, False])
    assert not stage3_eligible([None, None], ["ChIJa", "ChIJb"], [False, False])
    assert not stage3_eligible([None, None], ["", ""], [True, True])
    assert not stage3_eligible([None], [""], [False])
    assert client_key("Cloudbeds", " AbC ") == "cloudbeds\x00abc" and client_key("Cloudbeds", None) == ""


# --- between hotels, after detection ----------------------------------------------------------------

def hotel(hid: int, name: str, *, address: str | None = None, place_id: str | None = None,
          clients: tuple = (), engines: tuple = ()) -> HotelKeys:
    return HotelKeys(hid, name, "Key West", address, place_id, clients, engines or tuple(e for e, _ in clients))


def test_a_newly_detected_client_id_merges_into_the_oldest_hotel_of_that_id():
    hotels = [hotel(3, "Sol Hotel - Book Direct", clients=(("Cloudbeds", "abc123"),)),   # engine client page
              hotel(7, "Hotel Sol", address="1200 Duval St", place_id="ChIJsol", clients=(("Cloudbeds", "ABC123"),)),
              hotel(9, "Mango Tree Motel", clients=(("Cloudbeds", "zzz"),))]
    plan = plan_matches(hotels, new=[7])
    assert [(m.kept, m.a, m.b, str(m.stage), m.client_id) for m in plan.merges] == [(3, 7, 3, "client_id", "abc123")]
    assert plan.duplicates() == {3: [7]}
    assert plan_matches(hotels, new=[9]).merges == []          # nobody else has its id


def test_hotel_matching_respects_decisions_place_ids_and_chains():
    sol = [hotel(3, "Hotel Sol", clients=(("Cloudbeds", "abc123"),)),
           hotel(7, "Hotel Sol", place_id="ChIJsol", clients=(("Cloudbeds", "abc123"),))]
    assert plan_matches(sol, new=[7], separated=[(3, 7)]).merges == []
    twins = [hotel(3, "Sol", place_id="ChIJa", clients=(("Cloudbeds", "abc123"),)),
             hotel(7, "Sol", place_id="ChIJb", clients=(("Cloudbeds", "abc123"),))]
    plan = plan_matches(twins, new=[7])
    assert plan.merges == [] and plan.refused == [(3, 7, MergeStage.CLIENT_ID, "two Google place ids")]
    chain = [hotel(1, "Holiday Inn Express", address="3031 N Roosevelt Blvd", clients=(("Sabre SynXis", "1"),)),
             hotel(2, "Holiday Inn Express", address="1201 Simonton St", engines=("Sabre SynXis",)),
             hotel(4, "Holiday Inn Express", engines=("Sabre SynXis",))]
    assert plan_matches(chain, new=[1, 2, 4]).merges == []
    heron = [hotel(5, "Blue Heron Lodge", engines=("Mews",)),
             hotel(8, "The Blue Heron Lodge", address="12 Simonton St", clients=(("Mews", "42"),))]
    [merge] = plan_matches(heron, new=[8]).merges
    assert (merge.kept, str(merge.stage), merge.engine) == (5, "name_city_engine", "Mews")


def test_hotel_matching_takes_a_brand_website_for_a_chains_name():
    """An outlet on the brand's site and a SynXis page of the bare brand name in one town: which
    outlet the page is of, only its client id can say."""
    outlet = HotelKeys(1, "Candlewood Suites", "Key West", "167 S Atlantic St", None, (), ("Sabre SynXis",),
                       "https://www.ihg.com/candlewoodsuites/hotels/us/en/key-west/ebvcn/hoteldetail")
    page = HotelKeys(2, "Candlewood Suites", "Key West", None, None, (("Sabre SynXis", "14854"),), ("Sabre SynXis",))
    assert plan_matches([outlet, page], new=[1, 2]).merges == []
    own_site = dataclasses.replace(outlet, website="https://candlewoodkeywest.test/")
    assert len(plan_matches([own_site, page], new=[2]).merges) == 1
