"""pandas DataFrames as PostgreSQL tables through SQLAlchemy Core: the table a frame needs (each
column's SQL type from its dtype), the frame as COPY CSV chunks, and COPY CSV output back into a
frame typed by the table's columns. Pure: no connection, no Dagster."""

from __future__ import annotations

import datetime as dt
import decimal
import io
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import orjson
import pandas as pd
from pandas.api import types as ptypes
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    Double,
    Float,
    Index,
    Integer,
    Interval,
    LargeBinary,
    MetaData,
    Numeric,
    SmallInteger,
    Table,
    Text,
)
from sqlalchemy.dialects.postgresql import INTERVAL, JSONB, TIMESTAMP
from sqlalchemy.dialects.postgresql.base import ischema_names
from sqlalchemy.types import TypeEngine

# COPY's NULL marker: unquoted, so distinct from an empty string (always quoted here).
NULL = r"\N"
COPY_OPTIONS = f"(FORMAT csv, HEADER false, NULL '{NULL}')"
COPY_OUT_OPTIONS = f"(FORMAT csv, HEADER true, NULL '{NULL}')"
CHUNK_ROWS = 20_000  # rows per COPY chunk: the text of a whole frame is never held


def _object_type(series: pd.Series) -> TypeEngine:
    """An object column's type, from its first non-null value."""
    values = series.dropna()
    sample = values.iloc[0] if len(values) else None
    for kinds, sql in (((dict, list), JSONB()), (bool, Boolean()), (int, BigInteger()), (float, Double()),
                       (decimal.Decimal, Numeric()), (dt.datetime, None), (dt.date, Date()),
                       ((bytes, bytearray, memoryview), LargeBinary())):
        if isinstance(sample, kinds):
            return sql if sql is not None else DateTime(timezone=sample.tzinfo is not None)
    return Text()


def sql_type(series: pd.Series) -> TypeEngine:
    """The SQL type a column of this dtype is stored as."""
    dtype = series.dtype
    if ptypes.is_bool_dtype(dtype):
        return Boolean()
    if ptypes.is_integer_dtype(dtype):
        size, signed = dtype.itemsize, ptypes.is_signed_integer_dtype(dtype)
        if size == 1 or (size == 2 and signed):
            return SmallInteger()
        return Integer() if size == 2 or (size == 4 and signed) else BigInteger()
    if ptypes.is_float_dtype(dtype):
        return Double()
    if isinstance(dtype, pd.DatetimeTZDtype):
        return DateTime(timezone=True)
    if ptypes.is_datetime64_dtype(dtype):
        return DateTime()
    if ptypes.is_timedelta64_dtype(dtype):
        return Interval()
    if isinstance(dtype, pd.CategoricalDtype):
        return sql_type(series.astype(dtype.categories.dtype))
    if ptypes.is_string_dtype(dtype) and not ptypes.is_object_dtype(dtype):
        return Text()
    return _object_type(series)


def parse_sql_type(name: str) -> TypeEngine:
    """A PostgreSQL type name as Dagster's column schemas hold it ("bigint", "jsonb",
    "timestamp with time zone") as its SQLAlchemy type."""
    name = name.strip().lower()
    if name.startswith("timestamp"):
        return TIMESTAMP(timezone="with time zone" in name)
    kind = ischema_names.get(name.split("(")[0].strip())
    if kind is None:
        raise ValueError(f"unknown PostgreSQL type {name!r} in a column schema")
    return kind()


def type_name(kind: TypeEngine, dialect: Any) -> str:
    """The type as PostgreSQL names it, lower case (the inverse of parse_sql_type)."""
    return kind.compile(dialect).lower()


def index_name(table: str, column: str) -> str:
    return f"ix_{table}_{column}"[:63]  # PostgreSQL's identifier limit


def frame_table(frame: pd.DataFrame, name: str, schema: str, indexed: Sequence[str] = (),
                declared: Mapping[str, TypeEngine] | None = None) -> Table:
    """The table the frame is stored in: one column per frame column, of its `declared` type or
    else typed from its dtype, and an index on each of `indexed` (the partition columns) it has."""
    declared = declared or {}
    columns = [Column(str(c), declared.get(str(c)) or sql_type(frame[c])) for c in frame.columns]
    table = Table(name, MetaData(), *columns, schema=schema)
    for column in indexed:
        if column in table.c:
            Index(index_name(name, column), table.c[column])
    return table


def json_text(value: Any) -> str:
    """JSON as this module writes it: any value (dates, decimals as text), keys of any type."""
    return orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


