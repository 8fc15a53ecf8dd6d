"""Import configs: the seed 004 sections as pydantic models (their keys, defaults and limits), a deep
merge of a DMO's config over those defaults, and a loader that says where in a file each problem is.
Callers keep working with plain dicts: the models only check and normalise."""

from __future__ import annotations

import codecs
import copy
import difflib
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from json.decoder import scanstring
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from sadie_pipeline.core.categories import VOCABULARY
from sadie_pipeline.core.fields import CANONICAL_FIELDS
from sadie_pipeline.core.schedules import Frequency, ScheduleError, cron_of
from sadie_pipeline.core.sources.config import (
    HttpSettings,
    HttpUrl,
    Incremental,
    Paging,
    Selectors,
    SourceAuth,
    SourceType,
    check_source,
    pulled,
)

MERGE_POLICIES = ("latest_wins", "skip_if_exists", "field_level_merge")
MergePolicy = Literal["latest_wins", "skip_if_exists", "field_level_merge"]
CaseMode = Literal["lower", "upper", "title"]
DataType = Literal["numeric", "email", "phone", "text"]
# the tables promotion merges (promote._MERGED_COLUMNS); a typo here would silently use merge_policy
PromoteTable = Literal["listings", "locations", "contact_info", "listing_info"]


def _did_you_mean(name: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.85)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _canonical(name: str) -> str:
    if name not in CANONICAL_FIELDS:
        raise PydanticCustomError("canonical_field", "not a canonical field{hint}; see sadie_pipeline/core/fields.py",
                                  {"hint": _did_you_mean(name, list(CANONICAL_FIELDS))})
    return name


def _column(value: Any) -> int | str:
    if isinstance(value, str) and value.strip():
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value  # maps by position: for headers that repeat a name
    raise PydanticCustomError("column", "Input should be a column name or a 1-based column position")


def _number(value: Any) -> int | float:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return value  # ints stay ints, so a dumped config reads like the file
    raise PydanticCustomError("number", "Input should be a finite number")


def _ordered(bounds: list[int | float]) -> list[int | float]:
    if bounds[0] > bounds[1]:
        raise PydanticCustomError("bounds_order", "the lower bound should come first")
    return bounds


def _category(value: str) -> str:
    if value not in VOCABULARY:
        raise PydanticCustomError("category", "not a category of the vocabulary{hint}; see sadie_pipeline/core/categories.py",
                                  {"hint": _did_you_mean(value, sorted(VOCABULARY))})
    return value


def _schedule(value: str) -> str:
    try:
        cron_of(value)
    except ScheduleError as exc:
        raise PydanticCustomError("schedule", str(exc)) from None
    return value.strip().lower()


# merge_config(stored=True): a config read back from the database, saved before a check that
# refuses new configs existed; it is read as saved so that nothing reading it fails.
STORED = "stored"


def _pulled_when_scheduled(schedule: str, source_type: Any, url: Any, info: ValidationInfo) -> str:
    """A schedule other than manual needs a source that is pulled: a file source without a url has
    nothing to pull (its files come through the inbox), and the pull sensor could only skip it."""
    if (schedule == Frequency.MANUAL or (info.context or {}).get(STORED) or not isinstance(source_type, SourceType)
            or pulled(source_type, url)):
        return schedule
    raise PydanticCustomError(
        "unpulled_schedule", "{source} source without import.url has nothing to pull (its files come through "
        "the inbox): leave the schedule manual, or give import.url", {"source": f"a {source_type.value}"})


CanonicalField = Annotated[str, AfterValidator(_canonical)]
ImportSchedule = Annotated[str, AfterValidator(_schedule)]
Category = Annotated[str, AfterValidator(_category)]
Column = Annotated[int | str, PlainValidator(_column)]
Number = Annotated[int | float, PlainValidator(_number)]
Bounds = Annotated[list[Number], Field(min_length=2, max_length=2), AfterValidator(_ordered)]
Rate = Annotated[float, Field(ge=0, le=1)]


