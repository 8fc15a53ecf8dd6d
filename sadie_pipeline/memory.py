"""Memory a long-lived process gives back to the system once it has freed it (glibc's allocator;
elsewhere these do nothing). The stage's process and its file workers allocate and free large
arrays and tens of thousands of small objects again and again: without this, what they freed
stays in their resident size, which is what the ingest floor and the seed's 100 MB a worker
measure."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache

_M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)
_MAPPED_FROM = 128 * 1024  # glibc's own default threshold


@cache
def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def map_large_blocks() -> bool:
    """Blocks of 128 KiB and more mapped on their own, so given back as soon as they are freed.
    glibc starts so but raises the threshold to the size of every such block freed, after which
    numpy's temporary arrays stay in the heap (8 MB more at the peak of a 100,000-record stage)."""
    libc = _libc()
    return bool(libc and libc.mallopt(_M_MMAP_THRESHOLD, _MAPPED_FROM))


def give_back_free_pages() -> bool:
    """The heap's free pages returned to the system (after a file's records are freed: otherwise a
    worker's resident size grows by a few megabytes a file)."""
    libc = _libc()
    return bool(libc and libc.malloc_trim(0))
