"""Small helpers that turn rows into Dagster metadata (previews, links)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from dagster import MetadataValue, TableColumn, TableRecord, TableSchema


def markdown_table(columns: Sequence[str], rows: Iterable[Sequence[Any]], max_width: int = 40) -> MetadataValue:
    def cell(value: Any) -> str:
        text = "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")
        return text if len(text) <= max_width else text[: max_width - 1] + "…"

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return MetadataValue.md("\n".join(lines))


def path_list(uris: Sequence[str], limit: int = 20) -> MetadataValue:
    shown = list(uris[:limit])
    more = f"\n… and {len(uris) - limit} more" if len(uris) > limit else ""
    return MetadataValue.md("\n".join(f"- `{u}`" for u in shown) + more if shown else "(none)")


# Values a TableRecord holds as they are; anything else (Decimal, dates, lists) becomes text.
_TABLE_SCALARS = (str, int, float, bool)


def _table_cell(value: Any) -> str | int | float | bool | None:
    if value is None or isinstance(value, _TABLE_SCALARS):
        return value
    if isinstance(value, Decimal):
        return float(value)
    return str(value)


def table_schema(*columns: tuple[str, str]) -> TableSchema:
    """A schema from (name, type) pairs; the types are Dagster's: string, int, float, bool."""
    return TableSchema(columns=[TableColumn(name=name, type=kind) for name, kind in columns])


def table_preview(schema: TableSchema, rows: Iterable[Sequence[Any]]) -> MetadataValue:
    """Rows as a table the UI renders with its schema (sortable, typed), cells in schema order."""
    names = [c.name for c in schema.columns]
    records = [TableRecord(data={n: _table_cell(v) for n, v in zip(names, row)}) for row in rows]
    return MetadataValue.table(records, schema=schema)


NOTHING_TO_DO = "nothing_to_do"


def report_partitions(context: Any, figures: Mapping[str, Mapping[str, Any]], did_work: Mapping[str, bool]) -> None:
    """Each partition of the run gets its own figures (`figures[key]`, none when absent) and
    `nothing_to_do` when `did_work[key]` is false. Dagster copies a MaterializeResult's metadata to
    every partition of a multi-partition run; only add_asset_metadata(partition_key=) is per partition."""
    for key in context.partition_keys:
        context.add_asset_metadata({"partition": key, NOTHING_TO_DO: not did_work.get(key, False),
                                    **figures.get(key, {})}, partition_key=key)
