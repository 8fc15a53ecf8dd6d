"""Files and arguments a person gets wrong, met at the entry (`sadie import`): one line naming what
is wrong, status 1, no traceback, nothing imported. An unknown DMO, a malformed config, a bad slug
for `dmo add`, an unreachable database and unknown review ids are in test_cli.py."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from dagster import DagsterInstance

from sadie_pipeline.cli import main
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

SLUG = "dmo-a"
# Two phone columns: the office's first, the cell's second (the one the DMO means).
HEADER = ["Phone", "Name", "Address", "City", "Phone", "Description"]
ROW = ["902-555-0100", "Harbourfront Grill", "12 Water St", "Charlottetown", "902-555-0199", "Seafood on the wharf."]
BY_POSITION = {"transform": {"map_fields": {
    "listings.name": 2, "locations.address1": 3, "locations.city": 4, "contact_info.local_phone": 5,
    "listing_info.description": 6}}}


def _csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _add_dmo(tmp_path: Path, config: dict) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    added = CliRunner().invoke(main, ["dmo", "add", SLUG, "--name", "A", "--config", str(path)])
    assert added.exit_code == 0, added.output


def _fails(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 1, (result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def _nothing_imported(database) -> None:
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.listings").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM staging.raw_keys").fetchone()[0] == 0
        assert conn.execute("SELECT stage, status FROM pipeline.jobs").fetchall() in ([], [("import", "failed")])


def test_a_mapped_column_missing_from_the_header(sadie_env, tmp_path, database):
    _add_dmo(tmp_path, SIMPLE_CONFIG)
    path = _csv(tmp_path / "a.csv", ["Name", "Address", "City", "Description", "Website"],
                [["Harbourfront Grill", "12 Water St", "Charlottetown", "Seafood.", ""]])

    line = _fails("import", SLUG, str(path))

    assert "the file has no column 'Phone'" in line and "mapped by the DMO's config" in line
    _nothing_imported(database)


def test_a_repeated_header_name_fails_when_mapped_by_name(sadie_env, tmp_path, database):
    _add_dmo(tmp_path, {"transform": {"map_fields": dict(
        SIMPLE_CONFIG["transform"]["map_fields"], **{"contact_info.website_url": "Description"})}})
    path = _csv(tmp_path / "a.csv", HEADER, [ROW])

    line = _fails("import", SLUG, str(path))

    assert "the header names column 'Phone' more than once" in line and "by position" in line
    _nothing_imported(database)


def test_a_repeated_header_name_imports_when_mapped_by_position(sadie_env, tmp_path, database):
    _add_dmo(tmp_path, BY_POSITION)
    path = _csv(tmp_path / "a.csv", HEADER, [ROW, ["", "Blue Heron Inn", "4 Main St", "Souris", "902-555-0101",
                                                   "Rooms by the sea."]])

    result = CliRunner().invoke(main, ["import", SLUG, str(path)])

    assert result.exit_code == 0, result.output
    assert "2 read; 2 inserted" in result.output
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT l.name, loc.address1, loc.city, ci.international_phone, li.description
                 FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id
                 JOIN public.listing_info li ON li.listing_id = l.id
                 JOIN public.contact_info ci ON ci.id = li.contact_info_id ORDER BY l.name""").fetchall()
    assert rows == [("Blue Heron Inn", "4 Main St", "Souris", "+19025550101", "Rooms by the sea."),
                    ("Harbourfront Grill", "12 Water St", "Charlottetown", "+19025550199", "Seafood on the wharf.")]


def test_a_repeated_header_name_nothing_maps_by_name_is_no_obstacle(sadie_env, tmp_path, database):
    """Mixed mappings: the repeated Phone columns are mapped by position, the rest by name."""
    by_name = {"listings.name": "Name", "locations.address1": "Address", "locations.city": "City",
               "listing_info.description": "Description", "contact_info.local_phone": 5}
    _add_dmo(tmp_path, {"transform": {"map_fields": by_name}})

    result = CliRunner().invoke(main, ["import", SLUG, str(_csv(tmp_path / "a.csv", HEADER, [ROW]))])

    assert result.exit_code == 0, result.output
    with database.connect() as conn:
        assert conn.execute("SELECT international_phone FROM public.contact_info").fetchall() == [("+19025550199",)]


def test_a_position_beyond_the_header(sadie_env, tmp_path, database):
    _add_dmo(tmp_path, {"transform": {"map_fields": dict(BY_POSITION["transform"]["map_fields"],
                                                         **{"contact_info.website_url": 9})}})
    line = _fails("import", SLUG, str(_csv(tmp_path / "a.csv", HEADER, [ROW])))

    assert "maps column 9 but the file has 6" in line
    _nothing_imported(database)


@pytest.mark.parametrize("slug", ["../evil", "a/b", "", "x" * 300])
@pytest.mark.parametrize("command", ["import", "promote"])
def test_a_bad_slug_given_to_import_or_promote(sadie_env, tmp_path, database, slug, command):
    args = [command, "--", slug] + ([str(_csv(tmp_path / "a.csv", HEADER, [ROW]))] if command == "import" else [])

    line = _fails(*args)

    assert line.startswith("Error: no DMO ") and "lower-case letters, digits and hyphens" in line
    assert len(line) < 200
    assert slug not in DagsterInstance.get().get_dynamic_partitions("dmo")
    assert not list(sadie_env.rglob("*-a.csv"))  # not put in any inbox (nor outside one: "../evil")
