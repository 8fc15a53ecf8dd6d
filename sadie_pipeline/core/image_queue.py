"""Where a listing image stands for the people watching the image runs (the web app's images page),
read from its status (core/images.py ImageStatus; NULL: not processed yet), its URL's download
tries (pipeline.image_fetches.attempts) and whether its DMO record is shown: the image runs
(listings/images.py) fetch only the images of shown records, new or failed with tries left."""

from __future__ import annotations

from enum import StrEnum

from sadie_pipeline.core.images import ImageStatus


class ImageState(StrEnum):
    QUEUED = "queued"        # never processed, or a re-fetch was asked: the next image run downloads it
    RETRYING = "retrying"    # failed, with tries left: the next image run tries again
    GIVEN_UP = "given_up"    # failed, its tries spent: only a re-fetch puts it back in the queue
    ON_HOLD = "on_hold"      # waiting, but its DMO record is hidden: no run fetches it until it is shown
    DUPLICATE = "duplicate"  # a near duplicate of another image of the listing: stored, never served
    OK = "ok"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


WAITING = (ImageState.QUEUED, ImageState.RETRYING)   # what the next image run fetches
FAILED = (ImageState.RETRYING, ImageState.GIVEN_UP)  # what a re-fetch applies to


def image_state(status: str | None, attempts: int, max_attempts: int, record_shown: bool) -> ImageState:
    """The state of one image (the images page reads its counts and rows through this)."""
    if status == ImageStatus.OK:
        return ImageState.OK
    if status == ImageStatus.DUPLICATE:
        return ImageState.DUPLICATE
    spent = status == ImageStatus.FAILED and attempts >= max_attempts
    if spent:
        return ImageState.GIVEN_UP
    if not record_shown:
        return ImageState.ON_HOLD
    return ImageState.QUEUED if status is None else ImageState.RETRYING

