"""The frame <-> table mapping without a database: SQL types from dtypes (declared types win),
COPY CSV text (NULL distinct from an empty string, JSON never a repr), and CSV back into typed columns."""

import datetime as dt

import pandas as pd
from sqlalchemy import BigInteger, Boolean, DateTime, Double, Integer, SmallInteger, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from sadie_pipeline.core.frame_tables import (
    csv_chunks,
    frame_table,
    parse_sql_type,
    read_csv_frame,
    sql_type,
    type_name,
)


def test_each_dtype_has_its_sql_type():
    frame = pd.DataFrame({
        "i64": [1], "i32": pd.array([1], dtype="int32"), "i8": pd.array([1], dtype="int8"),
        "nullable": pd.array([None], dtype="Int64"), "f": [1.5], "b": [True], "s": ["x"],
        "ts": [dt.datetime(2026, 1, 1, tzinfo=dt.UTC)], "naive": [dt.datetime(2026, 1, 1)],
        "js": [{"a": 1}], "empty": [None]})
    kinds = {c: type(sql_type(frame[c])) for c in frame.columns}
    assert kinds == {"i64": BigInteger, "i32": Integer, "i8": SmallInteger, "nullable": BigInteger, "f": Double,
                     "b": Boolean, "s": Text, "ts": DateTime, "naive": DateTime, "js": JSONB, "empty": Text}
    assert sql_type(frame["ts"]).timezone and not sql_type(frame["naive"]).timezone
    table = frame_table(frame, "t", "s", indexed=["s"], declared={"empty": JSONB()})
    assert isinstance(table.c.empty.type, JSONB) and [i.name for i in table.indexes] == ["ix_t_s"]


def test_type_names_round_trip():
    dialect = PGDialect_psycopg()
    for kind in (BigInteger(), SmallInteger(), Double(), Text(), Boolean(), JSONB(), DateTime(timezone=True)):
        back = parse_sql_type(type_name(kind, dialect))
        assert type_name(back, dialect) == type_name(kind, dialect)


def test_csv_keeps_null_empty_and_json_apart():
    frame = pd.DataFrame({"s": ["", None, 'a "b", c'], "js": [{"k": [1]}, None, ["x"]], "f": [1.5, float("nan"), 0.1],
                          "i": pd.array([1, None, 3], dtype="Int64"), "t": [{"a": dt.date(2026, 1, 2)}, None, None],
                          "b": [True, False, True], "ts": pd.to_datetime(["2026-01-01 12:00:00.5", None, None], utc=True)})
    types = {"s": Text(), "js": JSONB(), "f": Double(), "i": BigInteger(), "t": Text()}
    chunks = list(csv_chunks(frame, types, rows=2))
    assert len(chunks) == 2   # chunk by chunk
    assert "".join(chunks).splitlines() == [
        '"","{""k"":[1]}",1.5,1,"{""a"":""2026-01-02""}",t,2026-01-01T12:00:00.500000+00',  # "" is a quoted empty
        "\\N,\\N,\\N,\\N,\\N,f,\\N",                                                   # NaN, NA, None, NaT: NULL
        '"a ""b"", c","[""x""]",0.1,3,\\N,t,\\N']


def test_csv_reads_back_typed():
    data = b'n,m,b,js,ts,s\n1,\\N,t,"{""k"": 1}",2026-01-01 12:00:00+00,""\n2,5,f,\\N,\\N,\\N\n'
    frame = read_csv_frame(data, {"n": BigInteger(), "m": BigInteger(), "b": Boolean(), "js": JSONB(),
                                  "ts": DateTime(timezone=True), "s": Text()})
    assert frame["n"].dtype == "int64" and frame["m"].dtype == "Int64" and frame["b"].tolist() == [True, False]
    assert frame["js"].tolist()[0] == {"k": 1} and frame["js"].tolist()[1] is None
    assert frame["ts"].iloc[0] == pd.Timestamp("2026-01-01 12:00", tz="UTC") and pd.isna(frame["ts"].iloc[1])
    assert frame["s"].iloc[0] == "" and pd.isna(frame["s"].iloc[1])
