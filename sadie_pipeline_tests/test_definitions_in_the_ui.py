"""What the code location shows a data engineer: loading it, as every code server, run worker and
step process does, prints no warning from the project's own code (Dagster's known Beta/Preview/
Supersession warnings are silenced in one place, sadie_pipeline/dagster_warnings.py), and every
asset, sensor, schedule and job says what it does."""

from __future__ import annotations

import subprocess
import sys

from sadie_pipeline.definitions import defs


def test_loading_the_definitions_says_no_warning():
    # -W default shows every warning once per place, DeprecationWarnings included, as a fresh process would
    done = subprocess.run([sys.executable, "-W", "default", "-c", "import sadie_pipeline.definitions"],
                          capture_output=True, text=True, timeout=120, check=True)
    assert "Warning" not in done.stderr, done.stderr


def test_every_definition_has_a_description():
    graph = defs.resolve_asset_graph()
    missing = [f"asset {k.to_user_string()}" for k in graph.get_all_asset_keys() if not graph.get(k).description]
    missing += [f"sensor {s.name}" for s in defs.sensors or [] if not s.description]
    missing += [f"schedule {s.name}" for s in defs.schedules or [] if not s.description]
    missing += [f"job {j.name}" for j in defs.resolve_all_job_defs()
                if not j.name.startswith("__") and not j.description]
    assert missing == []
