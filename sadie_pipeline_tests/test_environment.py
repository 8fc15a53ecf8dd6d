"""Every environment variable the project reads is its own (SADIE_...), except the names the
vendors' own SDKs and documentation use, and Dagster's and AWS's."""

from __future__ import annotations

import re
from pathlib import Path

import sadie_pipeline

VENDOR_NAMES = {"GROQ_API_KEY", "GROQ_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SERPER_API_KEY",
                "AWS_DEFAULT_REGION", "DAGSTER_HOME"}
_READS = re.compile(r"""(?:\benv|getenv|environ\.get|environ)\s*[(\[]\s*["']([A-Z][A-Z0-9_]+)["']|"""
                    r"""_ENV\s*(?::\s*\w+\s*)?=\s*["']([A-Z][A-Z0-9_]+)["']""")


def test_every_variable_the_project_reads_has_the_sadie_prefix():
    package = Path(sadie_pipeline.__file__).parent
    names = {a or b for path in package.rglob("*.py") for a, b in _READS.findall(path.read_text())}
    assert "SADIE_DATABASE_URL" in names and "SERPER_API_KEY" in names  # the scan finds both kinds
    assert sorted(n for n in names if not n.startswith("SADIE_") and n not in VENDOR_NAMES) == []
