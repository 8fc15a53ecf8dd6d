"""Listing images without I/O: what a download must look like, the checks and the resized
variants of its bytes (Pillow), the perceptual hash (imagehash) and which images of one listing
are near duplicates of another.

    check_response("image/jpeg", 1_200_000, rules)      # raises ImageRejected before the body is read
    done = process_image(data, rules)                   # raises ImageRejected(failure, detail)
    done.width, done.height, done.phash, done.variants  # variants: JPEG bytes, largest first
    near_duplicates([Candidate(id, rank, phash, w, h), ...], max_distance=10)  # {dropped id: kept id}

A JPEG is decoded at the smallest DCT scale that still covers the largest variant (Pillow's
draft mode), which decodes every byte of the stream (a truncated file still fails) at a quarter
of the cost of a full decode.
"""

from __future__ import annotations

import hashlib
import io
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import imagehash
from PIL import Image, ImageOps, UnidentifiedImageError


class ImageStatus(StrEnum):
    """A listing image's state (public.listing_images.image_status; NULL: not processed yet)."""
    OK = "ok"                # stored, with its variants, dimensions and hash
    DUPLICATE = "duplicate"  # a near duplicate of another image of the listing (duplicate_of): not shown
    FAILED = "failed"        # status_reason says why; retried by the next run, up to max_attempts


class ImageFailure(StrEnum):
    HTTP_ERROR = "http_error"              # the host answered an error status (404, 410, 403...)
    UNREACHABLE = "unreachable"            # timeouts, refused connections, 5xx after retries, breaker open
    NOT_AN_IMAGE = "not_an_image"          # a content type other than an image, or bytes Pillow cannot identify
    UNSUPPORTED_FORMAT = "unsupported_format"
    TOO_LARGE = "too_large"                # over max_bytes, as declared or as streamed
    TRUNCATED = "truncated"
    UNDECODABLE = "undecodable"
    TOO_SMALL = "too_small"                # a side under min_side
    TOO_MANY_PIXELS = "too_many_pixels"    # over max_pixels (a decompression bomb, or just huge)


class ImageRejected(Exception):
    def __init__(self, failure: ImageFailure, detail: str) -> None:
        super().__init__(f"{failure}: {detail}")
        self.failure, self.detail = failure, detail


@dataclass(frozen=True)
class ImageRules:
    max_bytes: int = 15 * 1024 * 1024
    min_side: int = 100
    max_pixels: int = 60_000_000
    formats: frozenset[str] = frozenset({"JPEG", "PNG", "WEBP", "GIF"})
    # the original is kept for large displays; a 1280 px variant would cost half as much CPU again
    variants: tuple[tuple[str, int], ...] = (("medium", 768), ("thumb", 200))
    quality: int = 82


DEFAULT_RULES = ImageRules()
# Some hosts send images as generic bytes: Pillow decides what they are.
_GENERIC_TYPES = frozenset({"", "application/octet-stream", "binary/octet-stream"})
_EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}
_SWAPPED_ORIENTATIONS = frozenset({5, 6, 7, 8})  # EXIF orientations that turn the picture a quarter
_ORIENTATION_TAG = 0x0112


def check_response(content_type: str | None, content_length: int | None, rules: ImageRules) -> None:
    """Refuses an answer by its headers, before its body is read."""
    kind = (content_type or "").split(";")[0].strip().lower()
    if not kind.startswith("image/") and kind not in _GENERIC_TYPES:
        raise ImageRejected(ImageFailure.NOT_AN_IMAGE, f"content type {kind}")
    if content_length is not None and content_length > rules.max_bytes:
        raise ImageRejected(ImageFailure.TOO_LARGE, f"{content_length} bytes declared, over {rules.max_bytes}")


@dataclass(frozen=True)
class Variant:
    name: str
    data: bytes = field(repr=False)
    width: int
    height: int


@dataclass(frozen=True)
class ProcessedImage:
    format: str
    extension: str
    width: int
    height: int
    phash: str
    variants: tuple[Variant, ...]

    @property
    def content_type(self) -> str:
        return Image.MIME[self.format]


