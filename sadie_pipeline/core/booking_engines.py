"""Booking-engine detection: the public names of `sadie_pipeline.core.booking` under the module
path the rest of the project imports (the package holds the code, split by concern)."""

from sadie_pipeline.core.booking import *  # noqa: F403
from sadie_pipeline.core.booking import __all__  # noqa: F401
