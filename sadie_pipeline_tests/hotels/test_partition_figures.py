"""What the UI shows per region, on real runs of the whole hotel chain on the sandbox: a run of
three regions (a single-run backfill) gives each region its own figures, the two without hotels
report nothing to do and get no export; a run again with nothing to do changes no table and no
figure of the regions' state, and its own figures (run_*) say it did nothing."""

from __future__ import annotations

import shutil

import psycopg
import pytest
from dagster import materialize

from sadie_pipeline.hotels.assets import hotel_assets
from sadie_pipeline.hotels.checks import hotel_checks
from sadie_pipeline.hotels.definitions import enrichment_assets
from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS
from sadie_pipeline.hotels.lead_assets import lead_assets
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.partitions import range_tags
from sadie_pipeline.resource_defs import configured
from sadie_pipeline_tests.hotels.conftest import sandbox_resources

pytestmark = [pytest.mark.slow, pytest.mark.browser]
CHAIN = [*hotel_assets, *enrichment_assets, *lead_assets]
LAUNCH_ALL = {"ops": {"launched_leads": {"config": {"min_score": 0}}}}
EMPTY = ("US-DC", "US-GA")   # consecutive with US-FL in the region partitions: one run holds all three
# the tables whose rows are the regions' state: a run with nothing to do leaves them as they are
STATE_TABLES = ("sadie_leads.lead_scores", "sadie_leads.launched_leads", "sadie_leads.room_counts",
                "sadie_leads.rdap_owner", "sadie_leads.website_contacts", "sadie_gtm.golden_hotels",
                "sadie_gtm.lead_exports")


def _figures(result) -> dict[str, dict[str, dict]]:
    """asset -> region -> its materialisation's metadata values."""
    out: dict[str, dict[str, dict]] = {}
    for asset in CHAIN:
        for event in result.asset_materializations_for_node(asset.op.name):
            out.setdefault(asset.op.name, {})[event.partition] = {k: v.value for k, v in event.metadata.items()}
    return out


def _tables(database) -> dict[str, list]:
    with psycopg.connect(database.url) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in STATE_TABLES}


def _state(figures: dict) -> dict:
    """Figures about the regions' state (not what a run did): row counts, the scores' mean and bands."""
    return {(asset, region): {k: v for k, v in meta.items()
                              if k == "dagster/row_count" or k == "mean_score" or k.startswith("score_")}
            for asset, regions in figures.items() for region, meta in regions.items()}


def test_each_region_has_its_own_figures_and_a_run_with_nothing_to_do_changes_nothing(
        database, local_object_store, instance, sb, monkeypatch):
    if not shutil.which("chromium"):
        pytest.skip("no system Chromium")
    for name in ("GROQ_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    sb.configure("sites", hang_s=2.0)
    resources = {**sandbox_resources(database, local_object_store, sb), "onedrive": configured("onedrive"),
                 "slack": configured("slack")}
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
    first = materialize([*CHAIN, *hotel_checks], instance=instance, resources=resources, run_config=LAUNCH_ALL,
                        tags=range_tags("US-DC", "US-GA"))
    assert first.success
    figures = _figures(first)

    florida = figures["hotel_discovery"]["US-FL"]
    assert florida["source_records"] > 0 and not florida["nothing_to_do"]
    for asset, regions in figures.items():
        assert set(regions) == {"US-DC", "US-FL", "US-GA"}, asset
        for region in EMPTY:   # nothing of Florida's on the empty regions
            meta = regions[region]
            assert meta["nothing_to_do"] is True and meta["partition"] == region, (asset, region, meta)
            assert meta.get("dagster/row_count", 0) == 0, (asset, region, meta)
            for key in ("source_records", "records", "sites", "hotels", "run_launched", "run_rejected",
                        "files_written", "files_unchanged", "hotels_exported"):
                assert not meta.get(key), (asset, region, key, meta[key])
    assert figures["launched_leads"]["US-FL"]["dagster/row_count"] > 0
    assert figures["lead_exports"]["US-FL"]["files_written"] > 0
    with psycopg.connect(database.url) as conn:
        exported = {r[0] for r in conn.execute("SELECT DISTINCT region FROM sadie_gtm.lead_exports")}
    assert exported == {"US-FL"}
    assert [k for k in local_object_store.list_keys("exports/") if "Florida" not in k] == []

    tables = _tables(database)
    again = materialize([*CHAIN, *hotel_checks], instance=instance, resources=resources, run_config=LAUNCH_ALL,
                        partition_key="US-FL")
    assert again.success
    figures_again = _figures(again)
    assert _tables(database) == tables
    assert _state(figures_again) == {key: value for key, value in _state(figures).items() if key[1] == "US-FL"}
    done = {asset: regions["US-FL"] for asset, regions in figures_again.items()}
    for asset in (*ENRICHMENT_LAYER_ASSETS, "golden_hotels", "lead_scores", "launched_leads", "lead_exports"):
        assert done[asset]["nothing_to_do"] is True, (asset, done[asset])
    assert done["lead_scores"]["run_scores_changed"] == 0 and done["launched_leads"]["run_launched"] == 0
    assert done["lead_exports"]["files_written"] == 0
