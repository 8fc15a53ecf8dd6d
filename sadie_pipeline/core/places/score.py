"""Fellegi-Sunter scoring of candidate pairs. Each field compares into a level (0 = a side is
empty, which counts neither way); each level has m = P(level | same place) and u = P(level |
different places). m, u and the share of true pairs are estimated from the candidate pairs by
EM, as Splink does, starting from (and pulled towards, by pseudo-counts) the priors below, so a
small batch keeps sensible weights. A pair's match weight is the sum of log2(m/u) over its
fields; its probability follows from the weight and the estimated share of true pairs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.process import cpdist

from sadie_pipeline.core.places.index import PlaceIndex
from sadie_pipeline.core.places.normal import lookalike_words, one_typo

# field -> names of levels 1..k (0 is "a side is empty"), priors m and u for those levels.
LEVELS: dict[str, tuple[str, ...]] = {
    "name": ("different", "similar", "close", "same_chain", "same"),
    # where the two are, from street and number, postal code, map point and city label, taken as
    # one comparison: they say the same thing and would count it four times as four fields
    "location": ("conflict", "other_city_label", "same_area", "same_address_typo", "same_address"),
    "phone": ("different", "same"),
    "website": ("different", "same"),
}
PRIOR_M = {
    "name": (0.03, 0.09, 0.25, 0.03, 0.60), "location": (0.03, 0.07, 0.25, 0.03, 0.62),
    "phone": (0.08, 0.92), "website": (0.10, 0.90),
}
PRIOR_U = {
    "name": (0.79, 0.11, 0.05, 0.02, 0.03), "location": (0.45, 0.15, 0.35, 0.01, 0.04),
    "phone": (0.985, 0.015), "website": (0.99, 0.01),
}
FIELDS = tuple(LEVELS)
PRIOR_SHARE = 0.1  # of candidate pairs that are one place: a small batch decides on name alone rarely
PSEUDO_PAIRS = 200.0  # how strongly the priors hold against the data
EM_ROUNDS = 25


class Veto:
    NONE, STATE, DISTANCE, HOUSE_NUMBER, CITY, NAME = 0, 1, 2, 3, 4, 5
    NAMES = ("", "state", "distance", "house_number", "city", "name")


@dataclass
class Model:
    m: dict[str, np.ndarray]  # per field: level 0..k (level 0 = 1.0, no evidence)
    u: dict[str, np.ndarray]
    share: float

    def weights(self, field: str) -> np.ndarray:
        return np.log2(self.m[field] / self.u[field])

    def prior_weight(self) -> float:
        return float(np.log2(self.share / (1 - self.share)))


def prior_model() -> Model:
    return Model({f: np.array((1.0, *PRIOR_M[f])) for f in FIELDS},
                 {f: np.array((1.0, *PRIOR_U[f])) for f in FIELDS}, PRIOR_SHARE)


def compare(ix: PlaceIndex, i: np.ndarray, j: np.ndarray, max_distance_km: float) -> tuple[np.ndarray, np.ndarray]:
    """Levels (pairs x fields, int8) and the veto of every pair."""
    levels = np.zeros((len(i), len(FIELDS)), dtype=np.int8)
    cols = {f: k for k, f in enumerate(FIELDS)}
    levels[:, cols["name"]] = _name_levels(ix, i, j)
    levels[:, cols["phone"]] = _equal_levels(ix.phone, i, j)
    levels[:, cols["website"]] = _equal_levels(ix.web, i, j)
    num, street = _address_levels(ix, i, j)
    city, postal = _equal_levels(ix.city, i, j), _zip_levels(ix, i, j)
    km = _distance_km(ix, i, j)
    geo = np.select([np.isnan(km), km <= 0.05, km <= 0.3, km <= 2.0], [0, 4, 3, 2], default=1)
    levels[:, cols["location"]] = _location(num, street, city, postal, geo)
    veto = np.zeros(len(i), dtype=np.int8)
    state_a, state_b = _take(ix.state, i), _take(ix.state, j)
    veto[(state_a != "") & (state_b != "") & (state_a != state_b)] = Veto.STATE
    veto[(veto == 0) & (km > max_distance_km)] = Veto.DISTANCE
    strong = _strong(levels, cols)
    name = levels[:, cols["name"]]
    # a chain's name identifies the outlet once the address agrees
    name[(name == 4) & (levels[:, cols["location"]] == 5)] = 5
    veto[(veto == 0) & _house_veto(num, street, strong, name)] = Veto.HOUSE_NUMBER
    # Another city label and nothing that puts the two together (postal code, map point, phone,
    # website, or the very name at the very address): a name and a street repeat between towns.
    together = (postal == 3) | (geo >= 3) | (strong == 2) | ((name == 5) & (levels[:, cols["location"]] == 5))
    veto[(veto == 0) & (city == 1) & ~together] = Veto.CITY
    # Two unrelated names on one phone or at one address are two places sharing it (a food hall,
    # a hotel and its restaurant) or a new business: a person decides, whatever else agrees.
    veto[(veto == 0) & (levels[:, cols["name"]] == 1)] = Veto.NAME
    return levels, veto


def _location(num: np.ndarray, street: np.ndarray, city: np.ndarray, postal: np.ndarray, geo: np.ndarray) -> np.ndarray:
    on_street = street >= 2
    # a postal code's first three characters span a region, not a town: no evidence either way
    conflict = (on_street & (num == 1)) | (geo == 1) | ((postal == 1) & (city == 1)) | ((street == 1) & (num >= 1))
    same_address = (on_street & (num == 3)) | (geo == 4)
    area = (city == 2) | (postal == 3) | (geo >= 2)
    return np.select([conflict, same_address, on_street & (num == 2), area, city == 1], [1, 5, 4, 3, 2], default=0)


def _strong(levels: np.ndarray, cols: dict[str, int]) -> np.ndarray:
    """2 when a phone or website agrees and none differs, 1 when one differs, else 0."""
    phone, web = levels[:, cols["phone"]], levels[:, cols["website"]]
    return np.where((phone == 1) | (web == 1), 1, np.where((phone == 2) | (web == 2), 2, 0))


def _take(values: list[str], idx: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=object)[idx]


def _equal_levels(values: list[str], i: np.ndarray, j: np.ndarray) -> np.ndarray:
    a, b = _take(values, i), _take(values, j)
    return np.where((a == "") | (b == ""), 0, np.where(a == b, 2, 1))


def _name_levels(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """In one town the names are compared without the town's name ("Seabreeze Inn Orlando" is
    "Seabreeze Inn" there); across towns with it ("Hampton Inn Orlando" is not "Hampton Inn Tampa").
    A distinctive word on one side only ("East", "Airport", "Plus") keeps two names apart."""
    same_city = (_take(ix.city, i) == _take(ix.city, j)) & (_take(ix.city, i) != "")
    # each pair's names in the form its towns call for, so that each pair is compared once
    forms = [(np.where(same_city, _take(c, i), _take(f, i)), np.where(same_city, _take(c, j), _take(f, j)))
             for c, f in zip(ix.forms["core"], ix.forms["full"])]
    close, inside, same, bare = _similarities(forms)
    names = forms[0]
    level = np.select([same, bare | (close >= 88), (close >= 75) | (inside >= 100)], [5, 3, 2], default=1)
    check = np.flatnonzero(level == 3)
    level[check] = [3 if lookalike_words(names[0][k], names[1][k]) else 2 for k in check]
    level[(level == 5) & ix.chain[i] & ix.chain[j]] = 4
    a, b = _take(ix.core, i), _take(ix.core, j)
    return np.where((a == "") | (b == ""), 0, level)


def _similarities(forms: list[tuple[np.ndarray, np.ndarray]]):
    """(close, inside, equal, bare equal) of the pairs' names, given as (name, short, bare) pairs:
    close covers word order, typos and a short form ("arts deli" / "arts delicatessen"); inside,
    one name's words all in the other; bare, the same but for spacing and generic words
    ("Sea Breeze Motel" / "Seabreeze Inn")."""
    (a, b), (sa, sb), (ba, bb) = forms
    close = np.maximum(cpdist(list(a), list(b), scorer=fuzz.token_sort_ratio, workers=-1),
                       cpdist(list(sa), list(sb), scorer=fuzz.token_sort_ratio, workers=-1))
    inside = cpdist(list(a), list(b), scorer=fuzz.token_set_ratio, workers=-1)
    return close, inside, a == b, ba == bb


def _address_levels(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sa, sb = _take(ix.street, i), _take(ix.street, j)
    ratio = cpdist(list(sa), list(sb), scorer=fuzz.ratio, workers=-1)
    street = np.where((sa == "") | (sb == ""), 0, np.where(sa == sb, 3, np.where(ratio >= 85, 2, 1)))
    na, nb = _take(ix.num, i), _take(ix.num, j)
    num = np.where((na == "") | (nb == ""), 0, np.where(na == nb, 3, 1))
    # a typo only matters on one street (elsewhere the location conflicts anyway)
    differ = np.flatnonzero((num == 1) & (street >= 2))
    num[differ] = [2 if one_typo(na[k], nb[k]) else 1 for k in differ]
    return num, street


def _zip_levels(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    a, b = _take(ix.zip, i), _take(ix.zip, j)
    area_a = np.array([z[:3] for z in a], dtype=object)
    area_b = np.array([z[:3] for z in b], dtype=object)
    return np.where((a == "") | (b == ""), 0, np.where(a == b, 3, np.where(area_a == area_b, 2, 1)))


def _distance_km(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    lat1, lng1, lat2, lng2 = ix.lat[i], ix.lng[i], ix.lat[j], ix.lng[j]
    dy = (lat2 - lat1) * 110.57
    dx = (lng2 - lng1) * 111.32 * np.cos(np.radians((lat1 + lat2) / 2))
    return np.hypot(dx, dy)


def _house_veto(num: np.ndarray, street: np.ndarray, strong: np.ndarray, name: np.ndarray) -> np.ndarray:
    """Two numbers on one street are two places, unless they are one keystroke apart ("924" /
    "9b4", "12374" / "12375") and everything else agrees: the name, and a phone or website with
    none differing. Neighbours differ in name or phone."""
    typo_ok = (num == 2) & (name >= 3) & (strong == 2)
    return (street >= 2) & (num >= 1) & (num <= 2) & ~typo_ok


def estimate(levels: np.ndarray, start: Model | None = None) -> Model:
    """EM on the candidate pairs' levels, pulled towards the priors by PSEUDO_PAIRS."""
    model = start or prior_model()
    prior = prior_model()
    if len(levels) == 0:
        return model
    for _ in range(EM_ROUNDS):
        w = posterior(levels, model)
        m, u = {}, {}
        for k, f in enumerate(FIELDS):
            match, other = _weighted_counts(levels[:, k], w, len(prior.m[f]))
            m[f], u[f] = _reestimate(match, prior.m[f]), _reestimate(other, prior.u[f])
        share = (w.sum() + PSEUDO_PAIRS * PRIOR_SHARE) / (len(w) + PSEUDO_PAIRS)
        model = Model(m, u, float(min(max(share, 1e-4), 0.9)))
        del w  # before the next round's: two of them at once are the peak of memory
    return model


