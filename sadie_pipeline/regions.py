"""The `region` partition keys: ISO 3166-2 codes of every US state, DC, and every Canadian
province and territory, and every Australian state and territory (ABN Lookup's registers)."""

US_STATES = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
    "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH",
    "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
)
CA_PROVINCES = ("AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")

AU_STATES = ("NSW", "VIC", "QLD", "WA", "SA", "TAS", "ACT", "NT")

REGIONS: tuple[str, ...] = (tuple(f"US-{s}" for s in US_STATES) + tuple(f"CA-{p}" for p in CA_PROVINCES)
                            + tuple(f"AU-{s}" for s in AU_STATES))


class UnknownRegionError(ValueError):
    pass


def check_region(code: str) -> str:
    code = code.strip().upper()
    if code not in REGIONS:
        raise UnknownRegionError(f"{code!r} is not a region; use an ISO 3166-2 code such as US-FL or CA-PE")
    return code

REGION_NAMES = {
    "US-AL": "Alabama", "US-AK": "Alaska", "US-AZ": "Arizona", "US-AR": "Arkansas", "US-CA": "California",
    "US-CO": "Colorado", "US-CT": "Connecticut", "US-DE": "Delaware", "US-DC": "District of Columbia",
    "US-FL": "Florida", "US-GA": "Georgia", "US-HI": "Hawaii", "US-ID": "Idaho", "US-IL": "Illinois",
    "US-IN": "Indiana", "US-IA": "Iowa", "US-KS": "Kansas", "US-KY": "Kentucky", "US-LA": "Louisiana",
    "US-ME": "Maine", "US-MD": "Maryland", "US-MA": "Massachusetts", "US-MI": "Michigan", "US-MN": "Minnesota",
    "US-MS": "Mississippi", "US-MO": "Missouri", "US-MT": "Montana", "US-NE": "Nebraska", "US-NV": "Nevada",
    "US-NH": "New Hampshire", "US-NJ": "New Jersey", "US-NM": "New Mexico", "US-NY": "New York",
    "US-NC": "North Carolina", "US-ND": "North Dakota", "US-OH": "Ohio", "US-OK": "Oklahoma", "US-OR": "Oregon",
    "US-PA": "Pennsylvania", "US-RI": "Rhode Island", "US-SC": "South Carolina", "US-SD": "South Dakota",
    "US-TN": "Tennessee", "US-TX": "Texas", "US-UT": "Utah", "US-VT": "Vermont", "US-VA": "Virginia",
    "US-WA": "Washington", "US-WV": "West Virginia", "US-WI": "Wisconsin", "US-WY": "Wyoming",
    "CA-AB": "Alberta", "CA-BC": "British Columbia", "CA-MB": "Manitoba", "CA-NB": "New Brunswick",
    "CA-NL": "Newfoundland and Labrador", "CA-NS": "Nova Scotia", "CA-NT": "Northwest Territories",
    "CA-NU": "Nunavut", "CA-ON": "Ontario", "CA-PE": "Prince Edward Island", "CA-QC": "Quebec",
    "CA-SK": "Saskatchewan", "CA-YT": "Yukon",
    "AU-NSW": "New South Wales", "AU-VIC": "Victoria", "AU-QLD": "Queensland", "AU-WA": "Western Australia",
    "AU-SA": "South Australia", "AU-TAS": "Tasmania", "AU-ACT": "Australian Capital Territory",
    "AU-NT": "Northern Territory",
}


def subdivision(region: str) -> str:
    """US-FL -> FL: the state or province code as addresses write it."""
    return region.split("-", 1)[1]
