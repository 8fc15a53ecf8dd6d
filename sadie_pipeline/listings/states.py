"""The listings state model: the values a job and a staged row take (README.md says what they mean).
Migration 0020 holds the same values as CHECK constraints; a test keeps the two alike. StrEnum
members are str, so psycopg passes them as their values."""

from __future__ import annotations

from enum import StrEnum


class JobStage(StrEnum):
    """Where a job (one imported file) is: it only moves forward."""
    IMPORT = "import"          # raw files being written
    IMPORTED = "imported"      # raw files and keys stored; waiting to be staged
    STAGE = "stage"            # being staged (or its staging failed: see JobStatus)
    STAGED = "staged"          # staged rows resolved; waiting for promotion or review
    PROMOTED = "promoted"      # applied to the public tables
    SUPERSEDED = "superseded"  # a newer job of the DMO was staged before this one was promoted
    DISCARDED = "discarded"    # a person discarded it after phase one of an upload (listings/discard.py)


class JobStatus(StrEnum):
    IN_PROGRESS = "in_progress"  # a live process works on it (it holds the job's lock)
    SUCCEEDED = "succeeded"
    FAILED = "failed"            # error_summary says why; a dead process's job is failed too


TERMINAL_STAGES = (JobStage.PROMOTED, JobStage.SUPERSEDED, JobStage.DISCARDED)


class Action(StrEnum):
    """What promoting a staged row does (action), to the listing (l_action) and to the DMO's
    listing_info (li_action)."""
    INSERT = "insert"
    UPDATE = "update"
    UNCHANGED = "unchanged"
    DUPLICATE = "duplicate"
    DELETE = "delete"


class RowKind(StrEnum):
    """Where a staged row's data comes from."""
    FULL = "full"          # transformed from its raw line
    COPIED = "copied"      # copied from an earlier staged row of the same record (twin, thickened thin row)
    THIN = "thin"          # keys only: the record is unchanged, its data is in reused_from's row
    DELETION = "deletion"  # no record: the DMO's listing_info that a full import left out


class ReviewStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"  # a newer job staged the DMO's records again before a decision was applied


class ListingStatus(StrEnum):
    """A canonical listing's state (public.listings.listing_status; migration 0048's CHECK holds the
    same values). Every state but active has listing_visible false."""
    ACTIVE = "active"
    HIDDEN = "hidden"                            # hidden by a person; an import may show it again (after review)
    MISSING_FROM_IMPORT = "missing_from_import"  # soft-deleted: no DMO shows it any more; restore brings it back
    MERGED = "merged"                            # merged into another listing (merged_into)
    ARCHIVED = "archived"                        # hidden for every DMO by a person; no import undoes it, only unarchive
