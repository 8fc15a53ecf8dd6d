"""What the code versions cost when the definitions load: every asset's version (catalog.py) from a
cold cache, each project file read and parsed once. The floor: a small part of the definitions'
load (which takes seconds), 500 ms.

    python benchmarks/code_versions.py
"""

from __future__ import annotations

import time

FLOOR_MS = 500


def main() -> None:
    import sadie_pipeline.definitions as definitions  # loaded first: Dagster's own import is not ours to time
    from sadie_pipeline import code_versions
    from sadie_pipeline.catalog import asset_version

    assets = [a for a in definitions.defs.assets if getattr(a, "is_executable", False)]
    code_versions._module.cache_clear()
    start = time.perf_counter()
    versions = {asset_version(a) for a in assets}
    elapsed_ms = (time.perf_counter() - start) * 1000
    files = code_versions._module.cache_info().currsize
    print(f"code versions: {len(assets)} assets, {len(versions)} versions, {files} module names, {elapsed_ms:.0f} ms "
          f"(floor {FLOOR_MS} ms): {'met' if elapsed_ms <= FLOOR_MS else 'NOT met'}")


if __name__ == "__main__":
    main()