def process_image(data: bytes, rules: ImageRules = DEFAULT_RULES) -> ProcessedImage:
    """Checks the bytes (size, format, dimensions, a complete decode) and makes the variants (JPEG,
    never larger than the original) and the perceptual hash. Raises ImageRejected."""
    if len(data) > rules.max_bytes:
        raise ImageRejected(ImageFailure.TOO_LARGE, f"{len(data)} bytes, over {rules.max_bytes}")
    image = _open(data, rules)
    width, height = _oriented_size(image)
    largest = max(side for _, side in rules.variants)
    scale = largest / max(image.size)
    if image.format == "JPEG" and scale < 1:
        image.draft("RGB", (math.ceil(image.width * scale), math.ceil(image.height * scale)))
    _load(image)
    ImageOps.exif_transpose(image, in_place=True)
    current = _flatten(image)
    variants = []
    for name, side in sorted(rules.variants, key=lambda v: -v[1]):
        current = _shrink(current, _fitted(width, height, side))  # each from the last: less to resample
        variants.append(Variant(name, _jpeg(current, rules.quality), *current.size))
    # the hash of the smallest variant: the same picture at any size or quality hashes alike
    return ProcessedImage(image.format or "", _EXTENSIONS[image.format or ""], width, height,
                          str(imagehash.phash(current)), tuple(variants))


def _open(data: bytes, rules: ImageRules) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own max_pixels decides
            image = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        raise ImageRejected(ImageFailure.NOT_AN_IMAGE, "bytes that no image format reads") from None
    except Image.DecompressionBombError as exc:
        raise ImageRejected(ImageFailure.TOO_MANY_PIXELS, str(exc)) from None
    if image.format not in rules.formats:
        raise ImageRejected(ImageFailure.UNSUPPORTED_FORMAT, f"{image.format} is not one of {sorted(rules.formats)}")
    width, height = image.size
    if min(width, height) < rules.min_side:
        raise ImageRejected(ImageFailure.TOO_SMALL, f"{width}x{height}, a side under {rules.min_side} px")
    if width * height > rules.max_pixels:
        raise ImageRejected(ImageFailure.TOO_MANY_PIXELS, f"{width}x{height}, over {rules.max_pixels} pixels")
    return image


def _load(image: Image.Image) -> None:
    try:
        image.load()
    except OSError as exc:
        failure = ImageFailure.TRUNCATED if "truncated" in str(exc) else ImageFailure.UNDECODABLE
        raise ImageRejected(failure, str(exc)) from None
    except (SyntaxError, ValueError, EOFError) as exc:  # what Pillow's plugins raise on a corrupt stream
        raise ImageRejected(ImageFailure.UNDECODABLE, f"{type(exc).__name__}: {exc}") from None


def _oriented_size(image: Image.Image) -> tuple[int, int]:
    width, height = image.size
    if image.getexif().get(_ORIENTATION_TAG) in _SWAPPED_ORIENTATIONS:
        return height, width
    return width, height


def _flatten(image: Image.Image) -> Image.Image:
    """RGB, transparency over white (JPEG has no alpha)."""
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def _fitted(width: int, height: int, side: int) -> tuple[int, int]:
    """The original's size fitted into side x side (never enlarged), rounded from the original."""
    ratio = min(1.0, side / max(width, height))
    return max(1, round(width * ratio)), max(1, round(height * ratio))


def _shrink(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    if image.width <= size[0] and image.height <= size[1]:
        return image
    # BOX (an area average) after an integer reduce: a downscale as sharp as BILINEAR's at 60 % of its cost
    return image.resize(size, Image.Resampling.BOX, reducing_gap=1.0)


def _jpeg(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality)
    return out.getvalue()


# --- near duplicates ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Candidate:
    """One processed image of a listing, as near-duplicate detection sees it."""
    id: int
    rank: int
    phash: str
    width: int
    height: int


def hamming(a: str, b: str) -> int:
    """Bits that differ between two hex perceptual hashes."""
    return (int(a, 16) ^ int(b, 16)).bit_count()


def near_duplicates(images: Sequence[Candidate], max_distance: int) -> dict[int, int]:
    """{dropped id: kept id}: of images whose hashes are within max_distance bits, the one kept is
    the largest (pixels), then the first by rank, then by id, so the outcome does not depend on the
    order images were processed in."""
    kept: list[Candidate] = []
    dropped: dict[int, int] = {}
    for image in sorted(images, key=lambda i: (-i.width * i.height, i.rank, i.id)):
        twin = next((k for k in kept if hamming(k.phash, image.phash) <= max_distance), None)
        if twin is None:
            kept.append(image)
        else:
            dropped[image.id] = twin.id
    return dropped


# --- object keys -------------------------------------------------------------------------------

def image_stem(url: str) -> str:
    """The file name stem of an image URL's objects: the same URL always writes the same keys."""
    return hashlib.sha256(url.encode()).hexdigest()[:20]


def image_key(dmo: str, listing_id: int, file: str) -> str:
    """The seeds' image key: images/{dmo}/{listing_id}/{file}."""
    return f"images/{dmo}/{listing_id}/{file}"


def original_file(stem: str, extension: str) -> str:
    return f"{stem}.{extension}"


def variant_file(stem: str, variant: str) -> str:
    return f"{stem}-{variant}.jpg"
