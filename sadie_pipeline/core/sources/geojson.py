"""GeoJSON FeatureCollections (an OSM or Overture-style POI extract) as pulled records.

A feature's properties keep their paths under "properties." ("properties.name",
"properties.addr:city", "properties.names.primary"); its coordinates come from the geometry:
a Point's own, any other geometry's bounding-box centre ("geometry.lat", "geometry.lng",
"geometry.type"). A feature without a usable geometry is a problem, not a record."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from sadie_pipeline.core.sources.records import (
    Item,
    Problem,
    ProblemKind,
    Pulled,
    flatten,
    get_path,
    text_of,
)


def shape_collection(doc: Any, records_path: str | None, where: str) -> Iterator[Item]:
    features = get_path(doc, records_path if records_path is not None else "features")
    if not isinstance(features, list):
        yield Problem(ProblemKind.SCHEMA, f"{where}: no list of features at {records_path or 'features'!r}", where)
        return
    for number, feature in enumerate(features, start=1):
        yield shape_feature(feature, number)


def shape_feature(feature: Any, number: int) -> Item:
    if not isinstance(feature, Mapping) or feature.get("type") != "Feature":
        return Problem(ProblemKind.BAD_RECORD, f"feature #{number} is not a GeoJSON Feature", f"#{number}", feature)
    props = feature.get("properties") if isinstance(feature.get("properties"), Mapping) else {}
    fid = feature.get("id") if feature.get("id") is not None else props.get("@id", props.get("id"))
    label = text_of(fid) if fid is not None else f"#{number}"
    geometry = feature.get("geometry")
    point = centre(geometry)
    if point is None:
        what = "no geometry" if not geometry else "a geometry without coordinates"
        return Problem(ProblemKind.MISSING_GEOMETRY, f"feature {label} has {what}", label, feature)
    record = {"id": text_of(fid)} if fid is not None else {}
    flatten(props, "properties.", record)
    record.update({"geometry.type": text_of(geometry.get("type")), "geometry.lat": text_of(point[1]),
                   "geometry.lng": text_of(point[0])})
    return Pulled(record, text_of(fid) if fid is not None else None)


def centre(geometry: Any) -> tuple[float, float] | None:
    """(lng, lat) of a Point, else of the bounding box of every position; None without any."""
    if not isinstance(geometry, Mapping):
        return None
    if geometry.get("type") == "Point":
        return _position(geometry.get("coordinates"))
    positions = list(_positions(geometry))
    if not positions:
        return None
    lngs, lats = [p[0] for p in positions], [p[1] for p in positions]
    return (min(lngs) + max(lngs)) / 2, (min(lats) + max(lats)) / 2


def _positions(geometry: Mapping[str, Any]) -> Iterator[tuple[float, float]]:
    if geometry.get("type") == "GeometryCollection":
        for part in geometry.get("geometries") or []:
            if isinstance(part, Mapping):
                yield from _positions(part)
        return
    stack = [geometry.get("coordinates")]
    while stack:
        value = stack.pop()
        point = _position(value)
        if point is not None:
            yield point
        elif isinstance(value, list):
            stack.extend(value)


def _position(value: Any) -> tuple[float, float] | None:
    if (isinstance(value, list) and len(value) >= 2 and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                             and math.isfinite(v) for v in value[:2])):
        return float(value[0]), float(value[1])
    return None