def _weighted_counts(level: np.ndarray, w: np.ndarray, n_levels: int) -> tuple[np.ndarray, np.ndarray]:
    """Per level 1..: the sum of w (as one place) and of 1 - w (as two) over its pairs. Level by
    level, not np.bincount, which would copy the int8 levels to int64 (8 MB a million pairs)."""
    match, pairs = np.zeros(n_levels - 1), np.zeros(n_levels - 1)
    for value in range(1, n_levels):
        at = level == value
        match[value - 1], pairs[value - 1] = np.add.reduce(w, where=at), np.count_nonzero(at)
    return match, pairs - match


def _reestimate(counts: np.ndarray, prior: np.ndarray) -> np.ndarray:
    probs = (counts + PSEUDO_PAIRS * prior[1:]) / (counts.sum() + PSEUDO_PAIRS)
    return np.concatenate(([1.0], np.maximum(probs, 1e-6)))


def match_weight(levels: np.ndarray, model: Model) -> np.ndarray:
    total = np.full(len(levels), model.prior_weight())
    for k, f in enumerate(FIELDS):
        total += model.weights(f)[levels[:, k]]
    return total


def posterior(levels: np.ndarray, model: Model) -> np.ndarray:
    # 1 / (1 + 2^-weight), in place: a million pairs' temporaries would take 8 MB each
    p = match_weight(levels, model)
    np.clip(p, -60, 60, out=p)
    np.negative(p, out=p)
    np.exp2(p, out=p)
    p += 1.0
    return np.reciprocal(p, out=p)


def explain(levels_row: np.ndarray, model: Model, veto: int = 0) -> dict[str, object]:
    """The fields a pair was compared on: their level and match weight (bits)."""
    out: dict[str, object] = {}
    for k, f in enumerate(FIELDS):
        level = int(levels_row[k])
        if level:
            out[f] = {"level": LEVELS[f][level - 1], "weight": round(float(model.weights(f)[level]), 2)}
    if veto:
        out["veto"] = Veto.NAMES[veto]
    return out


def describe(explanation: dict | None) -> str:
    """One line for a person: "name same +10.8, location same_address +7.9, phone different -6.9; veto city"."""
    if not explanation:
        return ""
    parts = [f"{f} {v['level']} {v['weight']:+.1f}" for f, v in explanation.items() if isinstance(v, dict)]
    veto = explanation.get("veto")
    return ", ".join(parts) + (f"; veto {veto}" if veto else "")
