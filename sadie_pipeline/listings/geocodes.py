"""Geocodes of the listings a DMO shows that have no coordinates (asset `listing_geocodes`, after
promotion). Each location is geocoded by its normalised address (core.geocode.address_key):

* an address asked before is answered by `pipeline.geocode_cache` (found or not: no second call);
* an address whose last outcome settled it (no such address, only a town-level match, no street
  line) is not asked again until the address changes; a failed call is tried again by the next
  runs, `max_attempts` runs in all, then left until the address changes;
* the coordinates go to `public.locations` (where it still has none), and each location's outcome
  with its reason to `pipeline.location_geocodes`. A failure never touches the listing.

Work is written a batch of addresses at a time (cache, coordinates and outcomes in one
transaction), so a run killed halfway loses at most its batch, and the next run asks only what
is still missing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sadie_pipeline.core.geocode import (
    Address,
    Answer,
    GeocodeStatus,
    Precision,
    address_key,
    query_text,
)
from sadie_pipeline.listings.geocoder import GeocoderResource
from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.reliability import ItemOutcome, run_items

PREVIEW_ROWS = 10
# Settled outcomes that only a new address reopens (a geocoded location whose coordinates a
# promotion cleared is answered again, from the cache).
_NOT_ASKED_AGAIN = frozenset({GeocodeStatus.ZERO_RESULTS, GeocodeStatus.APPROXIMATE, GeocodeStatus.NO_ADDRESS})


@dataclass(frozen=True)
class GeocodeSettings:
    batch_size: int = 100
    max_addresses: int | None = None  # asked of the provider per run; the rest wait for the next run
    accept_approximate: bool = False  # a town-level match written as the listing's position
    max_attempts: int = 3             # runs that ask about an address whose calls fail


@dataclass(frozen=True)
class _Location:
    id: int
    listing_id: int
    name: str | None
    key: str
    query: str
    country: str | None


@dataclass(frozen=True)
class _Outcome:
    status: GeocodeStatus
    reason: str | None = None
    answer: Answer | None = None
    from_cache: bool = False


@dataclass
class GeocodeResult:
    provider: str = ""
    candidates: int = 0          # locations without coordinates
    unchanged: int = 0           # settled earlier for the same address: not asked again
    given_up: int = 0            # of those, failed in max_attempts runs
    from_cache: int = 0          # addresses answered by the cache
    asked: int = 0               # addresses sent to the provider
    left_for_next_run: int = 0   # over max_addresses
    outcomes: Counter[str] = field(default_factory=Counter)   # locations by status, this run
    failures: Counter[str] = field(default_factory=Counter)   # failed addresses by error class
    preview: list[tuple[Any, ...]] = field(default_factory=list)
    skipped: str | None = None   # why nothing was asked


async def geocode_dmo(db: Database, geocoder: GeocoderResource, dmo: Dmo, settings: GeocodeSettings,
                      log: Callable[[str], None] = lambda m: None) -> GeocodeResult:
    """Geocodes the DMO's locations that need it; see the module's docstring."""
    result = GeocodeResult(provider=str(geocoder.resolved_provider()))
    with db.connect() as conn:
        rows = conn.execute(sql("geocodes", "candidates"), {"dmo": dmo.id}).fetchall()
    result.candidates = len(rows)
    todo, no_address = _work(rows, result, settings.max_attempts)
    if no_address:
        _write(db, result, {"": no_address}, {"": _Outcome(GeocodeStatus.NO_ADDRESS, "no street line, or no town "
                                                           "or postal code, to ask with")})
    with db.connect() as conn:
        cached = {r[0]: _cached_answer(r) for r in conn.execute(sql("geocodes", "cached"), {"keys": list(todo)})}
    if cached:
        result.from_cache = len(cached)
        _write(db, result, {k: todo[k] for k in cached},
               {k: _judged(a, settings, from_cache=True) for k, a in cached.items()})
    ask = [k for k in todo if k not in cached]
    if ask and not geocoder.configured():
        result.skipped, result.left_for_next_run = geocoder.not_configured_message(), len(ask)
        return result
    if settings.max_addresses is not None:
        ask, result.left_for_next_run = ask[:settings.max_addresses], max(0, len(ask) - settings.max_addresses)
    for start in range(0, len(ask), settings.batch_size):
        batch = ask[start:start + settings.batch_size]
        outcomes = await run_items(batch, lambda k: geocoder.geocode(todo[k][0].query, country=todo[k][0].country,
                                                                     item_key=k), guard=geocoder.guard())
        result.asked += len(batch)
        _write(db, result, {k: todo[k] for k in batch},
               {o.item_key: _from_call(o, settings, result) for o in outcomes}, new_answers=True)
        log(f"geocoded {result.asked} of {len(ask)} addresses")
    return result


def _work(rows: list[tuple[Any, ...]], result: GeocodeResult,
          max_attempts: int) -> tuple[dict[str, list[_Location]], list[_Location]]:
    """The locations to geocode by address key, and those with nothing to ask with."""
    todo: dict[str, list[_Location]] = {}
    no_address: list[_Location] = []
    for loc_id, listing_id, name, a1, a2, city, state, postal, country, last_key, last_status, attempts in rows:
        address = Address(a1, a2, city, state, postal, country)
        key = address_key(address)
        spent = last_status == GeocodeStatus.FAILED and attempts >= max_attempts
        if last_key == (key or "") and (last_status in _NOT_ASKED_AGAIN or spent):
            result.unchanged += 1
            result.given_up += spent
            continue
        location = _Location(loc_id, listing_id, name, key or "", query_text(address), (country or "").strip() or None)
        if key is None:
            no_address.append(location)
        else:
            todo.setdefault(key, []).append(location)
    return todo, no_address


def _cached_answer(row: tuple[Any, ...]) -> Answer:
    _, status, lat, lng, precision, formatted, place_id = row
    return Answer(status == "found", lat, lng, Precision(precision) if precision else None, formatted, place_id)


def _judged(answer: Answer, settings: GeocodeSettings, *, from_cache: bool = False) -> _Outcome:
    if not answer.found:
        return _Outcome(GeocodeStatus.ZERO_RESULTS, "the provider knows no such address", answer, from_cache)
    if answer.precision is Precision.APPROXIMATE and not settings.accept_approximate:
        where = f" ({answer.formatted_address})" if answer.formatted_address else ""
        return _Outcome(GeocodeStatus.APPROXIMATE, f"only a town-level match{where}", answer, from_cache)
    return _Outcome(GeocodeStatus.GEOCODED, None, answer, from_cache)


def _from_call(outcome: ItemOutcome[Answer], settings: GeocodeSettings, result: GeocodeResult) -> _Outcome:
    if outcome.status == "ok" and outcome.value is not None:
        return _judged(outcome.value, settings)
    error_class = str(outcome.error_class or "skipped")
    result.failures[error_class] += 1
    reason = outcome.reason if outcome.status == "skipped" else f"{error_class}: {outcome.last_error}"
    return _Outcome(GeocodeStatus.FAILED, reason)


def _write(db: Database, result: GeocodeResult, locations: dict[str, list[_Location]],
           outcomes: dict[str, _Outcome], *, new_answers: bool = False) -> None:
    """One transaction: the provider's new definitive answers cached, coordinates, outcomes."""
    cache, coords, rows = [], [], []
    for key, outcome in outcomes.items():
        answer = outcome.answer
        if new_answers and answer is not None:
            first = locations[key][0]
            cache.append((key, first.query, "found" if answer.found else "zero_results", answer.lat, answer.lng,
                          answer.precision, answer.formatted_address, answer.place_id, result.provider))
        for location in locations[key]:
            if outcome.status is GeocodeStatus.GEOCODED and answer is not None:
                coords.append((location.id, answer.lat, answer.lng))
            rows.append((location.id, key, outcome.status, outcome.reason,
                         None if outcome.status is GeocodeStatus.NO_ADDRESS else result.provider, outcome.from_cache))
            result.outcomes[str(outcome.status)] += 1
            if len(result.preview) < PREVIEW_ROWS:
                result.preview.append((location.id, location.listing_id, location.name, location.query,
                                       str(outcome.status), answer.lat if answer else None,
                                       answer.lng if answer else None, outcome.reason))
    with db.connect() as conn:
        if cache:
            conn.execute(sql("geocodes", "save_cache"), dict(zip(
                ("keys", "queries", "statuses", "lats", "lngs", "precisions", "formatted", "place_ids", "providers"),
                map(list, zip(*cache)))))
        if coords:
            conn.execute(sql("geocodes", "write_coordinates"), dict(zip(("ids", "lats", "lngs"), map(list, zip(*coords)))))
        conn.execute(sql("geocodes", "record_outcomes"), dict(zip(
            ("ids", "keys", "statuses", "reasons", "providers", "from_cache"), map(list, zip(*rows)))))


def status_counts(db: Database, dmo: Dmo) -> dict[str, int]:
    """The DMO's locations by their last geocode outcome."""
    with db.connect() as conn:
        return dict(conn.execute(sql("geocodes", "outcome_counts"), {"dmo": dmo.id}).fetchall())
