"""Image checks, variants, perceptual hashes and near duplicates (pure: bytes in, bytes out)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

from sadie_pipeline.core.images import (
    DEFAULT_RULES,
    Candidate,
    ImageFailure,
    ImageRejected,
    ImageRules,
    check_response,
    hamming,
    image_key,
    image_stem,
    near_duplicates,
    process_image,
)


def picture(seed: int, size: tuple[int, int] = (1600, 1200), mode: str = "RGB") -> Image.Image:
    """Blocks of colour drawn from a seed: what a perceptual hash tells apart."""
    rnd = random.Random(seed)
    image = Image.new(mode, size, (255, 255, 255, 0) if mode == "RGBA" else (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y = rnd.randrange(size[0]), rnd.randrange(size[1])
        w, h = rnd.randrange(size[0] // 8, size[0] // 2), rnd.randrange(size[1] // 8, size[1] // 2)
        colour = tuple(rnd.randrange(256) for _ in range(3)) + ((255,) if mode == "RGBA" else ())
        draw.rectangle((x, y, x + w, y + h), fill=colour)
    return image


def encoded(image: Image.Image, fmt: str = "JPEG", **kwargs) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **kwargs)
    return out.getvalue()


def rejected(data: bytes, rules: ImageRules = DEFAULT_RULES) -> ImageRejected:
    with pytest.raises(ImageRejected) as caught:
        process_image(data, rules)
    return caught.value


def test_a_jpeg_gets_its_size_variants_and_hash():
    done = process_image(encoded(picture(1, (3000, 2000)), quality=90))
    assert (done.format, done.extension, done.content_type) == ("JPEG", "jpg", "image/jpeg")
    assert (done.width, done.height) == (3000, 2000)
    assert [(v.name, v.width, v.height) for v in done.variants] == [("medium", 768, 512), ("thumb", 200, 133)]
    three = process_image(encoded(picture(1, (3000, 2000)), quality=90),
                          ImageRules(variants=(("large", 1280), ("medium", 640), ("thumb", 200))))
    assert [(v.width, v.height) for v in three.variants] == [(1280, 853), (640, 427), (200, 133)]
    assert all(Image.open(io.BytesIO(v.data)).format == "JPEG" for v in done.variants)
    assert len(done.phash) == 16 and int(done.phash, 16) >= 0


def test_variants_are_never_enlarged():
    done = process_image(encoded(picture(2, (500, 400)), "PNG"))
    assert [(v.width, v.height) for v in done.variants] == [(500, 400), (200, 160)]


def test_transparency_is_flattened_over_white():
    image = Image.new("RGBA", (400, 300), (0, 0, 0, 0))  # transparent black
    ImageDraw.Draw(image).rectangle((150, 100, 250, 200), fill=(200, 0, 0, 255))
    done = process_image(encoded(image, "PNG"))
    flat = Image.open(io.BytesIO(done.variants[0].data))
    assert done.format == "PNG" and min(flat.getpixel((5, 5))) > 245
    red, green, _ = flat.getpixel((200, 150))
    assert red > 180 and green < 40


def test_exif_orientation_turns_the_dimensions():
    exif = Image.Exif()
    exif[0x0112] = 6  # rotated a quarter: the camera held upright
    done = process_image(encoded(picture(4, (1200, 800)), exif=exif.tobytes()))
    assert (done.width, done.height) == (800, 1200)
    assert (done.variants[0].width, done.variants[0].height) == (512, 768)


def test_text_is_not_an_image():
    failure = rejected(b"<!DOCTYPE html><html><body>moved</body></html>")
    assert failure.failure is ImageFailure.NOT_AN_IMAGE


def test_a_truncated_jpeg_fails_although_its_header_reads():
    data = encoded(picture(5, (2000, 1500)), quality=90)
    assert rejected(data[: len(data) // 2]).failure is ImageFailure.TRUNCATED


@pytest.mark.parametrize(("data", "rules", "failure"), [
    (encoded(picture(6, (60, 40)), "PNG"), ImageRules(), ImageFailure.TOO_SMALL),
    (encoded(picture(6, (400, 300)), "BMP"), ImageRules(), ImageFailure.UNSUPPORTED_FORMAT),
    (encoded(picture(6, (400, 300))), ImageRules(max_pixels=100_000), ImageFailure.TOO_MANY_PIXELS),
    (encoded(picture(6, (400, 300))), ImageRules(max_bytes=1000), ImageFailure.TOO_LARGE),
])
def test_checks(data, rules, failure):
    assert rejected(data, rules).failure is failure


def test_headers_refuse_before_the_body_is_read():
    rules = ImageRules(max_bytes=1000)
    for content_type in ("text/html; charset=utf-8", "application/json"):
        with pytest.raises(ImageRejected) as caught:
            check_response(content_type, 10, rules)
        assert caught.value.failure is ImageFailure.NOT_AN_IMAGE
        assert content_type.split(";")[0] in str(caught.value)
    with pytest.raises(ImageRejected) as caught:
        check_response("image/jpeg", 50 * 1024 * 1024, rules)
    assert caught.value.failure is ImageFailure.TOO_LARGE
    for fine in ("image/jpeg", "image/png", "application/octet-stream", None):
        check_response(fine, 500, rules)


def test_the_same_picture_rescaled_and_recompressed_hashes_alike():
    base = picture(7, (2400, 1600))
    original = process_image(encoded(base, quality=92)).phash
    smaller = process_image(encoded(base.resize((1200, 800)), quality=60)).phash
    other = process_image(encoded(picture(8, (2400, 1600)), quality=92)).phash
    assert hamming(original, smaller) <= 4
    assert hamming(original, other) > 16


def test_near_duplicates_keep_the_largest_whatever_the_order():
    images = [Candidate(1, 1, "ffff0000ffff0000", 800, 600), Candidate(2, 2, "ffff0000ffff0001", 1600, 1200),
              Candidate(3, 3, "0000ffff0000ffff", 800, 600), Candidate(4, 4, "ffff0000ffff0000", 1600, 1200)]
    expected = {1: 2, 4: 2}  # 2 and 4 tie on size: the earlier rank stays
    assert near_duplicates(images, 8) == expected
    assert near_duplicates(list(reversed(images)), 8) == expected


def test_exact_twins_and_threshold():
    twins = [Candidate(1, 1, "0123456789abcdef", 100, 100), Candidate(2, 2, "0123456789abcdef", 100, 100)]
    assert near_duplicates(twins, 0) == {2: 1}
    apart = [Candidate(1, 1, "00000000000000ff", 100, 100), Candidate(2, 2, "0000000000000000", 100, 100)]
    assert near_duplicates(apart, 7) == {} and near_duplicates(apart, 8) == {2: 1}


def test_keys_follow_the_seed_layout_and_the_url():
    stem = image_stem("https://cdn.example/a.jpg")
    assert stem == image_stem("https://cdn.example/a.jpg") != image_stem("https://cdn.example/b.jpg")
    assert image_key("visit-pei", 12, f"{stem}.jpg") == f"images/visit-pei/12/{stem}.jpg"
