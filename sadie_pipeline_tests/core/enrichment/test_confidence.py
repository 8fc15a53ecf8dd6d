"""Unit tests for sadie_pipeline.core.enrichment.confidence: the seed's base values and modifiers."""

from __future__ import annotations

from sadie_pipeline.core.enrichment.confidence import BASE_CONFIDENCE, DEFAULT_BASE, contact_confidence


def test_base_confidence_orders_sources_like_the_seed():
    order = ["gov_registry", "asic_director", "abn_lookup", "rdap", "website_scrape", "whois_history",
             "review_response", "llm_extract", "cc_harvest"]
    values = [BASE_CONFIDENCE[s] for s in order]
    assert values == sorted(values, reverse=True)
    assert contact_confidence("website_scrape") == 0.7
    assert contact_confidence("rdap") == 0.75
    assert contact_confidence("somewhere_new") == DEFAULT_BASE


def test_modifiers_add_up_and_clamp():
    assert contact_confidence("website_scrape", first_name_only=True) == 0.4
    assert contact_confidence("website_scrape", generic_title=True) == 0.6
    assert contact_confidence("review_response", first_name_only=True, generic_title=True) == 0.15
    assert contact_confidence("gov_registry", email_verified_o365=True, multiple_sources=True) == 1.0
    assert contact_confidence("cc_harvest", first_name_only=True, stale_data=True, generic_title=True) == 0.0


def test_one_verification_counts_once():
    both = contact_confidence("website_scrape", email_verified_o365=True, email_verified_smtp=True)
    assert both == contact_confidence("website_scrape", email_verified_o365=True) == 0.9
    assert contact_confidence("website_scrape", email_verified_smtp=True) == 0.85
