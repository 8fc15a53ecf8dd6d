"""Enrichment layers and the ``layers_completed`` bitmask (seed 001, "Partial Results and
Incremental Enrichment"; seed 000, "Stage 3: Enrich").

A layer's bit is set once the layer has *run to completion* for a hotel, whether or not it found
anything (a page with no room count still completes ``LAYER_ROOM_COUNT``), so a hotel can reach
"enriched" and the re-enrichment query ``layers_completed & :mask = 0`` does not retry it forever.
Bits only accumulate (``layers_completed | :new``, see ``merge``); a refresh re-runs a layer
without clearing its bit (``needs_run(..., force_refresh=True)``).

Bit assignments. 1-256 are the seed's existing owner layers, 512-4096 the seed's proposed ones
(kept reserved with the same values so rows stay comparable with the seed's SQL), and this
platform's three Stage 3 layers take the next free bits:

=====================  ======  ==============================================================
constant               bit     layer
=====================  ======  ==============================================================
LAYER_RDAP             1       RDAP registrant / registrar (``rdap``)
LAYER_WHOIS_HISTORY    2       historical WHOIS (fallback when RDAP is privacy-protected)
LAYER_DNS              4       MX / SPF / DMARC, e-mail provider (``dns_email``)
LAYER_WEBSITE          8       website contacts: contact/about/team pages (``contacts``)
LAYER_REVIEWS          16      review responses (names of managers answering reviews)
LAYER_EMAIL_VERIFY     32      e-mail verification (``email_verify``); needs WEBSITE + DNS
LAYER_GOV_DATA         64      government lodging licences
LAYER_CT_CERTS         128     certificate transparency (organisation names)
LAYER_ABN_ASIC         256     Australian business / company registers
LAYER_CC_HARVEST       512     Common Crawl HTML (seed: proposed)
LAYER_CC_CONTACTS      1024    contacts extracted from Common Crawl (seed: proposed)
LAYER_GMAPS_ENRICH     2048    Google Maps details (seed: proposed)
LAYER_LEAD_SCORE       4096    composite scoring (seed: proposed)
LAYER_ROOM_COUNT       8192    room count, Groq or regex fallback (``room_count``) - new
LAYER_PROXIMITY        16384   proximity to DMO attractions (``proximity``) - new
LAYER_RESEARCH         32768   property type / chain / management / amenities (``research``) - new
LAYER_WHOIS            65536   WHOIS over port 43, registry referral followed (``whois_owner``) - new
=====================  ======  ==============================================================

Every reserved bit of the seed now has a layer (issue 31): WHOIS history (the Wayback Machine's
archived WHOIS pages), reviews (Serper's review replies), government lodging licences, certificate
transparency (crt.sh), ABN Lookup and ASIC, Common Crawl (harvest and contacts) and Google Maps details.
LAYER_LEAD_SCORE stays reserved: scoring is its own asset and status (4, SCORED).

"Enriched" (``HotelStatus.ENRICHED``, 3, seed 000): a tier 1 hotel is enriched when the three Stage 3 jobs
(room count, proximity, research) and e-mail verification have completed: ``ENRICHED_REQUIRED``.
The seed's scoring needs "contacts + emails + booking engine + room count": e-mail verification
runs only after every contact source and DNS (``DEPENDENCIES``), so its bit means the contacts are
in and their addresses checked. A hotel missing one waits and is scored later, never scored low.
A layer's bit is set when it ran, found or not, so an empty source never holds a hotel back.
Tier 2 hotels skip enrichment (required mask 0; they go to scoring with status 1, ``HotelStatus.DETECTED``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sadie_pipeline.core.hotel_status import HotelStatus

__all__ = [
    "ALL_LAYERS",
    "DEPENDENCIES",
    "ENRICHED_REQUIRED",
    "KNOWN_MASK",
    "LAYER_ABN_ASIC",
    "LAYER_CC_CONTACTS",
    "LAYER_CC_HARVEST",
    "LAYER_CT_CERTS",
    "LAYER_DNS",
    "LAYER_EMAIL_VERIFY",
    "LAYER_GMAPS_ENRICH",
    "LAYER_GOV_DATA",
    "LAYER_LEAD_SCORE",
    "LAYER_PROXIMITY",
    "LAYER_RDAP",
    "LAYER_RESEARCH",
    "LAYER_REVIEWS",
    "LAYER_ROOM_COUNT",
    "LAYER_WEBSITE",
    "LAYER_WHOIS",
    "LAYER_WHOIS_HISTORY",
    "CONTACT_LAYERS",
    "OWNER_LAYERS",
    "STAGE3_LAYERS",
    "add_layers",
    "can_run",
    "enrichment_status",
    "has_layer",
    "is_enriched",
    "layer_mask",
    "layer_names",
    "missing_dependencies",
    "missing_layers",
    "needs_run",
    "required_layers",
    "runnable_layers",
]

LAYER_RDAP = 1 << 0
LAYER_WHOIS_HISTORY = 1 << 1
LAYER_DNS = 1 << 2
LAYER_WEBSITE = 1 << 3
LAYER_REVIEWS = 1 << 4
LAYER_EMAIL_VERIFY = 1 << 5
LAYER_GOV_DATA = 1 << 6
LAYER_CT_CERTS = 1 << 7
LAYER_ABN_ASIC = 1 << 8
LAYER_CC_HARVEST = 1 << 9
LAYER_CC_CONTACTS = 1 << 10
LAYER_GMAPS_ENRICH = 1 << 11
LAYER_LEAD_SCORE = 1 << 12
LAYER_ROOM_COUNT = 1 << 13
LAYER_PROXIMITY = 1 << 14
LAYER_RESEARCH = 1 << 15
LAYER_WHOIS = 1 << 16

#: Layer name (as written in metadata, run config and logs) -> bit, in bit order.
ALL_LAYERS: Mapping[str, int] = {
    "rdap": LAYER_RDAP,
    "whois_history": LAYER_WHOIS_HISTORY,
    "dns": LAYER_DNS,
    "website": LAYER_WEBSITE,
    "reviews": LAYER_REVIEWS,
    "email_verify": LAYER_EMAIL_VERIFY,
    "gov_data": LAYER_GOV_DATA,
    "ct_certs": LAYER_CT_CERTS,
    "abn_asic": LAYER_ABN_ASIC,
    "cc_harvest": LAYER_CC_HARVEST,
    "cc_contacts": LAYER_CC_CONTACTS,
    "gmaps_enrich": LAYER_GMAPS_ENRICH,
    "lead_score": LAYER_LEAD_SCORE,
    "room_count": LAYER_ROOM_COUNT,
    "proximity": LAYER_PROXIMITY,
    "research": LAYER_RESEARCH,
    "whois": LAYER_WHOIS,
}
_NAMES = {bit: name for name, bit in ALL_LAYERS.items()}
KNOWN_MASK = sum(ALL_LAYERS.values())

#: Seed 000's three parallel Stage 3 jobs.
STAGE3_LAYERS = LAYER_ROOM_COUNT | LAYER_PROXIMITY | LAYER_RESEARCH
#: The layers that name people or give their addresses (e-mail verification checks what they found).
CONTACT_LAYERS = (LAYER_RDAP | LAYER_WHOIS | LAYER_WHOIS_HISTORY | LAYER_WEBSITE | LAYER_REVIEWS | LAYER_GOV_DATA
                  | LAYER_ABN_ASIC | LAYER_CC_CONTACTS)
#: The owner/contact layers of seed 001 this platform runs (every one the seed names).
OWNER_LAYERS = (CONTACT_LAYERS | LAYER_DNS | LAYER_EMAIL_VERIFY | LAYER_CT_CERTS | LAYER_CC_HARVEST
                | LAYER_GMAPS_ENRICH)
#: What a tier 1 hotel needs for status 3 (ENRICHED): the seed's scoring inputs (room count,
#: contacts and their e-mails; the engine it has already) and the Stage 3 jobs.
ENRICHED_REQUIRED = STAGE3_LAYERS | LAYER_EMAIL_VERIFY

#: layer -> the layers that must have completed before it may run (seed 001's DAG: "Email
#: verification MUST run after both contact discovery and DNS analysis"; WHOIS history is the
#: fallback when the current record is privacy-masked; CT's organisation is cross-referenced with
#: WHOIS; Common Crawl contacts are read from the harvested pages).
DEPENDENCIES: Mapping[int, int] = {
    LAYER_EMAIL_VERIFY: CONTACT_LAYERS | LAYER_DNS,
    LAYER_WHOIS_HISTORY: LAYER_RDAP | LAYER_WHOIS,
    LAYER_CT_CERTS: LAYER_RDAP | LAYER_WHOIS,
    LAYER_CC_CONTACTS: LAYER_CC_HARVEST,
}


def _check(mask: int, what: str = "layer mask") -> int:
    if isinstance(mask, bool) or not isinstance(mask, int):
        raise TypeError(f"{what} must be an int, not {type(mask).__name__}")
    if mask < 0:
        raise ValueError(f"{what} must not be negative: {mask}")
    return mask


def layer_mask(layers: int | str | Iterable[int | str] | None) -> int:
    """One mask from a bit, a layer name (``"dns"``) or any mix of them; None is 0."""
    if layers is None:
        return 0
    if isinstance(layers, str):
        try:
            return ALL_LAYERS[layers.strip().lower()]
        except KeyError:
            raise ValueError(f"unknown layer {layers!r}; known: {', '.join(ALL_LAYERS)}") from None
    if isinstance(layers, int):
        return _check(layers)
    mask = 0
    for layer in layers:
        mask |= layer_mask(layer)
    return mask


def has_layer(completed: int | None, layer: int | str | Iterable[int | str]) -> bool:
    """True when every bit of `layer` is set in `completed` (None counts as nothing done)."""
    want = layer_mask(layer)
    return (_check(completed or 0, "completed") & want) == want


def add_layers(completed: int | None, *layers: int | str) -> int:
    """`completed` with `layers` set (the seed's ``layers_completed | :new_layers``)."""
    return _check(completed or 0, "completed") | layer_mask(layers)


def missing_layers(completed: int | None, required: int | str | Iterable[int | str]) -> int:
    """The bits of `required` not yet in `completed` (0 when nothing is missing)."""
    return layer_mask(required) & ~_check(completed or 0, "completed")


def layer_names(mask: int | None) -> list[str]:
    """The names of the bits in `mask`, in bit order; unknown bits read ``bit_N``."""
    mask = _check(mask or 0)
    names = []
    bit_index = 0
    while mask >> bit_index:
        bit = 1 << bit_index
        if mask & bit:
            names.append(_NAMES.get(bit, f"bit_{bit_index}"))
        bit_index += 1
    return names


def required_layers(tier: int | None) -> int:
    """Layers a hotel of booking-engine `tier` needs for status 3 (ENRICHED): the Stage 3 layers for tier 1,
    none for tier 2 or an unknown tier (seed 000: "Tier 2 hotels skip enrichment")."""
    return ENRICHED_REQUIRED if tier == 1 else 0


def is_enriched(completed: int | None, tier: int | None = 1) -> bool:
    """True when a tier 1 hotel has every layer status 3 (ENRICHED) needs (always False for other
    tiers: they never become "enriched", they are scored straight from status 1, DETECTED)."""
    return tier == 1 and missing_layers(completed, ENRICHED_REQUIRED) == 0


def enrichment_status(current_status: int, completed: int | None, tier: int | None) -> int:
    """The status a detected hotel moves to after a layer finished: ENRICHED (3) when a tier 1
    hotel at DETECTED (1) has all required layers, otherwise `current_status` unchanged."""
    if current_status == HotelStatus.DETECTED and is_enriched(completed, tier):
        return HotelStatus.ENRICHED
    return current_status


def missing_dependencies(layer: int | str, completed: int | None) -> int:
    """The prerequisite layers of `layer` that have not completed yet (0 when it may run)."""
    bit = layer_mask(layer)
    deps = 0
    for one, needs in DEPENDENCIES.items():
        if bit & one:
            deps |= needs
    return missing_layers(completed, deps)


def can_run(layer: int | str, completed: int | None) -> bool:
    """True when every prerequisite of `layer` has completed."""
    return missing_dependencies(layer, completed) == 0


def needs_run(layer: int | str, completed: int | None, force_refresh: bool = False) -> bool:
    """Should `layer` run now for a hotel with `completed`? Its prerequisites must be done, and it
    must not have completed yet unless `force_refresh` (seed 001: "bypasses the bitmask check and
    re-runs a layer even if already completed")."""
    if not can_run(layer, completed):
        return False
    return force_refresh or not has_layer(completed, layer)


def runnable_layers(completed: int | None, wanted: int | str | Iterable[int | str] = KNOWN_MASK,
                    force_refresh: bool = False) -> int:
    """The layers of `wanted` that `needs_run` now (the seed's ``on_enrichment_complete``: once
    DNS and website are done, e-mail verification becomes runnable)."""
    mask = layer_mask(wanted)
    out = 0
    bit_index = 0
    while mask >> bit_index:
        bit = 1 << bit_index
        if mask & bit and needs_run(bit, completed, force_refresh):
            out |= bit
        bit_index += 1
    return out