def _is_json(series: pd.Series) -> bool:
    return ptypes.is_object_dtype(series.dtype) and isinstance(_object_type(series), JSONB)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _as_text(series: pd.Series, kind: TypeEngine | None) -> Any:
    if isinstance(kind, JSON) or _is_json(series):
        return json_text
    if isinstance(kind, LargeBinary):
        return lambda v: "\\x" + bytes(v).hex()
    return str


def _fields(series: pd.Series, kind: TypeEngine | None) -> list[str]:
    """A column as CSV fields, vectorised where numpy can: numbers as their shortest round-trip
    text, timestamps ISO 8601 (UTC when aware), booleans t/f, anything else quoted (dicts and
    lists as JSON, never a repr), and NULL as an unquoted \\N."""
    dtype, missing = series.dtype, series.isna().to_numpy()
    if isinstance(dtype, pd.DatetimeTZDtype):
        utc = series.dt.tz_convert("UTC").dt.tz_localize(None).to_numpy()
        values = [t + "+00" for t in np.datetime_as_string(utc, unit="us").tolist()]
    elif ptypes.is_datetime64_dtype(dtype):
        values = np.datetime_as_string(series.to_numpy(), unit="us").tolist()
    elif ptypes.is_bool_dtype(dtype):
        values = np.where(series.to_numpy(dtype=bool, na_value=False), "t", "f").tolist()
    elif ptypes.is_integer_dtype(dtype) or ptypes.is_float_dtype(dtype):
        values = list(map(str if ptypes.is_integer_dtype(dtype) else repr, series.tolist()))
    else:
        text = _as_text(series, kind)
        return [NULL if gone else _quoted(text(v)) for v, gone in zip(series.tolist(), missing)]
    for i in np.flatnonzero(missing):
        values[i] = NULL
    return values


def csv_chunks(frame: pd.DataFrame, types: Mapping[str, TypeEngine], rows: int = CHUNK_ROWS) -> Iterator[str]:
    """The frame as COPY CSV text (no header, NULL as \\N), `rows` rows at a time: the text of
    a whole frame is never held (and this runs about twice as fast as DataFrame.to_csv)."""
    for start in range(0, len(frame), rows):
        part = frame.iloc[start:start + rows]
        columns = [_fields(part[name], types.get(str(name))) for name in part.columns]
        yield "\n".join(map(",".join, zip(*columns))) + "\n"


def _integers(series: pd.Series) -> pd.Series:
    return series.astype("int64") if not series.isna().any() else series


def _booleans(series: pd.Series) -> pd.Series:
    mapped = series.map({"t": True, "f": False})
    return mapped.astype(bool) if not series.isna().any() else mapped.astype("boolean")


def _timestamps(series: pd.Series, kind: DateTime) -> pd.Series:
    return pd.to_datetime(series, format="ISO8601", utc=bool(kind.timezone))


def _mapped(fn: Any) -> Any:
    """Each cell through fn; NULL as None (what a database driver returns for these objects)."""
    return lambda s: s.map(fn, na_action="ignore").astype(object).where(s.notna(), None)


_READ_AS = ((Boolean, str), (SmallInteger, "Int64"), (Integer, "Int64"), (BigInteger, "Int64"),
            (Float, "float64"), (Numeric, "float64"))
_AFTER: tuple[tuple[type, Any], ...] = (
    (Boolean, _booleans), (Integer, _integers), (JSON, _mapped(orjson.loads)),
    (LargeBinary, _mapped(lambda v: bytes.fromhex(v[2:]))), (Date, _mapped(dt.date.fromisoformat)),
    ((Interval, INTERVAL), pd.to_timedelta))


def read_csv_frame(data: bytes, types: Mapping[str, TypeEngine]) -> pd.DataFrame:
    """COPY ... TO STDOUT CSV output (with its header) as a frame typed by the columns' SQL types:
    integers as int64 (nullable Int64 when NULLs occur), JSON as Python values, timestamps as
    datetime64 (UTC when the column has a time zone)."""
    read_as = {name: next((pd_type for sql, pd_type in _READ_AS if isinstance(kind, sql)), str)
               for name, kind in types.items()}
    frame = pd.read_csv(io.BytesIO(data), dtype=read_as, na_values=[NULL], keep_default_na=False)
    for name, kind in types.items():
        if isinstance(kind, DateTime):
            frame[name] = _timestamps(frame[name], kind)
            continue
        convert = next((fn for sql, fn in _AFTER if isinstance(kind, sql)), None)
        if convert is not None:
            frame[name] = convert(frame[name])
    return frame
