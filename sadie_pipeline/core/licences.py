"""Government lodging licence registers (seed 001's ``gov_registry`` source): a register per
state described by configuration, its file parsed into licence records, records matched to hotels.

Pure logic: no Dagster, no I/O.

* `RegistryConfig`: one register (id, region, file URLs, CSV format, column mapping, row filters).
  A new state is a new entry of ``sadie_pipeline/data/licence_registers.json``, not code.
* `parse_register(config, content, url)`: the file's rows -> `LicenceRecord` (filtered to
  lodging, one record per licence number, people's names as people write them).
* `match_hotels(hotels, records)`: the place engine (`core.places`) compares each hotel with the
  records (name, street address, city, zip, phone); the best pair above the threshold wins, and a
  record goes to one hotel at most.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sadie_pipeline.core.places import Identified, Place, PlaceIndex, paused_gc, score
from sadie_pipeline.core.places.score import identified_certainty
from sadie_pipeline.core.schedules import cron_of

__all__ = ["MATCH_THRESHOLD", "ColumnMap", "CsvFormat", "LicenceRecord", "ParsedRegister", "RegisterCatalog",
           "RegistryConfig", "RowFilter", "RowProblem", "is_company", "match_hotels", "parse_catalog", "parse_register",
           "person_name"]

#: The engine's automatic-match certainty (hotel entities merge at the same 0.8): precise on its
#: calibration pairs, so a wrong owner from a neighbour's licence stays rare.
MATCH_THRESHOLD = 0.8

Column = int | str
Columns = Column | list[Column]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CsvFormat(_Strict):
    delimiter: Annotated[str, Field(min_length=1, max_length=1)] = ","
    quotechar: Annotated[str, Field(min_length=1, max_length=1)] = '"'
    encoding: str = "utf-8"
    header: bool = True
    """False: columns are addressed by position (0-based), as in DBPR's headerless extracts."""
    skip_rows: int = Field(default=0, ge=0)
    """Lines before the header (or the first row): titles, notes."""


class ColumnMap(_Strict):
    """Where each field is: a column (header name or position) or several joined with ", "."""

    licence_number: Columns
    business_name: Columns | None = None   # the establishment's name (DBA / location name)
    licensee: Columns | None = None        # the licensed business (usually the owning company)
    owner_name: Columns | None = None      # the person named as owner / principal
    licence_type: Columns | None = None
    status: Columns | None = None
    address: Columns                       # the establishment's street address
    city: Columns | None = None
    state: Columns | None = None
    zip: Columns | None = None
    county: Columns | None = None
    phone: Columns | None = None
    mailing_address: Columns | None = None
    rooms: Columns | None = None

    @model_validator(mode="after")
    def _a_name(self) -> ColumnMap:
        if self.business_name is None and self.licensee is None:
            raise ValueError("map business_name or licensee: a record needs a name to be matched")
        return self

    def columns(self) -> Iterator[Column]:
        for name in type(self).model_fields:
            value = getattr(self, name)
            yield from (value if isinstance(value, list) else [] if value is None else [value])


class RowFilter(_Strict):
    """Keeps a row when its column's value (trimmed, case ignored) passes the one test given."""

    column: Column
    any_of: list[str] | None = None
    none_of: list[str] | None = None
    empty: bool | None = None

    @model_validator(mode="after")
    def _one_test(self) -> RowFilter:
        if sum(v is not None for v in (self.any_of, self.none_of, self.empty)) != 1:
            raise ValueError("a filter gives exactly one of any_of, none_of, empty")
        return self

    def keeps(self, value: str) -> bool:
        value = value.strip().casefold()
        if self.any_of is not None:
            return value in {v.strip().casefold() for v in self.any_of}
        if self.none_of is not None:
            return value not in {v.strip().casefold() for v in self.none_of}
        return (value == "") == self.empty


class RegistryConfig(_Strict):
    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{2,63}$")]
    region: Annotated[str, Field(pattern=r"^[A-Z]{2}-[A-Z0-9]{1,3}$")]
    name: str = ""
    urls: Annotated[list[str], Field(min_length=1)]
    """The register's files (a state's district files): production URLs; SADIE_LICENCE_BASE_URL
    replaces their scheme and host (the sandbox)."""
    format: CsvFormat = CsvFormat()
    columns: ColumnMap
    filters: list[RowFilter] = []
    owner_name_order: Literal["first_last", "last_comma_first"] = "first_last"
    refresh: str = "0 5 1 * *"
    """When the register is downloaded again for discovery (hotels/licence_schedules.py): a cron
    string of five fields (in SADIE_SCHEDULE_TIMEZONE), daily, weekly or manual (no schedule).
    Default: monthly."""

    @field_validator("refresh")
    @classmethod
    def _refresh_schedule(cls, value: str) -> str:
        cron_of(value)  # raises ScheduleError (a ValueError) for anything else
        return value.strip()

    @model_validator(mode="after")
    def _columns_fit_format(self) -> RegistryConfig:
        used = [*self.columns.columns(), *(f.column for f in self.filters)]
        kind = str if self.format.header else int
        wrong = [c for c in used if not isinstance(c, kind)]
        if wrong:
            raise ValueError(f"{'a header' if self.format.header else 'no header'}: columns are "
                             f"{'names' if self.format.header else 'positions'}, not {wrong}")
        return self


