"""Write-audit-publish: the blocking check that stops promotion of a bad stage."""

from __future__ import annotations

from dagster import AssetCheckResult, AssetCheckSeverity, AssetCheckSpec

from sadie_pipeline.partitions import dmo_partitions

ERROR_RATE_CHECK = "error_rate_within_threshold"


def error_rate_spec(asset_name: str) -> AssetCheckSpec:
    return AssetCheckSpec(
        ERROR_RATE_CHECK, asset=asset_name, blocking=True,
        # per DMO, like the hotel checks per region: one DMO's pass must not hide another's failure
        partitions_def=dmo_partitions,
        description="Fails (and blocks promotion) when the share of records rejected by validation "
                    "passes the DMO config's validate.max_error_rate.",
    )


def error_rate_result(records_read: int, errors: int, max_error_rate: float) -> AssetCheckResult:
    rate = errors / records_read if records_read else 0.0
    return AssetCheckResult(
        check_name=ERROR_RATE_CHECK,
        passed=rate <= max_error_rate,
        severity=AssetCheckSeverity.ERROR,
        metadata={"error_rate": round(rate, 4), "max_error_rate": max_error_rate, "errors": errors,
                  "records_read": records_read},
    )
