"""The hotel-lead assets whose value is a table: their columns declared with SQLAlchemy Core,
and the queries (sql/frames.sql) that read an asset's value back from the tables it changed.

Each such asset goes to the Postgres IO manager (io_managers/postgres_pandas.py) as
`sadie_leads.{asset}`, replaced per region partition: `REGION_TABLE` is its decorator arguments.
The asset keys keep no prefix (jobs, checks, the CLI and the run history name them), so the
schema comes from the `schema` metadata, which DbIOManager reads before the key prefix."""

import functools
from collections.abc import Sequence
from typing import Any

import pandas as pd
import psycopg
from dagster import TableColumn, TableSchema
from psycopg.sql import SQL, Composable
from sqlalchemy import BigInteger, Column, DateTime, Double, MetaData, SmallInteger, Table, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from sadie_pipeline.core.frame_tables import COPY_OUT_OPTIONS, read_csv_frame, type_name
from sadie_pipeline.core.hotel_status import LAUNCHED
from sadie_pipeline.core.scoring import COMPONENTS
from sadie_pipeline.hotels.queries import sql
from sadie_pipeline.io_managers import POSTGRES_IO_MANAGER

LEADS_SCHEMA = "sadie_leads"
_TABLES = MetaData(schema=LEADS_SCHEMA)

# Each column's comment is its description in the UI (column_schema); shared ones are named once.
_HOTEL_ID = "The hotel (sadie_gtm.hotels.id)."
_REGION = "The hotel's region, an ISO 3166-2 code (US-FL): the partition the row belongs to."
_CITY = "The hotel's city."

LEAD_SCORES = Table(
    "lead_scores", _TABLES,
    Column("hotel_id", BigInteger, comment=_HOTEL_ID), Column("region", Text, comment=_REGION),
    Column("city", Text, comment=_CITY),
    Column("score", SmallInteger, comment="The lead score, 0-100: the sum of the components' points."),
    *(Column(name, Double, comment=f"Points of the {name.replace('_', ' ')} component (core/scoring.py; "
                                   "its inputs are in the hotel's score_details).") for name in COMPONENTS),
    Column("scored_at", DateTime(timezone=True), comment="When the hotel was last scored."))

LAUNCHED_LEADS = Table(
    "launched_leads", _TABLES,
    Column("hotel_id", BigInteger, comment=_HOTEL_ID), Column("region", Text, comment=_REGION),
    Column("city", Text, comment=_CITY),
    Column("name", Text, comment="The hotel's name: its golden record's, else the name it was discovered with."),
    Column("score", SmallInteger, comment="The hotel's lead score, 0-100."),
    Column("tier", SmallInteger,
           comment="Its booking engine's tier in the catalogue (1 or 2; the launch takes tier 1 by default)."),
    Column("launched_at", DateTime(timezone=True), comment="When the hotel went live (status 5, LIVE)."))



@functools.cache  # one Table per name in the MetaData
def layer_table(name: str) -> Table:
    """An enrichment layer's value: one row per hotel its run took up, what became of it
    (ok, dead_letter, skipped; the error class or the reason) and what it found."""
    return Table(name, _TABLES, Column("hotel_id", BigInteger, comment=_HOTEL_ID),
                 Column("region", Text, comment=_REGION),
                 Column("layer", Text, comment="The enrichment layer (the asset's name)."),
                 Column("outcome", Text, comment="The hotel's latest outcome: ok, dead_letter or skipped."),
                 Column("detail", Text, comment="A dead letter's error class, or why the hotel was skipped."),
                 Column("attempts", SmallInteger, comment="Attempts that outcome took, retries included."),
                 Column("value", JSONB, comment="What the layer found (ok), or the last error of a dead letter."))


def column_schema(table: Table) -> TableSchema:
    """The table's columns as Dagster's column schema (the IO manager creates the table with these
    types), each described by its comment."""
    dialect = PGDialect_psycopg()
    return TableSchema(columns=[TableColumn(name=c.name, type=type_name(c.type, dialect), description=c.comment)
                                for c in table.columns])


def region_table(table: Table) -> dict[str, Any]:
    """@asset arguments of an asset whose value is the table, replaced per region."""
    return {"io_manager_key": POSTGRES_IO_MANAGER,
            "metadata": {"schema": LEADS_SCHEMA, "partition_expr": "region",
                         "dagster/column_schema": column_schema(table)}}


def _types(table: Table) -> dict[str, Any]:
    return {c.name: c.type for c in table.columns}


def query_frame(conn: psycopg.Connection, table: Table, query: str | Composable, params: dict[str, Any]) -> pd.DataFrame:
    """A query of sql/frames.sql (its name, or the statement composed from it) as a frame of the
    table's columns, through COPY (one pass, typed)."""
    statement = SQL(sql("frames", query)) if isinstance(query, str) else query
    data = bytearray()
    with conn.cursor() as cur, cur.copy(SQL("COPY ({}) TO STDOUT " + COPY_OUT_OPTIONS).format(statement),
                                        params) as copy:
        for block in copy:
            data += block
    return read_csv_frame(bytes(data), _types(table))


def scores_frame(conn: psycopg.Connection, regions: Sequence[str]) -> pd.DataFrame:
    return query_frame(conn, LEAD_SCORES, "lead_scores", {"regions": list(regions)})


def launched_frame(conn: psycopg.Connection, regions: Sequence[str]) -> pd.DataFrame:
    return query_frame(conn, LAUNCHED_LEADS, "launched_leads", {"regions": list(regions), "launched": list(LAUNCHED)})


def layer_frame(rows: Sequence[tuple[Any, ...]], table: Table) -> pd.DataFrame:
    """An enrichment layer's rows (in layer_table's column order) as its frame, typed even when empty."""
    frame = pd.DataFrame(list(rows), columns=[c.name for c in table.columns])
    return frame.astype({"hotel_id": "int64", "attempts": "Int64"})
