"""A DMO's type (seed 002: public.dmos.dmo_type_id), which the DMO admin page sets; migration 0047
holds the same ids as a CHECK constraint."""

from __future__ import annotations

from enum import IntEnum


class DmoType(IntEnum):
    SCRAPED = 1      # a site the pipeline scrapes
    TRAVEL_SITE = 2  # a travel site's feed
    CLIENT = 3       # a client DMO (the column's default)
    PARTNER = 4      # a partner's data

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower()

    @classmethod
    def parse(cls, value: str | int) -> DmoType:
        """The type named (SCRAPED, travel_site) or numbered (1-4); ValueError with the choices else."""
        text = str(value).strip()
        if text.isdigit() and int(text) in cls._value2member_map_:
            return cls(int(text))
        try:
            return cls[text.upper().replace(" ", "_")]
        except KeyError:
            raise ValueError(f"unknown DMO type {text[:40]!r}: one of "
                             f"{', '.join(t.name for t in cls)}") from None