class RegisterCatalog(_Strict):
    registries: list[RegistryConfig]

    @model_validator(mode="after")
    def _unique(self) -> RegisterCatalog:
        ids = [r.id for r in self.registries]
        if len(ids) != len(set(ids)):
            raise ValueError(f"registry ids repeat: {ids}")
        return self

    def for_region(self, region: str) -> list[RegistryConfig]:
        return [r for r in self.registries if r.region == region.upper()]


def parse_catalog(text: str) -> RegisterCatalog:
    """The registers of a JSON catalogue ({"registries": [...]}); unknown keys are errors."""
    return RegisterCatalog.model_validate_json(text)


@dataclass(frozen=True, slots=True)  # slots: a large register's records in less memory
class LicenceRecord:
    """One licence of a register. Field order is sadie_gtm.licence_records' COPY order."""

    registry: str
    licence_number: str
    region: str
    licence_type: str | None = None
    status: str | None = None
    business_name: str | None = None
    licensee_name: str | None = None
    owner_name: str | None = None
    address: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    county: str | None = None
    phone: str | None = None
    mailing_address: str | None = None
    rooms: int | None = None
    source_url: str | None = None

    @property
    def name(self) -> str | None:
        """The name the place engine compares: the establishment's, else the licensee's."""
        return self.business_name or self.licensee_name

    def row(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))


RECORD_COLUMNS = tuple(f.name for f in fields(LicenceRecord))


#: Rejected rows kept with their content (for job_errors); beyond this only counted.
MAX_PROBLEMS = 1000


@dataclass(frozen=True)
class RowProblem:
    """A row the parser could not take: its data row's number (1-based, blank lines not counted), cells, why."""

    rec_num: int
    cells: list[str]
    reason: str


@dataclass
class ParsedRegister:
    records: list[LicenceRecord] = field(default_factory=list)
    rows: int = 0
    filtered: int = 0    # rows another licence type (or closed) by the registry's filters
    rejected: int = 0    # rows without a licence number or an address
    duplicates: int = 0  # a licence number seen again in the file
    problems: list[RowProblem] = field(default_factory=list)  # the first MAX_PROBLEMS rejected rows


_COMPANY = re.compile(r"\b(?:llc|l\.l\.c|inc|incorporated|corp|corporation|co|company|ltd|lp|llp|pllc|plc|trust|"
                      r"holdings?|partners(?:hip)?|group|hospitality|hotels?|management|properties|investments?|"
                      r"enterprises?|ventures?|associates|assn|association|bank|fund|estate of)\b\.?", re.IGNORECASE)


def is_company(name: str | None) -> bool:
    """True when a name is a business's (LLC, Inc, Hospitality ...), never a person's."""
    return bool(name and _COMPANY.search(name))


def word_case(word: str) -> str:
    """One shouted word in a person's casing, hyphenated parts each ("MCDONALD-SMITH" -> "McDonald-Smith")."""
    parts = []
    for part in word.split("-"):
        part = part[:1].upper() + part[1:].lower()
        if re.match(r"^(?:Mc|O')[a-z]", part):  # McDonald, O'Neil
            part = part[:2] + part[2].upper() + part[3:]
        parts.append(part)
    return "-".join(parts)


def person_name(raw: str | None, order: str = "first_last") -> str | None:
    """A person's name as people write it: "CROWLEY, HAROLD" -> "Harold Crowley"; None for an
    empty value or a business's name."""
    text = re.sub(r"\s+", " ", (raw or "").strip())
    if not text or is_company(text):
        return None
    if order == "last_comma_first" and "," in text:
        last, _, first = text.partition(",")
        text = f"{first.strip()} {last.strip()}".strip()
    if text.isupper() or text.islower():
        text = " ".join(word_case(w) for w in text.split(" "))
    return text


def _positions(config: RegistryConfig, header: list[str] | None) -> dict[Column, int]:
    if header is None:
        return {c: int(c) for c in [*config.columns.columns(), *(f.column for f in config.filters)]}
    by_name = {re.sub(r"\s+", " ", h.strip()).casefold(): i for i, h in enumerate(header)}
    out: dict[Column, int] = {}
    for c in [*config.columns.columns(), *(f.column for f in config.filters)]:
        key = re.sub(r"\s+", " ", str(c).strip()).casefold()
        if key not in by_name:
            raise ValueError(f"{config.id}: the file has no column {c!r} (its header: {header})")
        out[c] = by_name[key]
    return out


