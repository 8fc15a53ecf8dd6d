"""Small helpers that turn rows into Dagster metadata (previews, links)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from dagster import MetadataValue


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
