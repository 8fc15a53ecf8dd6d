"""The listings assets, partitioned by DMO: import -> stage (with its blocking check) -> promote.
Each step takes the DMO's jobs in arrival order under the DMO's lock (README.md)."""

from typing import Any

from dagster import (
    AssetExecutionContext,
    AssetKey,
    Config,
    DataVersion,
    Failure,
    MaterializeResult,
    MetadataValue,
    asset,
)
from pydantic import Field

from sadie_pipeline.listings import previews, versions
from sadie_pipeline.listings.checks import error_rate_result, error_rate_spec
from sadie_pipeline.listings.importer import import_inbox_file, pending_inbox_keys
from sadie_pipeline.listings.promote import promote_dmo
from sadie_pipeline.listings.readers import UnreadableFileError
from sadie_pipeline.listings.repository import Dmo, get_dmo, job_config
from sadie_pipeline.listings.sources.http import SourceError
from sadie_pipeline.listings.sources.pull import current_config, is_pulled, pull_source, pull_summary
from sadie_pipeline.listings.stage import MAX_WORKERS, StageResult, stage_dmo
from sadie_pipeline.metadata import path_list
from sadie_pipeline.partitions import dmo_partitions
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

PROMOTION = AssetKey("listing_promotion")


class ImportConfig(Config):
    inbox_key: str | None = None
    """The inbox object to import; when empty, every inbox file of the DMO not imported yet."""
    imported_by: str = "0"
    """Who imported (0 for the pipeline itself)."""
    full_pull: bool = False
    """A pulled source (import.url): ask for every record, not only those changed since the last pull."""


class StageRunConfig(Config):
    # A run's setting, not the DMO's config: the workers change no staged row, and a DMO config
    # that differs from the last import's turns off the reuse of its unchanged records.
    workers: int | None = Field(default=None, ge=1, le=MAX_WORKERS, description=(
        "worker processes transforming the job's files at once, each under 100 MB (None: one per core)"))


class PromotionConfig(Config):
    accept_errors: bool = False
    """Promote staged jobs whose stage failed its error-rate check too (recorded on the job)."""
    accepted_by: str | None = None
    """Who accepts their errors (default: the run's user tag, else the run)."""


def run_key(context: AssetExecutionContext) -> str:
    """The run's key for its jobs: the root run's id, which a re-executed or retried run keeps."""
    return context.run.root_run_id or context.run_id


def _run_promotes(context: AssetExecutionContext) -> bool:
    """Whether this run goes on to listing_promotion (so a later job's stage may promote its job)."""
    # an empty (or no) selection: the job's assets
    return PROMOTION in (context.run.asset_selection or context.job_def.asset_layer.selected_asset_keys)


@asset(partitions_def=dmo_partitions, group_name="listings", kinds={"postgres", "s3"},
       code_version=versions.RAW_VERSION)
def listing_raw_files(context: AssetExecutionContext, config: ImportConfig, database: Database,
                      object_store: ObjectStore) -> MaterializeResult:
    """Inbox files of the DMO as immutable gzipped JSON-lines raw files, with job rows."""
    with database.connect() as conn:
        dmo = get_dmo(conn, context.partition_key)
    if not config.inbox_key and is_pulled(current_config(database, dmo)):
        return _pulled(context, config, database, object_store, dmo)
    keys = [config.inbox_key] if config.inbox_key else pending_inbox_keys(database, object_store, dmo)
    results = []
    for key in keys:
        try:
            results.append(import_inbox_file(database, object_store, dmo, key, run_key=run_key(context),
                                             imported_by=config.imported_by, promote=_run_promotes(context),
                                             log=context.log.info))
        except UnreadableFileError as exc:
            raise Failure(description=f"cannot read {key}: {exc}", metadata={"inbox_key": key}) from exc
    files = [f for r in results for f in r.files]
    imported = [r for r in results if not r.already_imported]
    return MaterializeResult(metadata={
        "dmo": dmo.slug,
        # the jobs this run imported; a file imported before is named, not counted again
        "jobs": MetadataValue.json([r.job_id for r in imported]),
        "nothing_to_do": not imported,
        "inbox_files": path_list([object_store.uri(k) for k in keys]),
        "records_read": sum(r.records_read for r in imported),
        "raw_files_written": sum(not f.skipped for f in files),
        "already_imported": len(results) - len(imported),
        "jobs_imported_before": MetadataValue.json([r.job_id for r in results if r.already_imported]),
        # A file delivered again byte for byte: its raw files derived from the earlier job's, not parsed.
        "same_file_as_jobs": MetadataValue.json([r.same_file_as_job for r in results if r.same_file_as_job]),
        "raw_files": path_list([object_store.uri(f.key) for f in files]),
        "raw_bytes": sum(f.size for f in files),
        "preview": previews.raw_preview(object_store, files[0].key) if files else MetadataValue.text("nothing new"),
    })


