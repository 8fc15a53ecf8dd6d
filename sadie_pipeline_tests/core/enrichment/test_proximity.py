"""Unit tests for sadie_pipeline.core.enrichment.proximity: haversine, nearest attraction, counts
by radius, the grid index against brute force, edge cases (antimeridian, poles, bad data)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sadie_pipeline.core.enrichment.proximity import (
    Attraction,
    AttractionIndex,
    attraction_proximity,
    haversine_km,
    proximity_many,
)

# Charlottetown, PEI and a few real points of interest around it.
HOTEL = (46.2352, -63.1262)  # Great George St
ATTRACTIONS = [
    ("Province House", 46.2350, -63.1256),
    ("Confederation Centre of the Arts", 46.2344, -63.1267),
    ("Victoria Park", 46.2270, -63.1390),
    ("Charlottetown Airport", 46.2900, -63.1211),
    ("Cavendish Beach", 46.4983, -63.3877),
    ("Greenwich Dunes", 46.4450, -62.6860),
]


def test_haversine_matches_known_distances():
    assert haversine_km(0, 0, 0, 1) == pytest.approx(111.195, abs=0.01)
    # Miami -> Orlando, about 330 km
    assert haversine_km(25.7617, -80.1918, 28.5384, -81.3789) == pytest.approx(330, abs=5)
    assert haversine_km(46.0, -63.0, 46.0, -63.0) == 0.0
    # symmetric, and the short way across the antimeridian
    assert haversine_km(0, 179.9, 0, -179.9) == pytest.approx(22.24, abs=0.01)


def test_nearest_and_counts_by_radius_around_a_downtown_hotel():
    result = attraction_proximity(*HOTEL, ATTRACTIONS)
    assert result["nearest_name"] == "Province House"
    assert result["nearest_km"] == pytest.approx(0.051, abs=0.002)
    # cumulative counts: 1 km holds Province House and Confederation Centre; 5 km adds Victoria Park;
    # 10 km adds the airport (6 km away); the beaches are 30+ km away
    assert result["counts_by_radius"] == {1: 2, 5: 3, 10: 4}


def test_nearest_beyond_every_radius_is_still_found():
    rural = (46.55, -63.70)  # far from everything but Cavendish (~26 km)
    result = attraction_proximity(*rural, ATTRACTIONS)
    assert result["nearest_name"] == "Cavendish Beach"
    assert 20 < result["nearest_km"] < 30
    assert result["counts_by_radius"] == {1: 0, 5: 0, 10: 0}
    bounded = attraction_proximity(*rural, ATTRACTIONS, max_nearest_km=15)
    assert bounded["nearest_name"] is None and bounded["nearest_km"] is None


def test_accepts_mappings_objects_and_custom_radii_and_skips_bad_coordinates():
    items = [
        {"name": "Pier", "latitude": 25.7690, "longitude": -80.1300},
        Attraction("Museum", 25.7800, -80.1300),
        {"name": "No coords", "lat": None, "lng": -80.13},
        {"name": "Out of range", "lat": 95.0, "lng": -80.13},
        ("NaN", float("nan"), -80.13),
    ]
    index = AttractionIndex(items)
    assert len(index) == 2 and index.skipped == 3
    result = attraction_proximity(25.7680, -80.1300, index, radii_km=(0.5, 2.5))
    assert result["nearest_name"] == "Pier"
    assert result["counts_by_radius"] == {0.5: 1, 2.5: 2}


def test_empty_attractions_and_invalid_hotels():
    assert attraction_proximity(*HOTEL, []) == {"nearest_name": None, "nearest_km": None,
                                                "counts_by_radius": {1: 0, 5: 0, 10: 0}}
    with pytest.raises(ValueError):
        attraction_proximity(None, -63.1, ATTRACTIONS)
    with pytest.raises(ValueError):
        attraction_proximity(46.2, -200, ATTRACTIONS)
    with pytest.raises(ValueError):
        attraction_proximity(*HOTEL, ATTRACTIONS, radii_km=(0, 5))


def test_antimeridian_and_pole_neighbours_are_seen():
    index = AttractionIndex([("West", -17.0, 179.95), ("Pole camp", 89.99, 45.0)])
    fiji = attraction_proximity(-17.0, -179.97, index, radii_km=(10,))
    assert fiji["nearest_name"] == "West" and fiji["counts_by_radius"] == {10: 1}
    near_pole = attraction_proximity(89.95, -135.0, index, radii_km=(10,))
    assert near_pole["nearest_name"] == "Pole camp" and near_pole["counts_by_radius"] == {10: 1}


def test_grid_index_agrees_with_brute_force():
    rng = random.Random(7)
    # 5,000 attractions over Florida, 500 hotels
    attractions = [(f"a{i}", rng.uniform(24.5, 31.0), rng.uniform(-87.6, -80.0)) for i in range(5000)]
    hotels = [(i, rng.uniform(24.5, 31.0), rng.uniform(-87.6, -80.0)) for i in range(500)]
    index = AttractionIndex(attractions)
    results = proximity_many(hotels, index)
    a_lat = np.radians([a[1] for a in attractions])
    a_lng = np.radians([a[2] for a in attractions])
    for hotel_id, lat, lng in hotels:  # brute force, vectorised
        p, q = np.radians(lat), np.radians(lng)
        h = np.sin((a_lat - p) / 2) ** 2 + np.cos(p) * np.cos(a_lat) * np.sin((a_lng - q) / 2) ** 2
        dists = 2 * 6371.0088 * np.arcsin(np.sqrt(h))
        got = results[hotel_id]
        assert got["nearest_name"] == attractions[int(np.argmin(dists))][0]
        assert got["nearest_km"] == pytest.approx(float(dists.min()), abs=0.001)
        assert got["counts_by_radius"] == {r: int((dists <= r).sum()) for r in (1, 5, 10)}


def test_proximity_many_maps_invalid_hotels_to_none():
    out = proximity_many([(1, *HOTEL), (2, None, None)], ATTRACTIONS)
    assert out[1]["nearest_name"] == "Province House"
    assert out[2] is None
