"""The PostgreSQL IO manager for pandas DataFrames: Dagster's own `DbIOManager` (as
dagster-duckdb-pandas and dagster-snowflake-pandas are built) with a `DbClient` for PostgreSQL
and a pandas `DbTypeHandler`; SQLAlchemy Core holds the tables, their types and the statements.

An asset's table is `{schema}.{asset name}`, the schema taken in DbIOManager's order: the
asset's `schema` metadata, the IO manager's `schema`, the asset key's prefix, else `public`. A
partitioned asset names its partition column in `partition_expr` metadata. Writing deletes the
run's partitions' rows and COPYs the frame in one transaction, so re-materialising a partition
replaces its rows and no other. Inputs load the upstream partitions the run maps to (one frame
for several), only the input's `columns` metadata when it has some. The table is created on the
first write, each column of the type the asset's `dagster/column_schema` metadata declares, else
of its dtype's (core/frame_tables.py), with an index on the partition column; a later frame's
new columns are added. COPY moves the rows both ways (CSV, chunk by chunk)."""

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import pandas as pd
from dagster import (
    ConfigurableIOManagerFactory,
    DagsterInvariantViolationError,
    InitResourceContext,
    InputContext,
    OutputContext,
    ResourceDependency,
    TableColumn,
    TableSchema,
)
from dagster._core.definitions.partitions.utils import TimeWindow
from dagster._core.storage.db_io_manager import DbClient, DbIOManager, DbTypeHandler, TableSlice
from psycopg.conninfo import conninfo_to_dict
from pydantic import Field
from sqlalchemy import (
    DDL,
    ColumnElement,
    Connection,
    Engine,
    Select,
    Table,
    and_,
    column,
    create_engine,
    delete,
    func,
    inspect,
    literal_column,
    select,
    table,
)
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.pool import NullPool
from sqlalchemy.schema import CreateSchema
from sqlalchemy.types import TypeEngine

from sadie_pipeline.core.frame_tables import (
    COPY_OPTIONS,
    COPY_OUT_OPTIONS,
    csv_chunks,
    frame_table,
    parse_sql_type,
    read_csv_frame,
    type_name,
)
from sadie_pipeline.resources.database import Database, to_sqlalchemy_url


def partition_filter(table_slice: TableSlice) -> list[ColumnElement[bool]]:
    """One clause per partition dimension: `expr IN (keys)`, or a time window's half-open range.
    `partition_expr` is SQL, as in Dagster's other database IO managers."""
    clauses: list[ColumnElement[bool]] = []
    for dimension in table_slice.partition_dimensions or ():
        expr = literal_column(dimension.partition_expr)
        if isinstance(dimension.partitions, TimeWindow):
            clauses.append(and_(expr >= dimension.partitions.start, expr < dimension.partitions.end))
        else:
            clauses.append(expr.in_(list(dimension.partitions)))
    return clauses


def _table_clause(table_slice: TableSlice) -> Any:
    return table(table_slice.table, schema=table_slice.schema)


def select_statement(table_slice: TableSlice) -> Select:
    columns = [column(c) for c in table_slice.columns] if table_slice.columns else [literal_column("*")]
    return select(*columns).select_from(_table_clause(table_slice)).where(*partition_filter(table_slice))


def _sql(statement: Any, connection: Connection | None = None) -> str:
    """The statement as text with its values inline (COPY takes no parameters)."""
    dialect = connection.dialect if connection is not None else PGDialect_psycopg()
    return str(statement.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))


def _lock(connection: Connection, name: str) -> None:
    """Serialises creating one schema or table among concurrent runs (IF NOT EXISTS can still race)."""
    connection.execute(select(func.pg_advisory_xact_lock(func.hashtext(name))))


def stored_types(connection: Connection, table_slice: TableSlice) -> dict[str, TypeEngine] | None:
    """The table's columns and their SQL types as stored, None when there is no such table."""
    inspector = inspect(connection)
    if not inspector.has_table(table_slice.table, schema=table_slice.schema):
        return None
    return {c["name"]: c["type"] for c in inspector.get_columns(table_slice.table, schema=table_slice.schema)}


class PostgresDbClient(DbClient):
    """Connections, schemas and partition deletes for DbIOManager, on one SQLAlchemy engine."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(to_sqlalchemy_url(url), poolclass=NullPool)

    @contextmanager
    def connect(self, context: OutputContext | InputContext, table_slice: TableSlice) -> Iterator[Connection]:
        with self.engine.begin() as connection:  # the delete and the COPY commit together or not at all
            yield connection

    def ensure_schema_exists(self, context: OutputContext, table_slice: TableSlice, connection: Connection) -> None:
        if not inspect(connection).has_schema(table_slice.schema):
            _lock(connection, table_slice.schema)
            connection.execute(CreateSchema(table_slice.schema, if_not_exists=True))

    def delete_table_slice(self, context: OutputContext, table_slice: TableSlice, connection: Connection) -> None:
        if inspect(connection).has_table(table_slice.table, schema=table_slice.schema):
            connection.execute(delete(_table_clause(table_slice)).where(*partition_filter(table_slice)))

    def get_select_statement(self, table_slice: TableSlice) -> str:
        return _sql(select_statement(table_slice))


def _create_or_widen(connection: Connection, wanted: Table, stored: Mapping[str, TypeEngine] | None) -> None:
    """Creates the table (and its partition index) on the first write; adds a later frame's new columns."""
    if stored is None:
        _lock(connection, f"{wanted.schema}.{wanted.name}")
        wanted.create(connection, checkfirst=True)
        return
    quote = connection.dialect.identifier_preparer
    for col in wanted.columns:
        if col.name not in stored:
            connection.execute(DDL(f"ALTER TABLE {quote.format_table(wanted)} ADD COLUMN IF NOT EXISTS "
                                   f"{quote.quote(col.name)} {col.type.compile(connection.dialect)}"))


