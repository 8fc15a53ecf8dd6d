"""python benchmarks/matching_data --n N --seed S --out DIR (or python -m matching_data from benchmarks/)."""

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a directory: make the package importable by its name
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matching_data import main  # noqa: E402

sys.exit(main())
