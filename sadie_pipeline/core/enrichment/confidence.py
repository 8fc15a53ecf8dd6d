"""Confidence of a decision maker / contact (seed 001, "Confidence Scoring Model").

``confidence = BASE_CONFIDENCE[source] + sum(modifiers)``, clamped to [0, 1]. Source priority is
encoded here rather than in SQL (seed: "Encode source priority into confidence scores at the
layer level"), so the GREATEST merge rule (``merge``) keeps the best-sourced value.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["BASE_CONFIDENCE", "CONFIDENCE_MODIFIERS", "DEFAULT_BASE", "contact_confidence"]

BASE_CONFIDENCE: Mapping[str, float] = {
    "gov_registry": 0.95,
    "asic_director": 0.90,
    "abn_lookup": 0.85,
    "rdap": 0.75,
    # this platform: port-43 WHOIS is the same registry record as RDAP; a certificate's organisation
    "whois": 0.75,
    "website_scrape": 0.70,
    "whois_history": 0.65,
    "review_response": 0.55,
    "llm_extract": 0.50,
    "cc_harvest": 0.45,
    # this platform: a person named by the research layer (Claude) is an LLM extraction
    "research": 0.50,
    "email_pattern_guess": 0.30,
    "ct_certs": 0.60,
}
DEFAULT_BASE = 0.40

CONFIDENCE_MODIFIERS: Mapping[str, float] = {
    "email_verified_o365": +0.20,
    "email_verified_smtp": +0.15,
    "multiple_sources": +0.10,
    "stale_data": -0.15,
    "first_name_only": -0.30,
    "generic_title": -0.10,
}


def contact_confidence(source: str, *, email_verified_o365: bool = False, email_verified_smtp: bool = False,
                       multiple_sources: bool = False, stale_data: bool = False, first_name_only: bool = False,
                       generic_title: bool = False) -> float:
    """The seed's base confidence of `source` (``DEFAULT_BASE`` for an unknown one) with every
    applicable modifier, clamped to [0, 1] and rounded to 2 decimals."""
    value = BASE_CONFIDENCE.get(source, DEFAULT_BASE)
    flags = {
        "email_verified_o365": email_verified_o365,
        "email_verified_smtp": email_verified_smtp and not email_verified_o365,  # one verification counts once
        "multiple_sources": multiple_sources,
        "stale_data": stale_data,
        "first_name_only": first_name_only,
        "generic_title": generic_title,
    }
    value += sum(CONFIDENCE_MODIFIERS[name] for name, on in flags.items() if on)
    return round(min(1.0, max(0.0, value)), 2)
