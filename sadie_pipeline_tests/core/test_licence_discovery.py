"""A licence as a discovery record: open licences only, registers' capitals recased, rows a
register file cannot give kept for job_errors."""

from __future__ import annotations

from sadie_pipeline.core.licence_discovery import display_case, is_active, source_row
from sadie_pipeline.core.licences import RegistryConfig, parse_register


def test_closed_licences_are_not_leads():
    assert all(is_active(s) for s in ("Current", "", None, "Delinquent", "ACTIVE"))
    assert not any(is_active(s) for s in ("Closed", "INACTIVE", " null  and void ", "Revoked"))


def test_shouted_texts_are_recased_others_kept():
    assert display_case("SEA BREEZE MOTEL OF KEY WEST") == "Sea Breeze Motel of Key West"
    assert display_case("1200 NE 1ST AVE") == "1200 NE 1st Ave"
    assert display_case("MCKINLEY B&B LLC") == "McKinley B&B LLC"
    assert display_case("The Palms of Naples") == "The Palms of Naples" and display_case(None) is None


def test_a_licence_as_a_source_row():
    external_id, record, raw = source_row("fl_dbpr_lodging", "HTL123", "MOTL", "SEA BREEZE MOTEL", "SB LLC",
                                          "12 DUVAL ST", "KEY WEST", "FL", "33040", "", "https://x/hrlodge1.csv")
    assert (external_id, raw) == ("fl_dbpr_lodging:HTL123", "https://x/hrlodge1.csv")
    assert record == {"name": "Sea Breeze Motel", "address": "12 Duval St", "city": "Key West", "state": "FL",
                      "zip": "33040", "phone": None, "licence_number": "HTL123", "licence_type": "MOTL",
                      "registry": "fl_dbpr_lodging"}
    assert source_row("r", "1", None, None, "OWNER INC", "1 A ST", None, None, None, None, None)[1]["name"] == \
        "Owner Inc"


def test_unreadable_rows_are_kept_with_their_content():
    config = RegistryConfig(id="xx_test", region="US-FL", urls=["https://x/f.csv"],
                            columns={"licence_number": "No", "business_name": "Name", "address": "Street"})
    body = "\ufeffNo,Name,Street\r\n1,Inn,1 A St\r\n2,Motel,\r\n3\r\n\r\n4,Lodge,4 B St\r\n".encode()
    parsed = parse_register(config, body, "https://x/f.csv")
    assert [r.licence_number for r in parsed.records] == ["1", "4"] and parsed.rejected == 2
    assert [(p.rec_num, p.cells) for p in parsed.problems] == [(2, ["2", "Motel", ""]), (3, ["3"])]
    assert "no address" in parsed.problems[0].reason and "no address, name" in parsed.problems[1].reason


def test_a_source_record_is_cleaned_on_its_way_in():
    from sadie_pipeline.core.source_records import clean_source_record

    record = {"name": "  Sea\x00Breeze\tMotel ", "address": "1 Ocean Dr" + "x" * 600, "city": "Key West",
              "website": "https://seabreeze.example/", "licence_number": "HOT1"}
    assert clean_source_record(record) == {"name": "  SeaBreeze\tMotel ", "address": None, "city": "Key West",
                                           "website": "https://seabreeze.example/", "licence_number": "HOT1"}
    assert clean_source_record({"name": " -- "}) is None and clean_source_record({"name": None}) is None
