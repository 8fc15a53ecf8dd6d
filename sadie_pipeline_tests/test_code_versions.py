"""Code versions found by the code (code_versions.py): a rule added in any module the engine imports
changes the versions of the data it makes, as a new contributor would add one. Each version is
computed in a process of its own from a copy of the package, as a release would be."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sadie_pipeline.code_versions import import_closure, package_root

_VERSIONS = """
import json, sadie_pipeline
from sadie_pipeline.listings import versions
from sadie_pipeline.hotels import entities
print(json.dumps({"package": sadie_pipeline.__file__, "raw": versions.RAW_VERSION,
                  "transform": versions.TRANSFORM_VERSION, "key": versions.KEY_VERSION,
                  "resolver": entities.RESOLVER_VERSION}))
"""
A_RULE = ("\n\ndef _street_rule(text: str) -> str:  # a new contributor's rule\n"
          "    return text.replace('Str.', 'Street')\n")


def copy_package(tmp_path: Path, name: str) -> Path:
    """The package's Python and SQL files under tmp_path/name/sadie_pipeline."""
    def data(folder: str, names: list[str]) -> list[str]:
        return [n for n in names if n == "__pycache__" or (os.path.isfile(os.path.join(folder, n))
                                                           and not n.endswith((".py", ".sql")))]
    shutil.copytree(package_root(), tmp_path / name / "sadie_pipeline", ignore=data)
    return tmp_path / name / "sadie_pipeline"


def versions_of(package: Path) -> dict[str, str]:
    """The versions a release of that copy runs with, computed by a Python of its own."""
    env = {**os.environ, "PYTHONPATH": str(package.parent), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", _VERSIONS], cwd=package.parent, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found.pop("package")).parent == package  # the copy's code, not the installed one
    return found


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {name for name in before if before[name] != after[name]}


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> dict[str, str]:
    """The versions of the package as it is."""
    return versions_of(copy_package(tmp_path_factory.mktemp("release"), "pristine"))


def test_the_closure_holds_the_modules_the_old_hand_made_list_missed():
    names = {str(p.relative_to(package_root())) for p in import_closure("sadie_pipeline.core.matching")}
    # normal.py imports core/normalize.py, tables.py imports regions.py; the package __init__s run too
    assert {"core/normalize.py", "regions.py", "core/places/normal.py", "core/places/__init__.py"} <= names
    assert not any(n.startswith(("listings/", "hotels/", "web/")) for n in names)


@pytest.mark.parametrize("module", ["core/normalize.py", "regions.py"])
def test_a_rule_added_in_a_module_the_engine_imports_changes_every_version_made_from_it(tmp_path, release, module):
    package = copy_package(tmp_path, "next")
    _append(package / module, A_RULE)
    # the listings' keys and staged data and the hotels' entities all go through core/places
    assert {"key", "transform", "resolver"} <= _changed(release, versions_of(package))


def test_a_new_module_imported_inside_a_function_is_followed(tmp_path, release):
    """A rule put in a module of its own, imported (relatively) inside a function of normal.py: the
    import changes the versions, and so does every later change of that module alone."""
    package = copy_package(tmp_path, "next")
    (package / "core/places/street_rules.py").write_text("RULES = {'Str.': 'Street'}\n")
    _append(package / "core/places/normal.py",
            "\n\ndef _streets(text):\n    from .street_rules import RULES\n    return RULES.get(text, text)\n")
    with_import = versions_of(package)
    assert {"key", "transform", "resolver"} <= _changed(release, with_import)
    (package / "core/places/street_rules.py").write_text("RULES = {'Str.': 'Street', 'Av.': 'Avenue'}\n")
    assert {"key", "transform", "resolver"} <= _changed(with_import, versions_of(package))


def test_a_change_outside_the_closures_changes_no_version(tmp_path, release):
    package = copy_package(tmp_path, "next")
    _append(package / "hotels/exports/workbook.py", A_RULE)  # the export's layout: no derived data of ours
    assert _changed(release, versions_of(package)) == set()