class _Section(BaseModel):
    # strict: a JSON "0.5" or "yes" is a mistake worth naming, not something to coerce
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class ImportConfig(_Section):
    source_type: Annotated[SourceType, Field(strict=False)] = SourceType.CSV
    file_format: str = Field("csv", min_length=1)
    delimiter: str | None = None  # sniffed when None
    encoding: str | None = None  # UTF-8 (with or without BOM), falling back to Windows-1252
    full_import: bool = True  # absent listings are deletions
    max_records_per_file: int = Field(5000, gt=0)
    max_bytes_per_file: int = Field(20_000_000, gt=0)
    # pulled sources (core/sources/config.py): which settings each source_type takes
    url: HttpUrl | None = None
    auth: SourceAuth | None = None
    paging: Paging | None = None
    records_path: str | None = None  # dotted path to the records' list; "" for the document itself
    incremental: Incremental | None = None
    selectors: Selectors | None = None
    http: HttpSettings = Field(default_factory=HttpSettings)
    schedule: ImportSchedule = "manual"  # when a pulled source is pulled unattended (core/schedules.py)
    # a pulled source's record it has not shown for this many days is proposed for deletion through
    # review (core/staleness.py); None: never
    stale_after_days: Annotated[int, Field(gt=0, le=3650)] | None = None

    @model_validator(mode="after")
    def _source_settings(self) -> ImportConfig:
        check_source(self.source_type, {name: getattr(self, name) for name in
                                        ("url", "auth", "paging", "records_path", "incremental", "selectors")})
        return self

    @field_validator("schedule")
    @classmethod
    def _scheduled_source_is_pulled(cls, value: str, info: ValidationInfo) -> str:
        # declared after source_type and url, so both are in info.data unless they failed their own checks
        if "url" not in info.data:
            return value
        return _pulled_when_scheduled(value, info.data.get("source_type"), info.data["url"], info)

    @field_validator("stale_after_days")
    @classmethod
    def _stale_only_when_pulled(cls, value: int | None, info: ValidationInfo) -> int | None:
        # a file dropped in the inbox is a person's delivery, not a source that stops showing records
        if value is None or "url" not in info.data or (info.context or {}).get(STORED):
            return value
        source_type = info.data.get("source_type")
        if isinstance(source_type, SourceType) and not pulled(source_type, info.data["url"]):
            raise PydanticCustomError(
                "unpulled_staleness", "{source} source without import.url is not pulled: its records are never "
                "stale (leave stale_after_days out, or give import.url)", {"source": f"a {source_type.value}"})
        return value

    @field_validator("delimiter")
    @classmethod
    def _one_character(cls, value: str | None) -> str | None:
        if value is not None and (len(value) != 1 or value in '"\r\n'):
            raise PydanticCustomError("delimiter", "Input should be one character other than a quote or a line break")
        return value

    @field_validator("encoding")
    @classmethod
    def _known_encoding(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                codecs.lookup(value)
            except LookupError:
                raise PydanticCustomError("encoding", "not an encoding Python knows") from None
        return value


class TransformConfig(_Section):
    map_fields: dict[CanonicalField, Column] = {}
    normalize_fields: list[CanonicalField] = [
        "listings.name", "locations.address1", "locations.city", "listings.category"]
    case: dict[CanonicalField, CaseMode | None] = {
        "listings.category": "lower", "locations.state": "upper", "locations.country": "upper"}
    round_lat_lng: Annotated[int, Field(ge=0)] | None = 5
    default_country: str | None = "CA"
    hash_fields: list[CanonicalField] = ["listings.name", "locations.address1", "locations.city"]
    # the source's own category values -> the controlled vocabulary, over the default synonyms
    category_map: dict[str, Category] = {}

    @field_validator("default_country")
    @classmethod
    def _country_code(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z]{2}", value):
            raise PydanticCustomError("country", "Input should be a two-letter country code such as 'CA'")
        return value


class GeoBox(_Section):
    min_lat: Number
    max_lat: Number
    min_lng: Number
    max_lng: Number


class BusinessRules(_Section):
    lat_bounds: Bounds = [-90, 90]
    lng_bounds: Bounds = [-180, 180]
    dmo_geographic_bounds: GeoBox | None = None


class ValidateConfig(_Section):
    required_fields: list[CanonicalField] = ["listings.name", "locations.address1", "locations.city"]
    data_types: dict[CanonicalField, DataType] = {
        "locations.lat": "numeric",
        "locations.lng": "numeric",
        "contact_info.email": "email",
        "contact_info.local_phone": "phone",
    }
    business_rules: BusinessRules = Field(default_factory=BusinessRules)
    max_error_rate: Rate = 0.2


class StageConfig(_Section):
    auto_match_threshold: Rate = 0.8
    review_threshold: Rate = 0.5
    conflict_resolution: str = Field("update_if_changed", min_length=1)

    @field_validator("review_threshold")
    @classmethod
    def _not_above_auto_match(cls, value: float, info: ValidationInfo) -> float:
        auto = info.data.get("auto_match_threshold")
        if auto is not None and value > auto:
            raise PydanticCustomError("threshold_order", "Input should be at most auto_match_threshold ({auto})",
                                      {"auto": auto})
        return value


class PromoteConfig(_Section):
    merge_policy: MergePolicy = "latest_wins"
    update_bridge_table: bool = True
    conflict_resolution: dict[PromoteTable, MergePolicy] = {}


class DmoConfig(_Section):
    # aliases: `import` is a keyword, and BaseModel already has a `validate`
    import_: ImportConfig = Field(default_factory=ImportConfig, alias="import")
    transform: TransformConfig = Field(default_factory=TransformConfig)
    validate_: ValidateConfig = Field(default_factory=ValidateConfig, alias="validate")
    stage: StageConfig = Field(default_factory=StageConfig)
    promote: PromoteConfig = Field(default_factory=PromoteConfig)
    # an older place of import.schedule, still read when that one is manual (repository.upsert_dmo)
    schedule: ImportSchedule = "manual"

    @field_validator("schedule")
    @classmethod
    def _scheduled_source_is_pulled(cls, value: str, info: ValidationInfo) -> str:
        section = info.data.get("import_")
        if section is None:  # the import section failed its own checks, which name the problem
            return value
        return _pulled_when_scheduled(value, section.source_type, section.url, info)


DEFAULT_CONFIG: dict[str, Any] = DmoConfig().model_dump(by_alias=True)


# --- problems --------------------------------------------------------------------------------

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    path: KeyPath  # keys (and list indexes) from the top of the config; () for the whole config
    message: str
    where: str = ""  # "FILE:LINE:COLUMN: " when it comes from a file

    def __str__(self) -> str:
        key = dotted(self.path)
        return f"{self.where}{key}: {self.message}" if key else f"{self.where}{self.message}"


class ConfigError(ValueError):
    """One line per problem in its message; `problems` keeps them apart."""

    def __init__(self, problems: Sequence[Problem] | str):
        self.problems = [Problem((), problems)] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(map(str, self.problems)))