def _pulled(context: AssetExecutionContext, config: ImportConfig, database: Database, object_store: ObjectStore,
            dmo: Dmo) -> MaterializeResult:
    """The DMO's configured source pulled now (sources/pull.py): its job, records and problems."""
    try:
        result = pull_source(database, object_store, dmo.slug, run_key=run_key(context), imported_by=config.imported_by,
                             promote=_run_promotes(context), full=config.full_pull, log=context.log.info)
    except (SourceError, UnreadableFileError) as exc:
        raise Failure(description=str(exc).splitlines()[0]) from exc
    with database.connect() as conn:
        pull = pull_summary(conn, result.job_id)
    # a retried run finds its pull imported already: the job is named, its records not counted again
    return MaterializeResult(metadata={
        "dmo": dmo.slug, "jobs": MetadataValue.json([result.job_id]),
        "records_read": 0 if result.already_imported else result.records_read,
        "already_imported": int(result.already_imported), "raw_files_written": sum(not f.skipped for f in result.files),
        "raw_files": path_list([object_store.uri(f.key) for f in result.files]),
        # pages fetched and failed, the high-water mark; problems are job_errors rows of stage 'import'
        "pull": MetadataValue.json(pull), "import_problems": len(result.problems),
        "preview": previews.raw_preview(object_store, result.files[0].key) if result.files
        else MetadataValue.text("nothing new"),
    })


@asset(partitions_def=dmo_partitions, group_name="listings", deps=[listing_raw_files], kinds={"postgres"},
       check_specs=[error_rate_spec("listing_stage")], code_version=versions.TRANSFORM_VERSION)
def listing_stage(context: AssetExecutionContext, config: StageRunConfig, database: Database,
                  object_store: ObjectStore) -> MaterializeResult:
    """Transformed, validated, hashed and matched records in the staging tables, each with its action.
    Written in place with set-based SQL, not returned to an IO manager: a DMO's records stream
    through COPY and are matched against `public` inside the database, too many to hold as a value."""
    with database.connect() as conn:
        dmo = get_dmo(conn, context.partition_key)
    result = stage_dmo(database, object_store, dmo, run_key(context), log=context.log.info, workers=config.workers)
    if result.job_id is None:
        return _nothing_staged(database, dmo, result.waiting)
    with database.connect() as conn:
        max_error_rate = job_config(conn, result.job_id)["validate"]["max_error_rate"]
        preview = previews.staged_preview(conn, result.job_id)
        errors_preview = previews.errors_preview(conn, result.job_id)
        categories, unmapped = previews.category_counts(conn, result.job_id)
    return MaterializeResult(
        metadata={
            "dmo": dmo.slug,
            "job_id": result.job_id,
            # Jobs staged in arrival order, and earlier ones promoted first (what their runs were about to do).
            "jobs_staged": MetadataValue.json(result.jobs_staged),
            "jobs_promoted_first": MetadataValue.json(result.promoted_first),
            "records_read": result.records_read,
            **{f"action_{a}": n for a, n in sorted(result.actions.items())},
            "needs_review": result.needs_review,
            # of those, records sharing a phone, website or name and address with a listing they
            # were not matched to: sent to a person, never a silent duplicate
            "review_by_identifier": result.identifier_reviews,
            "errors": result.errors,
            "errors_by_type": MetadataValue.json(result.error_types),
            "files_staged": result.files_staged,
            "files_resumed": result.files_resumed,
            "records_reused": result.records_reused,
            # Records still under review in the last import, sent again as they were: data copied, not transformed.
            "records_copied": result.records_copied,
            "transformed_files": path_list([object_store.uri(k) for k in result.transformed_keys]),
            "categories": MetadataValue.json(categories),
            # source values no vocabulary entry maps: add them to the DMO's transform.category_map
            "categories_unmapped": sum(unmapped.values()),
            "unmapped_category_values": MetadataValue.json(dict(list(unmapped.items())[:50])),
            "preview": preview,
            "errors_preview": errors_preview,
        },
        check_results=[error_rate_result(result.records_read, result.errors, max_error_rate)],
    )


