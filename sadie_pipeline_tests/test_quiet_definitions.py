"""Loading the code location, as every code server, run worker and step process does, prints no
warning from the project's own code: Dagster's known Beta/Preview/Supersession warnings are
silenced in one place (sadie_pipeline/dagster_warnings.py), and nothing else is said."""

from __future__ import annotations

import subprocess
import sys


def test_loading_the_definitions_says_no_warning():
    # -W default shows every warning once per place, DeprecationWarnings included, as a fresh process would
    done = subprocess.run([sys.executable, "-W", "default", "-c", "import sadie_pipeline.definitions"],
                          capture_output=True, text=True, timeout=120, check=True)
    assert "Warning" not in done.stderr, done.stderr
