"""Opening hours text ("Mon-Fri 09:00-17:00; Sat 10:00-14:00") to rows of (day_id, open, close)."""

from __future__ import annotations

import re
from functools import lru_cache

DAYS = {"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}
_PART = re.compile(
    r"^(?P<d1>[a-z]{3})[a-z]*\.?(?:\s*-\s*(?P<d2>[a-z]{3})[a-z]*\.?)?\s*:?\s*"
    r"(?P<o>\d{1,2}(?::\d{2})?\s*(?:am|pm)?)\s*(?:-|–|to)\s*(?P<c>\d{1,2}(?::\d{2})?\s*(?:am|pm)?)$"
)
_CLOSED = re.compile(r"^(?P<d1>[a-z]{3})[a-z]*\.?(?:\s*-\s*(?P<d2>[a-z]{3})[a-z]*\.?)?\s*:?\s*closed$")


class HoursError(ValueError):
    pass


def parse_hours(text: str | None) -> tuple[tuple[int, str, str], ...]:
    """Sorted (day_id, "HH:MM", "HH:MM") rows; days marked closed produce no row."""
    if not text or not text.strip():
        return ()
    return _parse(text)


@lru_cache(maxsize=4096)  # hours strings repeat a lot across a DMO's listings
def _parse(text: str) -> tuple[tuple[int, str, str], ...]:
    rows: dict[tuple[int, str], tuple[int, str, str]] = {}
    for part in re.split(r"[;\r\n]", text.lower()):
        part = " ".join(part.split()).rstrip(", ")
        if not part:
            continue
        if closed := _CLOSED.match(part):
            # Parts apply in order: "Mon-Sun 09:00-17:00; Sun closed" drops the Sunday rows.
            # A note naming no day ("Holidays closed") has nothing to drop and stays accepted.
            if {closed["d1"], closed["d2"] or closed["d1"]} <= DAYS.keys():
                days = set(_day_range(closed["d1"], closed["d2"]))
                rows = {key: row for key, row in rows.items() if key[0] not in days}
            continue
        m = _PART.match(part)
        if not m:
            raise HoursError(f"cannot read opening hours {part!r}")
        for day in _day_range(m["d1"], m["d2"]):
            open_time, close_time = _time(m["o"]), _time(m["c"])
            rows[(day, open_time)] = (day, open_time, close_time)
    return tuple(sorted(rows.values()))


def _day_range(first: str, last: str | None) -> list[int]:
    if first not in DAYS or (last and last not in DAYS):
        raise HoursError(f"unknown day in {first}-{last}")
    start, end = DAYS[first], DAYS[last] if last else DAYS[first]
    if end < start:
        end += 7
    return [((d - 1) % 7) + 1 for d in range(start, end + 1)]


def _time(text: str) -> str:
    text = text.replace(" ", "")
    suffix = text[-2:] if text[-2:] in ("am", "pm") else ""
    text = text.removesuffix(suffix)
    hour, _, minute = text.partition(":")
    h, m = int(hour), int(minute or 0)
    if suffix == "pm" and h < 12:
        h += 12
    if suffix == "am" and h == 12:
        h = 0
    if not (0 <= h < 24 and 0 <= m < 60 or h == 24 and m == 0):
        raise HoursError(f"bad time {text!r}")
    return f"{h:02d}:{m:02d}"