def _nothing_staged(database: Database, dmo: Dmo, waiting: StageResult | None) -> MaterializeResult:
    """A stage that took no job says so, with no job's figures; its blocking check judges the job
    an earlier stage staged that waits for promotion (what this run's promotion would take), if any."""
    metadata: dict[str, Any] = {"dmo": dmo.slug, "nothing_to_do": True, "jobs_staged": MetadataValue.json([]),
                                "note": "no imported job waiting to be staged"}
    if waiting is None:
        return MaterializeResult(metadata=metadata, check_results=[error_rate_result(0, 0, 1.0)])
    with database.connect() as conn:
        max_error_rate = job_config(conn, waiting.job_id)["validate"]["max_error_rate"]
    metadata["checked_job_waiting_for_promotion"] = waiting.job_id
    return MaterializeResult(metadata=metadata,
                             check_results=[error_rate_result(waiting.records_read, waiting.errors, max_error_rate)])


@asset(partitions_def=dmo_partitions, group_name="listings", deps=[listing_stage], kinds={"postgres"})
def listing_promotion(context: AssetExecutionContext, config: PromotionConfig, database: Database) -> MaterializeResult:
    """Approved staged rows applied to the canonical public tables (inserts, updates, soft deletes).
    Changed in place with set-based SQL, not returned to an IO manager: promotion updates the rows
    that exist and must touch only those, under the DMO's lock, which replacing a partition cannot."""
    with database.connect() as conn:
        dmo = get_dmo(conn, context.partition_key)
    by = (config.accepted_by or context.run.tags.get("dagster/user") or f"run {context.run_id}") \
        if config.accept_errors else None
    result = promote_dmo(database, dmo, run_key=run_key(context), accept_errors_by=by, log=context.log.info)
    for job in result.blocked:
        context.log.warning(f"job {job.id} not promoted: its stage failed the error-rate check (error rate "
                            f"{job.error_rate} over {job.max_error_rate}); promote with accept_errors to override")
    with database.connect() as conn:
        preview = previews.live_preview(conn, dmo)
    metadata = {
        "dmo": dmo.slug,
        "jobs_promoted": MetadataValue.json(result.jobs),
        # earlier jobs, promoted before, whose rows people decided on were applied now
        "jobs_of_decided_rows": MetadataValue.json(result.decided_jobs),
        "jobs_blocked": MetadataValue.json([j.id for j in result.blocked]),
        "jobs_errors_accepted": MetadataValue.json(result.accepted),
        **{f"promoted_{a}": n for a, n in sorted(result.promoted.items())},
        "promoted_total": sum(result.promoted.values()),
        "nothing_to_do": not result.jobs and not result.promoted,
        "waiting_for_review": result.waiting_for_review,
        "live_listings": result.live_listings,
        "preview": preview,
    }
    # The version of the DMO's public listings: a promotion that changed none keeps it, so geocodes and
    # images (which follow a changed version, enrichment_assets.py) start no run for it.
    return MaterializeResult(metadata=metadata, data_version=DataVersion(result.state_version))


listing_assets = [listing_raw_files, listing_stage, listing_promotion]
