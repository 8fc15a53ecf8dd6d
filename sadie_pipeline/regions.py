"""The `region` partition keys: ISO 3166-2 codes of every US state, DC, and every Canadian
province and territory."""

US_STATES = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
    "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH",
    "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
)
CA_PROVINCES = ("AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")

REGIONS: tuple[str, ...] = tuple(f"US-{s}" for s in US_STATES) + tuple(f"CA-{p}" for p in CA_PROVINCES)


class UnknownRegionError(ValueError):
    pass


def check_region(code: str) -> str:
    code = code.strip().upper()
    if code not in REGIONS:
        raise UnknownRegionError(f"{code!r} is not a region; use an ISO 3166-2 code such as US-FL or CA-PE")
    return code
