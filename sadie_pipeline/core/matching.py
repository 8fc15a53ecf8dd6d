"""Fuzzy matching of listings through the place engine (core.places): staged records against
listings (match_against) and against each other (match_within).

A record's certainty is the engine's match probability under the DMO's model, then the guards:
an identifier with the name (a phone or website of the place's own, or its very address) makes
it a match; a pair the engine vetoes never reaches auto_match: another state, too far apart or
unrelated names make it no match at all; two house numbers on one street or another city label
with nothing else in common leave it to a person. A record that shares an identifier with a
listing and is not matched to one goes to a person (review_reason): no silent duplicate.
Every match carries its explanation, the fields that agreed or differed and their weights."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from sadie_pipeline.core.places import (
    FIELDS,
    Identified,
    Model,
    Place,
    PlaceIndex,
    Scored,
    Shared,
    Veto,
    paused_gc,
    score,
    score_pairs,
)
from sadie_pipeline.core.places.form import PlaceForm, place_form
from sadie_pipeline.core.places.index import nearby_cells, stored_keys
from sadie_pipeline.core.places.score import SHARED_NAMES, identified_certainty


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
    # Set when the pair goes to a person whatever its certainty: the two share an identifier (a
    # phone, a website, a name at one address) and are not merged (no silent duplicate).
    review_reason: str | None = None


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
def certainty(a: MatchRecord, b: MatchRecord, auto_match: float = AUTO_MATCH, model: Model | None = None) -> float:
    """The certainty of two records on their own (the model's weights; the priors by default)."""
    scored = score_pairs(_index([a, b]), np.array([0]), np.array([1]), model)
    return float(_certainties(scored, auto_match)[0])


# Vetoes that say "two places" (another state, too far apart, unrelated names on one phone or
# address): no match. The others (two house numbers on one street while a second field differs,
# another city label) leave the pair to a person.
_NO_MATCH = frozenset({Veto.STATE, Veto.DISTANCE, Veto.NAME})


def _certainties(scored: Scored, auto_match: float) -> np.ndarray:
    """Every pair's certainty: an identified pair's at least IDENTIFIED, one that an identifier
    says stands apart below auto_match; otherwise its probability, 0 under a no-match veto, below
    auto_match under another."""
    below = round(auto_match - 0.0001, 4)
    p = np.where(scored.veto != 0, np.minimum(scored.probability, below), scored.probability)
    p = np.where(np.isin(scored.veto, list(_NO_MATCH)), 0.0, p)
    p = np.where(scored.identified == Identified.MATCH, identified_certainty(scored.probability), p)
    p = np.where(scored.identified == Identified.APART, np.minimum(scored.probability, below), p)
    return np.minimum(p, FUZZY_MOST)


# A fuzzy match is never as certain as an exact one (1): a record matched by its source id or
# match hash ranks first among those landing on one listing.
FUZZY_MOST = 0.9999


def _best(cert: np.ndarray, min_certainty: float, side: np.ndarray, other: np.ndarray,
          other_key: np.ndarray) -> dict[int, tuple[float, int, int]]:
    """For each record on `side`, its best pair (highest certainty, then lowest `other_key`)
    scoring at least min_certainty (and above 0: a no-match veto is never a match, even at a
    threshold of 0): record -> (certainty, other record, pair)."""
    keep = np.flatnonzero((cert >= min_certainty) & (cert > 0))
    order = keep[np.lexsort((other_key[keep], -cert[keep], side[keep]))]
    best: dict[int, tuple[float, int, int]] = {}
    for k in order:
        best.setdefault(int(side[k]), (float(cert[k]), int(other[k]), int(k)))
    return best


def _unseen(scored: Scored, cert: np.ndarray, side: np.ndarray, other_key: np.ndarray,
            placed: dict) -> dict[int, tuple[float, int, int]]:
    """Records `placed` lacks that share an identifier with a candidate, or that an identifier
    puts apart from one: their best such pair, for a person to see."""
    must = np.flatnonzero((scored.shared != 0) | (scored.identified == Identified.APART))
    must = must[[int(side[k]) not in placed for k in must]] if len(must) else must
    order = must[np.lexsort((other_key[must], -scored.probability[must], -cert[must], side[must]))]
    seen: dict[int, tuple[float, int, int]] = {}
    for k in order:
        seen.setdefault(int(side[k]), (float(cert[k]), int(other_key[k]), int(k)))
    return seen


def review_reason(scored: Scored, k: int) -> str:
    """Why a pair under the review threshold still goes to a person."""
    if scored.identified[k] == Identified.APART:
        same_phone = scored.levels[k, FIELDS.index("phone")] == 2
        return "the same name and " + ("phone" if same_phone else "website") + " at another address"
    flags = Shared(int(scored.shared[k]))
    return "shares its " + " and ".join(name for flag, name in SHARED_NAMES.items() if flags & flag)


def match_against(records: Sequence[MatchRecord], candidates: Iterable[MatchRecord], min_certainty: float,
                  auto_match: float = AUTO_MATCH, model: Model | None = None,
                  evidence: list[np.ndarray] | None = None) -> list[Match]:
    """Best candidate (then the lowest id) for each record scoring at least min_certainty; a
    record without one that shares an identifier with a candidate gets its best such candidate
    with a review_reason. `model`: the DMO's (the priors by default); `evidence` receives the
    pairs' levels, for the DMO's next estimate."""
    candidates = list(candidates)
    if not records or not candidates:
        return []
    with paused_gc():
        scored = score(_index([*records, *candidates]), model, split=len(records))
    if evidence is not None:
        evidence.append(scored.levels)
    # i < j: i is the record, j the candidate
    ids = np.array([c.id for c in candidates], dtype=np.int64)
    cand = ids[scored.j - len(records)] if len(scored) else ids[:0]
    cert = _certainties(scored, auto_match)
    best = _best(cert, min_certainty, scored.i, cand, cand)
    unseen = _unseen(scored, cert, scored.i, cand, best)
    return sorted([Match(records[i].id, c, p, scored.explain(k)) for i, (p, c, k) in best.items()]
                  + [_unseen_match(records[i].id, c, p, scored, k) for i, (p, c, k) in unseen.items()],
                  key=lambda m: m.record_id)


def better_matches(matches: Iterable[Match], current: dict[int, tuple[int, float]]) -> list[Match]:
    """The matches of records already matched (current: record -> (listing, certainty as stored, to
    4 places)) that beat that match: another listing, a higher certainty, nothing for a person to
    see. A stage picks the best listing it sees; one created meanwhile may have been the better."""
    return [m for m in matches if m.review_reason is None and m.candidate_id != current[m.record_id][0]
            and round(m.certainty, 4) > current[m.record_id][1]]


def _unseen_match(record_id: int, candidate_id: int, certainty: float, scored: Scored, k: int) -> Match:
    """A pair sent to a person by what it shares: the reason stays in its explanation too, where
    the stage counts such records (listing_stage's review_by_identifier)."""
    reason = review_reason(scored, k)
    return Match(record_id, candidate_id, certainty, {**scored.explain(k), "review": reason}, reason)


def match_within(records: Sequence[MatchRecord], min_certainty: float, auto_match: float = AUTO_MATCH,
                 model: Model | None = None, evidence: list[np.ndarray] | None = None) -> list[Match]:
    """Near duplicates inside one batch: each record against the records before it (its best
    one), so the first of a group stays primary and the later ones point at it."""
    if len(records) < 2:
        return []
    with paused_gc():
        scored = score(_index(records), model)
    if evidence is not None:
        evidence.append(scored.levels)
    best = _best(_certainties(scored, auto_match), min_certainty, scored.j, scored.i, scored.i)
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
