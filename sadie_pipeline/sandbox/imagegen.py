"""Deterministic listing photos for the image host (services/images.py).

A picture is a smooth field of colours from a seeded 6 x 8 grid (which is what a perceptual hash
sees) plus grain (which is what makes a JPEG weigh what a photo weighs: about 0.27 bytes a pixel
at quality 85). `photo_jpeg(n)` weighs between 200 KB and 2 MB; `near_duplicate(n, v)` is the same
picture scaled down, re-encoded and lighter or darker (v = 1..3); `photo_png(n)` a PNG picture.

Encoding a 2 MB photo costs the server a few hundred milliseconds, so photos come from a pool of
POOL pictures (PNG_POOL for PNG): photo n shows picture n % POOL, byte for byte, and is made once.
Photos n .. n + POOL - 1 are distinct pictures.
"""

from __future__ import annotations

import io
from functools import lru_cache

import numpy as np
from PIL import Image, ImageEnhance

POOL = 48
PNG_POOL = 16
MIN_BYTES, MAX_BYTES = 200 * 1024, 2 * 1024 * 1024
_BYTES_PER_PIXEL = 0.27  # quality 85 with this grain
_GRAIN = 9.0
# (scale, JPEG quality, brightness) of near duplicates 1..3: what a CMS makes of an upload
NEAR_VARIANTS = ((0.85, 75, 1.05), (0.7, 88, 0.95), (0.55, 70, 1.0))


def _target_bytes(index: int) -> int:
    """Spread over 240 KB .. 1.9 MB by a golden-ratio walk, so any few pictures differ in size."""
    share = (index * 0.6180339887) % 1.0
    return int(240 * 1024 + share * (1900 - 240) * 1024)


def _picture(seed: int, width: int, height: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    grid = Image.fromarray(rng.integers(0, 256, (6, 8, 3), dtype=np.uint8), "RGB")
    field = np.asarray(grid.resize((width, height), Image.Resampling.BICUBIC), dtype=np.int16)
    grain = rng.integers(-int(_GRAIN * 1.7), int(_GRAIN * 1.7) + 1, (height, width, 1), dtype=np.int16)
    return Image.fromarray(np.clip(field + grain, 0, 255).astype(np.uint8), "RGB")


def _size_for(target: int) -> tuple[int, int]:
    pixels = target / _BYTES_PER_PIXEL
    width = int((pixels * 1.5) ** 0.5)  # 3:2, as cameras take them
    return width, int(width / 1.5)


@lru_cache(maxsize=POOL)
def _base(index: int) -> Image.Image:
    return _picture(1000 + index, *_size_for(_target_bytes(index)))


@lru_cache(maxsize=POOL)
def photo_jpeg(n: int) -> bytes:
    """Photo n, a JPEG of 200 KB to 2 MB."""
    out = io.BytesIO()
    _base(n % POOL).save(out, "JPEG", quality=85)
    return out.getvalue()


@lru_cache(maxsize=POOL * len(NEAR_VARIANTS))
def near_duplicate(n: int, variant: int) -> bytes:
    """Photo n scaled down, re-encoded and lightened or darkened (variant 1..3)."""
    scale, quality, brightness = NEAR_VARIANTS[variant - 1]
    base = _base(n % POOL)
    smaller = base.resize((int(base.width * scale), int(base.height * scale)), Image.Resampling.BILINEAR,
                          reducing_gap=2.0)
    out = io.BytesIO()
    ImageEnhance.Brightness(smaller).enhance(brightness).save(out, "JPEG", quality=quality)
    return out.getvalue()


@lru_cache(maxsize=PNG_POOL)
def photo_png(n: int) -> bytes:
    """Photo n as a PNG (another picture than JPEG photo n), 300 KB to 1.5 MB."""
    index = n % PNG_POOL
    width = 520 + (index * 37) % 300
    out = io.BytesIO()
    _picture(5000 + index, width, int(width * 0.75)).save(out, "PNG", compress_level=1)
    return out.getvalue()


def truncated(n: int) -> bytes:
    """Photo n cut in half: a header that reads, a body that ends too soon."""
    data = photo_jpeg(n)
    return data[: len(data) // 2]


@lru_cache(maxsize=1)
def tiny_png() -> bytes:
    """A 16 x 16 icon: an image, too small to be a listing's photo."""
    out = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()
