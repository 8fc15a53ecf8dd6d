"""The statuses of ``sadie_gtm.hotels.status`` (seed 000's stages; ``DUPLICATE`` from seed 001) and
the sets of them the queries select by.

The numbers are stored data: changing one is a migration. The view ``sadie_gtm.hotel_pipeline_status``
(sql/0005_golden_scoring.sql) spells the same numbers as literals in its CASE.

Pass them to SQL as parameters, never formatted into the text: a member as ``%s``, a set as
``status = ANY(%s)`` with ``list(SET)`` (psycopg sends IntEnum members as integers).
"""

from __future__ import annotations

import enum

__all__ = [
    "DETECTED_OR_ENRICHED",
    "DETECTED_OR_LATER",
    "ENRICHED_OR_LATER",
    "LAUNCHED",
    "SCORED_OR_LATER",
    "HotelStatus",
]


class HotelStatus(enum.IntEnum):
    """Where a hotel is in the lead pipeline. The gap at 2 and the 99 are seed 000's numbering; 98 sits
    beside the dead end it replaces for hotels whose engine is not catalogued yet."""

    DUPLICATE = -3
    """Merged into an older hotel by entity resolution; out of the pipeline."""
    SCRAPED = 0
    """Discovered and resolved; its website is not analysed yet."""
    DETECTED = 1
    """A booking engine was found on its website: enrichment (tier 1) or scoring (tier 2) next."""
    ENRICHED = 3
    """A tier 1 hotel whose required enrichment layers are complete; waiting for its score."""
    SCORED = 4
    """Has a 0-100 lead score; the daily launch decides whether it goes live."""
    LIVE = 5
    """Met the launch criteria; the next export writes it out."""
    EXPORTED = 6
    """Live and written to an exported workbook."""
    ENGINE_REVIEW = 98
    """Its website books through a third-party host the catalogue does not know (an unknown
    engine, recorded with its host): waits for review and is detected again on the next run."""
    NO_BOOKING_ENGINE = 99
    """No booking engine found on its website: a dead end."""


#: Past detection, with a booking engine (not merged away, not a dead end).
DETECTED_OR_LATER = (HotelStatus.DETECTED, HotelStatus.ENRICHED, HotelStatus.SCORED, HotelStatus.LIVE,
                     HotelStatus.EXPORTED)
#: Between detection and scoring: layers still accumulate; scoring moves them to SCORED.
DETECTED_OR_ENRICHED = (HotelStatus.DETECTED, HotelStatus.ENRICHED)
#: Enrichment complete (or skipped, for tier 2 hotels already scored).
ENRICHED_OR_LATER = (HotelStatus.ENRICHED, HotelStatus.SCORED, HotelStatus.LIVE, HotelStatus.EXPORTED)
#: Has a score; launched and exported hotels keep theirs.
SCORED_OR_LATER = (HotelStatus.SCORED, HotelStatus.LIVE, HotelStatus.EXPORTED)
#: Gone live, exported or not: what the export files hold.
LAUNCHED = (HotelStatus.LIVE, HotelStatus.EXPORTED)
