"""memory.py, in a process of its own (the allocator's settings are the process's): arrays freed
after map_large_blocks leave the resident size, where glibc's raised threshold kept them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

_CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    from sadie_pipeline.memory import map_large_blocks

    def rss_mb():
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024

    if sys.argv[1] == "on":
        assert map_large_blocks()
    np.ones(4 << 20, dtype=np.uint8)  # one large block made and freed: glibc raises its threshold to it
    before = rss_mb()
    large, small = [], []
    for _ in range(40):  # 120 MB of 3 MB arrays, each followed by a small one that stays
        large.append(np.ones(3 << 20, dtype=np.uint8))
        small.append(np.ones(1000))
    del large
    print(rss_mb() - before)
""")


def _grown_mb(setting: str) -> float:
    done = subprocess.run([sys.executable, "-c", _CHILD, setting], capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_freed_arrays_leave_the_resident_size():
    assert _grown_mb("on") < 10
    # the behaviour it mends: without it the freed arrays stay resident (so the test means something)
    assert _grown_mb("off") > 60
