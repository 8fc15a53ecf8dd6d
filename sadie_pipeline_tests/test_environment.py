"""Every environment variable the project reads is its own (SADIE_...), except the names the
vendors' own SDKs and documentation use, and Dagster's and AWS's; the resources read none:
their settings are fields, which the definitions set with Dagster's EnvVar."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dagster import EnvVar, asset, materialize

import sadie_pipeline
from sadie_pipeline.definitions import build_defs
from sadie_pipeline.resource_defs import RESOURCES, configured, resolved, settings_from
from sadie_pipeline.resources.slack import SlackResource

VENDOR_NAMES = {"GROQ_API_KEY", "GROQ_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SERPER_API_KEY",
                "AWS_DEFAULT_REGION", "DAGSTER_HOME", "GOOGLE_MAPS_API_KEY"}
_READS = re.compile(r"""(?:\benv|getenv|environ\.get|environ)\s*[(\[]\s*["']([A-Z][A-Z0-9_]+)["']|"""
                    r"""_ENV\s*(?::\s*\w+\s*)?=\s*["']([A-Z][A-Z0-9_]+)["']""")
# Any way of reading the process environment: os.environ / getenv, the settings helpers, EnvVar values.
_ANY_READ = re.compile(r"""\bos\.environ\b|\bgetenv\b|\benviron\b|\bsettings\s+import\b|\bsadie_home\(|"""
                       r"""\benv\(|\benv_count\(|\bget_value\(|\bdotenv\b""")
PACKAGE = Path(sadie_pipeline.__file__).parent


def test_every_variable_the_project_reads_has_the_sadie_prefix():
    names = {a or b for path in PACKAGE.rglob("*.py") for a, b in _READS.findall(path.read_text())}
    names |= {variable for _, fields in RESOURCES.values() for variable in fields.values()}
    assert "SADIE_DATABASE_URL" in names and "SERPER_API_KEY" in names  # the scan finds both kinds
    assert sorted(n for n in names if not n.startswith("SADIE_") and n not in VENDOR_NAMES) == []


def test_no_resource_reads_the_environment():
    readers = {path.name: sorted(set(_ANY_READ.findall(path.read_text())))
               for path in sorted((PACKAGE / "resources").glob("*.py"))}
    assert {name: found for name, found in readers.items() if found} == {}


@pytest.mark.parametrize("key", sorted(RESOURCES))
def test_definitions_give_each_set_variable_as_an_envvar(key, monkeypatch):
    cls, fields = RESOURCES[key]
    assert set(fields) <= set(cls.model_fields), f"{key}: a variable names no field"
    for variable in fields.values():
        monkeypatch.delenv(variable, raising=False)
    assert {n: getattr(configured(key), n) for n in fields} == {n: cls.model_fields[n].default for n in fields}
    values = {variable: f"/set/{variable.lower()}" for variable in fields.values()}
    for variable, value in values.items():
        monkeypatch.setenv(variable, value)
    resource = configured(key)
    assert {n: getattr(resource, n) for n in fields} == {n: EnvVar(v) for n, v in fields.items()}
    assert {n: getattr(resolved(resource), n) for n in fields} == settings_from(values, key)


def test_the_code_location_sees_variables_by_name_only(monkeypatch):
    monkeypatch.setenv("SADIE_SLACK_BOT_TOKEN", "xoxb-never-in-the-definitions")
    monkeypatch.delenv("SADIE_SLACK_CHANNEL", raising=False)
    slack = build_defs().resources["slack"]
    assert slack.bot_token == EnvVar("SADIE_SLACK_BOT_TOKEN") and slack.channel is None
    assert "xoxb-never" not in repr(slack)


def test_a_run_reads_the_variable_when_it_starts(monkeypatch):
    @asset
    def channel(slack: SlackResource) -> str | None:
        return slack.resolved_channel()

    monkeypatch.setenv("SADIE_SLACK_CHANNEL", "#when-built")
    resources = {"slack": configured("slack")}
    monkeypatch.setenv("SADIE_SLACK_CHANNEL", "#when-run")
    assert materialize([channel], resources=resources).output_for_node("channel") == "#when-run"


def test_the_scan_sees_a_read():
    assert _ANY_READ.findall('x = os.environ.get("A")\nfrom sadie_pipeline.settings import env\n')