def copy_frame(connection: Connection, target: Table, frame: pd.DataFrame, types: Mapping[str, TypeEngine]) -> None:
    """COPY the frame's rows into the table as CSV, chunk by chunk, on the connection's transaction."""
    if frame.empty:
        return
    quote = connection.dialect.identifier_preparer
    names = ", ".join(quote.quote(str(c)) for c in frame.columns)
    statement = f"COPY {quote.format_table(target)} ({names}) FROM STDIN {COPY_OPTIONS}"
    with connection.connection.driver_connection.cursor() as cursor, cursor.copy(statement) as copy:
        for chunk in csv_chunks(frame, types):
            copy.write(chunk)


def column_schema(types: Mapping[str, TypeEngine]) -> TableSchema:
    """Columns and their PostgreSQL types as Dagster's `dagster/column_schema` metadata."""
    return TableSchema(columns=[TableColumn(name=name, type=type_name(kind, PGDialect_psycopg()))
                                for name, kind in types.items()])


def declared_types(context: OutputContext) -> dict[str, TypeEngine]:
    """The column types the asset declares in its `dagster/column_schema` metadata: its table is
    created with them (a column of None values still gets its JSON or integer type)."""
    schema = (context.definition_metadata or {}).get("dagster/column_schema")
    schema = getattr(schema, "schema", schema)  # a TableSchemaMetadataValue, or the TableSchema itself
    return {c.name: parse_sql_type(c.type) for c in schema.columns} if isinstance(schema, TableSchema) else {}


class PostgresPandasTypeHandler(DbTypeHandler[pd.DataFrame]):
    """pandas DataFrames in and out of PostgreSQL tables, through COPY both ways."""

    def handle_output(self, context: OutputContext, table_slice: TableSlice, obj: pd.DataFrame,
                      connection: Connection) -> Mapping[str, Any]:
        indexed = [d.partition_expr for d in table_slice.partition_dimensions or ()]
        wanted = frame_table(obj, table_slice.table, table_slice.schema, indexed, declared_types(context))
        stored = stored_types(connection, table_slice)
        _create_or_widen(connection, wanted, stored)
        types = {c.name: c.type for c in wanted.columns} | dict(stored or {})
        copy_frame(connection, wanted, obj, types)
        return {"dagster/row_count": len(obj),
                "dagster/column_schema": column_schema({str(c): types[str(c)] for c in obj.columns})}

    def load_input(self, context: InputContext, table_slice: TableSlice, connection: Connection) -> pd.DataFrame:
        stored = stored_types(connection, table_slice)
        if stored is None:
            raise DagsterInvariantViolationError(
                f"{table_slice.schema}.{table_slice.table} does not exist: materialise {context.asset_key.to_user_string()}"
                " (for these partitions) before the assets that read it")
        wanted: Sequence[str] = table_slice.columns or list(stored)
        unknown = [c for c in wanted if c not in stored]
        if unknown:
            raise DagsterInvariantViolationError(
                f"{table_slice.schema}.{table_slice.table} has no column(s) {unknown}; it has {list(stored)}")
        statement = f"COPY ({_sql(select_statement(table_slice), connection)}) TO STDOUT {COPY_OUT_OPTIONS}"
        data = bytearray()
        with connection.connection.driver_connection.cursor() as cursor, cursor.copy(statement) as copy:
            for block in copy:
                data += block
        return read_csv_frame(bytes(data), {c: stored[c] for c in wanted})

    @property
    def supported_types(self) -> Sequence[type[object]]:
        return [pd.DataFrame]


class PostgresPandasIOManager(ConfigurableIOManagerFactory):
    """Stores pandas DataFrame outputs in PostgreSQL tables and loads inputs from them, per
    partition (module docstring). The database is the project's Database resource."""

    database: ResourceDependency[Database]
    schema_: str | None = Field(default=None, alias="schema",
                                description="The schema of every table whose asset has no `schema` metadata (key prefixes then go unused).")

    def create_io_manager(self, context: InitResourceContext) -> DbIOManager:
        url = self.database.resolved_url()
        return DbIOManager(type_handlers=[PostgresPandasTypeHandler()], db_client=PostgresDbClient(url),
                           database=conninfo_to_dict(url).get("dbname") or "postgres", schema=self.schema_,
                           io_manager_name="PostgresPandasIOManager", default_load_type=pd.DataFrame)
