"""A source that cannot be pulled cannot be scheduled: the config check refuses a schedule on a
file source without a url (its files come through the inbox), and `sadie dmo add`/`validate` and
the web editor show that one message. A config saved before the check existed still imports,
the web app says what it fails, and the pull sensor skips it with one warning, not one a minute."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from dagster import SkipReason, build_sensor_context
from psycopg.types.json import Jsonb

from sadie_pipeline.cli import main
from sadie_pipeline.core.config import ConfigError, merge_config
from sadie_pipeline.core.sources.config import API_SOURCES, FILE_SOURCES
from sadie_pipeline.listings.pull_schedule import dmo_pull_sensor
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.listings.helpers import import_file, register, sample, sample_config
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import logged_in, page_token, serving

UNPULLED = "has nothing to pull (its files come through the inbox): leave the schedule manual, or give import.url"


@pytest.fixture
def web(database, local_object_store) -> Iterator[str]:
    """The review and operations web app over real HTTP, with an admin and a viewer."""
    with database.connect() as conn:
        add_user(conn, "ada", PASSWORD, "admin")
        add_user(conn, "vera", PASSWORD, "viewer")
    with serving(database, local_object_store) as base:
        yield base


@pytest.mark.parametrize("source", sorted(FILE_SOURCES))
def test_a_file_source_takes_a_schedule_only_with_a_url(source):
    with pytest.raises(ConfigError) as caught:
        merge_config({"import": {"source_type": source, "schedule": "daily"}})
    assert str(caught.value) == f"import.schedule: a {source} source without import.url {UNPULLED} (got 'daily')"
    with pytest.raises(ConfigError, match=rf"^schedule: a {source} source without import.url"):
        merge_config({"import": {"source_type": source}, "schedule": "0 3 * * *"})  # the older top-level place

    pulled = merge_config({"import": {"source_type": source, "url": "https://dmo.test/listings", "schedule": "daily"}})
    assert pulled["import"]["schedule"] == "daily"
    assert merge_config({"import": {"source_type": source, "schedule": "manual"}})["import"]["schedule"] == "manual"


@pytest.mark.parametrize("source", sorted(API_SOURCES))
def test_a_pulled_source_without_url_is_refused_scheduled_or_not(source):
    for schedule in ("manual", "hourly"):
        with pytest.raises(ConfigError, match="needs url"):
            merge_config({"import": {"source_type": source, "schedule": schedule}})


def test_a_config_stored_before_the_check_is_read_as_saved():
    stored = merge_config({"import": {"source_type": "csv", "schedule": "daily"}}, stored=True)
    assert stored["import"]["schedule"] == "daily"


@pytest.mark.slow
def test_the_cli_refuses_it_with_the_line_and_column(sadie_env, tmp_path):
    path = tmp_path / "scheduled-csv.json"
    path.write_text(json.dumps({"import": {"source_type": "csv", "schedule": "daily"}}, indent=2))
    for args in (["dmo", "add", "files", "--name", "Files", "--config", str(path)], ["dmo", "validate", str(path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # a message, no traceback
        assert result.output == f"{path}:4:5: import.schedule: a csv source without import.url {UNPULLED} (got 'daily')\n"
    assert "no DMOs yet" in CliRunner().invoke(main, ["dmo", "list"]).output  # nothing was saved


def test_the_web_editor_refuses_it_and_saves_nothing(web, database, local_object_store, instance):
    register(database, instance, "visit-pei")
    with logged_in(web, "ada", PASSWORD) as ada:
        token = page_token(ada, "/sources/visit-pei")
        refused = ada.post("/sources/visit-pei/config",
                           data={"csrf_token": token, "config": '{"import": {"schedule": "daily"}}'})
        assert refused.status_code == 422 and "Not saved" in refused.text
        assert f"import.schedule: a csv source without import.url {UNPULLED}" in refused.text.replace("&#39;", "'")
    with database.connect() as conn:
        assert conn.execute("SELECT version, schedule FROM pipeline.configs").fetchone() == (1, "manual")


def _saved_before_the_check(database, instance, slug: str) -> None:
    """A file DMO whose stored config has a schedule, as a config saved before the check was."""
    register(database, instance, slug)
    legacy = {**sample_config(slug), "import": {**sample_config(slug)["import"], "schedule": "daily"}}
    with database.connect() as conn:
        conn.execute("UPDATE pipeline.configs SET config_params = %s, schedule = 'daily' WHERE dmo_id = "
                     "(SELECT id FROM public.dmos WHERE slug = %s)", (Jsonb(legacy), slug))


def test_a_stored_unpullable_schedule_is_skipped_with_one_warning(database, instance, capfd):
    _saved_before_the_check(database, instance, "visit-pei")
    context = build_sensor_context(instance=instance, resources={"database": database})

    ticks = [dmo_pull_sensor(context) for _ in range(3)]   # the cursor carries over, as the daemon's does
    assert all(isinstance(t, SkipReason) and "1 that cannot be pulled: visit-pei" in t.skip_message for t in ticks)
    warnings = [line for line in capfd.readouterr().err.splitlines() if "not pulled" in line]
    assert len(warnings) == 1 and "visit-pei: import.schedule: a csv source without import.url" in warnings[0]

    with database.connect() as conn:    # fixed, then broken again: told again
        conn.execute("UPDATE pipeline.configs SET schedule = 'manual'")
    dmo_pull_sensor(context)
    _saved_before_the_check(database, instance, "visit-pei")
    dmo_pull_sensor(context)
    assert sum("not pulled" in line for line in capfd.readouterr().err.splitlines()) == 1


@pytest.mark.slow
def test_a_stored_unpullable_schedule_still_imports_and_the_page_says_why(web, database, local_object_store,
                                                                          instance):
    _saved_before_the_check(database, instance, "visit-pei")
    result, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    assert result.success and summary["inserted"] > 0
    with logged_in(web, "vera", PASSWORD) as vera:
        page = vera.get("/sources/visit-pei")
    assert page.status_code == 200 and "Saved before today" in page.text
    assert "import.schedule: a csv source without import.url" in page.text and "daily · —" in page.text
