"""Review decisions a person can trust, through real imports and promotions: a change that meets a
hand edit approved field by field (the kept fields keep the hand-edited values, a blank staged
field clears nothing), and undo until promotion applies a decision, refused after it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sadie_pipeline.listings import curation
from sadie_pipeline.listings.review import (
    ReviewError,
    approve,
    force_match,
    list_pending,
    reject,
    undo,
    why_not_undone,
)
from sadie_pipeline_tests.listings.helpers import GRILL, SIMPLE_CONFIG, import_file, promote, register, write_csv

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

CONFIG = dict(SIMPLE_CONFIG, promote={"merge_policy": "latest_wins"})  # a blank staged value would clear
UNSURE = {"Name": "Harbourfront Grill Downtown", "Address": "12 Water St", "City": "Charlottetown"}
EDITOR = curation.Editor("pat")


def _edited_by_hand(tmp_path, database, store, instance) -> tuple[int, int]:
    """The grill imported, then its name, coordinates and description edited by hand."""
    register(database, instance, "dmo-a", CONFIG)
    import_file(database, store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL]))
    with database.connect() as conn:
        listing, info = conn.execute("SELECT listing_id, id FROM public.listing_info").fetchone()
        curation.edit_listing(conn, listing, curation.ListingEdit(name="The Grill (our name)", lat=Decimal("46.2339"),
                                                                  lng=Decimal("-63.1256")), EDITOR)
        curation.edit_info(conn, listing, info, curation.InfoEdit(description="Written by a person."), EDITOR)
    return listing, info


def _live(database, listing: int) -> tuple:
    with database.connect() as conn:
        return conn.execute(
            """SELECT l.name, loc.address1, loc.lat, li.description, l.manually_modified, li.manually_modified
                 FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id
                 JOIN public.listing_info li ON li.listing_id = l.id WHERE l.id = %s""", (listing,)).fetchone()


def test_a_change_meeting_a_hand_edit_is_approved_field_by_field(tmp_path, database, local_object_store, instance):
    listing, _ = _edited_by_hand(tmp_path, database, local_object_store, instance)
    changed = dict(GRILL, Name="Harbourfront Grill & Bar", Address="12 Water Street", Description="The DMO's text.")
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "b.csv", [changed]))
    assert _live(database, listing)[0] == "The Grill (our name)"  # nothing applied before a decision
    with database.connect() as conn:
        [row] = list_pending(conn, "dmo-a")
        assert row["review_reason"] == f"listing {listing} was edited by hand"
        with pytest.raises(ReviewError, match="not a field one can keep: colour"):
            approve(conn, [row["id"]], "rita", keep={row["id"]: ["colour"]})
        # keep my name, take their address and description; they send no coordinates
        assert approve(conn, [row["id"]], "rita", keep={row["id"]: ["name"]}) == [row["id"]]
    promote(database, local_object_store, instance, "dmo-a")
    name, address, lat, description, listing_manual, info_manual = _live(database, listing)
    assert (name, address, description) == ("The Grill (our name)", "12 Water Street", "The DMO's text.")
    assert lat == Decimal("46.2339")  # a blank staged latitude proposed nothing: the coordinates stay
    assert (listing_manual, info_manual) == (True, False)  # the kept name is still a hand edit
    with database.connect() as conn:
        kept = conn.execute("SELECT kept_fields FROM pipeline.review_decisions WHERE stage_row_id = %s",
                            (row["id"],)).fetchone()[0]
    assert kept == ["name"]


def test_taking_every_field_clears_the_hand_edit_mark(tmp_path, database, local_object_store, instance):
    listing, _ = _edited_by_hand(tmp_path, database, local_object_store, instance)
    changed = dict(GRILL, Name="Harbourfront Grill & Bar", Description="The DMO's text.")
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "b.csv", [changed]))
    with database.connect() as conn:
        approve(conn, [r["id"] for r in list_pending(conn, "dmo-a")], "rita")
    promote(database, local_object_store, instance, "dmo-a")
    name, _, _, description, listing_manual, info_manual = _live(database, listing)
    assert (name, description, listing_manual, info_manual) == ("Harbourfront Grill & Bar", "The DMO's text.",
                                                                False, False)


def _unsure(tmp_path, database, store, instance) -> dict:
    register(database, instance, "dmo-a", CONFIG)
    register(database, instance, "dmo-b", CONFIG)
    import_file(database, store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL]))
    import_file(database, store, instance, "dmo-b", write_csv(tmp_path / "b.csv", [UNSURE]))
    with database.connect() as conn:
        [row] = list_pending(conn, "dmo-b")
    return row


def _state(database, row_id: int) -> tuple:
    with database.connect() as conn:
        return conn.execute("""SELECT review_status, ok_to_promote, target_listing_id, action, l_action, li_action,
                                      keep_fields FROM staging.listings WHERE id = %s""", (row_id,)).fetchone()


def test_undo_puts_a_decision_back_until_promotion(tmp_path, database, local_object_store, instance):
    row = _unsure(tmp_path, database, local_object_store, instance)
    pending = _state(database, row["id"])
    assert pending[0] == "pending" and pending[2] is not None
    with database.connect() as conn:
        reject(conn, [row["id"]], "rita")  # an unsure match rejected: a new listing instead
    assert _state(database, row["id"])[2:4] == (None, "insert")
    with database.connect() as conn:
        assert undo(conn, [row["id"]], "rita") == [row["id"]]
        assert why_not_undone(conn, [row["id"]]) == {row["id"]: "not decided: it is waiting for review"}
    assert _state(database, row["id"]) == pending  # matched to the listing again, waiting
    with database.connect() as conn:
        listing = conn.execute("SELECT id FROM public.listings").fetchone()[0]
        force_match(conn, row["id"], listing, curation.Editor("rita"))  # matched by hand: certain, approved
        assert conn.execute("SELECT match_method, review_status FROM staging.listings WHERE id = %s",
                            (row["id"],)).fetchone() == ("manual", "approved")
        assert undo(conn, [row["id"]], "rita") == [row["id"]]
        assert conn.execute("SELECT match_method, certainty_score < 0.8, review_reason FROM staging.listings "
                            "WHERE id = %s", (row["id"],)).fetchone() == ("fuzzy", True, row["review_reason"])
        approve(conn, [row["id"]], "rita")
        assert undo(conn, [row["id"]], "rita") == [row["id"]]
        approve(conn, [row["id"]], "vera")
        decisions = conn.execute("SELECT decision, decided_by, undone_by IS NOT NULL FROM pipeline.review_decisions "
                                 "WHERE stage_row_id = %s ORDER BY id", (row["id"],)).fetchall()
    assert decisions == [("rejected", "rita", True), ("force_matched", "rita", True), ("approved", "rita", True),
                         ("approved", "vera", False)]
    promote(database, local_object_store, instance, "dmo-b")
    with database.connect() as conn:
        assert undo(conn, [row["id"]], "rita") == []
        [why] = why_not_undone(conn, [row["id"]]).values()
        assert conn.execute("SELECT count(*) FROM public.listings").fetchone()[0] == 1  # attached, not new
    assert why.startswith("already promoted on ") and why.endswith(" UTC")
    assert _state(database, row["id"])[0] == "approved"
