"""The two partitionings: listings by DMO (dynamic), hotel leads by region (static ISO 3166-2)."""

from dagster import DynamicPartitionsDefinition, StaticPartitionsDefinition

from sadie_pipeline.regions import REGIONS

DMO_PARTITIONS_NAME = "dmo"
dmo_partitions = DynamicPartitionsDefinition(name=DMO_PARTITIONS_NAME)
region_partitions = StaticPartitionsDefinition(list(REGIONS))

RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"


def region_ranges(keys: list[str]) -> list[tuple[str, str]]:
    """The regions as the fewest runs of consecutive partition keys, [(first, last), ...]: each
    becomes one run (the assets' single-run backfill policy reads context.partition_keys)."""
    order = {key: i for i, key in enumerate(REGIONS)}
    ranges: list[list[str]] = []
    for key in sorted(set(keys), key=order.__getitem__):
        if ranges and order[key] == order[ranges[-1][1]] + 1:
            ranges[-1][1] = key
        else:
            ranges.append([key, key])
    return [(a, b) for a, b in ranges]


def range_tags(first: str, last: str) -> dict[str, str]:
    return {RANGE_START_TAG: first, RANGE_END_TAG: last}