def dotted(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _problems(exc: ValidationError) -> list[Problem]:
    problems = []
    for err in exc.errors(include_url=False):
        path = tuple(p for p in err["loc"] if p != "[key]")
        value = err.get("input")
        if err["type"] == "extra_forbidden":
            message = "unknown key" + _did_you_mean(str(path[-1]), _known_keys(path[:-1]))
        elif err["type"] == "missing":
            message = "required key missing"
        elif "[key]" not in err["loc"] and (value is None or isinstance(value, str | int | float)):
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            message = f"{err['msg']} (got {shown})"
        else:
            message = err["msg"]
        problems.append(Problem(path, message))
    return problems


def _known_keys(path: KeyPath) -> list[str]:
    model: Any = DmoConfig
    for part in path:
        fields = {f.alias or name: f for name, f in model.model_fields.items()}
        annotation = fields[part].annotation if part in fields else None
        model = next((a for a in getattr(annotation, "__args__", (annotation,)) if isinstance(a, type)
                      and issubclass(a, BaseModel)), None)
        if model is None:
            return []
    return [f.alias or name for name, f in model.model_fields.items()]


# --- merging ---------------------------------------------------------------------------------

def merge_config(overrides: dict[str, Any] | None, *, stored: bool = False) -> dict[str, Any]:
    """Defaults overlaid with a DMO's config (dicts merge, everything else replaces), checked
    against DmoConfig; a plain dict keyed as in the JSON. Raises ConfigError naming every problem.
    `stored=True` reads a config saved in the database, as it was saved: the checks that refuse a
    new config for what a stored one may hold (a schedule on a source that is not pulled) pass."""
    if overrides is not None and not isinstance(overrides, dict):
        raise ConfigError(f"the config should be a JSON object (got {type(overrides).__name__})")
    merged = copy.deepcopy(DEFAULT_CONFIG)
    _merge_into(merged, overrides or {})
    try:
        return DmoConfig.model_validate(merged, context={STORED: stored}).model_dump(by_alias=True)
    except ValidationError as exc:
        raise ConfigError(_problems(exc)) from None


def _merge_into(base: dict[str, Any], overrides: dict[str, Any]) -> None:
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge_into(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def maps_by_position(config: dict[str, Any]) -> bool:
    """Whether any map_fields value is a 1-based column position instead of a column name."""
    mapping = (config.get("transform") or {}).get("map_fields") or {}
    return any(isinstance(v, int) and not isinstance(v, bool) for v in mapping.values())


def merge_policy_for(config: dict[str, Any], table: str) -> str:
    promote = config["promote"]
    return promote.get("conflict_resolution", {}).get(table, promote["merge_policy"])


# --- config files ----------------------------------------------------------------------------

def load_config_file(path: str | Path) -> dict[str, Any]:
    """The JSON object in `path`, as written (not merged), once merge_config accepts it. Every
    problem in the ConfigError starts with FILE:LINE:COLUMN of the offending key (or its nearest
    existing parent when the key is not in the file)."""
    path = Path(path)
    text = _read_text(path)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError([Problem((), exc.msg, f"{path}:{exc.lineno}:{exc.colno}: ")]) from None
    offsets = key_offsets(text)
    if not isinstance(raw, dict):
        where = _where(path, text, offsets[()])
        raise ConfigError([Problem((), f"the config should be a JSON object (got {type(raw).__name__})", where)])
    try:
        merge_config(raw)
    except ConfigError as exc:
        located = sorted(((_nearest(offsets, p.path), p) for p in exc.problems), key=lambda pair: pair[0])
        raise ConfigError([replace(p, where=_where(path, text, at)) for at, p in located]) from None
    return raw


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[:exc.start].decode("utf-8-sig")
        raise ConfigError([Problem((), "not UTF-8 text", _where(path, before, len(before)))]) from None


def _where(path: Path, text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"{path}:{line}:{offset - text.rfind(chr(10), 0, offset)}: "


def _nearest(offsets: dict[KeyPath, int], path: KeyPath) -> int:
    for n in range(len(path), -1, -1):
        if path[:n] in offsets:
            return offsets[path[:n]]
    return 0


_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def key_offsets(text: str) -> dict[KeyPath, int]:
    """Where each key (its opening quote) and each array item starts in valid JSON text, by path;
    () is the top-level value. The stdlib parser keeps no positions, and no installed library does."""
    start = _WS.match(text).end()
    found: dict[KeyPath, int] = {(): start}
    _scan(text, start, (), found)
    return found


def _scan(text: str, i: int, path: KeyPath, found: dict[KeyPath, int]) -> int:
    """Records the keys inside the value at `i`; returns the offset just after that value."""
    def ws(j: int) -> int:
        return _WS.match(text, j).end()

    if text[i] not in "{[":
        return _DECODER.raw_decode(text, i)[1]
    closing, i, n = ("}" if text[i] == "{" else "]"), ws(i + 1), 0
    while text[i] != closing:
        if closing == "}":
            key, end = scanstring(text, i + 1)
            child = (*path, key)
            found[child] = i  # a repeated key: the last one wins, as in json.loads
            i = ws(ws(end) + 1)  # past the colon
        else:
            child, n = (*path, n), n + 1
            found[child] = i
        i = ws(_scan(text, i, child, found))
        if text[i] == ",":
            i = ws(i + 1)
    return i + 1
