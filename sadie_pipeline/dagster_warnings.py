"""The one place that silences Dagster's known Beta, Preview and Supersession warnings.

Dagster says them once per decorated definition and again in every run and step process, so a day
of `dagster dev` printed thousands of lines that buried real warnings. They are about APIs we chose
on purpose (backfill policies, partitioned check specs, Definitions.map_asset_specs in catalog.py),
so they are silenced here, by category, on import, before any definition is built; every other
warning still shows."""

from __future__ import annotations

import warnings

from dagster import BetaWarning, PreviewWarning, SupersessionWarning

KNOWN = (BetaWarning, PreviewWarning, SupersessionWarning)


def silence_known_dagster_warnings() -> None:
    for category in KNOWN:
        warnings.filterwarnings("ignore", category=category)


silence_known_dagster_warnings()
