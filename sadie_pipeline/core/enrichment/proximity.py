"""Proximity of a hotel to attractions (seed 000, "enrich-proximity-queue: Calculate proximity to
attractions (DB/maps)"; DESIGN: "DMO attractions are the points of interest for hotel proximity").

``AttractionIndex`` buckets attractions into a grid of ``cell_deg`` x ``cell_deg`` degree cells
(0.1 degree, about 11 km north-south), built once per run. A query looks only at the cells of the
bounding box of its search radius (longitude span widened by 1/cos(latitude), wrapped at the
antimeridian, the whole row near the poles), so proximity for thousands of hotels against tens of
thousands of attractions costs a handful of cells per hotel, not a scan of every attraction.
The nearest attraction beyond the largest radius is found by doubling the search radius, which
stays exact: everything within r km of the hotel lies inside the radius-r bounding box.

Distances are great-circle (haversine, mean Earth radius 6371.0088 km).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypedDict

__all__ = [
    "EARTH_RADIUS_KM",
    "Attraction",
    "AttractionIndex",
    "ProximityResult",
    "attraction_proximity",
    "haversine_km",
    "proximity_many",
]

EARTH_RADIUS_KM = 6371.0088
_KM_PER_DEG_LAT = math.pi * EARTH_RADIUS_KM / 180.0
_HALF_CIRCUMFERENCE_KM = math.pi * EARTH_RADIUS_KM


class Attraction(NamedTuple):
    name: str
    lat: float
    lng: float


class ProximityResult(TypedDict):
    nearest_name: str | None
    nearest_km: float | None
    counts_by_radius: dict[float, int]


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in km between two (lat, lng) points in degrees."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def _coord(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _valid(lat: float | None, lng: float | None) -> bool:
    return lat is not None and lng is not None and -90.0 <= lat <= 90.0 and -180.0 <= lng <= 180.0


def _as_attraction(item: Any) -> Attraction | None:
    """An Attraction from a tuple ``(name, lat, lng)``, an object with name/lat/lng attributes or a
    mapping with ``name`` and ``lat``/``latitude`` and ``lng``/``lon``/``longitude``; None when its
    coordinates are missing or out of range."""
    if isinstance(item, Mapping):
        name = item.get("name")
        lat = item.get("lat", item.get("latitude"))
        lng = item.get("lng", item.get("lon", item.get("longitude")))
    elif isinstance(item, tuple) and not hasattr(item, "_fields"):
        name, lat, lng = item[0], item[1], item[2]
    else:
        name = getattr(item, "name", None)
        lat = getattr(item, "lat", getattr(item, "latitude", None))
        lng = getattr(item, "lng", getattr(item, "lon", getattr(item, "longitude", None)))
    flat, flng = _coord(lat), _coord(lng)
    if not _valid(flat, flng):
        return None
    return Attraction(str(name) if name is not None else "", flat, flng)


class AttractionIndex:
    """Attractions bucketed by (floor(lat / cell_deg), floor(lng / cell_deg)). Attractions without
    valid coordinates are skipped (``skipped`` counts them)."""

    def __init__(self, attractions: Iterable[Any], cell_deg: float = 0.1):
        if not cell_deg > 0:
            raise ValueError("cell_deg must be positive")
        self.cell_deg = float(cell_deg)
        self._lng_cells = max(1, math.ceil(360.0 / self.cell_deg))
        self._cells: dict[tuple[int, int], list[Attraction]] = {}
        self.skipped = 0
        self._count = 0
        for item in attractions:
            a = _as_attraction(item)
            if a is None:
                self.skipped += 1
                continue
            self._cells.setdefault(self._cell(a.lat, a.lng), []).append(a)
            self._count += 1

    def __len__(self) -> int:
        return self._count

    def _cell(self, lat: float, lng: float) -> tuple[int, int]:
        return math.floor(lat / self.cell_deg), math.floor(lng / self.cell_deg) % self._lng_cells

    def _box(self, lat: float, lng: float, radius_km: float) -> Iterable[list[Attraction]]:
        """The buckets of every cell that can hold a point within `radius_km` of (lat, lng)."""
        dlat = radius_km / _KM_PER_DEG_LAT
        lat_lo, lat_hi = lat - dlat, lat + dlat
        cos_max = min(math.cos(math.radians(max(-90.0, lat_lo))), math.cos(math.radians(min(90.0, lat_hi))))
        if lat_lo <= -90.0 or lat_hi >= 90.0 or cos_max <= 1e-9:
            whole_row = True
        else:
            dlng = radius_km / (_KM_PER_DEG_LAT * cos_max)
            whole_row = dlng >= 180.0
        row_lo = math.floor(max(-90.0, lat_lo) / self.cell_deg)
        row_hi = math.floor(min(90.0, lat_hi) / self.cell_deg)
        if whole_row:
            cols: Iterable[int] = range(self._lng_cells)
        else:
            c_lo = math.floor((lng - dlng) / self.cell_deg)
            c_hi = math.floor((lng + dlng) / self.cell_deg)
            cols = sorted({c % self._lng_cells for c in range(c_lo, c_hi + 1)})
        cells = self._cells
        if whole_row or (row_hi - row_lo + 1) * len(cols) > len(cells):  # sparse grid: walk the buckets instead
            col_set = set(cols)
            for (row, col), bucket in cells.items():
                if row_lo <= row <= row_hi and (whole_row or col in col_set):
                    yield bucket
            return
        for row in range(row_lo, row_hi + 1):
            for col in cols:
                bucket = cells.get((row, col))
                if bucket:
                    yield bucket

    def within(self, lat: float, lng: float, radius_km: float) -> list[tuple[float, Attraction]]:
        """(distance km, attraction) for every attraction within `radius_km`, nearest first."""
        out = []
        for bucket in self._box(lat, lng, radius_km):
            for a in bucket:
                d = haversine_km(lat, lng, a.lat, a.lng)
                if d <= radius_km:
                    out.append((d, a))
        out.sort(key=lambda t: (t[0], t[1].name))
        return out

    def nearest(self, lat: float, lng: float, start_km: float = 10.0,
                max_km: float | None = None) -> tuple[float, Attraction] | None:
        """(distance km, attraction) of the nearest attraction (ties by name), or None when there is
        none (within `max_km` when given)."""
        if not self._count:
            return None
        limit = _HALF_CIRCUMFERENCE_KM if max_km is None else max_km
        radius = min(max(start_km, self.cell_deg * _KM_PER_DEG_LAT), limit)
        while True:
            best: tuple[float, Attraction] | None = None
            for bucket in self._box(lat, lng, radius):
                for a in bucket:
                    d = haversine_km(lat, lng, a.lat, a.lng)
                    if d <= radius and (best is None or (d, a.name) < (best[0], best[1].name)):
                        best = (d, a)
            if best is not None or radius >= limit:
                return best
            radius = min(radius * 2, limit)


def _hotel_coords(lat: Any, lng: Any) -> tuple[float, float]:
    flat, flng = _coord(lat), _coord(lng)
    if not _valid(flat, flng):
        raise ValueError(f"invalid hotel coordinates: ({lat!r}, {lng!r})")
    return flat, flng  # type: ignore[return-value]


def attraction_proximity(hotel_lat: float, hotel_lng: float, attractions: AttractionIndex | Iterable[Any],
                         radii_km: Sequence[float] = (1, 5, 10), *, max_nearest_km: float | None = None
                         ) -> ProximityResult:
    """Nearest attraction (name, km rounded to metres) and how many attractions lie within each
    radius (cumulative: the 5 km count includes the 1 km ones). Pass a prebuilt
    ``AttractionIndex`` when querying many hotels. Raises ValueError on invalid hotel coordinates
    or a non-positive radius."""
    lat, lng = _hotel_coords(hotel_lat, hotel_lng)
    radii = list(radii_km)
    if any(not (r > 0) for r in radii):
        raise ValueError(f"radii must be positive: {radii!r}")
    index = attractions if isinstance(attractions, AttractionIndex) else AttractionIndex(attractions)
    counts: dict[float, int] = dict.fromkeys(radii, 0)
    nearest: tuple[float, Attraction] | None = None
    if radii:
        hits = index.within(lat, lng, max(radii))
        for r in radii:
            counts[r] = sum(1 for d, _ in hits if d <= r)
        if hits and (max_nearest_km is None or hits[0][0] <= max_nearest_km):
            nearest = hits[0]
    if nearest is None and (not radii or max_nearest_km is None or max_nearest_km > max(radii)):
        nearest = index.nearest(lat, lng, start_km=max(radii) if radii else 10.0, max_km=max_nearest_km)
    return ProximityResult(
        nearest_name=nearest[1].name if nearest else None,
        nearest_km=round(nearest[0], 3) if nearest else None,
        counts_by_radius=counts,
    )


def proximity_many(hotels: Iterable[tuple[Any, float, float]], attractions: AttractionIndex | Iterable[Any],
                   radii_km: Sequence[float] = (1, 5, 10), *, max_nearest_km: float | None = None
                   ) -> dict[Any, ProximityResult | None]:
    """``attraction_proximity`` for ``(hotel_id, lat, lng)`` rows against one index built once;
    hotels with invalid coordinates map to None."""
    index = attractions if isinstance(attractions, AttractionIndex) else AttractionIndex(attractions)
    out: dict[Any, ProximityResult | None] = {}
    for hotel_id, lat, lng in hotels:
        try:
            out[hotel_id] = attraction_proximity(lat, lng, index, radii_km, max_nearest_km=max_nearest_km)
        except ValueError:
            out[hotel_id] = None
    return out
