"""Unit tests for sadie_pipeline.core.enrichment.layers: bit values, helpers, "enriched" for tier 1,
and the e-mail verification dependency."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment import layers as L
from sadie_pipeline.core.hotel_status import HotelStatus


def test_seed_bits_keep_their_values_and_new_layers_take_free_bits():
    assert (L.LAYER_RDAP, L.LAYER_WHOIS_HISTORY, L.LAYER_DNS, L.LAYER_WEBSITE, L.LAYER_REVIEWS,
            L.LAYER_EMAIL_VERIFY) == (1, 2, 4, 8, 16, 32)
    assert (L.LAYER_GOV_DATA, L.LAYER_CT_CERTS, L.LAYER_ABN_ASIC) == (64, 128, 256)
    assert (L.LAYER_CC_HARVEST, L.LAYER_CC_CONTACTS, L.LAYER_GMAPS_ENRICH, L.LAYER_LEAD_SCORE) == (512, 1024, 2048, 4096)
    assert (L.LAYER_ROOM_COUNT, L.LAYER_PROXIMITY, L.LAYER_RESEARCH) == (8192, 16384, 32768)
    bits = list(L.ALL_LAYERS.values())
    assert len(set(bits)) == len(bits)
    assert all(b & (b - 1) == 0 for b in bits)  # one bit each
    assert L.LAYER_WHOIS == 1 << 16  # port-43 WHOIS: the next free bit
    assert L.KNOWN_MASK == (1 << 17) - 1


def test_has_add_and_missing_layers():
    done = L.add_layers(0, L.LAYER_DNS, "website")
    assert done == 12
    assert L.has_layer(done, L.LAYER_DNS)
    assert L.has_layer(done, [L.LAYER_DNS, L.LAYER_WEBSITE])
    assert not L.has_layer(done, L.LAYER_DNS | L.LAYER_RDAP)  # every bit of the mask is required
    assert L.add_layers(done, L.LAYER_DNS) == done  # idempotent
    assert L.missing_layers(done, L.LAYER_RDAP | L.LAYER_DNS | L.LAYER_WEBSITE | L.LAYER_EMAIL_VERIFY) \
        == L.LAYER_RDAP | L.LAYER_EMAIL_VERIFY
    assert L.missing_layers(None, "room_count") == L.LAYER_ROOM_COUNT
    assert L.layer_names(L.missing_layers(done, L.OWNER_LAYERS)) == [
        "rdap", "whois_history", "reviews", "email_verify", "gov_data", "ct_certs", "abn_asic", "cc_harvest",
        "cc_contacts", "gmaps_enrich", "whois"]


def test_layer_names_and_masks_round_trip_and_report_unknown_bits():
    assert L.layer_mask(["proximity", "research", L.LAYER_RDAP]) == L.LAYER_PROXIMITY | L.LAYER_RESEARCH | 1
    assert L.layer_names(L.STAGE3_LAYERS) == ["room_count", "proximity", "research"]
    assert L.layer_names(1 << 20 | 1) == ["rdap", "bit_20"]
    with pytest.raises(ValueError, match="unknown layer"):
        L.layer_mask("whois_port_43")
    with pytest.raises(ValueError):
        L.add_layers(-1, L.LAYER_DNS)
    with pytest.raises(TypeError):
        L.has_layer(True, L.LAYER_DNS)


def test_tier1_is_enriched_only_with_stage3_layers_and_checked_contacts():
    assert L.required_layers(1) == L.LAYER_ROOM_COUNT | L.LAYER_PROXIMITY | L.LAYER_RESEARCH | L.LAYER_EMAIL_VERIFY
    assert L.required_layers(2) == 0
    owner_done = L.OWNER_LAYERS
    assert not L.is_enriched(owner_done | L.LAYER_ROOM_COUNT | L.LAYER_PROXIMITY, tier=1)
    # scoring needs the contacts and their e-mails: a hotel without them waits (seed 001's DAG)
    assert not L.is_enriched(L.STAGE3_LAYERS, tier=1)
    assert L.is_enriched(L.STAGE3_LAYERS | L.LAYER_EMAIL_VERIFY, tier=1)
    assert not L.is_enriched(L.KNOWN_MASK, tier=2)  # tier 2 is scored from status 1 (DETECTED), never "enriched"


def test_enrichment_status_moves_detected_tier1_hotels_to_3_only():
    detected, enriched, scored = HotelStatus.DETECTED, HotelStatus.ENRICHED, HotelStatus.SCORED
    done = L.STAGE3_LAYERS | L.LAYER_EMAIL_VERIFY
    assert L.enrichment_status(detected, done, tier=1) == enriched
    assert L.enrichment_status(detected, L.STAGE3_LAYERS, tier=1) == detected
    assert L.enrichment_status(detected, done, tier=2) == detected
    assert L.enrichment_status(scored, done, tier=1) == scored  # a scored hotel is not moved back


def test_email_verification_waits_for_every_contact_source_and_dns():
    assert L.missing_dependencies(L.LAYER_EMAIL_VERIFY, 0) == L.CONTACT_LAYERS | L.LAYER_DNS
    assert not L.can_run("email_verify", L.LAYER_WEBSITE | L.LAYER_DNS)  # the other contact sources too
    assert not L.can_run("email_verify", L.CONTACT_LAYERS)
    assert L.can_run("email_verify", L.CONTACT_LAYERS | L.LAYER_DNS)
    assert L.can_run(L.LAYER_RDAP, 0)
    assert not L.can_run("whois_history", L.LAYER_RDAP)  # the archive is the fallback of both current records
    assert L.can_run("whois_history", L.LAYER_RDAP | L.LAYER_WHOIS)
    assert not L.can_run("cc_contacts", 0) and L.can_run("cc_contacts", L.LAYER_CC_HARVEST)


def test_needs_run_skips_completed_layers_unless_force_refresh():
    done = L.CONTACT_LAYERS | L.LAYER_DNS | L.LAYER_EMAIL_VERIFY
    assert not L.needs_run(L.LAYER_DNS, done)
    assert L.needs_run(L.LAYER_DNS, done, force_refresh=True)
    assert L.needs_run(L.LAYER_CT_CERTS, done)
    # a refresh still respects dependencies
    assert not L.needs_run(L.LAYER_EMAIL_VERIFY, L.LAYER_EMAIL_VERIFY, force_refresh=True)


def test_runnable_layers_is_the_seed_chaining_rule():
    wanted = L.OWNER_LAYERS | L.STAGE3_LAYERS
    first = L.runnable_layers(0, wanted)
    assert not first & L.LAYER_EMAIL_VERIFY
    waiting = L.LAYER_EMAIL_VERIFY | L.LAYER_WHOIS_HISTORY | L.LAYER_CT_CERTS | L.LAYER_CC_CONTACTS
    assert first == wanted & ~waiting
    after = L.LAYER_DNS | L.CONTACT_LAYERS
    assert L.runnable_layers(after, [L.LAYER_EMAIL_VERIFY, L.LAYER_DNS]) == L.LAYER_EMAIL_VERIFY
    assert L.runnable_layers(after, [L.LAYER_DNS], force_refresh=True) == L.LAYER_DNS
