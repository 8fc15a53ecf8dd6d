"""The stored images the listings API serves, without I/O: each image's variants with their sizes.

A variant's size is not stored (listing_images.variants keeps name -> object); it follows from the
original's size and the variant's longest side, as core/images.py made it (fitted, never enlarged).
The sides are those of the image rules (the listing_images asset's defaults); a variant of a name
the rules do not know has no size (None), never a guessed one.

    variant_sizes(1200, 800, ["thumb", "medium"])  # [("medium", 768, 512), ("thumb", 200, 133)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sadie_pipeline.core.images import DEFAULT_RULES, ImageRules, _fitted

ORIGINAL = "original"
# what a variant's name may be in a URL (core/images.py names them: medium, thumb)
VARIANT_NAME = re.compile(r"[a-z0-9_-]{1,40}")

Size = tuple[str, int | None, int | None]


def variant_sizes(width: int | None, height: int | None, names: Iterable[str],
                  rules: ImageRules = DEFAULT_RULES) -> list[Size]:
    """(name, width, height) of each variant, largest first (unknown sides last, by name)."""
    sides = dict(rules.variants)
    out: list[Size] = []
    for name in names:
        side = sides.get(name)
        if side is None or not width or not height:
            out.append((name, None, None))
        else:
            out.append((name, *_fitted(width, height, side)))
    return sorted(out, key=lambda s: (s[1] is None, -(s[1] or 0) * (s[2] or 0), s[0]))


def served_name(variant: str) -> bool:
    """Whether `variant` may name an image's file in a URL: the original or a variant's name."""
    return variant == ORIGINAL or VARIANT_NAME.fullmatch(variant) is not None
