"""A property's client id at its booking engine, read from a booking URL (seed 001, entity
resolution stage 2: the same engine and the same client id is the same hotel).

The catalogue's `client_ids` regexes say where each engine keeps it (`hotels.cloudbeds.com/
reservation/{code}`, `bookings*.rmscloud.com/.../{id}`, `direct-book.com/properties/{code}`...).
Ids compare case-insensitively: engines print them in either case in links.
"""

from __future__ import annotations

from dataclasses import dataclass

from sadie_pipeline.core.booking.catalogue import host_of, index


@dataclass(frozen=True, slots=True)
class ClientId:
    engine: str  # the catalogue name
    client_id: str  # lower-cased

    @property
    def key(self) -> str:
        return f"{self.engine.lower()}\x00{self.client_id}"


def client_id_of(url: str | None, engine: str | None = None) -> ClientId | None:
    """The (engine, client id) a booking URL names, or None. `engine`: the engine detection
    found, when known (its patterns are tried first); otherwise the URL's host decides."""
    if not url:
        return None
    lowered = url.strip().lower()
    idx = index()
    engines = []
    if engine and (known := idx.by_name.get(engine.lower())) is not None:
        engines.append(known)
    hit = idx.classify(lowered, True, host_of(lowered))
    if hit is not None and hit[1] > 0:
        engines.append(idx.engines[hit[0]])
    for candidate in engines:
        for rule in candidate.client_ids:
            m = rule.search(url)
            if m and m.group("id"):
                return ClientId(candidate.name, m.group("id").strip().lower())
    return None
