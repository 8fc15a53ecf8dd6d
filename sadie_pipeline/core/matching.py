"""Fuzzy matching of listings through the place engine (core.places): staged records against
listings (match_against) and against each other (match_within).

A record's certainty is the engine's match probability. A pair the engine vetoes never reaches
auto_match: another state, too far apart or unrelated names make it no match at all; two house
numbers on one street or another city label with nothing else in common leave it to a person.
Every match carries its explanation, the fields that agreed or differed and their weights."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from sadie_pipeline.core.places import Place, PlaceIndex, Scored, Veto, paused_gc, score, score_pairs
from sadie_pipeline.core.places.form import PlaceForm, place_form
from sadie_pipeline.core.places.index import nearby_cells, stored_keys


class MatchRecord(NamedTuple):  # a tuple: built from query rows by the hundred thousand, cheaply
    id: int
    name: str | None
    address1: str | None
    city: str | None
    zip: str | None = None
    phone: str | None = None
    state: str | None = None
    website: str | None = None
    lat: float | None = None
    lng: float | None = None
    form: PlaceForm | None = None  # its stored form (place_columns), when it has one

    @classmethod
    def stored(cls, row: Sequence) -> MatchRecord:
        """A record from a query row in this order, its stored form last (a JSON array)."""
        return cls(*row[:10], PlaceForm.stored(row[10]))


@dataclass(frozen=True)
class Match:
    record_id: int
    candidate_id: int
    certainty: float
    explanation: dict = field(default_factory=dict, compare=False)


def _place(r: MatchRecord) -> Place:
    lat = float(r.lat) if r.lat is not None else None
    lng = float(r.lng) if r.lng is not None else None
    return Place(r.name, r.address1, r.city, r.state, r.zip, r.phone, r.website, lat, lng)


def _index(records: Sequence[MatchRecord], keys_only: bool = False) -> PlaceIndex:
    # a record with a stored form is read for its coordinates only: no Place of it (12 MB at 100,000)
    forms = [PlaceForm.stored(r.form) for r in records]
    return PlaceIndex([r if f else _place(r) for r, f in zip(records, forms)], forms=forms, keys_only=keys_only)


def place_columns(r: MatchRecord) -> tuple[list[str], list[str]]:
    """What a record stores to be matched without normalising it again: its form, and the keys
    its listing is found by."""
    place = _place(r)
    form = place_form(place)
    return list(form), stored_keys(form, place.lat, place.lng)


# The DMO config's default auto-match threshold: a vetoed pair stays below it.
AUTO_MATCH = 0.8


def certainty(a: MatchRecord, b: MatchRecord, auto_match: float = AUTO_MATCH) -> float:
    """The certainty of two records on their own (the engine's prior weights: no data to learn from)."""
    scored = score_pairs(_index([a, b]), np.array([0]), np.array([1]), learn=False)
    return float(_certainties(scored, auto_match)[0])


# Vetoes that say "two places" (another state, too far apart, unrelated names on one phone or
# address): no match and nothing to review. The others (a house number one keystroke apart,
# another city label) leave the pair to a person.
_NO_MATCH = frozenset({Veto.STATE, Veto.DISTANCE, Veto.NAME})


def _certainties(scored: Scored, auto_match: float) -> np.ndarray:
    """Every pair's certainty: its probability, 0 under a no-match veto, below auto_match under another."""
    p = np.where(scored.veto != 0, np.minimum(scored.probability, round(auto_match - 0.0001, 4)), scored.probability)
    return np.where(np.isin(scored.veto, list(_NO_MATCH)), 0.0, p)


def _best(scored: Scored, auto_match: float, min_certainty: float, side: np.ndarray, other: np.ndarray,
          other_key: np.ndarray) -> dict[int, tuple[float, int, int]]:
    """For each record on `side`, its best pair (highest certainty, then lowest `other_key`)
    scoring at least min_certainty (and above 0: a no-match veto is never a match, even at a
    threshold of 0): record -> (certainty, other record, pair)."""
    cert = _certainties(scored, auto_match)
    keep = np.flatnonzero((cert >= min_certainty) & (cert > 0))
    order = keep[np.lexsort((other_key[keep], -cert[keep], side[keep]))]
    best: dict[int, tuple[float, int, int]] = {}
    for k in order:
        best.setdefault(int(side[k]), (float(cert[k]), int(other[k]), int(k)))
    return best


def match_against(records: Sequence[MatchRecord], candidates: Iterable[MatchRecord], min_certainty: float,
                  auto_match: float = AUTO_MATCH) -> list[Match]:
    """Best candidate (then the lowest id) for each record scoring at least min_certainty."""
    candidates = list(candidates)
    if not records or not candidates:
        return []
    with paused_gc():
        scored = score(_index([*records, *candidates]), split=len(records))
    # i < j: i is the record, j the candidate
    ids = np.array([c.id for c in candidates], dtype=np.int64)
    cand = ids[scored.j - len(records)] if len(scored) else ids[:0]
    best = _best(scored, auto_match, min_certainty, scored.i, cand, cand)
    return [Match(records[i].id, c, p, scored.explain(k)) for i, (p, c, k) in sorted(best.items())]


def match_within(records: Sequence[MatchRecord], min_certainty: float, auto_match: float = AUTO_MATCH) -> list[Match]:
    """Near duplicates inside one batch: each record against the records before it (its best
    one), so the first of a group stays primary and the later ones point at it."""
    if len(records) < 2:
        return []
    with paused_gc():
        scored = score(_index(records))
    best = _best(scored, auto_match, min_certainty, scored.j, scored.i, scored.i)  # later -> first
    primary: dict[int, int] = {}
    matches = []
    for later in sorted(best):
        p, first, k = best[later]
        root = primary.get(first, first)
        primary[later] = root
        matches.append(Match(records[later].id, records[root].id, p, scored.explain(k)))
    return matches


def classify(score: float, auto_match: float, review: float) -> str:
    """match (>= auto_match), review (>= review) or new."""
    if score >= auto_match:
        return "match"
    if score >= review:
        return "review"
    return "new"


def listing_keys(records: Sequence[MatchRecord]) -> list[tuple[int, str]]:
    """(record id, key) under which these listings are found again (index.stored_keys)."""
    with paused_gc():
        return [(r.id, key) for r in records for key in place_columns(r)[1]]


def lookup_keys(records: Sequence[MatchRecord]) -> list[str]:
    """The keys to look candidates up by for these records (their rarest name words only)."""
    with paused_gc():
        ix = _index(records, keys_only=True)
        return sorted({key for i, rare in enumerate(ix.rare_words()) for key in ix.block_keys(i, rare, nearby_cells(ix.lat[i], ix.lng[i]))})
