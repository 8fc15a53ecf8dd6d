"""Booking-engine detection for hotel websites (seed 000, "Stage 2: Detect"), as pure logic.

No Dagster, no network. Given what a fetch saw (the final URL, the HTML and, when a browser was
used, the request URLs, cookies and JS globals it observed) tell which booking engine(s) the
hotel uses, with the best booking URL, how it was found and how sure we are; which third-party
booking hosts the catalogue does not know; whether the page needs a browser; and its text.

Modules: `catalogue` (the JSON data file and its lookup tables), `page` (one parsed page),
`scan` (evidence per engine), `javascript` (the render decision, visible text), `unknown`
(uncatalogued engines behind links, frames and forms), `widgets` (behind scripts and injected
widgets), `script_hosts` (hosts that are never an engine, engine families), `booking_words` (booking
words beyond English), `client_ids` (a property's id at its engine), `domains` (registrable domains,
non-engine hosts), `analysis` (entry points). A typical 100 KB page costs a few ms of CPU, most of it the lexbor parse.
"""

from sadie_pipeline.core.booking.analysis import PageAnalysis, analyze, detect, needs_javascript
from sadie_pipeline.core.booking.catalogue import (
    CATALOGUE_RESOURCE,
    LODGING_CATEGORIES,
    BookingEngine,
    BookingUrlRule,
    engine_by_name,
    load_catalogue,
    non_engine_hosts,
)
from sadie_pipeline.core.booking.domains import is_non_engine_host, registrable_domain
from sadie_pipeline.core.booking.javascript import TEXT_MAX_BYTES, strip_to_text
from sadie_pipeline.core.booking.scan import METHODS, Detection
from sadie_pipeline.core.booking.unknown import UNKNOWN_TIER, UnknownEngine

__all__ = [
    "CATALOGUE_RESOURCE",
    "LODGING_CATEGORIES",
    "METHODS",
    "TEXT_MAX_BYTES",
    "UNKNOWN_TIER",
    "BookingEngine",
    "BookingUrlRule",
    "Detection",
    "PageAnalysis",
    "UnknownEngine",
    "analyze",
    "detect",
    "engine_by_name",
    "is_non_engine_host",
    "load_catalogue",
    "needs_javascript",
    "non_engine_hosts",
    "registrable_domain",
    "strip_to_text",
]