def _value(row: Sequence[str], where: Mapping[Column, int], spec: Columns | None) -> str | None:
    if spec is None:
        return None
    # split/join: trimmed, inner whitespace as one space (a large register has millions of cells)
    if not isinstance(spec, list):
        k = where[spec]
        return (" ".join(row[k].split()) or None) if k < len(row) else None
    parts = (" ".join(row[where[c]].split()) if where[c] < len(row) else "" for c in spec)
    return ", ".join(p for p in parts if p) or None


def _rooms(value: str | None) -> int | None:
    digits = re.sub(r"[^\d]", "", (value or "").split(".")[0])
    return int(digits) if digits and len(digits) < 7 else None


def _record(config: RegistryConfig, row: Sequence[str], where: Mapping[Column, int], url: str) -> LicenceRecord:
    cols = config.columns
    get = lambda spec: _value(row, where, spec)  # noqa: E731
    zip_code = re.sub(r"[^\d]", "", get(cols.zip) or "")[:5] or None
    return LicenceRecord(
        registry=config.id, licence_number=(get(cols.licence_number) or "").upper(), region=config.region,
        licence_type=get(cols.licence_type), status=get(cols.status), business_name=get(cols.business_name),
        licensee_name=get(cols.licensee), owner_name=person_name(get(cols.owner_name), config.owner_name_order),
        address=get(cols.address), city=get(cols.city), state=get(cols.state) or config.region.split("-")[1],
        zip=zip_code, county=get(cols.county),
        phone=get(cols.phone), mailing_address=get(cols.mailing_address), rooms=_rooms(get(cols.rooms)),
        source_url=url)


def parse_register(config: RegistryConfig, content: bytes, url: str) -> ParsedRegister:
    """A register file's lodging licences. Raises ValueError when a mapped column is missing
    from its header (the register changed its layout: better stopped than misread)."""
    fmt = config.format
    # decoded as it is read: a register of 100,000s of rows is not held again as text
    stream = io.TextIOWrapper(io.BytesIO(content), encoding=fmt.encoding, errors="replace", newline="")
    if stream.read(1) != "\ufeff":  # a byte-order mark is no data
        stream.seek(0)
    reader = csv.reader(stream, delimiter=fmt.delimiter, quotechar=fmt.quotechar)
    for _ in range(fmt.skip_rows):
        next(reader, None)
    header = next(reader, []) if fmt.header else None
    where = _positions(config, header)
    out, seen = ParsedRegister(), set()
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        out.rows += 1
        if not all(f.keeps(row[where[f.column]] if where[f.column] < len(row) else "") for f in config.filters):
            out.filtered += 1
            continue
        record = _record(config, row, where, url)
        if not record.licence_number or not record.address or not record.name:
            out.rejected += 1
            if len(out.problems) < MAX_PROBLEMS:
                missing = [k for k, v in (("licence number", record.licence_number), ("address", record.address),
                                          ("name", record.name)) if not v]
                out.problems.append(RowProblem(out.rows, row, f"{len(row)} columns; no {', '.join(missing)}"))
        elif record.licence_number in seen:
            out.duplicates += 1
        else:
            seen.add(record.licence_number)
            out.records.append(record)
    return out


def _hotel_place(h: Mapping[str, Any]) -> Place:
    return Place(h.get("name"), h.get("address"), h.get("city"), h.get("state"), h.get("zip"), h.get("phone"),
                 h.get("website"), h.get("lat"), h.get("lng"))


def match_hotels(hotels: Sequence[Mapping[str, Any]], records: Sequence[LicenceRecord],
                 threshold: float = MATCH_THRESHOLD) -> dict[int, tuple[int, float]]:
    """hotel index -> (record index, certainty): each hotel's best record at or above
    `threshold`, strongest pairs first, so that a record goes to one hotel only. A vetoed pair
    (another state, another house number, unrelated names) never matches unless the engine
    identifies it (the hotel's own phone with its name)."""
    if not hotels or not records:
        return {}
    places = [_hotel_place(h) for h in hotels]
    places += [Place(r.name, r.address, r.city, r.state, r.zip, r.phone) for r in records]
    with paused_gc():
        scored = score(PlaceIndex(places), split=len(hotels))
    identified = scored.identified == Identified.MATCH
    value = np.where(identified, identified_certainty(scored.probability), scored.probability)
    good = ((scored.veto == 0) | identified) & (scored.identified != Identified.APART) & (value >= threshold)
    pairs = []
    for k in np.flatnonzero(good):
        a, b = int(scored.i[k]), int(scored.j[k])
        hotel, record = (a, b) if a < len(hotels) else (b, a)
        if hotel < len(hotels) <= record:
            pairs.append((-float(value[k]), hotel, record - len(hotels)))
    out: dict[int, tuple[int, float]] = {}
    taken: set[int] = set()
    for neg, hotel, record in sorted(pairs):
        if hotel not in out and record not in taken:
            out[hotel] = (record, -neg)
            taken.add(record)
    return out
